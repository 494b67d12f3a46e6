"""Appending: batches through Arrow, the stale-sequence check, save_session, play continued on a branch."""

from __future__ import annotations

import duckdb
import msgspec
import pytest

from aero_events.core import SeededDice, StateCheckpoint
from aero_events.core.secrets import redact
from aero_events.store import (
    BranchExists,
    CheckpointMismatch,
    EventStore,
    GameExists,
    StaleSequence,
    StoreError,
    UnknownBranch,
    UnknownGame,
)
from tests.store.games import END_OF_TURN_1, new_session, played_session, tally_game
from tests.store.tally import tally_envelopes
from tests.support.bidding import Bid, play_scripted_game


def count_rows(db_path, table: str) -> int:
    with duckdb.connect(str(db_path)) as conn:
        return conn.execute(f"SELECT count(*) FROM {table}").fetchall()[0][0]


def test_append_writes_a_batch_and_returns_the_new_head(store, session):
    store.create_game(session.game)
    envelopes = session.events()
    assert store.append(session.game_id, "main", envelopes[:5], expected_seq=0) == 5
    assert store.append(session.game_id, "main", envelopes[5:], expected_seq=5) == len(envelopes)
    assert store.events(session.game_id) == envelopes
    assert store.head(session.game_id) == len(envelopes)


def test_a_stale_expected_seq_is_refused_and_nothing_is_written(store, db_path, session):
    store.create_game(session.game)
    envelopes = session.events()
    store.append(session.game_id, "main", envelopes[:5], expected_seq=0)
    before = count_rows(db_path, "events")
    with pytest.raises(StaleSequence) as refused:
        store.append(session.game_id, "main", envelopes[2:], expected_seq=2)
    assert (refused.value.expected, refused.value.actual) == (2, 5)
    assert "expected its last event to be 2, the store has 5" in str(refused.value)
    assert count_rows(db_path, "events") == before
    assert store.events(session.game_id) == envelopes[:5]


def test_an_empty_append_still_checks_the_head(store, session):
    store.create_game(session.game)
    assert store.append(session.game_id, "main", [], expected_seq=0) == 0
    with pytest.raises(StaleSequence):
        store.append(session.game_id, "main", [], expected_seq=3)


def test_envelopes_must_be_numbered_from_the_expected_head(store, session):
    store.create_game(session.game)
    envelopes = session.events()
    with pytest.raises(StoreError, match="numbered from 1 without gaps"):
        store.append(session.game_id, "main", envelopes[1:4], expected_seq=0)
    with pytest.raises(StoreError, match="numbered from 1 without gaps"):
        store.append(session.game_id, "main", [envelopes[0], envelopes[2]], expected_seq=0)
    other = played_session(game_id="someone-else")
    with pytest.raises(StoreError, match="game_id 'someone-else'"):
        store.append(session.game_id, "main", other.events(), expected_seq=0)


def test_appending_to_an_unknown_game_or_branch_is_refused(store, session):
    with pytest.raises(UnknownGame):
        store.append("nope", "main", [], expected_seq=0)
    store.create_game(session.game)
    with pytest.raises(UnknownBranch, match="its branches: main"):
        store.append(session.game_id, "side", [], expected_seq=0)
    with pytest.raises(GameExists):
        store.create_game(session.game)


def test_a_batch_whose_checkpoint_disagrees_is_refused_whole(store, db_path, session):
    store.create_game(session.game)
    envelopes = session.events()
    index = next(i for i, env in enumerate(envelopes) if isinstance(env.event, StateCheckpoint))
    forged = msgspec.structs.replace(envelopes[index], event=StateCheckpoint(turn=2, state_hash="0" * 64))
    with pytest.raises(CheckpointMismatch) as refused:
        store.append(session.game_id, "main", [*envelopes[:index], forged, *envelopes[index + 1:]], 0)
    assert refused.value.seq == index + 1
    assert count_rows(db_path, "events") == 0 and count_rows(db_path, "snapshots") == 0


def test_a_redacted_view_cannot_be_stored(store, session):
    store.create_game(session.game)
    first = session.events()[0]
    hidden = msgspec.structs.replace(first, event=redact(first.event, "bob"))
    with pytest.raises(StoreError, match="redacted"):
        store.append(session.game_id, "main", [hidden], expected_seq=0)


def test_save_session_stores_the_game_then_only_what_is_new(store, db_path):
    session = new_session()
    session.apply(Bid(player="alice", amount=2))
    assert store.save_session(session) == {"main": 2}  # the command, then its event
    session.apply(Bid(player="bob", amount=3))
    assert store.save_session(session) == {"main": 2}
    assert store.save_session(session) == {"main": 0}
    assert store.events(session.game_id) == session.events()
    game = store.game(session.game_id)
    assert (game.ruleset, game.players, game.data_version) == ("test/bidding", ["alice", "bob"], "none")
    assert game.engine_version == "0.1.0"


def test_save_session_refuses_a_session_that_missed_events(store, saved):
    stale = store.session(saved.game_id, dice=SeededDice(1))
    ahead = store.session(saved.game_id, dice=SeededDice(1))
    alt = ahead.fork(END_OF_TURN_1, "alt")
    play_scripted_game(alt, bids=((1, 3),))
    store.save_session(alt)
    assert store.save_session(stale) == {"main": 0}  # main is unchanged: nothing to refuse

    other = store.session(saved.game_id, dice=SeededDice(2))
    first = other.fork(END_OF_TURN_1, "alt2")
    second = store.session(saved.game_id, dice=SeededDice(3)).fork(END_OF_TURN_1, "alt2")
    play_scripted_game(first, bids=((1, 3),))
    play_scripted_game(second, bids=((3, 1),))
    store.save_session(first)
    with pytest.raises(StaleSequence, match="alt2"):
        store.save_session(second)


def test_a_fork_made_in_the_store_can_be_played_on_and_saved(store, saved):
    info = store.fork(saved.game_id, "main", END_OF_TURN_1, "what-if", label="bids swapped")
    assert (info.parent, info.fork_seq, info.head_seq, info.label) == ("main", END_OF_TURN_1, END_OF_TURN_1,
                                                                       "bids swapped")
    with pytest.raises(BranchExists):
        store.fork(saved.game_id, "main", 4, "what-if")
    with pytest.raises(StoreError, match="cannot fork at 99"):
        store.fork(saved.game_id, "main", 99, "too-far")

    play = store.session(saved.game_id, "what-if", dice=SeededDice("what-if"))
    assert play.seq == END_OF_TURN_1 and play.state == saved.state_at(END_OF_TURN_1)
    play_scripted_game(play, bids=((3, 1), (3, 1)))
    appended = store.save_session(play)
    assert appended["what-if"] == play.seq - END_OF_TURN_1 and appended["main"] == 0
    assert store.events(saved.game_id, "what-if") == play.events()
    assert store.state_at(saved.game_id, "what-if") == play.state
    assert store.verify(saved.game_id).ok


def test_an_in_memory_store_works_for_scratch_use():
    store = EventStore(":memory:")
    session = played_session()
    store.save_session(session)
    assert store.events(session.game_id) == session.events()


def test_a_held_store_runs_many_operations_on_one_connection(db_path):
    session = tally_game()
    with EventStore(db_path) as store:
        store.create_game(session)
        for start in range(1, 500, 100):
            store.append(session.id, "main", tally_envelopes(session.id, start, 100), start - 1)
        assert store.head(session.id) == 500
    assert EventStore(db_path).verify(session.id).ok


def test_two_writers_in_one_process_that_both_pass_the_check_still_leave_one_batch(db_path, monkeypatch):
    """Both transactions read the same head before either writes: the loser's commit conflicts, and it is told
    that it was stale."""
    import threading

    from aero_events.store import append as append_module

    game = tally_game()
    EventStore(db_path).create_game(game)
    both_checked = threading.Barrier(2, timeout=30)
    read_head = append_module.branch_head

    def read_then_wait(*args, **kwargs):
        head = read_head(*args, **kwargs)
        both_checked.wait()
        return head

    monkeypatch.setattr(append_module, "branch_head", read_then_wait)
    outcomes: dict[str, object] = {}

    def write(name: str, offset: int) -> None:
        try:
            outcomes[name] = EventStore(db_path).append(game.id, "main",
                                                        tally_envelopes(game.id, 1, 50, face_offset=offset), 0)
        except StaleSequence as err:
            outcomes[name] = err

    threads = [threading.Thread(target=write, args=(name, offset)) for name, offset in (("a", 0), ("b", 3))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    monkeypatch.undo()
    assert sorted(type(outcome).__name__ for outcome in outcomes.values()) == ["StaleSequence", "int"]
    stale = next(outcome for outcome in outcomes.values() if isinstance(outcome, StaleSequence))
    assert (stale.expected, stale.actual) == (0, 50) and "another writer committed first" in str(stale)
    assert [record.seq for record in EventStore(db_path).records(game.id)] == list(range(1, 51))
    assert EventStore(db_path).verify(game.id).ok
