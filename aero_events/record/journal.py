"""What the recorder keeps beside a stored game: its annotations, and the branch play goes on with.

The event store has no way to change a game's metadata once the game is stored, and annotations must
stay out of the event stream (every event is folded by the ruleset, whose ``evolve`` refuses types it
does not know). So the recorder keeps two small tables of its own in the same DuckDB file, created on
first use:

* ``recorder_annotations``: a comment (``kind`` "comment") or annotation (``kind`` "note", or any
  ``%name`` of a record) on a branch, after event ``seq`` (the end of the step it is about);
* the branch play goes on with is the game's **main line**, kept by the store itself (``games.main_line``,
  schema 4, :mod:`aero_events.store.branches`) so that every reader shows it: after an ``undo`` the new
  branch is the main line, and the taken-back commands stay on the branch they were played on, a
  variation. (Files written before schema 4 kept it in ``recorder_games.current_branch``; the migration to
  schema 4 moved it into the store, and nothing writes that table any more.)

Command boundaries are not stored: they are recovered from the events themselves
(:mod:`aero_events.regress.decisions` re-decides every command and proves it gives the recorded events),
so they are right for any stored game, whoever recorded it.
"""

from __future__ import annotations

from collections.abc import Iterable

import duckdb

from aero_events.store import EventStore
from aero_events.store.branches import set_main_line
from aero_events.store.database import transaction
from aero_events.store.games import main_line

from .record_format import Annotation

_TABLES = (
    """CREATE TABLE IF NOT EXISTS recorder_annotations (
        game VARCHAR NOT NULL,
        branch VARCHAR NOT NULL,
        seq BIGINT NOT NULL,
        kind VARCHAR NOT NULL,
        text VARCHAR NOT NULL,
        ordinal BIGINT NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS recorder_games (
        game VARCHAR PRIMARY KEY,
        current_branch VARCHAR NOT NULL
    )""",
)


def ensure_tables(conn: duckdb.DuckDBPyConnection) -> None:
    for statement in _TABLES:
        conn.execute(statement)


def _exists(conn: duckdb.DuckDBPyConnection) -> bool:
    return bool(conn.execute("SELECT 1 FROM information_schema.tables WHERE table_schema = 'main' AND "
                             "table_name = 'recorder_games'").fetchall())


# ---------------------------------------------------------------- inside a caller's transaction


def write_annotations(conn: duckdb.DuckDBPyConnection, game_id: str, notes: Iterable[Annotation]) -> None:
    ensure_tables(conn)
    (count,), = conn.execute("SELECT count(*) FROM recorder_annotations WHERE game = ?", [game_id]).fetchall()
    for ordinal, note in enumerate(notes, start=int(count)):
        conn.execute("INSERT INTO recorder_annotations VALUES (?, ?, ?, ?, ?, ?)",
                     [game_id, note.branch, note.seq, note.kind, note.text, ordinal])


def write_current_branch(conn: duckdb.DuckDBPyConnection, game_id: str, branch: str) -> None:
    """Make ``branch`` the game's main line (the branch play goes on with, which every reader shows)."""
    set_main_line(conn, game_id, branch)


def forget_game(conn: duckdb.DuckDBPyConnection, game_id: str) -> None:
    """Drop the recorder's rows of a game (before it is imported again over the old one)."""
    if _exists(conn):
        conn.execute("DELETE FROM recorder_annotations WHERE game = ?", [game_id])
        conn.execute("DELETE FROM recorder_games WHERE game = ?", [game_id])


# ---------------------------------------------------------------- through the store


def add_annotation(store: EventStore, game_id: str, note: Annotation) -> None:
    with store.connection() as conn, transaction(conn):
        write_annotations(conn, game_id, [note])


def annotations(store: EventStore, game_id: str) -> list[Annotation]:
    with store.connection() as conn:
        if not _exists(conn):
            return []
        rows = conn.execute("SELECT branch, seq, kind, text FROM recorder_annotations WHERE game = ? "
                            "ORDER BY ordinal", [game_id]).fetchall()
    return [Annotation(branch, int(seq), kind, text) for branch, seq, kind, text in rows]


def set_current_branch(store: EventStore, game_id: str, branch: str) -> None:
    with store.connection() as conn, transaction(conn):
        write_current_branch(conn, game_id, branch)


def current_branch(store: EventStore, game_id: str) -> str:
    """The branch a recorded game goes on with: its main line."""
    with store.connection(write=False) as conn:
        return main_line(conn, game_id)
