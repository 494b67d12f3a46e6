"""Scenarios and the game's setup: SETUP, ALTITUDE (floor, starting altitudes), ACES, LUCKY, FUEL, CLOUDS and the
pieces of SCENARIO RULES, read from ``scenarios/*.json`` and validated (errors name file, entry and field)."""

from __future__ import annotations

import json
import os
from decimal import Decimal
from pathlib import Path
from typing import Any

import msgspec

from aero_events.core.errors import DataError, read_data_file
from aero_events.core.pools import Pool
from aero_events.table.units import heading as to_heading
from aero_events.table.units import mm

from .data import Catalogue
from .geometry import Pose
from .pieces import SKILLS
from .state import Cloud, Crewman, GameState, PlaneState, TargetState

SCENARIOS = Path(__file__).parent / "scenarios"


class CrewSetup(msgspec.Struct, frozen=True, kw_only=True):
    skills: tuple[str, ...] = ()


class PlaneSetup(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    owner: str
    profile: str
    x: str
    y: str
    heading: str
    level: int
    novice: bool = False
    lucky: bool = False
    loaded: bool = False
    fuel: int | None = None
    own_edge: str | None = None
    crew: tuple[CrewSetup, ...] = ()


class TargetSetup(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    kind: str
    side: str | None
    x: str
    y: str
    heading: str = "0"
    towed_by: str | None = None


class CloudSetup(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    level: int
    points: tuple[tuple[str, str], ...]


class GameSetup(msgspec.Struct, frozen=True, kw_only=True):
    """Everything a game starts from; lengths as decimal strings of mm, headings of degrees."""

    scenario: str
    players: tuple[str, ...]
    table: tuple[str, str]
    floor: int = 0
    last_turn: int = 12
    fuel_rule: bool = False
    victory: dict[str, int] = msgspec.field(default_factory=dict)
    planes: tuple[PlaneSetup, ...] = ()
    targets: tuple[TargetSetup, ...] = ()
    clouds: tuple[CloudSetup, ...] = ()


def _number(value: Any, path: str, where: str, field: str) -> str:
    if isinstance(value, bool) or not isinstance(value, (int, Decimal)):
        raise DataError(f"expected a number, got {value!r}", source=path, location=where, field=field)
    return str(value)


def load_scenario(path: str | os.PathLike, catalogue: Catalogue) -> GameSetup:
    """A scenario file as a :class:`GameSetup`, validated against the catalogue."""
    source = os.fspath(path)
    try:
        data = json.loads(read_data_file(path), parse_float=Decimal)
    except ValueError as exc:
        raise DataError(f"not valid JSON: {exc}", source=source) from None
    if not isinstance(data, dict):
        raise DataError("the file must hold a JSON object", source=source)
    for field in ("name", "players", "table", "planes"):
        if field not in data:
            raise DataError("missing", source=source, location="scenario", field=field)
    players = tuple(data["players"])
    if len(players) < 2 or not all(isinstance(p, str) for p in players):
        raise DataError("at least two players (sides), by name", source=source, location="scenario", field="players")
    table = data["table"]
    if not isinstance(table, list) or len(table) != 2:
        raise DataError("the table is [width, height] in mm", source=source, location="scenario", field="table")
    planes = []
    ids: set[str] = set()
    for entry in data["planes"]:
        where = str(entry.get("id", "?")) if isinstance(entry, dict) else "?"
        if not isinstance(entry, dict):
            raise DataError("a plane is a JSON object", source=source, location=where)
        for field in ("id", "owner", "profile", "x", "y", "heading", "level"):
            if field not in entry:
                raise DataError("missing", source=source, location=where, field=field)
        if entry["id"] in ids:
            raise DataError("two pieces share this id", source=source, location=where, field="id")
        ids.add(entry["id"])
        if entry["owner"] not in players:
            raise DataError(f"the owner must be one of {players}", source=source, location=where, field="owner")
        profile = catalogue.planes.get(entry["profile"])
        if profile is None:
            raise DataError(f"unknown plane {entry['profile']!r}", source=source, location=where, field="profile")
        level = entry["level"]
        if not isinstance(level, int) or not 1 <= level <= profile.ceiling:
            raise DataError(f"the altitude is a level from 1 to the plane's ceiling ({profile.ceiling})",
                            source=source, location=where, field="level")
        crew = []
        for i, man in enumerate(entry.get("crew", [])):
            skills = tuple(man.get("skills", ()))
            if any(skill not in SKILLS for skill in skills):
                raise DataError(f"ace skills are {', '.join(SKILLS)}", source=source, location=where,
                                field=f"crew[{i}].skills")
            crew.append(CrewSetup(skills=skills))
        if len(crew) > len(profile.crew):
            raise DataError(f"a {profile.name} has {len(profile.crew)} crew", source=source, location=where,
                            field="crew")
        if entry.get("loaded") and not profile.loads:
            raise DataError(f"a {profile.name} carries no bombs or drop tanks", source=source, location=where,
                            field="loaded")
        if entry.get("own_edge") not in (None, "north", "south", "east", "west"):
            raise DataError("own_edge is north, south, east or west", source=source, location=where,
                            field="own_edge")
        planes.append(PlaneSetup(id=entry["id"], owner=entry["owner"], profile=entry["profile"],
                                 x=_number(entry["x"], source, where, "x"), y=_number(entry["y"], source, where, "y"),
                                 heading=_number(entry["heading"], source, where, "heading"), level=level,
                                 novice=bool(entry.get("novice", False)), lucky=bool(entry.get("lucky", False)),
                                 loaded=bool(entry.get("loaded", False)), fuel=entry.get("fuel"),
                                 own_edge=entry.get("own_edge"), crew=tuple(crew)))
    targets = []
    for entry in data.get("targets", []):
        where = str(entry.get("id", "?"))
        kind = entry.get("kind")
        if kind not in catalogue.targets:
            raise DataError(f"unknown kind {kind!r}", source=source, location=where, field="kind")
        if entry.get("side") not in (None, *players):
            raise DataError(f"the side must be one of {players}", source=source, location=where, field="side")
        if entry.get("id") in ids:
            raise DataError("two pieces share this id", source=source, location=where, field="id")
        ids.add(entry["id"])
        targets.append(TargetSetup(id=entry["id"], kind=kind, side=entry.get("side"),
                                   x=_number(entry.get("x"), source, where, "x"),
                                   y=_number(entry.get("y"), source, where, "y"),
                                   heading=_number(entry.get("heading", 0), source, where, "heading"),
                                   towed_by=entry.get("towed_by")))
    clouds = []
    for entry in data.get("clouds", []):
        where = str(entry.get("id", "?"))
        points = entry.get("points")
        if not isinstance(points, list) or len(points) < 3:
            raise DataError("a cloud is a polygon of at least three [x, y] points", source=source, location=where,
                            field="points")
        clouds.append(CloudSetup(id=where, level=int(entry.get("level", 1)),
                                 points=tuple((_number(p[0], source, where, "points"),
                                               _number(p[1], source, where, "points")) for p in points)))
    return GameSetup(scenario=data["name"], players=players,
                     table=(_number(table[0], source, "scenario", "table"),
                            _number(table[1], source, "scenario", "table")),
                     floor=int(data.get("floor", 0)), last_turn=int(data.get("last_turn", 12)),
                     fuel_rule=bool(data.get("fuel_rule", False)), victory=dict(data.get("victory", {})),
                     planes=tuple(planes), targets=tuple(targets), clouds=tuple(clouds))


def build_initial_state(setup: GameSetup, catalogue: Catalogue) -> GameState:
    """The state before the first card is planned (SETUP)."""
    from aero_events.core.orders import evolve_order_steps

    from .geometry import convex_hull
    from .planning import open_plans

    planes = {}
    for entry in setup.planes:
        profile = catalogue.planes[entry.profile]
        crew = tuple(Crewman(role=role, skills=entry.crew[i].skills if i < len(entry.crew) else ())
                     for i, role in enumerate(profile.crew))
        planes[entry.id] = PlaneState(
            id=entry.id, owner=entry.owner, side=entry.owner, profile=entry.profile,
            pose=Pose(mm(entry.x), mm(entry.y), to_heading(entry.heading)), level=entry.level, novice=entry.novice,
            lucky=entry.lucky, crew=crew, loaded=entry.loaded, fuel=entry.fuel, own_edge=entry.own_edge)
    targets = {}
    for entry in setup.targets:
        prof = catalogue.targets[entry.kind]
        guns = len(prof.guns) if prof.fire == "aa" else 0
        targets[entry.id] = TargetState(
            id=entry.id, kind=entry.kind, side=entry.side,
            pose=Pose(mm(entry.x), mm(entry.y), to_heading(entry.heading)), counters=(None,) * guns,
            counter_turns=(0,) * guns, towed_by=entry.towed_by)
    clouds = tuple(Cloud(id=c.id, level=c.level, points=convex_hull([(mm(x), mm(y)) for x, y in c.points]))
                   for c in setup.clouds)
    pools = {letter: Pool.of(letter, counts) for letter, counts in catalogue.pools.items()}
    state = GameState(scenario=setup.scenario, players=setup.players, sides={p: p for p in setup.players},
                     table=(mm(setup.table[0]), mm(setup.table[1])), floor=setup.floor, last_turn=setup.last_turn,
                     fuel_rule=setup.fuel_rule, planes=planes, targets=targets, clouds=clouds, pools=pools,
                     victory=setup.victory)
    # SETUP: every plane plans its first card, all players at once (the first step of simultaneous orders)
    return msgspec.structs.replace(state, orders=evolve_order_steps((), open_plans(state)))


def scenario_setup(name: str, catalogue: Catalogue, options: dict[str, Any] | None = None) -> GameSetup:
    """A bundled scenario by name (``dogfight``, ``bombing``); ``last_turn`` may be overridden."""
    setup = load_scenario(SCENARIOS / f"{name}.json", catalogue)
    options = dict(options or {})
    if "last_turn" in options:
        setup = msgspec.structs.replace(setup, last_turn=int(options["last_turn"]))
    return setup
