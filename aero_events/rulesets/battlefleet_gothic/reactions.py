"""Reaction windows (p.13 Exceptions; p.23 Brace for Impact; p.29 turrets).

The window is the core's (``aero_events.core.orders``: ``ReactionWindowOpened`` / ``ReactionChosen``
events, the ``Reactions`` stack in the state); ``PendingReaction`` keeps what resumes afterwards.

Brace for Impact is declared by the player whose ship is about to be hit, in the middle of the other player's
shooting or ordnance, before the attack's dice are rolled (p.23). It needs a Leadership test; on a pass the
ship is on Brace for Impact until the end phase of its next turn (p.12), replacing any other order; a failed
attempt cannot be repeated against the same attacking ship or salvo (p.23).

Windows also open before damage that is not the other player's shooting or ordnance: an exploding ship's
lance shots (p.26) and the Blast-marker damage roll of a shieldless ship (p.25), under ``brace_against`` and
``brace_timing`` (``damage.brace_window``).

Options, because the text disagrees with itself (see ``RuleOptions``):

* ``brace_test``: "leadership" (default: "Take a Leadership test", p.23; unmodified, allowed after a failed
  Command check) or "command_check" (the special orders section calls every order a Command check, p.11:
  the p.12 modifiers apply and a failure ends the owner's Command checks for the rest of that turn).
* ``brace_reactions``: False turns the window off for players who never brace (tests and quick games).
* ``brace_against``: "any_damage" (default, p.23 "ANY time a ship faces taking damage") or "enemy_attacks"
  (p.11 "hits inflicted on it by the enemy": no window before explosions or Blast-marker damage).
* ``brace_timing``: "reaction" (default: Brace only in a window before an attack or damage, which is both
  "during the ordnance phase or an opponent's turn", p.11, and "before the result is rolled", p.23) or "any_time"
  (the summary, p.12: "at any time during either player's turn"): the active player may also brace a ship of
  their own in their movement or shooting phase (``BraceForImpact``), e.g. before steering into torpedoes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aero_events.core import DiceCup, RuleError
from aero_events.core.orders import answer

from . import attack_craft, damage, movement, ordnance, shooting
from . import events as ev
from .commands import BraceForImpact, React
from .orders import command_check_leadership, leadership_test
from .state import ACTIVE, BRACE_FOR_IMPACT, MOVEMENT, SHOOTING, GameState, PendingReaction

if TYPE_CHECKING:
    from .ruleset import BattlefleetGothicRules
    from .turn import Emitter


def brace_ends_turn(state: GameState, side: str) -> int:
    """The player turn at whose end phase the order comes off: the ship's next turn (p.12)."""
    return state.player_turn + (1 if state.active != side else 2)


def take_brace(rules: BattlefleetGothicRules, out: Emitter, dice: DiceCup, ship, attacker: str) -> bool:
    """The test for Brace for Impact (``brace_test`` option) and its result (p.12, p.23)."""
    if rules.options.brace_test == "command_check":
        target = command_check_leadership(rules, out.state, ship)
        roll = dice.roll(2, purpose="command check", roller=ship.side, target=target)
        out.emit(roll)
        passed = roll.total <= target
        out.emit(ev.CommandCheckTaken(ship=ship.id, order=BRACE_FOR_IMPACT, roll=roll.total, leadership=target,
                                      passed=passed))
    else:
        passed = leadership_test(out, dice, ship, "brace for impact", against=attacker)
    if passed:
        out.emit(ev.OrderPlaced(ship=ship.id, order=BRACE_FOR_IMPACT,
                                brace_ends_turn=brace_ends_turn(out.state, ship.side)))
    elif attacker:
        out.emit(ev.BraceFailed(ship=ship.id, attacker=attacker))
    return passed


def brace_now(rules: BattlefleetGothicRules, out: Emitter, command: BraceForImpact, dice: DiceCup) -> None:
    state = out.state
    if rules.options.brace_timing != "any_time":
        raise RuleError("Brace for Impact is taken when an attack is about to be rolled (option brace_timing)",
                        rule="Brace For Impact", page=23)
    ship = rules.own_ship(state, command.player, command.ship)
    if command.ship not in {c.ship for c in legal_commands(rules, state, command.player)
                            if isinstance(c, BraceForImpact)}:
        raise RuleError(f"{ship.name} cannot brace now", rule="Brace For Impact", page=12)
    take_brace(rules, out, dice, ship, "")


def react(rules: BattlefleetGothicRules, out: Emitter, command: React, dice: DiceCup) -> None:
    pending = out.state.pending
    if not isinstance(pending, PendingReaction) or pending.player != command.player or pending.ship != command.ship:
        raise RuleError("no reaction is awaited from this ship", rule="Exceptions", page=13)
    if command.brace and not pending.can_brace:
        raise RuleError("this ship cannot brace against this attack", rule="Brace For Impact", page=23)
    choice = shooting.reaction_choice(command.brace, command.turrets and pending.can_turrets, pending.can_turrets)
    out.emit(answer(out.state.reactions, command.player, choice))
    ship = out.state.ships[command.ship]
    if command.brace:
        take_brace(rules, out, dice, ship, pending.attacker)
    if pending.kind == "shooting":
        shooting.resolve_fire(rules, out, dice, pending.attacker, pending.target, pending.weapons, pending.joined)
    elif pending.kind == "nova":
        shooting.resolve_nova(rules, out, dice, pending.attacker, pending.aim)
    elif pending.kind == "explosion":
        damage.run_strikes(rules, out, dice)  # the strike waiting at the head of the queue (p.26)
    elif pending.kind == movement.BLAST_MARKERS:
        movement.blast_marker_damage(rules, out, dice, pending.ship)
    elif pending.kind == "attack craft":
        attack_craft.attack(rules, out, dice, pending.attacker, pending.ship,
                            fire_turrets=command.turrets and pending.can_turrets)
    else:
        ordnance.attack(rules, out, dice, pending.attacker, pending.ship, reaction=True,
                        fire_turrets=command.turrets and pending.can_turrets)


HANDLERS = {React: react, BraceForImpact: brace_now}


def legal_commands(rules: BattlefleetGothicRules, state: GameState, player: str) -> list:
    pending = state.pending
    if not isinstance(pending, PendingReaction) or pending.player != player:
        if (rules.options.brace_timing == "any_time" and pending is None and state.active == player
                and state.phase in (MOVEMENT, SHOOTING) and not state.shooting_done):
            return [BraceForImpact(player=player, ship=s.id) for s in sorted(state.fleet(player), key=lambda s: s.id)
                    if s.status == ACTIVE and s.order != BRACE_FOR_IMPACT and not s.moved]
        return []
    braces = (False, True) if pending.can_brace else (False,)
    turrets = (True, False) if pending.can_turrets else (False,)
    return [React(player=player, ship=pending.ship, brace=b, turrets=t) for b in braces for t in turrets]
