"""Building a force (rulebook p.9) from the Squadron Lists (p.36-47).

* "A force can contain any combination of aircraft from a single Squadron List" (p.9).
* "A player's force may be equal to or up to 10 points below the agreed points limit, but it may not be
  more than the agreed points limit. For example, if two players have agreed a limit of 200 points,
  neither player's force can be 189 points or 201 points." (p.9)
* Additional weapons: how many and which, at what cost, per aircraft entry (Thunderbolt p.38, Fury p.40,
  Marauder p.42, Dakkajet p.45, Fighta Bommer p.46, the last taking EITHER up to three Rokkits / Wing
  Bombs OR up to two Big Bombs).
* Aircraft upgrades (p.36): no more than two per aircraft, none twice on the same aircraft, each race its
  own; Imperial Ace (p.37) and Fly Boss (p.44) on one aircraft per force only; Kustom Big Shootas (p.45)
  reduces the additional weapons an aircraft can take by one.

Every breach is a :class:`~aero_events.core.errors.RuleError` naming the rule and page.
:func:`force_breaches` lists them all; :func:`validate_force` raises the first.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from aero_events.core.errors import DataError, RuleError, read_data_file
from aero_events.rulesets.aeronautica.profiles import (
    AircraftProfile,
    Catalogue,
    JsonDocument,
    OptionGroup,
)

__all__ = [
    "POINTS_BELOW_LIMIT",
    "AircraftEntry",
    "AircraftPoints",
    "ForceList",
    "ForcePoints",
    "encode_force",
    "force_breaches",
    "force_points",
    "load_checked_force",
    "load_force",
    "parse_force",
    "validate_force",
]

#: The largest points limit a force file may name (the rulebook sets none; p.34's agreed values are 25-250).
MAX_POINTS_LIMIT = 100_000
#: A force may be up to this many points below the agreed limit (p.9).
POINTS_BELOW_LIMIT = 10

BUILDING_A_FORCE = ("Building a Force", 9)
SQUADRON_LISTS = ("Squadron Lists", "36-47")
AIRCRAFT_UPGRADES = ("Aircraft Upgrades", 36)


class AircraftEntry(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One aircraft of a force list (p.36 Force List): its profile id, the additional weapons taken (ids,
    repeats allowed), the upgrades taken (ids), and an optional name for the airframe."""

    aircraft: str
    weapons: tuple[str, ...] = ()
    upgrades: tuple[str, ...] = ()
    name: str | None = None


class ForceList(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A player's force: a name, the Squadron List (faction id) it is drawn from, its aircraft, and the
    agreed points limit (None: no limit agreed, so no points check)."""

    name: str
    faction: str
    aircraft: tuple[AircraftEntry, ...]
    points_limit: int | None = None


class AircraftPoints(msgspec.Struct, frozen=True):
    """What one aircraft of a force costs: base profile + additional weapons + upgrades = total."""

    aircraft: str
    name: str | None
    base: int
    weapons: int
    upgrades: int
    total: int


class ForcePoints(msgspec.Struct, frozen=True):
    """The cost of each aircraft of a force, in list order, and of the whole force."""

    aircraft: tuple[AircraftPoints, ...]
    total: int
    points_limit: int | None = None


def _label(index: int, entry: AircraftEntry) -> str:
    named = f" {entry.name!r}" if entry.name else ""
    return f"aircraft {index + 1} ({entry.aircraft}{named})"


def _slot_reduction(entry: AircraftEntry, catalogue: Catalogue) -> int:
    return sum(
        1 for uid in entry.upgrades if uid in catalogue.upgrades and catalogue.upgrades[uid].takes_weapon_slot
    )


def _groups_for(profile: AircraftProfile, weapons: tuple[str, ...]) -> list[OptionGroup]:
    """The option groups that offer every one of ``weapons``."""
    return [g for g in profile.additional_weapons if all(g.option(w) is not None for w in weapons)]


def _price_weapon(profile: AircraftProfile, weapon: str, groups: list[OptionGroup]) -> int | None:
    """The price of ``weapon``: from a group offering all the picks if any, else from any group offering it
    (the data guarantees one weapon costs the same in every group of an aircraft)."""
    for group in (*groups, *profile.additional_weapons):
        option = group.option(weapon)
        if option is not None:
            return option.points
    return None


def _priceable(entry: AircraftEntry, profile: AircraftProfile, catalogue: Catalogue) -> bool:
    """Whether every weapon and upgrade of ``entry`` has a price."""
    return all(_price_weapon(profile, w, []) is not None for w in entry.weapons) and all(
        u in catalogue.upgrades for u in entry.upgrades
    )


def force_points(force: ForceList, catalogue: Catalogue) -> ForcePoints:
    """The points of each aircraft (base + weapons + upgrades) and of the force.

    Prices only; legality is :func:`validate_force`'s. An id the catalogue does not know, or a weapon the
    aircraft cannot take, cannot be priced and raises RuleError.
    """
    rows: list[AircraftPoints] = []
    for i, entry in enumerate(force.aircraft):
        profile = catalogue.aircraft.get(entry.aircraft)
        if profile is None:
            raise _unknown_aircraft(i, entry, catalogue)
        groups = _groups_for(profile, entry.weapons)
        weapon_points = 0
        for wid in entry.weapons:
            price = _price_weapon(profile, wid, groups)
            if price is None:
                raise _weapon_not_allowed(i, entry, profile, wid, catalogue)
            weapon_points += price
        upgrade_points = 0
        for uid in entry.upgrades:
            upgrade = catalogue.upgrades.get(uid)
            if upgrade is None:
                raise _unknown_upgrade(i, entry, uid, catalogue)
            upgrade_points += upgrade.points
        total = profile.points + weapon_points + upgrade_points
        rows.append(
            AircraftPoints(entry.aircraft, entry.name, profile.points, weapon_points, upgrade_points, total)
        )
    return ForcePoints(tuple(rows), sum(r.total for r in rows), force.points_limit)


def _weapon_name(wid: str, catalogue: Catalogue) -> str:
    weapon = catalogue.weapons.get(wid)
    return weapon.name if weapon is not None else wid


def _unknown_aircraft(i: int, entry: AircraftEntry, catalogue: Catalogue) -> RuleError:
    rule, page = SQUADRON_LISTS
    return RuleError(
        f"{_label(i, entry)}: no aircraft {entry.aircraft!r} in the Squadron Lists "
        f"(known: {', '.join(catalogue.aircraft)})",
        rule=rule,
        page=page,
    )


def _unknown_upgrade(i: int, entry: AircraftEntry, uid: str, catalogue: Catalogue) -> RuleError:
    rule, page = AIRCRAFT_UPGRADES
    return RuleError(f"{_label(i, entry)}: no upgrade {uid!r} in the Squadron Lists", rule=rule, page=page)


def _weapon_not_allowed(
    i: int, entry: AircraftEntry, profile: AircraftProfile, wid: str, catalogue: Catalogue
) -> RuleError:
    allowed = sorted({c.weapon for g in profile.additional_weapons for c in g.choices})
    if wid not in catalogue.weapons:
        what = f"no weapon {wid!r} in the Squadron Lists"
    else:
        what = f"a {profile.name} cannot take {catalogue.weapons[wid].name} as an additional weapon"
    hint = f"; it may take: {', '.join(allowed)}" if allowed else "; it takes no additional weapons"
    for uid, upgrade in catalogue.upgrades.items():
        if upgrade.weapon == wid:
            hint += f" ({wid} comes with the {upgrade.name} upgrade: list {uid!r} in upgrades)"
    return RuleError(f"{_label(i, entry)}: {what}{hint}", rule="Additional Weaponry", page=profile.page)


def _entry_breaches(
    i: int, entry: AircraftEntry, profile: AircraftProfile, catalogue: Catalogue
) -> list[RuleError]:
    errors: list[RuleError] = []
    label = _label(i, entry)

    # Additional weapons (each aircraft's entry, p.38-46; Kustom Big Shootas p.45).
    reduction = _slot_reduction(entry, catalogue)
    bad_weapon = False
    for wid in entry.weapons:
        if not any(g.option(wid) is not None for g in profile.additional_weapons):
            errors.append(_weapon_not_allowed(i, entry, profile, wid, catalogue))
            bad_weapon = True
    if reduction and not profile.additional_weapons:
        errors.append(
            RuleError(
                f"{label}: a {profile.name} takes no additional weapons, so it has no slot for Kustom Big Shootas "
                "to take",
                rule="Kustom Big Shootas",
                page=45,
            )
        )
    elif not bad_weapon and entry.weapons:
        groups = _groups_for(profile, entry.weapons)
        if not groups:
            lists = " OR ".join(
                f"up to {g.slots} of {' / '.join(_weapon_name(c.weapon, catalogue) for c in g.choices)}"
                for g in profile.additional_weapons
            )
            taken = ", ".join(_weapon_name(w, catalogue) for w in entry.weapons)
            errors.append(
                RuleError(
                    f"{label}: a {profile.name} takes its additional weapons from one list only, EITHER {lists}; "
                    f"{taken} mixes them",
                    rule="Additional Weaponry",
                    page=profile.page,
                )
            )
        elif not any(len(entry.weapons) <= g.slots - reduction for g in groups):
            slots = max(g.slots for g in groups)
            if len(entry.weapons) <= slots:
                errors.append(
                    RuleError(
                        f"{label}: Kustom Big Shootas take one of the {slots} additional-weapon slots, leaving "
                        f"{slots - reduction}; {len(entry.weapons)} additional weapons taken",
                        rule="Kustom Big Shootas",
                        page=45,
                    )
                )
            else:
                errors.append(
                    RuleError(
                        f"{label}: a {profile.name} may take {slots} additional weapons from this list, not "
                        f"{len(entry.weapons)}",
                        rule="Additional Weaponry",
                        page=profile.page,
                    )
                )
    elif (
        reduction and not entry.weapons and not any(g.slots >= reduction for g in profile.additional_weapons)
    ):
        errors.append(
            RuleError(
                f"{label}: no additional-weapon slot left for Kustom Big Shootas to take",
                rule="Kustom Big Shootas",
                page=45,
            )
        )

    # Upgrades (p.36).
    rule, page = AIRCRAFT_UPGRADES
    if len(entry.upgrades) > profile.max_upgrades:
        errors.append(
            RuleError(
                f"{label}: no aircraft may take more than {profile.max_upgrades} upgrades; "
                f"{len(entry.upgrades)} taken",
                rule=rule,
                page=page,
            )
        )
    seen: set[str] = set()
    for uid in entry.upgrades:
        upgrade = catalogue.upgrades.get(uid)
        if upgrade is None:
            errors.append(_unknown_upgrade(i, entry, uid, catalogue))
            continue
        if upgrade.faction != profile.faction:
            faction = catalogue.factions.get(upgrade.faction)
            errors.append(
                RuleError(
                    f"{label}: {upgrade.name} is a {faction.name if faction else upgrade.faction} upgrade; each race "
                    "has its own selection of aircraft upgrades",
                    rule=rule,
                    page=page,
                )
            )
        if uid in profile.forbidden_upgrades:
            errors.append(
                RuleError(
                    f"{label}: a {profile.name} may not take {upgrade.name}", rule=rule, page=profile.page
                )
            )
        if uid in seen and not upgrade.repeatable:
            errors.append(
                RuleError(
                    f"{label}: no upgrade can be taken twice on the same aircraft ({upgrade.name})",
                    rule=rule,
                    page=page,
                )
            )
        seen.add(uid)
    return errors


def force_breaches(force: ForceList, catalogue: Catalogue) -> list[RuleError]:
    """Every way ``force`` breaks the force-building rules (empty if it is legal), in list order."""
    errors: list[RuleError] = []
    rule, page = BUILDING_A_FORCE
    faction = catalogue.factions.get(force.faction)
    if faction is None:
        errors.append(
            RuleError(
                f"force {force.name!r}: no Squadron List {force.faction!r} (known: {', '.join(catalogue.factions)})",
                rule=rule,
                page=page,
            )
        )
    if not force.aircraft:
        errors.append(RuleError(f"force {force.name!r} has no aircraft", rule=rule, page=page))
    priceable = True
    for i, entry in enumerate(force.aircraft):
        profile = catalogue.aircraft.get(entry.aircraft)
        if profile is None:
            errors.append(_unknown_aircraft(i, entry, catalogue))
            priceable = False
            continue
        if faction is not None and profile.faction != force.faction:
            other = catalogue.factions.get(profile.faction)
            errors.append(
                RuleError(
                    f"{_label(i, entry)}: a {profile.name} is from the "
                    f"{other.name if other else profile.faction} list; a force contains aircraft from a single "
                    f"Squadron List ({faction.name})",
                    rule=rule,
                    page=page,
                )
            )
        errors += _entry_breaches(i, entry, profile, catalogue)
        if not _priceable(entry, profile, catalogue):
            priceable = False

    # One per force (Imperial Ace p.37, Fly Boss p.44).
    holders: dict[str, int] = {}
    for entry in force.aircraft:
        for uid in set(entry.upgrades):
            upgrade = catalogue.upgrades.get(uid)
            if upgrade is not None and upgrade.one_per_force:
                holders[uid] = holders.get(uid, 0) + 1
    for uid, count in holders.items():
        upgrade = catalogue.upgrades[uid]
        if count > 1:
            errors.append(
                RuleError(
                    f"{upgrade.name} may only be taken by one aircraft within a force; {count} aircraft have it",
                    rule=upgrade.name,
                    page=upgrade.page,
                )
            )

    # Points (p.9).
    if priceable and force.points_limit is not None:
        limit = force.points_limit
        total = force_points(force, catalogue).total
        if limit < 1:
            errors.append(
                RuleError(f"the agreed points limit must be positive, not {limit}", rule=rule, page=page)
            )
        elif total > limit:
            errors.append(
                RuleError(
                    f"force {force.name!r} is {total} points, more than the agreed limit of {limit}",
                    rule=rule,
                    page=page,
                )
            )
        elif total < limit - POINTS_BELOW_LIMIT:
            errors.append(
                RuleError(
                    f"force {force.name!r} is {total} points; it may be at most {POINTS_BELOW_LIMIT} points below the "
                    f"agreed limit of {limit} (so {limit - POINTS_BELOW_LIMIT} to {limit})",
                    rule=rule,
                    page=page,
                )
            )
    return errors


def validate_force(force: ForceList, catalogue: Catalogue) -> ForcePoints:
    """Check ``force`` against the force-building rules; raise the first breach as a RuleError (rule and
    page set), else return its points."""
    errors = force_breaches(force, catalogue)
    if errors:
        raise errors[0]
    return force_points(force, catalogue)


# ---------------------------------------------------------------------------------------------------------
# Files
# ---------------------------------------------------------------------------------------------------------


def _entry_name(collection: str, index: int, item: Any) -> str:
    if collection == "aircraft" and isinstance(item, dict) and isinstance(item.get("aircraft"), str):
        return f"aircraft[{index}] ({item['aircraft']})"
    return f"{collection}[{index}]"


def parse_force(raw: bytes | str, source: str = "<string>") -> ForceList:
    """A ForceList from JSON text; a malformed one raises DataError naming source, entry, field and line.

    Only the shape is checked here; the rules are :func:`validate_force`'s.
    """
    doc = JsonDocument(raw, source, _entry_name)
    force = doc.decode(ForceList)
    if force.points_limit is not None and not 1 <= force.points_limit <= MAX_POINTS_LIMIT:
        raise doc.error(f"points_limit must be 1 to {MAX_POINTS_LIMIT} points, not {force.points_limit}",
                        ("points_limit",))
    if not force.faction.strip():
        raise doc.error("faction is empty", ("faction",))
    return force


def load_force(path: str | Path) -> ForceList:
    """A ForceList from a JSON file (see :func:`parse_force`), or from a BattleScribe / NewRecruit roster
    (``.ros``, ``.rosz``: see :mod:`~aero_events.rulesets.aeronautica.rosters`)."""
    if str(path).lower().endswith((".ros", ".rosz")):
        from aero_events.rulesets.aeronautica.rosters import load_roster

        return load_roster(path)
    raw = read_data_file(path)
    return parse_force(raw, str(path))


def load_checked_force(path: str | Path, catalogue: Catalogue) -> ForceList:
    """A force file read (:func:`load_force`) and checked against the force-building rules
    (:func:`validate_force`); a breach is a DataError naming the file and the rule with its page."""
    force = load_force(path)
    try:
        validate_force(force, catalogue)
    except RuleError as breach:
        raise DataError(str(breach), source=str(path)) from None
    return force


def encode_force(force: ForceList) -> bytes:
    """The JSON of a force list, as :func:`load_force` reads it."""
    return msgspec.json.format(msgspec.json.encode(force), indent=2)
