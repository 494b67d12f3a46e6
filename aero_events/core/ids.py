"""Ids and names: what may be stored, and how to show any text safely.

Every way in (the store's writes, imports, the record format, the command line) checks the ids and
names it is given with :func:`check_id` or :func:`check_label`; every way out that prints stored text
to a terminal or through rich passes it through :func:`for_terminal` (or :func:`for_rich`), so a name
made before these checks, or read from a file written elsewhere, still cannot reach the terminal as
an escape sequence or as rich markup.

What an id is (game ids, branch ids, player names): 1 to :data:`MAX_NAME_LENGTH` printable
characters, no white space at either end, no ``[`` or ``]`` (rich reads ``[/]``, ``[link=...]`` as
markup), no control or format characters (newlines, NUL, ESC, bidirectional overrides). A label (a
branch's free-text label) is the same without the bracket rule, and may be empty.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from .errors import DataError

#: The longest id or label accepted, in characters.
MAX_NAME_LENGTH = 200

_FORBIDDEN_IN_IDS = frozenset("[]")


def _unprintable(text: str) -> str | None:
    """The first character of ``text`` that must never reach a terminal, described; None if there is none."""
    for index, char in enumerate(text):
        if not char.isprintable() or unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Zl", "Zp"):
            return f"the character U+{ord(char):04X} at position {index + 1} (control or format characters " \
                   "such as newlines, NUL or escape sequences are not allowed)"
    return None


def name_problem(value: Any, *, label: bool = False) -> str | None:
    """Why ``value`` is not an acceptable id (or, with ``label``, label); None when it is."""
    if not isinstance(value, str):
        return f"expected text, got {type(value).__name__}"
    if not value:
        return None if label else "it is empty"
    if len(value) > MAX_NAME_LENGTH:
        return f"it is {len(value)} characters long; at most {MAX_NAME_LENGTH} are allowed"
    bad = _unprintable(value)
    if bad is not None:
        return f"it holds {bad}"
    if value != value.strip():
        return "it starts or ends with white space"
    if not label:
        bracket = next((char for char in value if char in _FORBIDDEN_IN_IDS), None)
        if bracket is not None:
            return f"it holds {bracket!r} (square brackets are markup on a terminal)"
    return None


def check_id(value: Any, what: str, *, source: str | None = None, location: str | int | None = None,
             field: str | None = None) -> str:
    """``value`` if it is an acceptable id, else a :class:`DataError` saying what is wrong with it.

    ``what`` names the id for the message ("game id", "branch name"); ``source``, ``location`` and
    ``field`` place it (a file and line) when it was read from one.
    """
    problem = name_problem(value)
    if problem is not None:
        raise DataError(f"invalid {what} {_shown(value)}: {problem}", source=source or what, location=location,
                        field=field)
    return value


def check_label(value: Any, what: str = "label", *, source: str | None = None, location: str | int | None = None,
                field: str | None = None) -> str:
    """``value`` if it is an acceptable label (free text, may be empty), else a :class:`DataError`."""
    problem = name_problem(value, label=True)
    if problem is not None:
        raise DataError(f"invalid {what} {_shown(value)}: {problem}", source=source or what, location=location,
                        field=field)
    return value


def _shown(value: Any) -> str:
    """A value for an error message: escaped, and cut short when long."""
    text = repr(value) if not isinstance(value, str) else for_terminal(value)
    return repr(text[:60] + "...") if len(text) > 60 else repr(text)


def for_terminal(text: Any) -> str:
    """``text`` safe to print on a terminal: each control or format character written as ``\\xNN`` /
    ``\\uNNNN`` (so an escape sequence stored in a name is shown, not obeyed)."""
    text = str(text)
    if _unprintable(text) is None:
        return text
    out = []
    for char in text:
        if char.isprintable() and unicodedata.category(char) not in ("Cc", "Cf", "Cs", "Co", "Zl", "Zp"):
            out.append(char)
        else:
            code = ord(char)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
    return "".join(out)


def for_rich(text: Any) -> str:
    """``text`` safe to hand to rich as markup: :func:`for_terminal`, then its square brackets escaped."""
    from rich.markup import escape

    return escape(for_terminal(text))
