"""Games for the store tests: played through real sessions (dice, secrets, checkpoints)."""

from __future__ import annotations

from aero_events.core import Game, GameSession, SeededDice
from aero_events.rulesets import register_ruleset
from tests.store.tally import TallyRules, TallySetup
from tests.support.bidding import BiddingRules, BidSetup, play_scripted_game

register_ruleset("test/bidding", BiddingRules)
register_ruleset("test/tally", TallyRules)

#: The seq of the first turn's last event (the checkpoint of turn 2): 7 commands, each recorded as a
#: CommandIssued before the one event it causes (2 bids, 2 reveals, 2 rolls, the score), then the checkpoint.
END_OF_TURN_1 = 15

#: Twelve turns of bids: a long game whose later turns should not need folding from the start.
LONG_BIDS = tuple(((turn % 3) + 1, ((turn + 1) % 3) + 1) for turn in range(12))


def new_session(game_id: str = "game-1", seed: int | str = 7, setup: BidSetup | None = None) -> GameSession:
    return GameSession(BiddingRules(), setup or BidSetup(), dice=SeededDice(seed), game_id=game_id)


def played_session(game_id: str = "game-1", seed: int | str = 7) -> GameSession:
    """A whole scripted game of the bidding rules."""
    session = new_session(game_id, seed)
    play_scripted_game(session)
    return session


def long_session(game_id: str = "long-1") -> GameSession:
    """Twelve turns (nobody reaches the target), a checkpoint at each change of turn."""
    session = new_session(game_id, seed=11, setup=BidSetup(turns=12, target_points=99))
    play_scripted_game(session, bids=LONG_BIDS)
    return session


def tally_game(game_id: str = "tally-1") -> Game:
    return Game(TallyRules(), TallySetup(), game_id)
