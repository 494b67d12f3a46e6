"""The baseline bot for Aeronautica Imperialis: random play among the choices that do not throw the game away
(issue 18 item 1); the default bot of ``aero simulate`` and ``aero compare``. See :class:`BaselineBot`."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
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
        if state.disengagement_turn:
            return self.random.choice(options)
        # The choices by how careful they are, most careful first: the first tier that keeps any is chosen
        # from (each worked out only when the tiers before it kept nothing).
        tiers: list[Callable[[], Sequence[Any]]] = []
        if isinstance(first, (c.ChooseManoeuvre, c.DeclineManoeuvre)):
            for careful in (True, False):
                tiers.append(functools.partial(self._manoeuvres_kept, rules, state, options, careful))
        elif isinstance(first, c.SetThrottle):
            aircraft = state.aircraft[first.aircraft]
            for careful in (True, False):
                tiers.append(functools.partial(self._throttles_kept, rules, state, aircraft, options, careful))
        elif isinstance(first, c.ManoeuvrePlan):
            aircraft = state.aircraft[first.aircraft]
            flights = movement.manoeuvre_flights(rules, aircraft)
            if len(flights) == len(options):  # the plans are offered in the order of the flights
                board = rules.board(state)
                on_board = [(o, f) for o, f in zip(options, flights, strict=True)
                            if movement.first_off_board(board, f.path) is None]
                turn_after = _next_turn(rules, aircraft, aircraft.speed)
                tiers.append(lambda: [o for o, f in on_board if _pose_has_a_way_on(
                    board, f.path[-1] if f.path else aircraft.hex, f.final_facing, *turn_after)])
                tiers.append(lambda: [o for o, _ in on_board])
        elif isinstance(first, (c.AdjustAltitude, c.Land, c.RocketBoostOut)):
            aircraft = state.aircraft[first.aircraft]
            tiers.append(lambda: [o for o in options if isinstance(o, c.AdjustAltitude)
                                  and self._altitude_is_safe(rules, aircraft, o.change)])
        elif any(isinstance(o, c.PassFiring) for o in options):
            tiers.append(lambda: [o for o in options if not isinstance(o, c.PassFiring)])
        for tier in tiers:
            sensible = tier()
            if sensible:
                return self.random.choice(sensible)
        return self.random.choice(options)

    def _manoeuvres_kept(self, rules: Any, state: GameState, options: Sequence[Any], careful: bool) -> list[Any]:
        judged: dict[tuple[str, int], bool] = {}
        return [o for o in options if not isinstance(o, c.ChooseManoeuvre)
                or self._judged(judged, rules, state, state.aircraft[o.aircraft], o.manoeuvre, careful)]

    def _throttles_kept(self, rules: Any, state: GameState, aircraft: AircraftState, options: Sequence[Any],
                        careful: bool) -> list[Any]:
        return [o for o in options
                if self._keeps_flying(rules, state, aircraft, aircraft.revealed, aircraft.speed + o.change, careful)]

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

    def _judged(self, judged: dict[tuple[str, int], bool], rules: Any, state: GameState, aircraft: AircraftState,
                manoeuvre: int, careful: bool) -> bool:
        key = (aircraft.id, manoeuvre)
        if key not in judged:
            judged[key] = self._keeps_flying(rules, state, aircraft, manoeuvre, None, careful)
        return judged[key]

    def _keeps_flying(self, rules: Any, state: GameState, aircraft: AircraftState, manoeuvre: int | None,
                      speed: int | None, careful: bool) -> bool:
        """Whether the aircraft can fly ``manoeuvre`` (None: straight ahead) at ``speed`` (None: at any Speed
        its Throttle reaches) without Stalling, risking Breaking Up or leaving the board; ``careful``: and
        end where some manoeuvre of its own keeps it on the board next turn. A landed aircraft takes off
        with manoeuvre 1 (p.19): anything goes."""
        if aircraft.status != FLYING:
            return True
        profile = rules.profile(aircraft)
        if speed is None:
            return any(self._keeps_flying(rules, state, aircraft, manoeuvre, aircraft.speed + change, careful)
                       for change in movement.throttle_options(profile, aircraft.speed,
                                                               rules.options.throttle_past_limits))
        if speed > profile.max_speed or (speed < profile.min_speed and not profile.can_hover):
            return False
        if speed == 0:
            return True  # Hovering (Min Speed 0, p.16): it stays where it is
        chosen = rules.manoeuvres.get(manoeuvre) if manoeuvre is not None else None
        if chosen is not None and not movement.can_complete(chosen, speed):
            return False  # too slow to complete the manoeuvre: it Stalls (p.17)
        board = rules.board(state)
        after = _next_turn(rules, aircraft, speed) if careful else None
        if chosen is None:
            path = movement.straight(aircraft.hex, aircraft.facing, speed).path
            if movement.first_off_board(board, path) is not None:
                return False
            return after is None or _pose_has_a_way_on(board, path[-1], aircraft.facing, *after)
        return _flies_on(board, aircraft.hex, aircraft.facing, chosen, speed, after)

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


@lru_cache(maxsize=1 << 17)
def _flies_on(board: Any, hex: Hex, facing: int, manoeuvre: Any, speed: int,
              after: tuple[tuple[Any, ...], int, int] | None) -> bool:
    """Whether some way of flying ``manoeuvre`` at ``speed`` from (hex, facing) stays on the board (p.17)
    and, given ``after`` (:func:`_next_turn`), ends where a manoeuvre keeps it on the board next turn."""
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
