"""The values of the store's options that the command line needs before it opens a store (``--db``'s and
``--wait``'s defaults, ``--snap``'s choices): here, without DuckDB, so that building the ``aero`` command's
parser imports none of the store. :mod:`.store`, :mod:`.database` and :mod:`.branches` export them as before."""

#: The store a command opens when ``--db`` is not given: this file in the working directory.
DEFAULT_PATH = "aero.duckdb"

#: How long (seconds) a command waits for another process to release the store (``--wait``).
DEFAULT_LOCK_TIMEOUT = 5.0

#: ``--snap`` choices: back to the boundary before the command that holds the seq, or on to its end.
SNAP_BEFORE = "before"
SNAP_AFTER = "after"
SNAP_CHOICES = (SNAP_BEFORE, SNAP_AFTER)
