"""A ruleset whose ``decide`` refuses a command its ``legal_commands`` offered is a defect of that ruleset; a
playout that meets one says so, with where it happened, and the win-probability strip (drawn on the replay
page and in the report) says how to draw the page without it, rather than failing with the bare rule."""

from __future__ import annotations

import pytest

from aero_events.core import GameSession, RuleError, SeededDice
from aero_events.odds import OddsError, odds, win_probability_strip
from tests.odds.test_odds import ScoredSealedOrders
from tests.support.sealed_orders import Attack, SealedSetup


class OffersWhatItRefuses(ScoredSealedOrders):
    """Offers an attack as every other test ruleset does, then refuses it."""

    def decide(self, state, command, dice):
        if isinstance(command, Attack):
            raise RuleError("attacks are refused here", rule="Attack")
        return super().decide(state, command, dice)


def _game() -> GameSession:
    return GameSession(OffersWhatItRefuses(), SealedSetup(turns=2), dice=SeededDice(1), game_id="refuses")


def test_a_playout_names_the_refused_offer_and_where_it_was_made():
    with pytest.raises(OddsError) as raised:
        odds(_game().game, playouts=3, bot="random", seed=1)
    message = str(raised.value)
    assert message.startswith("playout 0 (turn 1, ")
    assert "the random bot chose" in message and "legal commands offered" in message
    assert "attacks are refused here" in message and "Attack(" in message


def test_the_strip_says_the_page_can_be_drawn_without_it():
    with pytest.raises(OddsError, match=r"win-probability strip could not be worked out: playout 0 .*"
                                        r"--odds-playouts 0"):
        win_probability_strip(_game().game, playouts=2, bot="random")
