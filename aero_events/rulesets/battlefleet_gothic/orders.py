"""Leadership, special orders and Command checks (p.10-12).

* Starting Leadership: a D6 per capital ship, once per escort squadron (p.10): 1 Ld6, 2-3 Ld7, 4-5 Ld8, 6 Ld9.
* Command check (p.11): 2D6 <= Ld; -1 with Blast markers in contact (Under Fire), +1 when any enemy ship is
  on special orders (Enemy Contacts); Leadership never above 10 (p.12). The first failed check ends all
  Command checks of the player's turn (p.11).
* Other Leadership tests (p.12): 2D6 <= Ld, no modifiers, allowed after a failed Command check.
* A ship is on one special order at a time (p.11); Brace for Impact is taken out of sequence (reactions.py).
* A squadron (``ShipSetup.squadron``) takes one Command check for all its ships before any of them moves
  ("each ship or squadron", p.11) and makes one All Ahead Full roll (p.16). Choice: the check uses the
  Leadership of the ship named in the command (escorts share theirs, p.10); squadron formation and
  squadron fire are Advanced Rules absent from the text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aero_events.core import DiceCup, RuleError

from . import events as ev
from . import ships as sh
from .commands import GiveOrder
from .state import (
    ACTIVE,
    ALL_AHEAD_FULL,
    COME_TO_NEW_HEADING,
    MOVEMENT,
    MOVEMENT_ORDERS,
    RELOAD_ORDNANCE,
    GameState,
    ShipState,
)

if TYPE_CHECKING:
    from .ruleset import BattlefleetGothicRules
    from .turn import Emitter

LEADERSHIP_CAP = 10


def starting_leadership(rules: BattlefleetGothicRules, roll: int) -> int:
    """The Starting Leadership table (p.10)."""
    return rules.data.tables.leadership.by_d6[str(roll)]


def command_check_modifiers(rules: BattlefleetGothicRules, state: GameState, ship: ShipState
                            ) -> tuple[tuple[str, int], ...]:
    """Under Fire -1 and Enemy Contacts +1 (p.12)."""
    modifiers = []
    if sh.ship_markers(rules, state, ship):
        modifiers.append(("Under Fire", -1))
    if sh.enemies_on_orders(state, ship.side):
        modifiers.append(("Enemy Contacts", 1))
    return tuple(modifiers)


def command_check_leadership(rules: BattlefleetGothicRules, state: GameState, ship: ShipState) -> int:
    """The Leadership a Command check is rolled against: modified, never above 10 (p.12)."""
    value = sh.leadership(ship) + sum(v for _, v in command_check_modifiers(rules, state, ship))
    return min(LEADERSHIP_CAP, value)


def leadership_test(out: Emitter, dice: DiceCup, ship: ShipState, purpose: str, against: str = "") -> bool:
    """An unmodified Leadership test on 2D6 (p.12)."""
    roll = dice.roll(2, purpose=f"leadership test: {purpose}", roller=ship.side, target=sh.leadership(ship))
    out.emit(roll)
    passed = roll.total <= sh.leadership(ship)
    out.emit(ev.LeadershipTestTaken(ship=ship.id, purpose=purpose, roll=roll.total,
                                    leadership=sh.leadership(ship), passed=passed, against=against))
    return passed


def squadron_of(state: GameState, ship: ShipState) -> list[ShipState]:
    """The ship and the rest of its squadron still fighting (a ship alone is a squadron of one)."""
    if not ship.squadron:
        return [ship]
    return sorted((s for s in state.fleet(ship.side) if s.squadron == ship.squadron and s.status == ACTIVE),
                  key=lambda s: s.id)


def orders_allowed(rules: BattlefleetGothicRules, state: GameState, ship: ShipState) -> list[str]:
    """The special orders this ship (and its squadron) may try now (p.11-12, p.27): before any of the squadron
    has moved, when none is on orders."""
    if (state.phase != MOVEMENT or state.pending is not None or ship.side != state.active or ship.status != ACTIVE
            or state.checks_failed):
        return []
    if any(s.moved or s.order is not None for s in squadron_of(state, ship)):
        return []
    cls = rules.ship_class(ship)
    allowed = []
    for order in MOVEMENT_ORDERS:
        if order == COME_TO_NEW_HEADING and cls.no_come_to_new_heading:
            continue
        if order == RELOAD_ORDNANCE and (ship.ordnance_loaded or not _has_ordnance(cls)):
            continue
        allowed.append(order)
    return allowed


def _has_ordnance(cls) -> bool:
    return any(w.kind in ("torpedoes", "launch_bays") for w in cls.weapons)


def give_order(rules: BattlefleetGothicRules, out: Emitter, command: GiveOrder, dice: DiceCup) -> None:
    """Taking Command Checks (p.11): check before moving; on a pass the order is placed."""
    state = out.state
    ship = rules.own_ship(state, command.player, command.ship)
    if state.checks_failed:
        raise RuleError("a Command check has failed this turn: no more special orders", rule="Taking Command Checks",
                        page=11)
    if command.order not in orders_allowed(rules, state, ship):
        raise RuleError(f"{ship.name} cannot take {command.order!r} orders now", rule="Special Orders", page=11)
    target = command_check_leadership(rules, state, ship)
    roll = dice.roll(2, purpose="command check", roller=ship.side, target=target)
    out.emit(roll)
    passed = roll.total <= target
    out.emit(ev.CommandCheckTaken(ship=ship.id, order=command.order, roll=roll.total, leadership=target,
                                  passed=passed, modifiers=command_check_modifiers(rules, state, ship)))
    if not passed:
        return
    members = squadron_of(state, ship)  # one check and one All Ahead Full roll for a squadron (p.11, p.16)
    for member in members:
        out.emit(ev.OrderPlaced(ship=member.id, order=command.order))
        if command.order == RELOAD_ORDNANCE and not member.ordnance_loaded:
            out.emit(ev.OrdnanceReloaded(ship=member.id))  # p.27: reloaded on a passed check
    if command.order == ALL_AHEAD_FULL:
        dice_count = min(rules.ship_class(m).all_ahead_full_dice for m in members)
        extra = dice.roll(dice_count, purpose="all ahead full", roller=ship.side)
        out.emit(extra)
        for member in members:
            out.emit(ev.AllAheadFullRolled(ship=member.id, extra=extra.total * 1000))


HANDLERS = {GiveOrder: give_order}


def legal_commands(rules: BattlefleetGothicRules, state: GameState, player: str) -> list:
    if state.phase != MOVEMENT or state.active != player or state.pending is not None:
        return []
    return [GiveOrder(player=player, ship=ship.id, order=order)
            for ship in state.fleet(player) if ship.status == ACTIVE and squadron_of(state, ship)[0].id == ship.id
            for order in orders_allowed(rules, state, ship)]
