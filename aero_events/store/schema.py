"""The store's tables, versioned, and the migrations that bring an older file forward.

``schema_info`` keeps one row per applied migration (version, description, when).
Opening a file applies every migration above its version, each in its own
transaction, so a file is always at one exact version; a file written by a newer
package is refused rather than misread.

Version 1: ``games``, ``branches``, ``events`` (the hash-chained log).
Version 2: ``snapshots``, one folded state per turn, so reading late in a long game
does not fold it from the start.
Version 3: each branch's sealed head (``branches.head_seq``, ``branches.head_hash``) and each
game's digest of its branch rows (``games.branches_digest``), so that ``verify`` sees a cut-off
tail or a deleted branch (:mod:`.heads`).
Version 4: each game's main line (``games.main_line``: the branch that was played, which every reader
shows unless told another; NULL reads as ``main``) and ``deleted_branches``, the record of branches
deleted on purpose (:mod:`.branches`). A file of version 3 takes its main lines from the recorder's
``recorder_games.current_branch`` (the branch play went on with after an ``undo``), where it has one.

Column choices:

* ``events.payload`` is VARCHAR holding the exact JSON bytes msgspec wrote (always
  UTF-8). The hash chain is computed over those bytes, so they must come back byte
  for byte (a JSON type may one day normalise); DuckDB's JSON functions read VARCHAR
  directly (``payload->>'$.faces'``) for analysis, and it compresses well
  (about 20 bytes per small event).
* ``prev_hash`` and ``hash`` are 32-byte BLOBs (raw sha256): half the size of hex.
* ``created`` is TIMESTAMP in UTC (TIMESTAMPTZ would need pytz to read back).
* ``players`` is a VARCHAR list; ``setup`` and ``metadata`` are JSON text.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

import duckdb

from .errors import SchemaError


def _seal_existing(conn: duckdb.DuckDBPyConnection) -> None:
    from .heads import seal_all

    seal_all(conn)


def _main_lines_from_recorder(conn: duckdb.DuckDBPyConnection) -> None:
    """Version 4: a game the recorder went on with on another branch (after ``undo``) has that as its main line."""
    recorded = conn.execute("SELECT 1 FROM information_schema.tables WHERE table_schema = 'main' "
                            "AND table_name = 'recorder_games'").fetchall()
    if recorded:
        conn.execute("""UPDATE games SET main_line = r.current_branch FROM recorder_games r
                        WHERE games.id = r.game AND r.current_branch <> 'main'
                          AND EXISTS (SELECT 1 FROM branches b WHERE b.game = r.game AND b.id = r.current_branch)""")


@dataclass(frozen=True)
class Migration:
    """One step forward: SQL statements and/or a function run inside one transaction."""

    version: int
    description: str
    statements: tuple[str, ...] = ()
    apply: Callable[[duckdb.DuckDBPyConnection], None] | None = None


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "games, branches and the hash-chained events",
        (
            """CREATE TABLE IF NOT EXISTS schema_info (
                version INTEGER PRIMARY KEY,
                description VARCHAR NOT NULL,
                applied TIMESTAMP NOT NULL
            )""",
            """CREATE TABLE games (
                id VARCHAR PRIMARY KEY,
                ruleset VARCHAR NOT NULL,
                data_version VARCHAR NOT NULL,
                engine_version VARCHAR NOT NULL,
                created TIMESTAMP NOT NULL,
                players VARCHAR[] NOT NULL,
                setup JSON NOT NULL,
                metadata JSON NOT NULL
            )""",
            """CREATE TABLE branches (
                game VARCHAR NOT NULL,
                id VARCHAR NOT NULL,
                parent VARCHAR,
                fork_seq BIGINT NOT NULL,
                label VARCHAR NOT NULL,
                created TIMESTAMP NOT NULL,
                PRIMARY KEY (game, id)
            )""",
            """CREATE TABLE events (
                game VARCHAR NOT NULL,
                branch VARCHAR NOT NULL,
                seq BIGINT NOT NULL,
                turn INTEGER NOT NULL,
                phase VARCHAR NOT NULL,
                actor VARCHAR,
                type VARCHAR NOT NULL,
                version INTEGER NOT NULL,
                payload VARCHAR NOT NULL,
                prev_hash BLOB NOT NULL,
                hash BLOB NOT NULL,
                PRIMARY KEY (game, branch, seq)
            )""",
        ),
    ),
    Migration(
        2,
        "per-turn state snapshots",
        (
            """CREATE TABLE snapshots (
                game VARCHAR NOT NULL,
                branch VARCHAR NOT NULL,
                seq BIGINT NOT NULL,
                turn INTEGER NOT NULL,
                state_hash VARCHAR NOT NULL,
                state BLOB NOT NULL,
                PRIMARY KEY (game, branch, seq)
            )""",
        ),
    ),
    Migration(
        3,
        "sealed branch heads and a digest of each game's branches",
        (
            "ALTER TABLE branches ADD COLUMN head_seq BIGINT",
            "ALTER TABLE branches ADD COLUMN head_hash BLOB",
            "ALTER TABLE games ADD COLUMN branches_digest VARCHAR",
        ),
        _seal_existing,
    ),
    Migration(
        4,
        "each game's main line, and the record of deleted branches",
        (
            "ALTER TABLE games ADD COLUMN main_line VARCHAR",
            """CREATE TABLE deleted_branches (
                game VARCHAR NOT NULL,
                id VARCHAR NOT NULL,
                parent VARCHAR,
                fork_seq BIGINT NOT NULL,
                head_seq BIGINT,
                head_hash BLOB,
                own_events BIGINT NOT NULL,
                deleted TIMESTAMP NOT NULL
            )""",
        ),
        _main_lines_from_recorder,
    ),
)

#: The schema version this package writes.
SCHEMA_VERSION = MIGRATIONS[-1].version


def schema_version(conn: duckdb.DuckDBPyConnection) -> int:
    """The file's schema version; 0 for a file without the store's tables."""
    try:
        (version,), = conn.execute("SELECT max(version) FROM schema_info").fetchall()
    except duckdb.CatalogException:
        return 0
    return 0 if version is None else int(version)


def migrate(
    conn: duckdb.DuckDBPyConnection,
    migrations: Sequence[Migration] = MIGRATIONS,
    target: int | None = None,
) -> list[int]:
    """Apply, in order, each migration above the file's version up to ``target`` (default: the last).

    Each step runs in its own transaction together with its ``schema_info`` row, so a
    failed step leaves the file at the previous version. Returns the versions applied.
    """
    versions = [m.version for m in migrations]
    if versions != list(range(1, len(versions) + 1)):
        raise ValueError(f"migrations must be numbered 1, 2, 3...; got {versions}")
    latest = versions[-1] if versions else 0
    target = latest if target is None else target
    current = schema_version(conn)
    if current > latest:
        raise SchemaError(
            f"the database has schema version {current}, newer than this package's {latest}; "
            "upgrade aero_events to read it"
        )
    applied = []
    for migration in migrations:
        if not current < migration.version <= target:
            continue
        conn.execute("BEGIN TRANSACTION")
        try:
            for statement in migration.statements:
                conn.execute(statement)
            if migration.apply is not None:
                migration.apply(conn)
            conn.execute(
                "INSERT INTO schema_info VALUES (?, ?, ?)",
                [migration.version, migration.description, datetime.now(UTC).replace(tzinfo=None)],
            )
            conn.execute("COMMIT")
        except Exception as err:
            conn.execute("ROLLBACK")
            raise SchemaError(
                f"migration to schema version {migration.version} ({migration.description}) failed: {err}"
            ) from err
        applied.append(migration.version)
    return applied


def schema_history(conn: duckdb.DuckDBPyConnection) -> list[tuple[int, str, datetime]]:
    """Every applied migration: (version, description, applied at, UTC)."""
    if schema_version(conn) == 0:
        return []
    return [tuple(row) for row in conn.execute("SELECT * FROM schema_info ORDER BY version").fetchall()]
