"""The host's turn (this project's minimal host, README): Vanguard moves, then game turns of two player turns,
each of Movement, Magic, Shooting and Close Combat phases; rallying; the end of the battle and Victory points.

* **Vanguard**: the first player, then the other, make their flyers' Vanguard moves (Special Rules) before
  turn 1.
* **Movement**: at its start each fleeing unit of the player tests to rally (2D6 <= Ld) or flees again from
  the nearest enemy (a unit in the air takes the Fly High test first). Then the player moves, flies and
  charges its units one by one and ends the phase.
* **Phases** that leave the player nothing to decide pass by themselves; in the Close Combat phase every
  combat fights and pursuit is automatic; the only decisions are challenges (combat.py).
* **End**: after the last game turn, or at the end of a player turn after which a side has no unit in the
  battle. Each enemy unit destroyed, fled off the table or flown high scores its points (Fly High: "similar to
  Fleeing Off the Table"). More points win; equal points are a draw.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aero_events.core import DiceCup, RuleError
from aero_events.core.emitter import Emitter

from . import attacks
from .commands import EndPhase
from .events import GameEnded, PhaseBegan, TurnBegan, UnitRallied
from .fleeing import flee, nearest_enemy_point
from .state import COMBAT, GAME_OVER, MOVEMENT, PHASES, VANGUARD, GameState

if TYPE_CHECKING:
    from .ruleset import WhfbFlyingRules


def decider(state: GameState) -> str | None:
    """Who decides now: the charged unit's player in a reaction window, the player making Vanguard moves, or the
    player whose turn it is."""
    if state.phase == GAME_OVER:
        return None
    if state.reactions.pending:
        return state.reactions.pending[-1].decider
    if state.phase == VANGUARD:
        order = (state.first, state.opponent(state.first))
        return next((p for p in order if p not in state.vanguard_done), None)
    return state.active


def end_phase(rules: WhfbFlyingRules, out: Emitter, command: EndPhase, dice: DiceCup) -> None:
    state = out.state
    if state.phase == VANGUARD or decider(state) != command.player or state.reactions.pending:
        raise RuleError("it is not your phase to end", rule="Host: the turn")
    next_phase(rules, out, dice)


HANDLERS = {EndPhase: end_phase}


def next_phase(rules: WhfbFlyingRules, out: Emitter, dice: DiceCup) -> None:
    phase = out.state.phase
    if phase == COMBAT:
        end_of_turn(rules, out, dice)
        return
    following = PHASES[PHASES.index(phase) + 1]
    out.emit(PhaseBegan(phase=following))
    if following == COMBAT:
        from .combat import combat_phase

        combat_phase(rules, out, dice)


def begin_turn(rules: WhfbFlyingRules, out: Emitter, dice: DiceCup, turn: int, player: str) -> None:
    out.emit(TurnBegan(turn=turn, turn_count=out.state.turn_count + 1, player=player))
    for unit in sorted(out.state.side(player), key=lambda u: u.id):
        unit = out.state.units[unit.id]
        if not unit.in_play or not unit.fleeing:
            continue
        profile = rules.profile(unit)
        if attacks.leadership_test(out, dice, unit.id, "rally", profile.profile.Ld, roller=player):
            # Fast Cavalry (Special Rules): a rallied flyer may still move this turn (host: Feigned Flight).
            out.emit(UnitRallied(unit=unit.id, may_move=profile.flyer))
        else:
            away = nearest_enemy_point(rules, out.state, unit)
            if away is not None:
                flee(rules, out, dice, unit.id, away, reason="failed to rally")


def end_of_turn(rules: WhfbFlyingRules, out: Emitter, dice: DiceCup) -> None:
    state = out.state
    wiped = [p for p in state.players if not state.side(p)]
    second = state.active != state.first
    if wiped or (second and state.turn >= state.last_turn):
        finish(rules, out, "a side has no units left in the battle" if wiped else f"turn {state.turn} was the last")
        return
    if second:
        begin_turn(rules, out, dice, state.turn + 1, state.first)
    else:
        begin_turn(rules, out, dice, state.turn, state.opponent(state.first))


def scores(rules: WhfbFlyingRules, state: GameState) -> dict[str, int]:
    result = {p: 0 for p in state.players}
    for unit in state.units.values():
        if not unit.alive:
            result[state.opponent(unit.side)] += unit.points
    return result


def finish(rules: WhfbFlyingRules, out: Emitter, why: str) -> None:
    points = scores(rules, out.state)
    first, second = out.state.players
    winner = first if points[first] > points[second] else second if points[second] > points[first] else None
    out.emit(GameEnded(winner=winner, scores=points, reason=why))


def advance(rules: WhfbFlyingRules, out: Emitter, dice: DiceCup) -> None:
    """Move the game on past everything that needs no decision."""
    from . import magic, shooting

    while True:
        state = out.state
        if state.phase == GAME_OVER or state.reactions.pending:
            return
        if state.phase == VANGUARD:
            if decider(state) is None:
                begin_turn(rules, out, dice, 1, state.first)
                continue
            return
        player = state.active
        if state.phase == MOVEMENT:
            if any(not u.moved and not u.fleeing and not state.engaged(u.id) for u in state.side(player)):
                return
        elif shooting.legal_commands(rules, state, player) or magic.legal_commands(rules, state, player):
            return
        next_phase(rules, out, dice)


def legal_commands(rules: WhfbFlyingRules, state: GameState, player: str) -> list:
    if state.phase in (GAME_OVER, VANGUARD) or state.reactions.pending or decider(state) != player:
        return []
    return [EndPhase(player=player)]
