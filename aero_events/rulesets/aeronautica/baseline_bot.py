"""The baseline bot for Aeronautica Imperialis: random play among the choices that do not throw the game away
(issue 18 item 1); the default bot of ``aero simulate`` and ``aero compare``. See :class:`BaselineBot`."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import groupby
from operator import attrgetter
from typing import Any

from aero_events.bots.random_bot import StableRandom
from aero_events.hexgrid import Hex

from . import commands as c
from . import movement
from .state import FLYING, AircraftState, GameState


@lru_cache(maxsize=65536)
def _room_ahead(board: Any, hex: Hex, facing: int, limit: int) -> int:
    """How many hexes straight ahead stay on the board, up to ``limit``."""
    room = 0
    for _ in range(limit):
        hex = movement.step(hex, facing)
        if not board.contains(hex):
            break
        room += 1
    return room



# ---------------------------------------------------------------- the baseline: sensible random play


class BaselineBot:
    """Plays at random among the choices that do not throw the game away: the baseline of simulations.

    The random bot flies off the board within a turn or two (a Dogfight of it lasts 1.4 turns), so its
    games say nothing about the rules. This bot chooses uniformly, like the random bot, but only among the
    choices a player would not call a blunder; when none is left it chooses among all of them:

    * no Ace Manoeuvre, Throttle setting or plan that takes the aircraft off the board (leaving the Area
      of Engagement gives the enemy its points, p.17, p.32), nor one that ends where no manoeuvre it has
      could keep it on the board next turn, unless this is the Disengagement turn, where leaving is the
      point (p.31);
    * no Speed below Min Speed (a Stall, p.15, p.18) or above Max Speed (Breaking Up, p.19), by Throttle
      or by climbing and diving; no climb above Max Altitude (a Stall, p.18); no dive to Altitude 0 (a
      Crash on a 1-2, p.19);
    * no landing and no Rocket Boosters out of the game (a landed aircraft is only a ground target, p.19;
      boosting out is disengaging, p.37);
    * set up (p.34) and reserves (p.33) facing into the board, with two turns' flight ahead;
    * no holding fire when a shot is offered (p.20: holding fire only gives up the damage).

    Everything else (who moves first, which aircraft moves, which weapons at which target, re-rolls) is
    uniform.
    """

    name = "baseline"
    #: Random placements drawn before giving up on finding one with room ahead (then any placement).
    PLACEMENT_DRAWS = 64

    def __init__(self, seed: int | str = 0):
        self.random = StableRandom(f"baseline-bot:{seed}")
        self._board: _Board | None = None

    def choose(self, session: Any, player: str, options: Sequence[Any]) -> Any:
        rules, state = session.ruleset, session.state
        decision = _DECISION_OF_TYPE.get(type(options[0])) or _decision_of(options[0])  # its look-up written out
        if decision is _PLACEMENT:
            return self._placement(rules, state, options)
        if len(options) == 1 or state.disengagement_turn:  # one option: every tier keeps it, or none does
            return self.random.choice(options)
        board = self._board
        if board is None or board.rules is not rules or board.name != state.board:
            board = self._board = _Board(rules, state)
        return self.random.choice(decision(board, state, options) or options)

    def sensible(self, rules: Any, state: GameState, options: Sequence[Any]) -> Sequence[Any]:
        """The choices chosen from outside set-up and the Disengagement turn: the most careful tier of the
        options that keeps any, in their order (empty when none does: then any option is chosen)."""
        return _decision_of(options[0])(_Board(rules, state), state, options)

    @staticmethod
    def _altitude_is_safe(rules: Any, aircraft: AircraftState, change: int) -> bool:
        """No Stall, Crash or Breaking Up from this climb or dive (p.18-19)."""
        return _altitude_is_safe(rules.profile(aircraft), aircraft.altitude, aircraft.speed, change)

    def _placement(self, rules: Any, state: GameState, options: Sequence[Any]) -> Any:
        """A random placement facing into the board with room for two turns at its Speed (p.34)."""
        board = rules.board(state)
        choice = None
        for _ in range(self.PLACEMENT_DRAWS):
            choice = self.random.choice(options)
            aircraft = state.aircraft[choice.aircraft]
            profile = rules.profile(aircraft)
            needed = 2 * max(getattr(choice, "speed", profile.max_speed), profile.min_speed, 1)
            if aircraft.ground_defence or _room_ahead(board, Hex(*choice.hex), choice.facing, needed) >= needed:
                return choice
        return choice


# ---------------------------------------------------------------- the decisions, each with its tiers


class _Board:
    """What a decision on one board under one ruleset looks up: the board's masks (:class:`_BoardReach`) and
    the judgements kept for the ruleset (:func:`_kept_for`). A bot keeps the last one it used."""

    __slots__ = ("kept", "name", "reach", "rules", "runs_kept")

    def __init__(self, rules: Any, state: GameState):
        self.rules = rules
        self.name = state.board
        self.reach = _board_reach(rules.board(state))
        self.kept = _kept_for(rules)
        #: (aircraft id, careful) -> (its state, its run of Choose Manoeuvres options, those kept): see
        #: :func:`_manoeuvres_kept`.
        self.runs_kept: dict[tuple[str, bool], tuple[AircraftState, tuple[Any, ...], list[Any]]] = {}


# Each decision takes the options of one decision (outside set-up and the Disengagement turn) and returns the
# most careful tier that keeps any of them, in the options' order, or an empty sequence.


def _manoeuvre_tiers(board: _Board, state: GameState, options: Sequence[Any]) -> list[Any]:
    """Choose Manoeuvres (p.13): tokens with which the aircraft keeps flying on the board at a Speed its
    Throttle reaches, ending where it has a way on next turn; else those that only keep it on the board."""
    return _manoeuvres_kept(board, state, options, True) or _manoeuvres_kept(board, state, options, False)


def _manoeuvres_kept(board: _Board, state: GameState, options: Sequence[Any], careful: bool) -> list[Any]:
    """The options of one tier (``careful`` or not) of :func:`_manoeuvre_tiers`, in their order.

    The options of one aircraft come together (each aircraft's tokens, p.13), so they are judged a run at a time
    (:func:`itertools.groupby` by aircraft, in C): a flying aircraft's run is filtered once by its verdict table
    (:func:`_run_kept`), and kept for the aircraft while its state is the same object (its player places the
    other aircraft's tokens first, and each command asks again). Options that name no aircraft are judged one by
    one (:func:`_manoeuvres_kept_one_by_one`), as before."""
    try:
        runs = [(name, tuple(run)) for name, run in groupby(options, _AIRCRAFT_OF)]
    except AttributeError:  # an option without an aircraft: nothing here to group by
        return _manoeuvres_kept_one_by_one(board, state, options, careful)
    runs_kept = board.runs_kept
    kept: list[Any] = []
    for name, run in runs:
        aircraft = state.aircraft.get(name)
        if aircraft is None:  # no such aircraft: judged one by one, as before (which refuses a token for it)
            return _manoeuvres_kept_one_by_one(board, state, options, careful)
        if aircraft.status != FLYING:
            kept.extend(run)  # no verdict for an aircraft not flying: every token kept
            continue
        key = (name, careful)
        entry = runs_kept.get(key)
        if entry is None or entry[0] is not aircraft or entry[1] != run:
            entry = runs_kept[key] = (aircraft, run, _run_kept(board, aircraft, run, careful))
        kept.extend(entry[2])
    return kept


#: The aircraft a Choose Manoeuvres option is for (the key :func:`_manoeuvres_kept` groups by).
_AIRCRAFT_OF = attrgetter("aircraft")


def _run_kept(board: _Board, aircraft: AircraftState, run: tuple[Any, ...], careful: bool) -> list[Any]:
    """The options of one flying aircraft's run that its verdicts keep (tokens it keeps flying with on the board,
    p.17), in their order; an option that is no token is kept."""
    table = _verdicts(board, aircraft, careful, "manoeuvre", aircraft.speed)
    start = board.reach.start(aircraft.hex)
    return [option for option in run if not isinstance(option, c.ChooseManoeuvre)
            or _token_kept(board, table, start, aircraft, option.manoeuvre, careful)]


def _token_kept(board: _Board, table: dict[Any, Any], start: int, aircraft: AircraftState, manoeuvre: int,
                careful: bool) -> bool:
    """Whether the aircraft's verdicts (``table``, its hex's bit ``start``) keep the token of ``manoeuvre``: its
    bit when the verdict is a board mask, else judged (:func:`_keeps`)."""
    judged = table.get(manoeuvre)
    if judged.__class__ is int and start >= 0:
        return bool((judged >> start) & 1)
    return _keeps(board, table, aircraft, manoeuvre, None, careful, manoeuvre)


def _manoeuvres_kept_one_by_one(board: _Board, state: GameState, options: Sequence[Any], careful: bool
                                ) -> list[Any]:
    """:func:`_manoeuvres_kept` option by option, for options that are not all for an aircraft."""
    asked: dict[str, tuple[Any, int, AircraftState] | None] = {}  # per aircraft: its verdicts and hex
    kept = []
    for option in options:
        if isinstance(option, c.ChooseManoeuvre):
            name = option.aircraft
            if name in asked:
                verdicts = asked[name]
            else:
                aircraft = state.aircraft[name]
                verdicts = asked[name] = None if aircraft.status != FLYING else (
                    _verdicts(board, aircraft, careful, "manoeuvre", aircraft.speed),
                    board.reach.start(aircraft.hex), aircraft)
            if verdicts is not None and not _token_kept(board, *verdicts, option.manoeuvre, careful):
                continue
        kept.append(option)
    return kept


def _throttle_tiers(board: _Board, state: GameState, options: Sequence[Any]) -> Sequence[Any]:
    """Set Throttle (p.15): Speeds at which the revealed manoeuvre keeps the aircraft flying on the board
    and ends where it has a way on next turn; else those that only keep it on the board."""
    aircraft = state.aircraft[options[0].aircraft]
    if aircraft.status != FLYING:
        return options
    start = board.reach.start(aircraft.hex)
    manoeuvre, speed = aircraft.revealed, aircraft.speed
    for careful in (True, False):
        table = _verdicts(board, aircraft, careful, "speed", manoeuvre)
        kept = []
        for option in options:
            flown = speed + option.change
            judged = table.get(flown)
            if judged.__class__ is int and start >= 0:
                if (judged >> start) & 1:
                    kept.append(option)
            elif _keeps(board, table, aircraft, manoeuvre, flown, careful, flown):
                kept.append(option)
        if kept:
            return kept
    return ()


def _plan_tiers(board: _Board, state: GameState, options: Sequence[Any]) -> Sequence[Any]:
    """Fly the manoeuvre (p.16-17): plans that end where a manoeuvre keeps the aircraft on the board next
    turn; else those that stay on the board. Nothing is judged when the options are not the plans of
    :func:`movement.manoeuvre_flights` in its order."""
    aircraft = state.aircraft[options[0].aircraft]
    reach = board.reach
    plans = _plans_of(board, aircraft)
    if plans is not None and reach.answers(aircraft.hex, aircraft.speed, None):
        if len(plans) != len(options):
            return ()
        start = reach.index(aircraft.hex)
        careful = [option for option, (_, kept) in zip(options, plans) if (kept >> start) & 1]
        return careful or [option for option, (on, _) in zip(options, plans) if (on >> start) & 1]
    rules = board.rules
    flights = movement.manoeuvre_flights(rules, aircraft)
    if len(flights) != len(options):  # the plans are offered in the order of the flights
        return ()
    turn_after = _next_turn(rules, aircraft, aircraft.speed)
    on_board = [(o, f) for o, f in zip(options, flights, strict=True)
                if movement.first_off_board(reach.board, f.path) is None]
    return [o for o, f in on_board if _pose_has_a_way_on(
        reach.board, f.path[-1] if f.path else aircraft.hex, f.final_facing, *turn_after)] or [o for o, _ in on_board]


def _plans_of(board: _Board, aircraft: AircraftState) -> tuple[tuple[int, int], ...] | None:
    """:meth:`_BoardReach.plans` of the aircraft's manoeuvre at its Speed and facing, with what it may fly
    next turn (:func:`_next_turn`); None when the masks do not answer at these Speeds
    (:meth:`_BoardReach.answers`). Kept per ruleset, board, profile, upgrades, token, Speed and facing."""
    rules, reach, kept = board.rules, board.reach, board.kept
    key = (reach, aircraft.profile, aircraft.upgrades, aircraft.revealed, aircraft.speed, aircraft.facing, "plans")
    found = kept.get(key, _UNJUDGED)
    if found is _UNJUDGED:
        speed = aircraft.speed
        turn_after = _next_turn(rules, aircraft, speed)
        if reach.answers_speeds(((speed, turn_after),)):
            manoeuvre = movement.manoeuvre_to_fly(rules, aircraft.revealed, speed)  # None: straight ahead (p.17)
            found = reach.plans(manoeuvre, aircraft.facing, speed, turn_after)
        else:
            found = None
        kept[key] = found
    return found


def _altitude_tiers(board: _Board, state: GameState, options: Sequence[Any]) -> list[Any]:
    """Adjust Altitude (p.18-19): climbs and dives that neither Stall, Crash nor Break Up; no landing and no
    Rocket Boosters out of the game."""
    aircraft = state.aircraft[options[0].aircraft]
    profile = board.rules.profile(aircraft)
    altitude, speed = aircraft.altitude, aircraft.speed
    return [option for option in options if isinstance(option, c.AdjustAltitude)
            and _altitude_is_safe(profile, altitude, speed, option.change)]


def _altitude_is_safe(profile: Any, altitude: int, speed: int, change: int) -> bool:
    """No Stall, Crash or Breaking Up from this climb or dive (p.18-19)."""
    altitude += change
    speed = speed - 1 if change > 0 else speed + 1 if change < 0 else speed
    if altitude <= 0 or speed > profile.max_speed:
        return False
    return not (change > 0 and (altitude > profile.max_altitude or speed < profile.min_speed))


def _firing_tiers(board: _Board, state: GameState, options: Sequence[Any]) -> list[Any]:
    """Any other decision: no holding fire when a shot is offered (p.20); everything else is uniform (with
    no Pass among the options, this keeps them all)."""
    return [option for option in options if not isinstance(option, c.PassFiring)]


def _placement_marker(board: _Board, state: GameState, options: Sequence[Any]) -> Sequence[Any]:
    raise AssertionError("placements are chosen by BaselineBot._placement")  # pragma: no cover


_PLACEMENT = _placement_marker
#: The decision each kind of command starts: by the type of a decision's first option (isinstance order).
_DECISIONS: tuple[tuple[tuple[type, ...], Callable[[_Board, GameState, Sequence[Any]], Sequence[Any]]], ...] = (
    ((c.PlaceAircraft, c.PlaceReserve), _PLACEMENT),
    ((c.ChooseManoeuvre, c.DeclineManoeuvre), _manoeuvre_tiers),
    ((c.SetThrottle,), _throttle_tiers),
    ((c.ManoeuvrePlan,), _plan_tiers),
    ((c.AdjustAltitude, c.Land, c.RocketBoostOut), _altitude_tiers),
)
_DECISION_OF_TYPE: dict[type, Callable[[_Board, GameState, Sequence[Any]], Sequence[Any]]] = {}


def _decision_of(first: Any) -> Callable[[_Board, GameState, Sequence[Any]], Sequence[Any]]:
    """The decision a command starts (:data:`_DECISIONS`), found once per command type."""
    found = _DECISION_OF_TYPE.get(type(first))
    if found is None:
        found = next((decision for kinds, decision in _DECISIONS if isinstance(first, kinds)), _firing_tiers)
        _DECISION_OF_TYPE[type(first)] = found
    return found


def _next_turn(rules: Any, aircraft: AircraftState, speed: int) -> tuple[tuple[Any, ...], int, int]:
    """What the aircraft may fly next turn after moving at ``speed``: its manoeuvres, and the Speeds within
    a Throttle (and a climb or dive) of it that neither Stall nor Break Up (p.15, p.18)."""
    profile = rules.profile(aircraft)
    manoeuvres = _manoeuvres_of(rules.manoeuvres, profile)
    low = max(profile.min_speed, 1, speed - profile.throttle - 1)
    high = min(profile.max_speed, speed + profile.throttle + 1)
    return manoeuvres, low, high


#: Per ruleset: (profile id, upgrades, Speed, manoeuvre, careful) -> :func:`_speed_plan`, and
#: (board's masks, profile id, upgrades, Speed, manoeuvre, careful, facing) -> :func:`_judgement`.
_SPEED_PLANS: weakref.WeakKeyDictionary[Any, dict[tuple[Any, ...], Any]] = weakref.WeakKeyDictionary()
#: A :func:`_judgement` not worked out yet.
_UNJUDGED: Any = object()


def _kept_for(rules: Any) -> dict[tuple[Any, ...], Any]:
    """The speed plans and judgements worked out for ``rules``, kept as long as it lives."""
    found = _SPEED_PLANS.get(rules)
    if found is None:
        found = _SPEED_PLANS[rules] = {}
    return found


def _verdicts(board: _Board, aircraft: AircraftState, careful: bool, mode: str, given: Any
              ) -> dict[Any, int | bool | None]:
    """The judgements (:func:`_judgement`) of a flying aircraft's pose on a board: by manoeuvre at its Speed
    (``mode`` "manoeuvre", ``given`` the Speed) or by Speed flying a manoeuvre ("speed", ``given`` it)."""
    key = (board.reach, aircraft.profile, aircraft.upgrades, careful, aircraft.facing, mode, given)
    table = board.kept.get(key)
    if table is None:
        table = board.kept[key] = {}
    return table


def _keeps(board: _Board, table: dict[Any, Any], aircraft: AircraftState, manoeuvre: int | None, speed: int | None,
           careful: bool, value: Any) -> bool:
    """Whether the flying aircraft can fly ``manoeuvre`` (None: straight ahead) at ``speed`` (None: at any
    Speed its Throttle reaches) without Stalling, risking Breaking Up or leaving the board; ``careful``: and
    end where some manoeuvre of its own keeps it on the board next turn. ``value`` (the manoeuvre or the
    Speed) is judged in a :func:`_verdicts` table: from the board's masks, or hex by hex where they do not
    answer."""
    rules, reach = board.rules, board.reach
    judged = table.get(value, _UNJUDGED)
    if judged is _UNJUDGED:
        judged = table[value] = _judgement(rules, reach, aircraft, manoeuvre, speed, careful)
    if judged is True:
        return True
    start = reach.start(aircraft.hex)
    if judged is not None and start >= 0:
        return (judged >> start) & 1 == 1
    chosen = rules.manoeuvres.get(manoeuvre) if manoeuvre is not None else None
    return any(_flies_hex_by_hex(reach.board, aircraft, chosen, flown, after)
               for flown, after in _speed_plan(rules, aircraft, manoeuvre, speed, careful))


def _judgement(rules: Any, reach: _BoardReach, aircraft: AircraftState, manoeuvre: int | None, speed: int | None,
               careful: bool) -> int | bool | None:
    """:func:`_keeps` of a flying aircraft for every hex of the board at once: True (it
    may Hover: nothing is thrown away), the mask of the hexes from which it keeps flying (its facing, Speed
    and profile given), or None when the masks do not answer (:meth:`_BoardReach.answers_speeds`)."""
    plan = _speed_plan(rules, aircraft, manoeuvre, speed, careful)
    if plan is True:
        return True
    if not reach.answers_speeds(plan):
        return None
    chosen = rules.manoeuvres.get(manoeuvre) if manoeuvre is not None else None
    return reach.kept(chosen, aircraft.facing, plan)


def _speed_plan(rules: Any, aircraft: AircraftState, manoeuvre: int | None, speed: int | None, careful: bool
                ) -> tuple[tuple[int, tuple[tuple[Any, ...], int, int] | None], ...] | bool:
    """The Speeds at which the flying aircraft may fly ``manoeuvre`` (None: straight ahead): ``speed``, or
    (None) every Speed its Throttle reaches, left out when they Stall or risk Breaking Up (p.15, p.19) or are
    too slow to complete the manoeuvre (a Stall, p.17), each with what it may fly next turn when ``careful``
    (:func:`_next_turn`). True when one of them is Speed 0: Hovering (Min Speed 0, p.16), it stays where it is,
    so nothing is thrown away. The same for every aircraft of a profile at a Speed: kept."""
    plans = _kept_for(rules)
    key = (aircraft.profile, aircraft.upgrades, aircraft.speed if speed is None else -1 - speed, manoeuvre, careful)
    found = plans.get(key)
    if found is None:
        profile = rules.profile(aircraft)
        if speed is None:
            speeds = [aircraft.speed + change for change in movement.throttle_options(
                profile, aircraft.speed, rules.options.throttle_past_limits)]
        else:
            speeds = [speed]
        chosen = rules.manoeuvres.get(manoeuvre) if manoeuvre is not None else None
        plan: list[tuple[int, tuple[tuple[Any, ...], int, int] | None]] = []
        for flown in speeds:
            if flown > profile.max_speed or (flown < profile.min_speed and not profile.can_hover):
                continue  # it Stalls, or risks Breaking Up
            if flown == 0:
                plan = True  # type: ignore[assignment]
                break
            if chosen is not None and not movement.can_complete(chosen, flown):
                continue  # too slow to complete the manoeuvre: it Stalls (p.17)
            plan.append((flown, _next_turn(rules, aircraft, flown) if careful else None))
        found = plans[key] = plan if plan is True else tuple(plan)
    return found


def _flies_hex_by_hex(board: Any, aircraft: AircraftState, chosen: Any, speed: int,
                      after: tuple[tuple[Any, ...], int, int] | None) -> bool:
    """One Speed of :func:`_keeps` asked hex by hex (where the board's masks do not answer)."""
    if chosen is None:
        path = movement.straight(aircraft.hex, aircraft.facing, speed).path
        if movement.first_off_board(board, path) is not None:
            return False
        return after is None or _pose_has_a_way_on(board, path[-1], aircraft.facing, *after)
    return _flies_on(board, aircraft.hex, aircraft.facing, chosen, speed, after)


# ---------------------------------------------------------------- the look-ahead as tables per board


def _shifted(mask: int, offset: int) -> int:
    """``mask`` read ``offset`` bits further on: bit i of the result is bit i + offset of ``mask``."""
    return mask >> offset if offset >= 0 else mask << -offset


class _BoardReach:
    """Which poses of one board some flight keeps on the board (p.17), as bit masks over its hexes.

    The look-ahead asks the same questions of every game on a board ("from this hex and facing, does some
    way of flying manoeuvre M at Speed S stay on the board, and end where a manoeuvre keeps it on next
    turn?"). A mask answers one question for every hex at once: bit ``index(hex)`` is set when the answer
    is yes. A flight's mask is the board's mask shifted by each hex of its path and ANDed (every hex of the
    path on the board), so a whole table costs a few integer operations and the answers are exactly those
    of :func:`_flies_on` and :func:`_pose_has_a_way_on`, which flight by flight ask ``board.contains``.

    Hexes are laid out in the board's axial bounding box with :data:`PAD` spare hexes on every side, so that
    a path of up to :data:`PAD` hexes from a hex of the board never wraps into another column.
    """

    #: Spare hexes around the board: the longest path shifted by is the Speed dial's top (p.18: 9).
    PAD = movement.MAX_DIAL_SPEED + 1

    def __init__(self, board: Any):
        self.board = board
        pad = self.PAD
        low_r = -((board.columns - 1) >> 1)  # the board holds r >= -(q >> 1): lowest in its last column
        self.first_r = low_r - pad
        self.stride = board.rows - low_r + 2 * pad
        self.first_q = -pad
        self._starts = {hex: self.index(hex) for hex in board.hexes}
        on = 0
        for index in self._starts.values():
            on |= 1 << index
        self.on = on
        self._flights: dict[tuple[Any, int, int], tuple[tuple[int, int, int], ...]] = {}
        self._stays_on: dict[tuple[Any, int, int], int] = {}
        self._way_on: dict[tuple[tuple[Any, ...], int, int, int], int] = {}
        self._flies_on: dict[tuple[Any, int, int, Any], int] = {}
        self._straight: dict[tuple[int, int, Any], int] = {}
        self._kept: dict[tuple[Any, int, Any], int] = {}
        self._plans: dict[tuple[Any, int, int, Any], tuple[tuple[int, int], ...]] = {}
        #: The board's mask read a path step further on, by the step's bit offset (:meth:`on_after`; at most
        #: 331 within :data:`PAD` hexes).
        self._on_after: dict[int, int] = {}
        stride = self.stride
        #: Per number of hexsides (0 to 5) the picture is turned clockwise about the origin: (a, b) such that
        #: the hex (q, r) turned is ``q * a + r * b`` bits on (:meth:`Hex.rotate`, then :meth:`offset`).
        self._turns = ((stride, 1), (1, 1 - stride), (1 - stride, -stride), (-stride, -1), (-1, stride - 1),
                       (stride - 1, stride))

    def index(self, hex: tuple[int, int]) -> int:
        return (hex[0] - self.first_q) * self.stride + hex[1] - self.first_r

    def start(self, hex: tuple[int, int]) -> int:
        """The hex's bit in the masks, -1 off the board (where the masks do not answer)."""
        return self._starts.get(hex, -1)

    def offset(self, delta: tuple[int, int]) -> int:
        return delta[0] * self.stride + delta[1]

    def answers(self, hex: tuple[int, int], speed: int, after: tuple[tuple[Any, ...], int, int] | None) -> bool:
        """Whether the masks answer for an aircraft at ``hex`` flying at ``speed`` and then at Speeds up to
        ``after``'s (no path longer than :data:`PAD`), else the question is asked hex by hex."""
        return 0 < speed <= self.PAD and (after is None or after[2] <= self.PAD) and self.board.contains(hex)

    def answers_speeds(self, plan: Sequence[tuple[int, Any]]) -> bool:
        """:meth:`answers` for every Speed of a :func:`_speed_plan`, for an aircraft on the board."""
        pad = self.PAD
        return all(0 < speed <= pad and (after is None or after[2] <= pad) for speed, after in plan)

    def kept(self, manoeuvre: Any, facing: int, plan: tuple[tuple[int, Any], ...]) -> int:
        """Flying ``manoeuvre`` (None: straight ahead) at one of the Speeds of a :func:`_speed_plan` stays
        on the board (and, given each Speed's ``after``, ends where a manoeuvre keeps it on next turn)."""
        key = (manoeuvre, facing, plan)
        found = self._kept.get(key)
        if found is None:
            found = 0
            for speed, after in plan:
                found |= (self.straight_on(facing, speed, after) if manoeuvre is None
                          else self.flies_on(manoeuvre, facing, speed, after))
            self._kept[key] = found
        return found

    def flights(self, manoeuvre: Any, facing: int, speed: int) -> tuple[tuple[int, int, int], ...]:
        """Per flight of :func:`movement.reach` (in its order): the mask of the hexes it may start from and
        stay on the board, the bit offset of its last hex, its final facing."""
        key = (manoeuvre, facing, speed)
        found = self._flights.get(key)
        if found is None:
            # A manoeuvre is flown the same whichever way the aircraft faces (p.16): facing 1 to 5, the flights
            # are those facing 0 turned that many hexsides clockwise about the origin, in the same order, as
            # movement.reach turns them; here the turn is folded into each hex's bit offset (no Hex or Flight
            # is built for a look-ahead that only ANDs masks).
            # Each flight's mask is ANDed on from the masks of the hexes it shares with the flight before it.
            turned = facing if type(facing) is int and 1 <= facing <= 5 else 0
            a, b = self._turns[turned]
            on_after = self.on_after
            masks, offsets = [self.on], [0]  # after each hex of the flight before
            kept = []
            for shared, rest, final_facing in _shared_paths(manoeuvre, 0 if turned else facing, speed):
                del masks[shared + 1:], offsets[shared + 1:]
                mask, offset = masks[shared], offsets[shared]
                for q, r in rest:
                    offset = q * a + r * b
                    mask &= on_after(offset)
                    masks.append(mask)
                    offsets.append(offset)
                kept.append((mask, offset, (final_facing + turned) % 6))
            found = self._flights[key] = tuple(kept)
        return found

    def _flight(self, path: Sequence[tuple[int, int]], final_facing: int) -> tuple[int, int, int]:
        """A flight's mask (the hexes it may start from and stay on the board), the bit offset of its last hex
        (``path`` from the origin) and its final facing."""
        mask = self.on
        on_after = self.on_after
        stride = self.stride
        offset = 0
        for q, r in path:
            offset = q * stride + r  # offset((q, r))
            mask &= on_after(offset)
        return mask, offset, final_facing

    def on_after(self, offset: int) -> int:
        """The board's mask read ``offset`` bits further on (a path step away), kept."""
        shifted = self._on_after.get(offset)
        if shifted is None:
            shifted = self._on_after[offset] = _shifted(self.on, offset)
        return shifted

    def stays_on(self, manoeuvre: Any, facing: int, speed: int) -> int:
        """Some way of flying ``manoeuvre`` at ``speed`` stays on the board."""
        key = (manoeuvre, facing, speed)
        found = self._stays_on.get(key)
        if found is None:
            found = 0
            for mask, _, _ in self.flights(manoeuvre, facing, speed):
                found |= mask
            self._stays_on[key] = found
        return found

    def way_on(self, manoeuvres: tuple[Any, ...], low: int, high: int, facing: int) -> int:
        """:func:`_pose_has_a_way_on` for every hex: one of ``manoeuvres`` at a Speed in [low, high] stays on."""
        key = (manoeuvres, low, high, facing)
        found = self._way_on.get(key)
        if found is None:
            found = 0
            for manoeuvre in manoeuvres:
                for speed in range(low, high + 1):
                    if movement.can_complete(manoeuvre, speed):
                        found |= self.stays_on(manoeuvre, facing, speed)
            self._way_on[key] = found
        return found

    def flies_on(self, manoeuvre: Any, facing: int, speed: int, after: tuple[tuple[Any, ...], int, int] | None
                 ) -> int:
        """:func:`_flies_on` for every hex."""
        if after is None:
            return self.stays_on(manoeuvre, facing, speed)
        key = (manoeuvre, facing, speed, after)
        found = self._flies_on.get(key)
        if found is None:
            found = 0
            ways: list[int | None] = [None] * 6  # way_on by final facing, asked once each
            for mask, end, final_facing in self.flights(manoeuvre, facing, speed):
                if mask:
                    way = ways[final_facing]
                    if way is None:
                        way = ways[final_facing] = self.way_on(*after, final_facing)
                    found |= mask & _shifted(way, end)
            self._flies_on[key] = found
        return found

    def straight_on(self, facing: int, speed: int, after: tuple[tuple[Any, ...], int, int] | None) -> int:
        """Straight ahead at ``speed`` (>= 1) stays on the board and, given ``after``, ends where a manoeuvre
        keeps it on next turn (the straight case of :func:`_keeps`)."""
        key = (facing, speed, after)
        found = self._straight.get(key)
        if found is None:
            path = movement.straight(Hex(0, 0), facing, speed).path
            found, end, _ = self._flight(path, facing)
            if after is not None:
                found &= _shifted(self.way_on(*after, facing), end)
            self._straight[key] = found
        return found

    def plans(self, manoeuvre: Any, facing: int, speed: int, after: tuple[tuple[Any, ...], int, int]
              ) -> tuple[tuple[int, int], ...]:
        """Per plan of :func:`movement.manoeuvre_flights` (``manoeuvre`` None: straight ahead), in its order:
        the hexes from which it stays on the board, and those from which it also ends where a manoeuvre
        keeps it on next turn."""
        key = (manoeuvre, facing, speed, after)
        found = self._plans.get(key)
        if found is None:
            if manoeuvre is None:
                flights = (self._flight(movement.straight(Hex(0, 0), facing, speed).path, facing),)
            else:
                flights = self.flights(manoeuvre, facing, speed)
            found = self._plans[key] = tuple((on, on & _shifted(self.way_on(*after, final_facing), end))
                                             for on, end, final_facing in flights)
        return found

    def has(self, mask: int, hex: tuple[int, int]) -> bool:
        return (mask >> self.index(hex)) & 1 == 1


@lru_cache(maxsize=1 << 12)
def _shared_paths(manoeuvre: Any, facing: int, speed: int) -> tuple[tuple[int, tuple[Hex, ...], int], ...]:
    """The flights of :func:`movement.reach`, in its order, each as (how many first hexes of its path the
    flight before it shares, the rest of its path, its final facing): the same from every board and facing
    (:meth:`_BoardReach.flights` turns them)."""
    found = []
    before: tuple[Hex, ...] = ()
    for flight in movement.reach(manoeuvre, facing, speed):
        path = flight.path
        shared = 0
        for hex, other in zip(path, before):
            if hex != other:
                break
            shared += 1
        found.append((shared, path[shared:], flight.final_facing))
        before = path
    return tuple(found)


#: The masks of each board met, by the board's identity (each keeps its board, so no identity is reused).
_BOARD_REACH: dict[int, _BoardReach] = {}
#: The masks by the board's value, so that equal boards share them.
_BOARD_REACH_BY_VALUE: dict[Any, _BoardReach] = {}


def _board_reach(board: Any) -> _BoardReach:
    """The masks of ``board``, built as questions are asked and kept for every later game on it."""
    found = _BOARD_REACH.get(id(board))
    if found is None or found.board is not board:
        found = _BOARD_REACH_BY_VALUE.get(board)
        if found is None:
            found = _BOARD_REACH_BY_VALUE[board] = _BoardReach(board)
        _BOARD_REACH[id(board)] = found
    return found


@lru_cache(maxsize=1 << 17)
def _flies_on(board: Any, hex: Hex, facing: int, manoeuvre: Any, speed: int,
              after: tuple[tuple[Any, ...], int, int] | None) -> bool:
    """Whether some way of flying ``manoeuvre`` at ``speed`` from (hex, facing) stays on the board (p.17)
    and, given ``after`` (:func:`_next_turn`), ends where a manoeuvre keeps it on the board next turn.
    Hex by hex; :class:`_BoardReach` answers the same from tables where it can."""
    q, r = hex
    contains = board.contains
    for flight in movement.reach(manoeuvre, facing, speed):
        if all(contains(Hex(q + a, r + b)) for a, b in flight.path):
            if after is None:
                return True
            end = flight.path[-1] if flight.path else (0, 0)
            if _pose_has_a_way_on(board, Hex(q + end[0], r + end[1]), flight.final_facing, *after):
                return True
    return False


@lru_cache(maxsize=1 << 17)
def _pose_has_a_way_on(board: Any, hex: Hex, facing: int, manoeuvres: tuple[Any, ...], low: int, high: int) -> bool:
    """Whether one of ``manoeuvres`` at a Speed in [low, high] keeps an aircraft at (hex, facing) on the board."""
    return any(movement.can_complete(manoeuvre, speed) and _flies_on(board, hex, facing, manoeuvre, speed, None)
               for manoeuvre in manoeuvres for speed in range(low, high + 1))


@lru_cache(maxsize=1024)
def _manoeuvres_of(table: Any, profile: Any) -> tuple[Any, ...]:
    """The Ace Manoeuvres a profile can perform, as far as the table holds them (p.10)."""
    return tuple(table.get(number) for number in profile.ace_manoeuvres if number in table)
