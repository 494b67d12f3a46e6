"""Aircraft, weapon and upgrade profiles of Aeronautica Imperialis, and the loaders of their data files.

The numbers live in JSON data files (``data/aircraft.json``, ``data/weapons.json``, ``data/upgrades.json``),
never in code. Each file names its ``source`` and ``data_version``. What a profile holds follows the
rulebook (Wings of Vengeance, 2019):

* aircraft profile characteristics, p.10-11: Name, Class, Points, Special Rules, Structure, Throttle,
  Ace Manoeuvres, Min Speed, Max Speed, Max Altitude, Handling, Transport, Fuel, Weaponry, Additional
  Weaponry;
* Fire Arcs, p.21 (Front, Rear, Left Side, Right Side, All Round; Up and Down);
* weapon special rules, p.24-25 (Extra Damage (X+), Tail Gunner, Ground Attack, Aerial Attack,
  Ground-to-Air Fire, Effective Altitude (X), Autonomous Weapons);
* the Squadron Lists, p.36-47: the Rocket Boosters and Jump Troops special rules (p.37), aircraft upgrades
  (p.36, Imperial Navy p.37, Orks p.44-45) and each aircraft's additional weapons.

A profile may use what the rules allow even where the five 2019 aircraft do not: Min Speed 0 (hovering,
p.16), a Transport or Fuel value (p.11), the Rocket Boosters special rule (p.37), and the class
``"Ground Defence"`` (p.8: static, so no speed, altitude or manoeuvres).

Additional weapons are modelled as *option groups*: an aircraft takes all its additional weapons from one
group, at most ``slots`` of them. Most aircraft have one group; the Fighta Bommer (p.46) has two, "three at
2 points each" or "alternatively two at 4 points each".

Malformed data is refused with :class:`~aero_events.core.errors.DataError` naming the file, the entry
(aircraft, weapon or upgrade id) and the field; where the file is JSON text the message also gives the
line, and the error carries it as ``err.line``.
"""

from __future__ import annotations

import bisect
import functools
import json
import re
from collections.abc import Callable, Iterable, Mapping
from importlib import resources
from pathlib import Path
from typing import Any, Literal, NamedTuple, TypeVar

import msgspec

from aero_events.core.errors import DataError, read_data_file

__all__ = [
    "AIRCRAFT_CLASSES",
    "AIRCRAFT_SPECIAL_RULES",
    "FIRE_ARCS",
    "WEAPON_SPECIAL_RULES",
    "AircraftProfile",
    "Catalogue",
    "CharacteristicModifier",
    "Faction",
    "FireArcs",
    "JsonDocument",
    "OptionGroup",
    "Upgrade",
    "WeaponOption",
    "WeaponProfile",
    "WeaponSpecialRule",
    "apply_upgrades",
    "build_catalogue",
    "data_path",
    "load_catalogue",
    "load_catalogue_from",
]

T = TypeVar("T")

Arc = Literal["front", "rear", "left", "right", "all_round"]
Vertical = Literal["up", "down"]
AircraftClass = Literal["Scout", "Fighter", "Bomber", "Ground Defence"]
WeaponRuleName = Literal[
    "extra_damage",
    "tail_gunner",
    "aerial_attack",
    "ground_attack",
    "ground_to_air",
    "effective_altitude",
    "autonomous",
]
AircraftRuleName = Literal["rocket_boosters", "jump_troops"]
Characteristic = Literal["min_speed", "max_speed", "throttle", "structure", "max_altitude", "handling"]

FIRE_ARCS: tuple[str, ...] = ("front", "rear", "left", "right", "all_round")
AIRCRAFT_CLASSES: tuple[str, ...] = ("Scout", "Fighter", "Bomber", "Ground Defence")
WEAPON_SPECIAL_RULES: tuple[str, ...] = (
    "extra_damage",
    "tail_gunner",
    "aerial_attack",
    "ground_attack",
    "ground_to_air",
    "effective_altitude",
    "autonomous",
)
AIRCRAFT_SPECIAL_RULES: tuple[str, ...] = ("rocket_boosters", "jump_troops")

#: Weapon special rules that carry a number: Extra Damage (X+) and Effective Altitude (X), p.24-25.
_VALUED_RULES = frozenset({"extra_damage", "effective_altitude"})
_ID_RE = re.compile(r"^[a-z][a-z0-9_]*$")
#: The highest Speed the rules know: the climb/dive tables stop at 9, Wazmek Speshul caps at 9 (p.18, p.44).
MAX_SPEED_LIMIT = 9


class _Frozen(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Base of the data Structs: immutable, and unknown fields in a file are an error."""


# ---------------------------------------------------------------------------------------------------------
# Structs
# ---------------------------------------------------------------------------------------------------------


class Faction(_Frozen):
    """A Squadron List (p.36): ``imperial_navy`` (p.37) or ``ork_air_waaagh`` (p.44)."""

    id: str
    name: str
    page: int | None = None


class FireArcs(_Frozen):
    """A weapon's Fire Arc (p.21): one or more of front/rear/left/right, or all_round alone.

    ``vertical`` is the Up/Down restriction: ``"up"`` may only target aircraft at the same Altitude or
    above, ``"down"`` the same or below, ``None`` none. All Round weapons always have one (p.21), except
    Ground-to-Air weapons, which always fire All Round from the ground (p.28).
    """

    arcs: tuple[Arc, ...]
    vertical: Vertical | None = None


class WeaponSpecialRule(_Frozen):
    """One weapon special rule (p.24-25), e.g. ``{"rule": "extra_damage", "value": 6}``.

    ``value`` is the X of Extra Damage (X+) and Effective Altitude (X), and absent for the others.
    """

    rule: WeaponRuleName
    value: int | None = None


class WeaponProfile(_Frozen):
    """A weapon's profile (p.11): Fire Arc, Firepower (Short, Medium, Long), Damage, Ammo, Special.

    ``damage`` is the N of "N+". ``ammo`` is None for UL (unlimited), else 1, 2 or 3 (p.11).
    """

    id: str
    name: str
    fire_arc: FireArcs
    firepower: tuple[int, int, int]
    damage: int
    ammo: int | None = None
    special_rules: tuple[WeaponSpecialRule, ...] = ()
    page: int | None = None
    note: str | None = None

    def has_rule(self, rule: str) -> bool:
        """Whether the weapon has the special rule named ``rule``."""
        return any(r.rule == rule for r in self.special_rules)

    def rule_value(self, rule: str) -> int | None:
        """The X of a valued special rule (Extra Damage, Effective Altitude), or None if absent."""
        for r in self.special_rules:
            if r.rule == rule:
                return r.value
        return None


class WeaponOption(_Frozen):
    """One additional weapon an aircraft may take, and what it costs (Squadron Lists, p.36-47)."""

    weapon: str
    points: int


class OptionGroup(_Frozen):
    """A list of additional weapons to pick from: at most ``slots`` picks, repeats allowed.

    An aircraft with several groups takes all its picks from one of them (the Fighta Bommer, p.46).
    """

    name: str
    slots: int
    choices: tuple[WeaponOption, ...]

    def option(self, weapon: str) -> WeaponOption | None:
        """The choice for ``weapon`` in this group, or None."""
        for choice in self.choices:
            if choice.weapon == weapon:
                return choice
        return None


class AircraftProfile(_Frozen):
    """An aircraft profile (p.10-11). ``class`` in the file is ``aircraft_class`` here.

    ``handling`` is the N of "N+". ``transport`` and ``fuel`` are None where the profile shows "-".
    ``weapons`` are the standard weapons (ids); ``additional_weapons`` the option groups. ``max_upgrades``
    and ``forbidden_upgrades`` state the exceptions p.36 allows a profile to make ("unless stated in that
    aircraft's profile", "this will be noted in that aircraft's entry").
    """

    id: str
    name: str
    faction: str
    aircraft_class: AircraftClass = msgspec.field(name="class")
    points: int
    structure: int
    throttle: int
    ace_manoeuvres: tuple[int, ...]
    min_speed: int
    max_speed: int
    max_altitude: int
    handling: int
    transport: int | None = None
    fuel: int | None = None
    special_rules: tuple[AircraftRuleName, ...] = ()
    weapons: tuple[str, ...] = ()
    additional_weapons: tuple[OptionGroup, ...] = ()
    max_upgrades: int = 2
    forbidden_upgrades: tuple[str, ...] = ()
    page: int | None = None
    note: str | None = None

    @property
    def can_hover(self) -> bool:
        """Min Speed 0 lets an aircraft Hover, and then it cannot Stall (p.16, p.18)."""
        return self.min_speed == 0

    @property
    def is_ground_defence(self) -> bool:
        """Ground Defences are not aircraft but are bought as part of a force (p.8)."""
        return self.aircraft_class == "Ground Defence"

    def has_rule(self, rule: str) -> bool:
        """Whether the aircraft has the special rule ``rule`` (e.g. ``"rocket_boosters"``, p.37)."""
        return rule in self.special_rules


class CharacteristicModifier(_Frozen):
    """A change an upgrade makes to a characteristic, e.g. Wazmek Speshul's +1 Max Speed up to 9 (p.44).

    ``limit`` caps the result: a ceiling for a positive ``delta``, a floor for a negative one.
    """

    characteristic: Characteristic
    delta: int
    limit: int | None = None

    def apply(self, value: int) -> int:
        """The characteristic after this modifier."""
        new = value + self.delta
        if self.limit is not None:
            new = min(new, max(value, self.limit)) if self.delta > 0 else max(new, min(value, self.limit))
        return new


class Upgrade(_Frozen):
    """An aircraft upgrade (p.36; Imperial Navy p.37, Orks p.44-45).

    ``one_per_force``: "may only be taken by one aircraft within a force" (Imperial Ace, Fly Boss).
    ``repeatable``: may be taken twice on one aircraft (p.36: none can, "unless stated otherwise").
    ``takes_weapon_slot``: reduces the additional weapons the aircraft can take by one, and ``weapon`` is
    the weapon it gains (Kustom Big Shootas, p.45). ``modifiers`` change characteristics.
    """

    id: str
    name: str
    faction: str
    points: int
    summary: str
    page: int | None = None
    one_per_force: bool = False
    repeatable: bool = False
    takes_weapon_slot: bool = False
    weapon: str | None = None
    modifiers: tuple[CharacteristicModifier, ...] = ()


class Catalogue(msgspec.Struct, frozen=True, kw_only=True):
    """Everything a force is built from: factions, aircraft, weapons and upgrades, keyed by id.

    The mappings are plain dicts so the catalogue can be encoded; treat them as read-only (the default
    catalogue is cached and shared).
    """

    data_version: str
    source: str
    factions: dict[str, Faction]
    aircraft: dict[str, AircraftProfile]
    weapons: dict[str, WeaponProfile]
    upgrades: dict[str, Upgrade]

    def aircraft_of(self, faction: str) -> tuple[AircraftProfile, ...]:
        """The aircraft of one Squadron List, in file order."""
        return tuple(a for a in self.aircraft.values() if a.faction == faction)

    def upgrades_of(self, faction: str) -> tuple[Upgrade, ...]:
        """The upgrades of one Squadron List, in file order."""
        return tuple(u for u in self.upgrades.values() if u.faction == faction)


# The shapes of the three files.


class AircraftFile(_Frozen):
    source: str
    data_version: str
    factions: tuple[Faction, ...]
    aircraft: tuple[AircraftProfile, ...]
    note: str | None = None


class WeaponsFile(_Frozen):
    source: str
    data_version: str
    weapons: tuple[WeaponProfile, ...]
    note: str | None = None


class UpgradesFile(_Frozen):
    source: str
    data_version: str
    upgrades: tuple[Upgrade, ...]
    note: str | None = None


def apply_upgrades(profile: AircraftProfile, upgrades: Iterable[Upgrade]) -> AircraftProfile:
    """The profile as modified by ``upgrades``, in order: characteristic modifiers applied, and any weapon
    an upgrade grants (Kustom Big Shootas, p.45) added to the standard weapons."""
    changes: dict[str, Any] = {}
    weapons = list(profile.weapons)
    for upgrade in upgrades:
        for mod in upgrade.modifiers:
            current = changes.get(mod.characteristic, getattr(profile, mod.characteristic))
            changes[mod.characteristic] = mod.apply(current)
        if upgrade.weapon is not None:
            weapons.append(upgrade.weapon)
    return msgspec.structs.replace(profile, weapons=tuple(weapons), **changes)


# ---------------------------------------------------------------------------------------------------------
# JSON documents: decoding with errors that name file, entry, field and line
# ---------------------------------------------------------------------------------------------------------

Path_ = tuple[str | int, ...]
EntryNamer = Callable[[str, int, Any], str]


def default_entry_name(collection: str, index: int, item: Any) -> str:
    """An entry's name in an error: its ``id`` if it has one, else ``collection[index]``."""
    if isinstance(item, dict) and isinstance(item.get("id"), str) and item["id"]:
        return item["id"]
    return f"{collection}[{index}]"


def format_field(path: Iterable[str | int]) -> str | None:
    """``("weapons", 1)`` -> ``"weapons[1]"``; ``("a", 0, "b")`` -> ``"a[0].b"``; empty -> None."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else part
    return out or None


_PATH_TOKEN = re.compile(r"\.([^.\[\]]+)|\[(\d+|\.\.\.)\]")
_BACKTICK = re.compile(r"`([^`]*)`")
_BYTE_POS = re.compile(r"\(byte (\d+)\)")


def _parse_msgspec_path(text: str) -> Path_:
    """``"$.aircraft[2].max_speed"`` -> ``("aircraft", 2, "max_speed")``."""
    parts: list[str | int] = []
    for name, index in _PATH_TOKEN.findall(text.removeprefix("$")):
        if name:
            parts.append(name)
        elif index.isdigit():
            parts.append(int(index))
        else:
            parts.append("...")
    return tuple(parts)


class _LineScanner:
    """Maps each value (and object key) of a syntactically valid JSON text to its line, and finds
    duplicate keys (which JSON decoders silently resolve to the last one)."""

    def __init__(self, text: str):
        self.text = text
        self.pos = 0
        self._newlines = [i for i, c in enumerate(text) if c == "\n"]
        self.lines: dict[Path_, int] = {}
        self.duplicates: list[tuple[Path_, int]] = []

    def line_at(self, pos: int) -> int:
        return bisect.bisect_left(self._newlines, pos) + 1

    def scan(self) -> None:
        self._value(())

    def _ws(self) -> None:
        text, n = self.text, len(self.text)
        while self.pos < n and text[self.pos] in " \t\r\n\ufeff":
            self.pos += 1

    def _string(self) -> str:
        start = self.pos
        self.pos += 1
        text = self.text
        while text[self.pos] != '"':
            self.pos += 2 if text[self.pos] == "\\" else 1
        self.pos += 1
        return json.loads(text[start : self.pos])

    def _value(self, path: Path_) -> None:
        self._ws()
        self.lines.setdefault(path, self.line_at(self.pos))
        c = self.text[self.pos]
        if c == "{":
            self.pos += 1
            seen: set[str] = set()
            self._ws()
            if self.text[self.pos] == "}":
                self.pos += 1
                return
            while True:
                self._ws()
                key_line = self.line_at(self.pos)
                key = self._string()
                if key in seen:
                    self.duplicates.append((path + (key,), key_line))
                seen.add(key)
                self.lines[path + (key,)] = key_line
                self._ws()
                self.pos += 1  # ':'
                self._value(path + (key,))
                self._ws()
                c = self.text[self.pos]
                self.pos += 1
                if c == "}":
                    return
        elif c == "[":
            self.pos += 1
            self._ws()
            if self.text[self.pos] == "]":
                self.pos += 1
                return
            index = 0
            while True:
                self._value(path + (index,))
                index += 1
                self._ws()
                c = self.text[self.pos]
                self.pos += 1
                if c == "]":
                    return
        elif c == '"':
            self._string()
        else:
            text, n = self.text, len(self.text)
            while self.pos < n and text[self.pos] not in ",]} \t\r\n":
                self.pos += 1


def _first_bad_utf8_line(raw: bytes) -> int:
    """The line of the first byte that is not UTF-8."""
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return raw[: exc.start].count(b"\n") + 1
    return 1


class JsonDocument:
    """A JSON data file read for decoding: its plain data, the line of every value, and a way to turn a
    problem at a path into a :class:`DataError` naming file, entry, field and line.

    ``entry_name(collection, index, item)`` names the entry at ``$.collection[index]`` (default: its id).
    """

    def __init__(self, raw: bytes | str, source: str, entry_name: EntryNamer = default_entry_name):
        self.source = source
        self.entry_name = entry_name
        if isinstance(raw, str):
            raw = raw.encode()
        self.raw = raw
        try:
            self.data = msgspec.json.decode(raw)
        except RecursionError:
            raise DataError("not readable: nested too deeply", source=source, location=1) from None
        except UnicodeDecodeError:
            raise DataError("not UTF-8 text", source=source, location=_first_bad_utf8_line(raw)) from None
        except msgspec.DecodeError as exc:
            message = str(exc)
            m = _BYTE_POS.search(message)
            # no position (an empty or truncated file): the last line
            line = raw[: int(m.group(1))].count(b"\n") + 1 if m else raw.rstrip().count(b"\n") + 1
            err = DataError(f"not valid JSON: {message}", source=source, location=line)
            err.line = line  # type: ignore[attr-defined]
            raise err from None
        scanner = _LineScanner(raw.decode("utf-8", errors="replace"))
        try:
            scanner.scan()
        except (IndexError, ValueError):  # pragma: no cover - msgspec accepted the text, so it scans
            pass
        self.lines = scanner.lines
        if scanner.duplicates:
            path, line = scanner.duplicates[0]
            raise self.error(f"key {path[-1]!r} appears twice in one object (line {line})", path)

    @classmethod
    def from_file(cls, path: str | Path, entry_name: EntryNamer = default_entry_name) -> JsonDocument:
        """Read ``path``; a missing or unreadable file is a DataError too."""
        raw = read_data_file(path)
        return cls(raw, str(path), entry_name)

    def line_of(self, path: Path_) -> int | None:
        """The line of the value at ``path``, or of its nearest enclosing value."""
        path = tuple(path)
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return self.lines.get((), None)

    def _item(self, collection: str, index: int) -> Any:
        items = self.data.get(collection) if isinstance(self.data, dict) else None
        if isinstance(items, list) and 0 <= index < len(items):
            return items[index]
        return None

    def split(self, path: Path_) -> tuple[str | None, str | None]:
        """``("aircraft", 2, "max_speed")`` -> ``("dakkajet", "max_speed")``: the entry and the field."""
        if len(path) >= 2 and isinstance(path[0], str) and isinstance(path[1], int):
            entry = self.entry_name(path[0], path[1], self._item(path[0], path[1]))
            return entry, format_field(path[2:])
        return None, format_field(path)

    def error(
        self,
        message: str,
        path: Path_ = (),
        *,
        entry: str | None = None,
        field: str | None = None,
    ) -> DataError:
        """A DataError for a problem at ``path`` (entry and field derived from it unless given)."""
        derived_entry, derived_field = self.split(tuple(path))
        entry = entry if entry is not None else derived_entry
        field = field if field is not None else derived_field
        line = self.line_of(tuple(path))
        text = f"{message} (line {line})" if line is not None and "(line " not in message else message
        err = DataError(text, source=self.source, location=entry, field=field)
        err.line = line  # type: ignore[attr-defined]
        return err

    def decode(self, type_: type[T]) -> T:
        """Decode into ``type_``; a msgspec ValidationError becomes a DataError naming entry and field."""
        try:
            return msgspec.json.decode(self.raw, type=type_)
        except msgspec.ValidationError as exc:
            raise self.validation_error(exc) from None

    def validation_error(self, exc: msgspec.ValidationError) -> DataError:
        """Convert msgspec's ``"... - at `$.aircraft[2].max_speed`"`` into entry ``dakkajet``, field
        ``max_speed``. Unknown and missing fields name the field itself."""
        message = str(exc)
        detail, sep, where = message.rpartition(" - at ")
        if not sep:
            detail, where = message, "`$`"
        path = _parse_msgspec_path(where.strip().strip("`"))
        if detail.startswith(("Object contains unknown field", "Object missing required field")):
            m = _BACKTICK.search(detail)
            if m:
                path = path + (m.group(1),)
        return self.error(detail, path)


# ---------------------------------------------------------------------------------------------------------
# Cross-validation
# ---------------------------------------------------------------------------------------------------------


class Issue(NamedTuple):
    """One problem found by cross-validation: which file, the path in it, the entry and field, why."""

    file: str  # "aircraft", "weapons" or "upgrades"
    path: Path_
    entry: str | None
    field: str | None
    message: str


def _check_id(file: str, collection: str, index: int, value: str, seen: set[str]) -> list[Issue]:
    path = (collection, index, "id")
    if not _ID_RE.match(value):
        return [
            Issue(
                file,
                path,
                value or f"{collection}[{index}]",
                "id",
                f"id {value!r} must be lower_snake_case (letters, digits, underscores)",
            )
        ]
    if value in seen:
        return [Issue(file, path, value, "id", f"id {value!r} is used by two entries")]
    seen.add(value)
    return []


def _page_issue(file: str, path: Path_, entry: str, page: int | None) -> list[Issue]:
    if page is not None and page < 1:
        return [Issue(file, path, entry, "page", f"page must be 1 or more, not {page}")]
    return []


def _check_faction(index: int, f: Faction, seen: set[str]) -> list[Issue]:
    issues = _check_id("aircraft", "factions", index, f.id, seen)
    if not f.name.strip():
        issues.append(Issue("aircraft", ("factions", index, "name"), f.id, "name", "name is empty"))
    return issues + _page_issue("aircraft", ("factions", index, "page"), f.id, f.page)


def _check_aircraft(
    index: int,
    a: AircraftProfile,
    seen: set[str],
    factions: Mapping[str, Faction],
    weapons: Mapping[str, WeaponProfile],
    upgrades: Mapping[str, Upgrade] | None,
) -> list[Issue]:
    """The checks on one aircraft profile (p.10-11, p.16, p.36-37)."""
    issues = _check_id("aircraft", "aircraft", index, a.id, seen)

    def bad(field: str | Path_, message: str) -> None:
        fpath = (field,) if isinstance(field, str) else tuple(field)
        issues.append(Issue("aircraft", ("aircraft", index) + fpath, a.id, format_field(fpath), message))

    gd = a.aircraft_class == "Ground Defence"
    if not a.name.strip():
        bad("name", "name is empty")
    if a.faction not in factions:
        bad("faction", f"unknown faction {a.faction!r}; known: {', '.join(factions) or 'none'}")
    if a.points < 0:
        bad("points", f"points cannot be negative ({a.points})")
    if a.structure < 1:
        bad("structure", f"Structure must be 1 or more (p.10), not {a.structure}")
    if a.throttle < 0:
        bad("throttle", f"Throttle cannot be negative (p.10), not {a.throttle}")
    for i, number in enumerate(a.ace_manoeuvres):
        if not 1 <= number <= 8:
            bad(("ace_manoeuvres", i), f"Ace Manoeuvres are numbered 1 to 8 (p.16), not {number}")
    if len(set(a.ace_manoeuvres)) != len(a.ace_manoeuvres):
        bad("ace_manoeuvres", "an Ace Manoeuvre is listed twice")
    if gd:
        # Ground Defences are static, ground-mounted weapons (p.8).
        for name in ("throttle", "min_speed", "max_speed", "max_altitude"):
            if getattr(a, name) != 0:
                bad(name, f"a Ground Defence is static (p.8): {name} must be 0")
        if a.ace_manoeuvres:
            bad("ace_manoeuvres", "a Ground Defence is static (p.8): it has no Ace Manoeuvres")
    else:
        if not a.ace_manoeuvres:
            bad("ace_manoeuvres", "an aircraft needs at least one Ace Manoeuvre (p.10)")
        if a.min_speed < 0:
            bad("min_speed", f"Min Speed cannot be negative (0 means it can Hover, p.16), not {a.min_speed}")
        if not 1 <= a.max_speed <= MAX_SPEED_LIMIT:
            bad("max_speed", f"Max Speed must be 1 to {MAX_SPEED_LIMIT} (p.10, p.18), not {a.max_speed}")
        elif a.min_speed > a.max_speed:
            bad("min_speed", f"Min Speed {a.min_speed} is above Max Speed {a.max_speed} (p.10)")
        if not 1 <= a.max_altitude <= 5:
            bad("max_altitude", f"Max Altitude must be 1 to 5 (p.10, p.18), not {a.max_altitude}")
    if not 2 <= a.handling <= 6:
        bad("handling", f"Handling is a D6 score of 2+ to 6+ (p.11), not {a.handling}+")
    if a.transport is not None and a.transport < 1:
        bad("transport", f"Transport is '-' (null) or a number of 1 or more (p.11), not {a.transport}")
    if a.fuel is not None and a.fuel < 1:
        bad("fuel", f"Fuel is '-' (null) or a number of turns of 1 or more (p.11), not {a.fuel}")
    if len(set(a.special_rules)) != len(a.special_rules):
        bad("special_rules", "a special rule is listed twice")
    if "jump_troops" in a.special_rules and a.transport is None:
        bad("special_rules", "Jump Troops need a Transport characteristic (p.37)")
    for i, wid in enumerate(a.weapons):
        if wid not in weapons:
            bad(("weapons", i), f"unknown weapon {wid!r} (not in the weapons file)")
    if len(set(a.weapons)) != len(a.weapons):
        bad("weapons", "a standard weapon is listed twice")
    prices: dict[str, int] = {}
    for g, group in enumerate(a.additional_weapons):
        gpath = ("additional_weapons", g)
        if not group.name.strip():
            bad(gpath + ("name",), "option group name is empty")
        if group.slots < 1:
            bad(gpath + ("slots",), f"an option group needs 1 or more slots, not {group.slots}")
        if not group.choices:
            bad(gpath + ("choices",), "an option group needs at least one choice")
        names: set[str] = set()
        for c, choice in enumerate(group.choices):
            cpath = gpath + ("choices", c)
            if choice.weapon not in weapons:
                bad(cpath + ("weapon",), f"unknown weapon {choice.weapon!r} (not in the weapons file)")
            if choice.weapon in names:
                bad(cpath + ("weapon",), f"weapon {choice.weapon!r} is listed twice in one option group")
            names.add(choice.weapon)
            if choice.points < 0:
                bad(cpath + ("points",), f"points cannot be negative ({choice.points})")
            if prices.setdefault(choice.weapon, choice.points) != choice.points:
                bad(
                    cpath + ("points",),
                    f"weapon {choice.weapon!r} costs {prices[choice.weapon]} in another option group; "
                    "one weapon must cost the same in every group of an aircraft",
                )
    if a.max_upgrades < 0:
        bad("max_upgrades", f"max_upgrades cannot be negative ({a.max_upgrades})")
    if upgrades is not None:
        for i, uid in enumerate(a.forbidden_upgrades):
            if uid not in upgrades:
                bad(("forbidden_upgrades", i), f"unknown upgrade {uid!r} (not in the upgrades file)")
    issues += _page_issue("aircraft", ("aircraft", index, "page"), a.id, a.page)
    return issues


def _check_weapon(index: int, w: WeaponProfile, seen: set[str]) -> list[Issue]:
    """The checks on one weapon profile (p.11, p.21, p.24-25, p.28)."""
    issues = _check_id("weapons", "weapons", index, w.id, seen)

    def bad(field: str | Path_, message: str) -> None:
        fpath = (field,) if isinstance(field, str) else tuple(field)
        issues.append(Issue("weapons", ("weapons", index) + fpath, w.id, format_field(fpath), message))

    if not w.name.strip():
        bad("name", "name is empty")
    arcs = w.fire_arc.arcs
    rules = [r.rule for r in w.special_rules]
    if not arcs:
        bad(("fire_arc", "arcs"), "a weapon needs at least one Fire Arc (p.21)")
    if len(set(arcs)) != len(arcs):
        bad(("fire_arc", "arcs"), "a Fire Arc is listed twice")
    if "all_round" in arcs and len(arcs) > 1:
        bad(("fire_arc", "arcs"), "All Round already covers every Fire Arc (p.21); list it alone")
    if "all_round" in arcs and w.fire_arc.vertical is None and "ground_to_air" not in rules:
        bad(("fire_arc", "vertical"), "All Round weapons are always limited to firing Up or Down (p.21)")
    if "ground_to_air" in rules and tuple(arcs) != ("all_round",):
        bad(("fire_arc", "arcs"), "all Ground-to-Air weapons have an All Round Fire Arc (p.28)")
    for i, dice in enumerate(w.firepower):
        if dice < 0:
            bad(("firepower", i), f"Firepower dice cannot be negative ({dice})")
    if not 2 <= w.damage <= 6:
        bad("damage", f"Damage is a D6 score of 2+ to 6+ (p.11), not {w.damage}+")
    if w.ammo is not None and not 1 <= w.ammo <= 3:
        bad("ammo", f"Ammo is UL (null) or 1, 2 or 3 (p.11), not {w.ammo}")
    for i, r in enumerate(w.special_rules):
        rpath = ("special_rules", i)
        if rules.count(r.rule) > 1 and rules.index(r.rule) != i:
            bad(rpath + ("rule",), f"special rule {r.rule!r} is listed twice")
        if r.rule in _VALUED_RULES and r.value is None:
            bad(rpath + ("value",), f'{r.rule} needs a value, e.g. {{"rule": "{r.rule}", "value": 6}}')
        if r.rule not in _VALUED_RULES and r.value is not None:
            bad(rpath + ("value",), f"{r.rule} takes no value")
        if r.rule == "extra_damage" and r.value is not None and not w.damage < r.value <= 6:
            bad(
                rpath + ("value",),
                f"Extra Damage ({r.value}+) must be above the Damage {w.damage}+ and at most 6+ (p.24)",
            )
        if r.rule == "effective_altitude":
            if r.value is not None and not 0 <= r.value <= 5:
                bad(rpath + ("value",), f"Effective Altitude must be 0 to 5, not {r.value}")
            if "ground_to_air" not in rules:
                bad(rpath + ("rule",), "Effective Altitude is only present with Ground-to-Air Fire (p.25)")
    if "aerial_attack" in rules and "ground_attack" in rules:
        bad("special_rules", "Aerial Attack and Ground Attack exclude each other (p.24)")
    if "ground_to_air" in rules and "ground_attack" in rules:
        bad("special_rules", "Ground-to-Air Fire and Ground Attack exclude each other (p.24-25)")
    issues += _page_issue("weapons", ("weapons", index, "page"), w.id, w.page)
    return issues


def _check_upgrade(
    index: int,
    u: Upgrade,
    seen: set[str],
    factions: Mapping[str, Faction],
    weapons: Mapping[str, WeaponProfile],
) -> list[Issue]:
    """The checks on one upgrade (p.36-37, p.44-45)."""
    issues = _check_id("upgrades", "upgrades", index, u.id, seen)

    def bad(field: str | Path_, message: str) -> None:
        fpath = (field,) if isinstance(field, str) else tuple(field)
        issues.append(Issue("upgrades", ("upgrades", index) + fpath, u.id, format_field(fpath), message))

    if not u.name.strip():
        bad("name", "name is empty")
    if not u.summary.strip():
        bad("summary", "summary is empty")
    if u.faction not in factions:
        bad("faction", f"unknown faction {u.faction!r}; known: {', '.join(factions) or 'none'}")
    if u.points < 0:
        bad("points", f"points cannot be negative ({u.points})")
    if u.weapon is not None and u.weapon not in weapons:
        bad("weapon", f"unknown weapon {u.weapon!r} (not in the weapons file)")
    for i, mod in enumerate(u.modifiers):
        if mod.delta == 0:
            bad(("modifiers", i, "delta"), "a modifier with delta 0 changes nothing")
    issues += _page_issue("upgrades", ("upgrades", index, "page"), u.id, u.page)
    return issues


def check_catalogue(
    factions: Iterable[Faction],
    aircraft: Iterable[AircraftProfile],
    weapons: Iterable[WeaponProfile],
    upgrades: Iterable[Upgrade],
) -> list[Issue]:
    """Every problem in a set of profiles: ranges, references between files, duplicates."""
    issues: list[Issue] = []
    seen: set[str] = set()
    faction_list = list(factions)
    for i, f in enumerate(faction_list):
        issues += _check_faction(i, f, seen)
    faction_map = {f.id: f for f in faction_list}
    seen = set()
    weapon_list = list(weapons)
    for i, w in enumerate(weapon_list):
        issues += _check_weapon(i, w, seen)
    weapon_map = {w.id: w for w in weapon_list}
    seen = set()
    upgrade_list = list(upgrades)
    for i, u in enumerate(upgrade_list):
        issues += _check_upgrade(i, u, seen, faction_map, weapon_map)
    upgrade_map = {u.id: u for u in upgrade_list}
    seen = set()
    for i, a in enumerate(aircraft):
        issues += _check_aircraft(i, a, seen, faction_map, weapon_map, upgrade_map)
    return issues


def build_catalogue(
    *,
    factions: Iterable[Faction],
    aircraft: Iterable[AircraftProfile],
    weapons: Iterable[WeaponProfile],
    upgrades: Iterable[Upgrade],
    data_version: str,
    source: str,
    origin: str = "<catalogue>",
) -> Catalogue:
    """A validated Catalogue from profiles made in code (e.g. a test's Ground Defence).

    Raises DataError (source ``origin``) naming the entry and field of the first problem.
    """
    factions, aircraft, weapons, upgrades = (tuple(x) for x in (factions, aircraft, weapons, upgrades))
    issues = check_catalogue(factions, aircraft, weapons, upgrades)
    if issues:
        first = issues[0]
        raise DataError(first.message, source=origin, location=first.entry, field=first.field)
    return _assemble(factions, aircraft, weapons, upgrades, data_version, source)


def _assemble(factions, aircraft, weapons, upgrades, data_version: str, source: str) -> Catalogue:
    return Catalogue(
        data_version=data_version,
        source=source,
        factions={f.id: f for f in factions},
        aircraft={a.id: a for a in aircraft},
        weapons={w.id: w for w in weapons},
        upgrades={u.id: u for u in upgrades},
    )


# ---------------------------------------------------------------------------------------------------------
# Loaders
# ---------------------------------------------------------------------------------------------------------

AIRCRAFT_FILE = "aircraft.json"
WEAPONS_FILE = "weapons.json"
UPGRADES_FILE = "upgrades.json"


def data_path(name: str) -> Path:
    """The path of a data file shipped in the package (``data/<name>``)."""
    root = resources.files("aero_events.rulesets.aeronautica").joinpath("data").joinpath(name)
    return Path(str(root))


def _combine_sources(*sources: str) -> str:
    out: list[str] = []
    for s in sources:
        if s not in out:
            out.append(s)
    return " | ".join(out)


def _catalogue_from_documents(a_doc: JsonDocument, w_doc: JsonDocument, u_doc: JsonDocument) -> Catalogue:
    a_file = a_doc.decode(AircraftFile)
    w_file = w_doc.decode(WeaponsFile)
    u_file = u_doc.decode(UpgradesFile)
    docs = {"aircraft": a_doc, "weapons": w_doc, "upgrades": u_doc}
    for doc, version in ((w_doc, w_file.data_version), (u_doc, u_file.data_version)):
        if version != a_file.data_version:
            raise doc.error(
                f"data_version {version!r} differs from {a_file.data_version!r} in {a_doc.source}; "
                "the three files of a catalogue must be one data version",
                ("data_version",),
            )
    for doc, name, value in (
        (a_doc, "data_version", a_file.data_version),
        (a_doc, "source", a_file.source),
        (w_doc, "source", w_file.source),
        (u_doc, "source", u_file.source),
    ):
        if not value.strip():
            raise doc.error(f"{name} is empty: say where the numbers come from", (name,))
    issues = check_catalogue(a_file.factions, a_file.aircraft, w_file.weapons, u_file.upgrades)
    if issues:
        first = issues[0]
        raise docs[first.file].error(first.message, first.path, entry=first.entry, field=first.field)
    return _assemble(
        a_file.factions,
        a_file.aircraft,
        w_file.weapons,
        u_file.upgrades,
        a_file.data_version,
        _combine_sources(a_file.source, w_file.source, u_file.source),
    )


def load_catalogue_from(
    aircraft_file: str | Path, weapons_file: str | Path, upgrades_file: str | Path
) -> Catalogue:
    """A Catalogue from a user's own three files (same format as the package data).

    Raises DataError naming the file, entry, field (and line) of the first problem found.
    """
    return _catalogue_from_documents(
        JsonDocument.from_file(aircraft_file),
        JsonDocument.from_file(weapons_file),
        JsonDocument.from_file(upgrades_file),
    )


@functools.lru_cache(maxsize=1)
def _default_catalogue() -> Catalogue:
    return load_catalogue_from(data_path(AIRCRAFT_FILE), data_path(WEAPONS_FILE), data_path(UPGRADES_FILE))


def load_catalogue(path: str | Path | None = None) -> Catalogue:
    """The catalogue in directory ``path`` (``aircraft.json``, ``weapons.json``, ``upgrades.json``), or the
    package's own data (data_version ``wov-2019.1``) when ``path`` is None; the default is cached."""
    if path is None:
        return _default_catalogue()
    root = Path(path)
    return load_catalogue_from(root / AIRCRAFT_FILE, root / WEAPONS_FILE, root / UPGRADES_FILE)
