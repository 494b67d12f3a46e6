"""The game session: commands, events, states, branches, views, determinism (DESIGN.md contracts)."""

import msgspec
import pytest

from aero_events.core import (
    CommandIssued,
    EnvelopeRecord,
    GameSession,
    ManualDice,
    RedactedEvent,
    ReplayMismatch,
    RuleError,
    SecretCommandIssued,
    SeededDice,
    StateCheckpoint,
    TapeDice,
    encode_event,
)
from aero_events.core.secrets import REPRODUCIBLE_SALTS
from tests.support.bidding import (
    PLAYERS,
    Bid,
    BiddingRules,
    BidPlaced,
    BidSetup,
    Reveal,
    Roll,
    play_scripted_game,
)


def new_session(seed=11, game_id="game-1"):
    # Reproducible from the seed alone, salts included (issue 16: only games that say so).
    return GameSession(BiddingRules(), BidSetup(), dice=SeededDice(seed), game_id=game_id,
                       metadata={REPRODUCIBLE_SALTS: True})


def bids_placed(session):
    return [env.event for env in session.events() if isinstance(env.event, BidPlaced)]


def played(seed=11):
    session = new_session(seed)
    play_scripted_game(session, reroll_turns=(1,))
    return session


def test_same_setup_seed_and_commands_give_a_byte_identical_stream():
    a, b = played(), played()
    encode = msgspec.json.encode
    assert [encode(EnvelopeRecord.from_envelope(e)) for e in a.events()] == [
        encode(EnvelopeRecord.from_envelope(e)) for e in b.events()
    ]
    assert a.state_hash() == b.state_hash()
    assert [encode_event(e.event) for e in played(12).events()] != [encode_event(e.event) for e in a.events()]


def test_an_illegal_command_raises_a_rule_error_and_appends_nothing():
    session = new_session()
    session.apply(Bid(player="alice", amount=2))
    before = (session.seq, session.state_hash(), session.dice.position())
    with pytest.raises(RuleError, match="Bid") as caught:
        session.apply(Bid(player="bob", amount=5))
    assert caught.value.rule == "Bid"
    assert (session.seq, session.state_hash(), session.dice.position()) == before


def test_a_failing_command_does_not_consume_dice():
    """An illegal command leaves the dice stream where it was, so later rolls are unchanged."""
    b = new_session()
    b.apply(Bid(player="alice", amount=2))
    with pytest.raises(RuleError):
        b.apply(Roll(player="bob"))
    b.apply(Bid(player="bob", amount=1))
    c = new_session()
    c.apply(Bid(player="alice", amount=2))
    c.apply(Bid(player="bob", amount=1))
    assert [encode_event(e.event) for e in b.events()] == [encode_event(e.event) for e in c.events()]


def test_state_at_any_sequence_number_equals_folding_the_prefix():
    session = played()
    rules = session.ruleset
    for seq in range(session.seq + 1):
        events = [e.event for e in session.events(1, seq) if not isinstance(e.event, StateCheckpoint)]
        assert session.state_at(seq) == rules.fold(rules.initial_state(BidSetup()), events)


def test_events_carry_turn_phase_actor_and_consecutive_sequence_numbers():
    session = played()
    events = session.events()
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    first = events[0]
    assert (first.turn, first.phase, first.actor, first.game_id, first.branch_id) == (1, "bid", "alice", "game-1", "main")
    checkpoints = [e for e in events if isinstance(e.event, StateCheckpoint)]
    assert [c.event.turn for c in checkpoints] == [2, 3]
    assert all(c.actor is None for c in checkpoints)


def test_a_fork_shares_the_prefix_without_copying_it():
    session = played()
    fork = session.fork(9, "what-if")
    assert fork.branch.parent is session.branch
    assert fork.branch.own == []
    assert fork.events() == session.events(1, 9)
    assert fork.events()[0] is session.events()[0]
    assert fork.state == session.state_at(9)
    assert session.game.tree() == {"main": ["what-if"], "what-if": []}


def test_play_continues_on_a_fork_and_leaves_the_original_alone():
    session = played()
    length = session.seq
    fork = session.fork(0, "replay-different")
    play_scripted_game(fork, bids=((3, 1), (3, 1), (3, 1)))
    assert session.seq == length
    assert fork.events()[0].branch_id == "replay-different"
    assert fork.state != session.state
    with pytest.raises(ValueError, match="already has a branch"):
        session.fork(1, "replay-different")


def test_the_other_players_view_shows_only_the_commitment_of_a_secret_choice():
    session = new_session()
    session.apply(Bid(player="alice", amount=3))
    mine = session.events_for("alice")[1].event
    theirs = session.events_for("bob")[1].event
    spectator = session.events_for(None)[1].event
    assert isinstance(mine, BidPlaced) and mine.amount == 3
    for hidden in (theirs, spectator):
        assert isinstance(hidden, RedactedEvent)
        assert hidden.commitment == mine.commitment
        text = msgspec.json.encode(hidden)
        assert b"amount" not in text and mine.salt.encode() not in text and b'"3"' not in text
        assert hidden.public == {}


def test_a_reveal_is_checked_against_its_commitment():
    session = new_session()
    session.apply(Bid(player="alice", amount=3))
    session.apply(Bid(player="bob", amount=1))
    salt = bids_placed(session)[0].salt
    with pytest.raises(RuleError, match="does not match"):
        session.apply(Reveal(player="alice", amount=2, salt=salt))
    with pytest.raises(RuleError, match="does not match"):
        session.apply(Reveal(player="alice", amount=3, salt="guess"))
    session.apply(Reveal(player="alice", amount=3, salt=salt))
    assert session.state.revealed == {"alice": 3}


def test_replaying_recorded_events_never_rolls_and_checks_state_hashes():
    session = played()
    replay = GameSession(BiddingRules(), BidSetup(), dice=TapeDice([]), game_id="game-1")
    replay.record(session.events())
    assert replay.state_hash() == session.state_hash()
    assert replay.dice.remaining == 0


def test_a_replay_that_reaches_another_state_is_refused_and_appends_nothing():
    """Alter the first turn's result: the checkpoint recorded at turn 2 no longer matches."""
    session = played()
    events = session.events()
    first_score = next(i for i, env in enumerate(events) if env.event.type_name() == "test.TurnScored")
    altered = events[first_score].event
    loser = "bob" if altered.winner == "alice" else "alice"
    events[first_score] = msgspec.structs.replace(
        events[first_score], event=msgspec.structs.replace(altered, winner=loser))
    replay = GameSession(BiddingRules(), BidSetup(), dice=TapeDice([]))
    with pytest.raises(ReplayMismatch, match="state hash"):
        replay.record(events)
    assert replay.seq == 0


def test_manual_dice_drive_a_game_at_the_table():
    dice = ManualDice()
    session = GameSession(BiddingRules(), BidSetup(), dice=dice)
    session.apply(Bid(player="alice", amount=1))
    session.apply(Bid(player="bob", amount=1))
    for bid in bids_placed(session):
        session.apply(Reveal(player=bid.owner, amount=1, salt=bid.salt))
    dice.enter([5])
    session.apply(Roll(player="alice"))
    assert session.state.totals["alice"] == 6


def test_legal_commands_are_all_accepted():
    session = new_session()
    for player in PLAYERS:
        for command in session.legal_commands(player):
            trial = session.fork(session.seq, f"try-{player}-{command.amount}")
            trial.apply(command)
    assert len(session.game.branches) == 7


def test_a_command_refused_after_rolling_gives_its_dice_back():
    """A ruleset that rolls and then finds the command illegal: the dice stream rewinds."""

    class RollsThenRefuses(BiddingRules):
        def decide(self, state, command, dice):
            dice.roll(3, purpose="doomed")
            raise RuleError("refused after rolling", rule="Test")

    session = GameSession(RollsThenRefuses(), BidSetup(), dice=SeededDice(4))
    with pytest.raises(RuleError):
        session.apply(Bid(player="alice", amount=1))
    assert session.dice.draw(3, 6) == SeededDice(4).draw(3, 6)
    assert session.seq == 0


# ---------------------------------------------------------------- recorded commands (issue 11, item 2)


def test_each_command_is_recorded_before_the_events_it_caused_with_its_player_as_actor():
    session = new_session()
    session.apply(Bid(player="alice", amount=2))
    session.apply(Bid(player="bob", amount=1))
    salts = {bid.owner: bid.salt for bid in bids_placed(session)}
    first_new = session.seq + 1
    session.apply(Reveal(player="alice", amount=2, salt=salts["alice"]))
    issued, revealed = session.events(first_new)
    assert isinstance(issued.event, CommandIssued) and issued.actor == "alice"
    assert issued.event.command == {"command": "Reveal", "player": "alice", "amount": 2, "salt": salts["alice"]}
    assert revealed.event.type_name() == "test.BidRevealed" and revealed.seq == issued.seq + 1
    assert session.ruleset.decode_command(issued.event.command) == Reveal(player="alice", amount=2,
                                                                          salt=salts["alice"])


def test_a_secret_command_is_sealed_and_only_its_player_reads_it():
    session = new_session()
    session.apply(Bid(player="alice", amount=3))
    sealed = session.events()[0].event
    assert isinstance(sealed, SecretCommandIssued) and sealed.owner == "alice"
    assert sealed.command == {"command": "Bid", "player": "alice", "amount": 3}
    assert sealed.commitment and sealed.salt
    assert session.events_for("alice")[0].event == sealed
    for viewer in ("bob", None):
        hidden = session.events_for(viewer)[0].event
        assert isinstance(hidden, RedactedEvent) and hidden.secret_type == "SecretCommandIssued"
        assert hidden.public == {} and b"amount" not in msgspec.json.encode(hidden)


def test_the_ruleset_salts_do_not_depend_on_recording_commands():
    """Secret commands are sealed from a stream of their own: the bids' salts are the same either way."""
    recorded = new_session()
    unrecorded = GameSession(BiddingRules(), BidSetup(), dice=SeededDice(11), game_id="game-1",
                             record_commands=False, metadata={REPRODUCIBLE_SALTS: True})
    for session in (recorded, unrecorded):
        session.apply(Bid(player="alice", amount=3))
        session.apply(Bid(player="bob", amount=2))
    assert bids_placed(recorded) == bids_placed(unrecorded)
    assert [env.event for env in recorded.events() if not isinstance(env.event, SecretCommandIssued)] == [
        env.event for env in unrecorded.events()]


def test_a_refused_command_records_no_command_either():
    session = new_session()
    with pytest.raises(RuleError):
        session.apply(Bid(player="alice", amount=9))
    assert session.seq == 0


def test_the_ruleset_never_folds_a_core_event():
    seen = []

    class Watching(BiddingRules):
        def evolve(self, state, event):
            seen.append(type(event).__name__)
            return super().evolve(state, event)

    session = GameSession(Watching(), BidSetup(), dice=SeededDice(11))
    play_scripted_game(session)
    assert "CommandIssued" not in seen and "SecretCommandIssued" not in seen and "StateCheckpoint" not in seen
    assert any(isinstance(env.event, CommandIssued) for env in session.events())
    replay = GameSession(Watching(), BidSetup(), dice=TapeDice([]))
    replay.record(session.events())
    assert replay.state_hash() == session.state_hash()
