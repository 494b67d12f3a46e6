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
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import msgspec

from aero_events.hexgrid import Hex, Pose, arcs_containing, range_band
from aero_events.rulesets.aeronautica import commands as c
from aero_events.rulesets.aeronautica import movement
from aero_events.rulesets.aeronautica.state import FLYING, AircraftState, GameState

from .random_bot import StableRandom

_ARC_NAMES = {"FRONT": "front", "REAR": "rear", "LEFT": "left", "RIGHT": "right"}
_BAND_INDEX = {"SHORT": 0, "MEDIUM": 1, "LONG": 2}

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


class GreedyBot:
    """Scores every option one step ahead (see the module docstring)."""

    name = "greedy"

    def __init__(self, seed: int | str = 0):
        self.random = StableRandom(f"greedy-bot:{seed}")

    # ---------------------------------------------------------------- the decision

    def choose(self, session: Any, player: str, options: Sequence[Any]) -> Any:
        rules, state = session.ruleset, session.state
        first = options[0]
        if isinstance(first, c.ChooseManoeuvre):
            aircraft = state.aircraft[first.aircraft]
            mine = [o for o in options if o.aircraft == aircraft.id]
            return max(mine, key=lambda o: self._manoeuvre_value(rules, state, aircraft, o.manoeuvre))
        if isinstance(first, c.ChooseFirstMover):
            # Moving last sees where the enemy went: make the opponent move first.
            return next(o for o in options if o.first != player)
        if isinstance(first, c.SetThrottle):
            aircraft = state.aircraft[first.aircraft]
            return max(options, key=lambda o: self._throttle_value(rules, state, aircraft, o.change))
        if isinstance(first, (c.ManoeuvrePlan, c.AdjustAltitude, c.Land, c.RocketBoostOut, c.Hover)):
            aircraft = state.aircraft[state.active]
            return max(options, key=lambda o: self._step_value(rules, state, aircraft, o))
        if any(isinstance(o, (c.FireWeapons, c.LaunchAutonomous, c.PassFiring)) for o in options):
            return max(options, key=lambda o: self._volley_value(rules, state, o))
        if isinstance(first, (c.AcceptRoll, c.UseReroll)):
            return self._reroll_choice(state, options)
        if isinstance(first, c.PlaceAircraft):
            return max(options, key=lambda o: self._placement_value(rules, state, o))
        if isinstance(first, c.PlaceReserve):
            return max(options, key=lambda o: self._placement_value(rules, state, o))
        take_off = [o for o in options if isinstance(o, (c.TakeOff, c.DropJumpTroops))]
        if take_off:
            return take_off[0]
        return self.random.choice(options)

    # ---------------------------------------------------------------- expected damage

    def expected_damage(self, rules: Any, firer: AircraftState, firer_pose: Pose, firer_altitude: int,
                        target: AircraftState, target_hex: Hex, target_altitude: int,
                        target_evading: bool) -> float:
        """Expected Structure lost by ``target`` if ``firer`` fired everything that bears on it."""
        distance = firer_pose.hex.distance(target_hex)
        band = range_band(distance)
        if band is None or target_altitude == 0 or firer_altitude == 0:
            return 0.0
        arcs = {_ARC_NAMES[a.name] for a in arcs_containing(firer_pose, target_hex) if a.name in _ARC_NAMES}
        modifier = -abs(firer_altitude - target_altitude) - (1 if target_evading else 0)
        hit = chance(5, modifier)
        if hit == 0:
            return 0.0
        total = 0.0
        for weapon_id, ammo in zip(firer.weapons, firer.ammo, strict=False):
            if ammo == 0:
                continue
            weapon = rules.catalogue.weapons[weapon_id]
            if weapon.has_rule("ground_attack") or weapon.has_rule("ground_to_air"):
                continue
            weapon_arcs = weapon.fire_arc.arcs
            if "all_round" not in weapon_arcs and not arcs.intersection(weapon_arcs):
                continue
            vertical = weapon.fire_arc.vertical
            if (vertical == "up" and target_altitude < firer_altitude) or \
                    (vertical == "down" and target_altitude > firer_altitude):
                continue
            dice = weapon.firepower[_BAND_INDEX[band.name]]
            if not dice:
                continue
            damage = chance(weapon.damage, 0)
            extra = weapon.rule_value("extra_damage")
            if extra is not None:
                damage += chance(extra, 0)
            total += dice * hit * damage
        return total

    # ---------------------------------------------------------------- positions

    def _enemies(self, state: GameState, aircraft: AircraftState) -> list[AircraftState]:
        return [a for a in state.aircraft.values()
                if a.owner != aircraft.owner and a.status == FLYING and not a.ground_defence]

    def position_value(self, rules: Any, state: GameState, aircraft: AircraftState, hex: Hex, facing: int,
                       altitude: int, speed: int, stalled: bool, off_board: bool) -> float:
        """How good it is for ``aircraft`` to end its move here, in Victory points (see the module docstring).

        A Structure point is worth the aircraft's points over its Structure: damage is what turns an
        aircraft into Victory points (p.32).
        """
        if off_board:
            return -10.0 * max(aircraft.points, 1)
        profile = rules.profile(aircraft)
        unit = _point_value(aircraft)
        pose = Pose(hex, facing)
        value = 0.0
        nearest = None
        for enemy in self._enemies(state, aircraft):
            evading = enemy.stalled or enemy.spinning
            # An enemy that has not moved yet will not be where it is now: its threat and its
            # exposure count for less (UNMOVED_WEIGHT).
            certainty = 1.0 if enemy.moved or state.phase != "movement" else UNMOVED_WEIGHT
            value += certainty * _point_value(enemy) * self.expected_damage(
                rules, aircraft, pose, altitude, enemy, enemy.hex, enemy.altitude, evading)
            value -= certainty * DEFENCE_WEIGHT * unit * self.expected_damage(
                rules, enemy, Pose(enemy.hex, enemy.facing), enemy.altitude, aircraft, hex, altitude, stalled)
            gap = hex.distance(enemy.hex)
            nearest = gap if nearest is None else min(nearest, gap)
        if nearest is not None:
            value -= CLOSING_WEIGHT * unit * nearest
        if stalled and not profile.can_hover:
            value -= STALL_PENALTY * unit
        if altitude <= 0:
            value -= aircraft.points / 3  # a crash on a 1-2 (p.19)
        if speed > profile.max_speed:
            # Breaking Up: a hit on a 1-2 (p.19), and a damaged aircraft is worth 50% to the enemy (p.32).
            value -= (unit + (0 if aircraft.damaged else aircraft.points / 2)) / 3 + unit
        board = rules.board(state)
        needed = max(speed, profile.min_speed)
        room = _room_ahead(board, hex, facing, needed)
        if room < needed:
            value -= EDGE_PENALTY_PER_HEX * unit * (needed - room)
        return value

    def _flight_value(self, rules: Any, state: GameState, aircraft: AircraftState, flight: movement.Flight,
                      speed: int, stalled: bool) -> float:
        """The best value over the altitude choices after flying ``flight`` at ``speed``."""
        board = rules.board(state)
        off_board = movement.first_off_board(board, flight.path) is not None
        end = flight.path[-1] if flight.path else aircraft.hex
        best = None
        for change in movement.altitude_options(speed):
            altitude = aircraft.altitude + change
            new_speed = speed - 1 if change > 0 else speed + 1 if change < 0 else speed
            profile = rules.profile(aircraft)
            stall = stalled or (change > 0 and (altitude > profile.max_altitude or new_speed < profile.min_speed))
            value = self.position_value(rules, state, aircraft, end, flight.final_facing, altitude, new_speed,
                                        stall, off_board)
            best = value if best is None else max(best, value)
        return best if best is not None else 0.0

    def _manoeuvre_value(self, rules: Any, state: GameState, aircraft: AircraftState, number: int) -> float:
        """The best value reachable with manoeuvre ``number`` over the throttle settings."""
        if aircraft.status != FLYING:
            return 1.0 if number == 1 else 0.0  # a landed aircraft takes off with manoeuvre 1
        profile = rules.profile(aircraft)
        manoeuvre = rules.manoeuvres.get(number)
        best = -1e9
        for change in movement.throttle_options(profile, aircraft.speed, rules.options.throttle_past_limits):
            speed = aircraft.speed + change
            stalled = speed < profile.min_speed
            options = movement.flights(aircraft.hex, aircraft.facing, manoeuvre, speed) or \
                [movement.straight(aircraft.hex, aircraft.facing, speed)]
            for flight in options:
                best = max(best, self._flight_value(rules, state, aircraft, flight, speed,
                                                    stalled or not flight.stage_hexes))
        return best

    def _throttle_value(self, rules: Any, state: GameState, aircraft: AircraftState, change: int) -> float:
        profile = rules.profile(aircraft)
        speed = aircraft.speed + change
        moving = msgspec.structs.replace(aircraft, speed=speed)
        flights = movement.manoeuvre_flights(rules, moving)
        stalled = speed < profile.min_speed and not profile.can_hover
        return max(self._flight_value(rules, state, aircraft, f, speed, stalled or aircraft.stalled)
                   for f in flights)

    def _step_value(self, rules: Any, state: GameState, aircraft: AircraftState, option: Any) -> float:
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
            single = msgspec.structs.replace(firer, weapons=(weapon_id,), ammo=(firer.ammo[shot.weapon_index],))
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


def _point_value(aircraft: AircraftState) -> float:
    """What one Structure point of this aircraft is worth in Victory points (p.32)."""
    return aircraft.points / max(aircraft.starting_structure, 1) if aircraft.points else 5.0


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
