"""The turn sequence (rulebook p.13-14): Choose Manoeuvres, Initiative, Tailing Fire, Movement, Firing, End.

The phases the players make no choices in run by themselves: once every eligible
aircraft has a Manoeuvre token, Initiative is rolled (D6 each, ties re-rolled),
the Tailing Fire phase passes (no aircraft can be Tailing before the End phase
that determines it, p.30; tailing itself arrives with the End phase rules), and
Movement begins with the initiative winner's choice of who moves first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import msgspec

from aero_events.core import Command, DiceCup, Event, RuleError

from .commands import ChooseManoeuvre
from .end_phase import resolve_end_phase
from .events import (
    FirstMoverChosen,
    GameEnded,
    InitiativeTied,
    InitiativeWon,
    ManoeuvreChosen,
    PhaseBegan,
    TurnBegan,
    TurnEnded,
)
from .state import (
    CHOOSE_MANOEUVRES,
    END,
    FIRING,
    FLYING,
    GAME_OVER,
    INITIATIVE,
    LANDED,
    MOVEMENT,
    TAILING_FIRE,
    AircraftState,
    GameState,
)

if TYPE_CHECKING:
    from .ruleset import AeronauticaRules


class Emitter:
    """Collects the events a command causes, folding each so later steps see the new state."""

    def __init__(self, state: GameState, evolve: Callable[[GameState, Event], GameState]):
        self.state = state
        self.events: list[Event] = []
        self._evolve = evolve

    def emit(self, event: Event) -> GameState:
        self.events.append(event)
        self.state = self._evolve(self.state, event)
        return self.state


def eligible_to_choose(aircraft: AircraftState) -> bool:
    """Every aircraft in play chooses a manoeuvre, except those in a Spin (p.13)."""
    return aircraft.status in (FLYING, LANDED) and not aircraft.spinning


def eligible_to_move(aircraft: AircraftState) -> bool:
    """Aircraft in a Spin are not eligible to move (p.13); the rest move once each (p.14)."""
    return aircraft.status in (FLYING, LANDED) and not aircraft.spinning and not aircraft.moved


def all_chosen(state: GameState) -> bool:
    return all(a.commitment is not None for a in state.aircraft.values() if eligible_to_choose(a))


def next_to_act(state: GameState, just_acted: str) -> str | None:
    """Alternate; a side with aircraft left moves them one after another once the other is done (p.14)."""
    other = state.opponent(just_acted)
    if any(eligible_to_move(a) for a in state.side(other)):
        return other
    if any(eligible_to_move(a) for a in state.side(just_acted)):
        return just_acted
    return None


def roll_initiative(out: Emitter, dice: DiceCup) -> None:
    """Both players roll a D6; the highest wins; ties are re-rolled (p.13)."""
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
        if state.phase == CHOOSE_MANOEUVRES and all_chosen(state):
            out.emit(PhaseBegan(phase=INITIATIVE))
        elif state.phase == INITIATIVE:
            roll_initiative(out, dice)
            out.emit(PhaseBegan(phase=TAILING_FIRE))
        elif state.phase == TAILING_FIRE:
            out.emit(PhaseBegan(phase=MOVEMENT))
        elif state.phase == MOVEMENT and state.first_mover is not None and state.active is None \
                and state.to_act is None:
            out.emit(PhaseBegan(phase=FIRING))
        elif state.phase == FIRING and len(state.passed) == 2:
            out.emit(PhaseBegan(phase=END))
        elif state.phase == END:
            resolve_end_phase(rules, out, dice)
            end_turn(out)
        else:
            return


def end_turn(out: Emitter) -> None:
    """Close the turn; after the last turn (12, p.31) the game ends."""
    state = out.state
    out.emit(TurnEnded(turn=state.turn))
    in_play = {p: [a for a in state.side(p) if a.in_play] for p in state.players}
    if state.turn >= state.last_turn:
        out.emit(GameEnded(reason=f"turn {state.turn} was the last turn", winner=None))
    elif not all(in_play.values()):
        survivors = [p for p, planes in in_play.items() if planes]
        out.emit(GameEnded(reason="last aircraft flying", winner=survivors[0] if survivors else None))
    else:
        out.emit(TurnBegan(turn=state.turn + 1))


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
    salt = dice.salts.next()  # type: ignore[attr-defined]
    out.emit(ManoeuvreChosen(owner=command.player, aircraft=aircraft.id, manoeuvre=command.manoeuvre).sealed(salt))


HANDLERS = {ChooseManoeuvre: choose_manoeuvre}


def legal_commands(rules: AeronauticaRules, state: GameState, player: str) -> list[Command]:
    """A token for each eligible aircraft still without one, from the manoeuvres it can perform."""
    if state.phase != CHOOSE_MANOEUVRES:
        return []
    return [ChooseManoeuvre(player=player, aircraft=a.id, manoeuvre=n)
            for a in state.side(player) if eligible_to_choose(a) and a.commitment is None
            for n in rules.manoeuvres_for(a)]


# ---------------------------------------------------------------- reducers


def evolve(rules: AeronauticaRules, state: GameState, event: Event) -> GameState | None:
    """Reducers for the turn's own events; None when the event is not one of them."""
    replace = msgspec.structs.replace
    if isinstance(event, ManoeuvreChosen):
        aircraft = state.aircraft[event.aircraft]
        chosen = replace(aircraft, commitment=event.commitment, manoeuvre=event.manoeuvre, salt=event.salt)
        return replace(state, aircraft={**state.aircraft, aircraft.id: chosen})
    if isinstance(event, TurnBegan):
        aircraft = {
            key: replace(a, commitment=None, manoeuvre=None, salt=None, revealed=None, moved=False,
                         may_land=False, path=(), fired=False, tail_gunner_used=False)
            for key, a in state.aircraft.items()
        }
        return replace(state, turn=event.turn, phase=CHOOSE_MANOEUVRES, aircraft=aircraft, initiative=None,
                       initiative_rolls=0, first_mover=None, to_act=None, active=None, step=None, passed=())
    if isinstance(event, PhaseBegan):
        if event.phase == FIRING:
            return replace(state, phase=FIRING, to_act=state.first_mover, passed=())
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
