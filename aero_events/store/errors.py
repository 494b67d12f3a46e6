"""Errors the event store raises on purpose (all :class:`~aero_events.core.errors.AeroError`).

The ones a caller acts on: :class:`StaleSequence` (someone else wrote first: reload
and decide again), :class:`StoreBusy` (another process kept the file too long),
:class:`UnknownGame` / :class:`UnknownBranch` (a name that is not in the store).
"""

from __future__ import annotations

from aero_events.core.errors import AeroError
from aero_events.core.session import ReplayMismatch


class StoreError(AeroError):
    """Base of the store's own errors."""


class StaleSequence(StoreError):
    """A write based on an out-of-date view of a branch: its head is not where the writer believed.

    Nothing was written. ``expected`` is the head the writer gave, ``actual`` the stored head.
    """

    def __init__(self, game_id: str, branch_id: str, expected: int, actual: int, detail: str = ""):
        self.game_id = game_id
        self.branch_id = branch_id
        self.expected = expected
        self.actual = actual
        why = f" ({detail})" if detail else ""
        super().__init__(
            f"stale write to game {game_id} branch {branch_id!r}: expected its last event to be {expected}, "
            f"the store has {actual}{why}; nothing was written"
        )


class StoreBusy(StoreError):
    """The database file stayed locked by another process for longer than the store waits."""


class SchemaError(StoreError):
    """The database file's schema cannot be used by this version of the package."""


class UnknownGame(StoreError):
    """No game with that id (or id prefix) is in the store."""


class UnknownBranch(StoreError):
    """The game has no branch with that id."""


class GameExists(StoreError):
    """A game with that id is already stored (import with ``replace=True`` to overwrite it)."""


class BranchExists(StoreError):
    """The game already has a branch with that id."""


class CheckpointMismatch(ReplayMismatch):
    """A recorded :class:`~aero_events.core.session.StateCheckpoint` disagrees with the folded state.

    Carries where it happened, so that an import can name the line.
    """

    def __init__(self, game_id: str, branch_id: str, seq: int, recorded: str, actual: str):
        self.game_id = game_id
        self.branch_id = branch_id
        self.seq = seq
        self.recorded = recorded
        self.actual = actual
        super().__init__(
            f"game {game_id} branch {branch_id!r} event {seq}: the checkpoint records state hash "
            f"{recorded[:12]}, folding the events gives {actual[:12]}"
        )
