"""What several commands share: the ``--db`` option, opening the store, the console."""

from __future__ import annotations

import argparse
import sys

from rich.console import Console

from aero_events.store import DEFAULT_PATH, EventStore


def db_option() -> argparse.ArgumentParser:
    """A parent parser adding ``--db PATH`` (default ``aero.duckdb`` in the working directory)."""
    parent = argparse.ArgumentParser(add_help=False)
    parent.add_argument("--db", default=DEFAULT_PATH, metavar="PATH",
                        help=f"the DuckDB store (default: {DEFAULT_PATH} here)")
    return parent


def open_store(args: argparse.Namespace) -> EventStore:
    return EventStore(args.db)


def console() -> Console:
    """A rich console on stdout; wide when stdout is not a terminal, so piped lines are not wrapped."""
    return Console(file=sys.stdout, width=None if sys.stdout.isatty() else 160, highlight=False)
