"""The turn sequence (rulebook p.13-14): Choose Manoeuvres, Initiative, Tailing Fire, Movement, Firing, End.

The phases the players make no choices in run by themselves: once every eligible
aircraft has a Manoeuvre token, Initiative is rolled (D6 each, ties re-rolled),
the Tailing Fire phase passes when no aircraft is Tailing (determined in the
previous End phase, p.30), and Movement begins with the initiative winner's
choice of who moves first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import msgspec

from aero_events.core import Command, DiceCup, Event, RuleError

from . import reserves, victory
from .commands import ChooseManoeuvre, DeclineManoeuvre
from .end_phase import resolve_end_phase
from .events import (
    FirstMoverChosen,
    GameEnded,
    InitiativeTied,
    InitiativeWon,
    ManoeuvreChosen,
    ManoeuvreDeclined,
    PhaseBegan,
    TurnBegan,
    TurnEnded,
)
from .scenarios import set_up
from .state import (
    ARRIVALS,
    CHOOSE_MANOEUVRES,
    END,
    FIRING,
    FLYING,
    GAME_OVER,
    INITIATIVE,
    LANDED,
    MOVEMENT,
    SET_UP,
    TAILING_FIRE,
    AircraftState,
    GameState,
)

if TYPE_CHECKING:
    from .ruleset import AeronauticaRules


class Emitter:
    """Collects the events a command causes, folding each so later steps see the new state.

    ``folded``, when given, keeps each fold (id(event) -> (event, state before, state after)) so that the
    session's fold of the same events reuses it (``AeronauticaRules.evolve``).
    """

    def __init__(self, state: GameState, evolve: Callable[[GameState, Event], GameState],
                 folded: dict[int, tuple[Event, GameState, GameState]] | None = None):
        self.state = state
        self.events: list[Event] = []
        self._evolve = evolve
        self._folded = folded

    def emit(self, event: Event) -> GameState:
        self.events.append(event)
        before = self.state
        self.state = self._evolve(before, event)
        if self._folded is not None:
            self._folded[id(event)] = (event, before, self.state)
        return self.state


def eligible_to_choose(aircraft: AircraftState) -> bool:
    """Every aircraft in play chooses a manoeuvre, except those in a Spin (p.13) and Ground Defences,
    which are static (p.8)."""
    return aircraft.status in (FLYING, LANDED) and not aircraft.spinning and not aircraft.ground_defence


def eligible_to_move(aircraft: AircraftState) -> bool:
    """Aircraft in a Spin are not eligible to move (p.13); the rest move once each (p.14)."""
    return (aircraft.status in (FLYING, LANDED) and not aircraft.spinning and not aircraft.moved
            and not aircraft.ground_defence)  # Ground Defences are static (p.8)


def all_chosen(state: GameState) -> bool:
    return all(a.commitment is not None or a.no_token for a in state.aircraft.values() if eligible_to_choose(a))


def may_decline(rules: AeronauticaRules, aircraft: AircraftState) -> bool:
    """A Hovering aircraft, at Speed 0 with Min Speed 0, "is not obliged to choose an Ace Manoeuvre" (p.16)."""
    return aircraft.status == FLYING and aircraft.speed == 0 and rules.profile(aircraft).can_hover


def next_to_act(state: GameState, just_acted: str) -> str | None:
    """Alternate; a side with aircraft left moves them one after another once the other is done (p.14)."""
    other = state.opponent(just_acted)
    if any(eligible_to_move(a) for a in state.side(other)):
        return other
    if any(eligible_to_move(a) for a in state.side(just_acted)):
        return just_acted
    return None


def roll_initiative(out: Emitter, dice: DiceCup) -> None:
    """Both players roll a D6; the highest wins; ties are re-rolled (p.13).

    Underdog (the Dogfight, p.35): a force smaller by 5 points or more has the initiative
    in the first turn without a roll (``state.underdog``, set up by scenarios/set_up.py).
    """
    if out.state.turn == 1 and out.state.underdog is not None:
        out.emit(InitiativeWon(player=out.state.underdog, reason="underdog"))
        return
    first, second = out.state.players
    while True:
        a = dice.d6(purpose="initiative", roller=first)
        b = dice.d6(purpose="initiative", roller=second)
        out.emit(a)
        out.emit(b)
        if a.faces[0] != b.faces[0]:
            out.emit(InitiativeWon(player=first if a.faces[0] > b.faces[0] else second))
            return
        out.emit(InitiativeTied())


def advance(rules: AeronauticaRules, out: Emitter, dice: DiceCup) -> None:
    """Run the turn forward through every step that needs no player's choice."""
    while True:
        state = out.state
        if state.pending_roll is not None:  # a re-roll decision first (Imperial Ace / Fly Boss, p.37, p.45)
            return
        if rules.options.last_aircraft_flying == "immediately" and ended_at_once(rules, out, dice):
            return
        if state.phase == CHOOSE_MANOEUVRES and all_chosen(state):
            out.emit(PhaseBegan(phase=INITIATIVE))
        elif state.phase == INITIATIVE:
            roll_initiative(out, dice)
            out.emit(PhaseBegan(phase=TAILING_FIRE))
        elif state.phase == TAILING_FIRE:
            from .firing import tailing_fire_over  # firing imports altitude, which imports this module
            if not tailing_fire_over(rules, out, dice):  # Tailing aircraft fire first (p.13, p.23)
                return
            out.emit(PhaseBegan(phase=MOVEMENT))
        elif state.phase == MOVEMENT and state.first_mover is not None and state.active is None \
                and (state.to_act is None or not any(eligible_to_move(a) for a in state.aircraft.values())):
            # Every eligible aircraft has moved (p.14), or none could: all in a Spin (p.13).
            out.emit(PhaseBegan(phase=FIRING))
        elif state.phase == FIRING:
            from .firing import firing_over
            if not firing_over(rules, out, dice):  # players alternate until all have fired (p.14, p.20)
                return
            out.emit(PhaseBegan(phase=END))
        elif state.phase == END:
            if not resolve_end_phase(rules, out, dice):
                return
            end_turn(rules, out, dice)
        elif state.phase == SET_UP:
            if not set_up.advance(rules, out, dice):  # roll-off, placement, cloud level (p.33-34)
                return
        elif state.phase == ARRIVALS:
            if not reserves.advance(out):  # arrived reserves placed before Choose Manoeuvres (p.33)
                return
        else:
            return


def ended_at_once(rules: AeronauticaRules, out: Emitter, dice: DiceCup) -> bool:
    """``RuleOptions(last_aircraft_flying="immediately")``: p.31 "Should it ever happen that only one player
    has any aircraft left in the Area of Engagement for any reason, the game automatically ends" at once,
    not in the End phase. Ejector Seats are rolled first (their player keeps the re-roll choice), then
    Victory points. True when the game ended (or waits for a re-roll decision to end)."""
    state = out.state
    if state.phase in (SET_UP, GAME_OVER, ARRIVALS):
        return False
    reason = victory.last_aircraft_flying(state, rules.options.ground_defences_count)
    if reason is None:
        return False
    first = state.initiative or state.players[0]
    if not victory.roll_ejector_seats(rules, out, [first, state.opponent(first)], dice):
        return True
    out.emit(TurnEnded(turn=state.turn))
    victory.end_game(rules, out, reason)
    return True


def end_turn(rules: AeronauticaRules, out: Emitter, dice: DiceCup) -> None:
    """Step 4 of the End phase, Ending the Game (p.29, p.31-32; see victory.py), and the next turn's start.

    The game ends after the last turn (Fuel Limit, 12, p.31), when only one player has aircraft left
    in the Area of Engagement (p.31), or after the Disengagement turn (p.31): Victory points are
    scored (p.32) and GameEnded names the winner (None for a draw). Otherwise Insurmountable Losses
    may make the next turn the Disengagement turn, the next turn begins, and reserves roll to arrive
    before its Choose Manoeuvres phase (p.33).
    """
    state = out.state
    ground_defences = rules.options.ground_defences_count
    reason = victory.game_end_reason(state, ground_defences)
    if reason is None:
        victory.declare_disengagement_turn(out, ground_defences)
    out.emit(TurnEnded(turn=state.turn))
    if reason is not None:
        victory.end_game(rules, out, reason)
        return
    out.emit(TurnBegan(turn=state.turn + 1))
    reserves.roll_arrivals(rules, out, dice)


# ---------------------------------------------------------------- Choose Manoeuvres (p.13)


def choose_manoeuvre(rules: AeronauticaRules, out: Emitter, command: ChooseManoeuvre, dice: DiceCup) -> None:
    """Choose Manoeuvres (p.13): a token face down for each eligible aircraft."""
    state = out.state
    if state.phase != CHOOSE_MANOEUVRES:
        raise RuleError("Ace Manoeuvres are chosen in the Choose Manoeuvres phase, before Initiative is rolled",
                        rule="Choose Manoeuvres", page=13)
    aircraft = state.aircraft.get(command.aircraft)
    if aircraft is None or aircraft.owner != command.player:
        raise RuleError(f"{command.player} has no aircraft {command.aircraft!r}", rule="Choose Manoeuvres", page=13)
    if not eligible_to_choose(aircraft):
        why = "is in a Spin" if aircraft.spinning else "is not in play"
        raise RuleError(f"{aircraft.id} {why} and cannot perform an Ace Manoeuvre", rule="Choose Manoeuvres",
                        page=13)
    if aircraft.commitment is not None:
        raise RuleError(f"{aircraft.id} already has its Manoeuvre token", rule="Choose Manoeuvres", page=13)
    allowed = rules.manoeuvres_for(aircraft)
    if command.manoeuvre not in allowed:
        raise RuleError(f"a {rules.profile(aircraft).name} can perform Ace Manoeuvres {allowed}, not "
                        f"{command.manoeuvre}", rule="Ace Manoeuvres", page=10)
    salt = dice.salts.next()
    out.emit(ManoeuvreChosen(owner=command.player, aircraft=aircraft.id, manoeuvre=command.manoeuvre).sealed(salt))


def decline_manoeuvre(rules: AeronauticaRules, out: Emitter, command: DeclineManoeuvre, dice: DiceCup) -> None:
    """Hovering (p.16): "Whilst at Speed 0, the aircraft does not move and is not obliged to choose an Ace
    Manoeuvre"; without one "a Hovering aircraft may not adjust its Speed" (movement.throttle_choices)."""
    state = out.state
    if state.phase != CHOOSE_MANOEUVRES:
        raise RuleError("Ace Manoeuvres are chosen (or not) in the Choose Manoeuvres phase", rule="Hovering",
                        page=16)
    aircraft = state.aircraft.get(command.aircraft)
    if aircraft is None or aircraft.owner != command.player:
        raise RuleError(f"{command.player} has no aircraft {command.aircraft!r}", rule="Choose Manoeuvres", page=13)
    if not eligible_to_choose(aircraft) or aircraft.commitment is not None or aircraft.no_token:
        raise RuleError(f"{aircraft.id} has no Manoeuvre token to choose now", rule="Choose Manoeuvres", page=13)
    if not may_decline(rules, aircraft):
        raise RuleError(f"{aircraft.id} is not Hovering (Speed {aircraft.speed}): it must choose an Ace Manoeuvre",
                        rule="Choose Manoeuvres", page=13)
    out.emit(ManoeuvreDeclined(aircraft=aircraft.id))


HANDLERS = {ChooseManoeuvre: choose_manoeuvre, DeclineManoeuvre: decline_manoeuvre}


def legal_commands(rules: AeronauticaRules, state: GameState, player: str) -> list[Command]:
    """A token for each eligible aircraft still without one, from the manoeuvres it can perform; a Hovering
    aircraft may also take none (p.16)."""
    if state.phase != CHOOSE_MANOEUVRES:
        return []
    commands: list[Command] = []
    for a in state.side(player):
        if not eligible_to_choose(a) or a.commitment is not None or a.no_token:
            continue
        commands.extend(ChooseManoeuvre(player=player, aircraft=a.id, manoeuvre=n) for n in rules.manoeuvres_for(a))
        if may_decline(rules, a):
            commands.append(DeclineManoeuvre(player=player, aircraft=a.id))
    return commands


# ---------------------------------------------------------------- reducers


def evolve(rules: AeronauticaRules, state: GameState, event: Event) -> GameState | None:
    """Reducers for the turn's own events; None when the event is not one of them."""
    replace = msgspec.structs.replace
    if isinstance(event, ManoeuvreChosen):
        aircraft = state.aircraft[event.aircraft]
        chosen = replace(aircraft, commitment=event.commitment, manoeuvre=event.manoeuvre, salt=event.salt)
        return replace(state, aircraft={**state.aircraft, aircraft.id: chosen})
    if isinstance(event, ManoeuvreDeclined):
        return replace(state, aircraft={**state.aircraft,
                                        event.aircraft: replace(state.aircraft[event.aircraft], no_token=True)})
    if isinstance(event, TurnBegan):
        aircraft = {
            key: replace(a, commitment=None, manoeuvre=None, salt=None, revealed=None, moved=False,
                         may_land=False, path=(), fired=False, tail_gunner_used=False, no_token=False)
            for key, a in state.aircraft.items()
        }
        return replace(state, turn=event.turn, phase=CHOOSE_MANOEUVRES, aircraft=aircraft, initiative=None,
                       initiative_rolls=0, first_mover=None, to_act=None, active=None, step=None, passed=())
    if isinstance(event, PhaseBegan):
        if event.phase in (TAILING_FIRE, FIRING):
            # Firing part: each aircraft fires once per phase; the initiative winner fires first in the
            # Tailing Fire phase (p.13), the first mover in the Firing phase (p.14), or the other player
            # if they have nothing that may fire.
            from .firing import first_to_fire
            aircraft = {key: replace(a, fired=False) if a.fired else a for key, a in state.aircraft.items()}
            state = replace(state, phase=event.phase, aircraft=aircraft, passed=(), to_act=None)
            first = state.initiative if event.phase == TAILING_FIRE else state.first_mover
            return replace(state, to_act=first_to_fire(state, first))
        if event.phase == END:
            # Firing part: Tailing is determined afresh in every End phase (p.30); the old one expires.
            aircraft = {key: replace(a, tailing=None, tailing_candidates=()) if a.tailing or a.tailing_candidates
                        else a for key, a in state.aircraft.items()}
            return replace(state, phase=END, aircraft=aircraft, end_phase_done=())
        return replace(state, phase=event.phase)
    if isinstance(event, InitiativeWon):
        return replace(state, initiative=event.player)
    if isinstance(event, InitiativeTied):
        return replace(state, initiative_rolls=state.initiative_rolls + 1)
    if isinstance(event, FirstMoverChosen):
        return replace(state, first_mover=event.first, to_act=event.first)
    if isinstance(event, TurnEnded):
        return replace(state, phase=END)
    if isinstance(event, GameEnded):
        return replace(state, phase=GAME_OVER, winner=event.winner, end_reason=event.reason)
    return None
