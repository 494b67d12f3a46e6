"""The schema: created on first use, versioned, migrated forward one transaction per step."""

from __future__ import annotations

import duckdb
import pytest

from aero_events.store import (
    MIGRATIONS,
    SCHEMA_VERSION,
    EventStore,
    Migration,
    SchemaError,
    migrate,
    schema_version,
)
from aero_events.store.schema import schema_history


def tables(conn: duckdb.DuckDBPyConnection) -> set[str]:
    return {row[0] for row in conn.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' AND table_type = 'BASE TABLE'"
    ).fetchall()}


def test_first_use_creates_every_table_at_the_current_version(store, db_path):
    assert store.games() == []
    with duckdb.connect(str(db_path)) as conn:
        # and the SQL views' own tables (store/views.py): the outcomes of saved games, the views' fingerprint
        assert tables(conn) == {"schema_info", "games", "branches", "events", "snapshots", "game_outcomes",
                                "aero_views", "deleted_branches"}
        assert schema_version(conn) == SCHEMA_VERSION == 4
        assert [row[0] for row in schema_history(conn)] == [1, 2, 3, 4]
        columns = dict(conn.execute(
            "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'events'").fetchall())
    assert list(columns) == ["game", "branch", "seq", "turn", "phase", "actor", "type", "version", "payload",
                             "prev_hash", "hash"]
    assert columns["payload"] == "VARCHAR" and columns["hash"] == "BLOB"


def _back_to_version_2(conn: duckdb.DuckDBPyConnection) -> None:
    """What version 2 wrote: no sealed heads, no branch digest (nor version 4's main line)."""
    conn.execute("ALTER TABLE games DROP COLUMN main_line")
    conn.execute("DROP TABLE deleted_branches")
    conn.execute("DELETE FROM schema_info WHERE version = 4")
    conn.execute("ALTER TABLE branches DROP COLUMN head_seq")
    conn.execute("ALTER TABLE branches DROP COLUMN head_hash")
    conn.execute("ALTER TABLE games DROP COLUMN branches_digest")
    conn.execute("DELETE FROM schema_info WHERE version = 3")


def test_a_version_2_file_is_migrated_to_version_3_sealing_every_branch(db_path, saved):
    """Schema 3 (store/heads.py): the migration seals each stored branch at its stored head, so verify
    then sees a tail cut off later."""
    store = EventStore(db_path)
    store.fork(saved.game_id, "main", 6, "alt")
    with duckdb.connect(str(db_path)) as conn:
        _back_to_version_2(conn)
        assert schema_version(conn) == 2
    assert store.verify(saved.game_id).ok  # opening migrates first
    tree = store.branch_tree(saved.game_id)
    assert tree["main"].sealed_seq == saved.seq and tree["alt"].sealed_seq == 6
    with duckdb.connect(str(db_path)) as conn:
        assert schema_version(conn) == 4
        conn.execute("DELETE FROM events WHERE seq = (SELECT max(seq) FROM events)")
    assert "truncated" in store.verify(saved.game_id).summary()


def test_a_version_1_file_is_migrated_to_the_current_version_keeping_its_games(db_path, saved):
    store = EventStore(db_path)
    # Turn the file back into what version 1 wrote: no snapshots table, history ending at 1.
    with duckdb.connect(str(db_path)) as conn:
        _back_to_version_2(conn)
        conn.execute("DROP TABLE snapshots")
        conn.execute("DELETE FROM schema_info WHERE version = 2")
        assert schema_version(conn) == 1
        assert "snapshots" not in tables(conn)

    assert store.events(saved.game_id) == saved.events()  # opening migrates first
    with duckdb.connect(str(db_path)) as conn:
        assert schema_version(conn) == 4
        assert "snapshots" in tables(conn)
        assert conn.execute("SELECT count(*) FROM snapshots").fetchall() == [(0,)]
    assert store.state_at(saved.game_id, "main", saved.seq) == saved.state  # no snapshots: a full fold
    checkpoints = sum(1 for env in saved.events() if env.type == "StateCheckpoint")
    assert store.rebuild_snapshots(saved.game_id) == checkpoints > 0
    assert store.verify(saved.game_id).ok


def test_migrate_stops_at_a_target_and_resumes(tmp_path):
    with duckdb.connect(str(tmp_path / "steps.duckdb")) as conn:
        assert migrate(conn, target=1) == [1]
        assert tables(conn) == {"schema_info", "games", "branches", "events"}
        assert migrate(conn) == [2, 3, 4]
        assert migrate(conn) == []
        assert schema_version(conn) == 4


def test_a_failing_migration_leaves_the_previous_version(tmp_path):
    broken = (*MIGRATIONS, Migration(5, "a step that fails half way", (
        "CREATE TABLE half_done (x INTEGER)",
        "ALTER TABLE no_such_table ADD COLUMN y INTEGER",
    )))
    with duckdb.connect(str(tmp_path / "broken.duckdb")) as conn:
        with pytest.raises(SchemaError, match="schema version 5"):
            migrate(conn, broken)
        assert schema_version(conn) == 4
        assert "half_done" not in tables(conn)


def test_a_migration_may_run_python_to_move_data(tmp_path):
    def backfill(conn: duckdb.DuckDBPyConnection) -> None:
        conn.execute("UPDATE games SET metadata = '{\"migrated\": true}'")

    steps = (*MIGRATIONS, Migration(5, "mark every game", apply=backfill))
    with duckdb.connect(str(tmp_path / "py.duckdb")) as conn:
        migrate(conn)
        conn.execute("INSERT INTO games VALUES ('g', 'r', 'd', 'e', now()::TIMESTAMP, [], 'null', '{}', NULL, NULL)")
        assert migrate(conn, steps) == [5]
        assert conn.execute("SELECT metadata->>'$.migrated' FROM games").fetchall() == [("true",)]


def test_a_file_from_a_newer_package_is_refused(store, db_path):
    store.games()
    with duckdb.connect(str(db_path)) as conn:
        conn.execute("INSERT INTO schema_info VALUES (99, 'from the future', now()::TIMESTAMP)")
    with pytest.raises(SchemaError, match="newer than this package"):
        store.games()


def test_migrations_must_be_numbered_in_order(tmp_path):
    with duckdb.connect(str(tmp_path / "x.duckdb")) as conn, pytest.raises(ValueError, match="numbered"):
        migrate(conn, (MIGRATIONS[1],))
