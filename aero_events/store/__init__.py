"""The DuckDB event store: append, read, branch, verify, export.

One DuckDB file (``aero.duckdb`` by default) holds games, their branches and their
hash-chained events, plus per-turn state snapshots. Start with :class:`EventStore`::

    store = EventStore("aero.duckdb")
    store.save_session(session)                 # game, branches, new events, one transaction
    store.events(game_id, "main", turn=3)       # envelopes, ancestors' included for a fork
    store.state_at(game_id, "main", seq)        # from the nearest snapshot
    store.verify(game_id).ok                    # hash chains and a full replay

Modules: :mod:`.schema` (tables, migrations), :mod:`.database` (opening, locks,
transactions), :mod:`.chain` (the hash chain), :mod:`.codec` (columns in and out),
:mod:`.games` (game and branch rows, a game's ruleset), :mod:`.append` (the write
path), :mod:`.lineage` (a branch's line of play), :mod:`.snapshots`,
:mod:`.branches` (fork, compare), :mod:`.integrity` (verify), :mod:`.transfer`
(JSON Lines, Parquet), :mod:`.records` and :mod:`.errors` (what the store hands
back or raises), :mod:`.store` (the facade), :mod:`.options` (the option values the
command line needs before it opens a store: no DuckDB).

The names below are imported when first asked for (:func:`aero_events.lazy_exports`), so
that importing the package (``aero --help``) imports no DuckDB.
"""

from typing import TYPE_CHECKING

from aero_events import exports_of, lazy_exports

#: Each name this package re-exports, by its module: imported when first asked for (aero_events.lazy_exports).
_EXPORTS = exports_of({
    ".branches": ("Comparison",),
    ".chain": ("GENESIS", "event_hash"),
    ".errors": (
        "BranchExists", "CheckpointMismatch", "GameExists", "SchemaError", "StaleSequence", "StoreBusy",
        "StoreError", "UnknownBranch", "UnknownGame",
    ),
    ".integrity": ("Problem", "VerifyReport"),
    ".records": ("BranchInfo", "GameRecord", "GameSummary"),
    ".schema": ("MIGRATIONS", "SCHEMA_VERSION", "Migration", "migrate", "schema_version"),
    ".store": ("DEFAULT_PATH", "EventStore"),
    ".transfer": ("JSONL_FORMAT", "JSONL_FORMAT_VERSION"),
})
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:
    from .branches import Comparison
    from .chain import GENESIS, event_hash
    from .errors import (
        BranchExists,
        CheckpointMismatch,
        GameExists,
        SchemaError,
        StaleSequence,
        StoreBusy,
        StoreError,
        UnknownBranch,
        UnknownGame,
    )
    from .integrity import Problem, VerifyReport
    from .records import BranchInfo, GameRecord, GameSummary
    from .schema import MIGRATIONS, SCHEMA_VERSION, Migration, migrate, schema_version
    from .store import DEFAULT_PATH, EventStore
    from .transfer import JSONL_FORMAT, JSONL_FORMAT_VERSION

__all__ = [
    "DEFAULT_PATH", "GENESIS", "JSONL_FORMAT", "JSONL_FORMAT_VERSION", "MIGRATIONS", "SCHEMA_VERSION",
    "BranchExists", "BranchInfo", "CheckpointMismatch", "Comparison", "EventStore", "GameExists", "GameRecord",
    "GameSummary", "Migration", "Problem", "SchemaError", "StaleSequence", "StoreBusy", "StoreError",
    "UnknownBranch", "UnknownGame", "VerifyReport", "event_hash", "migrate", "schema_version",
]
