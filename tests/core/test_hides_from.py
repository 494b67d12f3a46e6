"""``Ruleset.hides_from`` (core/interface.py): whether a state holds what the rules hide from a viewer, so that
a page's win-probability strip never plays on from it. The default reads the ruleset's own ``view``."""

from __future__ import annotations

import msgspec

from aero_events.core.decider import Ruleset
from aero_events.rulesets import get_ruleset
from tests.support.plugin_ruleset import PawnRules


def _pawn_state(rules: PawnRules, orders: dict[str, str], revealed: bool):
    state = rules.initial_state(None)
    return msgspec.structs.replace(state, orders=orders, revealed=revealed)


def test_a_view_that_is_the_state_itself_hides_nothing():
    rules = get_ruleset("battlefleet-gothic/core")  # no secrets: Ruleset.view's default
    assert type(rules).view is Ruleset.view
    scenario = next(iter(rules.scenarios().values()))
    state = rules.initial_state(scenario.build(scenario.default_options, 1))
    assert rules.hides_from(state, None) is False
    assert rules.hides_from(state, rules.players(state)[0]) is False


def test_a_view_of_the_states_own_type_hides_what_it_leaves_out():
    """PawnRules hides another side's order until both are revealed: a state with no order hides nothing."""
    rules = PawnRules()
    sides = rules.players(rules.initial_state(None))
    assert rules.hides_from(_pawn_state(rules, {}, revealed=False), sides[0]) is False
    one_order = _pawn_state(rules, {sides[1]: "north"}, revealed=False)
    assert rules.hides_from(one_order, sides[0]) is True
    assert rules.hides_from(one_order, sides[1]) is False  # its own order
    assert rules.hides_from(one_order, None) is True
    assert rules.hides_from(_pawn_state(rules, {sides[1]: "north"}, revealed=True), sides[0]) is False


def test_a_view_of_another_shape_counts_as_hiding():
    """A view built as other data (BiddingRules shows commitments, never the bids) cannot be compared with the
    state: the default takes it as hiding, the safe side for a page."""
    from tests.support.bidding import BiddingRules, BidSetup

    rules = BiddingRules()
    state = rules.initial_state(BidSetup())
    assert rules.hides_from(state, None) is True
