"""``evolve``: how each event changes the state. Events carry their outcomes, so folding never decides."""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from aero_events.core.orders import ReactionChosen, ReactionWindowOpened, evolve_reactions

from . import events as ev
from .state import (
    ACTIVE,
    BRACE_FOR_IMPACT,
    DESTROYED,
    DISENGAGED,
    END,
    FIRST_TURN,
    GAME_OVER,
    MOVEMENT,
    ORDNANCE,
    SHOOTING,
    BlastMarker,
    GameState,
    OrdnanceMarker,
    PendingReaction,
    PendingRemoval,
    Shot,
    Strike,
)

replace = msgspec.structs.replace
ESCORT_DESTROYED = "escort destroyed"


def _ship(state: GameState, ship_id: str, **changes) -> GameState:
    ships = dict(state.ships)
    ships[ship_id] = replace(ships[ship_id], **changes)
    return replace(state, ships=ships)


def _leadership(state: GameState, e: ev.LeadershipRolled) -> GameState:
    return _ship(state, e.ship, leadership=e.leadership)


def _battle(state: GameState, e: ev.BattleBegan) -> GameState:
    return state


def _first_turn(state: GameState, e: ev.FirstTurnRolled) -> GameState:
    if e.winner is None:
        return state
    return replace(state, chooser=e.winner, phase=FIRST_TURN)


def _order_chosen(state: GameState, e: ev.TurnOrderChosen) -> GameState:
    return replace(state, first_player=e.first, chooser=None)


def _turn_began(state: GameState, e: ev.PlayerTurnBegan) -> GameState:
    ships = {sid: replace(s, moved=False, extra_move=0, weapons_used={}, leadership_passed=(),
                          leadership_failed=(), turrets_against=None, brace_failed_against=None)
             for sid, s in state.ships.items()}
    return replace(state, active=e.player, round=e.round, player_turn=e.player_turn, checks_failed=False,
                   ships=ships, shots=(), paths={}, shooting_done=False)


def _phase(state: GameState, e: ev.PhaseBegan) -> GameState:
    changes: dict = {"phase": e.phase}
    if e.phase in (SHOOTING, ORDNANCE, END):
        changes["shots"] = () if e.phase == SHOOTING else state.shots
    if e.phase == ORDNANCE:
        ordnance = {mid: replace(m, travelled=0, done=m.screening_turn == state.player_turn, blast_checked=False,
                                 steered=False)
                    for mid, m in state.ordnance.items()}
        ships = {sid: replace(s, turrets_against=None) for sid, s in state.ships.items()}
        changes.update(ordnance=ordnance, ships=ships)
    if e.phase == SHOOTING:
        ships = {sid: replace(s, weapons_used={}, leadership_passed=(), leadership_failed=())
                 for sid, s in state.ships.items()}
        changes["ships"] = ships
    return replace(state, **changes)


def _orders_removed(state: GameState, e: ev.OrdersRemoved) -> GameState:
    ships = dict(state.ships)
    for sid in e.ships:
        ships[sid] = replace(ships[sid], order=None, brace_ends_turn=0)
    return replace(state, ships=ships)


def _check(state: GameState, e: ev.CommandCheckTaken) -> GameState:
    return state if e.passed else replace(state, checks_failed=True)


def _order(state: GameState, e: ev.OrderPlaced) -> GameState:
    return _ship(state, e.ship, order=e.order, brace_ends_turn=e.brace_ends_turn)


def _reloaded(state: GameState, e: ev.OrdnanceReloaded) -> GameState:
    return _ship(state, e.ship, ordnance_loaded=True)


def _aaf(state: GameState, e: ev.AllAheadFullRolled) -> GameState:
    return _ship(state, e.ship, extra_move=e.extra)


def _ld_test(state: GameState, e: ev.LeadershipTestTaken) -> GameState:
    if e.purpose != "target priority":
        return state
    ship = state.ships[e.ship]
    if e.passed:
        return _ship(state, e.ship, leadership_passed=(*ship.leadership_passed, e.against))
    return _ship(state, e.ship, leadership_failed=(*ship.leadership_failed, e.against))


def _moved(state: GameState, e: ev.ShipMoved) -> GameState:
    ship = state.ships[e.ship]
    paths = dict(state.paths)
    previous = paths.get(e.ship)
    paths[e.ship] = e.path if previous is None else previous + e.path[1:]
    so_far = ship.last_move if previous is not None else 0
    state = replace(state, paths=paths)
    return _ship(state, e.ship, x=e.x, y=e.y, heading=e.heading, moved=e.complete, last_move=so_far + e.distance)


def _left(state: GameState, e: ev.ShipLeftTable) -> GameState:
    return _ship(state, e.ship, status=DISENGAGED, moved=True)


def _drifted(state: GameState, e: ev.HulkDrifted) -> GameState:
    ship = state.ships[e.ship]
    paths = dict(state.paths)
    paths[e.ship] = ((ship.x, ship.y), (e.x, e.y))
    return replace(_ship(state, e.ship, x=e.x, y=e.y), paths=paths)


def _nothing(state: GameState, e) -> GameState:
    return state


def _offered(state: GameState, e: ev.ReactionOffered) -> GameState:
    return replace(state, pending=PendingReaction(player=e.player, ship=e.ship, attacker=e.attacker, kind=e.kind,
                                                  can_brace=e.can_brace, can_turrets=e.can_turrets,
                                                  weapons=e.weapons, target=e.target, aim=e.aim,
                                                  joined=e.joined))


def _window_opened(state: GameState, e: ReactionWindowOpened) -> GameState:
    return replace(state, reactions=evolve_reactions(state.reactions, e))


def _window_answered(state: GameState, e: ReactionChosen) -> GameState:
    return replace(state, reactions=evolve_reactions(state.reactions, e), pending=None)


def _brace_failed(state: GameState, e: ev.BraceFailed) -> GameState:
    return _ship(state, e.ship, brace_failed_against=e.attacker)


def _fired(state: GameState, e: ev.WeaponsFired) -> GameState:
    ship = state.ships[e.ship]
    used = dict(ship.weapons_used)
    for weapon, amount in e.weapons:
        used[weapon] = used.get(weapon, 0) + amount
    state = _ship(state, e.ship, weapons_used=used)
    for mate, weapon, amount in e.joined:
        used = dict(state.ships[mate].weapons_used)
        used[weapon] = used.get(weapon, 0) + amount
        state = _ship(state, mate, weapons_used=used)
    return state


def _shot(state: GameState, e: ev.ShotRecorded) -> GameState:
    return replace(state, shots=(*state.shots, Shot(e.shooter, e.target, e.start, e.end, e.outcome)))


def _nova(state: GameState, e: ev.NovaCannonFired) -> GameState:
    return _ship(state, e.ship, weapons_used={**state.ships[e.ship].weapons_used, "nova": 1})


def _bm_placed(state: GameState, e: ev.BlastMarkerPlaced) -> GameState:
    markers = dict(state.blast_markers)
    markers[str(e.marker)] = BlastMarker(e.x, e.y)
    return replace(state, blast_markers=markers, next_id=max(state.next_id, e.marker + 1))


def _bm_removed(state: GameState, e: ev.BlastMarkersRemoved) -> GameState:
    gone = {str(m) for m in e.markers}
    markers = {mid: m for mid, m in state.blast_markers.items() if mid not in gone}
    return replace(state, blast_markers=markers, pending=None)


def _removal_rolled(state: GameState, e: ev.BlastMarkerRemovalRolled) -> GameState:
    if e.count == 0:
        return state
    return replace(state, pending=PendingRemoval(player=e.player, count=e.count))


def _damage(state: GameState, e: ev.DamageTaken) -> GameState:
    return _ship(state, e.ship, damage=e.damage)


def _critical(state: GameState, e: ev.CriticalHit) -> GameState:
    if e.critical == ESCORT_DESTROYED:
        return state  # the ShipDestroyed event that follows says it all (p.24)
    ship = state.ships[e.ship]
    return _ship(state, e.ship, criticals=(*ship.criticals, e.critical))


def _repaired(state: GameState, e: ev.CriticalRepaired) -> GameState:
    ship = state.ships[e.ship]
    criticals = list(ship.criticals)
    criticals.remove(e.critical)
    return _ship(state, e.ship, criticals=tuple(criticals))


def _catastrophic(state: GameState, e: ev.CatastrophicDamage) -> GameState:
    ship = state.ships[e.ship]
    order = None if e.status != ACTIVE else ship.order
    return _ship(state, e.ship, status=e.status, order=order)


def _destroyed(state: GameState, e: ev.ShipDestroyed) -> GameState:
    return _ship(state, e.ship, status=DESTROYED, order=None)


def _launched(state: GameState, e: ev.OrdnanceLaunched) -> GameState:
    ordnance = dict(state.ordnance)
    ordnance[e.marker] = OrdnanceMarker(id=e.marker, side=e.side, kind=e.kind, launcher=e.launcher, x=e.x, y=e.y,
                                        heading=e.heading, strength=e.strength, speed=e.speed,
                                        launched_turn=e.turn, attacked=(e.launcher,), fighters=e.fighters,
                                        bombers=e.bombers, assault_boats=e.assault_boats,
                                        torpedo_kind=e.torpedo_kind, ignore_hulks=e.ignore_hulks)
    number = int(e.marker.rsplit("-", 1)[1])
    state = replace(state, ordnance=ordnance, next_id=max(state.next_id, number + 1))
    return _ship(state, e.launcher, ordnance_loaded=False)


def _ord_moved(state: GameState, e: ev.OrdnanceMoved) -> GameState:
    ordnance = dict(state.ordnance)
    marker = ordnance[e.marker]
    ordnance[e.marker] = replace(marker, x=e.x, y=e.y, travelled=e.travelled, done=e.done,
                                 blast_checked=e.blast_checked)
    return replace(state, ordnance=ordnance)


def _ord_removed(state: GameState, e: ev.OrdnanceRemoved) -> GameState:
    return replace(state, ordnance={mid: m for mid, m in state.ordnance.items() if mid != e.marker})


def _turrets(state: GameState, e: ev.TurretsFired) -> GameState:
    return _ship(state, e.ship, turrets_against=e.against)


def _weakened(state: GameState, e: ev.SalvoWeakened) -> GameState:
    ordnance = dict(state.ordnance)
    marker = ordnance[e.marker]
    ordnance[e.marker] = replace(marker, strength=e.strength, attacked=e.attacked or marker.attacked)
    return replace(state, ordnance=ordnance)


def _squadrons(state: GameState, e: ev.SquadronsLost) -> GameState:
    ordnance = dict(state.ordnance)
    marker = ordnance[e.marker]
    ordnance[e.marker] = replace(marker, fighters=e.fighters, bombers=e.bombers, assault_boats=e.assault_boats,
                                 strength=e.fighters + e.bombers + e.assault_boats)
    return replace(state, ordnance=ordnance)


def _split(state: GameState, e: ev.WaveSplit) -> GameState:
    ordnance = dict(state.ordnance)
    wave = ordnance[e.marker]
    rest_f, rest_b = wave.fighters - e.fighters, wave.bombers - e.bombers
    rest_a = wave.assault_boats - e.assault_boats
    ordnance[e.marker] = replace(wave, fighters=e.fighters, bombers=e.bombers, assault_boats=e.assault_boats,
                                 strength=e.fighters + e.bombers + e.assault_boats, speed=e.speed)
    ordnance[e.new_marker] = replace(wave, id=e.new_marker, fighters=rest_f, bombers=rest_b, assault_boats=rest_a,
                                     strength=rest_f + rest_b + rest_a, speed=e.new_speed)
    number = int(e.new_marker.rsplit("-", 1)[1])
    return replace(state, ordnance=ordnance, next_id=max(state.next_id, number + 1))


def _steered(state: GameState, e: ev.TorpedoesSteered) -> GameState:
    ordnance = dict(state.ordnance)
    ordnance[e.marker] = replace(ordnance[e.marker], heading=e.heading, ignore_hulks=e.ignore_hulks, steered=True)
    return replace(state, ordnance=ordnance)


def _strikes_queued(state: GameState, e: ev.ExplosionStrikesQueued) -> GameState:
    new = tuple(Strike(wreck=e.wreck, side=e.side, victim=v, strength=e.strength, x=e.x, y=e.y) for v in e.victims)
    return replace(state, strikes=new + state.strikes)  # the newest explosion first: chains resolve depth-first


def _strike_offered(state: GameState, e: ev.ExplosionStrikeOffered) -> GameState:
    return replace(state, strikes=(replace(state.strikes[0], offered=True), *state.strikes[1:]))


def _strike_taken(state: GameState, e: ev.ExplosionStrikeTaken) -> GameState:
    return replace(state, strikes=state.strikes[1:])


def _screened(state: GameState, e: ev.FightersScreened) -> GameState:
    ordnance = dict(state.ordnance)
    ordnance[e.marker] = replace(ordnance[e.marker], x=e.x, y=e.y, screening_turn=e.turn)
    return replace(state, ordnance=ordnance)


def _shooting_ended(state: GameState, e: ev.ShootingEnded) -> GameState:
    return replace(state, shooting_done=True)


def _surrendered(state: GameState, e: ev.Surrendered) -> GameState:
    return replace(state, surrendered=e.player)


def _ended(state: GameState, e: ev.GameEnded) -> GameState:
    return replace(state, phase=GAME_OVER, winner=e.winner, result=e.reason, pending=None, strikes=())


APPLY: dict[type, Callable] = {
    ev.BattleBegan: _battle,
    ev.LeadershipRolled: _leadership,
    ev.FirstTurnRolled: _first_turn,
    ev.TurnOrderChosen: _order_chosen,
    ev.PlayerTurnBegan: _turn_began,
    ev.PhaseBegan: _phase,
    ev.OrdersRemoved: _orders_removed,
    ev.CommandCheckTaken: _check,
    ev.OrderPlaced: _order,
    ev.OrdnanceReloaded: _reloaded,
    ev.AllAheadFullRolled: _aaf,
    ev.LeadershipTestTaken: _ld_test,
    ev.ShipMoved: _moved,
    ev.ShipLeftTable: _left,
    ev.HulkDrifted: _drifted,
    ev.TargetDeclared: _nothing,
    ev.ReactionOffered: _offered,
    ReactionWindowOpened: _window_opened,
    ReactionChosen: _window_answered,
    ev.BraceFailed: _brace_failed,
    ev.WeaponsFired: _fired,
    ev.GunneryResolved: _nothing,
    ev.LancesResolved: _nothing,
    ev.ShotRecorded: _shot,
    ev.NovaCannonFired: _nova,
    ev.HitsAbsorbed: _nothing,
    ev.BlastMarkerPlaced: _bm_placed,
    ev.BlastMarkersRemoved: _bm_removed,
    ev.BlastMarkerRemovalRolled: _removal_rolled,
    ev.HitsSaved: _nothing,
    ev.DamageTaken: _damage,
    ev.ShipCrippled: _nothing,
    ev.CriticalHit: _critical,
    ev.CatastrophicDamage: _catastrophic,
    ev.ShipDestroyed: _destroyed,
    ev.OrdnanceLaunched: _launched,
    ev.OrdnanceMoved: _ord_moved,
    ev.OrdnanceRemoved: _ord_removed,
    ev.TurretsFired: _turrets,
    ev.TorpedoAttack: _nothing,
    ev.SalvoWeakened: _weakened,
    ev.CriticalRepaired: _repaired,
    ev.ShootingEnded: _shooting_ended,
    ev.SquadronsLost: _squadrons,
    ev.FightersScreened: _screened,
    ev.WaveSplit: _split,
    ev.TorpedoesSteered: _steered,
    ev.HitAndRunRaid: _nothing,
    ev.ExplosionStrikesQueued: _strikes_queued,
    ev.ExplosionStrikeOffered: _strike_offered,
    ev.ExplosionStrikeTaken: _strike_taken,
    ev.BomberAttack: _nothing,
    ev.Surrendered: _surrendered,
    ev.GameEnded: _ended,
}

__all__ = ["APPLY", "BRACE_FOR_IMPACT", "DISENGAGED", "MOVEMENT"]
