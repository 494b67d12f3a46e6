"""Saving a game costs a few statements, whatever its length, and opening a store does not rebuild its views
(issue 18: games into DuckDB where users feel it), with every guarantee of the store kept: one transaction
per save, the hash chain and seals, the views SQL clients rely on."""

from __future__ import annotations

import duckdb
import pytest

from aero_events.core import Game, GameSession, StateCheckpoint
from aero_events.store import EventStore
from aero_events.store import fresh as fresh_module
from aero_events.store import views as views_module
from aero_events.store.errors import StaleSequence
from aero_events.store.views import GENERIC_VIEWS, install_key, install_views
from tests.store.games import END_OF_TURN_1, long_session, new_session, played_session
from tests.support.bidding import play_scripted_game

#: Every stored row of a game but the moments it was written (``created``, ``recorded``).
ROWS = {
    "games": "SELECT id, ruleset, data_version, engine_version, players, setup, metadata, branches_digest, main_line "
             "FROM games WHERE id = ? ORDER BY ALL",
    "branches": "SELECT game, id, parent, fork_seq, label, head_seq, head_hash FROM branches WHERE game = ? "
                "ORDER BY ALL",
    "events": "SELECT * FROM events WHERE game = ? ORDER BY branch, seq",
    "snapshots": "SELECT * FROM snapshots WHERE game = ? ORDER BY branch, seq",
    "outcomes": "SELECT game, branch, head_seq, finished, winner, draw, reason, scores FROM game_outcomes "
                "WHERE game = ? ORDER BY ALL",
}


class CountingConnection:
    """A DuckDB connection that records the statements run through it (and the Arrow inserts)."""

    def __init__(self, conn: duckdb.DuckDBPyConnection):
        self.conn = conn
        self.statements: list[str] = []

    def execute(self, sql: str, *args, **kwargs):
        self.statements.append(" ".join(sql.split()))
        return self.conn.execute(sql, *args, **kwargs)

    def from_arrow(self, table):
        self.statements.append(f"arrow insert of {table.num_rows} rows")
        return self.conn.from_arrow(table)

    def __getattr__(self, name: str):
        return getattr(self.conn, name)


def game_with_forks(game_id: str = "forked-1") -> GameSession:
    """Twelve turns on main; ``alt`` forked at the end of turn 2 and played two turns; ``alt2`` forked from
    ``alt`` inside main's part of it (turn 1) and played a turn; ``empty`` forked with no events of its own."""
    main = long_session(game_id)
    alt = main.fork(30, "alt")
    play_scripted_game(alt, bids=((1, 3), (2, 2)))
    alt2 = alt.fork(15, "alt2")
    play_scripted_game(alt2, bids=((3, 1),))
    main.fork(40, "empty")
    return main


def stored_rows(store: EventStore, game_id: str) -> dict[str, list[tuple]]:
    with store.connection() as conn:
        return {name: conn.execute(sql, [game_id]).fetchall() for name, sql in ROWS.items()}


# ---------------------------------------------------------------- saving a new game


def test_a_new_game_is_saved_with_one_insert_per_table_however_long(db_path):
    """A game the store has never seen goes in without a read: BEGIN, one insert per table, COMMIT; the
    same statements for a game of one branch and one of four (no statement per event or per branch)."""
    counted = {}
    with EventStore(db_path) as store:
        for session in (played_session("short-1"), game_with_forks("forked-1")):
            counting = CountingConnection(store._held)
            store._held = counting
            try:
                store.save_session(session)
            finally:
                store._held = counting.conn
            counted[session.game_id] = [statement.split(" (")[0].split(" VALUES")[0]
                                        for statement in counting.statements]
    expected = ["BEGIN TRANSACTION", "INSERT INTO games", "INSERT INTO branches", "arrow insert",
                "arrow insert", "INSERT INTO game_outcomes", "COMMIT"]
    for statements in counted.values():
        assert [statement.split(" of ")[0] for statement in statements] == expected


def test_a_new_game_gets_the_rows_the_checked_path_writes(tmp_path):
    """The rows of a game saved at once (store/fresh.py) are those the checked path writes for the same game
    when the store has its first turn already (the rest checked against it and appended branch by branch,
    parents first): events and their chain hashes, seals, the game's digest of its branches, snapshots,
    outcomes."""
    session = game_with_forks()
    own = {branch.id: [env.event for env in branch.own] for branch in session.game.branches.values()}
    assert {name: len(events) for name, events in own.items()} == {"main": 179, "alt": 30, "alt2": 15, "empty": 0}
    at_once = EventStore(tmp_path / "at-once.duckdb")
    assert at_once.save_session(session) == {name: len(events) for name, events in own.items()}
    checked = EventStore(tmp_path / "checked.duckdb")
    checked.create_game(Game(session.ruleset, session.game.setup, session.game_id, metadata=session.game.metadata))
    checked.append(session.game_id, "main", session.game.branches["main"].own[:END_OF_TURN_1], 0)
    assert checked.save_session(session) == {**{name: len(events) for name, events in own.items()},
                                             "main": 179 - END_OF_TURN_1}
    first, second = stored_rows(at_once, session.game_id), stored_rows(checked, session.game_id)
    checkpoints = sum(type(event) is StateCheckpoint for events in own.values() for event in events)
    assert {name: len(rows) for name, rows in first.items()} == {
        "games": 1, "branches": 4, "events": 224, "snapshots": checkpoints, "outcomes": 3}
    assert checkpoints > 10 and first == second
    assert at_once.verify(session.game_id).ok


def test_a_save_that_fails_half_way_leaves_the_store_as_it_was(store, monkeypatch):
    """One transaction per save: a failure after the events went in (here, writing the outcomes) leaves no
    game, branch, event or snapshot behind, and the same save succeeds afterwards."""
    session = game_with_forks()

    def fail(*args, **kwargs):
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(fresh_module, "record_outcomes", fail)
    with pytest.raises(RuntimeError, match="disk is full"):
        store.save_session(session)
    assert {name: len(rows) for name, rows in stored_rows(store, session.game_id).items()} == dict.fromkeys(ROWS, 0)
    monkeypatch.undo()
    assert store.save_session(session)["main"] == 179
    assert store.verify(session.game_id).ok


def test_a_game_stored_already_is_saved_by_another_store_object_through_the_checks(db_path):
    """A store object that has not written the game tries it as new, meets the stored rows, and takes the
    checked path: only the events the store lacks are appended, and a stored line of play the session
    does not share is still refused."""
    session = played_session()
    EventStore(db_path).save_session(session)
    other = session.fork(15, "other")
    play_scripted_game(other, bids=((1, 1),))
    assert EventStore(db_path).save_session(session) == {"main": 0, "other": 15}
    assert EventStore(db_path).save_session(session) == {"main": 0, "other": 0}
    assert EventStore(db_path).verify(session.game_id).ok
    rival = new_session(session.game_id, seed=99)  # the same game id, played otherwise from the start
    play_scripted_game(rival, bids=((3, 3),))
    with pytest.raises(StaleSequence):
        EventStore(db_path).save_session(rival)
    assert EventStore(db_path).head(session.game_id) == session.game.branches["main"].head_seq


# ---------------------------------------------------------------- views


def _views(path) -> set[str]:
    conn = duckdb.connect(str(path))  # a plain SQL client
    try:
        return {row[0] for row in conn.execute("SELECT view_name FROM duckdb_views() WHERE NOT internal").fetchall()}
    finally:
        conn.close()


def test_opening_a_store_again_neither_imports_rulesets_nor_rewrites_views(db_path, monkeypatch):
    """The file records the views it was given and the key of the source they came from: opening it
    again (for reading or writing) compares that key and looks for missing views, nothing more."""
    EventStore(db_path).save_session(played_session())

    def no_views():
        raise AssertionError("the views were computed again")

    monkeypatch.setattr(views_module, "all_views", no_views)
    assert EventStore(db_path).games()[0].id == "game-1"  # a read
    with EventStore(db_path) as store, store.connection() as conn:  # a write
        assert install_views(conn) == []


def test_a_dropped_view_is_reinstalled_when_the_store_opens(db_path):
    """A view dropped by some SQL client comes back the next time the store opens the file."""
    EventStore(db_path).save_session(played_session())
    conn = duckdb.connect(str(db_path))
    conn.execute("DROP VIEW dice_by_purpose")
    conn.close()
    assert "dice_by_purpose" not in _views(db_path)
    EventStore(db_path).games()
    assert {name for name, _, _ in GENERIC_VIEWS} <= _views(db_path)


def test_views_out_of_date_are_reinstalled_and_a_new_source_with_the_same_views_only_rekeys(db_path):
    """A file whose views came from other definitions (another fingerprint and key) gets today's; a file
    whose key is old but whose views are today's only records the new key."""
    EventStore(db_path).save_session(played_session())
    conn = duckdb.connect(str(db_path))
    conn.execute("CREATE OR REPLACE VIEW events_by_type AS SELECT 1 AS outdated")
    conn.execute("UPDATE aero_views SET fingerprint = 'older' WHERE name IN ('(all views)', '(install key)')")
    conn.close()
    with EventStore(db_path) as store, store.connection() as conn:
        columns = [row[0] for row in conn.execute("DESCRIBE events_by_type").fetchall()]
        assert columns[:3] == ["game", "ruleset", "branch"] and "events" in columns
        conn.execute("UPDATE aero_views SET fingerprint = 'older' WHERE name = '(install key)'")
        assert install_views(conn) == []
        assert conn.execute("SELECT fingerprint FROM aero_views WHERE name = '(install key)'").fetchall() == [
            (install_key(),)]
