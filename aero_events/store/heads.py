"""Each branch's head, sealed in its row, and each game's digest of its branches (schema version 3).

The hash chain proves every stored event is what was written and in its place, but not that nothing was
cut off the end: the events 1..40 of a branch of 50 still chain perfectly, and a branch deleted with its
events leaves no gap. So every write also records, in the branch's row, where the branch ends and the
hash there (``head_seq``, ``head_hash``), and, in the game's row, a digest of every branch's row
(``branches_digest``). ``verify`` compares both with the events actually stored; an append refuses to
write after a branch whose stored events no longer reach its sealed head (it would seal the damage).

``head_hash`` is NULL only for a branch stored before its parent's events reached its fork point
(``EventStore.create_game`` of a game with forks, before anything is saved): nothing to check yet.
"""

from __future__ import annotations

import hashlib
import shlex

import duckdb
import msgspec

from .chain import GENESIS
from .errors import StoreError

_json = msgspec.json.encode


def fork_hash(conn: duckdb.DuckDBPyConnection, game_id: str, parent: str | None, fork_seq: int) -> bytes | None:
    """The chain hash a branch forked at ``fork_seq`` starts from; None if the parent's events are not there."""
    from .lineage import hash_at

    if parent is None or fork_seq == 0:
        return GENESIS
    try:
        return hash_at(conn, game_id, parent, fork_seq)
    except StoreError:
        return None


def seal_branch(conn: duckdb.DuckDBPyConnection, game_id: str, branch_id: str, head_seq: int,
                head_hash: bytes | None) -> None:
    """Record in the branch's row that it now ends at ``head_seq`` with ``head_hash``, and re-digest the game."""
    conn.execute("UPDATE branches SET head_seq = ?, head_hash = ? WHERE game = ? AND id = ?",
                 [head_seq, head_hash, game_id, branch_id])
    seal_game(conn, game_id)


def branches_digest(rows: list[tuple]) -> str:
    """sha256 (hex) of a game's branch rows ``(id, parent, fork_seq, head_seq, head_hash)``, in id order."""
    canonical = [[bid, parent, int(fork_seq), None if head is None else int(head),
                  None if digest is None else bytes(digest).hex()]
                 for bid, parent, fork_seq, head, digest in sorted(rows, key=lambda row: row[0])]
    return hashlib.sha256(_json(canonical)).hexdigest()


def branch_rows(conn: duckdb.DuckDBPyConnection, game_id: str) -> list[tuple]:
    return conn.execute("SELECT id, parent, fork_seq, head_seq, head_hash FROM branches WHERE game = ?",
                        [game_id]).fetchall()


def seal_game(conn: duckdb.DuckDBPyConnection, game_id: str) -> None:
    """Record the digest of the game's branch rows in its row."""
    conn.execute("UPDATE games SET branches_digest = ? WHERE id = ?",
                 [branches_digest(branch_rows(conn, game_id)), game_id])


def sealed_head(conn: duckdb.DuckDBPyConnection, game_id: str, branch_id: str) -> tuple[int | None, bytes | None]:
    rows = conn.execute("SELECT head_seq, head_hash FROM branches WHERE game = ? AND id = ?",
                        [game_id, branch_id]).fetchall()
    if not rows:
        return None, None
    head, digest = rows[0]
    return (None if head is None else int(head)), (None if digest is None else bytes(digest))


def check_sealed(conn: duckdb.DuckDBPyConnection, game_id: str, branch_id: str, head: int, head_hash: bytes) -> None:
    """Refuse to write after a branch whose stored events do not end where its row says they end."""
    sealed_seq, sealed_hash = sealed_head(conn, game_id, branch_id)
    if sealed_seq is None:
        return
    if sealed_seq != head or (sealed_hash is not None and sealed_hash != head_hash):
        from .database import aero_hint, connection_path  # (database imports the schema, which imports this)

        raise StoreError(
            f"game {game_id} branch {branch_id!r} is damaged: its row says it ends at event {sealed_seq}, "
            f"its stored events end at {head}" + ("" if sealed_seq != head else " with another hash")
            + f"; nothing was written (run `{aero_hint(f'verify {shlex.quote(game_id)}', connection_path(conn))}`)")


def seal_all(conn: duckdb.DuckDBPyConnection) -> None:
    """Seal every stored branch and game from the events stored now (the migration to version 3)."""
    from .lineage import branch_head

    for (game_id,) in conn.execute("SELECT id FROM games").fetchall():
        for (branch_id,) in conn.execute("SELECT id FROM branches WHERE game = ?", [game_id]).fetchall():
            try:
                head, digest = branch_head(conn, game_id, branch_id)
            except StoreError:
                continue  # a broken line of play stays unsealed; verify reports it
            conn.execute("UPDATE branches SET head_seq = ?, head_hash = ? WHERE game = ? AND id = ?",
                         [head, digest, game_id, branch_id])
        seal_game(conn, game_id)


def seal_written_games(conn: duckdb.DuckDBPyConnection, game_ids: list[str]) -> None:
    """Seal the branches and games written in bulk by SQL of their own (``aero simulate``'s writer), in a few
    statements whatever their number: each branch at its last stored event, or its fork point."""
    if not game_ids:
        return
    conn.execute(
        """UPDATE branches SET head_seq = h.seq, head_hash = h.hash
           FROM (SELECT game, branch, max(seq) AS seq, arg_max(hash, seq) AS hash FROM events
                 WHERE list_contains($ids, game) GROUP BY game, branch) h
           WHERE branches.game = h.game AND branches.id = h.branch""", {"ids": game_ids})
    conn.execute("""UPDATE branches SET head_seq = 0, head_hash = $genesis
                    WHERE list_contains($ids, game) AND head_seq IS NULL AND fork_seq = 0""",
                 {"ids": game_ids, "genesis": GENESIS})
    by_game: dict[str, list[tuple]] = {}
    for row in conn.execute("SELECT game, id, parent, fork_seq, head_seq, head_hash FROM branches "
                            "WHERE list_contains($ids, game)", {"ids": game_ids}).fetchall():
        by_game.setdefault(row[0], []).append(row[1:])
    import pyarrow as pa

    from .database import registered

    digests = pa.table({"id": pa.array(list(by_game), pa.string()),
                        "digest": pa.array([branches_digest(rows) for rows in by_game.values()], pa.string())})
    with registered(conn, "sealed_digests", digests):
        conn.execute("UPDATE games SET branches_digest = d.digest FROM sealed_digests d WHERE games.id = d.id")
