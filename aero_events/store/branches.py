"""Branch operations on stored games: forking, and comparing two lines of play.

Comparing uses the hash chain: each hash covers every event before it, so two
branches agree up to a seq exactly when their hashes there are equal, and the
first seq where the hashes differ (or one line ends) is where they part.
"""

from __future__ import annotations

from datetime import datetime

import duckdb
import msgspec

from aero_events.core.events import Envelope
from aero_events.core.ids import check_id, check_label

from .errors import StoreError
from .games import branch_infos, insert_branch
from .lineage import head_seq, lineage_events
from .records import BranchInfo, utc_naive


class Comparison(msgspec.Struct, frozen=True, kw_only=True):
    """Where two branches of a game part, and the hashes of the states they end in.

    ``first_difference`` is None when the two lines hold the same events. Otherwise
    ``event_a`` / ``event_b`` are the two events at that seq (None where a line has
    already ended).
    """

    game_id: str
    branch_a: str
    branch_b: str
    first_difference: int | None
    event_a: Envelope | None
    event_b: Envelope | None
    head_a: int
    head_b: int
    state_hash_a: str
    state_hash_b: str

    @property
    def identical(self) -> bool:
        return self.first_difference is None


def fork_branch(conn: duckdb.DuckDBPyConnection, game_id: str, from_branch: str, at_seq: int, name: str,
                *, label: str | None = None, created: datetime | None = None) -> BranchInfo:
    """Add branch ``name`` sharing ``from_branch``'s events 1..``at_seq`` (inside the caller's transaction)."""
    check_id(name, "branch name")
    if label is not None:
        check_label(label, "branch label")
    head = head_seq(conn, game_id, from_branch)
    if not isinstance(at_seq, int) or not 0 <= at_seq <= head:
        raise StoreError(f"branch {from_branch!r} of game {game_id} has events 1..{head}; cannot fork at {at_seq}")
    insert_branch(conn, game_id, name, from_branch, at_seq, label or name, utc_naive(created))
    return branch_infos(conn, game_id)[name]


def first_difference(conn: duckdb.DuckDBPyConnection, game_id: str, branch_a: str, branch_b: str) -> int | None:
    """The first seq at which the two branches' lines differ, or None if they are the same."""
    hashes = []
    for branch in (branch_a, branch_b):
        table = lineage_events(conn, game_id, branch, columns=("hash",))
        hashes.append(table.column("hash").to_pylist())
    a, b = hashes
    shorter = min(len(a), len(b))
    if a[:shorter] == b[:shorter]:
        return None if len(a) == len(b) else shorter + 1
    low, high = 0, shorter - 1  # the chain makes "equal up to i" monotone: bisect for the first difference
    while low < high:
        middle = (low + high) // 2
        if a[middle] == b[middle]:
            low = middle + 1
        else:
            high = middle
    return low + 1
