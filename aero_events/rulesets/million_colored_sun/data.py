"""The data files of Million-Colored Sun and their validated loaders.

* ``data/manoeuvres.json``: the manoeuvre templates of AIRBORNE MOVEMENT (forward, lateral, pivot);
* ``data/warscrolls.json``: the generic example warscrolls of this project's own minimal host, with the flight
  fields the layer asks a warscroll for (Initiative, movement modes, manoeuvres, Red manoeuvres, ordnance, bombs,
  stand height; TERMINOLOGY, AIRBORNE MOVEMENT, LAUNCH ORDNANCE), and the missile (MISSILES);
* ``data/battleplans.json``: the host's battleplans (table, terrain, forces, "your board edges").

Measures are written in inches as decimal strings and turned into the table's units here (1/100 mm, 1 inch =
2540). Malformed data raises :class:`~aero_events.core.errors.DataError` naming the file, the entry and the field.
"""

from __future__ import annotations

import functools
import os
import re
from importlib import resources
from typing import Literal

import msgspec

from aero_events.core.errors import DataError, read_data_file
from aero_events.table import degrees, inches

Mark = Literal["sourced", "derived", "reconstruction"]
Mode = Literal["airborne", "fly", "ground"]
DICE_EXPRESSION = re.compile(r"^(\d+|D3|D6)$")


class Manoeuvre(msgspec.Struct, frozen=True):
    """One AIRBORNE manoeuvre (AIRBORNE MOVEMENT): move ``forward``, then ``lateral`` (right positive), then pivot
    ``pivot`` centidegrees clockwise about the base centre. Lengths in 1/100 mm."""

    id: str
    name: str
    heading: str
    forward: int
    lateral: int
    pivot: int
    mark: Mark


class Weapon(msgspec.Struct, frozen=True):
    """A host weapon profile: Range, Attacks, To Hit, To Wound, Rend, Damage (``kind`` missile or melee)."""

    name: str
    kind: Literal["missile", "melee"]
    range: int
    attacks: str
    to_hit: int
    to_wound: int
    rend: int
    damage: str


class Ordnance(msgspec.Struct, frozen=True):
    """LAUNCH ORDNANCE: how many missiles the model carries and where the marker goes ("as described by the
    model's Warscroll"): ``placement_forward`` beyond the front of its base, facing as the model does."""

    missiles: int
    placement_forward: int


class Warscroll(msgspec.Struct, frozen=True):
    """A model's profile: the host's characteristics and the flight layer's fields."""

    id: str
    name: str
    mark: Mark
    points: int
    move: int
    wounds: int
    save: int
    bravery: int
    initiative: int | None
    base_radius: int
    keywords: frozenset[str]
    modes: tuple[Mode, ...]
    start_mode: Mode
    stand_height: int | None
    pilot_initiative: int | None
    manoeuvres: tuple[str, ...]
    red: frozenset[str]
    ordnance: Ordnance
    bombs: int
    weapons: tuple[Weapon, ...]
    missile: bool = False

    def has(self, keyword: str) -> bool:
        return keyword in self.keywords

    def weapon(self, name: str) -> Weapon:
        for weapon in self.weapons:
            if weapon.name == name:
                return weapon
        raise KeyError(name)


class Terrain(msgspec.Struct, frozen=True):
    """A round terrain piece: centre, radius and height (1/100 mm); ``too_tall`` is the pre-game decision of
    COLLISION ("Determine which pieces of terrain meet this criteria before beginning each game")."""

    id: str
    name: str
    x: int
    y: int
    radius: int
    height: int
    too_tall: bool


class Deployment(msgspec.Struct, frozen=True):
    id: str
    side: str
    warscroll: str
    x: int
    y: int
    heading: int
    unit: str | None = None


class Objective(msgspec.Struct, frozen=True):
    x: int
    y: int
    radius: int
    points: int


class Battleplan(msgspec.Struct, frozen=True):
    id: str
    name: str
    description: str
    width: int
    height: int
    last_round: int
    objective: Objective
    slain_points_divisor: int
    players: tuple[str, str]
    edges: dict[str, tuple[str, ...]]
    terrain: tuple[Terrain, ...]
    models: tuple[Deployment, ...]


class GameData(msgspec.Struct, frozen=True):
    data_version: str
    manoeuvres: dict[str, Manoeuvre]
    warscrolls: dict[str, Warscroll]
    battleplans: dict[str, Battleplan]


# ---------------------------------------------------------------- raw files


class _RawManoeuvre(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    name: str
    heading: str
    forward: str
    lateral: str
    pivot: int
    mark: Mark


class _ManoeuvresFile(msgspec.Struct, forbid_unknown_fields=True):
    data_version: str
    source: str
    note: str
    manoeuvres: list[_RawManoeuvre]


class _RawWeapon(msgspec.Struct, forbid_unknown_fields=True):
    name: str
    kind: Literal["missile", "melee"]
    range: str
    attacks: str
    to_hit: int
    to_wound: int
    rend: int
    damage: str


class _RawOrdnance(msgspec.Struct, forbid_unknown_fields=True):
    missiles: int
    placement_forward: str


class _RawPilot(msgspec.Struct, forbid_unknown_fields=True):
    name: str
    initiative: int


class _RawWarscroll(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    name: str
    mark: Mark
    points: int
    move: int
    wounds: int
    save: int
    bravery: int
    initiative: int | None
    base_mm: int
    keywords: list[str]
    modes: list[Mode]
    weapons: list[_RawWeapon]
    start_mode: Mode | None = None
    stand_height: str | None = None
    pilot: _RawPilot | None = None
    manoeuvres: list[str] = []
    red: list[str] = []
    ordnance: _RawOrdnance | None = None
    bombs: int = 0
    missile: bool = False


class _WarscrollsFile(msgspec.Struct, forbid_unknown_fields=True):
    data_version: str
    note: str
    warscrolls: list[_RawWarscroll]


class _RawTerrain(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    name: str
    x: str
    y: str
    radius: str
    height: str
    too_tall: bool


class _RawDeployment(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    side: str
    warscroll: str
    x: str
    y: str
    heading: int
    unit: str | None = None


class _RawObjective(msgspec.Struct, forbid_unknown_fields=True):
    x: str
    y: str
    radius: str
    points: int


class _RawTable(msgspec.Struct, forbid_unknown_fields=True):
    width: str
    height: str


class _RawBattleplan(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    name: str
    description: str
    table: _RawTable
    last_round: int
    objective: _RawObjective
    slain_points_divisor: int
    players: tuple[str, str]
    edges: dict[str, list[str]]
    terrain: list[_RawTerrain]
    models: list[_RawDeployment]


class _BattleplansFile(msgspec.Struct, forbid_unknown_fields=True):
    data_version: str
    note: str
    battleplans: list[_RawBattleplan]


def _decode(raw: bytes, kind: type, source: str):
    try:
        return msgspec.json.decode(raw, type=kind)
    except msgspec.ValidationError as err:
        path = str(err).rpartition("at `")[2].rstrip("`")
        raise DataError(str(err), source=source, location=path if "$" in path else None) from err
    except msgspec.DecodeError as err:
        raise DataError(f"not valid JSON: {err}", source=source) from err


def _length(text: str, source: str, entry: str, field: str, *, positive: bool = False) -> int:
    try:
        value = inches(text)
    except (ArithmeticError, ValueError) as err:
        raise DataError(f"{text!r} is not a length in inches", source=source, location=entry, field=field) from err
    if value < 0 or (positive and value == 0):
        raise DataError(f"{text!r} must be {'positive' if positive else 'at least 0'}", source=source,
                        location=entry, field=field)
    return value


def _manoeuvre(raw: _RawManoeuvre, source: str) -> Manoeuvre:
    forward = _length(raw.forward, source, raw.id, "forward", positive=True)
    try:
        lateral = inches(raw.lateral)
    except (ArithmeticError, ValueError) as err:
        raise DataError(f"{raw.lateral!r} is not a length in inches", source=source, location=raw.id,
                        field="lateral") from err
    if not -180 <= raw.pivot <= 180:
        raise DataError("a pivot is between -180 and 180 degrees", source=source, location=raw.id, field="pivot")
    return Manoeuvre(id=raw.id, name=raw.name, heading=raw.heading, forward=forward, lateral=lateral,
                     pivot=degrees(raw.pivot), mark=raw.mark)


def _weapon(raw: _RawWeapon, source: str, entry: str) -> Weapon:
    for field in ("attacks", "damage"):
        if not DICE_EXPRESSION.match(getattr(raw, field)):
            raise DataError(f"{getattr(raw, field)!r} is not a number, D3 or D6", source=source, location=entry,
                            field=f"{raw.name}.{field}")
    for field in ("to_hit", "to_wound"):
        if not 2 <= getattr(raw, field) <= 6:
            raise DataError("a roll to hit or wound is 2+ to 6+", source=source, location=entry,
                            field=f"{raw.name}.{field}")
    return Weapon(name=raw.name, kind=raw.kind, range=_length(raw.range, source, entry, f"{raw.name}.range"),
                  attacks=raw.attacks, to_hit=raw.to_hit, to_wound=raw.to_wound, rend=raw.rend, damage=raw.damage)


def _warscroll(raw: _RawWarscroll, manoeuvres: dict[str, Manoeuvre], source: str) -> Warscroll:
    entry = raw.id
    if raw.wounds < 1:
        raise DataError("a model has at least 1 wound", source=source, location=entry, field="wounds")
    if not raw.modes:
        raise DataError("a model has at least one movement mode", source=source, location=entry, field="modes")
    for name in raw.manoeuvres + raw.red:
        if name not in manoeuvres:
            raise DataError(f"no manoeuvre {name!r} in manoeuvres.json", source=source, location=entry,
                            field="manoeuvres")
    if not set(raw.red) <= set(raw.manoeuvres):
        raise DataError("a Red manoeuvre must be one of the model's manoeuvres", source=source, location=entry,
                        field="red")
    if "airborne" in raw.modes and (raw.initiative is None or not raw.manoeuvres):
        raise DataError("an AIRBORNE model lists its Initiative and its manoeuvres", source=source, location=entry,
                        field="initiative" if raw.initiative is None else "manoeuvres")
    if "airborne" in raw.modes and set(raw.manoeuvres) <= set(raw.red):
        raise DataError("an AIRBORNE model must fly a manoeuvre every movement phase: list one that is not Red",
                        source=source, location=entry, field="red")
    if raw.initiative is not None and not 1 <= raw.initiative <= 7:
        raise DataError("Initiative is a target of 1+ to 7+", source=source, location=entry, field="initiative")
    start = raw.start_mode or raw.modes[0]
    if start not in raw.modes:
        raise DataError(f"{start!r} is not one of the model's modes", source=source, location=entry,
                        field="start_mode")
    ordnance = raw.ordnance or _RawOrdnance(missiles=0, placement_forward="1")
    names = [weapon.name for weapon in raw.weapons]
    if len(set(names)) != len(names):
        raise DataError("two weapons share a name", source=source, location=entry, field="weapons")
    return Warscroll(
        id=raw.id, name=raw.name, mark=raw.mark, points=raw.points, move=inches(raw.move), wounds=raw.wounds,
        save=raw.save, bravery=raw.bravery, initiative=raw.initiative, base_radius=raw.base_mm * 50,
        keywords=frozenset(raw.keywords), modes=tuple(raw.modes), start_mode=start,
        stand_height=None if raw.stand_height is None else _length(raw.stand_height, source, entry, "stand_height"),
        pilot_initiative=raw.pilot.initiative if raw.pilot else None, manoeuvres=tuple(raw.manoeuvres),
        red=frozenset(raw.red),
        ordnance=Ordnance(missiles=ordnance.missiles,
                          placement_forward=_length(ordnance.placement_forward, source, entry, "placement_forward")),
        bombs=raw.bombs, weapons=tuple(_weapon(w, source, entry) for w in raw.weapons), missile=raw.missile)


def _battleplan(raw: _RawBattleplan, warscrolls: dict[str, Warscroll], source: str) -> Battleplan:
    entry = raw.id
    for side, edges in raw.edges.items():
        if side not in raw.players:
            raise DataError(f"{side!r} is not a player", source=source, location=entry, field="edges")
        for edge in edges:
            if edge not in ("north", "south", "east", "west"):
                raise DataError(f"{edge!r} is not a table edge", source=source, location=entry, field="edges")
    if set(raw.edges) != set(raw.players):
        raise DataError("every player has board edges", source=source, location=entry, field="edges")
    models = []
    seen = set()
    for model in raw.models:
        if model.warscroll not in warscrolls:
            raise DataError(f"no warscroll {model.warscroll!r}", source=source, location=f"{entry}/{model.id}",
                            field="warscroll")
        if model.side not in raw.players:
            raise DataError(f"{model.side!r} is not a player", source=source, location=f"{entry}/{model.id}",
                            field="side")
        if model.id in seen:
            raise DataError("two models share an id", source=source, location=f"{entry}/{model.id}", field="id")
        seen.add(model.id)
        models.append(Deployment(id=model.id, side=model.side, warscroll=model.warscroll,
                                 x=_length(model.x, source, model.id, "x"), y=_length(model.y, source, model.id, "y"),
                                 heading=degrees(model.heading) % 36000, unit=model.unit))
    terrain = tuple(Terrain(id=t.id, name=t.name, x=_length(t.x, source, t.id, "x"), y=_length(t.y, source, t.id, "y"),
                            radius=_length(t.radius, source, t.id, "radius", positive=True),
                            height=_length(t.height, source, t.id, "height"), too_tall=t.too_tall)
                    for t in raw.terrain)
    o = raw.objective
    return Battleplan(
        id=raw.id, name=raw.name, description=raw.description,
        width=_length(raw.table.width, source, entry, "table.width", positive=True),
        height=_length(raw.table.height, source, entry, "table.height", positive=True),
        last_round=raw.last_round,
        objective=Objective(x=_length(o.x, source, entry, "objective.x"), y=_length(o.y, source, entry, "objective.y"),
                            radius=_length(o.radius, source, entry, "objective.radius"), points=o.points),
        slain_points_divisor=max(1, raw.slain_points_divisor), players=raw.players,
        edges={side: tuple(edges) for side, edges in raw.edges.items()}, terrain=terrain, models=tuple(models))


def _read(name: str, folder: str | os.PathLike | None) -> tuple[bytes, str]:
    if folder is None:
        resource = resources.files(__package__) / "data" / name
        return resource.read_bytes(), f"million_colored_sun/data/{name}"
    path = os.path.join(folder, name)
    return read_data_file(path), path


def load_data(folder: str | os.PathLike | None = None) -> GameData:
    """The three data files from ``folder`` (default: the package's ``data/``), validated."""
    raw, source = _read("manoeuvres.json", folder)
    manoeuvres_file = _decode(raw, _ManoeuvresFile, source)
    manoeuvres = {m.id: _manoeuvre(m, source) for m in manoeuvres_file.manoeuvres}
    raw, source = _read("warscrolls.json", folder)
    warscrolls_file = _decode(raw, _WarscrollsFile, source)
    warscrolls = {w.id: _warscroll(w, manoeuvres, source) for w in warscrolls_file.warscrolls}
    if "missile" not in warscrolls or not warscrolls["missile"].missile:
        raise DataError("the missile's warscroll (MISSILES) is missing", source=source, location="missile")
    raw, source = _read("battleplans.json", folder)
    plans_file = _decode(raw, _BattleplansFile, source)
    plans = {p.id: _battleplan(p, warscrolls, source) for p in plans_file.battleplans}
    version = f"{manoeuvres_file.data_version}+{warscrolls_file.data_version}+{plans_file.data_version}"
    return GameData(data_version=version, manoeuvres=manoeuvres, warscrolls=warscrolls, battleplans=plans)


@functools.cache
def default_data() -> GameData:
    return load_data()
