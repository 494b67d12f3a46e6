"""The write path: one batch of events onto one branch, inside the caller's transaction.

The batch goes in through Arrow: its columns become a pyarrow Table that DuckDB copies
into the events table in one insert (never row by row). Before writing, the branch's
stored head is compared with the head the writer expected; a difference raises
:class:`StaleSequence` and the caller's transaction rolls back, so nothing is written.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import duckdb
import pyarrow as pa

from .chain import chain_hashes, previous_hashes
from .codec import EventBatch, gc_paused, with_keys
from .errors import StaleSequence
from .games import GameContext
from .heads import check_sealed, seal_branch
from .lineage import branch_head
from .snapshots import checkpoint_snapshots, insert_snapshots, state_at

_EVENTS_SCHEMA = pa.schema([
    ("seq", pa.int64()),
    ("turn", pa.int32()),
    ("phase", pa.string()),
    ("actor", pa.string()),
    ("type", pa.string()),
    ("version", pa.int32()),
    ("payload", pa.string()),
    ("prev_hash", pa.binary()),
    ("hash", pa.binary()),
])


def batch_table(batch: EventBatch, prev_hashes: list[bytes], hashes: list[bytes]) -> pa.Table:
    """The batch as an Arrow table with the events table's columns (game and branch aside)."""
    return pa.Table.from_arrays(
        [
            pa.array(batch.seqs, pa.int64()),
            pa.array(batch.turns, pa.int32()),
            pa.array(batch.phases, pa.string()),
            pa.array(batch.actors, pa.string()),
            pa.array(batch.types, pa.string()),
            pa.array(batch.versions, pa.int32()),
            # Every payload was written (or, on import, fully decoded) by msgspec, so it is valid UTF-8:
            # reinterpreting the bytes as strings skips a second validation pass.
            pa.array(batch.payloads, pa.binary()).view(pa.string()),
            pa.array(prev_hashes, pa.binary()),
            pa.array(hashes, pa.binary()),
        ],
        schema=_EVENTS_SCHEMA,
    )


def write_batch(
    conn: duckdb.DuckDBPyConnection,
    game_id: str,
    branch_id: str,
    batch: EventBatch,
    expected_seq: int,
    *,
    context: Callable[[], GameContext],
    state_of: Callable[[int], Any] | None = None,
) -> bytes:
    """Append ``batch`` (numbered from ``expected_seq + 1``) if the branch's head is ``expected_seq``.

    ``context`` loads the game's ruleset, called only when the batch holds a checkpoint
    (to write snapshots); ``state_of`` gives known states instead of folding. Returns
    the hash of the branch's new head.
    """
    head, head_hash = branch_head(conn, game_id, branch_id)
    if head != expected_seq:
        raise StaleSequence(game_id, branch_id, expected_seq, head)
    check_sealed(conn, game_id, branch_id, head, head_hash)
    if not len(batch):
        return head_hash
    with gc_paused():
        hashes = chain_hashes(head_hash, batch.seqs, batch.turns, batch.phases, batch.actors, batch.types,
                              batch.versions, batch.payloads)
        table = batch_table(batch, previous_hashes(head_hash, hashes), hashes)
    snapshots = []
    if batch.has_checkpoints:
        game = context()
        snapshots = checkpoint_snapshots(
            game, game_id, branch_id, batch,
            lambda: state_at(conn, game, game_id, branch_id, expected_seq), state_of,
        )
    conn.from_arrow(with_keys(table, game_id, branch_id)).insert_into("events")
    insert_snapshots(conn, game_id, branch_id, snapshots)
    seal_branch(conn, game_id, branch_id, batch.seqs[-1], hashes[-1])
    return hashes[-1]
