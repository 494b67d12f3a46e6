"""Setting up a game: two forces on an Area of Engagement, each aircraft placed with Speed and Altitude.

Players set up their aircraft choosing each one's Speed and Altitude (p.34, the
Dogfight). The setup is data (a msgspec Struct), stored with the game, so that a
recorded game can be rebuilt from it and its events.
"""

from __future__ import annotations

import msgspec

from aero_events.core import RuleError
from aero_events.hexgrid import Board, Hex

from .forces import ForceList, force_points, validate_force
from .profiles import Catalogue, apply_upgrades
from .scenarios.format import GroundTarget, LandingZone, TerrainFeature
from .state import FLYING, LANDED, RESERVE, UNDEPLOYED, AircraftState, GameState


class Placement(msgspec.Struct, frozen=True, kw_only=True):
    """Where one aircraft starts: hex, facing (0=N clockwise), Speed and Altitude (p.34)."""

    hex: Hex
    facing: int
    speed: int
    altitude: int


class SideSetup(msgspec.Struct, frozen=True, kw_only=True):
    """A player, their force list, and a placement per aircraft in force order."""

    player: str
    force: ForceList
    placements: tuple[Placement, ...]
    # Indices (in force order) of the aircraft held in reserve (Reserves, p.33); they need no placement.
    reserves: tuple[int, ...] = ()


class GameSetup(msgspec.Struct, frozen=True, kw_only=True):
    """Everything needed to start a game. ``last_turn`` is 12 in the rulebook (p.31)."""

    sides: tuple[SideSetup, SideSetup]
    board: str = "3x3"
    last_turn: int = 12
    scenario: str = "open"
    check_points: bool = True
    # Scenario options (end phase, victory and scenarios part, p.32-37); the defaults keep a plain game.
    # deployment "placed": every SideSetup gives its placements; "alternate": a set-up phase before turn 1,
    # the roll-off then PlaceAircraft commands (the Dogfight, p.34), see scenarios/set_up.py.
    deployment: str = "placed"
    edges: tuple[str, str] = ("south", "north")  # each side's edge, in sides order (p.34)
    deployment_depth: int = 3  # within three hexes of the edge (p.34)
    ground_defence_depth: int = 6  # Ground Defences within six (p.34)
    weather: str = "none"  # "none" | "roll" | "bad_weather" | "night_fighting" (p.33), see weather.py
    underdog_margin: int | None = None  # the Dogfight's Underdog rule: 5 points smaller (p.35)
    terrain: tuple[TerrainFeature, ...] = ()  # Terrain Height (p.33)
    ground_targets: tuple[GroundTarget, ...] = ()  # p.33
    landing_zones: tuple[LandingZone, ...] = ()  # p.33


def aircraft_ids(side: SideSetup) -> list[str]:
    """``player-1``, ``player-2``... in force order, or the entry's own name where it has one."""
    return [entry.name or f"{side.player}-{index + 1}" for index, entry in enumerate(side.force.aircraft)]


def board_for(name: str) -> Board:
    """A preset Area of Engagement ("3x3", "4x4", "8x4", p.9) or "COLSxROWS" of complete hexes ("12x10h")."""
    if name.endswith("h"):
        columns, rows = name[:-1].split("x")
        return Board.rectangle(int(columns), int(rows), name=name)
    return Board.preset(name)


def build_initial_state(setup: GameSetup, catalogue: Catalogue) -> GameState:
    """Validate the forces and placements, then place every aircraft (p.9, p.34)."""
    board = board_for(setup.board)
    players = (setup.sides[0].player, setup.sides[1].player)
    if players[0] == players[1]:
        raise RuleError("the two players need different names", rule="Set-up", page=34)
    aircraft: dict[str, AircraftState] = {}
    taken: dict[Hex, str] = {}
    for side in setup.sides:
        if setup.check_points:
            validate_force(side.force, catalogue)
        ids = aircraft_ids(side)
        points = force_points(side.force, catalogue)
        check_reserves(side, len(ids))
        to_place = [i for i in range(len(ids)) if i not in side.reserves] if setup.deployment == "placed" else []
        if len(side.placements) != len(to_place):
            raise RuleError(f"{side.player} has {len(to_place)} aircraft to place but {len(side.placements)} "
                            "placements", rule="Set-up", page=34)
        placements = dict(zip(to_place, side.placements, strict=True))
        for index, (aircraft_id, entry) in enumerate(zip(ids, side.force.aircraft, strict=True)):
            profile = apply_upgrades(catalogue.aircraft[entry.aircraft],
                                     [catalogue.upgrades[u] for u in entry.upgrades])
            if aircraft_id in aircraft:
                raise RuleError(f"two aircraft are called {aircraft_id!r}", rule="Set-up", page=34)
            weapons = (*profile.weapons, *entry.weapons)
            if index not in placements:  # held in reserve, or set up later in the set-up phase (p.33-34)
                aircraft[aircraft_id] = AircraftState(
                    id=aircraft_id, owner=side.player, profile=entry.aircraft, hex=Hex(0, 0), facing=0, speed=0,
                    altitude=0, structure=profile.structure, starting_structure=profile.structure,
                    weapons=weapons, ammo=tuple(catalogue.weapons[w].ammo for w in weapons),
                    upgrades=tuple(entry.upgrades), points=points.aircraft[index].total,
                    status=RESERVE if index in side.reserves else UNDEPLOYED,
                    ground_defence=profile.is_ground_defence)
                continue
            place = placements[index]
            hex = Hex(*place.hex)
            if not board.contains(hex):
                raise RuleError(f"{aircraft_id} is placed off the Area of Engagement at {tuple(hex)}",
                                rule="Set-up", page=17)
            if hex in taken:
                raise RuleError(f"{aircraft_id} and {taken[hex]} are placed in the same hex", rule="Set-up",
                                page=7)
            if not profile.min_speed <= place.speed <= profile.max_speed:
                raise RuleError(f"{aircraft_id}'s Speed {place.speed} is outside {profile.min_speed}-"
                                f"{profile.max_speed}", rule="Set-up: Speed", page=34)
            lowest = 0 if profile.is_ground_defence else 1  # a Ground Defence sits on the ground (p.8)
            if not lowest <= place.altitude <= profile.max_altitude:
                raise RuleError(f"{aircraft_id}'s Altitude {place.altitude} is outside {lowest}-"
                                f"{profile.max_altitude}", rule="Set-up: Altitude", page=34)
            if not 0 <= place.facing <= 5:
                raise RuleError(f"facing {place.facing} is not a hexside 0-5", rule="Set-up")
            taken[hex] = aircraft_id
            aircraft[aircraft_id] = AircraftState(
                id=aircraft_id, owner=side.player, profile=entry.aircraft, hex=hex, facing=place.facing,
                speed=place.speed, altitude=place.altitude, structure=profile.structure,
                starting_structure=profile.structure, weapons=weapons,
                ammo=tuple(catalogue.weapons[w].ammo for w in weapons), upgrades=tuple(entry.upgrades),
                points=points.aircraft[index].total,
                status=LANDED if profile.is_ground_defence else FLYING, ground_defence=profile.is_ground_defence,
            )
    state = GameState(players=players, board=setup.board, last_turn=setup.last_turn, aircraft=aircraft)
    from .scenarios.set_up import with_scenario  # the scenario part's state fields (p.32-37)
    from .scenarios.terrain import check_clear_of_terrain

    state = with_scenario(state, setup, catalogue)
    for placed in state.aircraft.values():
        if placed.status == FLYING:  # never set up inside terrain as tall as its Altitude (p.33)
            check_clear_of_terrain(state, placed.id, placed.hex, placed.altitude, "Set-up")
    return state


def check_reserves(side: SideSetup, count: int) -> None:
    """Reserves name aircraft of the force, each once (p.33); a scenario's limits are its own (p.34)."""
    if len(set(side.reserves)) != len(side.reserves) or not all(0 <= i < count for i in side.reserves):
        raise RuleError(f"{side.player}'s reserves {side.reserves} are not distinct aircraft of the force "
                        f"(0-{count - 1})", rule="Reserves", page=33)
