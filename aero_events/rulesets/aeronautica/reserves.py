"""Reserves (rulebook p.33; the Dogfight's limits p.34).

"Aircraft held in reserve are not deployed at the start of the game, but will come on
in later turns. To see if aircraft held in reserve arrive, roll a D6 for each aircraft
at the start of each turn, before the Choose Manoeuvres phase" (p.33):

=========  ================
Turn       D6 roll required
=========  ================
1          N/A
2-4        5+
5-8        4+
9+         3+
=========  ================

An arrived aircraft is placed "within a full hex touching the edge of the Area of
Engagement, anywhere within the area in which its side deployed", at its Max Speed,
with the Altitude its player chooses; it then chooses an Ace Manoeuvre and follows the
normal rules. Reserves that never arrive count as Accidentally Disengaged (p.33, see
:mod:`.victory`).

The arrival rolls come right after :class:`TurnBegan` (``turn.end_turn`` calls
:func:`roll_arrivals`); if any aircraft arrived, the short ``reserves`` phase
(``state.ARRIVALS``) waits for a :class:`PlaceReserve` per arrived aircraft, then
Choose Manoeuvres begins.

Choices where the text is silent:

* The dice are rolled player by player in the order of ``state.players`` (the initiative
  of the turn is not rolled yet), aircraft in force order.
* "A full hex touching the edge" is the outermost full hex of a column or row
  (``Board.edge_distance == 0``): the outermost full hexes of odd columns sit half a hex
  in from a north or south edge, and leaving them out would leave gaps along the edge.
  "Within the area in which its side deployed" is the side's deployment area (within
  ``state.deployment_depth`` hexes of its edge), so the corner hexes on the east and
  west edges inside that area count too.
* The facing is the player's choice as well (the text gives only Speed and Altitude).
* An occupied hex cannot be chosen (a base needs the hex, p.7).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from aero_events.core import Command, DiceCup, Event, RuleError
from aero_events.hexgrid import Edge, Hex

from .commands import PlaceReserve
from .events import PhaseBegan, ReserveArrived, ReservePlaced
from .scenarios.terrain import check_clear_of_terrain, terrain_level
from .state import ARRIVALS, CHOOSE_MANOEUVRES, FLYING, RESERVE, GameState, with_aircraft

if TYPE_CHECKING:
    from .ruleset import AeronauticaRules
    from .turn import Emitter

#: The arrival table (p.33): (first turn, D6 needed), latest first.
ARRIVAL_TABLE: tuple[tuple[int, int], ...] = ((9, 3), (5, 4), (2, 5))


def roll_needed(turn: int) -> int | None:
    """The D6 a reserve needs to arrive at the start of ``turn`` (p.33); None in turn 1."""
    for first, needed in ARRIVAL_TABLE:
        if turn >= first:
            return needed
    return None


def roll_arrivals(rules: AeronauticaRules, out: Emitter, dice: DiceCup) -> None:
    """The start of a turn, before Choose Manoeuvres (p.33): a D6 for each reserve aircraft."""
    state = out.state
    needed = roll_needed(state.turn)
    if needed is None or not any(a.status == RESERVE for a in state.aircraft.values()):
        return  # turn 1, or no aircraft in reserve: nothing to roll for
    arrived = False
    for player in state.players:
        for aircraft in state.side(player):
            if aircraft.status != RESERVE or aircraft.id in out.state.arriving:
                continue
            roll = dice.d6(purpose=f"reserve arrival of {aircraft.id}", roller=player, target=needed)
            out.emit(roll)
            if roll.faces[0] >= needed:
                out.emit(ReserveArrived(aircraft=aircraft.id))
                arrived = True
    if arrived:
        out.emit(PhaseBegan(phase=ARRIVALS))


def advance(out: Emitter) -> bool:
    """Once every arrived reserve is placed, Choose Manoeuvres begins. True if it emitted anything."""
    if out.state.phase == ARRIVALS and not out.state.arriving:
        out.emit(PhaseBegan(phase=CHOOSE_MANOEUVRES))
        return True
    return False


def deployment_edge(state: GameState, player: str) -> Edge:
    """The edge ``player`` deployed from (p.34); the first player south, the second north by default."""
    default = Edge.SOUTH if player == state.players[0] else Edge.NORTH
    return Edge(state.edges.get(player, default))


def arrival_hexes(rules: AeronauticaRules, state: GameState, player: str) -> list[Hex]:
    """Full hexes touching the edge of the Area of Engagement inside ``player``'s deployment area (p.33)."""
    board = rules.board(state)
    own = deployment_edge(state, player)
    occupied = state.occupied()
    hexes = []
    for hex in sorted(board.hexes_within(own, state.deployment_depth)):
        if hex in occupied:
            continue
        if any(board.edge_distance(hex, edge) == 0 for edge in Edge):
            hexes.append(hex)
    return hexes


def place_reserve(rules: AeronauticaRules, out: Emitter, command: PlaceReserve, dice: DiceCup) -> None:
    """Place an arrived reserve (p.33): at Max Speed, at the chosen Altitude and facing."""
    state = out.state
    if state.phase != ARRIVALS or command.aircraft not in state.arriving:
        raise RuleError(f"{command.aircraft} is not a reserve that has just arrived", rule="Reserves", page=33)
    aircraft = state.aircraft[command.aircraft]
    if aircraft.owner != command.player:
        raise RuleError(f"{command.aircraft} is not {command.player}'s aircraft", rule="Reserves", page=33)
    hex = Hex(*command.hex)
    if hex not in arrival_hexes(rules, state, command.player):
        raise RuleError(f"{tuple(hex)} is not a free full hex touching the edge within the area "
                        f"{command.player} deployed in", rule="Reserves", page=33)
    if not 0 <= command.facing <= 5:
        raise RuleError(f"facing {command.facing} is not a hexside 0-5", rule="Reserves", page=33)
    profile = rules.profile(aircraft)
    if not 1 <= command.altitude <= profile.max_altitude:
        raise RuleError(f"{aircraft.id}'s Altitude may be set to 1-{profile.max_altitude}, not {command.altitude}",
                        rule="Reserves", page=33)
    check_clear_of_terrain(state, aircraft.id, hex, command.altitude, "Reserves")  # Terrain Height (p.33)
    out.emit(ReservePlaced(aircraft=aircraft.id, hex=hex, facing=command.facing, speed=profile.max_speed,
                           altitude=command.altitude))


HANDLERS = {PlaceReserve: place_reserve}


#: The phases in which :func:`legal_commands` may offer a command (the ruleset asks no other part).
COMMAND_PHASES: frozenset[str] = frozenset({ARRIVALS})


def legal_commands(rules: AeronauticaRules, state: GameState, player: str) -> list[Command]:
    """Every hex, facing and Altitude for each of ``player``'s arrived reserves."""
    if state.phase != ARRIVALS:
        return []
    commands: list[Command] = []
    for aircraft_id in state.arriving:
        aircraft = state.aircraft[aircraft_id]
        if aircraft.owner != player:
            continue
        top = rules.profile(aircraft).max_altitude
        for hex in arrival_hexes(rules, state, player):
            lowest = terrain_level(state, hex) + 1  # higher than any terrain there (p.33)
            commands.extend(PlaceReserve(player=player, aircraft=aircraft_id, hex=hex, facing=facing,
                                         altitude=altitude)
                            for facing in range(6) for altitude in range(lowest, top + 1))
    return commands


def evolve(rules: AeronauticaRules, state: GameState, event: Event) -> GameState | None:
    replace = msgspec.structs.replace
    if isinstance(event, ReserveArrived):
        return replace(state, arriving=(*state.arriving, event.aircraft))
    if isinstance(event, ReservePlaced):
        aircraft = replace(state.aircraft[event.aircraft], status=FLYING, hex=Hex(*event.hex), facing=event.facing,
                           speed=event.speed, altitude=event.altitude, entered_turn=state.turn)  # Fuel (p.11)
        state = with_aircraft(state, aircraft)
        return replace(state, arriving=tuple(a for a in state.arriving if a != event.aircraft))
    return None
