"""How each event changes the state (``evolve``): one small function per event type, no dice, no rules."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from aero_events.core.orders import ReactionChosen, ReactionWindowOpened, evolve_reactions

from . import events as ev
from .state import (
    DESTROYED,
    FALLEN,
    FLED,
    FLOWN_HIGH,
    FLY,
    GAME_OVER,
    INTERCEPT,
    MOVEMENT,
    SWOOP,
    Challenge,
    Combat,
    Drawn,
    GameState,
    PendingCharge,
    Spot,
)


def _unit(state: GameState, unit_id: str, **changes: Any) -> GameState:
    units = dict(state.units)
    units[unit_id] = replace(units[unit_id], **changes)
    carried = {k: v for k, v in changes.items() if k in ("pose", "in_air", "flight")}
    if carried:  # a character that joined a unit is where its unit is and made its unit's fly move
        for uid, other in state.units.items():
            if other.joined == unit_id and other.alive:
                units[uid] = replace(other, **carried)
    return replace(state, units=units)


def _drop_combats(state: GameState, unit_id: str) -> GameState:
    return replace(state, combats=tuple(c for c in state.combats if unit_id not in (c.charger, c.target)))


def _path(state: GameState, unit: str, points, label: str) -> GameState:
    if len(points) < 2:
        return state
    return replace(state, paths=(*state.paths, Drawn(unit=unit, points=tuple(points), label=label)))


def vanguard_ended(state: GameState, e: ev.VanguardEnded) -> GameState:
    return replace(state, vanguard_done=(*state.vanguard_done, e.player))


def turn_began(state: GameState, e: ev.TurnBegan) -> GameState:
    units = {}
    for uid, u in state.units.items():
        own = u.side == e.player
        units[uid] = replace(u, moved=False, marched=False, charged=False, shot=False, fought=False, cast=False,
                             flight="" if own else u.flight,
                             fell=u.fell and u.fallen_until >= e.turn_count)
    return replace(state, turn=e.turn, turn_count=e.turn_count, active=e.player, phase=MOVEMENT, units=units,
                   paths=(), shots=(), challenges=(), templates=())


def phase_began(state: GameState, e: ev.PhaseBegan) -> GameState:
    return replace(state, phase=e.phase)


def unit_moved(state: GameState, e: ev.UnitMoved) -> GameState:
    unit = state.units[e.unit]
    changes: dict[str, Any] = {"pose": e.pose}
    if e.counts_as_move:
        changes.update(moved=True, marched=e.march)
    if e.files:
        changes["files"] = e.files
    return _path(_unit(state, e.unit, **changes), e.unit, e.path, e.how) if unit else state


def flight_made(state: GameState, e: ev.FlightMade) -> GameState:
    changes: dict[str, Any] = {"pose": e.pose, "in_air": e.in_air, "moved": True, "fell": False,
                               "flight": "" if e.move.startswith("vanguard") else e.move}
    if e.files:
        changes["files"] = e.files
    return _path(_unit(state, e.unit, **changes), e.unit, e.path, e.move)


def charge_declared(state: GameState, e: ev.ChargeDeclared) -> GameState:
    return replace(state, pending=PendingCharge(charger=e.unit, target=e.target, kind=e.kind, flank=e.flank))


def reaction(state: GameState, e: Any) -> GameState:
    return replace(state, reactions=evolve_reactions(state.reactions, e))


def charge_resolved(state: GameState, e: ev.ChargeResolved) -> GameState:
    changes: dict[str, Any] = {"pose": e.pose, "moved": True, "charged": True}
    if e.kind in (INTERCEPT, SWOOP):
        changes["flight"] = e.kind
    state = _unit(replace(state, pending=None), e.unit, **changes)
    if e.reached:
        state = replace(state, combats=(*state.combats, Combat(charger=e.unit, target=e.target, kind=e.kind,
                                                                side=e.side, contacts=e.contacts,
                                                                exit_heading=e.exit_heading)))
    return _path(state, e.unit, e.path, e.kind)


def attack_resolved(state: GameState, e: ev.AttackResolved) -> GameState:
    if e.spell:
        state = _unit(state, e.attacker, cast=True)
    elif e.shooting:
        state = _unit(state, e.attacker, shot=True)
    if e.shooting or e.attack == "falling model":
        outcome = "hit" if e.unsaved else "miss"
        state = replace(state, shots=(*state.shots, Drawn(unit=e.attacker, points=(e.start, e.end), target=e.target,
                                                          label=e.attack, outcome=outcome)))
    return state


def unit_wounded(state: GameState, e: ev.UnitWounded) -> GameState:
    if e.models == 0:
        return _drop_combats(_unit(state, e.unit, models=0, wounds_taken=0, status=DESTROYED), e.unit)
    return _unit(state, e.unit, models=e.models, wounds_taken=e.wounds_taken)


def test_taken(state: GameState, e: ev.TestTaken) -> GameState:
    return state


def model_fell(state: GameState, e: ev.ModelFell) -> GameState:
    return _path(state, e.unit, (e.start, e.landing), "fall")


def character_grounded(state: GameState, e: ev.CharacterGrounded) -> GameState:
    state = _unit(state, e.unit, pose=e.pose, in_air=False, fell=True, fallen_until=e.fallen_until, flight="",
                  joined="")
    if e.engaged_with:
        enemy = state.units[e.engaged_with]
        fought = state.turn_count if enemy.fought or state.active == state.units[e.unit].side else 0
        state = replace(state, combats=(*state.combats, Combat(charger=e.unit, target=e.engaged_with, kind=FALLEN,
                                                                side=e.side, first_round=False,
                                                                fought_turn=fought)))
    return _path(state, e.unit, e.path, "fall")


def unit_fled(state: GameState, e: ev.UnitFled) -> GameState:
    changes: dict[str, Any] = {"pose": e.pose, "fleeing": True}
    if e.off_table:
        changes["status"] = FLED
    return _path(_drop_combats(_unit(state, e.unit, **changes), e.unit), e.unit, e.path, "flee")


def unit_rallied(state: GameState, e: ev.UnitRallied) -> GameState:
    return _unit(state, e.unit, fleeing=False, moved=not e.may_move)


def character_joined(state: GameState, e: ev.CharacterJoined) -> GameState:
    host = state.units[e.unit]
    return _unit(state, e.character, joined=e.unit, pose=host.pose, in_air=host.in_air, moved=True)


def character_released(state: GameState, e: ev.CharacterReleased) -> GameState:
    return _unit(state, e.character, joined="", pose=e.pose, in_air=e.in_air, fleeing=False)


def flew_high(state: GameState, e: ev.FlewHigh) -> GameState:
    return _drop_combats(_unit(state, e.unit, status=FLOWN_HIGH, fleeing=False), e.unit)


def unit_destroyed(state: GameState, e: ev.UnitDestroyed) -> GameState:
    return _drop_combats(_unit(state, e.unit, status=DESTROYED), e.unit)


def combat_resolved(state: GameState, e: ev.CombatResolved) -> GameState:
    fought = set(e.units)
    combats = tuple(replace(c, first_round=False, fought_turn=state.turn_count)
                    if c.charger in fought and c.target in fought else c for c in state.combats)
    state = replace(state, combats=combats)
    for uid in e.units:
        state = _unit(state, uid, fought=True)
    return state


def challenge_issued(state: GameState, e: ev.ChallengeIssued) -> GameState:
    others = tuple(c for c in state.challenges if c.key != e.key)
    return replace(state, challenges=(*others, Challenge(key=e.key, challenger=e.challenger)))


def challenge_settled(state: GameState, e: ev.ChallengeSettled) -> GameState:
    others = tuple(c for c in state.challenges if c.key != e.key)
    settled = Challenge(key=e.key, challenger=e.challenger, accepted_by=e.accepted_by, refused=e.refused,
                        settled=True)
    return replace(state, challenges=(*others, settled))


def character_left(state: GameState, e: ev.CharacterLeft) -> GameState:
    flight = FLY if e.in_air else ""
    state = _unit(state, e.character, joined="", pose=e.pose, in_air=e.in_air, moved=True, flight=flight)
    return _path(state, e.character, e.path, "leaves its unit")


def template_placed(state: GameState, e: ev.TemplatePlaced) -> GameState:
    spot = Spot(unit=e.caster, centre=e.centre, radius=e.radius, in_air=e.in_air, label=e.spell)
    return replace(state, templates=(*state.templates, spot))


def combat_ended(state: GameState, e: ev.CombatEnded) -> GameState:
    return replace(state, combats=tuple(c for c in state.combats if (c.charger, c.target) != (e.charger, e.target)))


def game_ended(state: GameState, e: ev.GameEnded) -> GameState:
    return replace(state, phase=GAME_OVER, winner=e.winner, scores=dict(e.scores), reason=e.reason)


APPLY: dict[type, Callable[[GameState, Any], GameState]] = {
    ev.VanguardEnded: vanguard_ended, ev.TurnBegan: turn_began, ev.PhaseBegan: phase_began,
    ev.UnitMoved: unit_moved, ev.FlightMade: flight_made, ev.ChargeDeclared: charge_declared,
    ReactionWindowOpened: reaction, ReactionChosen: reaction, ev.ChargeResolved: charge_resolved,
    ev.AttackResolved: attack_resolved, ev.UnitWounded: unit_wounded, ev.TestTaken: test_taken,
    ev.ModelFell: model_fell, ev.CharacterGrounded: character_grounded, ev.UnitFled: unit_fled,
    ev.UnitRallied: unit_rallied, ev.FlewHigh: flew_high, ev.UnitDestroyed: unit_destroyed,
    ev.CombatResolved: combat_resolved, ev.CharacterJoined: character_joined,
    ev.CharacterReleased: character_released, ev.CombatEnded: combat_ended, ev.GameEnded: game_ended,
    ev.ChallengeIssued: challenge_issued, ev.ChallengeSettled: challenge_settled, ev.CharacterLeft: character_left,
    ev.TemplatePlaced: template_placed,
}
