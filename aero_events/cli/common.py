"""What several commands share: the ``--db`` option, opening the store, the console."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rich.console import Console

from aero_events.store import DEFAULT_PATH, EventStore, StoreError


def db_option() -> argparse.ArgumentParser:
    """A parent parser adding ``--db PATH`` (default ``aero.duckdb`` in the working directory)."""
    parent = argparse.ArgumentParser(add_help=False)
    parent.add_argument("--db", default=DEFAULT_PATH, metavar="PATH",
                        help=f"the DuckDB store (default: {DEFAULT_PATH} here)")
    return parent


def open_store(args: argparse.Namespace, *, must_exist: bool = False) -> EventStore:
    """The store named by ``--db``. With ``must_exist``, a missing file is an error rather than a new store
    (a command that only reads should not leave an empty database behind)."""
    if must_exist and args.db != ":memory:" and not Path(args.db).exists():
        raise StoreError(f"no store at {args.db} (use --db to name another)")
    return EventStore(args.db)


def console() -> Console:
    """A rich console on stdout; wide when stdout is not a terminal, so piped lines are not wrapped."""
    return Console(file=sys.stdout, width=None if sys.stdout.isatty() else 160, highlight=False)
