"""Opening the DuckDB file (waiting out another process's lock) and transactions.

DuckDB lets one process at a time open a file for writing; a second process gets
"Could not set lock on file". The store opens the file for each operation and
closes it after, so processes take turns: :func:`open_database` retries with a
growing, jittered pause until ``lock_timeout`` seconds have passed, then raises
:class:`StoreBusy`. A writer that had to wait then performs its stale-sequence
check against what the other process wrote.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from contextlib import contextmanager

import duckdb

from .errors import StoreBusy, StoreError
from .schema import MIGRATIONS, Migration, migrate

DEFAULT_LOCK_TIMEOUT = 5.0


def _is_lock_conflict(err: duckdb.Error) -> bool:
    text = str(err)
    return "Could not set lock" in text or "Conflicting lock" in text


def connect(path: str, *, lock_timeout: float = DEFAULT_LOCK_TIMEOUT) -> duckdb.DuckDBPyConnection:
    """A read-write connection to ``path``, retrying while another process holds the file."""
    deadline = time.monotonic() + lock_timeout
    pause = 0.005
    while True:
        try:
            return duckdb.connect(path)
        except duckdb.IOException as err:
            if not _is_lock_conflict(err):
                raise StoreError(f"cannot open the store {path}: {err}") from err
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise StoreBusy(
                    f"the store {path} stayed locked by another process for {lock_timeout:g} s: {err}"
                ) from err
            time.sleep(min(remaining, pause * (0.5 + random.random())))
            pause = min(pause * 2, 0.2)


def open_database(
    path: str,
    *,
    lock_timeout: float = DEFAULT_LOCK_TIMEOUT,
    migrations: tuple[Migration, ...] = MIGRATIONS,
) -> duckdb.DuckDBPyConnection:
    """Connect (see :func:`connect`) and bring the schema up to date."""
    conn = connect(path, lock_timeout=lock_timeout)
    try:
        migrate(conn, migrations)
    except BaseException:
        conn.close()
        raise
    return conn


@contextmanager
def transaction(conn: duckdb.DuckDBPyConnection) -> Iterator[duckdb.DuckDBPyConnection]:
    """BEGIN ... COMMIT, or ROLLBACK if the block raises (or the commit fails)."""
    conn.execute("BEGIN TRANSACTION")
    try:
        yield conn
    except BaseException:
        _rollback(conn)
        raise
    try:
        conn.execute("COMMIT")
    except BaseException:
        _rollback(conn)
        raise


@contextmanager
def registered(conn: duckdb.DuckDBPyConnection, name: str, table: object) -> Iterator[None]:
    """``table`` (Arrow) visible to SQL as ``name`` for the block. If the block fails, its error is the one
    raised (unregistering in an aborted transaction fails too, and would hide it)."""
    conn.register(name, table)
    try:
        yield
    except BaseException:
        try:
            conn.unregister(name)
        except duckdb.Error:
            pass
        raise
    conn.unregister(name)


def first_row(rows: list[tuple]) -> tuple | None:
    """The first of fetched rows, or None. (Fetch with ``fetchall``: DuckDB refuses some calls while a
    result is only partly fetched, which ``fetchone`` leaves behind.)"""
    return rows[0] if rows else None


def _rollback(conn: duckdb.DuckDBPyConnection) -> None:
    try:
        conn.execute("ROLLBACK")
    except duckdb.Error:
        pass  # a failed COMMIT has already ended the transaction
