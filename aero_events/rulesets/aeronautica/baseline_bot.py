"""The baseline bot for Aeronautica Imperialis: random play among the choices that do not throw the game away
(issue 18 item 1); the default bot of ``aero simulate`` and ``aero compare``. See :class:`BaselineBot`."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
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

    def choose(self, session: Any, player: str, options: Sequence[Any]) -> Any:
        rules, state = session.ruleset, session.state
        first = options[0]
        if isinstance(first, (c.PlaceAircraft, c.PlaceReserve)):
            return self._placement(rules, state, options)
        if not state.disengagement_turn:
            for sensible in self._tiers(rules, state, first, options):
                if sensible:
                    return self.random.choice(sensible)
        return self.random.choice(options)

    def _tiers(self, rules: Any, state: GameState, first: Any, options: Sequence[Any]) -> Iterator[Sequence[Any]]:
        """The choices by how careful they are, most careful first: the first tier that keeps any is chosen
        from (each worked out only when the tiers before it kept nothing)."""
        if isinstance(first, (c.ChooseManoeuvre, c.DeclineManoeuvre)):
            judge = _Judge(rules, state)
            yield self._manoeuvres_kept(judge, state, options, True)
            yield self._manoeuvres_kept(judge, state, options, False)
        elif isinstance(first, c.SetThrottle):
            aircraft = state.aircraft[first.aircraft]
            judge = _Judge(rules, state)
            for careful in (True, False):
                keeps = judge.speeds(aircraft, aircraft.revealed, careful)
                yield [o for o in options if keeps(aircraft.speed + o.change)]
        elif isinstance(first, c.ManoeuvrePlan):
            aircraft = state.aircraft[first.aircraft]
            board = rules.board(state)
            turn_after = _next_turn(rules, aircraft, aircraft.speed)
            reach = _board_reach(board)
            if reach.answers(aircraft.hex, aircraft.speed, turn_after):
                kept = _plans_kept(rules, reach, aircraft, options, turn_after)
                if kept is not None:
                    yield from kept
            else:
                flights = movement.manoeuvre_flights(rules, aircraft)
                if len(flights) == len(options):  # the plans are offered in the order of the flights
                    on_board = [(o, f) for o, f in zip(options, flights, strict=True)
                                if movement.first_off_board(board, f.path) is None]
                    yield [o for o, f in on_board if _pose_has_a_way_on(
                        board, f.path[-1] if f.path else aircraft.hex, f.final_facing, *turn_after)]
                    yield [o for o, _ in on_board]
        elif isinstance(first, (c.AdjustAltitude, c.Land, c.RocketBoostOut)):
            aircraft = state.aircraft[first.aircraft]
            yield [o for o in options if isinstance(o, c.AdjustAltitude)
                   and self._altitude_is_safe(rules, aircraft, o.change)]
        elif any(isinstance(o, c.PassFiring) for o in options):
            yield [o for o in options if not isinstance(o, c.PassFiring)]

    @staticmethod
    def _manoeuvres_kept(judge: _Judge, state: GameState, options: Sequence[Any], careful: bool) -> list[Any]:
        judged: dict[str, Callable[[int], bool]] = {}
        kept = []
        for option in options:
            if isinstance(option, c.ChooseManoeuvre):
                keeps = judged.get(option.aircraft)
                if keeps is None:
                    keeps = judged[option.aircraft] = judge.manoeuvres(state.aircraft[option.aircraft], careful)
                if not keeps(option.manoeuvre):
                    continue
            kept.append(option)
        return kept

    # ---------------------------------------------------------------- what throws the game away

    @staticmethod
    def _altitude_is_safe(rules: Any, aircraft: AircraftState, change: int) -> bool:
        """No Stall, Crash or Breaking Up from this climb or dive (p.18-19)."""
        profile = rules.profile(aircraft)
        altitude = aircraft.altitude + change
        speed = aircraft.speed - 1 if change > 0 else aircraft.speed + 1 if change < 0 else aircraft.speed
        if altitude <= 0 or speed > profile.max_speed:
            return False
        return not (change > 0 and (altitude > profile.max_altitude or speed < profile.min_speed))

    def _keeps_flying(self, rules: Any, state: GameState, aircraft: AircraftState, manoeuvre: int | None,
                      speed: int | None, careful: bool) -> bool:
        """Whether the aircraft can fly ``manoeuvre`` (None: straight ahead) at ``speed`` (None: at any Speed
        its Throttle reaches) without Stalling, risking Breaking Up or leaving the board; ``careful``: and
        end where some manoeuvre of its own keeps it on the board next turn. A landed aircraft takes off
        with manoeuvre 1 (p.19): anything goes."""
        judge = _Judge(rules, state)
        if speed is None:
            return judge.manoeuvres(aircraft, careful)(manoeuvre)
        return judge.speeds(aircraft, manoeuvre, careful)(speed)

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


def _always(value: Any) -> bool:
    return True


class _Judge:
    """The look-ahead of one decision: :meth:`BaselineBot._keeps_flying` for the aircraft it is asked about,
    from the judgements kept per ruleset, board and pose (:func:`_judgement`)."""

    __slots__ = ("board", "judged", "reach", "rules")

    def __init__(self, rules: Any, state: GameState):
        self.rules = rules
        self.board = rules.board(state)
        self.reach = _board_reach(self.board)
        self.judged = _kept_for(rules)

    def manoeuvres(self, aircraft: AircraftState, careful: bool) -> Callable[[int | None], bool]:
        """Whether the aircraft keeps flying with a manoeuvre, at any Speed its Throttle reaches."""
        return self._verdicts(aircraft, careful, ("manoeuvre", aircraft.speed),
                              lambda manoeuvre: (manoeuvre, None))

    def speeds(self, aircraft: AircraftState, manoeuvre: int | None, careful: bool) -> Callable[[int], bool]:
        """Whether the aircraft keeps flying ``manoeuvre`` at a Speed."""
        return self._verdicts(aircraft, careful, ("speed", manoeuvre), lambda speed: (manoeuvre, speed))

    def _verdicts(self, aircraft: AircraftState, careful: bool, mode: tuple[str, int | None],
                  question: Callable[[Any], tuple[int | None, int | None]]) -> Callable[[Any], bool]:
        if aircraft.status != FLYING:
            return _always
        rules, reach, board = self.rules, self.reach, self.board
        key = (reach, aircraft.profile, aircraft.upgrades, careful, aircraft.facing, mode)
        table = self.judged.get(key)
        if table is None:
            table = self.judged[key] = {}
        hex = aircraft.hex
        on_board = board.contains(hex)
        start = reach.index(hex) if on_board else 0

        def keeps(value: Any) -> bool:
            judged = table.get(value, _UNJUDGED)
            if judged is _UNJUDGED:
                judged = table[value] = _judgement(rules, reach, aircraft, *question(value), careful)
            if judged is True:
                return True
            if judged is not None and on_board:
                return (judged >> start) & 1 == 1
            manoeuvre, speed = question(value)
            chosen = rules.manoeuvres.get(manoeuvre) if manoeuvre is not None else None
            return any(_flies_hex_by_hex(board, aircraft, chosen, flown, after)
                       for flown, after in _speed_plan(rules, aircraft, manoeuvre, speed, careful))

        return keeps


def _judgement(rules: Any, reach: _BoardReach, aircraft: AircraftState, manoeuvre: int | None, speed: int | None,
               careful: bool) -> int | bool | None:
    """:meth:`BaselineBot._keeps_flying` of a flying aircraft for every hex of the board at once: True (it
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
    """One Speed of :meth:`BaselineBot._keeps_flying` asked hex by hex (where the board's masks do not answer)."""
    if chosen is None:
        path = movement.straight(aircraft.hex, aircraft.facing, speed).path
        if movement.first_off_board(board, path) is not None:
            return False
        return after is None or _pose_has_a_way_on(board, path[-1], aircraft.facing, *after)
    return _flies_on(board, aircraft.hex, aircraft.facing, chosen, speed, after)


def _plans_kept(rules: Any, reach: _BoardReach, aircraft: AircraftState, options: Sequence[Any],
                after: tuple[tuple[Any, ...], int, int]) -> tuple[list[Any], list[Any]] | None:
    """The plans that end where a manoeuvre keeps the aircraft on the board next turn, and those that stay on
    the board, from the board's masks; None when the options are not the plans of
    :func:`movement.manoeuvre_flights` in its order (then no plan is judged)."""
    manoeuvre = movement.manoeuvre_to_fly(rules, aircraft.revealed, aircraft.speed)  # None: straight ahead (p.17)
    plans = reach.plans(manoeuvre, aircraft.facing, aircraft.speed, after)
    if len(plans) != len(options):
        return None
    start = reach.index(aircraft.hex)
    careful, on_board = [], []
    for option, (on, kept) in zip(options, plans, strict=True):
        if (on >> start) & 1:
            on_board.append(option)
            if (kept >> start) & 1:
                careful.append(option)
    return careful, on_board


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
        on = 0
        for hex in board.hexes:
            on |= 1 << self.index(hex)
        self.on = on
        self._flights: dict[tuple[Any, int, int], tuple[tuple[int, int, int], ...]] = {}
        self._stays_on: dict[tuple[Any, int, int], int] = {}
        self._way_on: dict[tuple[tuple[Any, ...], int, int, int], int] = {}
        self._flies_on: dict[tuple[Any, int, int, Any], int] = {}
        self._straight: dict[tuple[int, int, Any], int] = {}
        self._kept: dict[tuple[Any, int, Any], int] = {}
        self._plans: dict[tuple[Any, int, int, Any], tuple[tuple[int, int], ...]] = {}

    def index(self, hex: tuple[int, int]) -> int:
        return (hex[0] - self.first_q) * self.stride + hex[1] - self.first_r

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
            found = self._flights[key] = tuple(self._flight(flight.path, flight.final_facing)
                                               for flight in movement.reach(manoeuvre, facing, speed))
        return found

    def _flight(self, path: Sequence[tuple[int, int]], final_facing: int) -> tuple[int, int, int]:
        on = self.on
        mask = on
        for delta in path:
            mask &= _shifted(on, self.offset(delta))
        return mask, self.offset(path[-1]) if path else 0, final_facing

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
            for mask, end, final_facing in self.flights(manoeuvre, facing, speed):
                if mask:
                    found |= mask & _shifted(self.way_on(*after, final_facing), end)
            self._flies_on[key] = found
        return found

    def straight_on(self, facing: int, speed: int, after: tuple[tuple[Any, ...], int, int] | None) -> int:
        """Straight ahead at ``speed`` (>= 1) stays on the board and, given ``after``, ends where a manoeuvre
        keeps it on next turn (the straight case of :meth:`BaselineBot._keeps_flying`)."""
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
