"""What the store hands back besides events: game rows, branch descriptions, summaries."""

from __future__ import annotations

import functools
import importlib.metadata
from datetime import UTC, datetime

import msgspec


class GameRecord(msgspec.Struct, frozen=True, kw_only=True):
    """A stored game's row: who made it with what, and when (``created`` is UTC)."""

    id: str
    ruleset: str
    data_version: str
    engine_version: str
    created: datetime
    players: list[str]
    setup: str
    metadata: str


class BranchInfo(msgspec.Struct, frozen=True, kw_only=True):
    """One stored branch: its parent and fork point, its own events, its children."""

    id: str
    parent: str | None
    fork_seq: int
    label: str
    created: datetime
    head_seq: int
    own_events: int
    children: tuple[str, ...] = ()
    depth: int = 0
    #: Where the last write left the branch, as its row records it (schema 3, :mod:`.heads`); ``verify``
    #: compares it with ``head_seq`` and the stored hash there to see a cut-off tail.
    sealed_seq: int | None = None
    sealed_hash: bytes | None = None


class GameSummary(msgspec.Struct, frozen=True, kw_only=True):
    """A line of ``EventStore.games()``: ``events`` and ``last_turn`` are the main line's (the game that was
    played), ``all_events`` every branch's own events together."""

    id: str
    ruleset: str
    created: datetime
    players: list[str]
    events: int
    branches: int
    last_turn: int | None
    main_line: str = "main"
    all_events: int = 0


@functools.cache
def engine_version() -> str:
    """The installed aero_events version (recorded with each game; read from the package metadata once a
    process, which costs milliseconds)."""
    try:
        return importlib.metadata.version("aero_events")
    except importlib.metadata.PackageNotFoundError:
        import aero_events

        return getattr(aero_events, "__version__", "unknown")


def utc_naive(moment: datetime | None) -> datetime:
    """``moment`` (default: now) as a naive UTC datetime, the form the TIMESTAMP columns hold.

    A naive ``moment`` is taken to be UTC already.
    """
    if moment is None:
        return datetime.now(UTC).replace(tzinfo=None)
    if moment.tzinfo is not None:
        return moment.astimezone(UTC).replace(tzinfo=None)
    return moment


def utc_aware(moment: datetime) -> datetime:
    """A stored naive UTC timestamp as an aware datetime (for export)."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment
