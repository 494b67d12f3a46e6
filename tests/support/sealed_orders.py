"""A tiny two-player ruleset that exercises the core's orders, reaction windows and secret pool draws
(never shipped in the package).

Each turn both players secretly order "attack" or "hold" (:mod:`aero_events.core.orders`, simultaneous
orders). When both have committed, either player reveals them. Each attacker, in seating order, then
attacks the other player, who must first decide (a reaction window, like Battlefleet Gothic's Brace for
Impact) whether to "brace" or "take" it. The defender then draws damage tokens face down from a shared
pool (a secret draw, like Wings of Glory's damage): one token when braced, two otherwise. After the
attacks, either player ends the turn. The game lasts ``turns`` turns; the player holding fewer damage
points wins.
"""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from aero_events.core import Command, DiceCup, Event, RuleError, Ruleset
from aero_events.core.orders import (
    OrdersState,
    Reactions,
    all_committed,
    answer,
    commit,
    current_window,
    evolve_orders,
    evolve_reactions,
    open_orders,
    open_window,
    pending_for,
    reaction_choices,
    require_no_window,
    reveal,
    view_orders,
)
from aero_events.core.pools import Pool, SecretPoolDrawn, apply_to_pool, view_pool

PLAYERS = ("alice", "bob")
ORDERS = ("attack", "hold")
BRACE = "Brace"


class SealedSetup(msgspec.Struct, frozen=True):
    turns: int = 2
    tokens: dict[str, int] = msgspec.field(default_factory=lambda: {"hit-0": 1, "hit-1": 3, "hit-2": 2})


class SealedState(msgspec.Struct, frozen=True):
    setup: SealedSetup
    pool: Pool
    orders: OrdersState
    turn: int = 1
    phase: str = "orders"
    reactions: Reactions = Reactions()
    to_resolve: tuple[str, ...] = ()
    damage: dict[str, tuple[str, ...]] = {}
    over: bool = False


# ---------------------------------------------------------------- commands


class GiveOrder(Command, frozen=True, tag="test.GiveOrder"):
    order: str


class RevealOrders(Command, frozen=True, tag="test.RevealOrders"):
    pass


class Attack(Command, frozen=True, tag="test.Attack"):
    pass


class React(Command, frozen=True, tag="test.React"):
    choice: str


class EndTurn(Command, frozen=True, tag="test.EndTurn"):
    pass


# ---------------------------------------------------------------- events


class TurnEnded(Event, frozen=True, tag="test.TurnEnded"):
    next_turn: int
    game_over: bool


def other(player: str) -> str:
    return PLAYERS[1] if player == PLAYERS[0] else PLAYERS[0]


def step_name(turn: int) -> str:
    return f"turn {turn} orders"


class SealedOrdersRules(Ruleset):
    name: ClassVar[str] = "test/sealed-orders"
    setup_type: ClassVar[type] = SealedSetup

    def initial_state(self, setup: SealedSetup | None) -> SealedState:
        setup = setup or SealedSetup()
        opened = open_orders(step_name(1), PLAYERS)
        return SealedState(setup=setup, pool=Pool.of("damage", setup.tokens),
                           orders=evolve_orders(OrdersState(), opened), damage={p: () for p in PLAYERS})

    def players(self, state: SealedState) -> tuple[str, ...]:
        return PLAYERS

    def clock(self, state: SealedState) -> tuple[int, str]:
        return state.turn, state.phase

    def is_over(self, state: SealedState) -> bool:
        return state.over

    def is_secret_command(self, command: Any) -> bool:
        return isinstance(command, GiveOrder)

    def decide(self, state: SealedState, command: Command, dice: DiceCup) -> list[Event]:
        if state.over:
            raise RuleError("the game is over", rule="End of game")
        if command.player not in PLAYERS:
            raise RuleError(f"{command.player!r} is not playing", rule="Players")
        if isinstance(command, React):
            chosen = answer(state.reactions, command.player, command.choice)
            attacker = state.to_resolve[0]
            tokens = 1 if command.choice == "brace" else 2
            draw = dice.draw(state.pool, min(tokens, state.pool.size), purpose=f"damage from {attacker}",
                             drawer=command.player, secret_owner=command.player)
            return [chosen, draw]
        require_no_window(state.reactions)
        if isinstance(command, GiveOrder):
            if state.phase != "orders":
                raise RuleError("orders are given at the start of the turn", rule="Orders")
            if command.order not in ORDERS:
                raise RuleError(f"an order is attack or hold, not {command.order!r}", rule="Orders")
            return [commit(state.orders, command.player, command.order, dice.salts.next(), rule="Orders")]
        if isinstance(command, RevealOrders):
            if state.phase != "orders":
                raise RuleError("the orders are already face up", rule="Orders")
            return [reveal(state.orders, rule="Orders")]
        if isinstance(command, Attack):
            if state.phase != "resolve" or not state.to_resolve or state.to_resolve[0] != command.player:
                raise RuleError(f"{command.player} has no attack to make now", rule="Attacks")
            target = other(command.player)
            return [open_window(state.reactions, decider=target, question=f"brace against {command.player}'s attack",
                                choices=("brace", "take"), rule=BRACE, page="test", resume=f"attack:{command.player}",
                                subject=target, interrupted=command.player)]
        if isinstance(command, EndTurn):
            if state.phase != "resolve" or state.to_resolve:
                raise RuleError("the turn ends once every attack is made", rule="End of turn")
            over = state.turn >= state.setup.turns
            events: list[Event] = [TurnEnded(next_turn=state.turn + (0 if over else 1), game_over=over)]
            if not over:
                events.append(open_orders(step_name(state.turn + 1), PLAYERS))
            return events
        raise RuleError(f"unknown command {type(command).__name__}", rule="Commands")

    def evolve(self, state: SealedState, event: Event) -> SealedState:
        replace = msgspec.structs.replace
        orders = evolve_orders(state.orders, event)
        if orders is not None:
            phase = state.phase
            to_resolve = state.to_resolve
            if orders.revealed and all_committed(orders) and len(orders.revealed) == len(orders.slots):
                phase = "resolve"
                to_resolve = tuple(p for p in PLAYERS if orders.revealed[p] == "attack")
            elif not orders.sealed:
                phase = "orders"
            return replace(state, orders=orders, phase=phase, to_resolve=to_resolve)
        reactions = evolve_reactions(state.reactions, event)
        if reactions is not None:
            return replace(state, reactions=reactions)
        if isinstance(event, SecretPoolDrawn):
            damage = {**state.damage, event.owner: state.damage[event.owner] + event.items}
            return replace(state, pool=apply_to_pool(state.pool, event), damage=damage,
                           to_resolve=state.to_resolve[1:])
        if isinstance(event, TurnEnded):
            return replace(state, turn=event.next_turn, over=event.game_over)
        raise TypeError(f"sealed-orders rules cannot apply {type(event).__name__}")

    def legal_commands(self, state: SealedState, player: str) -> list[Command]:
        if state.over:
            return []
        if current_window(state.reactions) is not None:
            return [React(player=player, choice=c) for c in reaction_choices(state.reactions, player)]
        if state.phase == "orders":
            if player in state.orders.slots and player not in state.orders.sealed:
                return [GiveOrder(player=player, order=o) for o in ORDERS]
            return [RevealOrders(player=player)] if all_committed(state.orders) else []
        if state.to_resolve:
            return [Attack(player=player)] if state.to_resolve[0] == player else []
        return [EndTurn(player=player)]

    def view(self, state: SealedState, player: str | None) -> dict[str, Any]:
        """Orders as :func:`view_orders` shows them; own damage tokens, others' only counted; the pool's size."""
        window = current_window(state.reactions)
        return {
            "turn": state.turn,
            "phase": state.phase,
            "orders": msgspec.to_builtins(view_orders(state.orders, player)),
            "waiting_for": None if window is None else {"decider": window.decider, "question": window.question},
            "my_decision": None if player is None or pending_for(state.reactions, player) is None
            else list(reaction_choices(state.reactions, player)),
            "pool": msgspec.to_builtins(view_pool(state.pool)),
            "damage": {p: list(tokens) if p == player else len(tokens) for p, tokens in state.damage.items()},
        }


def damage_points(state: SealedState, player: str) -> int:
    """Each token is named ``hit-<points>``."""
    return sum(int(token.split("-")[1]) for token in state.damage[player])
