"""The End phase (rulebook p.29-30): Stalled aircraft recover or Spin; spinning aircraft recover or fall.

Both players, starting with the initiative holder, run each step for all their
aircraft before the next step (p.29):

1. Stalled aircraft (p.29): D6 >= Handling recovers: Speed -1 (not below Min Speed),
   Altitude set to Max Altitude. Otherwise the aircraft falls into a Spin.
2. Recovering from a Spin (p.29), only for aircraft that were spinning before this
   End phase: D6 >= Handling recovers: Speed set to Max Speed, facing from a D6
   (hexside numbered from N=1 clockwise). Otherwise it loses one Altitude level at
   once, crashing at Altitude 0.

Determining Tailing (step 3, p.30) and Victory points arrive with the firing rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from aero_events.core import DiceCup, Event

from .events import AircraftDestroyed, SpinEntered, SpinFell, SpinRecovered, StallRecovered
from .state import FLYING, GameState, with_aircraft

if TYPE_CHECKING:
    from .ruleset import AeronauticaRules
    from .turn import Emitter


def _in_initiative_order(state: GameState) -> list[str]:
    first = state.initiative or state.players[0]
    return [first, state.opponent(first)]


def resolve_end_phase(rules: AeronauticaRules, out: Emitter, dice: DiceCup) -> None:
    """Steps 1 and 2 of the End phase sequence, for both players in initiative order (p.29)."""
    order = _in_initiative_order(out.state)
    spinning_before = {a.id for a in out.state.aircraft.values() if a.spinning and a.status == FLYING}
    for player in order:
        for aircraft in out.state.side(player):
            if aircraft.status == FLYING and aircraft.stalled:
                recover_from_stall(rules, out, aircraft.id, dice)
    for player in order:
        for aircraft in out.state.side(player):
            if aircraft.id in spinning_before and aircraft.status == FLYING:
                recover_from_spin(rules, out, aircraft.id, dice)


def recover_from_stall(rules: AeronauticaRules, out: Emitter, aircraft_id: str, dice: DiceCup) -> None:
    """Stalled Aircraft (p.29). The Altitude is set to Max Altitude as the text says, whatever caused the Stall."""
    aircraft = out.state.aircraft[aircraft_id]
    profile = rules.profile(aircraft)
    roll = dice.d6(purpose="stall recovery", roller=aircraft.owner, target=profile.handling)
    out.emit(roll)
    if roll.faces[0] >= profile.handling:
        out.emit(StallRecovered(aircraft=aircraft_id, speed=max(profile.min_speed, aircraft.speed - 1),
                                altitude=profile.max_altitude))
    else:
        out.emit(SpinEntered(aircraft=aircraft_id))


def recover_from_spin(rules: AeronauticaRules, out: Emitter, aircraft_id: str, dice: DiceCup) -> None:
    """Recovering from a Spin (p.29)."""
    aircraft = out.state.aircraft[aircraft_id]
    profile = rules.profile(aircraft)
    roll = dice.d6(purpose="spin recovery", roller=aircraft.owner, target=profile.handling)
    out.emit(roll)
    if roll.faces[0] >= profile.handling:
        facing_roll = dice.d6(purpose="facing after spin", roller=aircraft.owner)
        out.emit(facing_roll)
        out.emit(SpinRecovered(aircraft=aircraft_id, speed=profile.max_speed, facing=facing_roll.faces[0] - 1))
        return
    altitude = aircraft.altitude - 1
    out.emit(SpinFell(aircraft=aircraft_id, altitude=altitude))
    if altitude <= 0:
        out.emit(AircraftDestroyed(aircraft=aircraft_id, cause="crashed in a spin"))


HANDLERS: dict = {}


def legal_commands(rules: AeronauticaRules, state: GameState, player: str) -> list:
    """The End phase asks the players nothing: its rolls are made for them (p.29)."""
    return []


def evolve(rules: AeronauticaRules, state: GameState, event: Event) -> GameState | None:
    replace = msgspec.structs.replace
    if isinstance(event, StallRecovered):
        aircraft = state.aircraft[event.aircraft]
        return with_aircraft(state, replace(aircraft, stalled=False, speed=event.speed, altitude=event.altitude))
    if isinstance(event, SpinEntered):
        return with_aircraft(state, replace(state.aircraft[event.aircraft], stalled=False, spinning=True))
    if isinstance(event, SpinRecovered):
        aircraft = state.aircraft[event.aircraft]
        return with_aircraft(state, replace(aircraft, spinning=False, speed=event.speed, facing=event.facing))
    if isinstance(event, SpinFell):
        return with_aircraft(state, replace(state.aircraft[event.aircraft], altitude=max(event.altitude, 0)))
    return None
