"""Issue 17 item 1: every game has a main line (the game that was played), which every reader shows by default.

Model: python-chess's game tree, one main line and its variations (store/branches.py). Schema 4 stores it in
``games.main_line``; a file of schema 3 takes it from the recorder's ``recorder_games`` on migration.
"""

from __future__ import annotations

import json

import duckdb
import pytest

from aero_events.core.dice import SeededDice
from aero_events.core.errors import DataError
from aero_events.store import EventStore, UnknownBranch, migrate, schema_version
from aero_events.store.append import write_batch
from aero_events.store.codec import batch_from_envelopes
from aero_events.store.games import game_context, game_record_for, insert_branch, insert_game
from tests.store.games import END_OF_TURN_1, played_session
from tests.support.bidding import play_scripted_game


def played_alternative(store: EventStore, game_id: str = "game-1", name: str = "alt") -> int:
    """A variation forked at the end of turn 1 and played to its end with other bids; returns its head."""
    alt = store.session(game_id, dice=SeededDice(name))
    alt = alt.fork(END_OF_TURN_1, name)
    play_scripted_game(alt, bids=((1, 3), (3, 1)))
    store.save_session(alt)
    return alt.seq


def test_a_new_game_has_its_root_as_main_line(store, saved):
    assert store.main_line(saved.game_id) == "main"
    assert store.events(saved.game_id) == saved.events()
    assert store.head(saved.game_id) == saved.seq


def test_every_read_without_a_branch_reads_the_main_line_once_promoted(store, saved):
    """store/branches.py, resolve_branch: the one place a missing branch becomes the main line."""
    head = played_alternative(store)
    assert store.promote(saved.game_id, "alt") == "main"
    assert store.main_line(saved.game_id) == "alt"
    alt_events = store.events(saved.game_id, "alt")
    assert store.events(saved.game_id) == alt_events and alt_events != saved.events()
    assert [r.seq for r in store.records(saved.game_id)] == list(range(1, head + 1))
    assert store.head(saved.game_id) == head
    assert store.state_hash(saved.game_id) == store.state_hash(saved.game_id, "alt")
    assert store.state_at(saved.game_id) == store.state_at(saved.game_id, "alt")
    play = store.session(saved.game_id, dice=SeededDice(1))
    assert play.branch.id == "alt"
    assert store.events(saved.game_id, "main") == saved.events()  # the variation is kept whole


def test_promoting_a_branch_the_game_does_not_have_is_refused(store, saved):
    with pytest.raises(UnknownBranch, match="no branch 'nope'"):
        store.promote(saved.game_id, "nope")
    assert store.main_line(saved.game_id) == "main"


def test_games_counts_the_main_lines_events_and_every_branch(store, saved):
    head = played_alternative(store)
    own_alt = head - END_OF_TURN_1
    before = store.games()[0]
    assert (before.events, before.branches, before.main_line, before.all_events) == (
        saved.seq, 2, "main", saved.seq + own_alt)
    store.promote(saved.game_id, "alt")
    after = store.games()[0]
    assert (after.events, after.branches, after.main_line, after.all_events) == (
        head, 2, "alt", saved.seq + own_alt)
    assert after.last_turn == store.events(saved.game_id)[-1].turn


def test_the_json_lines_export_carries_the_main_line_and_the_import_restores_it(store, saved, tmp_path):
    played_alternative(store)
    plain = tmp_path / "plain.jsonl"
    store.export_jsonl(saved.game_id, plain)
    assert "main_line" not in json.loads(plain.read_text().splitlines()[0])  # a game on main: bytes as before
    store.promote(saved.game_id, "alt")
    promoted = tmp_path / "promoted.jsonl"
    store.export_jsonl(saved.game_id, promoted)
    assert json.loads(promoted.read_text().splitlines()[0])["main_line"] == "alt"
    other = EventStore(tmp_path / "other.duckdb")
    other.import_jsonl(promoted)
    assert other.main_line(saved.game_id) == "alt"
    assert other.events(saved.game_id) == store.events(saved.game_id, "alt")
    assert other.export_bytes(saved.game_id) == store.export_bytes(saved.game_id)


def test_an_import_naming_a_main_line_it_does_not_hold_is_refused(store, saved, tmp_path):
    path = tmp_path / "game.jsonl"
    store.export_jsonl(saved.game_id, path)
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    header["main_line"] = "ghost"
    path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    with pytest.raises(DataError, match="main line 'ghost'") as refused:
        EventStore(tmp_path / "other.duckdb").import_jsonl(path)
    assert refused.value.field == "main_line"
    assert EventStore(tmp_path / "other.duckdb").games() == []


def _version_3_file(path, games_and_current: dict[str, str | None]) -> None:
    """A file as schema 3 wrote it: games with a fork 'alt', and the recorder's current branch where given."""
    with duckdb.connect(str(path)) as conn:
        migrate(conn, target=3)
        assert schema_version(conn) == 3
        conn.execute("CREATE TABLE recorder_games (game VARCHAR PRIMARY KEY, current_branch VARCHAR NOT NULL)")
        for game_id, current in games_and_current.items():
            session = played_session(game_id=game_id)
            alt = session.fork(END_OF_TURN_1, "alt")
            play_scripted_game(alt, bids=((1, 3),))
            conn.execute("BEGIN TRANSACTION")
            insert_game(conn, game_record_for(session.game))
            for branch in (session.branch, alt.branch):
                parent = branch.parent.id if branch.parent else None
                insert_branch(conn, game_id, branch.id, parent, branch.fork_seq, branch.label, None)
                batch = batch_from_envelopes(branch.own, game_id, branch.id, branch.fork_seq + 1)
                write_batch(conn, game_id, branch.id, batch, branch.fork_seq,
                            context=lambda g=game_id: game_context(conn, g), state_of=branch.state_at)
            if current is not None:
                conn.execute("INSERT INTO recorder_games VALUES (?, ?)", [game_id, current])
            conn.execute("COMMIT")


def test_a_version_3_file_is_migrated_taking_each_main_line_from_the_recorder(tmp_path):
    """Schema 4 migration: the recorder's current branch (after an undo) becomes the main line; a game the
    recorder never noted (or noted on a branch no longer stored) keeps its root."""
    path = tmp_path / "v3.duckdb"
    _version_3_file(path, {"undone": "alt", "plain": None, "stale": "deleted-since"})
    store = EventStore(path)
    assert {game_id: store.main_line(game_id) for game_id in ("undone", "plain", "stale")} == {
        "undone": "alt", "plain": "main", "stale": "main"}
    with duckdb.connect(str(path)) as conn:
        assert schema_version(conn) == 4
    assert all(store.verify(game_id).ok for game_id in ("undone", "plain", "stale"))
    assert store.events("undone") == store.events("undone", "alt")
