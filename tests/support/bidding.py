"""A tiny two-player ruleset that exists only to exercise the core (never shipped in the package).

Each turn both players secretly bid 1-3 (a secret choice, like a face-down
Manoeuvre token), then reveal in order, then both roll a D6 and add their bid;
the higher total scores a point (ties score nothing). A player may spend their
single re-roll on their last roll (like the Imperial Ace). Three turns, or first
to two points, wins.
"""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from aero_events.core import (
    Command,
    DiceCup,
    DiceRolled,
    Event,
    RuleError,
    Ruleset,
    SecretEvent,
    check_reveal,
)

PLAYERS = ("alice", "bob")


class BidSetup(msgspec.Struct, frozen=True):
    turns: int = 3
    target_points: int = 2


class BidState(msgspec.Struct, frozen=True):
    setup: BidSetup
    turn: int = 1
    phase: str = "bid"
    commitments: dict[str, str] = {}
    revealed: dict[str, int] = {}
    last_roll: dict[str, int] = {}
    totals: dict[str, int] = {}
    points: dict[str, int] = {}
    rerolls_left: dict[str, int] = msgspec.field(default_factory=lambda: {"alice": 1, "bob": 1})
    over: bool = False


# ---------------------------------------------------------------- commands


class Bid(Command, frozen=True, tag="Bid"):
    amount: int


class Reveal(Command, frozen=True, tag="Reveal"):
    amount: int
    salt: str


class Roll(Command, frozen=True, tag="Roll"):
    pass


class UseReroll(Command, frozen=True, tag="UseReroll"):
    pass


class Score(Command, frozen=True, tag="Score"):
    pass


# ---------------------------------------------------------------- events


class BidPlaced(SecretEvent, frozen=True, tag="test.BidPlaced"):
    secret_fields: ClassVar[tuple[str, ...]] = ("amount",)
    amount: int


class BidRevealed(Event, frozen=True, tag="test.BidRevealed"):
    player: str
    amount: int


class TurnScored(Event, frozen=True, tag="test.TurnScored"):
    winner: str | None
    next_turn: int
    game_over: bool


class BiddingRules(Ruleset):
    name: ClassVar[str] = "test/bidding"
    setup_type: ClassVar[type] = BidSetup

    def initial_state(self, setup: BidSetup | None) -> BidState:
        setup = setup or BidSetup()
        return BidState(setup=setup, points={p: 0 for p in PLAYERS})

    def players(self, state: BidState) -> tuple[str, ...]:
        return PLAYERS

    def clock(self, state: BidState) -> tuple[int, str]:
        return state.turn, state.phase

    def is_over(self, state: BidState) -> bool:
        return state.over

    def is_secret_command(self, command: Command) -> bool:
        """A bid is placed face down: its command is as secret as its event."""
        return isinstance(command, Bid)

    def decide(self, state: BidState, command: Command, dice: DiceCup) -> list[Event]:
        if state.over:
            raise RuleError("the game is over", rule="End of game", page=None)
        if command.player not in PLAYERS:
            raise RuleError(f"{command.player!r} is not playing", rule="Players")
        if isinstance(command, Bid):
            if state.phase != "bid" or command.player in state.commitments:
                raise RuleError("bids are placed once, at the start of the turn", rule="Bid")
            if not 1 <= command.amount <= 3:
                raise RuleError(f"a bid is 1 to 3, not {command.amount}", rule="Bid")
            event = BidPlaced(owner=command.player, amount=command.amount).sealed(dice.salts.next())
            return [event]
        if isinstance(command, Reveal):
            if state.phase != "reveal" or command.player in state.revealed:
                raise RuleError("nothing to reveal now", rule="Reveal")
            try:
                check_reveal({"amount": command.amount}, command.salt, state.commitments[command.player],
                             what="bid")
            except Exception as err:
                raise RuleError(str(err), rule="Reveal") from err
            return [BidRevealed(player=command.player, amount=command.amount)]
        if isinstance(command, Roll):
            if state.phase != "roll" or command.player in state.last_roll:
                raise RuleError("not your roll", rule="Roll")
            return [dice.d6(purpose="bid roll", roller=command.player)]
        if isinstance(command, UseReroll):
            if state.phase != "roll" or command.player not in state.last_roll:
                raise RuleError("roll first, then re-roll", rule="Re-roll")
            if state.rerolls_left[command.player] < 1:
                raise RuleError("your one re-roll is spent", rule="Re-roll")
            original = DiceRolled(roll_index=state.last_roll[command.player], purpose="bid roll",
                                  roller=command.player, count=1, sides=6, faces=(0,))
            return [dice.reroll(original)]
        if isinstance(command, Score):
            if state.phase != "roll" or len(state.last_roll) < 2:
                raise RuleError("both players must roll first", rule="Score")
            a, b = (state.totals[p] for p in PLAYERS)
            winner = PLAYERS[0] if a > b else PLAYERS[1] if b > a else None
            points = dict(state.points)
            if winner:
                points[winner] += 1
            over = state.turn >= state.setup.turns or max(points.values()) >= state.setup.target_points
            return [TurnScored(winner=winner, next_turn=state.turn + (0 if over else 1), game_over=over)]
        raise RuleError(f"unknown command {type(command).__name__}", rule="Commands")

    def evolve(self, state: BidState, event: Event) -> BidState:
        replace = msgspec.structs.replace
        if isinstance(event, BidPlaced):
            commitments = {**state.commitments, event.owner: event.commitment}
            return replace(state, commitments=commitments, phase="reveal" if len(commitments) == 2 else "bid")
        if isinstance(event, BidRevealed):
            revealed = {**state.revealed, event.player: event.amount}
            return replace(state, revealed=revealed, phase="roll" if len(revealed) == 2 else "reveal")
        if isinstance(event, DiceRolled):
            player = event.roller
            assert player is not None
            rerolls = dict(state.rerolls_left)
            if event.replaces is not None:
                rerolls[player] -= 1
            return replace(
                state,
                last_roll={**state.last_roll, player: event.roll_index},
                totals={**state.totals, player: event.faces[0] + state.revealed[player]},
                rerolls_left=rerolls,
            )
        if isinstance(event, TurnScored):
            points = dict(state.points)
            if event.winner:
                points[event.winner] += 1
            return BidState(setup=state.setup, turn=event.next_turn, phase="bid", points=points,
                            rerolls_left=state.rerolls_left, over=event.game_over)
        raise TypeError(f"bidding rules cannot apply {type(event).__name__}")

    def legal_commands(self, state: BidState, player: str) -> list[Command]:
        if state.over:
            return []
        if state.phase == "bid" and player not in state.commitments:
            return [Bid(player=player, amount=n) for n in (1, 2, 3)]
        if state.phase == "roll":
            options: list[Command] = []
            if player not in state.last_roll:
                options.append(Roll(player=player))
            elif state.rerolls_left[player] > 0:
                options.append(UseReroll(player=player))
            if len(state.last_roll) == 2:
                options.append(Score(player=player))
            return options
        return []

    def view(self, state: BidState, player: str | None) -> dict[str, Any]:
        """Commitments are public; the bids themselves are not in the state until revealed."""
        return {"turn": state.turn, "phase": state.phase, "points": dict(state.points),
                "committed": sorted(state.commitments), "revealed": dict(state.revealed)}


def play_scripted_game(session, bids=((2, 1), (3, 3), (1, 2)), reroll_turns=()) -> None:
    """Play a whole game through the session: bids, reveals (with the salts from the log), rolls, scores."""
    for turn_index, amounts in enumerate(bids):
        if session.is_over():
            return
        for player, amount in zip(PLAYERS, amounts, strict=True):
            session.apply(Bid(player=player, amount=amount))
        salts = {env.event.owner: env.event.salt for env in session.events()[-6:] if isinstance(env.event, BidPlaced)}
        for player, amount in zip(PLAYERS, amounts, strict=True):
            session.apply(Reveal(player=player, amount=amount, salt=salts[player]))
        for player in PLAYERS:
            session.apply(Roll(player=player))
        if turn_index in reroll_turns:
            session.apply(UseReroll(player=PLAYERS[0]))
        session.apply(Score(player=PLAYERS[0]))
