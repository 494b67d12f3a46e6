"""A greedy bot for Aeronautica Imperialis: it scores each legal option one step ahead and takes the best.

The score of a position (after an aircraft moves) is the damage it can expect to deal
next Firing phase, less the damage it can expect to receive from the enemy where they
stand, less penalties for what the rules punish: leaving the Area of Engagement (the
enemy scores its points, p.17, p.32), Stalling and Spinning (p.18, p.29), diving to
Altitude 0 (p.19), ending above Max Speed (p.19), and ending where next turn's Speed
would carry it off the board. Firing takes the volley with the most expected damage.

Expected damage of a weapon at a target: Firepower dice at the range band (p.22) x the
chance to hit 5+ with the Altitude and Stall/Spin modifiers (p.22, p.7) x the chance of
the Damage roll (p.23), counting Extra Damage (p.24) as two.

The manoeuvre, Throttle and plan decisions score all their flights at once with numpy
(:mod:`.greedy_tables`), bit for bit as the one-at-a-time definitions (``_manoeuvre_value``,
``_throttle_value``, ``_step_value``) do, so the bot plays the same games (issue 18). Within one move the
enemies stay where they are, so the plan and Altitude decisions read the values the Throttle decision worked
out for the same ends (:meth:`GreedyBot._altitude_column`), and a decision with one option takes it unscored.
Seeded games of one set-up (``aero simulate``, ``aero compare``, the benchmark) part only by the dice and meet
the same decisions again: the scorers and a block's values are kept by exactly what they are computed from
(:meth:`GreedyBot._scorer`, :meth:`GreedyBot._block_values`), so they are looked up, not recomputed; a scorer
met for the first time is put together from the aircraft's own terms and each enemy's, kept likewise
(:meth:`GreedyBot._own_terms`, :meth:`GreedyBot._enemy_record`: in a game of many aircraft most enemies have not
moved since the last scorer). What kind of decision an option is, is looked up by its class (:func:`_kind`).
Likewise kept: each option's best and the first best with a block's kept values (``_SEGMENT_BEST``), a manoeuvre
or Throttle decision whole by its scorer and what else it reads (``_DECIDED``), the best
placement of a set-up's placement product (:func:`_best_placed`), the flights of the plans the rules offer,
which are every way of flying the manoeuvre (:func:`_plan_block`), and an Altitude decision read from the Throttle
decision's column (``_ALTITUDE_BEST``).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

import msgspec
import numpy as np

from aero_events.bots.random_bot import StableRandom
from aero_events.hexgrid import MAX_RANGE, Hex, Pose

from . import commands as c
from . import movement
from .baseline_bot import BaselineBot, _room_ahead  # noqa: F401 - BaselineBot re-exported here
from .greedy_tables import (
    CHANGES,
    Q_STRIDE,
    R_STRIDE,
    SPEEDS,
    EndScorer,
    EnemyTerms,
    FlightBlock,
    FlightPart,
    RoomTable,
    _speed_tables,
    damage_grid,
    flight_block,
    row_terms,
)
from .greedy_tables import geometry as _geometry
from .greedy_tables import reach_ends as _reach_ends
from .state import FLYING, AircraftState, GameState

_BAND_INDEX = {"SHORT": 0, "MEDIUM": 1, "LONG": 2}
#: The column of each Altitude change in :meth:`EndScorer.columns`.
_CHANGE_INDEX = {change: index for index, change in enumerate(CHANGES.tolist())}

#: Weights of the score, in Structure points of the aircraft itself (see position_value).
DEFENCE_WEIGHT = 0.7
UNMOVED_WEIGHT = 0.4
STALL_PENALTY = 0.4
EDGE_PENALTY_PER_HEX = 0.3
CLOSING_WEIGHT = 0.01


@lru_cache(maxsize=256)
def chance(target: int, modifier: int) -> float:
    """The chance one D6 scores ``target``+ with ``modifier``: never below 1, a natural 1 fails (p.7)."""
    return sum(1 for face in range(2, 7) if max(1, face + modifier) >= target) / 6


#: The commands :meth:`GreedyBot.choose` scores (or answers by rule); any other it picks at random.
_SCORED = (c.ChooseManoeuvre, c.ChooseFirstMover, c.SetThrottle, c.ManoeuvrePlan, c.AdjustAltitude, c.Land,
           c.RocketBoostOut, c.Hover, c.PlaceAircraft, c.FireWeapons, c.LaunchAutonomous, c.PassFiring, c.AcceptRoll,
           c.UseReroll, c.PlaceReserve, c.TakeOff, c.DropJumpTroops)


#: What :meth:`GreedyBot.choose` asks of an option's class (``isinstance`` of these), as bits of :func:`_kind`.
_KIND_CLASSES = (c.ChooseManoeuvre, c.ChooseFirstMover, c.SetThrottle,
                 (c.ManoeuvrePlan, c.AdjustAltitude, c.Land, c.RocketBoostOut, c.Hover), c.PlaceAircraft,
                 (c.FireWeapons, c.LaunchAutonomous, c.PassFiring), (c.AcceptRoll, c.UseReroll), c.PlaceReserve,
                 (c.TakeOff, c.DropJumpTroops), _SCORED, (c.ChooseFirstMover, c.AcceptRoll, c.UseReroll))
(_MANOEUVRE, _FIRST_MOVER, _THROTTLE, _STEP, _PLACE, _FIRING, _ROLL, _RESERVE, _TAKE_OFF, _SCORED_KIND,
 _ASKED) = (1 << bit for bit in range(len(_KIND_CLASSES)))
#: An option's class -> its :func:`_kind`.
_KINDS: dict[type, int] = {}


class _Subclasses(dict):
    """A class -> whether it is ``of`` or a subclass of it (``isinstance`` of its instances), worked out once."""

    def __init__(self, of: type):
        super().__init__()
        self.of = of

    def __missing__(self, kind: type) -> bool:
        answer = self[kind] = issubclass(kind, self.of)
        return answer


_IS_PLAN, _IS_CHANGE = _Subclasses(c.ManoeuvrePlan), _Subclasses(c.AdjustAltitude)


def _kind(kind: type) -> int:
    """The bits of ``_KIND_CLASSES`` an option of class ``kind`` is an instance of (never 0: bit 1 << 11 is
    set), kept: isinstance depends on the class alone."""
    bits = 1 << len(_KIND_CLASSES)
    for bit, classes in enumerate(_KIND_CLASSES):
        if issubclass(kind, classes):
            bits |= 1 << bit
    _KINDS[kind] = bits
    return bits


class GreedyBot:
    """Scores every option one step ahead (see the module docstring)."""

    name = "greedy"

    def __init__(self, seed: int | str = 0):
        self.random = StableRandom(f"greedy-bot:{seed}")
        # Within one decision the state is fixed, so a position or a shot scored once is looked up after:
        # many plans end where others do. Keyed by object identity, with the objects kept alive beside
        # the value (so no id is reused while the table lives); emptied at each decision.
        self._positions: dict[tuple, tuple[Any, Any, float]] = {}
        #: The best end over the altitude choices (:meth:`_end_value`): many flights of one manoeuvre end
        #: where others do. Same keying and lifetime as ``_positions``.
        self._ends: dict[tuple, tuple[Any, Any, float]] = {}
        #: (state, aircraft, :meth:`_enemy_terms`) of the decision under way.
        self._enemy_cache: tuple[Any, Any, list[tuple]] | None = None
        #: :func:`_score_terms` of the decision under way.
        self._score_terms: tuple | None = None
        #: Weapons that bear, by weapons carried, band, arcs and relative Altitude (_weapon_terms): kept.
        self._terms: dict[tuple, tuple[Any, tuple[tuple[int, float], ...]]] = {}
        #: (state, aircraft, :class:`EndScorer`) of the decision under way.
        self._scorer_cache: tuple[Any, Any, EndScorer] | None = None
        #: (what :meth:`_scorer` reads of the aircraft and the state, and of the other side's aircraft, the
        #: catalogue, the scorer, the other side's aircraft) of the last scorer built or found.
        self._scorer_reads: tuple[tuple, tuple, Any, EndScorer, list] | None = None

    # ---------------------------------------------------------------- the decision

    def choose(self, session: Any, player: str, options: Sequence[Any]) -> Any:
        first = options[0]
        flags = _KINDS.get(type(first)) or _kind(type(first))  # isinstance by the option's class, worked out once
        if len(options) == 1 and not flags & _ASKED:
            # the one option is what scoring it, or picking it at random, gives
            if not flags & _SCORED_KIND:
                self.random.below(1)  # what random.choice of the one option draws, so the stream stays the same
            return first
        rules, state = session.ruleset, session.state
        self._positions.clear()
        self._ends.clear()
        self._enemy_cache = None
        self._score_terms = None
        if flags & _MANOEUVRE:
            aircraft = state.aircraft[first.aircraft]
            kinds, kind, aircraft_id = _KINDS, type(first), aircraft.id
            mine = [o for o in options if (type(o) is kind or (kinds.get(type(o)) or _kind(type(o))) & _MANOEUVRE)
                    and o.aircraft == aircraft_id]
            if aircraft.status != FLYING:
                return max(mine, key=lambda o: self._manoeuvre_value(rules, state, aircraft, o.manoeuvre))
            return mine[self._manoeuvre_best(rules, state, aircraft, [o.manoeuvre for o in mine])[1]]
        if flags & _FIRST_MOVER:
            # Moving last sees where the enemy went: make the opponent move first.
            return next(o for o in options if o.first != player)
        if flags & _THROTTLE:
            aircraft = state.aircraft[first.aircraft]
            return options[self._throttle_best(rules, state, aircraft, [o.change for o in options])[1]]
        if flags & _STEP:
            return options[self._step_best(rules, state, state.aircraft[state.active], options)]
        if flags & _PLACE:  # the set-up offers placements only (p.34)
            return self._best_placement(rules, state, options)
        kinds = _KINDS
        if any((kinds.get(type(o)) or _kind(type(o))) & _FIRING for o in options):
            return max(options, key=lambda o: self._volley_value(rules, state, o))
        if flags & _ROLL:
            return self._reroll_choice(state, options)
        if flags & _RESERVE:
            return max(options, key=lambda o: self._placement_value(rules, state, o))
        take_off = [o for o in options if (kinds.get(type(o)) or _kind(type(o))) & _TAKE_OFF]
        if take_off:
            return take_off[0]
        return self.random.choice(options)

    # ---------------------------------------------------------------- expected damage

    def expected_damage(self, rules: Any, firer: AircraftState, firer_pose: Pose, firer_altitude: int,
                        target: AircraftState, target_hex: Hex, target_altitude: int,
                        target_evading: bool) -> float:
        """Expected Structure lost by ``target`` if ``firer`` fired everything that bears on it."""
        table = _damage_table(rules.catalogue, firer.weapons, firer.ammo)
        dq, dr = target_hex[0] - firer_pose.hex[0], target_hex[1] - firer_pose.hex[1]
        by_altitude = table.setdefault((dq, dr, firer_pose.facing), {})
        key = (firer_altitude, target_altitude, target_evading)
        value = by_altitude.get(key)
        if value is None:
            value = by_altitude[key] = self._expected_damage(rules, firer, dq, dr, firer_pose.facing,
                                                             firer_altitude, target_altitude, target_evading)
        return value

    def _expected_damage(self, rules: Any, firer: AircraftState, dq: int, dr: int, facing: int, firer_altitude: int,
                         target_altitude: int, target_evading: bool) -> float:
        """:meth:`expected_damage` of a target ``(dq, dr)`` hexes from a firer facing ``facing``: it depends on
        nothing else (range, Fire Arc, Altitude and the firer's weapons, p.21-24), so it is kept in a table."""
        band, arcs = _geometry(dq, dr, facing)
        if band is None or target_altitude == 0 or firer_altitude == 0:
            return 0.0
        modifier = -abs(firer_altitude - target_altitude) - (1 if target_evading else 0)
        hit = chance(5, modifier)
        if hit == 0:
            return 0.0
        total = 0.0
        for dice, damage in self._weapon_terms(rules, firer, band, arcs, target_altitude - firer_altitude):
            total += dice * hit * damage
        return total

    def _weapon_terms(self, rules: Any, firer: AircraftState, band: str, arcs: frozenset[str],
                      climb: int) -> tuple[tuple[int, float], ...]:
        """The (Firepower dice, chance of a Damage roll) of each weapon of ``firer`` that bears on a target in
        ``arcs`` at ``band``, ``climb`` Altitude levels above it (p.21-24), in the order of its weapons; the
        same for every aircraft with the same weapons and Ammo left, so worked out once."""
        catalogue = rules.catalogue
        key = (id(catalogue), firer.weapons, firer.ammo, band, arcs, (climb > 0) - (climb < 0))
        known = self._terms.get(key)
        if known is not None and known[0] is catalogue:
            return known[1]
        terms = []
        for weapon_id, ammo in zip(firer.weapons, firer.ammo, strict=False):
            if ammo == 0:
                continue
            weapon = catalogue.weapons[weapon_id]
            if weapon.has_rule("ground_attack") or weapon.has_rule("ground_to_air"):
                continue
            weapon_arcs = weapon.fire_arc.arcs
            if "all_round" not in weapon_arcs and not arcs.intersection(weapon_arcs):
                continue
            vertical = weapon.fire_arc.vertical
            if (vertical == "up" and climb < 0) or (vertical == "down" and climb > 0):
                continue
            dice = weapon.firepower[_BAND_INDEX[band]]
            if not dice:
                continue
            damage = chance(weapon.damage, 0)
            extra = weapon.rule_value("extra_damage")
            if extra is not None:
                damage += chance(extra, 0)
            terms.append((dice, damage))
        self._terms[key] = (catalogue, tuple(terms))
        return tuple(terms)

    # ---------------------------------------------------------------- positions

    def _enemies(self, state: GameState, aircraft: AircraftState) -> list[AircraftState]:
        return [a for a in state.aircraft.values()
                if a.owner != aircraft.owner and a.status == FLYING and not a.ground_defence]

    def _enemy_terms(self, rules: Any, state: GameState, aircraft: AircraftState) -> list[tuple]:
        """What :meth:`_exchange` needs of each enemy, worked out once per decision: where it is, its
        Altitude, whether it evades (Stall or Spin), the weight of its threat and exposure, its worth, and
        the damage tables of both sides' weapons."""
        known = self._enemy_cache
        if known is not None and known[0] is state and known[1] is aircraft:
            return known[2]
        catalogue = rules.catalogue
        mine = _damage_table(catalogue, aircraft.weapons, aircraft.ammo)
        terms = []
        for enemy in self._enemies(state, aircraft):
            # An enemy that has not moved yet will not be where it is now: its threat and its
            # exposure count for less (UNMOVED_WEIGHT).
            certainty = 1.0 if enemy.moved or state.phase != "movement" else UNMOVED_WEIGHT
            terms.append((enemy, enemy.hex[0], enemy.hex[1], enemy.facing, enemy.altitude,
                          enemy.stalled or enemy.spinning, certainty, certainty * _point_value(enemy), mine,
                          _damage_table(catalogue, enemy.weapons, enemy.ammo)))
        self._enemy_cache = (state, aircraft, terms)
        return terms

    def position_value(self, rules: Any, state: GameState, aircraft: AircraftState, hex: Hex, facing: int,
                       altitude: int, speed: int, stalled: bool, off_board: bool) -> float:
        """How good it is for ``aircraft`` to end its move here, in Victory points (see the module docstring).

        A Structure point is worth the aircraft's points over its Structure: damage is what turns an
        aircraft into Victory points (p.32).
        """
        key = (id(state), id(aircraft), hex, facing, altitude, speed, stalled, off_board)
        known = self._positions.get(key)
        if known is not None and known[0] is state and known[1] is aircraft:
            return known[2]
        value = self._position_value(rules, state, aircraft, hex, facing, altitude, speed, stalled, off_board)
        self._positions[key] = (state, aircraft, value)
        return value

    def _exchange(self, rules: Any, state: GameState, aircraft: AircraftState, unit: float, hex: Hex, facing: int,
                  altitude: int, stalled: bool) -> float:
        """The damage ``aircraft`` can expect to deal less that it can expect to take, ending here, and the
        pull towards the nearest enemy (the first terms of :meth:`position_value`)."""
        rows, closing = self._exchange_rows(rules, state, aircraft, unit, hex, facing)
        return self._exchange_at(rules, aircraft, rows, closing, facing, altitude, stalled)

    def _exchange_rows(self, rules: Any, state: GameState, aircraft: AircraftState, unit: float, hex: Hex,
                       facing: int) -> tuple[list[tuple], float | None]:
        """What :meth:`_exchange` needs at (hex, facing) whatever the Altitude: the offset of each enemy within
        range and the damage tables of both sides at that offset, and the pull towards the nearest enemy."""
        rows = []
        nearest = None
        q, r = hex
        for (enemy, eq, er, efacing, ealtitude, evading, certainty, worth, mine, theirs) \
                in self._enemy_terms(rules, state, aircraft):
            dq, dr = eq - q, er - r
            gap = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
            nearest = gap if nearest is None or gap < nearest else nearest
            if not 0 < gap <= MAX_RANGE:
                continue  # out of range both ways (p.22): it adds nothing but the pull towards it
            dealt = mine.get((dq, dr, facing))
            if dealt is None:
                dealt = mine[(dq, dr, facing)] = {}
            taken = theirs.get((-dq, -dr, efacing))
            if taken is None:
                taken = theirs[(-dq, -dr, efacing)] = {}
            rows.append((enemy, dq, dr, efacing, ealtitude, evading, certainty * DEFENCE_WEIGHT * unit, worth, dealt,
                         taken))
        return rows, (CLOSING_WEIGHT * unit * nearest if nearest is not None else None)

    def _exchange_at(self, rules: Any, aircraft: AircraftState, rows: list[tuple], closing: float | None,
                     facing: int, altitude: int, stalled: bool) -> float:
        """:meth:`_exchange` from :meth:`_exchange_rows` at ``altitude``."""
        value = 0.0
        for enemy, dq, dr, efacing, ealtitude, evading, defence, worth, dealt_at, taken_at in rows:
            key = (altitude, ealtitude, evading)
            dealt = dealt_at.get(key)
            if dealt is None:
                dealt = dealt_at[key] = self._expected_damage(rules, aircraft, dq, dr, facing, altitude, ealtitude,
                                                              evading)
            key = (ealtitude, altitude, stalled)
            taken = taken_at.get(key)
            if taken is None:
                taken = taken_at[key] = self._expected_damage(rules, enemy, -dq, -dr, efacing, ealtitude, altitude,
                                                              stalled)
            value += worth * dealt
            value -= defence * taken
        if closing is not None:
            value -= closing
        return value

    def _position_value(self, rules: Any, state: GameState, aircraft: AircraftState, hex: Hex, facing: int,
                        altitude: int, speed: int, stalled: bool, off_board: bool) -> float:
        if off_board:
            return -10.0 * max(aircraft.points, 1)
        profile = rules.profile(aircraft)
        unit = _point_value(aircraft)
        exchange = self._exchange(rules, state, aircraft, unit, hex, facing, altitude, stalled)
        return _score(aircraft, profile, unit, exchange, _room(rules.board(state), hex, facing), altitude, speed,
                      stalled)

    def _flight_value(self, rules: Any, state: GameState, aircraft: AircraftState, flight: movement.Flight,
                      speed: int, stalled: bool) -> float:
        """The best value over the altitude choices after flying ``flight`` at ``speed``."""
        off_board = movement.first_off_board(rules.board(state), flight.path) is not None
        end = flight.path[-1] if flight.path else aircraft.hex
        return self._end_value(rules, state, aircraft, end, flight.final_facing, off_board, speed, stalled)

    def _end_value(self, rules: Any, state: GameState, aircraft: AircraftState, end: Hex, facing: int,
                   off_board: bool, speed: int, stalled: bool) -> float:
        """The best :meth:`position_value` over the altitude choices (p.18) of a flight at ``speed`` ending at
        (end, facing): :func:`_score` of each, its terms worked out once per decision."""
        key = (id(state), id(aircraft), end, facing, off_board, speed, stalled)
        known = self._ends.get(key)
        if known is not None and known[0] is state and known[1] is aircraft:
            return known[2]
        if off_board:
            best = -10.0 * max(aircraft.points, 1)  # whatever the Altitude
            self._ends[key] = (state, aircraft, best)
            return best
        terms = self._score_terms
        if terms is None or terms[0] is not state or terms[1] is not aircraft:
            terms = self._score_terms = _score_terms(rules, state, aircraft)
        (_, _, _, unit, rooms, stall_penalty, breaking_up, edge_penalty, max_altitude, min_speed,
         max_speed, start_altitude, crash_penalty) = terms
        room = rooms.get((end, facing))
        if room is None:
            room = _room(rules.board(state), end, facing)
        rows, closing = self._exchange_rows(rules, state, aircraft, unit, end, facing)
        best = None
        for change in movement.altitude_options(speed):
            altitude = start_altitude + change
            new_speed = speed - 1 if change > 0 else speed + 1 if change < 0 else speed
            stall = stalled or (change > 0 and (altitude > max_altitude or new_speed < min_speed))
            # _exchange_at, inline (this loop is the greedy bot's hottest)
            value = 0.0
            for enemy, dq, dr, efacing, ealtitude, evading, defence, worth, dealt_at, taken_at in rows:
                dealt = dealt_at.get((altitude, ealtitude, evading))
                if dealt is None:
                    dealt = dealt_at[(altitude, ealtitude, evading)] = self._expected_damage(
                        rules, aircraft, dq, dr, facing, altitude, ealtitude, evading)
                taken = taken_at.get((ealtitude, altitude, stall))
                if taken is None:
                    taken = taken_at[(ealtitude, altitude, stall)] = self._expected_damage(
                        rules, enemy, -dq, -dr, efacing, ealtitude, altitude, stall)
                value += worth * dealt
                value -= defence * taken
            if closing is not None:
                value -= closing
            # _score, with its products worked out once (the same arithmetic in the same order)
            if stall and stall_penalty is not None:
                value -= stall_penalty
            if altitude <= 0:
                value -= crash_penalty
            if new_speed > max_speed:
                value -= breaking_up
            needed = max(new_speed, min_speed)
            if room < needed:
                value -= edge_penalty * (needed - room)
            if best is None or value > best:
                best = value
        self._ends[key] = (state, aircraft, best)
        return best

    def _ends_value(self, rules: Any, state: GameState, aircraft: AircraftState, manoeuvre: Any, speed: int,
                    stalled: bool, straight_stalls: bool = True) -> float:
        """The best :meth:`_end_value` over every way of flying ``manoeuvre`` (None: straight ahead) at
        ``speed`` from where the aircraft is (straight ahead when too slow to complete it, p.17); with
        ``straight_stalls``, a flight that is not the manoeuvre's own counts as stalled."""
        best = None
        for end, facing, staged, off_board in _flight_ends(rules.board(state), aircraft.hex, aircraft.facing,
                                                           manoeuvre, speed):
            value = self._end_value(rules, state, aircraft, end, facing, off_board, speed,
                                    stalled or (straight_stalls and not staged))
            best = value if best is None else max(best, value)
        return best

    def _manoeuvre_value(self, rules: Any, state: GameState, aircraft: AircraftState, number: int) -> float:
        """The best value reachable with manoeuvre ``number`` over the throttle settings, one end at a time: the
        definition :meth:`_manoeuvre_values` computes at once for a flying aircraft."""
        if aircraft.status != FLYING:
            return 1.0 if number == 1 else 0.0  # a landed aircraft takes off with manoeuvre 1
        profile = rules.profile(aircraft)
        manoeuvre = rules.manoeuvres.get(number)
        best = -1e9
        for change in movement.throttle_options(profile, aircraft.speed, rules.options.throttle_past_limits):
            speed = aircraft.speed + change
            best = max(best, self._ends_value(rules, state, aircraft, manoeuvre, speed, speed < profile.min_speed))
        return best

    def _manoeuvre_values(self, rules: Any, state: GameState, aircraft: AircraftState,
                          numbers: Sequence[int]) -> np.ndarray:
        """:meth:`_manoeuvre_value` of each manoeuvre of ``numbers`` for a flying aircraft: every flight of every
        one at every Throttle setting (p.15-17) scored at once (:mod:`.greedy_tables`), the same values."""
        return self._manoeuvre_best(rules, state, aircraft, numbers)[0]

    def _manoeuvre_best(self, rules: Any, state: GameState, aircraft: AircraftState,
                        numbers: Sequence[int]) -> tuple[np.ndarray, int]:
        """:meth:`_manoeuvre_values` and the index of the first best (``argmax``), kept with the block's kept values
        (``_SEGMENT_BEST``)."""
        scorer, table, numbers = self._scorer(rules, state, aircraft), rules.manoeuvres, tuple(numbers)
        past_limits = rules.options.throttle_past_limits
        key = ("manoeuvre", id(scorer), *aircraft.hex, aircraft.facing, aircraft.speed, numbers, id(table), past_limits)
        known = _DECIDED.get(key)
        if known is not None and known[0] is scorer and known[1] is table:
            return known[3], known[4]
        profile = rules.profile(aircraft)
        speed = aircraft.speed
        speeds = tuple([speed + change for change in movement.throttle_options(profile, speed, past_limits)])
        block = flight_block(_manoeuvres_of(table, numbers), aircraft.facing, speeds)
        values = self._block_values(rules, state, aircraft, block, _stall_rows("manoeuvre", profile.min_speed),
                                    scorer=scorer)

        def best_of(values: np.ndarray) -> np.ndarray:
            # a manoeuvre's segments (one per Speed) are side by side: its best is the maximum from its first
            # segment's start to the next manoeuvre's (max is exact: the same as the best of each Speed's best)
            return np.maximum(np.maximum.reduceat(values, block.starts[::len(speeds)]), -1e9)

        best, index = _segment_best(values, block, best_of)
        _decided(key, values, scorer, table, None, best, index)
        return best, index

    def _throttle_values(self, rules: Any, state: GameState, aircraft: AircraftState,
                         changes: Sequence[int]) -> np.ndarray:
        """:meth:`_throttle_value` of each Speed change of ``changes`` (p.15), scored at once."""
        return self._throttle_best(rules, state, aircraft, changes)[0]

    def _throttle_best(self, rules: Any, state: GameState, aircraft: AircraftState,
                       changes: Sequence[int]) -> tuple[np.ndarray, int]:
        """:meth:`_throttle_values` and the index of the first best (``argmax``), kept likewise."""
        scorer, table, changes = self._scorer(rules, state, aircraft), rules.manoeuvres, tuple(changes)
        key = ("throttle", id(scorer), *aircraft.hex, aircraft.facing, aircraft.speed, aircraft.stalled,
               aircraft.revealed, changes, id(table))
        known = _DECIDED.get(key)
        if known is not None and known[0] is scorer and known[1] is table:
            scorer.known = known[2]  # the ends the plans and the Altitude change of this move read
            return known[3], known[4]
        profile = rules.profile(aircraft)
        manoeuvre = table.get(aircraft.revealed) if aircraft.revealed is not None else None
        speed = aircraft.speed
        block = flight_block((manoeuvre,), aircraft.facing, tuple([speed + change for change in changes]))
        rows = _stall_rows("throttle", profile.min_speed, profile.can_hover, aircraft.stalled)
        values = self._block_values(rules, state, aircraft, block, rows, remember=True, scorer=scorer)
        best, index = _segment_best(values, block, lambda values: np.maximum.reduceat(values, block.starts))
        _decided(key, values, scorer, table, scorer.known, best, index)
        return best, index

    def _step_values(self, rules: Any, state: GameState, aircraft: AircraftState, options: Sequence[Any]) -> list:
        """:meth:`_step_value` of each option; the plans' flights scored at once."""
        is_plan, is_change = _IS_PLAN, _IS_CHANGE  # isinstance by the option's class, worked out once
        plans = [index for index, option in enumerate(options) if is_plan[type(option)]]
        values: list[Any] = [None] * len(options)
        if len(plans) < len(options):
            column = self._altitude_column(rules, state, aircraft) \
                if any(is_change[type(option)] for option in options) else None
            planned = set(plans)
            for index, option in enumerate(options):
                if index in planned:
                    continue
                value = None
                if column is not None and is_change[type(option)] and option.change in _CHANGE_INDEX:
                    value = column[_CHANGE_INDEX[option.change]]
                    if value == -np.inf:
                        value = None  # a change the Speed does not allow: scored alone
                values[index] = self._step_value(rules, state, aircraft, option) if value is None else value
        if plans:
            scored, legal = self._plan_values(rules, state, aircraft, [options[index] for index in plans])
            if scored is not None:
                for index, value in zip(legal, scored.tolist(), strict=True):
                    values[plans[index]] = value
            for index in plans:
                if values[index] is None:
                    values[index] = -1e9
        return values

    def _step_best(self, rules: Any, state: GameState, aircraft: AircraftState, options: Sequence[Any]) -> int:
        """The index of the first best option of :meth:`_step_values` (as ``max`` over them picks it); when every
        option is a legal plan, the first maximum of the plans' values at once (``argmax``, the same index); when every
        option is an Altitude change read from the Throttle decision's column, :meth:`_altitude_best` (kept whole)."""
        kinds = list(map(type, options))
        if all(map(_IS_PLAN.__getitem__, kinds)):
            scored, legal = self._plan_values(rules, state, aircraft, options)
            if scored is not None and len(legal) == len(options):
                return int(scored.argmax())
        elif all(map(_IS_CHANGE.__getitem__, kinds)):
            index = self._altitude_best(rules, state, aircraft, tuple([option.change for option in options]))
            if index is not None:
                return index
        values = self._step_values(rules, state, aircraft, options)
        return max(range(len(options)), key=values.__getitem__)

    def _altitude_best(self, rules: Any, state: GameState, aircraft: AircraftState, changes: tuple[int, ...]
                       ) -> int | None:
        """The index of the first best of the Altitude ``changes`` (p.18) when each is read from the Throttle decision's
        column of the aircraft's end (:meth:`_altitude_column`, a change its Speed allows), as :meth:`_step_values`
        reads them, else None. Kept in ``_ALTITUDE_BEST`` by what it is read from: the scorer's kept ends (the very
        object :meth:`EndScorer.remember` made), the end (hex, facing, Speed, Stalled) and the changes."""
        known = self._scorer(rules, state, aircraft).known
        if known is None:
            return None
        key = (id(known), *aircraft.hex, aircraft.facing, aircraft.speed, aircraft.stalled, changes)
        found = _ALTITUDE_BEST.get(key)
        if found is not None and found[0] is known:
            return found[1]
        column = self._altitude_column(rules, state, aircraft)
        if column is None or not all(change in _CHANGE_INDEX for change in changes):
            return None
        values = [column[_CHANGE_INDEX[change]] for change in changes]
        if -np.inf in values:
            return None  # a change the Speed does not allow: _step_values scores it alone
        index = max(range(len(changes)), key=values.__getitem__)
        if len(_ALTITUDE_BEST) > 1 << 13:
            _ALTITUDE_BEST.clear()
        _ALTITUDE_BEST[key] = (known, index)
        return index

    def _plan_values(self, rules: Any, state: GameState, aircraft: AircraftState, plans: Sequence[Any]
                     ) -> tuple[np.ndarray | None, list[int]]:
        """The values of the legal plans of ``plans``, their flights scored at once (:func:`_plan_block`), and the
        indexes of those plans (None: none is legal)."""
        block, legal = _plan_block(rules, aircraft, plans)
        if block is None:
            return None, legal
        return self._block_values(rules, state, aircraft, block, _stall_rows("plan", 0, False, aircraft.stalled),
                                  recall=True), legal

    def _altitude_column(self, rules: Any, state: GameState, aircraft: AircraftState) -> list[float] | None:
        """The value of each Altitude change of ``CHANGES`` (p.18) where the aircraft ends its flight, as
        :meth:`_step_value` scores an :class:`~.commands.AdjustAltitude` (its :meth:`position_value`), if the
        Throttle decision of this move scored that end with the same scorer (:meth:`EndScorer.remember`; the
        enemies and the aircraft's terms unchanged since), else None."""
        scorer = self._scorer(rules, state, aircraft)
        hex = aircraft.hex
        if scorer.known is None or aircraft.speed >= SPEEDS:
            return None
        return scorer.recall_end(hex[0] * Q_STRIDE + hex[1] * R_STRIDE, aircraft.facing,
                                 2 * aircraft.speed + bool(aircraft.stalled))

    def _block_values(self, rules: Any, state: GameState, aircraft: AircraftState, block: FlightBlock,
                      rows: np.ndarray, remember: bool = False, recall: bool = False,
                      scorer: EndScorer | None = None) -> np.ndarray:
        """:meth:`_end_value` of every flight of ``block`` flown from where the aircraft is, Stalled as
        ``rows`` says (:func:`_stall_rows`): at once, or one by one where the tables do not reach (far off the
        board). ``remember``: keep the values of the ends on the scorer (the Throttle decision: the plans of
        the same move come next); ``recall``: take them from there when all are kept (an end is its frame index,
        facing and row as one integer, :meth:`EndScorer.remember`). Kept in ``_BLOCK_VALUES`` by the scorer,
        the block, where it starts and the rows: nothing else goes into them. ``scorer``: :meth:`_scorer`, when the
        caller has it."""
        hex = aircraft.hex
        if scorer is None:
            scorer = self._scorer(rules, state, aircraft)
        here = hex[0] * Q_STRIDE + hex[1] * R_STRIDE
        # The values depend on nothing but the scorer, the flights, where they start and how they stall: seeded
        # games of one set-up meet the same decisions again and again (they part only by the dice). Only values
        # worked out where the scorer covers the block from the hex are kept (below), so a kept one answers.
        key = (id(scorer), id(block), here, id(rows), remember)
        known = _BLOCK_VALUES.get(key)
        if (known is not None and known[0] is scorer and known[1] is block and known[2] is rows
                and known[5] == hex):
            if remember:
                scorer.known = known[4]
            return known[3]
        board = rules.board(state)
        if scorer.covers(hex, block):
            terms = row_terms(block, rows, scorer)
            best = scorer.recall(block, here, terms[0]) if recall else None
            if best is None:
                columns = scorer.columns(block, here, terms)
                best = np.maximum.reduce(columns, axis=0)  # columns.max(axis=0)
                if remember:
                    scorer.remember(block, here, terms[0], best, columns)
            best = best.take(block.inverse)
            off_board = block.crossing_off_board(board, hex, scorer.rooms)
            values = best if off_board is block.stays_on else np.where(off_board, scorer.off_board_value, best)
            values.setflags(write=False)
            if len(_BLOCK_VALUES) > 1 << 13:
                _BLOCK_VALUES.clear()
            _BLOCK_VALUES[key] = (scorer, block, rows, values, scorer.known if remember else None, (hex[0], hex[1]))
            return values
        off_board = block.crossing_off_board(board, hex, scorer.rooms)
        stalled = (rows.take(block.distinct_speed_staged) & 1).astype(bool).take(block.inverse)
        return np.array([self._end_value(rules, state, aircraft, Hex(hex[0] + q, hex[1] + r), facing, off, speed,
                                         stall)
                         for q, r, facing, off, speed, stall in zip(
                             block.end_q.tolist(), block.end_r.tolist(), block.facing.tolist(), off_board.tolist(),
                             block.speed.tolist(), stalled.tolist(), strict=True)], dtype=np.float64)

    def _scorer(self, rules: Any, state: GameState, aircraft: AircraftState) -> EndScorer:
        """The :class:`~.greedy_tables.EndScorer` of ``aircraft`` in ``state``: the terms of :meth:`_end_value`
        worked out once, and kept by their values (a scorer is built from nothing else), so that the
        decisions of one aircraft's move share it while the enemies stay where they are."""
        known = self._scorer_cache
        if known is not None and known[0] is state and known[1] is aircraft:
            return known[2]
        # What the scorer is built from, read cheaply: the aircraft's own terms and what _build_scorer reads of
        # the other side's aircraft; within one move only the aircraft's hex, facing and Speed change, which no
        # scorer reads. Seeded games of one set-up meet equal states again: the scorers are kept by these values.
        catalogue = rules.catalogue
        owner = aircraft.owner
        objects = [other for other in state.aircraft.values() if other.owner != owner]
        reads = _own_reads(rules, state, aircraft)
        last = self._scorer_reads
        if last is not None and last[4] == objects:
            others = last[1]  # the same aircraft, or equal ones (a list compares by identity first): the same values
        else:
            others = _others_read(objects)
        if last is not None and last[0] == reads and last[1] == others and last[2] is catalogue:
            self._scorer_cache = (state, aircraft, last[3])
            return last[3]
        key = (reads, others)
        kept = _SCORERS_BY_READS.get(key)
        if kept is not None and kept[0] is catalogue:
            scorer = kept[1]
        else:
            scorer = self._build_scorer(rules, state, aircraft, reads, others)
            if len(_SCORERS_BY_READS) > 1 << 13:
                _SCORERS_BY_READS.clear()
            _SCORERS_BY_READS[key] = (catalogue, scorer)
        self._scorer_reads = (reads, others, catalogue, scorer, objects)
        self._scorer_cache = (state, aircraft, scorer)
        return scorer

    def _build_scorer(self, rules: Any, state: GameState, aircraft: AircraftState, reads: tuple | None = None,
                      others: tuple | None = None) -> EndScorer:
        """The :class:`~.greedy_tables.EndScorer` of :meth:`_scorer` (``reads`` and ``others`` what it read of
        the aircraft and of the other side's aircraft, in the state's order), looked up by the values it is
        built from or built; the aircraft's own terms and each enemy's are kept by what they are read from
        (:meth:`_own_terms`, :meth:`_enemy_record`)."""
        if reads is None or others is None:
            return self._scorer_built(rules, state, aircraft)
        catalogue, board = rules.catalogue, rules.board(state)
        own = self._own_terms(rules, state, aircraft, reads)
        moving = reads[2]
        records = [self._enemy_record(rules, own, other, moving) for other in others
                   if other[0] == FLYING and not other[1]]  # the enemies of _enemies, in the state's order
        key = own[0] + (tuple([record[0] for record in records]),) + own[1]
        cached = _SCORERS.get(key)
        if cached is not None and cached[0] is catalogue and cached[1] is board:
            return cached[2]
        scorer = EndScorer([record[1] for record in records], *own[2])
        if len(_SCORERS) > 1 << 13:
            _SCORERS.clear()
        _SCORERS[key] = (catalogue, board, scorer)
        return scorer

    def _own_terms(self, rules: Any, state: GameState, aircraft: AircraftState, reads: tuple) -> tuple:
        """What a scorer reads of the aircraft alone, by ``reads`` (see :meth:`_scorer`): the start and the end
        of the key of :data:`_SCORERS`, the arguments of :class:`~.greedy_tables.EndScorer` after the enemies,
        its damage grid and the worth of a Structure point."""
        catalogue = rules.catalogue
        known = _OWN_TERMS.get(reads)
        if known is not None and known[0] is catalogue:
            return known[1]
        (_, _, _, unit, _, stall_penalty, breaking_up, edge_penalty, max_altitude, min_speed, max_speed,
         start_altitude, crash_penalty) = _score_terms(rules, state, aircraft)
        board = rules.board(state)
        off_board_value = -10.0 * max(aircraft.points, 1)
        own = ((id(catalogue), id(board), aircraft.weapons, tuple([left == 0 for left in aircraft.ammo])),
               (unit, stall_penalty, breaking_up, edge_penalty, max_altitude, min_speed, max_speed, start_altitude,
                crash_penalty, off_board_value),
               (CLOSING_WEIGHT * unit, _room_table(board), start_altitude, stall_penalty, crash_penalty, breaking_up,
                edge_penalty, max_altitude, min_speed, max_speed, off_board_value,
                _speed_tables(start_altitude, stall_penalty, breaking_up, edge_penalty, max_altitude, min_speed,
                              max_speed, crash_penalty)),
               self._damage_grid(rules, aircraft), unit, start_altitude)
        if len(_OWN_TERMS) > 1 << 12:
            _OWN_TERMS.clear()
        _OWN_TERMS[reads] = (catalogue, own)
        return own

    def _enemy_record(self, rules: Any, own: tuple, other: tuple, moving: bool) -> tuple:
        """(what the key of :data:`_SCORERS` holds of an enemy, its :class:`~.greedy_tables.EnemyTerms`) from
        what :meth:`_scorer` reads of it (``other``) against the aircraft of ``own`` (:meth:`_own_terms`) in
        the Movement phase or not; kept by those and the three own terms it reads, so that an unmoved enemy is met
        again by the next scorer, and the enemies of a turn by every aircraft of the side at the same Altitude with
        the same weapons (p.10)."""
        grid = own[3]  # of the own terms, the record reads the damage grid, the worth of a point and the Altitude
        key = (other, moving, id(grid), own[4], own[5])
        known = _ENEMY_RECORDS.get(key)
        if known is not None and known[0] is grid:
            return known[1]
        (_, _, q, r, facing, altitude, stalled, spinning, moved, points, starting_structure, weapons, ammo) = other
        unit, start_altitude = own[4], own[5]
        # as _enemy_terms and _exchange_rows weigh them
        certainty = 1.0 if moved or not moving else UNMOVED_WEIGHT
        worth = points / max(starting_structure, 1) if points else 5.0  # _point_value
        term = (q, r, facing, altitude, stalled or spinning, certainty * DEFENCE_WEIGHT * unit,
                certainty * worth, weapons, tuple([left == 0 for left in ammo]))
        record = (term, EnemyTerms(*term[:7], grid, self._weapons_grid(rules, weapons, ammo, term[8]), start_altitude))
        if len(_ENEMY_RECORDS) > 1 << 14:
            _ENEMY_RECORDS.clear()
        _ENEMY_RECORDS[key] = (grid, record)
        return record

    def _scorer_built(self, rules: Any, state: GameState, aircraft: AircraftState) -> EndScorer:
        """:meth:`_build_scorer` from the state alone (what it reads, read here)."""
        owner = aircraft.owner
        others = _others_read([other for other in state.aircraft.values() if other.owner != owner])
        return self._build_scorer(rules, state, aircraft, _own_reads(rules, state, aircraft), others)

    def _damage_grid(self, rules: Any, firer: AircraftState) -> np.ndarray:
        """:func:`~.greedy_tables.damage_grid` of the weapons ``firer`` carries with the Ammo it has left, kept
        beside :func:`_damage_table`."""
        return self._weapons_grid(rules, firer.weapons, firer.ammo)

    def _weapons_grid(self, rules: Any, weapons: tuple[str, ...], ammo: tuple[int | None, ...],
                      spent: tuple[bool, ...] | None = None) -> np.ndarray:
        """:meth:`_damage_grid` of an aircraft carrying ``weapons`` with ``ammo`` left (only which are spent
        counts: ``spent``, when the caller has it)."""
        catalogue = rules.catalogue
        key = (id(catalogue), weapons, tuple([left == 0 for left in ammo]) if spent is None else spent)
        known = _DAMAGE_GRIDS.get(key)
        if known is None or known[0] is not catalogue:
            firer = _Armed(weapons, ammo)
            grid = damage_grid(lambda band, arcs, above: self._weapon_terms(rules, firer, band, arcs, above), chance)
            known = _DAMAGE_GRIDS[key] = (catalogue, grid)
        return known[1]

    def _throttle_value(self, rules: Any, state: GameState, aircraft: AircraftState, change: int) -> float:
        """The best value reachable with the revealed manoeuvre after the Throttle ``change`` (p.15), one end
        at a time: the definition :meth:`_throttle_values` computes at once."""
        profile = rules.profile(aircraft)
        speed = aircraft.speed + change
        stalled = speed < profile.min_speed and not profile.can_hover
        manoeuvre = rules.manoeuvres.get(aircraft.revealed) if aircraft.revealed is not None else None
        return self._ends_value(rules, state, aircraft, manoeuvre, speed, stalled or aircraft.stalled, False)

    def _step_value(self, rules: Any, state: GameState, aircraft: AircraftState, option: Any) -> float:
        """The value of a step of the move (a plan, p.16-17; an Altitude change, p.18; hovering, landing,
        boosting out), one at a time: :meth:`_step_values` scores the plans at once."""
        profile = rules.profile(aircraft)
        if isinstance(option, c.ManoeuvrePlan):
            flight = movement.plan_flight(rules, aircraft, option.side, tuple(option.stage_hexes),
                                          tuple(option.facings))
            if flight is None:
                return -1e9
            return self._flight_value(rules, state, aircraft, flight, aircraft.speed,
                                      aircraft.stalled or not flight.stage_hexes)
        if isinstance(option, c.AdjustAltitude):
            altitude = aircraft.altitude + option.change
            speed = aircraft.speed - 1 if option.change > 0 else aircraft.speed + 1 if option.change < 0 \
                else aircraft.speed
            stalled = aircraft.stalled or (option.change > 0 and (altitude > profile.max_altitude
                                                                  or speed < profile.min_speed))
            return self.position_value(rules, state, aircraft, aircraft.hex, aircraft.facing, altitude, speed,
                                       stalled, False)
        if isinstance(option, c.Hover):
            return self.position_value(rules, state, aircraft, aircraft.hex, option.facing, aircraft.altitude, 0,
                                       False, False)
        if isinstance(option, c.RocketBoostOut):
            return -aircraft.points * 0.5 if aircraft.damaged else -aircraft.points
        return -1.0  # landing in a Dogfight only makes the aircraft a ground target

    # ---------------------------------------------------------------- firing

    def _volley_value(self, rules: Any, state: GameState, option: Any) -> float:
        if isinstance(option, c.PassFiring):
            return 0.0
        if isinstance(option, c.LaunchAutonomous):
            return 0.5
        firer = state.aircraft[option.aircraft]
        value = 0.0
        for shot in option.shots:
            target = state.aircraft.get(shot.target) if shot.target else None
            if target is None:
                value += 0.2 if shot.target else 0.0  # a ground target: something, but not an aircraft
                continue
            weapon_id = firer.weapons[shot.weapon_index]
            # expected_damage reads only the firer's weapons and Ammo (_damage_table, _weapon_terms)
            single = _Armed((weapon_id,), (firer.ammo[shot.weapon_index],))
            expected = self.expected_damage(rules, single, Pose(firer.hex, firer.facing), firer.altitude,
                                            target, target.hex, target.altitude,
                                            target.stalled or target.spinning)
            if firer.ammo[shot.weapon_index] is not None:
                expected -= 0.25  # a limited shot spent now is not there later
            value += expected
        return value + 0.01 * len(option.shots)

    def _reroll_choice(self, state: GameState, options: Sequence[Any]) -> Any:
        """Re-roll a to-hit or damage roll that scored less than half of what it could expect."""
        pending = getattr(state, "volley", None)
        roll = getattr(getattr(pending, "pending", None), "roll", None)
        reroll = next((o for o in options if isinstance(o, c.UseReroll)), None)
        accept = next(o for o in options if isinstance(o, c.AcceptRoll))
        if reroll is None or roll is None or roll.target is None:
            return accept
        modifier = roll.total_modifier
        expected = roll.count * chance(roll.target, modifier)
        scored = sum(1 for face in roll.faces if face != 1 and max(1, face + modifier) >= roll.target)
        return reroll if scored < expected / 2 else accept

    # ---------------------------------------------------------------- set-up

    def _best_placement(self, rules: Any, state: GameState, options: Sequence[Any]) -> Any:
        """``max(options, key=_placement_value)``: the first of the best placements, worked out over the axes of
        the set-up's lazy placement products (hex, facing, Speed, Altitude) with the same arithmetic, without
        building a command for each of the tens of thousands."""
        parts = getattr(options, "_parts", None) or [options]
        board = rules.board(state)
        best_value, best_index, start = None, 0, 0
        for part in parts:
            axes = getattr(part, "_axes", None)
            if axes is None or len(axes) != 4 or not len(part) or not isinstance(part[0], c.PlaceAircraft):
                return max(options, key=lambda o: self._placement_value(rules, state, o))
            profile = rules.profile(state.aircraft[part[0].aircraft])
            value, index = _best_placed(board, *axes, profile.min_speed, profile.max_speed, profile.max_altitude)
            if best_value is None or value > best_value:
                best_value, best_index = value, start + index
            start += len(part)
        return options[best_index]

    def _placement_value(self, rules: Any, state: GameState, option: Any) -> float:
        """Deploy in the middle of the edge, facing the far side, at a middling Speed and Altitude."""
        board = rules.board(state)
        aircraft = state.aircraft[option.aircraft]
        profile = rules.profile(aircraft)
        column, _ = board.to_offset(option.hex)
        centre = -abs(column - board.columns / 2)
        room = _room_ahead(board, option.hex, option.facing, 8)
        speed = getattr(option, "speed", profile.max_speed)
        middle_speed = -abs(speed - (profile.min_speed + profile.max_speed) / 2)
        middle_altitude = -abs(option.altitude - (profile.max_altitude + 1) / 2)
        return room * 1.0 + centre * 0.3 + middle_speed * 0.5 + middle_altitude * 0.5


def _score(aircraft: AircraftState, profile: Any, unit: float, exchange: float, room: int, altitude: int,
           speed: int, stalled: bool) -> float:
    """:meth:`GreedyBot.position_value` from its exchange of fire and the hexes of board straight ahead."""
    value = exchange
    if stalled and not profile.can_hover:
        value -= STALL_PENALTY * unit
    if altitude <= 0:
        value -= aircraft.points / 3  # a crash on a 1-2 (p.19)
    if speed > profile.max_speed:
        # Breaking Up: a hit on a 1-2 (p.19), and a damaged aircraft is worth 50% to the enemy (p.32).
        value -= (unit + (0 if aircraft.damaged else aircraft.points / 2)) / 3 + unit
    needed = max(speed, profile.min_speed)
    if room < needed:
        value -= EDGE_PENALTY_PER_HEX * unit * (needed - room)
    return value


def _score_terms(rules: Any, state: GameState, aircraft: AircraftState) -> tuple:
    """What :func:`_score` computes from the aircraft alone, once: (state, aircraft, profile, the worth of a
    Structure point, the board's room table, the Stall penalty (None when it may hover), the Breaking Up
    penalty, the edge penalty per hex, Max Altitude, Min Speed, Max Speed, its Altitude, the Crash penalty)."""
    profile = rules.profile(aircraft)
    unit = _point_value(aircraft)
    board = rules.board(state)
    _room(board, aircraft.hex, aircraft.facing)  # the board's table exists from here on
    rooms = _ROOMS[id(board)][1]
    return (state, aircraft, profile, unit, rooms, None if profile.can_hover else STALL_PENALTY * unit,
            (unit + (0 if aircraft.damaged else aircraft.points / 2)) / 3 + unit, EDGE_PENALTY_PER_HEX * unit,
            profile.max_altitude, profile.min_speed, profile.max_speed, aircraft.altitude, aircraft.points / 3)


#: id of a board -> (board, {(hex, facing): hexes straight ahead on the board, up to _ROOM_LIMIT}).
_ROOMS: dict[int, tuple[Any, dict[tuple[Hex, int], int]]] = {}
#: More than any Speed or look-ahead asks for (the dial runs 0-9, p.15).
_ROOM_LIMIT = 24


def _room(board: Any, hex: Hex, facing: int) -> int:
    """How many hexes straight ahead of (hex, facing) stay on the board, up to ``_ROOM_LIMIT``: the room for
    ``n`` hexes is ``min(_room(...), n)``."""
    known = _ROOMS.get(id(board))
    if known is None or known[0] is not board:
        known = _ROOMS[id(board)] = (board, {})
    rooms = known[1]
    room = rooms.get((hex, facing))
    if room is None:
        room = rooms[(hex, facing)] = _room_ahead(board, hex, facing, _ROOM_LIMIT)
    return room


#: (id of the board, hexes, facings) -> (board, :func:`_places`): every set-up of a scenario offers the same.
_PLACES: dict[tuple, tuple[Any, np.ndarray]] = {}


def _places(board: Any, hexes: Sequence[Hex], facings: Sequence[int]) -> np.ndarray:
    """The place terms of :meth:`GreedyBot._placement_value` (the room ahead up to 8 hexes, and the middle of
    the edge) of every (hex, facing), hex by hex, facing by facing, with the same arithmetic; kept."""
    key = (id(board), tuple(hexes), tuple(facings))
    known = _PLACES.get(key)
    if known is not None and known[0] is board:
        return known[1]
    if len(_PLACES) > 1 << 8:
        _PLACES.clear()
    places = _places_of(board, hexes, facings)
    places.flags.writeable = False
    _PLACES[key] = (board, places)
    return places


def _places_of(board: Any, hexes: Sequence[Hex], facings: Sequence[int]) -> np.ndarray:
    """:func:`_places`, worked out."""
    table = _room_table(board)
    at = np.array(hexes, dtype=np.int64).reshape(-1, 2)
    facing = np.array(facings, dtype=np.int64)
    if all(table.covers(hex, 0) for hex in ((at[:, 0].min(), at[:, 1].min()), (at[:, 0].max(), at[:, 1].max()))):
        room = table.room.take((at[:, 0] * Q_STRIDE + at[:, 1] * R_STRIDE - table.origin)[:, None] + facing)
    else:
        room = np.array([[_room(board, hex, f) for f in facings] for hex in hexes], dtype=np.int64)
    centre = -np.abs(at[:, 0] - board.columns / 2)  # the column of an odd-q offset hex is its q
    return (np.minimum(room, 8) * 1.0 + (centre * 0.3)[:, None]).reshape(-1)


#: (id of the board, the axes of a placement product, the Speeds and Max Altitude read) -> (board, :func:`_best_placed`).
_BEST_PLACED: dict[tuple, tuple[Any, tuple[float, int]]] = {}


def _best_placed(board: Any, hexes: Sequence[Hex], facings: Sequence[int], speeds: Sequence[int],
                 altitudes: Sequence[int], min_speed: int, max_speed: int, max_altitude: int) -> tuple[float, int]:
    """The best :meth:`GreedyBot._placement_value` of the placements of one lazy product (hex, facing, Speed,
    Altitude) of an aircraft with those Speeds and Max Altitude, and the index of the first that has it; kept
    (every set-up of a scenario offers the same products): see :func:`_best_placed_of`."""
    key = (id(board), hexes, facings, speeds, altitudes, min_speed, max_speed, max_altitude)
    known = _BEST_PLACED.get(key)
    if known is not None and known[0] is board:
        return known[1]
    if len(_BEST_PLACED) > 1 << 8:
        _BEST_PLACED.clear()
    best = _best_placed_of(board, hexes, facings, speeds, altitudes, min_speed, max_speed, max_altitude)
    _BEST_PLACED[key] = (board, best)
    return best


def _best_placed_of(board: Any, hexes: Sequence[Hex], facings: Sequence[int], speeds: Sequence[int],
                    altitudes: Sequence[int], min_speed: int, max_speed: int, max_altitude: int) -> tuple[float, int]:
    """:func:`_best_placed`, worked out over the axes with the arithmetic of ``_placement_value``."""
    speed_terms = [-abs(speed - (min_speed + max_speed) / 2) * 0.5 for speed in speeds]
    altitude_terms = [-abs(altitude - (max_altitude + 1) / 2) * 0.5 for altitude in altitudes]
    # value = (place + speed term) + altitude term only grows with place: a (hex, facing) whose place is short of
    # the best place by far more than any rounding cannot hold the best value, so only the (hex, facing) near the
    # best place are scored in full, in the products' order.
    places = _places(board, hexes, facings)
    near = places.max() - 1e-6
    per_place = len(speed_terms) * len(altitude_terms)
    candidates = np.flatnonzero(places >= near)
    values = ((places[candidates][:, None, None] + np.array(speed_terms)[None, :, None])
              + np.array(altitude_terms)[None, None, :]).reshape(-1)
    first = int(np.argmax(values))  # the first best, in the products' order
    return values[first], int(candidates[first // per_place]) * per_place + first % per_place


#: id of a board -> its :class:`~.greedy_tables.RoomTable` of ``_ROOM_LIMIT``.
_ROOM_TABLES: dict[int, RoomTable] = {}


def _room_table(board: Any) -> RoomTable:
    """:func:`_room` of every hex of ``board`` and facing, as an array."""
    known = _ROOM_TABLES.get(id(board))
    if known is None or known.board is not board:
        known = _ROOM_TABLES[id(board)] = RoomTable(board, _ROOM_LIMIT)
    return known


#: (what :meth:`GreedyBot._scorer` reads of the aircraft and the state, and of the other side's aircraft) ->
#: (catalogue, the scorer).
_SCORERS_BY_READS: dict[tuple, tuple[Any, EndScorer]] = {}
#: The values an :class:`~.greedy_tables.EndScorer` is built from -> (catalogue, board, the scorer).
_SCORERS: dict[tuple, tuple[Any, Any, EndScorer]] = {}
#: What :meth:`GreedyBot._scorer` reads of an aircraft -> (catalogue, :meth:`GreedyBot._own_terms`).
_OWN_TERMS: dict[tuple, tuple[Any, tuple]] = {}
#: (what :meth:`GreedyBot._scorer` reads of an enemy, Movement phase, and of the own terms what the record reads:
#: the id of the damage grid, the worth of a Structure point, the Altitude) -> (the grid,
#: :meth:`GreedyBot._enemy_record`).
_ENEMY_RECORDS: dict[tuple, tuple[tuple, tuple]] = {}


class _Armed(msgspec.Struct, frozen=True):
    """What :meth:`GreedyBot._weapon_terms` reads of a firer: its weapons and the Ammo left of each."""

    weapons: tuple[str, ...]
    ammo: tuple[int | None, ...]
#: (id of the scorer, id of the flight block, the frame index of the start, id of the stall rows, remembered) ->
#: (scorer, block, rows, :meth:`GreedyBot._block_values`, what the scorer remembered, the start): see there.
_BLOCK_VALUES: dict[tuple, tuple] = {}
#: id of a block's values kept in ``_BLOCK_VALUES`` -> (those values, the block, the best of each option from
#: them (:meth:`GreedyBot._manoeuvre_best`, :meth:`GreedyBot._throttle_best`: the values and the block say
#: which decision), the index of the first best).
_SEGMENT_BEST: dict[int, tuple[np.ndarray, FlightBlock, np.ndarray, int]] = {}


def _segment_best(values: np.ndarray, block: FlightBlock, best_of: Callable[[np.ndarray], np.ndarray]
                  ) -> tuple[np.ndarray, int]:
    """``best_of(values)``, each option's best, and its first best index (``argmax``, as ``max`` picks): kept in
    ``_SEGMENT_BEST`` when ``values`` are kept (read-only: kept in ``_BLOCK_VALUES``, so met again)."""
    kept = not values.flags.writeable
    if kept:
        known = _SEGMENT_BEST.get(id(values))
        if known is not None and known[0] is values and known[1] is block:
            return known[2], known[3]
    best = best_of(values)
    index = int(best.argmax())
    if kept:
        if len(_SEGMENT_BEST) > 1 << 13:
            _SEGMENT_BEST.clear()
        best.setflags(write=False)
        _SEGMENT_BEST[id(values)] = (values, block, best, index)
    return best, index


#: A manoeuvre or Throttle decision by the id of its scorer and what else it reads (the aircraft's hex, facing and
#: Speed, the options asked; the Throttle decision also whether it is Stalled and the manoeuvre revealed; the
#: manoeuvre table, and for the manoeuvres whether the Throttle may pass its limits) -> (scorer, manoeuvre table,
#: what the scorer remembered (:meth:`EndScorer.remember`), each option's best, the first best index): met again,
#: the decision is looked up at once, without the flights, the block's values or ``_SEGMENT_BEST``. Hexes go into this
#: and the other keys as their two whole numbers (``*hex``): the garbage collector stops tracking a tuple of whole
#: numbers, not one holding a :class:`Hex` (a NamedTuple), and every full collection walks what it tracks.
_DECIDED: dict[tuple, tuple] = {}


def _decided(key: tuple, values: np.ndarray, scorer: EndScorer, table: Any, remembered: list | None, best: np.ndarray,
             index: int) -> None:
    """Keep a manoeuvre or Throttle decision in ``_DECIDED`` when its block's ``values`` are kept (read-only, see
    :func:`_segment_best`): those are the values a decision with this key works out."""
    if values.flags.writeable:
        return
    if len(_DECIDED) > 1 << 13:
        _DECIDED.clear()
    _DECIDED[key] = (scorer, table, remembered, best, index)


def _own_reads(rules: Any, state: GameState, aircraft: AircraftState) -> tuple:
    """What :meth:`GreedyBot._build_scorer` reads of the state and of the aircraft itself (its ``reads``)."""
    return (id(rules.catalogue), state.board, state.phase == "movement", aircraft.owner, aircraft.profile,
            aircraft.upgrades, aircraft.points, aircraft.starting_structure, aircraft.structure, aircraft.altitude,
            aircraft.weapons, aircraft.ammo)


def _others_read(others: Sequence[AircraftState]) -> tuple:
    """What :meth:`GreedyBot._build_scorer` reads of the other side's aircraft (its ``others``), in their order;
    the hex as its two whole numbers (see ``_DECIDED``)."""
    return tuple([(other.status, other.ground_defence, *other.hex, other.facing, other.altitude, other.stalled,
                   other.spinning, other.moved, other.points, other.starting_structure, other.weapons, other.ammo)
                  for other in others])


#: (id of what the scorer's :meth:`EndScorer.remember` kept, the aircraft's hex, facing, Speed and Stalled, the Altitude
#: changes asked) -> (what it kept, :meth:`GreedyBot._altitude_best`).
_ALTITUDE_BEST: dict[tuple, tuple[list, int]] = {}
#: (id of the catalogue, weapons, which are out of Ammo) -> (catalogue, :func:`~.greedy_tables.damage_grid`).
_DAMAGE_GRIDS: dict[tuple, tuple[Any, np.ndarray]] = {}


@lru_cache(maxsize=256)
def _stall_rows(decision: str, min_speed: int, can_hover: bool = False, stalled: bool = False) -> np.ndarray:
    """``2 * Speed + stalled`` of a flight by ``2 * Speed + staged`` (flown as the manoeuvre's own): Stalled
    whatever the Altitude as :meth:`GreedyBot._manoeuvre_value` (below Min Speed, or too slow to complete
    the manoeuvre, p.15, p.17), ``_throttle_value`` (below Min Speed without hovering, or Stalled already) or
    ``_step_value`` of a plan (Stalled already, or flown straight, p.17) counts it."""
    rows = []
    for speed in range(SPEEDS):
        for staged in (False, True):
            if decision == "manoeuvre":
                stall = speed < min_speed or not staged
            elif decision == "throttle":
                stall = (speed < min_speed and not can_hover) or stalled
            else:
                stall = stalled or not staged
            rows.append(2 * speed + stall)
    return np.array(rows, dtype=np.intp)


#: (manoeuvre, Speed, facing, the plans) -> :func:`_plan_block`.
_PLAN_BLOCKS: dict[tuple, tuple[FlightBlock | None, list[int]]] = {}
#: (id of the first plan, how many, manoeuvre, Speed, facing) -> (the plans, :func:`_plan_block` of them).
_PLANS_SEEN: dict[tuple, tuple[tuple, tuple[FlightBlock | None, list[int]]]] = {}


def _plan_block(rules: Any, aircraft: AircraftState, plans: Sequence[Any]) -> tuple[FlightBlock | None, list[int]]:
    """The flights of the legal plans of ``plans`` (:func:`movement.plan_flight`, p.16-17) from the origin (the
    same from every hex, moved), in order, as one segment (all are flown at the aircraft's Speed), and the
    indexes of those plans (None: none is legal)."""
    manoeuvre = rules.manoeuvres.get(aircraft.revealed) if aircraft.revealed is not None else None
    # The rules offer the same plan commands again for the same manoeuvre, facing and Speed: the very objects
    # met before (kept alive here, so their ids are not reused) have the values met before.
    same = (id(plans[0]) if plans else None, len(plans), manoeuvre, aircraft.speed, aircraft.facing)
    seen = _PLANS_SEEN.get(same)
    if seen is not None and all(map(operator.is_, seen[0], plans)):
        return seen[1]
    key = (manoeuvre, aircraft.speed, aircraft.facing,
           tuple([(plan.side, tuple(plan.stage_hexes), tuple(plan.facings)) for plan in plans]))
    known = _PLAN_BLOCKS.get(key)
    if known is None:
        known = _plan_block_of(rules, aircraft, key)
    if len(_PLANS_SEEN) > 1 << 12:
        _PLANS_SEEN.clear()
    _PLANS_SEEN[same] = (tuple(plans), known)
    return known


def _plan_block_of(rules: Any, aircraft: AircraftState, key: tuple) -> tuple[FlightBlock | None, list[int]]:
    """:func:`_plan_block` of the plans of ``key`` (manoeuvre, Speed, facing, each plan's side, hexes per stage and
    facings), worked out and kept in ``_PLAN_BLOCKS``."""
    if len(_PLAN_BLOCKS) > 1 << 14:
        _PLAN_BLOCKS.clear()
    manoeuvre, speed, facing, plans = key
    if manoeuvre is not None and plans and plans == _reach_plans(manoeuvre, speed) and all(
            type(value) is int for _, stage_hexes, facings in plans for value in (*stage_hexes, *facings)):
        # the plans are every way of flying the manoeuvre (movement.reach), in its order: each is legal and flies
        # its flight (test_greedy_fast.py checks it against _plan_block_flown), already worked out
        known = (flight_block((manoeuvre,), facing, (speed,)), list(range(len(plans))))
    else:
        known = _plan_block_flown(rules, aircraft, plans)
    _PLAN_BLOCKS[key] = known
    return known


@lru_cache(maxsize=1024)
def _reach_plans(manoeuvre: Any, speed: int) -> tuple[tuple[str | None, tuple[int, ...], tuple[int, ...]], ...]:
    """The side, hexes per stage and facings of every way of flying ``manoeuvre`` at ``speed``
    (:func:`movement.reach`), in order: the same whichever way the aircraft faces (p.16, the picture turned)."""
    return tuple([(flight.side, flight.stage_hexes, flight.facings) for flight in movement.reach(manoeuvre, 0, speed)])


def _plan_block_flown(rules: Any, aircraft: AircraftState, plans: tuple) -> tuple[FlightBlock | None, list[int]]:
    """:func:`_plan_block` of ``plans`` (side, hexes per stage, facings each), each flown from the origin by
    :func:`movement.plan_flight` (p.16-17)."""
    origin = msgspec.structs.replace(aircraft, hex=Hex(0, 0))
    flights, legal = [], []
    for index, (side, stage_hexes, facings) in enumerate(plans):
        flight = movement.plan_flight(rules, origin, side, stage_hexes, facings)
        if flight is not None:
            end = flight.path[-1] if flight.path else (0, 0)
            flights.append((end[0], end[1], flight.final_facing, bool(flight.stage_hexes),
                            [(cell[0], cell[1]) for cell in flight.path]))
            legal.append(index)
    return FlightBlock([FlightPart.of(flights, aircraft.speed)]) if flights else None, legal


#: (id of the catalogue, weapons, which are out of Ammo) -> (catalogue, {(dq, dr, facing): {(firer Altitude,
#: target Altitude, target evading): expected damage}}): see :meth:`GreedyBot._expected_damage`.
_DAMAGE_TABLES: dict[tuple, tuple[Any, dict[tuple, float]]] = {}
_DAMAGE_ENTRIES_KEPT = 1 << 21


def _damage_table(catalogue: Any, weapons: tuple[str, ...], ammo: tuple[int | None, ...]) -> dict[tuple, float]:
    """The table of expected damage of an aircraft carrying ``weapons`` with ``ammo`` (only which are spent
    counts), filled as positions are met; emptied when the tables grow past ``_DAMAGE_ENTRIES_KEPT``."""
    key = (id(catalogue), weapons, tuple([left == 0 for left in ammo]))
    known = _DAMAGE_TABLES.get(key)
    if known is None or known[0] is not catalogue:
        if sum(len(table) for _, table in _DAMAGE_TABLES.values()) > _DAMAGE_ENTRIES_KEPT:
            _DAMAGE_TABLES.clear()
        known = _DAMAGE_TABLES[key] = (catalogue, {})
    return known[1]


@lru_cache(maxsize=1024)
def _manoeuvres_of(table: Any, numbers: tuple[int, ...]) -> tuple[Any, ...]:
    """The manoeuvres of ``numbers`` in the Ace Manoeuvre table ``table`` (p.88), in order."""
    return tuple(table.get(number) for number in numbers)


def _point_value(aircraft: AircraftState) -> float:
    """What one Structure point of this aircraft is worth in Victory points (p.32)."""
    return aircraft.points / max(aircraft.starting_structure, 1) if aircraft.points else 5.0


@lru_cache(maxsize=1 << 16)
def _flight_ends(board: Any, hex: Hex, facing: int, manoeuvre: Any, speed: int
                 ) -> tuple[tuple[Hex, int, bool, bool], ...]:
    """The distinct (end hex, final facing, flown as the manoeuvre, off the board) of every way of flying
    ``manoeuvre`` at ``speed`` from (hex, facing) (:func:`movement.flights`), or of flying straight ahead
    (p.13) when ``manoeuvre`` is None or too slow to complete (p.17), in the order first met."""
    q, r = hex
    contains = board.contains
    cells, plans = _reach_ends(manoeuvre, facing, speed)
    on_board = 0  # a bit per hex any of the flights crosses
    for bit, (a, b) in enumerate(cells):
        if contains(Hex(q + a, r + b)):
            on_board |= 1 << bit
    ends: dict[tuple[Hex, int, bool, bool], None] = {}
    for end, final_facing, staged, crossed in plans:
        at = Hex(q + end[0], r + end[1]) if end is not None else hex
        ends[(at, final_facing, staged, bool(crossed & ~on_board))] = None
    return tuple(ends)
