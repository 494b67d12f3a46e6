"""Reading a branch's line of play: its ancestors' events up to each fork, then its own.

A branch stores only the events after its fork point; the rest are its parent's (up
to ``fork_seq``), its grandparent's (up to the smaller of the two fork points) and
so on. :func:`lineage` walks up the branch tree once (one small query of the game's
branches) and gives each branch of the line with the last seq it contributes; the
reads then select ``branch = 'alt' OR (branch = 'main' AND seq <= 8) ...`` in one
query, in seq order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import duckdb
import pyarrow as pa
import pyarrow.compute as pc

from .chain import GENESIS
from .database import first_row
from .errors import StoreError, UnknownBranch, UnknownGame

EVENT_COLUMNS = ("branch", "seq", "turn", "phase", "actor", "type", "version", "payload", "prev_hash", "hash")


class Segment(NamedTuple):
    """One branch of a line of play and the last seq it contributes (None: all its events)."""

    branch: str
    upto: int | None


def require_game(conn: duckdb.DuckDBPyConnection, game_id: str) -> None:
    if not conn.execute("SELECT 1 FROM games WHERE id = ?", [game_id]).fetchall():
        raise UnknownGame(f"no game {game_id!r} in the store")


def lineage(conn: duckdb.DuckDBPyConnection, game_id: str, branch_id: str) -> list[Segment]:
    """The branch, then each ancestor with the last seq it contributes to the branch's line."""
    rows = {row[0]: (row[1], int(row[2])) for row in conn.execute(
        "SELECT id, parent, fork_seq FROM branches WHERE game = ?", [game_id]).fetchall()}
    if branch_id not in rows:
        if not rows:
            require_game(conn, game_id)
        raise UnknownBranch(f"game {game_id} has no branch {branch_id!r}; its branches: {', '.join(sorted(rows))}")
    segments = [Segment(branch_id, None)]
    parent, upto = rows[branch_id]
    while parent is not None:
        if parent not in rows:
            raise StoreError(f"game {game_id}: branch {segments[-1].branch!r} forks from {parent!r}, "
                             "which is not stored")
        segments.append(Segment(parent, upto))
        parent, fork_seq = rows[parent]
        upto = min(upto, fork_seq)
    return segments


def lineage_condition(segments: Sequence[Segment], alias: str = "") -> tuple[str, dict[str, Any]]:
    """SQL selecting the rows of a line of play (events or snapshots), with its parameters."""
    prefix = f"{alias}." if alias else ""
    parts, params = [], {}
    for index, segment in enumerate(segments):
        params[f"b{index}"] = segment.branch
        if segment.upto is None:
            parts.append(f"{prefix}branch = $b{index}")
        else:
            params[f"u{index}"] = segment.upto
            parts.append(f"({prefix}branch = $b{index} AND {prefix}seq <= $u{index})")
    return "(" + " OR ".join(parts) + ")", params


def lineage_query(
    select: str,
    game_id: str,
    segments: Sequence[Segment],
    *,
    start: int | None = None,
    stop: int | None = None,
    turn: int | None = None,
    phase: str | None = None,
    types: Sequence[str] | None = None,
    exclude_types: Sequence[str] | None = None,
    order: bool = True,
) -> tuple[str, dict[str, Any]]:
    """``SELECT {select} FROM events`` over a line of play with the filters (seq order), and its parameters."""
    condition, params = lineage_condition(segments)
    params["game"] = game_id
    conditions = ["game = $game", condition]
    for name, value, test in (
        ("start", start, "seq >= $start"),
        ("stop", stop, "seq <= $stop"),
        ("turn", turn, "turn = $turn"),
        ("phase", phase, "phase = $phase"),
    ):
        if value is not None:
            params[name] = value
            conditions.append(test)
    if types is not None:
        params["types"] = list(types)
        conditions.append("list_contains($types, type)")
    if exclude_types:
        params["exclude"] = list(exclude_types)
        conditions.append("NOT list_contains($exclude, type)")
    return (f"SELECT {select} FROM events WHERE {' AND '.join(conditions)}" + (" ORDER BY seq" if order else ""),
            params)


def lineage_events(
    conn: duckdb.DuckDBPyConnection,
    game_id: str,
    branch_id: str,
    *,
    columns: Sequence[str] = EVENT_COLUMNS,
    segments: Sequence[Segment] | None = None,
    **filters: Any,
) -> pa.Table:
    """The branch's events (ancestors' included) passing the filters of :func:`lineage_query`, in seq order."""
    if segments is None:
        segments = lineage(conn, game_id, branch_id)
    if "seq" not in columns:
        sql, params = lineage_query(", ".join(columns), game_id, segments, **filters)
        return conn.sql(sql, params=params).to_arrow_table()
    sql, params = lineage_query(", ".join(columns), game_id, segments, order=False, **filters)
    return in_seq_order(conn.sql(sql, params=params).to_arrow_table())


def in_seq_order(table: pa.Table) -> pa.Table:
    """``table`` sorted by seq. DuckDB returns a plain scan in insertion order, which for a log is
    nearly always seq order: checking that in Arrow is cheaper than having DuckDB sort."""
    seqs = table.column("seq")
    if len(seqs) < 2 or pc.all(pc.less(seqs.slice(0, len(seqs) - 1), seqs.slice(1))).as_py():
        return table
    return table.sort_by("seq")


def head_seq(conn: duckdb.DuckDBPyConnection, game_id: str, branch_id: str) -> int:
    """The seq of the branch's last event: its own last, or its fork point if it has none."""
    branch = first_row(conn.execute("SELECT fork_seq FROM branches WHERE game = ? AND id = ?",
                                    [game_id, branch_id]).fetchall())
    if branch is None:
        lineage(conn, game_id, branch_id)  # raises the error that says what is missing
    (last,), = conn.execute("SELECT max(seq) FROM events WHERE game = ? AND branch = ?",
                            [game_id, branch_id]).fetchall()
    return int(branch[0]) if last is None else int(last)


def branch_head(conn: duckdb.DuckDBPyConnection, game_id: str, branch_id: str) -> tuple[int, bytes]:
    """(head seq, hash of the event there) of a branch; (0, GENESIS) before its first event.

    A branch without own events stands at its fork point, whose hash is its parent's. (One statement for a
    branch with events of its own: the hash at its last seq is its own event's.)
    """
    row = first_row(conn.execute(
        """SELECT (SELECT max(seq) FROM events WHERE game = $game AND branch = $branch),
                  (SELECT arg_max(hash, seq) FROM events WHERE game = $game AND branch = $branch)
           FROM branches WHERE game = $game AND id = $branch""", {"game": game_id, "branch": branch_id}).fetchall())
    if row is not None and row[0] is not None:
        return int(row[0]), bytes(row[1])
    head = head_seq(conn, game_id, branch_id)  # (a branch the store lacks: the error that says what is missing)
    return head, hash_at(conn, game_id, branch_id, head)


def hash_at(conn: duckdb.DuckDBPyConnection, game_id: str, branch_id: str, seq: int) -> bytes:
    """The chain hash of the branch's event ``seq`` (GENESIS for 0)."""
    if seq == 0:
        return GENESIS
    table = lineage_events(conn, game_id, branch_id, columns=("hash",), start=seq, stop=seq)
    if table.num_rows == 0:
        raise StoreError(f"game {game_id} branch {branch_id!r} has no event {seq}")
    return bytes(table.column("hash")[0].as_py())
