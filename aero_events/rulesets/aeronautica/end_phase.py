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
aircraft whose Fuel (p.11) is spent are removed from play, Ejector Seats are rolled for aircraft
destroyed since the last End phase (p.37), and transports that ended their movement at Altitude 0
in a landing zone deliver their cargo (p.33, p.37).

A roll made for an aircraft with an unused Imperial Ace / Fly Boss re-roll (p.37, p.45) holds the
phase until its player decides (:mod:`.rerolls`); the phase then resumes where it was.

3. Determine Tailing (p.30), :mod:`.tailing`: every aircraft in the air finds whether it
   is Tailing an enemy, for the Tailing Fire phase of the next turn (p.13).
4. Ending the Game (p.29, p.31-32), :mod:`.victory`: ``turn.end_turn`` checks the Fuel
   Limit, Last Aircraft Flying and the Disengagement turn, declares a Disengagement turn
   for Insurmountable Losses, and works out Victory points when the game ends.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aero_events.core import DiceCup, DiceRolled

from . import rerolls
from .events import AircraftDestroyed, FuelExhausted, SpinEntered, SpinFell, SpinRecovered, StallRecovered
from .state import END, FLYING, FoldScope, GameState, evolve_by_table, replaced, with_aircraft
from .tailing import determine_tailing
from .transports import deliver_landed_cargo
from .victory import ejector_seats_result, roll_ejector_seats

if TYPE_CHECKING:
    from .ruleset import AeronauticaRules
    from .turn import Emitter


def _in_initiative_order(state: GameState) -> list[str]:
    first = state.initiative or state.players[0]
    return [first, state.opponent(first)]


def spin_key(aircraft_id: str) -> str:
    """``state.end_phase_done`` holds this once the aircraft may not (or need not) roll for its Spin."""
    return f"spin:{aircraft_id}"


def resolve_end_phase(rules: AeronauticaRules, out: Emitter, dice: DiceCup) -> bool:
    """Steps 1 to 3 of the End phase sequence, for both players in initiative order (p.29-30). False when a
    roll waits for an Imperial Ace / Fly Boss decision (:mod:`.rerolls`): the phase resumes from where it is,
    each step skipping what it has resolved (a recovered Stall is no longer Stalled; Spins rolled for, or
    just entered, are in ``state.end_phase_done``; Ejector Seats rolled have ``crew_escaped``)."""
    order = _in_initiative_order(out.state)
    # Each step's loop is entered only when some aircraft has something to roll for (it would emit nothing).
    if any(a.stalled for a in out.state.aircraft.values()):
        for player in order:
            for aircraft in out.state.side(player):
                stalled = aircraft.status == FLYING and aircraft.stalled
                if stalled and not recover_from_stall(rules, out, aircraft.id, dice):
                    return False
    if any(a.spinning for a in out.state.aircraft.values()):
        for player in order:
            for aircraft in out.state.side(player):
                spinning = aircraft.spinning and aircraft.status == FLYING
                if spinning and spin_key(aircraft.id) not in out.state.end_phase_done \
                        and not recover_from_spin(rules, out, aircraft.id, dice):
                    return False
    run_out_of_fuel(rules, out, order)
    if not roll_ejector_seats(rules, out, order, dice):
        return False
    deliver_landed_cargo(rules, out, order)
    determine_tailing(out, order, choice=rules.options.tailing_choice)
    return True


def recover_from_stall(rules: AeronauticaRules, out: Emitter, aircraft_id: str, dice: DiceCup) -> bool:
    """Stalled Aircraft (p.29): a D6 against Handling. False while the roll waits for a re-roll decision."""
    aircraft = out.state.aircraft[aircraft_id]
    profile = rules.profile(aircraft)
    roll = dice.d6(purpose="stall recovery", roller=aircraft.owner, target=profile.handling)
    out.emit(roll)
    if rerolls.offer(out, aircraft_id, rerolls.STALL_RECOVERY, roll):
        return False
    stall_result(rules, out, aircraft_id, roll, dice)
    return True


def stall_result(rules: AeronauticaRules, out: Emitter, aircraft_id: str, roll: DiceRolled, dice: DiceCup) -> None:
    """Recovered (D6 >= Handling): "Speed is reduced by 1 for climbing ..., to a minimum of the aircraft's Min
    Speed characteristic, and the Altitude dial is adjusted to or remains at the Max Altitude" (p.29):
    ``RuleOptions.stall_recovery_altitude`` "max" (default) sets Max Altitude whatever caused the Stall,
    "cap" keeps the Altitude, brought down to Max Altitude. Otherwise it falls into a Spin."""
    aircraft = out.state.aircraft[aircraft_id]
    profile = rules.profile(aircraft)
    if roll.faces[0] >= profile.handling:
        altitude = profile.max_altitude
        if rules.options.stall_recovery_altitude == "cap":
            altitude = min(aircraft.altitude, profile.max_altitude)
        out.emit(StallRecovered(aircraft=aircraft_id, speed=max(profile.min_speed, aircraft.speed - 1),
                                altitude=altitude))
    else:
        out.emit(SpinEntered(aircraft=aircraft_id, altitude=min(aircraft.altitude, profile.max_altitude)))


def recover_from_spin(rules: AeronauticaRules, out: Emitter, aircraft_id: str, dice: DiceCup) -> bool:
    """Recovering from a Spin (p.29): a D6 against Handling. False while a roll waits for a re-roll decision."""
    aircraft = out.state.aircraft[aircraft_id]
    profile = rules.profile(aircraft)
    roll = dice.d6(purpose="spin recovery", roller=aircraft.owner, target=profile.handling)
    out.emit(roll)
    if rerolls.offer(out, aircraft_id, rerolls.SPIN_RECOVERY, roll):
        return False
    spin_result(rules, out, aircraft_id, roll, dice)
    return out.state.pending_roll is None


def spin_result(rules: AeronauticaRules, out: Emitter, aircraft_id: str, roll: DiceRolled, dice: DiceCup) -> None:
    """Recovered: "Speed dial is set to its Max Speed ... and its facing is randomly determined" (a D6, sides
    numbered clockwise from north, 1 = N). Otherwise it loses one Altitude level at once, crashing at 0."""
    aircraft = out.state.aircraft[aircraft_id]
    profile = rules.profile(aircraft)
    if roll.faces[0] >= profile.handling:
        facing_roll = dice.d6(purpose="facing after spin", roller=aircraft.owner)
        out.emit(facing_roll)
        if rerolls.offer(out, aircraft_id, rerolls.SPIN_FACING, facing_roll):
            return
        spin_facing(rules, out, aircraft_id, facing_roll, dice)
        return
    altitude = aircraft.altitude - 1
    out.emit(SpinFell(aircraft=aircraft_id, altitude=max(altitude, 0)))
    if altitude <= 0:
        out.emit(AircraftDestroyed(aircraft=aircraft_id, cause="crashed in a spin"))


def spin_facing(rules: AeronauticaRules, out: Emitter, aircraft_id: str, roll: DiceRolled, dice: DiceCup) -> None:
    """The recovered aircraft's Speed is its Max Speed, its facing the D6's hexside (1 = N, clockwise)."""
    profile = rules.profile(out.state.aircraft[aircraft_id])
    out.emit(SpinRecovered(aircraft=aircraft_id, speed=profile.max_speed, facing=roll.faces[0] - 1))


def run_out_of_fuel(rules: AeronauticaRules, out: Emitter, order: list[str]) -> None:
    """Fuel (p.11): "the number of turns the aircraft can fly for, after which it is removed from play ...
    an aircraft with a Fuel characteristic of 2 could operate for two turns before running out of fuel and
    crashing". In the End phase of its last turn (counted from the turn it entered play: turn 1, or a
    reserve's arrival), after Stalls and Spins, an aircraft with Fuel is destroyed (so Ejector Seats, p.37,
    roll for it and its enemy scores it as destroyed, p.32)."""
    for player in order:
        state = out.state
        for aircraft in state.aircraft.values():  # state.side(player), its list not built
            if aircraft.owner != player or not aircraft.in_play or aircraft.ground_defence:
                continue
            fuel = rules.profile(aircraft).fuel
            turns = state.turn - aircraft.entered_turn + 1
            if fuel is not None and turns >= fuel:
                out.emit(FuelExhausted(aircraft=aircraft.id, turns=turns))
                out.emit(AircraftDestroyed(aircraft=aircraft.id, cause=f"out of fuel (Fuel {fuel})"))


rerolls.CONTINUATIONS.update({
    rerolls.STALL_RECOVERY: stall_result,
    rerolls.SPIN_RECOVERY: spin_result,
    rerolls.SPIN_FACING: spin_facing,
    rerolls.EJECTOR_SEATS: ejector_seats_result,
})


HANDLERS: dict = {}


#: The phases in which :func:`legal_commands` may offer a command: none (the ruleset never asks).
COMMAND_PHASES: frozenset[str] = frozenset()


def legal_commands(rules: AeronauticaRules, state: GameState, player: str) -> list:
    """The End phase asks the players nothing: its rolls are made for them (p.29)."""
    return []


def _stall_recovered(rules: AeronauticaRules, state: GameState, event: StallRecovered,
                     scope: FoldScope | None = None) -> GameState:
    """Recovered from the Stall (p.29): Speed and Altitude as the roll left them."""
    aircraft = replaced(state.aircraft[event.aircraft], scope, stalled=False, speed=event.speed,
                        altitude=event.altitude)
    return with_aircraft(state, aircraft, scope)


def _spin_entered(rules: AeronauticaRules, state: GameState, event: SpinEntered,
                  scope: FoldScope | None = None) -> GameState:
    """The Stall becomes a Spin (p.29)."""
    aircraft = state.aircraft[event.aircraft]
    altitude = aircraft.altitude if event.altitude is None else event.altitude
    state = with_aircraft(state, replaced(aircraft, scope, stalled=False, spinning=True, altitude=altitude), scope)
    # "The player may not attempt to correct the Spin until the next End phase" (p.29).
    return _done(state, spin_key(event.aircraft), scope)


def _spin_recovered(rules: AeronauticaRules, state: GameState, event: SpinRecovered,
                    scope: FoldScope | None = None) -> GameState:
    """Out of the Spin at Max Speed, facing as the roll says (p.29)."""
    aircraft = replaced(state.aircraft[event.aircraft], scope, spinning=False, speed=event.speed,
                        facing=event.facing)
    return _done(with_aircraft(state, aircraft, scope), spin_key(event.aircraft), scope)


def _spin_fell(rules: AeronauticaRules, state: GameState, event: SpinFell,
               scope: FoldScope | None = None) -> GameState:
    """Still Spinning: the aircraft falls (p.29)."""
    aircraft = replaced(state.aircraft[event.aircraft], scope, altitude=max(event.altitude, 0))
    return _done(with_aircraft(state, aircraft, scope), spin_key(event.aircraft), scope)


def _fuel_exhausted(rules: AeronauticaRules, state: GameState, event: FuelExhausted,
                    scope: FoldScope | None = None) -> GameState:
    return state  # the AircraftDestroyed that follows removes it


def _done(state: GameState, key: str, scope: FoldScope | None = None) -> GameState:
    if state.phase != END:
        return state
    return replaced(state, scope, end_phase_done=(*state.end_phase_done, key))


#: The End phase's reducers by event type (the ruleset's dispatch reads this table); each returns the new state.
_REDUCERS = {
    StallRecovered: _stall_recovered,
    SpinEntered: _spin_entered,
    SpinRecovered: _spin_recovered,
    SpinFell: _spin_fell,
    FuelExhausted: _fuel_exhausted,
}


evolve = evolve_by_table(_REDUCERS, "the End phase's events")
