"""The core Emitter (core/emitter.py): a ``decide`` that folds as it goes hands the session its states, so no
event is folded twice (issue 18, "no double evolve in decide"); anything the session cannot trust is folded
by the session as before."""

from __future__ import annotations

from aero_events.core import GameSession, SeededDice
from aero_events.core.emitter import Decided, Emitter
from tests.support.bidding import BiddingRules, BidSetup, play_scripted_game


class EmittingBidding(BiddingRules):
    """The bidding test rules with every decided event emitted through the core Emitter, and every fold counted."""

    def __init__(self) -> None:
        super().__init__()
        self.folds = 0

    def evolve(self, state, event):
        self.folds += 1
        return super().evolve(state, event)

    def decide(self, state, command, dice):
        out = Emitter(state, self.evolve)
        for event in super().decide(state, command, dice):
            out.emit(event)
        return out.events


def _played(rules) -> GameSession:
    session = GameSession(rules, BidSetup(), dice=SeededDice(7), game_id="emitted",
                          metadata={"reproducible_salts": True})
    play_scripted_game(session)
    return session


def test_each_decided_event_is_folded_once_and_the_game_is_the_same():
    emitting, plain = EmittingBidding(), BiddingRules()
    session, reference = _played(emitting), _played(plain)
    decided = sum(1 for env in session.events() if not env.event.core_event)
    assert emitting.folds == decided  # in decide only; the session took the Emitter's states
    assert [env.event for env in session.events()] == [env.event for env in reference.events()]
    assert session.state_hash() == reference.state_hash()
    assert all(session.state_at(seq) == reference.state_at(seq) for seq in range(session.seq + 1))


def test_a_plain_list_from_decide_is_folded_by_the_session():
    rules = BiddingRules()
    session = _played(rules)
    assert session.state_hash() == _played(BiddingRules()).state_hash()


def test_states_are_taken_only_from_the_same_start_by_the_same_evolve_for_an_unchanged_list():
    rules = EmittingBidding()
    start = rules.initial_state(BidSetup())
    out = Emitter(start, rules.evolve)
    decided = out.events
    assert isinstance(decided, Decided) and decided.states_from(start, rules.evolve) == []
    other = EmittingBidding()
    assert decided.states_from(start, other.evolve) is None  # another ruleset's fold
    assert decided.states_from(rules.initial_state(BidSetup(turns=5)), rules.evolve) is None  # another start
    decided.append(object())  # edited after emitting: no state for it
    assert decided.states_from(start, rules.evolve) is None
