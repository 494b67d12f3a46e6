"""Issue 16, item 1: a save appends exactly the session's events after a stored prefix it has checked in
full (by the chain hash at the stored head, which covers every event before it), or refuses.

Two sessions that continued one stored game differently can never both save: the stored log is never
spliced from one player's Manoeuvre token and the other's dice, and ``verify`` stays right.
"""

from __future__ import annotations

import json

import duckdb
import pytest

from aero_events.core import SeededDice, encode_event
from aero_events.store import EventStore, StaleSequence, event_hash
from tests.store.games import new_session
from tests.store.test_processes import child, wait_for
from tests.support.bidding import BidSetup, play_scripted_game


def stored_payloads(store: EventStore, game_id: str) -> list[str]:
    return [bytes(r.payload).decode() for r in store.records(game_id)]


def session_payloads(session) -> list[str]:
    return [encode_event(env.event).decode() for env in session.events()]


@pytest.fixture
def turn_one(store):
    session = new_session(game_id="contested", setup=BidSetup(turns=6, target_points=99))
    play_scripted_game(session, bids=((2, 1),))
    store.save_session(session)
    return session


def test_a_longer_other_continuation_is_refused_not_spliced(store, turn_one):
    """A saves one more turn; B, loaded at the same point, played two: B's second turn would have been
    appended after A's first. It is refused, and the store holds exactly A's game."""
    a = store.session("contested", dice=SeededDice("a"))
    b = store.session("contested", dice=SeededDice("b"))
    play_scripted_game(a, bids=((1, 3),))
    play_scripted_game(b, bids=((3, 1), (2, 2)))
    assert b.seq > a.seq
    store.save_session(a)
    with pytest.raises(StaleSequence, match="differs from the session's.*nothing was written"):
        store.save_session(b)
    assert stored_payloads(store, "contested") == session_payloads(a)
    assert store.verify("contested").ok


def test_a_continuation_of_the_same_length_is_refused(store, turn_one):
    """The stored head and the session's head are at the same seq, and even the same event type there:
    only the whole prefix tells them apart."""
    a = store.session("contested", dice=SeededDice("a"))
    b = store.session("contested", dice=SeededDice("b"))
    play_scripted_game(a, bids=((1, 3),))
    play_scripted_game(b, bids=((3, 1),))
    assert a.seq == b.seq and a.events()[-1].type == b.events()[-1].type
    store.save_session(a)
    with pytest.raises(StaleSequence):
        store.save_session(b)
    assert stored_payloads(store, "contested") == session_payloads(a)


def test_a_session_that_extends_the_stored_game_appends_only_its_new_events(store, turn_one):
    session = store.session("contested", dice=SeededDice("a"))
    play_scripted_game(session, bids=((1, 3),))
    stored = len(store.records("contested"))
    assert store.save_session(session) == {"main": session.seq - stored}
    assert store.save_session(session) == {"main": 0}  # saving again writes nothing
    assert stored_payloads(store, "contested") == session_payloads(session)
    assert store.verify("contested").ok


def test_a_stored_prefix_rewritten_behind_the_session_refuses_the_save(store, db_path, turn_one):
    """Event 3 of the stored prefix (not its head) is rewritten and the chain recomputed after it: the
    stored head's hash is no longer the session's, and the events tell where they part."""
    session = store.session("contested", dice=SeededDice("a"))
    play_scripted_game(session, bids=((1, 3),))
    with duckdb.connect(str(db_path)) as conn:
        rows = conn.execute("SELECT seq, turn, phase, actor, type, version, payload, prev_hash FROM events "
                            "ORDER BY seq").fetchall()
        previous = bytes(rows[2][7])
        for seq, turn, phase, actor, type_name, version, payload, _ in rows[2:]:
            phase = "elsewhere" if seq == 3 else phase
            digest = event_hash(previous, seq, turn, phase, actor, type_name, version, payload.encode())
            conn.execute("UPDATE events SET phase = ?, prev_hash = ?, hash = ? WHERE seq = ?",
                         [phase, previous, digest, seq])
            previous = digest
    with pytest.raises(StaleSequence, match="stored event 3 differs"):
        store.save_session(session)


def test_two_processes_saving_different_continuations_one_saves_one_is_refused(store, db_path, tmp_path,
                                                                                turn_one):
    go = tmp_path / "go"
    savers = []
    for name, turns in (("a", "1"), ("bb", "2")):
        ready = tmp_path / f"ready-{name}"
        savers.append((child("save", str(db_path), "contested", name, turns, str(ready), str(go)), ready))
    for process, ready in savers:
        wait_for(ready, process)
    go.touch()
    results = []
    for process, _ in savers:
        out, err = process.communicate(timeout=90)
        assert process.returncode == 0, err
        results.append(json.loads(out))
    assert sorted(r["result"] for r in results) == ["saved", "stale"]
    winner = next(r for r in results if r["result"] == "saved")
    assert stored_payloads(store, "contested") == winner["payloads"]  # exactly one side's game: not spliced
    assert store.verify("contested").ok
