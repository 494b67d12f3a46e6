"""The values of the store's options that the command line needs before it opens a store (``--db``'s and
``--wait``'s defaults, ``--snap``'s choices): here, without DuckDB, so that building the ``aero`` command's
parser imports none of the store. :mod:`.store`, :mod:`.database` and :mod:`.branches` export them as before."""

import os

#: The store a command opens when ``--db`` is not given: this file in the working directory.
DEFAULT_PATH = "aero.duckdb"

#: How long (seconds) a command waits for another process to release the store (``--wait``).
DEFAULT_LOCK_TIMEOUT = 5.0

#: ``--snap`` choices: back to the boundary before the command that holds the seq, or on to its end.
SNAP_BEFORE = "before"
SNAP_AFTER = "after"
SNAP_CHOICES = (SNAP_BEFORE, SNAP_AFTER)

#: Every DuckDB database file has these bytes at offset 8 (after the header block's checksum).
DUCKDB_MAGIC = b"DUCK"
DUCKDB_MAGIC_OFFSET = 8


def holds_duckdb_database(path: str | os.PathLike) -> bool:
    """Whether ``path`` is a file whose header is a DuckDB database's (False for a missing or unreadable path,
    a folder, or any other file). Read here, without DuckDB, so that a command writing a file (an export, a
    page, a key) can refuse to overwrite a store without importing the database."""
    try:
        with open(path, "rb") as file:
            return file.read(DUCKDB_MAGIC_OFFSET + len(DUCKDB_MAGIC))[DUCKDB_MAGIC_OFFSET:] == DUCKDB_MAGIC
    except OSError:
        return False
