"""verify: the hash chains and a full replay find altered, missing and reordered events."""

from __future__ import annotations

import duckdb
import pytest

from aero_events.store import UnknownGame, event_hash
from aero_events.store.heads import seal_game
from aero_events.store.integrity import (
    ALTERED,
    MISSING,
    OUT_OF_ORDER,
    REPLAY,
    SNAPSHOT,
    TRUNCATED,
    UNDECODABLE,
)
from tests.store.games import END_OF_TURN_1
from tests.support.bidding import play_scripted_game


def sql(db_path, statement: str, params=None):
    with duckdb.connect(str(db_path)) as conn:
        return conn.execute(statement, params or []).fetchall()


def flip_one_byte(db_path, branch: str, seq: int) -> None:
    """Change one character of a stored payload: the first digit becomes another digit."""
    (payload,), = sql(db_path, "SELECT payload FROM events WHERE branch = ? AND seq = ?", [branch, seq])
    at = next(i for i, ch in enumerate(payload) if ch.isdigit())
    altered = payload[:at] + str((int(payload[at]) + 1) % 10) + payload[at + 1:]
    sql(db_path, "UPDATE events SET payload = ? WHERE branch = ? AND seq = ?", [altered, branch, seq])


def test_an_untouched_game_verifies(store, saved):
    alt = saved.fork(END_OF_TURN_1, "alt")
    play_scripted_game(alt, bids=((1, 3),))
    store.save_session(alt)
    report = store.verify(saved.game_id)
    assert report.ok and report.replayed and report.first_problem is None
    assert (report.branches, report.events) == (2, saved.seq + alt.seq - END_OF_TURN_1)
    assert report.summary().startswith(f"game {saved.game_id}: ok")


def test_a_payload_changed_by_one_byte_is_named(store, db_path, saved):
    flip_one_byte(db_path, "main", 5)
    report = store.verify(saved.game_id)
    assert not report.ok
    problem = report.first_problem
    assert (problem.kind, problem.game_id, problem.branch_id, problem.seq) == (ALTERED, saved.game_id, "main", 5)
    assert f"game {saved.game_id} branch 'main' seq 5" in report.summary()


def test_the_envelope_is_covered_too(store, db_path, saved):
    sql(db_path, "UPDATE events SET actor = 'bob' WHERE branch = 'main' AND seq = 2")  # alice's bid
    assert store.verify(saved.game_id, replay=False).first_problem.seq == 2


def test_a_missing_event_is_named(store, db_path, saved):
    sql(db_path, "DELETE FROM events WHERE branch = 'main' AND seq IN (6, 7)")
    problem = store.verify(saved.game_id).first_problem
    assert (problem.kind, problem.branch_id, problem.seq) == (MISSING, "main", 6)
    assert "event 6..7 is missing" in problem.message


def test_events_swapped_are_out_of_order(store, db_path, saved):
    sql(db_path, "UPDATE events SET seq = -1 WHERE branch = 'main' AND seq = 5")
    sql(db_path, "UPDATE events SET seq = 5 WHERE branch = 'main' AND seq = 6")
    sql(db_path, "UPDATE events SET seq = 6 WHERE branch = 'main' AND seq = -1")
    problem = store.verify(saved.game_id).first_problem
    assert (problem.kind, problem.branch_id, problem.seq) == (OUT_OF_ORDER, "main", 5)
    assert "follows event 6" in problem.message


def test_tampering_in_a_fork_names_the_fork(store, db_path, saved):
    alt = saved.fork(END_OF_TURN_1, "alt")
    play_scripted_game(alt, bids=((1, 3),))
    store.save_session(alt)
    flip_one_byte(db_path, "alt", END_OF_TURN_1 + 2)
    problems = store.verify(saved.game_id).problems
    assert [(p.kind, p.branch_id, p.seq) for p in problems if p.kind == ALTERED] == [
        (ALTERED, "alt", END_OF_TURN_1 + 2)]


def test_a_rewritten_chain_is_caught_by_the_replay(store, db_path, saved):
    """Someone gives bob turn 1 and recomputes every hash after it: the chain holds, the checkpoint does not."""
    rows = sql(db_path, "SELECT seq, turn, phase, actor, type, version, payload, hash FROM events "
                        "WHERE branch = 'main' ORDER BY seq")
    scored = next(row for row in rows if row[4] == "test.TurnScored")
    assert '"winner":"alice"' in scored[6]
    forged = scored[6].replace('"winner":"alice"', '"winner":"bob"')
    first = scored[0]
    previous = bytes(rows[first - 2][7])
    with duckdb.connect(str(db_path)) as conn:
        for seq, turn, phase, actor, type_name, version, payload, _ in rows[first - 1:]:
            payload = forged if seq == first else payload
            new_hash = event_hash(previous, seq, turn, phase, actor, type_name, version, payload.encode())
            conn.execute("UPDATE events SET payload = ?, prev_hash = ?, hash = ? WHERE branch = 'main' AND seq = ?",
                         [payload, previous, new_hash, seq])
            previous = new_hash
    # The branch's row still holds the head it was sealed with (store/heads.py): the chain check sees that.
    assert store.verify(saved.game_id, replay=False).first_problem.kind == TRUNCATED
    with duckdb.connect(str(db_path)) as conn:  # ... unless the forger re-seals the row and the game too
        conn.execute("UPDATE branches SET head_hash = ? WHERE id = 'main'", [previous])
        seal_game(conn, saved.game_id)
    assert store.verify(saved.game_id, replay=False).ok
    report = store.verify(saved.game_id)
    assert [(p.kind, p.branch_id, p.seq) for p in report.problems] == [(REPLAY, "main", END_OF_TURN_1)]
    assert "checkpoint of turn 2" in report.problems[0].message


def test_a_corrupt_snapshot_is_reported(store, db_path, saved):
    sql(db_path, "UPDATE snapshots SET state = '\\x00'::BLOB")
    problem = store.verify(saved.game_id).first_problem
    assert problem.kind == SNAPSHOT and problem.seq == END_OF_TURN_1


def test_an_undecodable_payload_is_reported_not_raised(store, db_path, saved):
    sql(db_path, "UPDATE events SET payload = '{\"type\":\"DiceRolled\",\"faces\":\"six\"}' "
                 "WHERE branch = 'main' AND seq = 5")
    kinds = {(p.kind, p.seq) for p in store.verify(saved.game_id).problems}
    assert kinds == {(ALTERED, 5), (UNDECODABLE, 5)}


def test_verify_of_an_unknown_game(store):
    with pytest.raises(UnknownGame):
        store.verify("nope")
