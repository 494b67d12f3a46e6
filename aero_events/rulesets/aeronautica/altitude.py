"""Adjust Altitude (rulebook p.18-19): climbing, diving, Stalling, Crashing, Breaking Up; landing (p.19)
and Rocket Boosters (p.37), which also come at the end of an aircraft's move.

* Climb: Speed -1; by 1 at Speed 1-4, by 1 or 2 at Speed 5-9 (p.18).
* Dive: Speed +1; the same limits (p.18).
* Stall: a climb above Max Altitude, above Altitude 5, or to below Min Speed (p.18).
  An aircraft with Min Speed 0 cannot Stall: it Hovers at its Max Altitude (p.18).
* Crash: a dive to Altitude 0 rolls a D6; 1-2 crashes, 3+ stays at Altitude 1 (p.19).
* Breaking Up: ending movement above Max Speed rolls a D6; 1-2 is one damaging
  hit; Speed stays at Max Speed (p.15, p.19).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import msgspec

from aero_events.core import Command, DiceRolled, RuleError

from . import rerolls
from .commands import AdjustAltitude, Land, RocketBoostOut
from .events import (
    AircraftDestroyed,
    AircraftDisengaged,
    AltitudeChanged,
    BrokeUp,
    CrashAvoided,
    DamageSuffered,
    Landed,
    MovementEnded,
    Stalled,
)
from .movement import active_aircraft, altitude_options, disengagement_kind
from .state import (
    ALTITUDE,
    DESTROYED,
    LANDED,
    MANOEUVRE,
    AircraftState,
    FoldScope,
    GameState,
    evolve_by_table,
    replaced,
    with_aircraft,
)
from .turn import Emitter

if TYPE_CHECKING:
    from aero_events.core import DiceCup

    from .ruleset import AeronauticaRules

#: The highest Altitude any aircraft can stay at (p.18).
CEILING = 5
#: Crashing and Breaking Up are avoided on a D6 of 3+ (p.19).
RECOVERY_ROLL = 3


def adjust_altitude(rules: AeronauticaRules, out: Emitter, command: AdjustAltitude, dice: DiceCup) -> None:
    """Climb or dive after the manoeuvre, with the Stall, Crash and Breaking Up that may follow."""
    aircraft = active_aircraft(out.state, command, ALTITUDE)
    profile = rules.profile(aircraft)
    options = altitude_options(aircraft.speed)
    if command.change not in options:
        raise RuleError(f"at Speed {aircraft.speed} {aircraft.id} may change Altitude by "
                        f"{min(options):+d} to {max(options):+d}, not {command.change:+d}",
                        rule="Adjust Altitude", page=18)
    altitude, speed = aircraft.altitude + command.change, aircraft.speed
    if command.change > 0:
        speed -= 1
    elif command.change < 0:
        speed += 1
    stall_reason = None
    if command.change > 0:
        if altitude > profile.max_altitude or altitude > CEILING:
            stall_reason = f"climbed to Altitude {altitude}, above its Max Altitude {profile.max_altitude}" \
                if altitude > profile.max_altitude else f"climbed above Altitude {CEILING}"
        elif speed < profile.min_speed:
            stall_reason = f"the climb took Speed to {speed}, below Min Speed {profile.min_speed}"
        if stall_reason and profile.can_hover:
            # Min Speed 0: no Stall; the aircraft Hovers (Speed 0, p.16) at its Max Altitude (p.18).
            altitude, speed, stall_reason = min(altitude, profile.max_altitude), 0, None
    # A dive below the ground stops at Altitude 0, where the crash roll is made (p.19): never a negative dial.
    altitude = max(altitude, 0)
    if command.change:
        out.emit(AltitudeChanged(aircraft=aircraft.id, change=command.change, altitude=altitude, speed=speed))
    if stall_reason:
        out.emit(Stalled(aircraft=aircraft.id, reason=stall_reason))
    if altitude <= 0:
        roll = dice.d6(purpose="crash", roller=aircraft.owner, target=RECOVERY_ROLL)
        out.emit(roll)
        if rerolls.offer(out, aircraft.id, rerolls.CRASH, roll):
            return
        crash_result(rules, out, aircraft.id, roll, dice)
        return
    end_of_movement(rules, out, aircraft.id, dice)


def crash_result(rules: AeronauticaRules, out: Emitter, aircraft_id: str, roll: DiceRolled, dice: DiceCup) -> None:
    """Crashing (p.19): on a 1 or 2 the aircraft crashes and is removed; on 3+ it stays at Altitude 1."""
    if roll.faces[0] < RECOVERY_ROLL:
        out.emit(AircraftDestroyed(aircraft=aircraft_id, cause="crashed"))
        out.emit(MovementEnded(aircraft=aircraft_id))
        return
    out.emit(CrashAvoided(aircraft=aircraft_id))
    end_of_movement(rules, out, aircraft_id, dice)


def end_of_movement(rules: AeronauticaRules, out: Emitter, aircraft_id: str, dice: DiceCup) -> None:
    """Breaking Up if the aircraft ends its movement above Max Speed (p.15, p.19); then the move ends."""
    aircraft = out.state.aircraft[aircraft_id]
    profile = rules.profile(aircraft)
    if aircraft.status != DESTROYED and aircraft.speed > profile.max_speed:
        roll = dice.d6(purpose="breaking up", roller=aircraft.owner, target=RECOVERY_ROLL)
        out.emit(roll)
        if rerolls.offer(out, aircraft.id, rerolls.BREAKING_UP, roll):
            return
        breaking_up_result(rules, out, aircraft_id, roll, dice)
        return
    finish_movement(rules, out, aircraft_id)


def breaking_up_result(rules: AeronauticaRules, out: Emitter, aircraft_id: str, roll: DiceRolled,
                       dice: DiceCup) -> None:
    """Breaking Up (p.19): on a 1 or 2 one damaging hit; the Speed dial stays at Max Speed."""
    profile = rules.profile(out.state.aircraft[aircraft_id])
    damaged = roll.faces[0] < RECOVERY_ROLL
    out.emit(BrokeUp(aircraft=aircraft_id, damaged=damaged, speed=profile.max_speed))
    if damaged:
        suffer_damage(out, aircraft_id, 1, "breaking up")
    finish_movement(rules, out, aircraft_id)


def finish_movement(rules: AeronauticaRules, out: Emitter, aircraft_id: str) -> None:
    """Diving into terrain (p.33), then the aircraft's move ends."""
    if rules_use_terrain(out.state):
        from .scenarios.terrain import crash_after_altitude

        crash_after_altitude(rules, out, aircraft_id)  # diving into terrain (p.33)
    out.emit(MovementEnded(aircraft=aircraft_id))


def rules_use_terrain(state: GameState) -> bool:
    """Terrain Height is an optional rule (p.33): only games that place terrain check it."""
    return bool(getattr(state, "terrain", None))


def suffer_damage(out: Emitter, aircraft_id: str, hits: int, cause: str) -> None:
    """Lose a Structure point per damaging hit; at 0 the aircraft is destroyed (p.10, p.23)."""
    aircraft = out.state.aircraft[aircraft_id]
    structure = max(0, aircraft.structure - hits)
    out.emit(DamageSuffered(aircraft=aircraft_id, hits=hits, structure=structure, cause=cause))
    if structure == 0:
        out.emit(AircraftDestroyed(aircraft=aircraft_id, cause=cause))


def land(rules: AeronauticaRules, out: Emitter, command: Land, dice: DiceCup) -> None:
    """Landing (p.19): chose Manoeuvre 1, at Altitude 1 and Min Speed after Throttle.

    An aircraft with Min Speed 0 at Speed 0 Hovers instead of moving (p.16) and has no Adjust Altitude step;
    it lands at its Move and Manoeuvre step, in its hex (its movement is nothing).
    """
    state = out.state
    step = MANOEUVRE if state.step == MANOEUVRE and hovering(rules, state.aircraft.get(state.active)) else ALTITUDE
    aircraft = active_aircraft(state, command, step)
    if not aircraft.may_land:
        raise RuleError(f"{aircraft.id} must have chosen Ace Manoeuvre 1, be at Altitude 1 and at its Min Speed "
                        "after the Throttle step to land", rule="Landing", page=19)
    out.emit(Landed(aircraft=aircraft.id))
    out.emit(MovementEnded(aircraft=aircraft.id))


def hovering(rules: AeronauticaRules, aircraft: AircraftState | None) -> bool:
    """At Speed 0 with Min Speed 0: Hovering (p.16)."""
    return aircraft is not None and aircraft.speed == 0 and rules.profile(aircraft).can_hover


def rocket_boost_out(rules: AeronauticaRules, out: Emitter, command: RocketBoostOut, dice: DiceCup) -> None:
    """Rocket Boosters (p.37): at Altitude 5, after the manoeuvre, climb out and disengage from any point."""
    aircraft = active_aircraft(out.state, command, ALTITUDE)
    if not rules.profile(aircraft).has_rule("rocket_boosters"):
        raise RuleError(f"{aircraft.id} has no Rocket Boosters", rule="Rocket Boosters", page=37)
    if aircraft.altitude != CEILING:
        raise RuleError(f"{aircraft.id} must be at Altitude {CEILING} to use its Rocket Boosters",
                        rule="Rocket Boosters", page=37)
    out.emit(AircraftDisengaged(aircraft=aircraft.id, how=disengagement_kind(rules, out.state),
                                exit_hex=aircraft.hex, via="rocket boosters"))
    out.emit(MovementEnded(aircraft=aircraft.id))


def altitude_commands(rules: AeronauticaRules, state: GameState, aircraft: AircraftState) -> list[Command]:
    """Every legal end-of-move choice: each Altitude change, landing, Rocket Boosters."""
    return list(_altitude_commands(rules, aircraft.owner, aircraft.id, aircraft.speed, aircraft.may_land,
                                   aircraft.altitude == CEILING, aircraft.profile, aircraft.upgrades))


@functools.lru_cache(maxsize=4096)
def _altitude_commands(rules: AeronauticaRules, player: str, aircraft_id: str, speed: int, may_land: bool,
                       at_ceiling: bool, profile_id: str, upgrades: tuple[str, ...]) -> tuple[Command, ...]:
    """:func:`altitude_commands`, kept by what they depend on: the Speed (p.18), whether the aircraft may land
    (p.19), and whether it is at Altitude 5 with Rocket Boosters (p.37)."""
    options: list[Command] = [AdjustAltitude(player=player, aircraft=aircraft_id, change=c)
                              for c in altitude_options(speed)]
    if may_land:
        options.append(Land(player=player, aircraft=aircraft_id))
    if at_ceiling and rules._profile(profile_id, upgrades).has_rule("rocket_boosters"):
        options.append(RocketBoostOut(player=player, aircraft=aircraft_id))
    return tuple(options)


HANDLERS = {AdjustAltitude: adjust_altitude, Land: land, RocketBoostOut: rocket_boost_out}
rerolls.CONTINUATIONS.update({rerolls.CRASH: crash_result, rerolls.BREAKING_UP: breaking_up_result})


#: The phases in which :func:`legal_commands` may offer a command: none (the ruleset never asks).
COMMAND_PHASES: frozenset[str] = frozenset()


def legal_commands(rules: AeronauticaRules, state: GameState, player: str) -> list[Command]:
    """The altitude step's choices are offered by the Movement phase (see movement.legal_commands)."""
    return []


_replace = msgspec.structs.replace


def _altitude_changed(rules: AeronauticaRules, state: GameState, event: AltitudeChanged,
                      scope: FoldScope | None = None) -> GameState:
    aircraft = state.aircraft[event.aircraft]
    if aircraft.altitude == event.altitude and aircraft.speed == event.speed:
        return state
    if scope is not None:  # the fold's own aircraft: changed in place (FoldScope)
        aircraft.altitude = event.altitude
        aircraft.speed = event.speed
        return state
    return with_aircraft(state, _replace(aircraft, altitude=event.altitude, speed=event.speed))


def _crash_avoided(rules: AeronauticaRules, state: GameState, event: CrashAvoided,
                   scope: FoldScope | None = None) -> GameState:
    return with_aircraft(state, replaced(state.aircraft[event.aircraft], scope, altitude=1), scope)


def _broke_up(rules: AeronauticaRules, state: GameState, event: BrokeUp,
              scope: FoldScope | None = None) -> GameState:
    return with_aircraft(state, replaced(state.aircraft[event.aircraft], scope, speed=event.speed), scope)


def _damage_suffered(rules: AeronauticaRules, state: GameState, event: DamageSuffered,
                     scope: FoldScope | None = None) -> GameState:
    return with_aircraft(state, replaced(state.aircraft[event.aircraft], scope, structure=event.structure), scope)


def _aircraft_destroyed(rules: AeronauticaRules, state: GameState, event: AircraftDestroyed,
                        scope: FoldScope | None = None) -> GameState:
    return with_aircraft(state, replaced(state.aircraft[event.aircraft], scope, status=DESTROYED, structure=0),
                         scope)


def _landed(rules: AeronauticaRules, state: GameState, event: Landed,
            scope: FoldScope | None = None) -> GameState:
    return with_aircraft(state, replaced(state.aircraft[event.aircraft], scope, status=LANDED, altitude=0, speed=0),
                         scope)


#: The altitude part's reducers by event type (the ruleset's dispatch reads this table).
_REDUCERS = {
    AltitudeChanged: _altitude_changed,
    CrashAvoided: _crash_avoided,
    BrokeUp: _broke_up,
    DamageSuffered: _damage_suffered,
    AircraftDestroyed: _aircraft_destroyed,
    Landed: _landed,
}


evolve = evolve_by_table(_REDUCERS, "the altitude part's events")
