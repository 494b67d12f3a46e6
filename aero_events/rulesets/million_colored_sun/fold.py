"""How each event changes the state (``evolve``): one small function per event type, no dice, no rules."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from . import events as ev
from .state import (
    ACTIVE,
    AIRBORNE,
    BOMBING_RUN,
    COMBAT,
    EVADE,
    EXPLODED,
    FLED,
    GAME_OVER,
    HERO,
    LOCK_ON,
    LOST,
    OFF_TABLE,
    RED_MANOEUVRE,
    SLAIN,
    BlastDrawn,
    GameState,
    ModelState,
    PathDrawn,
    ShotDrawn,
)


def _model(state: GameState, model_id: str, **changes: Any) -> GameState:
    models = dict(state.models)
    models[model_id] = replace(models[model_id], **changes)
    return replace(state, models=models)


def battle_round_began(state: GameState, e: ev.BattleRoundBegan) -> GameState:
    return replace(state, round=e.round, first=e.first, active=None)


def player_turn_began(state: GameState, e: ev.PlayerTurnBegan) -> GameState:
    models = {mid: replace(m, moved=False, ran=False, charged=False, shot=(), fought=False)
              for mid, m in state.models.items()}
    return replace(state, active=e.player, turn_number=e.turn_number, phase=HERO, models=models, paths=(), shots=(),
                   blasts=(), combat_player=None)


def phase_began(state: GameState, e: ev.PhaseBegan) -> GameState:
    changes: dict[str, Any] = {"phase": e.phase}
    if e.phase == COMBAT:
        changes["combat_player"] = state.active
        changes["combat_done"] = ()
        changes["models"] = {mid: replace(m, fought=False) for mid, m in state.models.items()}
    return replace(state, **changes)


def combat_pick_passed(state: GameState, e: ev.CombatPickPassed) -> GameState:
    done = state.combat_done if e.finished is None or e.finished in state.combat_done else \
        (*state.combat_done, e.finished)
    return replace(state, combat_player=e.player, combat_done=done)


def objective_scored(state: GameState, e: ev.ObjectiveScored) -> GameState:
    vp = dict(state.vp)
    vp[e.player] = vp.get(e.player, 0) + e.points
    return replace(state, vp=vp)


def game_ended(state: GameState, e: ev.GameEnded) -> GameState:
    return replace(state, phase=GAME_OVER, winner=e.winner, reason=e.reason, vp=dict(e.scores))


def action_taken(state: GameState, e: ev.ActionTaken) -> GameState:
    return _model(state, e.model, action=e.action, evade=e.action == EVADE, lock_on=e.action == LOCK_ON,
                  red_ready=e.action == RED_MANOEUVRE, bombing_run=e.action == BOMBING_RUN)


def blast_marker_gained(state: GameState, e: ev.BlastMarkerGained) -> GameState:
    return _model(state, e.model, blast_markers=state.models[e.model].blast_markers + 1)


def recovered(state: GameState, e: ev.Recovered) -> GameState:
    model = state.models[e.model]
    return _model(state, e.model, blast_markers=max(0, model.blast_markers - 1), jammed=())


def effects_expired(state: GameState, e: ev.EffectsExpired) -> GameState:
    models = dict(state.models)
    for mid, m in state.models.items():
        if m.side == e.player and (m.action or m.evade or m.lock_on or m.red_ready or m.bombing_run):
            models[mid] = replace(m, action=None, evade=False, lock_on=False, red_ready=False, bombing_run=False)
    return replace(state, models=models)


def missile_launched(state: GameState, e: ev.MissileLaunched) -> GameState:
    models = dict(state.models)
    launcher = models[e.model]
    models[e.model] = replace(launcher, missiles_launched=launcher.missiles_launched + 1)
    models[e.missile] = ModelState(id=e.missile, side=e.side, warscroll="missile", x=e.x, y=e.y, heading=e.heading,
                                   mode=AIRBORNE, launched_turn=e.turn_number)
    return replace(state, models=models, next_missile=state.next_missile + 1)


def model_left_board(state: GameState, e: ev.ModelLeftBoard) -> GameState:
    return _model(state, e.model, status=OFF_TABLE, x=e.x, y=e.y, left_turn=e.turn_number, returning=False)


def return_rolled(state: GameState, e: ev.ReturnRolled) -> GameState:
    return _model(state, e.model, returning=e.returns)


def model_returned(state: GameState, e: ev.ModelReturned) -> GameState:
    return _model(state, e.model, status=ACTIVE, x=e.x, y=e.y, heading=e.heading, returning=False, left_turn=None)


def missile_lost(state: GameState, e: ev.MissileLost) -> GameState:
    return _model(state, e.missile, status=LOST)


def model_flew(state: GameState, e: ev.ModelFlew) -> GameState:
    state = _model(state, e.model, x=e.x, y=e.y, heading=e.heading, moved=True)
    return replace(state, paths=(*state.paths, PathDrawn(e.model, e.path)))


def model_moved(state: GameState, e: ev.ModelMoved) -> GameState:
    end = e.path[-1]
    model = state.models[e.model]
    state = _model(state, e.model, x=end[0], y=end[1], heading=e.heading, moved=True, ran=model.ran or e.run,
                   charged=model.charged or e.charge)
    return replace(state, paths=(*state.paths, PathDrawn(e.model, e.path)))


def charge_rolled(state: GameState, e: ev.ChargeRolled) -> GameState:
    return _model(state, e.model, charged=True)


def mode_shifted(state: GameState, e: ev.ModeShifted) -> GameState:
    return _model(state, e.model, mode=e.mode)


def bomb_dropped(state: GameState, e: ev.BombDropped) -> GameState:
    model = state.models[e.model]
    state = _model(state, e.model, bombs_dropped=model.bombs_dropped + 1)
    return replace(state, blasts=(*state.blasts, BlastDrawn("bomb", e.x, e.y, 3 * 2540, f"bomb of {e.model}")))


def terrain_destroyed(state: GameState, e: ev.TerrainDestroyed) -> GameState:
    terrain = dict(state.terrain)
    terrain[e.terrain] = replace(terrain[e.terrain], destroyed=True)
    return replace(state, terrain=terrain)


def missile_exploded(state: GameState, e: ev.MissileExploded) -> GameState:
    state = _model(state, e.missile, status=EXPLODED, x=e.x, y=e.y)
    return replace(state, blasts=(*state.blasts, BlastDrawn("missile", e.x, e.y, 3 * 2540, f"{e.missile}: {e.reason}")))


def attacks_made(state: GameState, e: ev.AttacksMade) -> GameState:
    model = state.models[e.model]
    if e.weapon not in model.shot:
        state = _model(state, e.model, shot=(*model.shot, e.weapon))
    outcome = "hit" if e.inflicted else "miss"
    return replace(state, shots=(*state.shots, ShotDrawn(e.model, e.target, e.start, e.end, outcome)))


def wounds_allocated(state: GameState, e: ev.WoundsAllocated) -> GameState:
    model = state.models[e.model]
    return _model(state, e.model, wounds_taken=model.wounds_taken + e.wounds)


def model_slain(state: GameState, e: ev.ModelSlain) -> GameState:
    return _model(state, e.model, status=SLAIN, slain_turn=state.turn_number)


def model_fled(state: GameState, e: ev.ModelFled) -> GameState:
    return _model(state, e.model, status=FLED, slain_turn=state.turn_number)


def unchanged(state: GameState, e: Any) -> GameState:
    return state


def model_fought(state: GameState, e: ev.ModelFought) -> GameState:
    return _model(state, e.model, fought=True)


APPLY: dict[type, Callable[[GameState, Any], GameState]] = {
    ev.BattleRoundBegan: battle_round_began,
    ev.PlayerTurnBegan: player_turn_began,
    ev.PhaseBegan: phase_began,
    ev.CombatPickPassed: combat_pick_passed,
    ev.ObjectiveScored: objective_scored,
    ev.GameEnded: game_ended,
    ev.ActionTaken: action_taken,
    ev.BlastMarkerGained: blast_marker_gained,
    ev.Recovered: recovered,
    ev.EffectsExpired: effects_expired,
    ev.MissileLaunched: missile_launched,
    ev.ModelLeftBoard: model_left_board,
    ev.ReturnRolled: return_rolled,
    ev.ModelReturned: model_returned,
    ev.MissileLost: missile_lost,
    ev.ModelFlew: model_flew,
    ev.ModelMoved: model_moved,
    ev.ChargeRolled: charge_rolled,
    ev.ModeShifted: mode_shifted,
    ev.CollisionWithTerrain: unchanged,
    ev.BombDropped: bomb_dropped,
    ev.TerrainDestroyed: terrain_destroyed,
    ev.MissileTriggered: unchanged,
    ev.ModelFought: model_fought,
    ev.MissileExploded: missile_exploded,
    ev.InitiativeTested: unchanged,
    ev.AttacksMade: attacks_made,
    ev.WoundsAllocated: wounds_allocated,
    ev.ModelSlain: model_slain,
    ev.ModelFled: model_fled,
    ev.BattleshockTested: unchanged,
}
