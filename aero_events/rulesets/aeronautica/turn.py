"""The turn sequence (rulebook p.13-14): Choose Manoeuvres, Initiative, Tailing Fire, Movement, Firing, End.

The phases the players make no choices in run by themselves: once every eligible
aircraft has a Manoeuvre token, Initiative is rolled (D6 each, ties re-rolled),
the Tailing Fire phase passes (no aircraft can be Tailing before the End phase
that determines it, p.30; tailing itself arrives with the End phase rules), and
Movement begins with the initiative winner's choice of who moves first.
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from aero_events.core import DiceCup, Event

from .events import (
    FirstMoverChosen,
    GameEnded,
    InitiativeTied,
    InitiativeWon,
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


def advance(out: Emitter, dice: DiceCup) -> None:
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


# ---------------------------------------------------------------- reducers


def evolve_turn(state: GameState, event: Event) -> GameState | None:
    """Reducers for the turn's own events; None when the event is not one of them."""
    replace = msgspec.structs.replace
    if isinstance(event, TurnBegan):
        aircraft = {
            key: replace(a, commitment=None, manoeuvre=None, salt=None, revealed=None, moved=False,
                         may_land=False, path=())
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
