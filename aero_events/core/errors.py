"""Typed errors shared by every part of the engine.

Two families matter to users:

* :class:`RuleError`: a command breaks a rule. Its message names the rule and
  the rulebook page, so a player understands why; nothing is appended.
* :class:`DataError`: a data file or record is malformed. Its message names the
  file (or source), the line or entry, and the field at fault; nothing partial
  is kept.
"""

from __future__ import annotations

import os
from pathlib import Path


class AeroError(Exception):
    """Base of every error the engine raises on purpose."""


class RuleError(AeroError):
    """A command that the rules forbid.

    ``rule`` is the rule's name as a player knows it ("Throttle", "Stall"),
    ``page`` the rulebook page (an int, a string like "16-17", or None for
    engine-level rules such as "not your turn").
    """

    def __init__(self, message: str, *, rule: str, page: int | str | None = None):
        self.rule = rule
        self.page = page
        self.detail = message
        where = f" (p.{page})" if page is not None else ""
        super().__init__(f"{rule}{where}: {message}")


class DataError(AeroError):
    """A malformed data file or record.

    ``source`` is the file path (or a description such as "<string>"),
    ``location`` the line number or entry name, ``field`` the field at fault.
    """

    def __init__(
        self,
        message: str,
        *,
        source: str,
        location: str | int | None = None,
        field: str | None = None,
    ):
        self.source = source
        self.location = location
        self.field = field
        self.detail = message
        parts = [str(source)]
        if location is not None:
            parts.append(f"line {location}" if isinstance(location, int) else f"entry {location!r}")
        if field is not None:
            parts.append(f"field {field!r}")
        super().__init__(f"{', '.join(parts)}: {message}")


def read_data_file(path: str | os.PathLike) -> bytes:
    """The bytes of a data file; a missing or unreadable one is a :class:`DataError` naming it."""
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise DataError(f"cannot read file: {exc.strerror or exc}", source=os.fspath(path)) from None


class DiceError(AeroError):
    """Dice that cannot be used: a manual entry out of range, a tape run out."""


class TapeExhausted(DiceError):
    """A tape of recorded dice has no results left for the roll asked of it."""


class SecretMismatch(AeroError):
    """A revealed choice does not match the commitment made when it was chosen."""
