"""The data files of the minimal host and their validated loaders.

* ``data/units.json``: unit profiles in the 8th-edition format (M, WS, BS, S, T, W, I, A, Ld), troop type,
  armour save, base size, default files, points, weapons (missile, breath) and spells; generic examples of
  this project's own (a flying monster, flying cavalry, flying war beasts, infantry, archers, a wizard),
  marked ``reconstruction``.
* ``data/scenarios.json``: tables, terrain and forces.
* ``data/falling.json``: the supplement's falling hits by troop type (Wounds), sourced.
* ``data/lore.json``: the minimal host's tiny lore, one spell of each type (magic missile, direct damage,
  close combat), generic names of this project's own, marked ``reconstruction``; a wizard's ``spells`` name
  them.

Lengths are written in inches and turned into the table's units here (1/100 mm, 1 inch = 2540); bases in mm.
Malformed data raises :class:`~aero_events.core.errors.DataError` naming the file, the entry and the field.
"""

from __future__ import annotations

import functools
import os
from importlib import resources
from typing import Literal

import msgspec

from aero_events.core.errors import DataError, read_data_file
from aero_events.table import inches, mm

Mark = Literal["sourced", "derived", "reconstruction"]
#: The troop types the supplement's falling table names (Wounds).
TroopType = Literal["monster", "monstrous beast", "monstrous cavalry", "monstrous infantry", "cavalry", "chariot",
                    "infantry", "war beast"]


class Profile(msgspec.Struct, frozen=True):
    """The 8th-edition characteristics of one model."""

    M: int
    WS: int
    BS: int
    S: int
    T: int
    W: int
    I: int
    A: int
    Ld: int


class Weapon(msgspec.Struct, frozen=True):
    """A ranged attack: ``kind`` "missile" (rolls to hit with BS), "breath" (automatic hits, the host's
    simplification of a template) or "magic missile" (a spell, automatic hits). ``shots``: shots per model
    ("1") or hits for the unit ("D6"). ``range`` in 1/100 mm."""

    name: str
    kind: Literal["missile", "breath", "magic missile"]
    range: int
    strength: int
    shots: str
    casting_value: int = 0


SpellKind = Literal["magic missile", "direct damage", "close combat"]


class Spell(msgspec.Struct, frozen=True):
    """A spell of the lore (host, README "Magic"): cast on 2D6 >= ``casting_value``. ``kind`` says which rules
    it follows (Magic Phase): a "magic missile" and a "direct damage" spell those of shooting (range method,
    sight, targets, the to-hit modifiers), a "close combat" spell those of close combat. ``hits`` is a number,
    "D3" or "D6": automatic hits (magic missile) or attacks (close combat); ``radius`` the round template of a
    direct damage spell. Lengths in 1/100 mm."""

    id: str
    name: str
    mark: Mark
    kind: SpellKind
    casting_value: int
    range: int
    strength: int
    hits: str
    radius: int = 0

    def as_weapon(self) -> Weapon:
        """The spell as a ranged attack, for the shooting rules (range, sight, volley)."""
        return Weapon(name=self.name, kind="magic missile", range=self.range, strength=self.strength,
                      shots=self.hits, casting_value=self.casting_value)


class UnitProfile(msgspec.Struct, frozen=True):
    id: str
    name: str
    mark: Mark
    troop_type: TroopType
    character: bool
    flyer: bool
    large_target: bool
    fear: bool
    terror: bool
    profile: Profile
    save: int
    base_width: int
    base_depth: int
    files: int
    points: int
    weapons: tuple[Weapon, ...] = ()
    #: The spells of the lore this wizard knows (``data/lore.json`` ids).
    spells: tuple[str, ...] = ()

    @property
    def skirmishers(self) -> bool:
        """Flyers have the Skirmishers rule (Special Rules)."""
        return self.flyer

    def missile_weapon(self) -> Weapon | None:
        return self.weapons[0] if self.weapons else None


class TerrainPiece(msgspec.Struct, frozen=True):
    """A rectangle of terrain: ``kind`` forest, obstacle (walls, fences) or building; ``cover`` the to-hit
    modifier it gives a target behind or in it; ``dangerous_for_swoop``: the Swoop's "forests or other terrain
    with tall features" (spec gap: a data flag). Lengths in 1/100 mm, heading in 1/100 degree."""

    id: str
    name: str
    kind: Literal["forest", "obstacle", "building", "open"]
    x: int
    y: int
    width: int
    length: int
    heading: int
    cover: int
    dangerous_for_swoop: bool


class Deployment(msgspec.Struct, frozen=True):
    """A unit placed at the start; ``joined``: the friendly unit a character is deployed in (host: characters may
    deploy inside a unit, as a character that joined it)."""

    id: str
    profile: str
    models: int
    x: int
    y: int
    heading: int
    joined: str = ""


class ScenarioData(msgspec.Struct, frozen=True):
    id: str
    name: str
    description: str
    width: int
    height: int
    last_turn: int
    first: str
    terrain: tuple[TerrainPiece, ...]
    forces: dict[str, tuple[Deployment, ...]]


class FallingHits(msgspec.Struct, frozen=True):
    """Wounds: the hits a dead flying model deals to the ground unit it lands on, by its troop type."""

    hits: str
    strength: int


class GameData(msgspec.Struct, frozen=True):
    data_version: str
    units: dict[str, UnitProfile]
    scenarios: dict[str, ScenarioData]
    falling: dict[str, FallingHits]
    lore: dict[str, Spell] = {}


def _need(entry: dict, key: str, kind: type, source: str, location: str):
    if key not in entry:
        raise DataError(f"missing field {key!r}", source=source, location=location, field=key)
    value = entry[key]
    if kind is int and (not isinstance(value, int) or isinstance(value, bool)):
        raise DataError(f"{key} must be a whole number, not {value!r}", source=source, location=location, field=key)
    if kind is not int and not isinstance(value, kind):
        raise DataError(f"{key} must be a {kind.__name__}", source=source, location=location, field=key)
    return value


def _weapon(entry: dict, source: str, location: str) -> Weapon:
    try:
        return Weapon(name=entry["name"], kind=entry["kind"], range=inches(_need(entry, "range", int, source, location)),
                      strength=_need(entry, "strength", int, source, location), shots=str(entry.get("shots", "1")),
                      casting_value=int(entry.get("casting_value", 0)))
    except (KeyError, TypeError) as err:
        raise DataError(f"bad weapon: {err}", source=source, location=location, field="weapons") from None


def parse_units(raw: bytes, source: str) -> tuple[str, dict[str, UnitProfile]]:
    try:
        document = msgspec.json.decode(raw)
    except msgspec.DecodeError as err:
        raise DataError(f"not JSON: {err}", source=source) from None
    units: dict[str, UnitProfile] = {}
    for index, entry in enumerate(document.get("units", [])):
        location = entry.get("id", f"entry {index}") if isinstance(entry, dict) else f"entry {index}"
        if not isinstance(entry, dict):
            raise DataError("a unit is a JSON object", source=source, location=location)
        stats = _need(entry, "profile", dict, source, location)
        try:
            profile = msgspec.convert(stats, Profile)
        except msgspec.ValidationError as err:
            raise DataError(f"bad profile: {err}", source=source, location=location, field="profile") from None
        base = _need(entry, "base", list, source, location)
        if len(base) != 2 or not all(isinstance(b, int) and b > 0 for b in base):
            raise DataError("base is [width, depth] in whole mm", source=source, location=location, field="base")
        save = _need(entry, "save", int, source, location)
        if not 2 <= save <= 7:
            raise DataError("save is 2..6 (a 2+ to 6+ armour save) or 7 (none)", source=source, location=location,
                            field="save")
        try:
            unit = UnitProfile(
                id=_need(entry, "id", str, source, location), name=_need(entry, "name", str, source, location),
                mark=entry.get("mark", "reconstruction"), troop_type=_need(entry, "troop_type", str, source, location),
                character=bool(entry.get("character", False)), flyer=bool(entry.get("flyer", False)),
                large_target=bool(entry.get("large_target", False)), fear=bool(entry.get("fear", False)),
                terror=bool(entry.get("terror", False)), profile=profile, save=save,
                base_width=mm(base[0]), base_depth=mm(base[1]),
                files=_need(entry, "files", int, source, location), points=_need(entry, "points", int, source, location),
                weapons=tuple(_weapon(w, source, location) for w in entry.get("weapons", [])),
                spells=tuple(str(name) for name in entry.get("spells", [])))
            msgspec.convert(msgspec.to_builtins(unit), UnitProfile)  # Literal checks (troop type, mark)
        except msgspec.ValidationError as err:
            raise DataError(f"bad unit: {err}", source=source, location=location) from None
        if unit.files < 1:
            raise DataError("files must be at least 1", source=source, location=location, field="files")
        units[unit.id] = unit
    return str(document.get("data_version", "")), units


def parse_scenarios(raw: bytes, source: str, units: dict[str, UnitProfile]) -> dict[str, ScenarioData]:
    try:
        document = msgspec.json.decode(raw)
    except msgspec.DecodeError as err:
        raise DataError(f"not JSON: {err}", source=source) from None
    result = {}
    for entry in document.get("scenarios", []):
        location = entry.get("id", "?")
        terrain = []
        for piece in entry.get("terrain", []):
            try:
                terrain.append(TerrainPiece(
                    id=piece["id"], name=piece["name"], kind=piece["kind"], x=inches(piece["x"]),
                    y=inches(piece["y"]), width=inches(piece["width"]), length=inches(piece["length"]),
                    heading=int(piece.get("heading", 0)) * 100, cover=int(piece.get("cover", 0)),
                    dangerous_for_swoop=bool(piece.get("dangerous_for_swoop", False))))
            except (KeyError, TypeError, ValueError) as err:
                raise DataError(f"bad terrain: {err}", source=source, location=f"{location}/{piece.get('id')}",
                                field="terrain") from None
        forces = {}
        for side, deployments in entry.get("forces", {}).items():
            placed = []
            for unit in deployments:
                where = f"{location}/{unit.get('id')}"
                if unit.get("profile") not in units:
                    raise DataError(f"no unit profile {unit.get('profile')!r}", source=source, location=where,
                                    field="profile")
                if not isinstance(unit.get("models"), int) or unit["models"] < 1:
                    raise DataError("models must be a positive whole number", source=source, location=where,
                                    field="models")
                try:
                    placed.append(Deployment(id=unit["id"], profile=unit["profile"], models=unit["models"],
                                             x=inches(unit["x"]), y=inches(unit["y"]),
                                             heading=int(unit["heading"]) * 100,
                                             joined=str(unit.get("joined", ""))))
                except (KeyError, TypeError, ValueError) as err:
                    raise DataError(f"bad unit placement: missing or malformed {err}", source=source, location=where,
                                    field=str(err).strip("'")) from None
            forces[side] = tuple(placed)
        try:
            result[location] = ScenarioData(id=location, name=entry["name"], description=entry["description"],
                                            width=inches(entry["width"]), height=inches(entry["height"]),
                                            last_turn=int(entry["last_turn"]), first=entry["first"],
                                            terrain=tuple(terrain), forces=forces)
        except (KeyError, TypeError, ValueError) as err:
            raise DataError(f"bad scenario: missing or malformed {err}", source=source, location=location,
                            field=str(err).strip("'")) from None
    return result


def parse_falling(raw: bytes, source: str) -> dict[str, FallingHits]:
    try:
        document = msgspec.json.decode(raw)
        table = msgspec.convert(document["hits"], dict[str, FallingHits])
    except (msgspec.DecodeError, msgspec.ValidationError, KeyError, TypeError) as err:
        raise DataError(f"bad falling table: {err}", source=source, field="hits") from None
    for troop_type, entry in table.items():
        if not (entry.hits.isdigit() or entry.hits in ("D3", "D6")):
            raise DataError(f"hits must be a number, D3 or D6, not {entry.hits!r}", source=source,
                            location=troop_type, field="hits")
    return table


def parse_lore(raw: bytes, source: str) -> dict[str, Spell]:
    try:
        document = msgspec.json.decode(raw)
    except msgspec.DecodeError as err:
        raise DataError(f"not JSON: {err}", source=source) from None
    lore: dict[str, Spell] = {}
    for index, entry in enumerate(document.get("spells", [])):
        location = entry.get("id", f"entry {index}") if isinstance(entry, dict) else f"entry {index}"
        if not isinstance(entry, dict):
            raise DataError("a spell is a JSON object", source=source, location=location)
        radius = entry.get("radius", 0)
        if not isinstance(radius, int | float) or isinstance(radius, bool) or radius < 0:
            raise DataError("radius is a length in inches", source=source, location=location, field="radius")
        try:
            spell = msgspec.convert({**entry, "range": inches(_need(entry, "range", int, source, location)),
                                     "radius": round(radius * inches(1))}, Spell)
        except msgspec.ValidationError as err:
            raise DataError(f"bad spell: {err}", source=source, location=location,
                            field=str(err).rsplit("$.", 1)[-1].rstrip("`") if "$." in str(err) else None) from None
        if not (spell.hits.isdigit() or spell.hits in ("D3", "D6")):
            raise DataError(f"hits must be a number, D3 or D6, not {spell.hits!r}", source=source, location=location,
                            field="hits")
        if spell.kind == "direct damage" and spell.radius <= 0:
            raise DataError("a direct damage spell needs its template's radius", source=source, location=location,
                            field="radius")
        lore[spell.id] = spell
    return lore


def load_data(units_path: str | os.PathLike | None = None, scenarios_path: str | os.PathLike | None = None) -> GameData:
    """The game data: the package's files, or the user's files given by path."""
    folder = resources.files("aero_events.rulesets.whfb_flying") / "data"
    falling_source = str(folder / "falling.json")
    units_source = os.fspath(units_path) if units_path else str(folder / "units.json")
    scenarios_source = os.fspath(scenarios_path) if scenarios_path else str(folder / "scenarios.json")
    version, units = parse_units(read_data_file(units_source), units_source)
    scenarios = parse_scenarios(read_data_file(scenarios_source), scenarios_source, units)
    falling = parse_falling(read_data_file(falling_source), falling_source)
    lore_source = str(folder / "lore.json")
    lore = parse_lore(read_data_file(lore_source), lore_source)
    for unit in units.values():
        for name in unit.spells:
            if name not in lore:
                raise DataError(f"no spell {name!r} in the lore", source=units_source, location=unit.id,
                                field="spells")
    missing = {u.troop_type for u in units.values()} - set(falling)
    if missing:
        raise DataError(f"no falling hits for troop types {sorted(missing)}", source=falling_source, field="hits")
    return GameData(data_version=version, units=units, scenarios=scenarios, falling=falling, lore=lore)


@functools.cache
def default_data() -> GameData:
    return load_data()
