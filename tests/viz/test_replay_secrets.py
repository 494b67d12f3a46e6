"""The replay's text panel tells each event as the page's viewer may see it (DESIGN.md, contract 7):
a spectator never reads a secret bid before its reveal; its owner does."""

from __future__ import annotations

from aero_events.analysis.timeline import timeline_from_session
from aero_events.core import GameSession, SeededDice
from aero_events.viz import replay_steps
from tests.support.bidding import BiddingRules, BidPlaced, play_scripted_game


def _bid_lines(viewer: str | None) -> list[str]:
    session = GameSession(BiddingRules(), None, dice=SeededDice(5), game_id="bids")
    play_scripted_game(session, bids=((2, 1), (3, 3), (1, 2)))
    assert any(isinstance(env.event, BidPlaced) for env in session.events())
    steps = replay_steps(timeline_from_session(session), viewer=viewer)
    return [line.text for step in steps for line in step.lines if "BidPlaced" in line.text]


def test_a_spectators_replay_never_tells_a_sealed_bid():
    lines = _bid_lines(None)
    assert lines, "the sealed bids are still told (as sealed), just not their amounts"
    assert all("amount" not in text and "salt" not in text for text in lines)


def test_a_players_replay_tells_their_own_bids_and_not_the_others():
    lines = _bid_lines("alice")
    own = [text for text in lines if "amount" in text]
    assert own and all("alice" in text for text in own)
    assert not any("amount" in text and "owner='bob'" in text or "owner=bob" in text and "amount" in text
                   for text in lines)


def test_another_players_sealed_command_is_bookkeeping_and_not_told():
    session = GameSession(BiddingRules(), None, dice=SeededDice(5), game_id="bids")
    play_scripted_game(session, bids=((2, 1), (3, 3), (1, 2)))
    lines = [line.text for step in replay_steps(timeline_from_session(session), viewer=None) for line in step.lines]
    assert not any("CommandIssued" in text for text in lines)
