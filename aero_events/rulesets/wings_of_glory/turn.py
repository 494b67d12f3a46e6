"""GAME TURN: plan, move, fire (3a, 3b, 3c), bomb; all players at once; the end of the turn and of the game.

Steps no player decides run by themselves: once every plane in play has its card planned, the cards are
revealed and all planes move (movement.py); each fire sub-phase ends when every player has finished
(or has nothing to do), and its damage is then resolved together (damage.py); ground fire joins 3b.
After the bomb phase the turn ends: smoke and flame counters, ships and torpedoes (missions.py).

The game ends after the scenario's last turn, or when a side has no plane left in play.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from aero_events.core import DiceCup, Event
from aero_events.core.emitter import Emitter as CoreEmitter

from . import damage, firing, missions, planning
from .events import GameEnded, PhaseBegan, TurnBegan
from .movement import resolve_movement
from .state import BOMB, END, FIRE, MOVE, OVER, PLAN, SETUP, SUBPHASES, GameState, replace

if TYPE_CHECKING:
    from .ruleset import WingsOfGloryRules


class Emitter(CoreEmitter):
    """The core Emitter (core/emitter.py) with the salts planned cards are sealed with (planning.py)."""

    __slots__ = ("salts",)

    def __init__(self, state: GameState, evolve: Callable[[GameState, Event], GameState], salts: Any):
        super().__init__(state, evolve)
        self.salts = salts


def all_planned(state: GameState) -> bool:
    return not any(planning.needs_plan(state, plane) for plane in state.planes.values())


def step_finished(rules: WingsOfGloryRules, state: GameState) -> bool:
    """Every player has finished the fire sub-phase or the bomb phase, or has nothing to do in it."""
    if state.sniper is not None:
        return False
    if state.phase == FIRE:
        return all(player in state.done or not firing.has_commands(rules, state, player) for player in state.players)
    return all(player in state.done or not missions.legal_commands(rules, state, player) for player in state.players)


def game_end_reason(state: GameState) -> str | None:
    sides = sorted(set(state.sides.values()))
    flying = {side for side in sides if any(p.in_play and p.side == side for p in state.planes.values())}
    if len(flying) < len(sides):
        if not flying:
            return "no plane is left in play"
        return f"only {', '.join(sorted(flying))} has planes left in play"
    if state.turn >= state.last_turn:
        return f"the last turn ({state.last_turn}) is over"
    return None


def advance(rules: WingsOfGloryRules, out: Emitter, dice: DiceCup) -> None:
    """Run the turn forward through every step that needs no player's choice."""
    while True:
        state = out.state
        if state.phase == SETUP and all_planned(state):
            out.emit(TurnBegan(turn=1))
            out.emit(planning.open_plans(out.state))
        elif state.phase == PLAN and all_planned(state):
            out.emit(PhaseBegan(phase=MOVE))
            resolve_movement(rules, out, dice)
            out.emit(PhaseBegan(phase=FIRE, subphase=SUBPHASES[0]))
        elif state.phase == FIRE and step_finished(rules, state):
            if state.subphase == "3b":
                firing.ground_fire(rules, out, dice)
            damage.resolve_all(rules, out, dice)
            index = SUBPHASES.index(state.subphase)
            if index + 1 < len(SUBPHASES):
                out.emit(PhaseBegan(phase=FIRE, subphase=SUBPHASES[index + 1]))
            else:
                out.emit(PhaseBegan(phase=BOMB))
        elif state.phase == BOMB and step_finished(rules, state):
            out.emit(PhaseBegan(phase=END))
            damage.end_of_turn_counters(rules, out, dice)
            missions.end_of_turn_moves(rules, out, dice)
            reason = game_end_reason(out.state)
            if reason is not None:
                scores = missions.scores(rules, out.state)
                winner = winner_of(out.state, scores)
                out.emit(GameEnded(winner=winner, reason=reason, scores=scores))
                return
            out.emit(TurnBegan(turn=state.turn + 1))
            out.emit(planning.open_plans(out.state))
        else:
            return


def winner_of(state: GameState, scores: dict[str, int]) -> str | None:
    """The side with the most victory points; on equal points the only side with planes still in play (it holds
    the sky: a choice, the text leaves victory to the scenario); otherwise a draw."""
    best = max(scores.values()) if scores else 0
    leaders = [side for side, score in scores.items() if score == best]
    if len(leaders) == 1:
        return leaders[0]
    flying = {p.side for p in state.planes.values() if p.in_play}
    holding = [side for side in leaders if side in flying]
    return holding[0] if len(holding) == 1 else None


HANDLERS: dict = {}


def legal_commands(rules, state, player) -> list:
    return []


def evolve(rules: WingsOfGloryRules, state: GameState, event: Event) -> GameState | None:
    if isinstance(event, TurnBegan):
        planes = {
            key: replace(p, fired_arcs=(), fired_crew=(), fired_fixed=False, overlap_shots=(),
                         targets_before=p.targets_now, targets_now=(), bombed=False, replaced_by_card=False,
                         path=(), swept=(), over_targets=(), executed="", illegal=False)
            for key, p in state.planes.items()
        }
        targets = {key: replace(t, strafed_by=()) if t.strafed_by else t for key, t in state.targets.items()}
        return replace(state, turn=event.turn, phase=PLAN, subphase=None, planes=planes, targets=targets, done=(),
                       overlaps=(), shots=())
    if isinstance(event, PhaseBegan):
        targets = state.targets
        if event.phase == FIRE and event.subphase == SUBPHASES[0]:
            targets = {key: replace(t, strafed_by=()) if t.strafed_by else t for key, t in state.targets.items()}
        return replace(state, phase=event.phase, subphase=event.subphase, done=(), targets=targets)
    if isinstance(event, GameEnded):
        return replace(state, phase=OVER, winner=event.winner, end_reason=event.reason, scores=event.scores)
    return None
