"""Opening the DuckDB file (waiting out another process's lock) and transactions.

DuckDB lets one process at a time open a file for writing; a second process gets
"Could not set lock on file". The store opens the file for each operation and
closes it after, so processes take turns: :func:`open_database` retries with a
growing, jittered pause until ``lock_timeout`` seconds have passed, then raises
:class:`StoreBusy`, whose message says how long it waited and how to wait longer.
A writer that had to wait then performs its stale-sequence check against what the
other process wrote.

Reads open the file read-only (``read_only=True``), so readers in several processes
share it; a file that needs a migration (or its SQL views brought up to date) is
opened for writing once first.

Only a DuckDB database file, or a path where none exists yet, is opened: DuckDB would
otherwise open a ``.jsonl`` or ``.csv`` file as a read-only view, and a command would
"succeed" storing nothing (:func:`check_database_path`).
"""

from __future__ import annotations

import os
import random
import shlex
import time
from collections.abc import Iterator
from contextlib import contextmanager

import duckdb

from .errors import StoreBusy, StoreError
from .options import DEFAULT_LOCK_TIMEOUT, DUCKDB_MAGIC, DUCKDB_MAGIC_OFFSET
from .schema import MIGRATIONS, Migration, migrate, schema_version
from .views import install_views


def _is_lock_conflict(err: duckdb.Error) -> bool:
    text = str(err)
    return "Could not set lock" in text or "Conflicting lock" in text


#: New paths with these suffixes are data files a user meant to import or export, never a store.
DATA_FILE_SUFFIXES = frozenset({".jsonl", ".json", ".csv", ".tsv", ".parquet", ".aero", ".txt", ".html", ".md",
                                ".sig", ".pem", ".key"})


def aero_hint(arguments: str, db: str | None = None) -> str:
    """An ``aero`` command for a message to tell the user, runnable as printed: ``aero`` as it can be typed
    here (``.venv/bin/aero`` or ``python -m aero_events.cli`` when ``aero`` is not on the PATH) and, when
    ``db`` is not the default store, ``--db`` with its path."""
    from aero_events.cli.common import aero_command  # the cli imports the store: read when a hint is made

    where = "" if db is None or db in ("aero.duckdb", ":memory:") else f" --db {shlex.quote(db)}"
    return f"{aero_command()} {arguments}{where}"


def connection_path(conn: duckdb.DuckDBPyConnection) -> str | None:
    """The file a connection has open (None in memory)."""
    rows = conn.execute("SELECT path FROM duckdb_databases() WHERE database_name = current_database()").fetchall()
    return rows[0][0] if rows and rows[0][0] else None


def check_database_path(path: str) -> None:
    """Refuse a ``path`` that is neither a DuckDB database file nor a new path (:class:`StoreError`)."""
    if path == ":memory:":
        return
    if os.path.isdir(path):
        raise StoreError(f"the store {path} is a directory, not a DuckDB database file")
    if not os.path.exists(path):
        folder = os.path.dirname(path)
        if folder and not os.path.isdir(folder):
            raise StoreError(f"the store {path} cannot be made: the folder {folder} does not exist (create it first, "
                             "or give another --db)")
        suffix = os.path.splitext(path)[1].lower()
        if suffix in DATA_FILE_SUFFIXES:
            raise StoreError(f"the store {path} would be a new DuckDB file named like a {suffix} data file; "
                             f"give the store a .duckdb path (import data files with `{aero_hint('import FILE')}`)")
        return
    try:
        with open(path, "rb") as file:
            head = file.read(DUCKDB_MAGIC_OFFSET + len(DUCKDB_MAGIC))
    except OSError as err:
        raise StoreError(f"cannot open the store {path}: {err.strerror or err}") from None
    if head[DUCKDB_MAGIC_OFFSET:] != DUCKDB_MAGIC:
        what = "an empty file" if not head else "not a DuckDB database file (its header is not DuckDB's)"
        raise StoreError(f"the store {path} is {what}; refusing to use it as the store: give a .duckdb file "
                         "made by aero, or a new path")


def connect(path: str, *, lock_timeout: float = DEFAULT_LOCK_TIMEOUT,
            read_only: bool = False) -> duckdb.DuckDBPyConnection:
    """A connection to ``path`` (read-write unless ``read_only``), retrying while another process holds the file."""
    check_database_path(path)
    deadline = time.monotonic() + lock_timeout
    pause = 0.005
    while True:
        try:
            return duckdb.connect(path, read_only=read_only)
        except duckdb.IOException as err:
            if not _is_lock_conflict(err):
                raise StoreError(f"cannot open the store {path}: {err}") from err
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise StoreBusy(
                    f"the store {path} stayed locked by another process (an `aero` command or a program using "
                    f"the file) for {lock_timeout:g} s; nothing was done. Try again when it has finished, or "
                    f"wait longer with --wait SECONDS"
                ) from err
            time.sleep(min(remaining, pause * (0.5 + random.random())))
            pause = min(pause * 2, 0.2)


def open_database(
    path: str,
    *,
    lock_timeout: float = DEFAULT_LOCK_TIMEOUT,
    migrations: tuple[Migration, ...] = MIGRATIONS,
    read_only: bool = False,
) -> duckdb.DuckDBPyConnection:
    """Connect (see :func:`connect`) and bring the schema up to date.

    ``read_only`` opens an existing file read-only (a file that does not exist yet, or needs a migration
    or new views, is first opened for writing once); within a process that already has the file open
    for writing, the connection is read-write (DuckDB allows one configuration per file and process).
    """
    if read_only and path != ":memory:" and os.path.exists(path):
        conn = _open_read_only(path, lock_timeout, migrations)
        if conn is not None:
            return conn
    conn = connect(path, lock_timeout=lock_timeout)
    try:
        migrate(conn, migrations)
        install_views(conn)  # the SQL views every SQL client sees (store/views.py)
    except BaseException:
        conn.close()
        raise
    return conn


def _open_read_only(path: str, lock_timeout: float,
                    migrations: tuple[Migration, ...]) -> duckdb.DuckDBPyConnection | None:
    """A read-only connection with an up-to-date schema and views, or None to open read-write instead.

    A file this process may not write (read-only, or in a read-only folder) whose schema is current but whose
    SQL views an earlier version made is still read, its views left as they are: they serve SQL clients, and
    the store's own reads use its tables."""
    for _attempt in range(2):
        try:
            conn = connect(path, lock_timeout=lock_timeout, read_only=True)
        except duckdb.ConnectionException:
            return None  # this process has the file open read-write: share that configuration
        views_only = False
        try:
            latest = migrations[-1].version if migrations else 0
            if schema_version(conn) >= latest:
                migrate(conn, migrations)  # nothing to apply: refuses a file newer than this package
                try:
                    install_views(conn)
                    return conn
                except duckdb.InvalidInputException:
                    views_only = True  # the views need creating: once read-write, below
        except BaseException:
            conn.close()
            raise
        conn.close()
        try:
            open_database(path, lock_timeout=lock_timeout, migrations=migrations).close()
        except StoreBusy:
            raise
        except StoreError:
            if not views_only:
                raise  # its schema needs upgrading, which needs writing
            return connect(path, lock_timeout=lock_timeout, read_only=True)
    return None


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
