"""Movement (rulebook p.15-19): Throttle, Move and Manoeuvre, the edge of the Area of Engagement.

Pure geometry and option lists; :mod:`.ruleset` turns them into events.

Choices made where the text is silent (each documented in the README's rules notes):

* every hex of a ``slip`` stage leaves through the front-left (front-right) hexside;
* an aircraft too slow to give every stage of its manoeuvre its hex flies
  straight ahead at its Speed and Stalls (p.17 says only that it Stalls);
* "continue moving in the same direction" (p.17) is the direction of the last
  hex entered;
* plans that fly the same hexes to the same final facing are offered once
  (e.g. Straight at Speed 4 is one plan, not four).
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

import msgspec

from aero_events.core import Command, DiceCup, RuleError, check_reveal
from aero_events.core.secrets import canonical_json, commitment_to_canonical
from aero_events.hexgrid import DIRECTIONS, ORIGIN, Board, Hex
from aero_events.hexgrid.hexes import turned_about_origin

from .commands import (
    ActivateAircraft,
    ChooseFirstMover,
    Hover,
    Land,
    ManoeuvrePlan,
    SetThrottle,
    TakeOff,
    Taxi,
)
from .events import (
    AircraftActivated,
    AircraftDisengaged,
    AltitudeChanged,
    FirstMoverChosen,
    Hovered,
    ManoeuvreFlown,
    ManoeuvreRevealed,
    MovementEnded,
    OccupiedHexRolled,
    Stalled,
    Taxied,
    ThrottleSet,
    TookOff,
)
from .manoeuvres import LANDING_MANOEUVRE, Manoeuvre, facing_change, move_direction, turn
from .profiles import AircraftProfile
from .scenarios.terrain import crash_during_move
from .state import (
    ALTITUDE,
    DISENGAGED,
    FLYING,
    GROUND,
    LANDED,
    MANOEUVRE,
    MOVEMENT,
    THROTTLE,
    AircraftState,
    FoldScope,
    GameState,
    aircraft_with,
    evolve_by_table,
    replaced,
    with_aircraft,
)
from .transports import hover_drop_window
from .turn import Emitter, eligible_to_move

if TYPE_CHECKING:
    from .ruleset import AeronauticaRules

#: The Speed dial runs from 0 to 9 (p.18's climb and dive table stops at Speed 9).
MAX_DIAL_SPEED = 9
#: The 2020 update's roll for each occupied hex flown through (``RuleOptions.occupied_hex_roll``): 2+ is safe.
OCCUPIED_HEX_SAFE_ROLL = 2


class Flight(msgspec.Struct, frozen=True):
    """A flown path: every hex entered in order, the direction of the last step, the final facing."""

    side: str | None
    stage_hexes: tuple[int, ...]
    facings: tuple[int, ...]
    path: tuple[Hex, ...]
    final_facing: int
    last_direction: int


def step(hex: Hex, direction: int) -> Hex:
    dq, dr = DIRECTIONS[direction]
    return Hex(hex.q + dq, hex.r + dr)


def throttle_options(profile: AircraftProfile, speed: int, past_limits: bool) -> list[int]:
    """Speed changes allowed by the Throttle step (p.15): within +-Throttle.

    With ``past_limits`` (the 2019 text: "may not ... *safely*" and "player error is a
    factor") the dial may go past Min or Max Speed, and the aircraft Stalls or risks
    Breaking Up; without it (the 2020 update) Throttle never leaves [Min, Max].
    The dial itself runs 0..9.
    """
    low, high = speed - profile.throttle, speed + profile.throttle
    if past_limits:
        low, high = max(low, 0), min(high, MAX_DIAL_SPEED)
    else:
        low = max(low, min(profile.min_speed, speed))
        high = min(high, max(profile.max_speed, speed))
    return list(range(low - speed, high - speed + 1))  # each new Speed from low to high, as a change


def _compositions(total_max: int, parts: int) -> Iterator[tuple[int, ...]]:
    """Every tuple of ``parts`` positive integers whose sum is at most ``total_max``."""
    for combo in itertools.product(range(1, total_max + 1), repeat=parts):
        if sum(combo) <= total_max:
            yield combo


def fly(hex: Hex, facing: int, manoeuvre: Manoeuvre, side: str | None, stage_hexes: tuple[int, ...],
        facings: tuple[int, ...], speed: int) -> Flight:
    """Fly one plan of ``manoeuvre`` at ``speed`` from (hex, facing): p.16 steps 1-5."""
    path: list[Hex] = []
    direction = facing
    for stage, hexes, value in zip(manoeuvre.stages, stage_hexes, facings, strict=True):
        direction = move_direction(stage.move, facing, side)
        for _ in range(hexes):
            hex = step(hex, direction)
            path.append(hex)
        facing = turn(facing, facing_change(value, side))
    for _ in range(speed - len(path)):
        direction = facing
        hex = step(hex, direction)
        path.append(hex)
    return Flight(side, tuple(stage_hexes), tuple(facings), tuple(path), facing, direction)


def straight(hex: Hex, facing: int, speed: int) -> Flight:
    """Straight ahead at ``speed``: no token (p.13), or a manoeuvre too slow to complete (p.17)."""
    path = []
    for _ in range(speed):
        hex = step(hex, facing)
        path.append(hex)
    return Flight(None, (), (), tuple(path), facing, facing)


def can_complete(manoeuvre: Manoeuvre, speed: int) -> bool:
    """Each stage moves at least one hex (p.16), so Speed must cover every stage (p.17)."""
    return speed >= len(manoeuvre.stages)


def flights(hex: Hex, facing: int, manoeuvre: Manoeuvre, speed: int) -> list[Flight]:
    """Every distinct way to fly ``manoeuvre`` at ``speed`` (p.16): side, hexes per stage, facings.

    Plans reaching the same hexes and final facing are kept once (the first, in the
    order left side before right, fewer hexes in early stages first).

    The plans are the same from every hex, moved: they are worked out once per manoeuvre, facing and
    Speed from the origin (:func:`reach`) and translated to ``hex``.
    """
    if not can_complete(manoeuvre, speed):
        return []
    q, r = hex
    if not q and not r:
        return list(reach(manoeuvre, facing, speed))
    return [Flight(f.side, f.stage_hexes, f.facings, tuple([Hex(q + a, r + b) for a, b in f.path]),
                   f.final_facing, f.last_direction) for f in reach(manoeuvre, facing, speed)]


@functools.lru_cache(maxsize=4096)
def reach(manoeuvre: Manoeuvre, facing: int, speed: int) -> tuple[Flight, ...]:
    """Every distinct way to fly ``manoeuvre`` at ``speed`` from the origin hex facing ``facing``
    (:func:`flights` moves them to where the aircraft is).

    A manoeuvre is flown the same whichever way the aircraft faces (its moves and turns are counted from its
    facing, p.16): the plans facing 1 to 5 are those facing 0 with the whole picture turned that many hexsides
    clockwise about the origin, in the same order (the turn keeps distinct plans distinct)."""
    if type(facing) is int and 1 <= facing <= 5:
        return tuple([_turned(flight, facing) for flight in reach(manoeuvre, 0, speed)])
    return tuple(_flights_from(Hex(0, 0), facing, manoeuvre, speed))


def _turned(flight: Flight, steps: int) -> Flight:
    """``flight`` (from the origin) with the whole picture turned ``steps`` hexsides clockwise about the origin
    (each hex as :meth:`Hex.rotate` turns it, looked up: :func:`~aero_events.hexgrid.hexes.turned_about_origin`)."""
    return Flight(flight.side, flight.stage_hexes, flight.facings, turned_about_origin(flight.path, steps),
                  turn(flight.final_facing, steps), turn(flight.last_direction, steps))


def _flights_from(hex: Hex, facing: int, manoeuvre: Manoeuvre, speed: int) -> list[Flight]:
    if not can_complete(manoeuvre, speed):
        return []
    seen: set[tuple[tuple[Hex, ...], int]] = set()
    result: list[Flight] = []
    stage_count = len(manoeuvre.stages)
    facing_sets = [stage.facings for stage in manoeuvre.stages]
    for side in manoeuvre.sides:
        for stage_hexes in _compositions(speed, stage_count):
            for facings in itertools.product(*facing_sets):
                flight = fly(hex, facing, manoeuvre, side, stage_hexes, facings, speed)
                key = (flight.path, flight.final_facing)
                if key not in seen:
                    seen.add(key)
                    result.append(flight)
    return result


def push_through_occupied(flight_end: Hex, direction: int, occupied: set[Hex]) -> tuple[Hex, ...]:
    """Hexes flown on past an occupied final hex to the first free one (p.7, p.17 step 6)."""
    pushed: list[Hex] = []
    hex = flight_end
    while hex in occupied:
        hex = step(hex, direction)
        pushed.append(hex)
    return tuple(pushed)


def _pushed_on(state: GameState, aircraft_id: str, end: Hex, direction: int) -> tuple[Hex, ...]:
    """``push_through_occupied(end, direction, state.occupied(exclude=aircraft_id))`` (p.17 step 6), the occupied
    hexes gathered only when some aircraft stands in ``end``: otherwise the move ends there and nothing is
    pushed."""
    if end in map(_HEX_OF, state.aircraft.values()):  # some aircraft's hex is ``end`` (asked in C, hex by hex)
        return push_through_occupied(end, direction, state.occupied(exclude=aircraft_id))
    return ()


#: An aircraft's hex (:func:`_pushed_on`).
_HEX_OF = operator.attrgetter("hex")


def first_off_board(board: Board, hexes: tuple[Hex, ...]) -> int | None:
    """Index of the first hex beyond the edge or in an incomplete edge hex (p.17), if any."""
    on_board = board.hexes  # every complete hex: ``board.contains`` as a set
    if on_board.issuperset(hexes):  # the usual case, every hex on the board: asked at once, not hex by hex
        return None
    for index, hex in enumerate(hexes):
        if hex not in on_board:
            return index
    return None


def altitude_options(speed: int) -> list[int]:
    """Altitude changes after moving (p.18): Speed 1-4 climb or dive 1; Speed 5-9 by 1 or 2.

    At Speed 0 (hovering) the table gives nothing: Altitude holds.
    """
    if speed <= 0:
        return [0]
    if speed <= 4:
        return [-1, 0, 1]
    return [-2, -1, 0, 1, 2]


# ---------------------------------------------------------------- the Movement phase sequence (p.15)
#
# Handlers take the ruleset (for profiles, the manoeuvre table and options), an
# Emitter (events so far and the state they lead to) and the command. They check
# the command first and raise RuleError naming the rule and page before emitting.


def _require(condition: bool, message: str, rule: str, page: int | str | None) -> None:
    if not condition:
        raise RuleError(message, rule=rule, page=page)


def active_aircraft(state: GameState, command: Command, step_name: str) -> AircraftState:
    """The aircraft the command names, checked to be the one moving and at ``step_name``."""
    # Each refusal's message is written only when the command is refused (every command of a move asks).
    aircraft_id = getattr(command, "aircraft", None)
    if state.phase != MOVEMENT:
        raise RuleError(f"it is the {state.phase.replace('_', ' ')} phase, not Movement", rule="Turn sequence",
                        page=13)
    if state.active != aircraft_id or aircraft_id is None:
        raise RuleError(f"{aircraft_id} is not the aircraft moving now"
                        + (f" ({state.active} is)" if state.active else ""), rule="Movement phase sequence", page=15)
    aircraft = state.aircraft[aircraft_id]
    if aircraft.owner != command.player:
        raise RuleError(f"{aircraft_id} is not {command.player}'s aircraft", rule="Movement phase sequence", page=15)
    if state.step != step_name:
        raise RuleError(f"{aircraft_id} is at the {state.step} step, not {step_name}", rule="Movement phase sequence",
                        page=15)
    return aircraft


def activate(rules: AeronauticaRules, out: Emitter, command: ActivateAircraft, dice: DiceCup | None = None) -> None:
    """Choose an aircraft to move and turn its Manoeuvre token over (p.14)."""
    state = out.state
    _require(state.phase == MOVEMENT, "aircraft are chosen to move in the Movement phase", "Movement", 14)
    if state.first_mover is None:
        raise RuleError(f"{state.initiative} must first decide who moves first", rule="Movement", page=14)
    if state.active is not None:
        raise RuleError(f"{state.active} is still moving", rule="Movement phase sequence", page=15)
    if state.to_act != command.player:
        raise RuleError(f"it is {state.to_act}'s turn to move an aircraft", rule="Movement", page=14)
    aircraft = state.aircraft.get(command.aircraft)
    if aircraft is None or aircraft.owner != command.player:
        raise RuleError(f"{command.player} has no aircraft {command.aircraft!r}", rule="Movement", page=14)
    if aircraft.spinning:
        raise RuleError(f"{aircraft.id} is in a Spin and cannot move", rule="Choose Manoeuvres", page=13)
    if not aircraft.in_play or aircraft.moved:
        raise RuleError(f"{aircraft.id} has already moved this turn", rule="Movement", page=14)
    out.emit(AircraftActivated(aircraft=aircraft.id))
    out.emit(ManoeuvreRevealed(aircraft=aircraft.id, manoeuvre=aircraft.manoeuvre, salt=aircraft.salt))
    if aircraft.manoeuvre is None and aircraft.status == FLYING and not aircraft.no_token:
        # No token: straight ahead at its current Speed, no Speed or Altitude change (p.13).
        _finish_flight(rules, out, aircraft, straight(aircraft.hex, aircraft.facing, aircraft.speed), None, dice)
        if out.state.active is not None:
            out.emit(MovementEnded(aircraft=aircraft.id))


def choose_first_mover(rules: AeronauticaRules, out: Emitter, command: ChooseFirstMover,
                       dice: DiceCup | None = None) -> None:
    """The initiative winner decides which player moves first (p.14)."""
    state = out.state
    _require(state.phase == MOVEMENT and state.first_mover is None,
             "who moves first is decided once, at the start of the Movement phase", "Movement", 14)
    if command.player != state.initiative:
        raise RuleError(f"{state.initiative} won the initiative and decides who moves first", rule="Initiative",
                        page=13)
    if command.first not in state.players:
        raise RuleError(f"{command.first!r} is not playing", rule="Movement", page=14)
    first = command.first
    if not any(eligible_to_move(a) for a in state.side(first)):
        first = state.opponent(first)  # a side with nothing to move cannot move first
    out.emit(FirstMoverChosen(chooser=command.player, first=first))


def set_throttle(rules: AeronauticaRules, out: Emitter, command: SetThrottle, dice: DiceCup | None = None) -> None:
    """Throttle (p.15): change Speed by up to the Throttle value."""
    aircraft = active_aircraft(out.state, command, THROTTLE)
    profile = rules.profile(aircraft)
    options = throttle_choices(rules, aircraft, profile)
    if aircraft.no_token and command.change != 0:
        raise RuleError(f"{aircraft.id} is Hovering without an Ace Manoeuvre: it may not adjust its Speed",
                        rule="Hovering", page=16)
    if command.change not in options:
        raise RuleError(f"{aircraft.id} (Throttle {profile.throttle}, Speed {aircraft.speed}) may change Speed by "
                        f"{min(options):+d} to {max(options):+d}, not {command.change:+d}", rule="Throttle", page=15)
    speed = aircraft.speed + command.change
    out.emit(ThrottleSet(aircraft=aircraft.id, change=command.change, speed=speed))
    if speed < profile.min_speed and not profile.can_hover:
        out.emit(Stalled(aircraft=aircraft.id, reason=f"Speed {speed} is below Min Speed {profile.min_speed}"))


def throttle_choices(rules: AeronauticaRules, aircraft: AircraftState, profile: AircraftProfile) -> list[int]:
    """The Throttle step's choices: :func:`throttle_options`, or only 0 for a Hovering aircraft that took no
    Manoeuvre token ("If no Ace Manoeuvre has been chosen, a Hovering aircraft may not adjust its Speed", p.16)."""
    if aircraft.no_token:
        return [0]
    return throttle_options(profile, aircraft.speed, rules.options.throttle_past_limits)


def manoeuvre_to_fly(rules: AeronauticaRules, revealed: int | None, speed: int) -> Manoeuvre | None:
    """The revealed manoeuvre, or None when none is flown: no token (p.13), or a Speed too low to complete it
    (p.17). The aircraft then flies straight ahead, and the empty plan is its only one."""
    manoeuvre = rules.manoeuvres.get(revealed) if revealed is not None else None
    return manoeuvre if manoeuvre is not None and can_complete(manoeuvre, speed) else None


def _straight_plan(hex: Hex, facing: int, speed: int, side: str | None, stage_hexes: tuple[int, ...],
                   facings: tuple[int, ...]) -> Flight | None:
    """Straight ahead for the empty plan, None for any other: the plans when no manoeuvre is flown
    (:func:`manoeuvre_to_fly`)."""
    empty = side is None and not stage_hexes and not facings
    return straight(hex, facing, speed) if empty else None


def manoeuvre_flights(rules: AeronauticaRules, aircraft: AircraftState) -> list[Flight]:
    """The plans the aircraft may fly now: every way of flying its revealed manoeuvre, or straight ahead
    when it is too slow to complete it (p.17)."""
    manoeuvre = manoeuvre_to_fly(rules, aircraft.revealed, aircraft.speed)
    if manoeuvre is None:
        return [straight(aircraft.hex, aircraft.facing, aircraft.speed)]
    return flights(aircraft.hex, aircraft.facing, manoeuvre, aircraft.speed)


def manoeuvre_plans(rules: AeronauticaRules, aircraft: AircraftState) -> Sequence[Flight]:
    """:func:`manoeuvre_flights` in the same order, flown from the origin hex (the plans without the
    aircraft's position: side, hexes per stage and facings are all a command needs)."""
    manoeuvre = manoeuvre_to_fly(rules, aircraft.revealed, aircraft.speed)
    if manoeuvre is None:
        return [straight(aircraft.hex, aircraft.facing, aircraft.speed)]
    return reach(manoeuvre, aircraft.facing, aircraft.speed)


def plan_flight(rules: AeronauticaRules, aircraft: AircraftState, side: str | None, stage_hexes: tuple[int, ...],
                facings: tuple[int, ...]) -> Flight | None:
    """The flight of one plan if it is a legal way to fly now, else None (p.16-17).

    Any legal plan is accepted, including those :func:`flights` offers only once because
    they fly the same hexes as another (Straight at Speed 4 with 1, 2, 3 or 4 hexes before
    its "manoeuvre"): the player is free to choose how many hexes each stage uses (p.16 step 2).
    """
    if not (_INT_ONLY.issuperset(map(type, stage_hexes)) and _INT_ONLY.issuperset(map(type, facings))
            and (side is None or type(side) is str)):
        # Not as typed: checked and flown as given (never looked up).
        manoeuvre = manoeuvre_to_fly(rules, aircraft.revealed, aircraft.speed)
        if manoeuvre is None:
            return _straight_plan(aircraft.hex, aircraft.facing, aircraft.speed, side, stage_hexes, facings)
        if not _legal_plan(manoeuvre, aircraft.speed, side, stage_hexes, facings):
            return None
        return fly(aircraft.hex, aircraft.facing, manoeuvre, side, stage_hexes, facings, aircraft.speed)
    # As typed (whole numbers: True is no int here, though it hashes as 1), the check and the flight from the
    # origin are kept together: both depend only on the plan, the revealed manoeuvre, the facing and the Speed.
    flown = _flown_from_origin(rules, aircraft.revealed, aircraft.facing, aircraft.speed, side, stage_hexes, facings)
    if flown is None:
        return None
    q, r = aircraft.hex
    if not q and not r:
        return flown
    # The same plan from the aircraft's hex: the path moved, as :func:`flights` moves :func:`reach`'s.
    return Flight(flown.side, flown.stage_hexes, flown.facings,
                  tuple([_new_hex(Hex, (q + a, r + b)) for a, b in flown.path]), flown.final_facing,
                  flown.last_direction)


#: ``Hex(q, r)`` built directly: ``_new_hex(Hex, (q, r))`` (a NamedTuple's own ``__new__`` adds a Python call).
_new_hex = tuple.__new__
#: The types of a plan written in whole numbers only (:func:`plan_flight`).
_INT_ONLY = frozenset({int})


def _legal_plan(manoeuvre: Manoeuvre, speed: int, side: str | None, stage_hexes: tuple[int, ...],
                facings: tuple[int, ...]) -> bool:
    """A plan the manoeuvre allows at ``speed`` (p.16): one of its sides, a number of hexes (1 or more) and a
    facing change of the stage's for each stage, the hexes within the Speed."""
    stages = manoeuvre.stages
    if side not in manoeuvre.sides or len(stage_hexes) != len(stages) or len(facings) != len(stages):
        return False
    if any(hexes < 1 for hexes in stage_hexes) or sum(stage_hexes) > speed:
        return False
    return all(value in stage.facings for value, stage in zip(facings, stages))


@functools.lru_cache(maxsize=1 << 14)
def _flown_from_origin(rules: AeronauticaRules, revealed: int, facing: int, speed: int, side: str | None,
                       stage_hexes: tuple[int, ...], facings: tuple[int, ...]) -> Flight | None:
    """:func:`fly` of one plan of the revealed manoeuvre from the origin hex, or None when :func:`_legal_plan`
    refuses it, kept (a plan is checked and flies the same from every hex, moved). Plans written in ints only:
    the key would take True for 1. Facing 1 to 5: the plan facing 0 turned, as :func:`reach` turns them. Facing 0:
    a plan :func:`legal_commands` offers is taken from :func:`reach`'s flights (:func:`_offered_flights`), flown
    already; any other is checked and flown here.

    No token, or a manoeuvre too slow to complete (p.13, p.17): :func:`straight` ahead from the origin, the only
    plan then the empty one (None for any other), kept likewise (straight ahead is the same from every hex)."""
    manoeuvre = manoeuvre_to_fly(rules, revealed, speed)
    if manoeuvre is None:
        return _straight_plan(ORIGIN, facing, speed, side, stage_hexes, facings)
    if type(facing) is int and 1 <= facing <= 5:
        north = _flown_from_origin(rules, revealed, 0, speed, side, stage_hexes, facings)
        return None if north is None else _turned(north, facing)
    if facing == 0 and type(facing) is int:
        offered = _offered_flights(manoeuvre, speed).get((side, stage_hexes, facings))
        if offered is not None:
            return offered  # a plan legal_commands offers: reach() has flown it already, the same Flight
    if not _legal_plan(manoeuvre, speed, side, stage_hexes, facings):
        return None
    return fly(Hex(0, 0), facing, manoeuvre, side, stage_hexes, facings, speed)


@functools.lru_cache(maxsize=4096)
def _offered_flights(manoeuvre: Manoeuvre, speed: int
                     ) -> dict[tuple[str | None, tuple[int, ...], tuple[int, ...]], Flight]:
    """:func:`reach`'s flights facing 0 by plan (side, hexes per stage, facings), the first of each: the plans
    :func:`legal_commands` offers (p.16). Each is :func:`fly` of its plan from the origin facing 0, as
    :func:`_flown_from_origin` flies it, and every plan in it is legal (:func:`_legal_plan`: a side of the
    manoeuvre, a number of hexes of 1 or more and a facing change of the stage's per stage, within the Speed)."""
    offered: dict[tuple[str | None, tuple[int, ...], tuple[int, ...]], Flight] = {}
    for flight in reach(manoeuvre, 0, speed):
        offered.setdefault((flight.side, flight.stage_hexes, flight.facings), flight)
    return offered


def fly_manoeuvre(rules: AeronauticaRules, out: Emitter, command: ManoeuvrePlan, dice: DiceCup | None = None
                  ) -> None:
    """Move and Manoeuvre (p.16-17) along the chosen plan."""
    aircraft = active_aircraft(out.state, command, MANOEUVRE)
    profile = rules.profile(aircraft)
    if aircraft.speed == 0 and profile.can_hover:  # the message is written only for a refusal
        raise RuleError(f"{aircraft.id} is Hovering at Speed 0: it turns to face a direction instead",
                        rule="Hovering", page=16)
    chosen = plan_flight(rules, aircraft, command.side, tuple(command.stage_hexes), tuple(command.facings))
    if chosen is None:
        name = f"Ace Manoeuvre {aircraft.revealed}" if aircraft.revealed else "straight ahead"
        raise RuleError(f"{aircraft.id} at Speed {aircraft.speed} cannot fly {name} as side={command.side}, "
                        f"hexes per stage={tuple(command.stage_hexes)}, facings={tuple(command.facings)}",
                        rule="Move and Manoeuvre", page=16)
    too_slow = aircraft.revealed is not None and not chosen.stage_hexes
    _finish_flight(rules, out, aircraft, chosen, aircraft.revealed, dice)
    # An aircraft with Min Speed 0 cannot Stall (p.18); one already Stalled by its Throttle is not Stalled twice.
    flown = out.state.aircraft[aircraft.id]
    if too_slow and flown.status == FLYING and not profile.can_hover and not flown.stalled:
        out.emit(Stalled(aircraft=aircraft.id,
                         reason=f"Speed {aircraft.speed} is too slow to complete Ace Manoeuvre {aircraft.revealed}"))


def _finish_flight(rules: AeronauticaRules, out: Emitter, aircraft: AircraftState, flight: Flight,
                   manoeuvre: int | None, dice: DiceCup | None = None) -> None:
    """Record the flight, fly on through occupied hexes (p.17 step 6), and disengage at the edge (p.17);
    with the 2020 update's option, roll for the occupied hexes flown through (:func:`occupied_hex_rolls`)."""
    state = out.state
    board = rules.board(state)
    end = flight.path[-1] if flight.path else aircraft.hex
    pushed = _pushed_on(state, aircraft.id, end, flight.last_direction) if flight.path else ()
    hexes = flight.path + pushed
    exit_index = first_off_board(board, hexes)
    if exit_index is not None:
        path_on, pushed_on = flight.path[: exit_index + 1], pushed[: max(0, exit_index + 1 - len(flight.path))]
    else:
        path_on, pushed_on = flight.path, pushed
    final = (path_on + pushed_on)[-1] if path_on or pushed_on else aircraft.hex
    out.emit(ManoeuvreFlown(
        aircraft=aircraft.id, manoeuvre=manoeuvre, side=flight.side, stage_hexes=flight.stage_hexes,
        facings=flight.facings, path=path_on, pushed=pushed_on, hex=final, facing=flight.final_facing,
        completed=bool(flight.stage_hexes) or manoeuvre is None,
    ))
    # Terrain Height (p.33), an optional rule: without terrain nothing is hit (first_terrain_hit).
    if out.state.terrain and crash_during_move(rules, out, aircraft.id, path_on + pushed_on):
        return
    if exit_index is not None:
        out.emit(AircraftDisengaged(aircraft=aircraft.id, how=disengagement_kind(rules, state),
                                    exit_hex=hexes[exit_index]))
        out.emit(MovementEnded(aircraft=aircraft.id))
        return
    if pushed_on and rules.options.occupied_hex_roll:
        if dice is None:
            raise TypeError("the occupied-hex roll needs the dice cup: pass it to _finish_flight")
        if occupied_hex_rolls(rules, out, aircraft.id, (path_on[-1], *pushed_on[:-1]), dice):
            out.emit(MovementEnded(aircraft=aircraft.id))


def occupied_hex_rolls(rules: AeronauticaRules, out: Emitter, aircraft_id: str, occupied: tuple[Hex, ...],
                       dice: DiceCup) -> bool:
    """The 2020 update to p.17 step 6: once an aircraft has flown on to the first unoccupied hex, a D6 for each
    occupied hex it moved through; 2+ nothing happens, a 1 inflicts ``RuleOptions.occupied_hex_hits`` damaging
    hits (that part of the update is illegible in our copy: one hit is the documented default).

    ``occupied`` are the hexes it would have ended in: the end of its flight and each pushed hex but the last.
    Returns True when the hits destroyed it (its movement then ends at once, as a crash does).
    """
    from .altitude import suffer_damage  # altitude imports this module

    owner = out.state.aircraft[aircraft_id].owner
    for hex in occupied:
        roll = dice.d6(purpose=f"occupied hex {hex.q},{hex.r}", roller=owner, target=OCCUPIED_HEX_SAFE_ROLL)
        out.emit(roll)
        hit = roll.faces[0] < OCCUPIED_HEX_SAFE_ROLL
        out.emit(OccupiedHexRolled(aircraft=aircraft_id, hex=hex, hit=hit))
        if hit:
            suffer_damage(out, aircraft_id, rules.options.occupied_hex_hits, "occupied hex")
            if not out.state.aircraft[aircraft_id].in_play:
                return True
    return False


def hover(rules: AeronauticaRules, out: Emitter, command: Hover, dice: DiceCup | None = None) -> None:
    """Speed 0: a hovering aircraft stays in its hex and may face any direction (p.16)."""
    aircraft = active_aircraft(out.state, command, MANOEUVRE)
    profile = rules.profile(aircraft)
    _require(profile.can_hover and aircraft.speed == 0,
             f"only an aircraft with Min Speed 0 at Speed 0 hovers; {aircraft.id} is at Speed {aircraft.speed}",
             "Hovering", 16)
    _require(0 <= command.facing <= 5, f"facing {command.facing} is not a hexside 0-5", "Hovering", 16)
    out.emit(Hovered(aircraft=aircraft.id, facing=command.facing))
    if not hover_drop_window(rules, out, aircraft.id):  # a Jump Troops drop first, over a landing zone (p.37)
        out.emit(MovementEnded(aircraft=aircraft.id))


def taxi(rules: AeronauticaRules, out: Emitter, command: Taxi, dice: DiceCup | None = None) -> None:
    """A landed aircraft taxis at Speed 1, changing facing freely before and after (p.19)."""
    aircraft = active_aircraft(out.state, command, GROUND)
    _require(command.hexes in (0, 1), "a taxiing aircraft moves at Speed 1", "Taxiing", 19)
    _require(0 <= command.facing_before <= 5 and 0 <= command.facing_after <= 5,
             "facings are hexsides 0-5", "Taxiing", 19)
    path: tuple[Hex, ...] = ()
    if command.hexes:
        path = (step(aircraft.hex, command.facing_before),)
        if not rules.board(out.state).contains(path[0]):
            # Beyond the edge or into an incomplete edge hex: it Disengages, as any movement does (p.17).
            out.emit(AircraftDisengaged(aircraft=aircraft.id, how=disengagement_kind(rules, out.state),
                                        exit_hex=path[0], via="taxiing"))
            out.emit(MovementEnded(aircraft=aircraft.id))
            return
        _require(path[0] not in out.state.occupied(exclude=aircraft.id), "that hex is occupied", "Taxiing", 19)
    out.emit(Taxied(aircraft=aircraft.id, path=path, hex=path[-1] if path else aircraft.hex,
                    facing=command.facing_after))
    if crash_during_move(rules, out, aircraft.id, path):  # a landed aircraft taxiing into terrain (p.33)
        return
    out.emit(MovementEnded(aircraft=aircraft.id))


def disengagement_kind(rules: AeronauticaRules, state: GameState) -> str:
    """How an aircraft crossing the edge Disengages (p.17, p.31): "voluntary" in the Disengagement turn,
    "accidental" in any other; with ``RuleOptions(final_turn_disengages=True)`` the final turn (p.31 Fuel
    Limit: "both sides must disengage") is voluntary too."""
    if state.disengagement_turn:
        return "voluntary"
    if rules.options.final_turn_disengages and state.turn >= state.last_turn:
        return "voluntary"
    return "accidental"


def take_off(rules: AeronauticaRules, out: Emitter, command: TakeOff, dice: DiceCup | None = None) -> None:
    """Take off (p.19): Manoeuvre 1, Speed set to Min Speed, move, then Altitude 1."""
    aircraft = active_aircraft(out.state, command, GROUND)
    _require(aircraft.revealed == LANDING_MANOEUVRE, f"to take off {aircraft.id} must have chosen Ace "
             f"Manoeuvre {LANDING_MANOEUVRE}", "Taking-off", 19)
    profile = rules.profile(aircraft)
    out.emit(TookOff(aircraft=aircraft.id, speed=profile.min_speed))
    # Ace Manoeuvre 1 flown at Min Speed (its only plan), so the flight is recorded as completed.
    plans = flights(aircraft.hex, aircraft.facing, rules.manoeuvres.get(LANDING_MANOEUVRE), profile.min_speed)
    _finish_flight(rules, out, out.state.aircraft[aircraft.id],
                   plans[0] if plans else straight(aircraft.hex, aircraft.facing, profile.min_speed),
                   LANDING_MANOEUVRE, dice)
    if out.state.active is not None:
        out.emit(AltitudeChanged(aircraft=aircraft.id, change=1, altitude=1, speed=profile.min_speed))
        out.emit(MovementEnded(aircraft=aircraft.id))


#: The phases in which :func:`legal_commands` may offer a command (the ruleset asks no other part).
COMMAND_PHASES: frozenset[str] = frozenset({MOVEMENT})


def legal_commands(rules: AeronauticaRules, state: GameState, player: str) -> list[Command]:
    """Every legal command for ``player`` in the Movement phase."""
    if state.phase != MOVEMENT:
        return []
    if state.first_mover is None:
        if player != state.initiative:
            return []
        return [ChooseFirstMover(player=player, first=p) for p in state.players]
    if state.active is None:
        if state.to_act != player:
            return []
        # Its aircraft eligible to move (eligible_to_move written out: not moved, in play, not in a Spin, not a Ground
        # Defence, p.13-14), in the state's order, each command kept (_activate_command).
        return [_activate_command(player, a.id) for a in state.aircraft.values()
                if a.owner == player and not a.moved and (a.status == FLYING or a.status == LANDED) and not a.spinning
                and not a.ground_defence]
    aircraft = state.aircraft[state.active]
    if aircraft.owner != player:
        return []
    if state.step == THROTTLE:
        if aircraft.no_token:
            return [SetThrottle(player=player, aircraft=aircraft.id, change=0)]  # throttle_choices: only 0
        return list(_throttle_commands(rules, player, aircraft.id, aircraft.profile, aircraft.upgrades,
                                       aircraft.speed))
    if state.step == MANOEUVRE:
        if aircraft.speed == 0 and rules.profile(aircraft).can_hover:
            hovers: list[Command] = [Hover(player=player, aircraft=aircraft.id, facing=f) for f in range(6)]
            if aircraft.may_land:  # Manoeuvre 1, Altitude 1, Min Speed 0: it may land where it hovers (p.19)
                hovers.append(Land(player=player, aircraft=aircraft.id))
            return hovers
        # A plan is the same from every hex: the flights from the origin give them without moving any path. And from
        # every facing: reach() turns the plans facing 0 for facings 1 to 5, in their order, and a turn changes
        # no side, hexes per stage or facing change (p.16), so those are asked as facing 0 (one entry, not six).
        facing = aircraft.facing
        if type(facing) is int and 1 <= facing <= 5:
            facing = 0
        return list(_plan_commands(rules, player, aircraft.id, aircraft.revealed, facing, aircraft.speed))
    if state.step == ALTITUDE:
        return _altitude().altitude_commands(rules, state, aircraft)
    if state.step == GROUND:
        options: list[Command] = []
        if aircraft.revealed == LANDING_MANOEUVRE:
            options.append(TakeOff(player=player, aircraft=aircraft.id))
        occupied = state.occupied(exclude=aircraft.id)
        board = rules.board(state)
        for before in range(6):
            ahead = step(aircraft.hex, before)
            for hexes in (0, 1):
                if hexes and ahead in occupied and board.contains(ahead):
                    continue  # off the board it Disengages (p.17); into terrain it crashes (p.33)
                if not hexes and before != aircraft.facing:
                    continue
                options.extend(Taxi(player=player, aircraft=aircraft.id, facing_before=before, hexes=hexes,
                                    facing_after=after) for after in range(6))
        return options
    return []


@functools.cache
def _altitude() -> Any:
    """The altitude part (it imports this module, so it is looked up when first needed)."""
    from . import altitude

    return altitude


@functools.lru_cache(maxsize=4096)
def _activate_command(player: str, aircraft_id: str) -> ActivateAircraft:
    """The ActivateAircraft command of one aircraft (p.14), kept: a command is an immutable value, the same every
    Movement phase."""
    return ActivateAircraft(player=player, aircraft=aircraft_id)


@functools.lru_cache(maxsize=4096)
def _throttle_commands(rules: AeronauticaRules, player: str, aircraft_id: str, profile_id: str,
                       upgrades: tuple[str, ...], speed: int) -> tuple[SetThrottle, ...]:
    """The Throttle step's commands (:func:`throttle_options`, p.15) for an aircraft with a token, kept: they
    depend only on its profile as upgraded, its Speed and the ruleset's options."""
    profile = rules._profile(profile_id, upgrades)
    return tuple(SetThrottle(player=player, aircraft=aircraft_id, change=c)
                 for c in throttle_options(profile, speed, rules.options.throttle_past_limits))


@functools.lru_cache(maxsize=4096)
def _plan_commands(rules: AeronauticaRules, player: str, aircraft_id: str, revealed: int | None, facing: int,
                   speed: int) -> tuple[ManoeuvrePlan, ...]:
    """The Move and Manoeuvre step's commands (:func:`manoeuvre_plans`, p.16-17), kept: a plan is side, hexes
    per stage and facings, which depend only on the revealed manoeuvre, the facing and the Speed (straight
    ahead, when there is no manoeuvre or it cannot be completed, has none of them)."""
    manoeuvre = manoeuvre_to_fly(rules, revealed, speed)
    if manoeuvre is None:
        return (ManoeuvrePlan(player=player, aircraft=aircraft_id, side=None, stage_hexes=(), facings=()),)
    return tuple([ManoeuvrePlan(player=player, aircraft=aircraft_id, side=f.side, stage_hexes=f.stage_hexes,
                                facings=f.facings) for f in reach(manoeuvre, facing, speed)])


HANDLERS = {
    ChooseFirstMover: choose_first_mover,  # the handlers that roll no dice take the cup and leave it
    ActivateAircraft: activate,
    SetThrottle: set_throttle,
    ManoeuvrePlan: fly_manoeuvre,
    Hover: hover,
    Taxi: taxi,
    TakeOff: take_off,
}


# ---------------------------------------------------------------- reducers


_replace = msgspec.structs.replace


def _activated(rules: AeronauticaRules, state: GameState, event: AircraftActivated,
               scope: FoldScope | None = None) -> GameState:
    aircraft = state.aircraft[event.aircraft]
    step_name = GROUND if aircraft.status == LANDED else THROTTLE
    if scope is not None:  # the fold's own state: changed in place (FoldScope)
        state.active = event.aircraft
        state.step = step_name
        return state
    return _replace(state, active=event.aircraft, step=step_name)


#: The canonical JSON of ``{"manoeuvre": n}`` by manoeuvre number (what ``core.secrets.commitment`` hashes
#: before the salt), encoded once per number.
_CHOICE_BYTES: dict[int, bytes] = {}


def _choice_bytes(manoeuvre: int) -> bytes:
    """The canonical JSON of ``{"manoeuvre": manoeuvre}``, encoded once per number (:data:`_CHOICE_BYTES`)."""
    choice = _CHOICE_BYTES[manoeuvre] = canonical_json({"manoeuvre": manoeuvre})
    return choice


def _revealed(rules: AeronauticaRules, state: GameState, event: ManoeuvreRevealed,
              scope: FoldScope | None = None) -> GameState:
    """The token turned face up (p.15): it must be the manoeuvre committed to when it was chosen.

    The check is ``core.secrets.commitment({"manoeuvre": manoeuvre}, salt) == commitment`` with the choice's
    bytes looked up (:func:`_choice_bytes`). A mismatch is checked again by ``check_reveal`` itself (which
    raises), so only a match is taken on trust, and a match is a SHA-256 of the same bytes. Every fold hashes
    again (no memo of proofs: a replay in a fresh process pays this too, so the benchmark's figure is what a
    replay costs)."""
    aircraft = state.aircraft[event.aircraft]
    committed = aircraft.commitment
    if committed is not None:
        manoeuvre = event.manoeuvre
        # Only an int is looked up (True hashes as 1 but is encoded as true).
        choice = (_CHOICE_BYTES.get(manoeuvre) or _choice_bytes(manoeuvre)) if type(manoeuvre) is int else None
        if choice is None or commitment_to_canonical(choice, event.salt or "") != committed:
            check_reveal({"manoeuvre": manoeuvre}, event.salt or "", committed,
                         what=f"manoeuvre of {aircraft.id}")  # raises, unless the fast check above was wrong
    if scope is not None:  # the fold's own aircraft: changed in place (FoldScope)
        aircraft.revealed = event.manoeuvre
        return state
    return with_aircraft(state, _replace(aircraft, revealed=event.manoeuvre))


def _throttle_set(rules: AeronauticaRules, state: GameState, event: ThrottleSet,
                  scope: FoldScope | None = None) -> GameState:
    aircraft = state.aircraft[event.aircraft]
    may_land = (aircraft.revealed == LANDING_MANOEUVRE and aircraft.altitude == 1
                and event.speed == rules.profile(aircraft).min_speed)
    unchanged = aircraft.speed == event.speed and aircraft.may_land == may_land  # its Speed dial as it was
    if scope is not None:  # the fold's own state and aircraft: changed in place (FoldScope)
        if not unchanged:
            aircraft.speed = event.speed
            aircraft.may_land = may_land
        state.step = MANOEUVRE
        return state
    if unchanged:
        return _replace(state, step=MANOEUVRE)  # the aircraft as it was
    moved = _replace(aircraft, speed=event.speed, may_land=may_land)
    return _replace(state, aircraft=aircraft_with(state, moved), step=MANOEUVRE)


def _flown(rules: AeronauticaRules, state: GameState, event: ManoeuvreFlown,
           scope: FoldScope | None = None) -> GameState:
    aircraft = state.aircraft[event.aircraft]
    path = event.path + event.pushed
    if scope is not None:  # the fold's own state and aircraft: changed in place (FoldScope)
        aircraft.hex = event.hex
        aircraft.facing = event.facing
        aircraft.path = path
        state.step = ALTITUDE
        return state
    moved = _replace(aircraft, hex=event.hex, facing=event.facing, path=path)
    return _replace(state, aircraft=aircraft_with(state, moved), step=ALTITUDE)


def _hovered(rules: AeronauticaRules, state: GameState, event: Hovered,
             scope: FoldScope | None = None) -> GameState:
    return with_aircraft(state, replaced(state.aircraft[event.aircraft], scope, facing=event.facing), scope)


def _occupied_hex_rolled(rules: AeronauticaRules, state: GameState, event: OccupiedHexRolled,
                         scope: FoldScope | None = None) -> GameState:
    return state  # its damage is the DamageSuffered that follows


def _stalled(rules: AeronauticaRules, state: GameState, event: Stalled,
             scope: FoldScope | None = None) -> GameState:
    return with_aircraft(state, replaced(state.aircraft[event.aircraft], scope, stalled=True), scope)


def _disengaged(rules: AeronauticaRules, state: GameState, event: AircraftDisengaged,
                scope: FoldScope | None = None) -> GameState:
    aircraft = state.aircraft[event.aircraft]
    return with_aircraft(state, replaced(aircraft, scope, status=DISENGAGED, disengaged_how=event.how,
                                         hex=event.exit_hex or aircraft.hex), scope)


def _taxied(rules: AeronauticaRules, state: GameState, event: Taxied,
            scope: FoldScope | None = None) -> GameState:
    aircraft = state.aircraft[event.aircraft]
    return with_aircraft(state, replaced(aircraft, scope, hex=event.hex, facing=event.facing, path=event.path),
                         scope)


def _took_off(rules: AeronauticaRules, state: GameState, event: TookOff,
              scope: FoldScope | None = None) -> GameState:
    aircraft = state.aircraft[event.aircraft]
    flying = replaced(aircraft, scope, status=FLYING, speed=event.speed, took_off_turn=state.turn)
    return replaced(state, scope, aircraft=aircraft_with(state, flying, scope), step=MANOEUVRE)


def moves_next(aircraft: dict[str, AircraftState], other: str, just_acted: str) -> str | None:
    """:func:`next_to_act_among` for the reducers, :func:`eligible_to_move` written out (p.13-14): ``other``
    if it has an aircraft left to move, else ``just_acted`` if it has one, else None."""
    mine = False
    for a in aircraft.values():
        if a.moved or a.spinning or a.ground_defence or (a.status != FLYING and a.status != LANDED):
            continue
        if a.owner == other:
            return other
        if a.owner == just_acted:
            mine = True
    return just_acted if mine else None


def _movement_ended(rules: AeronauticaRules, state: GameState, event: MovementEnded,
                    scope: FoldScope | None = None) -> GameState:
    """Its move done (p.14): the other player moves next if they have an aircraft left to move."""
    aircraft = state.aircraft[event.aircraft]
    owner = aircraft.owner
    first, second = state.players  # GameState.opponent, inline
    if scope is not None:  # the fold's own state and aircraft: changed in place (FoldScope)
        aircraft.moved = True
        if aircraft.may_land:
            aircraft.may_land = False
        state.to_act = moves_next(state.aircraft, second if owner == first else first, owner)
        state.active = None
        state.step = None
        return state
    mapping = aircraft_with(state, _replace(aircraft, moved=True, may_land=False))
    to_act = moves_next(mapping, second if owner == first else first, owner)
    return _replace(state, aircraft=mapping, to_act=to_act, active=None, step=None)


#: The movement part's reducers by event type (the ruleset's dispatch reads this table).
_REDUCERS = {
    AircraftActivated: _activated,
    ManoeuvreRevealed: _revealed,
    ThrottleSet: _throttle_set,
    ManoeuvreFlown: _flown,
    Hovered: _hovered,
    OccupiedHexRolled: _occupied_hex_rolled,
    Stalled: _stalled,
    AircraftDisengaged: _disengaged,
    Taxied: _taxied,
    TookOff: _took_off,
    MovementEnded: _movement_ended,
}


evolve = evolve_by_table(_REDUCERS, "movement events")
