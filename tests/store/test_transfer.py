"""JSON Lines export and import (validated, all or nothing) and Parquet export for DuckDB."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import duckdb
import msgspec
import pytest

from aero_events.core import DataError
from aero_events.store import JSONL_FORMAT, EventStore, GameExists
from tests.store.games import END_OF_TURN_1, played_session, tally_game
from tests.store.tally import tally_envelopes
from tests.support.bidding import play_scripted_game

CREATED = datetime(2024, 5, 4, 18, 30, tzinfo=UTC)


@pytest.fixture
def branched(store):
    """A game with a fork, saved with a known creation time."""
    session = played_session()
    session.game.metadata["table"] = "club night"
    alt = session.fork(END_OF_TURN_1, "alt")
    play_scripted_game(alt, bids=((1, 3),))
    store.save_session(alt, created=CREATED)
    return session


def test_export_writes_header_branches_then_events(store, tmp_path, branched):
    path = tmp_path / "game.jsonl"
    assert store.export_jsonl(branched.game_id, path) == branched.seq + branched.game.branches["alt"].head_seq - END_OF_TURN_1
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    header, main_line, alt_line, *events = lines
    assert header["format"] == JSONL_FORMAT and header["format_version"] == 1
    assert (header["game_id"], header["ruleset"], header["players"]) == ("game-1", "test/bidding", ["alice", "bob"])
    assert header["created"] == "2024-05-04T18:30:00Z" and header["metadata"] == {"table": "club night"}
    assert header["setup"] == {"turns": 3, "target_points": 2}
    assert (header["branch_count"], header["event_count"]) == (2, len(events))
    assert (main_line["id"], alt_line["id"], alt_line["parent"], alt_line["fork_seq"]) == ("main", "alt", "main",
                                                                                        END_OF_TURN_1)
    assert [e["seq"] for e in events if e["branch_id"] == "main"] == list(range(1, branched.seq + 1))
    assert next(e["seq"] for e in events if e["branch_id"] == "alt") == END_OF_TURN_1 + 1
    assert events[0]["payload"]["type"] == events[0]["type"]


def test_export_then_import_gives_the_same_game(store, tmp_path, branched):
    path = tmp_path / "game.jsonl"
    store.export_jsonl(branched.game_id, path)
    elsewhere = EventStore(tmp_path / "other.duckdb")
    assert elsewhere.import_jsonl(path) == branched.game_id
    for branch in ("main", "alt"):
        assert elsewhere.events(branched.game_id, branch) == store.events(branched.game_id, branch)
        assert elsewhere.state_hash(branched.game_id, branch) == store.state_hash(branched.game_id, branch)
    assert elsewhere.game(branched.game_id) == store.game(branched.game_id)
    assert elsewhere.branch_tree(branched.game_id) == store.branch_tree(branched.game_id)
    assert elsewhere.verify(branched.game_id).ok
    with duckdb.connect(str(tmp_path / "other.duckdb")) as conn:
        imported = conn.execute("SELECT branch, seq, hash FROM events ORDER BY branch, seq").fetchall()
        snapshots = conn.execute("SELECT count(*) FROM snapshots").fetchall()[0][0]
    with store.connection() as conn:
        original = conn.execute("SELECT branch, seq, hash FROM events ORDER BY branch, seq").fetchall()
    assert imported == original and snapshots > 0
    second = tmp_path / "again.jsonl"
    elsewhere.export_jsonl(branched.game_id, second)
    assert second.read_bytes() == path.read_bytes()


def test_importing_a_stored_game_needs_replace(store, tmp_path, branched):
    path = tmp_path / "game.jsonl"
    store.export_jsonl(branched.game_id, path)
    with pytest.raises(GameExists):
        store.import_jsonl(path)
    store.fork(branched.game_id, "main", 2, "only-here")
    assert store.import_jsonl(path, replace=True) == branched.game_id
    assert set(store.branch_tree(branched.game_id)) == {"main", "alt"}
    assert store.verify(branched.game_id).ok


def _rewrite(path, line_number: int, change) -> None:
    lines = path.read_text().splitlines()
    lines[line_number - 1] = change(lines[line_number - 1])
    path.write_text("\n".join(lines) + "\n")


def _edit_json(edit):
    def change(line: str) -> str:
        data = json.loads(line)
        edit(data)
        return json.dumps(data)
    return change


MALFORMED = [
    ("bad JSON", 6, lambda line: line[:-5], None, "not valid JSON"),
    ("wrong field type", 6, _edit_json(lambda d: d.update(seq="four")), "seq", "Expected `int`, got `str`"),
    ("missing field", 7, _edit_json(lambda d: d.pop("phase")), "phase", "missing required field"),
    ("wrong payload type", 5, _edit_json(lambda d: d["payload"].update(amount="two")), "payload.amount",
     "Expected `int`"),
    ("unknown event type", 6, _edit_json(lambda d: d.update(type="NoSuchEvent")), "type", "unknown event type"),
    ("event of another game", 9, _edit_json(lambda d: d.update(game_id="other")), "game_id", "of game 'other'"),
    ("seq out of order", 9, _edit_json(lambda d: d.update(seq=20)), "seq", "event 20 where event 6"),
    ("unknown branch", 9, _edit_json(lambda d: d.update(branch_id="ghost")), "branch_id", "not listed"),
    ("bad header field", 1, _edit_json(lambda d: d.update(players="alice")), "players", "Expected `array`"),
    ("bad branch line", 2, _edit_json(lambda d: d.update(fork_seq=None)), "fork_seq", "got `null`"),
    ("wrong event count", 1, _edit_json(lambda d: d.update(event_count=3)), "event_count", "announces 3"),
    ("altered in transit", 3, _edit_json(lambda d: d.update(head_hash="00" * 32)), "head_hash", "altered"),
]


@pytest.mark.parametrize(("what", "line", "change", "field", "message"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_a_malformed_line_is_refused_and_nothing_is_kept(store, tmp_path, branched, what, line, change, field,
                                                         message):
    path = tmp_path / "game.jsonl"
    store.export_jsonl(branched.game_id, path)
    _rewrite(path, line, change)
    target = EventStore(tmp_path / "target.duckdb")
    with pytest.raises(DataError) as refused:
        target.import_jsonl(path)
    error = refused.value
    assert (error.location, error.field) == (line, field), str(error)
    assert message in str(error) and f"line {line}" in str(error)
    assert target.games() == []
    with target.connection() as conn:
        assert conn.execute("SELECT (SELECT count(*) FROM events) + (SELECT count(*) FROM branches)").fetchall() \
            == [(0,)]


def test_a_checkpoint_that_does_not_replay_is_refused_with_its_line(store, tmp_path, branched):
    path = tmp_path / "game.jsonl"
    store.export_jsonl(branched.game_id, path)
    lines = path.read_text().splitlines()
    scored = next(i for i, text in enumerate(lines) if '"test.TurnScored"' in text)
    lines[scored] = lines[scored].replace('"winner":"alice"', '"winner":"bob"')
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(DataError) as refused:
        EventStore(tmp_path / "target.duckdb").import_jsonl(path)
    assert refused.value.location == scored + 2 and refused.value.field == "payload.state_hash"


def test_a_failed_replace_keeps_the_stored_game(store, tmp_path, branched):
    path = tmp_path / "game.jsonl"
    store.export_jsonl(branched.game_id, path)
    before = store.events(branched.game_id, "alt")
    _rewrite(path, 3, _edit_json(lambda d: d.update(head_hash="00" * 32)))
    with pytest.raises(DataError):
        store.import_jsonl(path, replace=True)
    assert store.events(branched.game_id, "alt") == before


def test_an_empty_file_is_refused(store, tmp_path):
    path = tmp_path / "empty.jsonl"
    path.write_text("")
    with pytest.raises(DataError, match="empty"):
        store.import_jsonl(path)


def test_parquet_export_is_queried_in_place_by_duckdb(store, tmp_path, branched):
    tally = tally_game()
    store.create_game(tally)
    store.append(tally.id, "main", tally_envelopes(tally.id, 1, 300), expected_seq=0)
    everything = tmp_path / "all.parquet"
    total = store.export_parquet(everything)
    with store.connection() as conn:
        assert total == conn.execute("SELECT count(*) FROM events").fetchall()[0][0]
    counts = dict(duckdb.sql(f"SELECT game, count(*) FROM '{everything}' GROUP BY game").fetchall())
    assert counts["tally-1"] == 300 and counts["game-1"] == total - 300
    faces = duckdb.sql(f"SELECT sum((payload->>'$.faces[0]')::INT) FROM '{everything}' "
                       "WHERE ruleset = 'test/tally'").fetchall()[0][0]
    assert faces == sum(env.event.faces[0] for env in store.events(tally.id))

    only_rolls = tmp_path / "rolls.parquet"
    rolls = store.export_parquet(only_rolls, game_ids=["game-1"], where="type = 'DiceRolled'")
    rows = duckdb.sql(f"SELECT DISTINCT game, type FROM '{only_rolls}'").fetchall()
    assert rows == [("game-1", "DiceRolled")] and rolls == len(store.events("game-1", types=["DiceRolled"])) + len(
        [env for env in store.events("game-1", "alt", start=END_OF_TURN_1 + 1) if env.type == "DiceRolled"])
    columns = [row[0] for row in duckdb.sql(f"DESCRIBE SELECT * FROM '{only_rolls}'").fetchall()]
    assert columns[:3] == ["game", "branch", "seq"] and "hash" in columns and "ruleset" in columns
    payload = duckdb.sql(f"SELECT payload FROM '{only_rolls}' LIMIT 1").fetchall()[0][0]
    assert msgspec.json.decode(payload)["type"] == "DiceRolled"
