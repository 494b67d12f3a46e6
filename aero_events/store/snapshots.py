"""Per-turn state snapshots, so that a state late in a long game is one short fold away.

When an appended batch holds a :class:`StateCheckpoint` (the session records one at
each change of turn), the store folds the batch from the state before it, checks the
checkpoint's hash against the folded state (refusing the batch on a mismatch), and
writes the state there as msgpack. ``state_at`` starts from the nearest snapshot at
or before the wanted seq in the branch's line of play and folds only what follows.

A snapshot decodes with ``msgspec.msgpack.decode(blob, type=type(initial_state))``:
rulesets declare no state type, so the initial state's type stands for it. A state
that would not come back equal from that round trip is simply not snapshotted.

A snapshot holds the state in the shape of the version that wrote it (:mod:`aero_events.core.state_shape`).
For a game recorded with an older shape, one written then may lack a field this version folds to another
value than its default: ``state_at`` uses only a snapshot that encodes back to the same bytes in the current
shape, and folds from an earlier one (or the start) otherwise. A game of the current shape pays nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import duckdb
import msgspec
import pyarrow as pa

from aero_events.core.events import Event
from aero_events.core.session import StateCheckpoint
from aero_events.core.state_shape import CheckpointCheck

from .codec import EventBatch, current_classes, decode_current, decode_table, gc_paused, with_keys
from .database import first_row
from .errors import CheckpointMismatch, StoreError
from .games import GameContext, game_metadata
from .lineage import Segment, head_seq, lineage, lineage_condition, lineage_events, lineage_query

_state_encoder = msgspec.msgpack.Encoder(order="deterministic")

#: A snapshot before writing: (seq, turn, state_hash, msgpack of the state).
SnapshotRow = tuple[int, int, str, bytes]


def encode_state(state: Any) -> bytes:
    return _state_encoder.encode(state)


def decode_state(context: GameContext, blob: bytes) -> Any:
    return msgspec.msgpack.decode(blob, type=context.state_type)


def snapshot_row(context: GameContext, seq: int, turn: int, state_hash: str, state: Any) -> SnapshotRow | None:
    """The row to store for ``state``, or None if it would not decode back equal."""
    try:
        blob = encode_state(state)
        if decode_state(context, blob) != state:
            return None
    except (TypeError, msgspec.ValidationError, msgspec.DecodeError):
        return None
    return (seq, turn, state_hash, blob)


def checkpoint_snapshots(
    context: GameContext,
    game_id: str,
    branch_id: str,
    batch: EventBatch,
    state_before: Callable[[], Any],
    state_of: Callable[[int], Any] | None = None,
) -> list[SnapshotRow]:
    """Snapshots at each checkpoint of ``batch``.

    With ``state_of`` (a live session's branch knows every state) the states are taken
    from it; otherwise the batch is folded from the state ``state_before()`` returns
    (called only if the batch has a checkpoint) and each checkpoint's hash
    is checked, raising :class:`CheckpointMismatch`.
    """
    if not batch.has_checkpoints:
        return []
    ruleset = context.ruleset
    rows: list[SnapshotRow] = []
    if state_of is not None:
        for seq, event in zip(batch.seqs, batch.events, strict=True):
            if type(event) is StateCheckpoint:
                row = snapshot_row(context, seq, event.turn, event.state_hash, state_of(seq))
                if row is not None:
                    rows.append(row)
        return rows
    state = state_before()
    evolve = ruleset.evolve
    # in the state shape the game was recorded with, or a later one (core/state_shape.py)
    check = CheckpointCheck.for_game(ruleset, game_metadata(context.record))
    for seq, event in zip(batch.seqs, batch.events, strict=True):
        if type(event) is StateCheckpoint:
            if not check.matches(state, event.state_hash):
                raise CheckpointMismatch(game_id, branch_id, seq, event.state_hash, check.actual)
            row = snapshot_row(context, seq, event.turn, event.state_hash, state)
            if row is not None:
                rows.append(row)
        else:
            state = evolve(state, event)
    return rows


def snapshot_table(rows: Sequence[SnapshotRow]) -> pa.Table:
    """Snapshot rows as an Arrow table with the snapshots table's columns (game and branch aside)."""
    seqs, turns, hashes, states = zip(*rows, strict=True)
    return pa.table({
        "seq": pa.array(seqs, pa.int64()),
        "turn": pa.array(turns, pa.int32()),
        "state_hash": pa.array(hashes, pa.string()),
        "state": pa.array(states, pa.binary()),
    })


def insert_snapshots(conn: duckdb.DuckDBPyConnection, game_id: str, branch_id: str,
                     rows: Sequence[SnapshotRow]) -> None:
    if not rows:
        return
    conn.from_arrow(with_keys(snapshot_table(rows), game_id, branch_id)).insert_into("snapshots")


def nearest_snapshot(conn: duckdb.DuckDBPyConnection, context: GameContext, game_id: str, seq: int,
                     segments: Sequence[Segment]) -> tuple[int, Any]:
    """(seq, state) of the latest snapshot at or before ``seq`` in a line of play; (0, initial) if none.
    In a game recorded with an older state shape, only a snapshot in the current shape (see above)."""
    condition, params = lineage_condition(segments)
    current_shape = recorded_in_current_shape(context)
    cursor = conn.execute(
        f"""SELECT seq, state FROM snapshots WHERE game = $game AND {condition} AND seq <= $seq
            ORDER BY seq DESC{' LIMIT 1' if current_shape else ''}""",
        {**params, "game": game_id, "seq": seq},
    )
    if current_shape:
        row = first_row(cursor.fetchall())
        if row is None:
            return 0, context.initial_state
        return int(row[0]), decode_state(context, bytes(row[1]))
    while (row := cursor.fetchone()) is not None:
        blob = bytes(row[1])
        try:
            state = decode_state(context, blob)
        except (msgspec.ValidationError, msgspec.DecodeError):
            continue
        if encode_state(state) == blob:
            return int(row[0]), state
    return 0, context.initial_state


def recorded_in_current_shape(context: GameContext) -> bool:
    """Whether the game was recorded with its ruleset's current state shape (so every snapshot is in it)."""
    return CheckpointCheck.for_game(context.ruleset, game_metadata(context.record)).of_current_shape


def fold_events(context: GameContext, state: Any, events: Sequence[Event]) -> Any:
    """Fold stored events (checkpoints change nothing and are skipped, as a replay does)."""
    return context.ruleset.fold(state, (event for event in events if type(event) is not StateCheckpoint))


#: Events decoded and folded at a time: big enough for one msgspec call to pay off, small enough
#: that the decoded events of one chunk are freed before the next is decoded.
FOLD_CHUNK = 4_096


def fold_range(conn: duckdb.DuckDBPyConnection, context: GameContext, game_id: str, branch_id: str, state: Any,
               start: int, stop: int, segments: Sequence[Segment] | None = None) -> Any:
    """Fold the events start..stop of the branch's line of play into ``state`` (checkpoints skipped)."""
    if segments is None:
        segments = lineage(conn, game_id, branch_id)
    sql, params = lineage_query("DISTINCT type, version", game_id, segments, start=start, stop=stop, order=False)
    classes = current_classes(conn.execute(sql, params).fetchall())
    if classes is not None:  # the common case: only the payloads need reading
        payloads = lineage_events(conn, game_id, branch_id, columns=("seq", "payload"), segments=segments,
                                  start=start, stop=stop).column("payload")
        fold = context.ruleset.fold if StateCheckpoint not in classes else partial(fold_events, context)
        folded = state
        try:
            with gc_paused():  # each chunk's events are freed before the next is decoded
                for offset in range(0, len(payloads), FOLD_CHUNK):
                    folded = fold(folded, decode_current(payloads.slice(offset, FOLD_CHUNK), classes))
            return folded
        except (msgspec.ValidationError, msgspec.DecodeError):
            pass  # start again on the row-by-row path below, which names the event at fault
    table = lineage_events(conn, game_id, branch_id, columns=("seq", "type", "version", "payload"),
                           segments=segments, start=start, stop=stop)
    where = f"game {game_id} branch {branch_id}"
    with gc_paused():
        for chunk in table.to_batches(max_chunksize=FOLD_CHUNK):
            state = fold_events(context, state, decode_table(chunk, where=where))
    return state


def state_at(conn: duckdb.DuckDBPyConnection, context: GameContext, game_id: str, branch_id: str,
             seq: int | None = None, *, use_snapshots: bool = True) -> Any:
    """The state after event ``seq`` (default: the head) of the branch (0: the initial state)."""
    segments = lineage(conn, game_id, branch_id)
    head = head_seq(conn, game_id, branch_id)
    seq = head if seq is None else seq
    if not 0 <= seq <= head:
        raise StoreError(f"game {game_id} branch {branch_id!r} has events 1..{head}; no state at {seq}")
    base_seq, state = (nearest_snapshot(conn, context, game_id, seq, segments) if use_snapshots
                       else (0, context.initial_state))
    if base_seq == seq:
        return state
    return fold_range(conn, context, game_id, branch_id, state, base_seq + 1, seq, segments)


def rebuild_snapshots(conn: duckdb.DuckDBPyConnection, context: GameContext, game_id: str) -> int:
    """Recompute every snapshot of a game from its events (after a migration or a repair).

    Checkpoints are checked on the way. Returns the number of snapshots written.
    """
    from .games import branch_infos

    conn.execute("DELETE FROM snapshots WHERE game = ?", [game_id])
    written = 0
    for info in branch_infos(conn, game_id).values():
        if info.own_events == 0:
            continue
        table = lineage_events(conn, game_id, info.id, columns=("seq", "type", "version", "payload"),
                               start=info.fork_seq + 1)
        events = decode_table(table, where=f"game {game_id} branch {info.id}")
        batch = EventBatch(seqs=table.column("seq").to_pylist(), turns=[], phases=[], actors=[],
                           types=table.column("type").to_pylist(), versions=[], payloads=[], events=events)
        start = state_at(conn, context, game_id, info.id, info.fork_seq)
        rows = checkpoint_snapshots(context, game_id, info.id, batch, lambda start=start: start)
        insert_snapshots(conn, game_id, info.id, rows)
        written += len(rows)
    return written
