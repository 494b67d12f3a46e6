"""The set-up phase before turn 1, played as commands (the Dogfight's Set-up, p.34; weather p.33).

"Players set up on opposite sides of the Area of Engagement. Starting with the winner
of a roll-off, players take turns to place an aircraft within three hexes of the edge
of the Area of Engagement. If Ground Defences are in use, they may be set up within six
hexes of the owning player's edge of the Area of Engagement. Both players may choose the
Speed and Altitude of each aircraft before setting it up." (p.34)

"The player that wins the roll to deploy first should also roll to determine the
weather conditions, before either player sets up any of their force" (p.33); Bad
Weather's D3 cloud level is rolled "after deploying forces but before the Choose
Manoeuvres phase of the first turn" (p.33).

The sequence, all in the ``set_up`` phase of turn 1:

1. :class:`RollOff` (either player asks): a D6 each, ties rolled again;
   :class:`SetUpRollOffWon`.
2. The weather, rolled by the roll-off winner (:mod:`..weather`), if in use.
3. :class:`PlaceAircraft`, the players alternating from the roll-off winner; once one
   side has placed everything, the other places the rest one after another (as in the
   Movement phase, p.14). Reserves are not placed (p.33).
4. Bad Weather's D3 cloud level, then :class:`SetUpCompleted` and turn 1 begins.

A game whose placements are given in its setup (``GameSetup.deployment == "placed"``)
only plays this phase when the weather needs rolling (steps 1, 2 and 4).

Choices where the text is silent:

* The roll-off is requested by a command either player may give; the D6s are the
  players' in ``state.players`` order.
* Bad Weather's D3 is rolled by the roll-off winner.
* A Ground Defence is set up at Speed 0 and Altitude 0 (it is static and on the
  ground, p.8); it is kept as ``LANDED`` with ``ground_defence`` set, so it takes part
  as a ground target and never chooses a manoeuvre or moves.
* No aircraft may be set up in a hex another occupies (a base needs the hex, p.7).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING

import msgspec

from aero_events.core import Command, CommandProduct, DiceCup, RuleError, chain_commands
from aero_events.hexgrid import Board, Edge, Hex

from .. import weather
from ..commands import PlaceAircraft, RollOff
from ..events import AircraftPlaced, SetUpCompleted, SetUpRollOffTied, SetUpRollOffWon, TurnBegan
from ..forces import force_points
from ..state import (
    FLYING,
    LANDED,
    RESERVE,
    SET_UP,
    UNDEPLOYED,
    AircraftState,
    FoldScope,
    GameState,
    evolve_by_table,
    replaced,
    with_aircraft,
)
from .terrain import check_clear_of_terrain, terrain_level

if TYPE_CHECKING:
    from ..profiles import Catalogue
    from ..ruleset import AeronauticaRules
    from ..setup import GameSetup
    from ..turn import Emitter

SET_UP_RULE = ("Set-up", 34)


# ---------------------------------------------------------------- the initial state


def underdog_of(setup: GameSetup, catalogue: Catalogue) -> str | None:
    """Underdog (p.35): the player whose force is smaller by ``underdog_margin`` points or more."""
    if setup.underdog_margin is None:
        return None
    (a, b) = [(side.player, force_points(side.force, catalogue).total) for side in setup.sides]
    if abs(a[1] - b[1]) < setup.underdog_margin:
        return None
    return a[0] if a[1] < b[1] else b[0]


def with_scenario(state: GameState, setup: GameSetup, catalogue: Catalogue) -> GameState:
    """The scenario part's fields of the initial state; the set-up phase when it is needed."""
    if setup.weather not in weather.WEATHER_RULES:
        raise RuleError(f"weather must be one of {weather.WEATHER_RULES}, not {setup.weather!r}",
                        rule="Night Fighting & Bad Weather", page=33)
    if setup.deployment not in ("placed", "alternate"):
        raise RuleError(f"deployment is 'placed' or 'alternate', not {setup.deployment!r}", rule="Set-up", page=34)
    edges = [Edge(e) for e in setup.edges]
    if edges[0] == edges[1]:
        raise RuleError("players set up on opposite sides of the Area of Engagement", rule="Set-up", page=34)
    needs_phase = setup.deployment == "alternate" or setup.weather != "none"
    return msgspec.structs.replace(
        state,
        phase=SET_UP if needs_phase else state.phase,
        edges={side.player: str(edge) for side, edge in zip(setup.sides, edges, strict=True)},
        deployment_depth=setup.deployment_depth, ground_defence_depth=setup.ground_defence_depth,
        weather_rule=setup.weather, underdog=underdog_of(setup, catalogue), terrain=tuple(setup.terrain),
        ground_targets=tuple(setup.ground_targets), landing_zones=tuple(setup.landing_zones),
    )


# ---------------------------------------------------------------- the phase


def next_placer(state: GameState, just_placed: str) -> str | None:
    """Players take turns (p.34); a side with aircraft left places them once the other has finished."""
    return places_next(state.aircraft, state.opponent(just_placed), just_placed)


def places_next(aircraft: dict[str, AircraftState], first: str, second: str) -> str | None:
    """``first`` if it has an aircraft left to set up (p.34), else ``second`` if it has one, else None: one pass
    over the aircraft (for the reducers)."""
    second_has = False
    for a in aircraft.values():
        if a.status == UNDEPLOYED:
            if a.owner == first:
                return first
            if a.owner == second:
                second_has = True
    return second if second_has else None


def roll_off(rules: AeronauticaRules, out: Emitter, command: RollOff, dice: DiceCup) -> None:
    """The set-up roll-off (p.34): a D6 each, re-rolled on a tie; then the winner rolls the weather (p.33)."""
    if out.state.phase != SET_UP or out.state.rolled_off is not None:
        raise RuleError("the roll-off for set-up is made once, before any aircraft is set up", rule="Set-up",
                        page=34)
    first, second = out.state.players
    while True:
        a = dice.d6(purpose="set-up roll-off", roller=first)
        b = dice.d6(purpose="set-up roll-off", roller=second)
        out.emit(a)
        out.emit(b)
        if a.faces[0] != b.faces[0]:
            winner = first if a.faces[0] > b.faces[0] else second
            out.emit(SetUpRollOffWon(player=winner))
            break
        out.emit(SetUpRollOffTied())
    weather.determine_weather(out, dice, roller=winner)


def deployment_zone(rules: AeronauticaRules, state: GameState, aircraft: AircraftState) -> frozenset[Hex]:
    """Where ``aircraft`` may be set up: within three hexes of its player's edge, six for Ground Defences."""
    depth = state.ground_defence_depth if aircraft.ground_defence else state.deployment_depth
    return _hexes_within(rules.board(state), state.edges[aircraft.owner], depth)


@functools.lru_cache(maxsize=256)
def _hexes_within(board: Board, edge: str, depth: int) -> frozenset[Hex]:
    """A board's hexes within ``depth`` of ``edge``, worked out once per board, edge and depth."""
    return board.hexes_within(Edge(edge), depth)


def speeds_and_altitudes(rules: AeronauticaRules, aircraft: AircraftState) -> tuple[range, range]:
    """The Speeds and Altitudes a player may choose (p.34): the profile's Min-Max Speed and 1-Max Altitude;
    a Ground Defence sits at Speed 0 and Altitude 0."""
    profile = rules.profile(aircraft)
    if aircraft.ground_defence:
        return range(1), range(1)
    return range(profile.min_speed, profile.max_speed + 1), range(1, profile.max_altitude + 1)


def place_aircraft(rules: AeronauticaRules, out: Emitter, command: PlaceAircraft, dice: DiceCup) -> None:
    """Set up one aircraft (p.34)."""
    state = out.state
    if state.phase != SET_UP:
        raise RuleError("aircraft are set up before the first turn", rule="Set-up", page=34)
    if state.rolled_off is None:
        raise RuleError("roll off first: the winner sets up the first aircraft", rule="Set-up", page=34)
    if state.to_act != command.player:
        raise RuleError(f"players take turns to place an aircraft: it is {state.to_act}'s turn", rule="Set-up",
                        page=34)
    aircraft = state.aircraft.get(command.aircraft)
    if aircraft is None or aircraft.owner != command.player:
        raise RuleError(f"{command.player} has no aircraft {command.aircraft!r}", rule="Set-up", page=34)
    if aircraft.status != UNDEPLOYED:
        why = "is held in reserve (p.33)" if aircraft.status == RESERVE else "is already set up"
        raise RuleError(f"{aircraft.id} {why}", rule="Set-up", page=34)
    hex = Hex(*command.hex)
    if hex not in deployment_zone(rules, state, aircraft):
        within = state.ground_defence_depth if aircraft.ground_defence else state.deployment_depth
        what = "Ground Defences are" if aircraft.ground_defence else "aircraft are"
        raise RuleError(f"{tuple(hex)} is not within {within} hexes of {command.player}'s edge "
                        f"({state.edges[command.player]}): {what} set up there", rule="Set-up", page=34)
    if hex in state.occupied():
        raise RuleError(f"{tuple(hex)} is already occupied", rule="Set-up", page=7)
    if not 0 <= command.facing <= 5:
        raise RuleError(f"facing {command.facing} is not a hexside 0-5", rule="Set-up", page=34)
    speeds, altitudes = speeds_and_altitudes(rules, aircraft)
    if command.speed not in speeds:
        raise RuleError(f"{aircraft.id}'s Speed may be set to {speeds.start}-{speeds.stop - 1}, not "
                        f"{command.speed}", rule="Set-up: Speed", page=34)
    if command.altitude not in altitudes:
        raise RuleError(f"{aircraft.id}'s Altitude may be set to {altitudes.start}-{altitudes.stop - 1}, not "
                        f"{command.altitude}", rule="Set-up: Altitude", page=34)
    if not aircraft.ground_defence:
        check_clear_of_terrain(state, aircraft.id, hex, command.altitude, "Set-up")
    out.emit(AircraftPlaced(aircraft=aircraft.id, hex=hex, facing=command.facing, speed=command.speed,
                            altitude=command.altitude))



def advance(rules: AeronauticaRules, out: Emitter, dice: DiceCup) -> bool:
    """Run the set-up phase on where it needs nobody's choice; True if it emitted anything."""
    state = out.state
    if state.phase != SET_UP or state.rolled_off is None:
        return False
    if any(a.status == UNDEPLOYED for a in state.aircraft.values()):
        return False
    if weather.needs_cloud_level(state):
        weather.roll_cloud_level(out, dice, roller=state.rolled_off)
        return True
    out.emit(SetUpCompleted())
    out.emit(TurnBegan(turn=1))
    return True


HANDLERS = {RollOff: roll_off, PlaceAircraft: place_aircraft}


#: The phases in which :func:`legal_commands` may offer a command (the ruleset asks no other part).
COMMAND_PHASES: frozenset[str] = frozenset({SET_UP})


def legal_commands(rules: AeronauticaRules, state: GameState, player: str) -> Sequence[Command]:
    """The roll-off (either player), then every placement of every aircraft the player has left to set up."""
    if state.phase != SET_UP:
        return []
    if state.rolled_off is None:
        return [RollOff(player=player)]
    if state.to_act != player:
        return []
    occupied = state.occupied()
    spaces = []
    for aircraft in state.side(player):
        if aircraft.status != UNDEPLOYED:
            continue
        speeds, altitudes = speeds_and_altitudes(rules, aircraft)
        zone = deployment_zone(rules, state, aircraft)
        taken = occupied & zone  # the zone's hexes an aircraft stands in: most often none
        # The zone's free hexes in order (``hex not in taken``, asked of the set itself: no Python step per hex), as
        # a tuple: CommandProduct keeps each axis as a tuple, so the zone's kept order is not copied.
        hexes = tuple(itertools.filterfalse(taken.__contains__, _in_order(zone))) if taken else _in_order(zone)
        # Tens of thousands of placements: built on demand (a bot picking at random needs one). Over terrain
        # an aircraft is set up higher than the terrain (p.33): hexes are grouped by the terrain's level.
        by_level: dict[int, Sequence[Hex]] = {}
        if aircraft.ground_defence or not state.terrain:
            if hexes:
                by_level[0] = hexes  # no terrain: every hex at level 0
        else:
            for hex in hexes:
                by_level.setdefault(terrain_level(state, hex), []).append(hex)
        for level, level_hexes in sorted(by_level.items()):
            allowed = range(max(altitudes.start, level + 1), altitudes.stop) if level else altitudes
            if len(allowed):
                spaces.append(CommandProduct(functools.partial(_placement, player, aircraft.id),
                                             (level_hexes, range(6), speeds, allowed)))
    return chain_commands(spaces)


@functools.lru_cache(maxsize=256)
def _in_order(zone: frozenset[Hex]) -> tuple[Hex, ...]:
    """A deployment zone's hexes sorted, once per zone (:func:`deployment_zone` keeps each zone)."""
    return tuple(sorted(zone))


def _placement(player: str, aircraft: str, hex: Hex, facing: int, speed: int, altitude: int) -> PlaceAircraft:
    return PlaceAircraft(player=player, aircraft=aircraft, hex=hex, facing=facing, speed=speed, altitude=altitude)


_replace = msgspec.structs.replace


def _roll_off_won(rules: AeronauticaRules, state: GameState, event: SetUpRollOffWon,
                  scope: FoldScope | None = None) -> GameState:
    """The roll-off's winner sets up first (p.34), if it has aircraft to set up."""
    winner = event.player
    to_act = places_next(state.aircraft, winner, state.opponent(winner))
    if scope is not None:  # the fold's own state: changed in place (FoldScope)
        state.rolled_off = winner
        state.to_act = to_act
        return state
    return _replace(state, rolled_off=winner, to_act=to_act)


def _roll_off_tied(rules: AeronauticaRules, state: GameState, event: SetUpRollOffTied,
                   scope: FoldScope | None = None) -> GameState:
    return state  # rolled again


def _aircraft_placed(rules: AeronauticaRules, state: GameState, event: AircraftPlaced,
                     scope: FoldScope | None = None) -> GameState:
    """An aircraft set up (p.34); the players take turns."""
    aircraft = state.aircraft[event.aircraft]
    placed = replaced(aircraft, scope, hex=Hex(*event.hex), facing=event.facing, speed=event.speed,
                      altitude=event.altitude, status=LANDED if aircraft.ground_defence else FLYING)
    state = with_aircraft(state, placed, scope)
    owner = aircraft.owner
    to_act = places_next(state.aircraft, state.opponent(owner), owner)
    if scope is not None:  # the fold's own state: changed in place (FoldScope)
        state.to_act = to_act
        return state
    return _replace(state, to_act=to_act)


def _set_up_completed(rules: AeronauticaRules, state: GameState, event: SetUpCompleted,
                      scope: FoldScope | None = None) -> GameState:
    return replaced(state, scope, to_act=None)


#: The set-up's reducers by event type (the ruleset's dispatch reads this table).
_REDUCERS = {
    SetUpRollOffWon: _roll_off_won,
    SetUpRollOffTied: _roll_off_tied,
    AircraftPlaced: _aircraft_placed,
    SetUpCompleted: _set_up_completed,
}


evolve = evolve_by_table(_REDUCERS, "the set-up's events")
