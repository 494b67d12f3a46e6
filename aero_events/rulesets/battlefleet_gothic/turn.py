"""The turn (p.13-14): set-up rolls, who gets the first turn, alternating player turns of four phases, the
phases that need no decision, and ending the battle.

* Starting Leadership is rolled for each ship without one from the scenario (p.10): once per squadron of
  escorts (``ShipSetup.squadron``), each capital ship individually even in a squadron.
* Who Gets the First Turn (p.13): a D6 each; the highest chooses to go first or second; ties are re-rolled.
* A player turn: movement (order dice of the player's ships removed except Brace, hulks drift, p.14, p.26),
  shooting, ordnance (both players' ordnance, p.14), end (p.31).
* Ending the Battle (p.13): when a side has no ships left on the table (hulks and disengaged ships are not
  fighting ships), when a side surrenders, or after the scenario's last turn (the Cruiser Clash: 8 each).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aero_events.core import DiceCup, RuleError
from aero_events.core.emitter import Emitter

from . import attack_craft, damage, end_phase, movement, orders, ordnance, shooting
from . import events as ev
from .commands import ChooseTurnOrder, RollOff, Surrender
from .state import (
    ACTIVE,
    BRACE_FOR_IMPACT,
    DESTROYED,
    END,
    FIRST_TURN,
    GAME_OVER,
    MOVEMENT,
    ORDNANCE,
    SETUP,
    SHOOTING,
    GameState,
)

if TYPE_CHECKING:
    from .ruleset import BattlefleetGothicRules


def roll_off(rules: BattlefleetGothicRules, out: Emitter, command: RollOff, dice: DiceCup) -> None:
    state = out.state
    if state.phase != SETUP:
        raise RuleError("the battle has begun", rule="Starting Leadership Values", page=10)
    squadron_rolls: dict[tuple[str, str], int] = {}
    for ship_id in sorted(state.ships):
        ship = state.ships[ship_id]
        cls = rules.ship_class(ship)
        if ship.leadership:
            out.emit(ev.LeadershipRolled(ship=ship_id, roll=0, leadership=ship.leadership))
            continue
        shared = (ship.side, ship.squadron) if ship.squadron and not cls.capital else None
        if shared in squadron_rolls:  # escorts roll once per squadron (p.10)
            rolled = squadron_rolls[shared]
        else:
            roll = dice.d6(purpose="starting leadership", roller=ship.side)
            out.emit(roll)
            rolled = roll.total
            if shared is not None:
                squadron_rolls[shared] = rolled
        value = orders.starting_leadership(rules, rolled) + cls.leadership_bonus
        out.emit(ev.LeadershipRolled(ship=ship_id, roll=rolled, leadership=value))
    out.emit(ev.BattleBegan())
    while True:
        rolls = {}
        for player in state.players:
            roll = dice.d6(purpose="first turn", roller=player)
            out.emit(roll)
            rolls[player] = roll.total
        a, b = (rolls[p] for p in state.players)
        winner = None if a == b else state.players[0] if a > b else state.players[1]
        out.emit(ev.FirstTurnRolled(rolls=rolls, winner=winner))
        if winner is not None:
            return


def choose_order(rules: BattlefleetGothicRules, out: Emitter, command: ChooseTurnOrder, dice: DiceCup) -> None:
    state = out.state
    if state.phase != FIRST_TURN or command.player != state.chooser:
        raise RuleError("the winner of the roll chooses", rule="Who Gets the First Turn", page=13)
    first = command.player if command.go_first else state.opponent(command.player)
    out.emit(ev.TurnOrderChosen(first=first))
    begin_player_turn(rules, out, dice, first, 1)


def surrender(rules: BattlefleetGothicRules, out: Emitter, command: Surrender, dice: DiceCup) -> None:
    if out.state.phase in (SETUP, GAME_OVER):
        raise RuleError("there is no battle to give up", rule="Ending the Battle", page=13)
    out.emit(ev.Surrendered(player=command.player))


HANDLERS = {RollOff: roll_off, ChooseTurnOrder: choose_order, Surrender: surrender}


def legal_commands(rules: BattlefleetGothicRules, state: GameState, player: str) -> list:
    if state.phase == SETUP and player == state.players[0]:
        return [RollOff(player=player)]
    if state.phase == FIRST_TURN and player == state.chooser:
        return [ChooseTurnOrder(player=player, go_first=True), ChooseTurnOrder(player=player, go_first=False)]
    return []


def begin_player_turn(rules: BattlefleetGothicRules, out: Emitter, dice: DiceCup, player: str, round_: int) -> None:
    out.emit(ev.PlayerTurnBegan(player=player, round=round_, player_turn=out.state.player_turn + 1))
    out.emit(ev.PhaseBegan(phase=MOVEMENT))
    expired = tuple(sorted(s.id for s in out.state.fleet(player)
                           if s.order is not None and s.order != BRACE_FOR_IMPACT))
    if expired:
        out.emit(ev.OrdersRemoved(ships=expired))  # p.14, Brace excepted
    movement.drift_hulks(rules, out, dice)


def hulks_to_drift(state: GameState) -> bool:
    """Hulks of the player whose turn it is that have not drifted yet, before any ship has moved (p.26)."""
    fleet = state.fleet(state.active)
    return (not any(s.moved for s in fleet)
            and any(s.hulk and s.id not in state.paths for s in fleet))


def scores(rules: BattlefleetGothicRules, state: GameState) -> dict[str, int]:
    """Cruiser Clash points (data/cruiser_clash.json): damage inflicted, +1 crippled, +3 destroyed instead."""
    figures = rules.data.cruiser_clash
    per_damage = figures["score_per_damage"].value
    result = {player: 0 for player in state.players}
    for ship in state.ships.values():
        cls = rules.ship_class(ship)
        enemy = state.opponent(ship.side)
        points = ship.damage * per_damage
        if ship.status == DESTROYED or (ship.hulk and figures["hulk_counts_destroyed"].value):
            points += figures["score_destroyed"].value
        elif ship.damage * 2 >= cls.hits:
            points += figures["score_crippled"].value
        result[enemy] += points
    return result


def fighting(state: GameState, side: str) -> bool:
    return any(s.status == ACTIVE for s in state.fleet(side))


def ending(rules: BattlefleetGothicRules, state: GameState, turn_over: bool) -> str | None:
    if state.surrendered:
        return f"{state.surrendered} surrendered"
    for side in state.players:
        if not fighting(state, side):
            return f"{side} has no ships left fighting"
    if turn_over and state.round >= state.last_round and state.active != state.first_player:
        return f"the last turn ({state.last_round}) is over"
    return None


def end_game(rules: BattlefleetGothicRules, out: Emitter, reason: str) -> None:
    points = scores(rules, out.state)
    a, b = out.state.players
    if out.state.surrendered:
        winner = out.state.opponent(out.state.surrendered)
    else:
        winner = None if points[a] == points[b] else a if points[a] > points[b] else b
    out.emit(ev.GameEnded(winner=winner, reason=reason, scores=points))


def shooting_possible(rules: BattlefleetGothicRules, state: GameState) -> bool:
    """Whether the active player has more to choose in the Shooting phase than ending it (the parts are counted
    in turn, and the count stops as soon as it passes one)."""
    count = 0
    for part in (shooting, ordnance, attack_craft):
        count += len(part.legal_commands(rules, state, state.active))
        if count > 1:
            return True
    return False


def advance(rules: BattlefleetGothicRules, out: Emitter, dice: DiceCup) -> None:
    """Run the turn forward through every step that needs no player's decision."""
    while True:
        state = out.state
        if state.phase in (SETUP, FIRST_TURN, GAME_OVER) or state.pending is not None:
            return
        if state.strikes:
            damage.run_strikes(rules, out, dice)  # an explosion's strikes after a Brace window (p.23, p.26)
            continue
        if state.phase == MOVEMENT and hulks_to_drift(state):
            movement.drift_hulks(rules, out, dice)  # the rest of the hulks, after a Brace window
            continue
        reason = ending(rules, state, turn_over=False)
        if reason:
            end_game(rules, out, reason)
            return
        if state.phase == MOVEMENT:
            if any(s.status == ACTIVE and not s.moved for s in state.fleet(state.active)):
                return
            out.emit(ev.PhaseBegan(phase=SHOOTING))
        elif state.phase == SHOOTING:
            if not state.shooting_done and shooting_possible(rules, state):
                return
            out.emit(ev.PhaseBegan(phase=ORDNANCE))
        elif state.phase == ORDNANCE:
            if not ordnance.run_phase(rules, out, dice):
                return
            end_phase.begin(rules, out, dice)
        elif state.phase == END:
            reason = ending(rules, state, turn_over=True)
            if reason:
                end_game(rules, out, reason)
                return
            following = state.opponent(state.active)
            round_ = state.round + (1 if following == state.first_player else 0)
            begin_player_turn(rules, out, dice, following, round_)
