"""The End phase (rulebook p.29-30): Stalled aircraft recover or Spin; spinning aircraft recover or fall.

Both players, starting with the initiative holder, run each step for all their
aircraft before the next step (p.29):

1. Stalled aircraft (p.29): D6 >= Handling recovers: Speed -1 (not below Min Speed),
   Altitude set to Max Altitude. Otherwise the aircraft falls into a Spin.
2. Recovering from a Spin (p.29), only for aircraft that were spinning before this
   End phase: D6 >= Handling recovers: Speed set to Max Speed, facing from a D6
   (hexside numbered from N=1 clockwise). Otherwise it loses one Altitude level at
   once, crashing at Altitude 0.

Then, before step 3 (choices where the text is silent, see :mod:`.victory` and :mod:`.transports`):
Ejector Seats are rolled for aircraft destroyed since the last End phase (p.37), and
transports that ended their movement at Altitude 0 in a landing zone deliver their cargo
(p.33, p.37).

3. Determine Tailing (p.30), :mod:`.tailing`: every aircraft in the air finds whether it
   is Tailing an enemy, for the Tailing Fire phase of the next turn (p.13).
4. Ending the Game (p.29, p.31-32), :mod:`.victory`: ``turn.end_turn`` checks the Fuel
   Limit, Last Aircraft Flying and the Disengagement turn, declares a Disengagement turn
   for Insurmountable Losses, and works out Victory points when the game ends.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from aero_events.core import DiceCup, Event

from .events import AircraftDestroyed, SpinEntered, SpinFell, SpinRecovered, StallRecovered
from .state import FLYING, GameState, with_aircraft
from .tailing import determine_tailing
from .transports import deliver_landed_cargo
from .victory import roll_ejector_seats

if TYPE_CHECKING:
    from .ruleset import AeronauticaRules
    from .turn import Emitter


def _in_initiative_order(state: GameState) -> list[str]:
    first = state.initiative or state.players[0]
    return [first, state.opponent(first)]


def resolve_end_phase(rules: AeronauticaRules, out: Emitter, dice: DiceCup) -> None:
    """Steps 1 to 3 of the End phase sequence, for both players in initiative order (p.29-30)."""
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
    roll_ejector_seats(rules, out, order, dice)
    deliver_landed_cargo(rules, out, order)
    determine_tailing(out, order)


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
        out.emit(SpinEntered(aircraft=aircraft_id, altitude=min(aircraft.altitude, profile.max_altitude)))


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
        aircraft = state.aircraft[event.aircraft]
        altitude = aircraft.altitude if event.altitude is None else event.altitude
        return with_aircraft(state, replace(aircraft, stalled=False, spinning=True, altitude=altitude))
    if isinstance(event, SpinRecovered):
        aircraft = state.aircraft[event.aircraft]
        return with_aircraft(state, replace(aircraft, spinning=False, speed=event.speed, facing=event.facing))
    if isinstance(event, SpinFell):
        return with_aircraft(state, replace(state.aircraft[event.aircraft], altitude=max(event.altitude, 0)))
    return None
