"""The errors of game records: where a record is wrong, by line and column."""

from __future__ import annotations

from aero_events.core.errors import AeroError, DataError


class RecordError(DataError):
    """A malformed or illegal game record, refused at ``line`` and ``column`` (both from 1).

    A :class:`~aero_events.core.errors.DataError` (``source`` the file, ``location`` the line, ``field``
    "column N"), whose message reads ``FILE, line L, column C: what is wrong``. Nothing of a refused
    record is stored.
    """

    def __init__(self, message: str, *, source: str, line: int, column: int):
        super().__init__(message, source=source, location=line, field=f"column {column}")
        self.line = line
        self.column = column
        self.args = (f"{source}, line {line}, column {column}: {message}",)


class RecordWriteError(AeroError):
    """A stored game the record format cannot write faithfully (e.g. a branch forked inside a command)."""
