"""The data files of Battlefleet Gothic and their validated loaders.

Figures live in ``data/*.json`` (ship classes, the Leadership, Gunnery, Critical Hits and Catastrophic
Damage tables, sizes, the Cruiser Clash); each figure keeps its confidence mark from the data page
(``sourced``, ``derived`` or ``reconstruction``) and a citation. Malformed data raises
:class:`~aero_events.core.errors.DataError` naming the file, the entry and the field.

Lengths are turned into the engine's units here: 1/100 mm (``CM`` = 1000 units).
"""

from __future__ import annotations

import functools
import itertools
import os
from importlib import resources
from typing import Any, Literal

import msgspec

from aero_events.core.errors import DataError, read_data_file

CM = 1000  # engine length units (1/100 mm) in one centimetre
DEGREE = 100  # engine angle units (1/100 degree) in one degree

ShipType = Literal["battleship", "cruiser", "escort"]
WeaponKind = Literal["battery", "lance", "torpedoes", "launch_bays", "nova_cannon"]
Location = Literal["prow", "port", "starboard", "dorsal", "keel"]
Arc = Literal["front", "left", "right", "rear"]
Confidence = Literal["sourced", "derived", "reconstruction"]


class Weapon(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A weapon system of a profile (p.4: Armament, Range/Speed, Firepower/Strength, Fire Arc)."""

    id: str
    location: Location
    kind: WeaponKind
    range_cm: int
    value: int
    arcs: tuple[Arc, ...]


class ShipClass(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A ship class's characteristics (p.4 and p.9); ``armour_front`` is the Armour facing the front arc."""

    id: str
    name: str
    fleet: str
    type: ShipType
    hits: int
    speed_cm: int
    turn_degrees: int
    shields: int
    armour_front: int
    armour: int
    turrets: int
    points: int
    base: Literal["small", "large"]
    weapons: tuple[Weapon, ...]
    confidence: Confidence
    cite: str
    no_come_to_new_heading: bool = False
    leadership_bonus: int = 0
    all_ahead_full_dice: int = 4

    @property
    def capital(self) -> bool:
        """Battleships and cruisers are capital ships (p.8)."""
        return self.type != "escort"

    def weapon(self, weapon_id: str) -> Weapon:
        for weapon in self.weapons:
            if weapon.id == weapon_id:
                return weapon
        raise KeyError(weapon_id)


class ShipsFile(msgspec.Struct, frozen=True):
    source: str
    data_version: str
    classes: tuple[ShipClass, ...]
    weapon_notes: str = ""


class CriticalRow(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    roll: int
    id: str
    extra: Literal["0", "1", "D3", "D6"]
    repairable: bool
    name: str


class CatastrophicRow(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    low: int
    high: int
    id: Literal["drifting_hulk", "blazing_hulk", "plasma_drive_overload", "warp_drive_implosion"]
    blast_markers: Literal["1", "half_hits", "hits"]
    name: str


class LeadershipTable(msgspec.Struct, frozen=True):
    confidence: str
    cite: str
    by_d6: dict[str, int]


class GunneryTable(msgspec.Struct, frozen=True):
    confidence: str
    columns: tuple[str, ...]
    column_of: dict[str, str]
    rows: tuple[tuple[int, ...], ...]


class CriticalTable(msgspec.Struct, frozen=True):
    confidence: str
    cite: str
    rows: tuple[CriticalRow, ...]


class CatastrophicTable(msgspec.Struct, frozen=True):
    confidence: str
    cite: str
    rows: tuple[CatastrophicRow, ...]


class TablesFile(msgspec.Struct, frozen=True):
    source: str
    data_version: str
    leadership: LeadershipTable
    gunnery: GunneryTable
    criticals: CriticalTable
    catastrophic: CatastrophicTable


class Figure(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One figure with its confidence mark and citation."""

    value: Any
    confidence: Confidence
    cite: str


class FiguresFile(msgspec.Struct, frozen=True):
    source: str
    data_version: str
    entries: dict[str, Figure]


def data_path(name: str) -> str:
    return os.fspath(resources.files(__package__).joinpath("data", name))


def _decode(path: str, type_: type, collection: str | None = None) -> Any:
    """Decode ``path`` into ``type_``; a problem becomes a DataError naming entry and field."""
    raw = read_data_file(path)
    try:
        document = msgspec.json.decode(raw)
    except msgspec.DecodeError as exc:
        raise DataError(f"not valid JSON: {exc}", source=path) from None
    try:
        return msgspec.convert(document, type_)
    except msgspec.ValidationError as exc:
        message = str(exc)
        entry, field = _locate(document, message, collection)
        raise DataError(message, source=path, location=entry, field=field) from None


def _locate(document: Any, message: str, collection: str | None) -> tuple[str | None, str | None]:
    """Entry and field from a msgspec message such as ``... - at `$.classes[3].weapons[0].value```."""
    if "at `$" not in message:
        return None, None
    path = message.rsplit("at `$", 1)[1].rstrip("`")
    parts = [p for p in path.replace("]", "").replace("[", ".").split(".") if p]
    entry: str | None = None
    if collection and len(parts) >= 2 and parts[0] == collection and parts[1].isdigit():
        index = int(parts[1])
        items = document.get(collection, []) if isinstance(document, dict) else []
        item = items[index] if index < len(items) else None
        entry = item.get("id", f"{collection}[{index}]") if isinstance(item, dict) else f"{collection}[{index}]"
        parts = parts[2:]
    elif parts:
        entry, parts = parts[0], parts[1:]
    field = ".".join(parts) if parts else None
    return entry, field


def _check_ships(path: str, ships: ShipsFile) -> dict[str, ShipClass]:
    """Cross-field checks a schema cannot say: unique ids, positive figures, arcs where a weapon aims."""
    classes: dict[str, ShipClass] = {}
    for ship in ships.classes:
        if ship.id in classes:
            raise DataError("duplicate class id", source=path, location=ship.id, field="id")
        for field in ("hits", "speed_cm", "points"):
            if getattr(ship, field) <= 0:
                raise DataError("must be positive", source=path, location=ship.id, field=field)
        if ship.turn_degrees not in (45, 90):
            raise DataError("Turns are 45 or 90 degrees (p.4)", source=path, location=ship.id, field="turn_degrees")
        for field in ("armour", "armour_front"):
            if not 2 <= getattr(ship, field) <= 6:
                raise DataError("Armour is a D6 score 2-6", source=path, location=ship.id, field=field)
        seen: set[str] = set()
        for index, weapon in enumerate(ship.weapons):
            where = f"weapons[{index}]"
            if weapon.id in seen:
                raise DataError("duplicate weapon id", source=path, location=ship.id, field=f"{where}.id")
            seen.add(weapon.id)
            if weapon.value <= 0 or weapon.range_cm <= 0:
                raise DataError("range and value must be positive", source=path, location=ship.id,
                                field=f"{where}.value")
            if weapon.kind != "launch_bays" and not weapon.arcs:
                raise DataError("a weapon that aims needs a fire arc", source=path, location=ship.id,
                                field=f"{where}.arcs")
        classes[ship.id] = ship
    return classes


def _check_tables(path: str, tables: TablesFile) -> None:
    gunnery = tables.gunnery
    if len(gunnery.rows) != 20:
        raise DataError("the Gunnery table has 20 Firepower rows (p.20)", source=path, location="gunnery",
                        field="rows")
    for index, row in enumerate(gunnery.rows):
        if len(row) != len(gunnery.columns):
            raise DataError(f"{len(gunnery.columns)} columns expected", source=path, location="gunnery",
                            field=f"rows[{index}]")
        if any(a < b for a, b in itertools.pairwise(row)):
            raise DataError("dice fall from the easiest column to the hardest", source=path,
                            location="gunnery", field=f"rows[{index}]")
    for key, column in gunnery.column_of.items():
        if column not in gunnery.columns:
            raise DataError(f"unknown column {column!r}", source=path, location="gunnery", field=f"column_of.{key}")
    if sorted(row.roll for row in tables.criticals.rows) != list(range(2, 13)):
        raise DataError("one row for each 2D6 roll 2-12", source=path, location="criticals", field="rows")
    covered = sorted(n for row in tables.catastrophic.rows for n in range(row.low, row.high + 1))
    if covered != list(range(2, 13)):
        raise DataError("rows must cover 2D6 rolls 2-12 once", source=path, location="catastrophic", field="rows")
    if sorted(tables.leadership.by_d6) != [str(n) for n in range(1, 7)]:
        raise DataError("one Leadership value per D6 face", source=path, location="leadership", field="by_d6")


class GameData(msgspec.Struct, frozen=True):
    """Everything the rules read from data files, loaded and checked."""

    classes: dict[str, ShipClass]
    tables: TablesFile
    geometry: dict[str, Figure]
    cruiser_clash: dict[str, Figure]
    ordnance: dict[str, Figure]
    data_version: str

    def figure(self, name: str) -> Any:
        return self.geometry[name].value

    def length(self, name: str) -> int:
        """A geometry figure in cm, as engine units."""
        return round(self.geometry[name].value * CM)


_REQUIRED_GEOMETRY = ("base_radius_cm", "blast_marker_radius_cm", "torpedo_width_cm", "nova_radius_cm",
                      "nova_hole_radius_cm", "nova_range_cm", "nova_scatter_dice", "scatter_hit_faces",
                      "turn_distance_cm", "short_range_cm", "long_range_cm", "defences_move_cm",
                      "blast_slowdown_cm", "crippled_slowdown_cm", "thrusters_slowdown_cm", "table_cm")


def load_data(ships: str | None = None, tables: str | None = None, geometry: str | None = None,
              cruiser_clash: str | None = None, ordnance: str | None = None) -> GameData:
    """Load and check the data files (the package's own unless paths are given)."""
    ships = ships or data_path("ships.json")
    tables = tables or data_path("tables.json")
    geometry = geometry or data_path("geometry.json")
    cruiser_clash = cruiser_clash or data_path("cruiser_clash.json")
    ships_file = _decode(ships, ShipsFile, "classes")
    classes = _check_ships(ships, ships_file)
    tables_file = _decode(tables, TablesFile)
    _check_tables(tables, tables_file)
    geometry_file = _decode(geometry, FiguresFile)
    for name in _REQUIRED_GEOMETRY:
        if name not in geometry_file.entries:
            raise DataError("missing figure", source=geometry, location=name, field="value")
    clash_file = _decode(cruiser_clash, FiguresFile)
    ordnance = ordnance or data_path("ordnance.json")
    ordnance_file = _decode(ordnance, FiguresFile)
    fleets = {cls.fleet for cls in classes.values() if any(w.kind == "launch_bays" for w in cls.weapons)}
    for fleet in sorted(fleets):
        for craft in ("fighter", "bomber"):
            if f"{fleet}_{craft}_speed_cm" not in ordnance_file.entries:
                raise DataError(f"{fleet} carriers need a {craft} speed", source=ordnance,
                                location=f"{fleet}_{craft}_speed_cm", field="value")
    _check_ordnance(ordnance, ordnance_file)
    files = (ships_file, tables_file, geometry_file, clash_file, ordnance_file)
    version = "+".join(file.data_version for file in files)
    return GameData(classes=classes, tables=tables_file, geometry=geometry_file.entries,
                    cruiser_clash=clash_file.entries, ordnance=ordnance_file.entries, data_version=version)


TORPEDO_KIND_FIELDS = {"steer_degrees": int, "may_ignore_hulks": bool, "attacks_friends": bool, "hit_and_run": bool}
RAID_FIELDS = ("success_on", "raids_per_torpedo", "raids_per_assault_boat_squadron")


def _check_ordnance(path: str, ordnance: FiguresFile) -> None:
    """Torpedo kinds (p.28) and the hit-and-run raid's reconstruction: present and well typed."""
    entries = ordnance.entries
    if "torpedo_kinds" not in entries or not isinstance(entries["torpedo_kinds"].value, dict):
        raise DataError("torpedo kinds are a mapping of kind to rules", source=path, location="torpedo_kinds",
                        field="value")
    kinds = entries["torpedo_kinds"].value
    if "standard" not in kinds:
        raise DataError("the standard torpedo kind is required (p.28)", source=path, location="torpedo_kinds",
                        field="standard")
    for name, kind in kinds.items():
        for field, type_ in TORPEDO_KIND_FIELDS.items():
            value = kind.get(field) if isinstance(kind, dict) else None
            if type(value) is not type_:
                raise DataError(f"expected {type_.__name__}", source=path, location=f"torpedo_kinds.{name}",
                                field=field)
        if not 0 <= kind["steer_degrees"] <= 180:
            raise DataError("a turn of 0 to 180 degrees", source=path, location=f"torpedo_kinds.{name}",
                            field="steer_degrees")
    raid = entries.get("hit_and_run_raid")
    if raid is None or not isinstance(raid.value, dict):
        raise DataError("the hit-and-run raid's reading is required", source=path, location="hit_and_run_raid",
                        field="value")
    for field in RAID_FIELDS:
        value = raid.value.get(field)
        if type(value) is not int or not (1 <= value <= (6 if field == "success_on" else 10)):
            raise DataError("expected a whole number in range", source=path, location="hit_and_run_raid",
                            field=field)


@functools.cache
def default_data() -> GameData:
    return load_data()
