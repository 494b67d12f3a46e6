"""Saving a game the store has never seen: every row computed in Python, one statement per table.

``EventStore.save_session`` of a game already stored reads its branches and checks each stored line
of play against the session's (:mod:`.prefix`) before appending. A game the store does not have
needs none of that: nothing is stored to compare with or to chain from. Its game row, its branch
rows (sealed at their heads), its events (chain hashes from genesis, each fork chaining from its
parent's hash at the fork point), its snapshots and its outcomes are all known from the session, so
they go in with one INSERT per table (DuckDB pays about a millisecond for any statement, whatever
its size) inside the caller's transaction, without a read first: a game the store has already makes an
insert fail on its key, the caller rolls back and takes the checked path. The rows are exactly those the
checked path writes (``tests/store/test_store_speed.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import duckdb
import pyarrow as pa

from aero_events.core.session import Branch, GameSession

from .append import batch_table
from .chain import GENESIS, chain_hashes, previous_hashes
from .codec import batch_from_envelopes, gc_paused, with_keys
from .errors import StoreError
from .games import GameContext, game_record_for
from .heads import branches_digest
from .records import utc_naive
from .snapshots import checkpoint_snapshots, snapshot_table
from .views import record_outcomes

_GAME_INSERT = ("INSERT INTO games (id, ruleset, data_version, engine_version, created, players, setup, metadata, "
                "branches_digest) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
_BRANCH_COLUMNS = "(game, id, parent, fork_seq, label, created, head_seq, head_hash)"


class _Chains:
    """Each written branch's fork point and own hashes, to find the hash a child forks from."""

    def __init__(self) -> None:
        self._branches: dict[str, tuple[str | None, int, list[bytes]]] = {}

    def add(self, branch_id: str, parent: str | None, fork_seq: int, hashes: list[bytes]) -> None:
        self._branches[branch_id] = (parent, fork_seq, hashes)

    def hash_at(self, branch_id: str | None, seq: int) -> bytes | None:
        """The hash of event ``seq`` in the branch's line of play (GENESIS at 0); None if it has no such event."""
        while branch_id is not None and seq > 0:
            parent, fork_seq, hashes = self._branches[branch_id]
            if seq > fork_seq:
                return hashes[seq - fork_seq - 1] if seq - fork_seq <= len(hashes) else None
            branch_id = parent
        return GENESIS if seq == 0 else None


def write_new_game(conn: duckdb.DuckDBPyConnection, session: GameSession, branches: Sequence[Branch],
                   created: datetime | None = None) -> dict[str, int]:
    """Write ``session.game`` with its ``branches`` (parents first) inside the caller's transaction; returns
    the events written per branch. A game (or a branch, event, snapshot or outcome row of it) the store has
    already makes an insert fail with DuckDB's ConstraintException, and the caller rolls back."""
    game = session.game
    record = game_record_for(game, created)
    context = GameContext(record, session.ruleset, game.setup, game.initial_state)
    branch_created = utc_naive(None)
    chains = _Chains()
    branch_rows: list[tuple] = []
    event_tables: list[pa.Table] = []
    snapshot_tables: list[pa.Table] = []
    appended: dict[str, int] = {}
    for branch in branches:
        parent = branch.parent.id if branch.parent is not None else None
        fork_hash = chains.hash_at(parent, branch.fork_seq)
        batch = batch_from_envelopes(branch.own, game.id, branch.id, branch.fork_seq + 1)
        hashes: list[bytes] = []
        if len(batch):
            if fork_hash is None:  # what the stored path says when a fork's parent lacks the fork point
                raise StoreError(f"game {game.id} branch {branch.id!r} has no event {branch.fork_seq}")
            with gc_paused():
                hashes = chain_hashes(fork_hash, batch.seqs, batch.turns, batch.phases, batch.actors, batch.types,
                                      batch.versions, batch.payloads)
                table = batch_table(batch, previous_hashes(fork_hash, hashes), hashes)
            event_tables.append(with_keys(table, game.id, branch.id))
            rows = checkpoint_snapshots(context, game.id, branch.id, batch,
                                        lambda branch=branch: branch.state_at(branch.fork_seq), branch.state_at)
            if rows:
                snapshot_tables.append(with_keys(snapshot_table(rows), game.id, branch.id))
        chains.add(branch.id, parent, branch.fork_seq, hashes)
        head_seq = batch.seqs[-1] if hashes else branch.fork_seq
        branch_rows.append((branch.id, parent, branch.fork_seq, branch.label, head_seq,
                            hashes[-1] if hashes else fork_hash))
        appended[branch.id] = len(batch)
    digest = branches_digest([(bid, parent, fork_seq, head, head_hash)
                              for bid, parent, fork_seq, _label, head, head_hash in branch_rows])
    conn.execute(_GAME_INSERT, [record.id, record.ruleset, record.data_version, record.engine_version,
                                record.created, record.players, record.setup, record.metadata, digest])
    conn.execute(f"INSERT INTO branches {_BRANCH_COLUMNS} VALUES "
                 + ", ".join(["(?, ?, ?, ?, ?, ?, ?, ?)"] * len(branch_rows)),
                 [value for bid, parent, fork_seq, label, head, head_hash in branch_rows
                  for value in (game.id, bid, parent, fork_seq, label, branch_created, head, head_hash)])
    if event_tables:  # (the tables' columns in the tables' order: an insert by position)
        conn.from_arrow(pa.concat_tables(event_tables)).insert_into("events")
    if snapshot_tables:
        conn.from_arrow(pa.concat_tables(snapshot_tables)).insert_into("snapshots")
    record_outcomes(conn, game.id, session.ruleset, [(branch.id, branch.head_seq, branch.state_at(branch.head_seq))
                                                     for branch in branches if appended[branch.id]],
                    replace=False)  # a row of the game there already fails the insert: see above
    return appended

