"""Force lists typed in at the table from the catalogue's choices (Building a Force, p.9; Squadron Lists,
p.36-47): the faction, then each aircraft with its additional weapons and upgrades.

Every choice is offered numbered from the catalogue, so an aircraft of another list or a weapon the
aircraft cannot take cannot be typed in; what only the whole force can break (the points limit, p.9;
one Imperial Ace or Fly Boss per force, p.37 and p.44) is checked when the player says ``done``, each
breach shown with its rule and page.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from aero_events.rulesets.aeronautica.forces import AircraftEntry, ForceList, force_breaches, force_points
from aero_events.rulesets.aeronautica.profiles import AircraftProfile, Catalogue

DONE = "done"


def _pick(ask: Callable[[str], str], say: Callable[[str], None], prompt: str, options: Sequence[str],
          ids: Sequence[str]) -> int:
    """The index of the option chosen by number or by id."""
    for number, option in enumerate(options, start=1):
        say(f"  {number:3}. {option}")
    while True:
        answer = ask(prompt).strip()
        if answer.isdigit() and 1 <= int(answer) <= len(options):
            return int(answer) - 1
        if answer in ids:
            return list(ids).index(answer)
        say(f"  choose 1-{len(options)} (or type the id)")


def _numbers(answer: str, limit: int) -> list[int] | None:
    """``"1 1 3"`` as indices (from 0), or None if any is not a choice."""
    picked = []
    for piece in answer.replace(",", " ").split():
        if not piece.isdigit() or not 1 <= int(piece) <= limit:
            return None
        picked.append(int(piece) - 1)
    return picked


def _weapon_choices(profile: AircraftProfile) -> list[tuple[str, int]]:
    seen: dict[str, int] = {}
    for group in profile.additional_weapons:
        for choice in group.choices:
            seen.setdefault(choice.weapon, choice.points)
    return list(seen.items())


def _entry(profile: AircraftProfile, catalogue: Catalogue, ask: Callable[[str], str],
           say: Callable[[str], None]) -> AircraftEntry:
    weapons: tuple[str, ...] = ()
    choices = _weapon_choices(profile)
    if choices:
        slots = " OR ".join(f"up to {group.slots} from {group.name}" for group in profile.additional_weapons)
        say(f"  additional weapons for the {profile.name} ({slots}):")
        for number, (weapon, points) in enumerate(choices, start=1):
            say(f"  {number:3}. {catalogue.weapons[weapon].name if weapon in catalogue.weapons else weapon} "
                f"(+{points} pts)")
        while True:
            picked = _numbers(ask("  weapons (numbers, repeat one to take it twice; empty for none)? "),
                              len(choices))
            if picked is not None:
                weapons = tuple(choices[i][0] for i in picked)
                break
            say(f"  type numbers 1-{len(choices)} separated by spaces")
    upgrades: tuple[str, ...] = ()
    offered = [u for u in catalogue.upgrades_of(profile.faction) if u.id not in profile.forbidden_upgrades]
    if offered:
        say(f"  upgrades (at most {profile.max_upgrades}):")
        for number, upgrade in enumerate(offered, start=1):
            say(f"  {number:3}. {upgrade.name} (+{upgrade.points} pts, p.{upgrade.page})")
        while True:
            picked = _numbers(ask("  upgrades (numbers; empty for none)? "), len(offered))
            if picked is not None:
                upgrades = tuple(offered[i].id for i in picked)
                break
            say(f"  type numbers 1-{len(offered)} separated by spaces")
    return AircraftEntry(aircraft=profile.id, weapons=weapons, upgrades=upgrades)


def build_force(player: str, points: int, catalogue: Catalogue, ask: Callable[[str], str],
                say: Callable[[str], None]) -> ForceList:
    """Ask for ``player``'s force, aircraft by aircraft, until it is legal at ``points`` (p.9)."""
    factions = list(catalogue.factions.values())
    say(f"\n{player}'s force: which Squadron List?")
    faction = factions[_pick(ask, say, "faction? ", [f"{f.name} ({f.id})" for f in factions],
                             [f.id for f in factions])]
    name = ask(f"name of {player}'s force (empty: {faction.name})? ").strip() or faction.name
    aircraft_list = list(catalogue.aircraft_of(faction.id))
    entries: list[AircraftEntry] = []
    while True:
        force = ForceList(name=name, faction=faction.id, aircraft=tuple(entries), points_limit=points)
        total = force_points(force, catalogue).total if entries else 0
        say(f"\n{player}: {len(entries)} aircraft, {total} of {points} points. Add an aircraft, "
            f"'remove N', or '{DONE}':")
        for number, profile in enumerate(aircraft_list, start=1):
            say(f"  {number:3}. {profile.name} ({profile.id}, {profile.points} pts, {profile.aircraft_class})")
        answer = ask("aircraft? ").strip()
        if answer == DONE:
            breaches = force_breaches(force, catalogue)
            if not breaches:
                return force
            for breach in breaches:
                say(f"  not yet legal: {breach}")
            continue
        if answer.startswith("remove "):
            index = answer.split()[1]
            if index.isdigit() and 1 <= int(index) <= len(entries):
                removed = entries.pop(int(index) - 1)
                say(f"  removed {removed.aircraft}")
            else:
                say(f"  remove 1-{len(entries)}")
            continue
        ids = [profile.id for profile in aircraft_list]
        if answer.isdigit() and 1 <= int(answer) <= len(aircraft_list):
            profile = aircraft_list[int(answer) - 1]
        elif answer in ids:
            profile = aircraft_list[ids.index(answer)]
        else:
            say(f"  choose 1-{len(aircraft_list)}, 'remove N' or '{DONE}'")
            continue
        entry = _entry(profile, catalogue, ask, say)
        alone = ForceList(name=name, faction=faction.id, aircraft=(entry,))
        problems = force_breaches(alone, catalogue)
        if problems:
            for problem in problems:
                say(f"  refused: {problem}")
            continue
        entries.append(entry)
        for number, taken in enumerate(entries, start=1):
            extras = "".join(f" +{w}" for w in taken.weapons) + "".join(f" /{u}" for u in taken.upgrades)
            say(f"  {number}. {taken.aircraft}{extras}")
