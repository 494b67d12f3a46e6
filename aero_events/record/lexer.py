"""Cutting the text of a game record (or one typed answer) into tokens that know their line and column.

The record format (see :mod:`.record_format`) borrows PGN's punctuation:

* ``{ ... }`` a comment; inside it, ``[%name text]`` is an annotation command (PGN's ``[%clk ...]``).
  A ``}`` or ``\\`` inside a comment is written ``\\}`` or ``\\\\``.
* ``(`` and ``)`` open and close a variation (a branch of the game).
* ``[ ... ]`` outside a comment is a dice group (``[hit 5,2,6]``) or an annotation (``[%note ...]``).
* anything else is a *word*, ended by white space or one of ``{}()[]``; a word may hold ``"quoted"``
  parts (``"Red One"``, ``fire lascannon>"Red One"``), in which white space and punctuation are kept
  and ``\\"`` and ``\\\\`` are escapes.

Every token keeps the line and column (both from 1) where it starts, so an error can point at it.
"""

from __future__ import annotations

from dataclasses import dataclass

WORD = "word"
COMMENT = "comment"
BRACKET = "bracket"
OPEN = "open"
CLOSE = "close"

_PUNCTUATION = "{}()[]"


class LexError(ValueError):
    """Text that cannot be cut into tokens: an unclosed comment, bracket or quote."""

    def __init__(self, message: str, line: int, column: int):
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column


@dataclass(frozen=True)
class Token:
    """One token: its ``kind``, its ``value`` (quotes and escapes resolved; a comment's or bracket's
    inner text), the ``raw`` text as written, where it starts, and whether any part was quoted."""

    kind: str
    value: str
    raw: str
    line: int
    column: int
    quoted: bool = False

    def at(self, offset: int) -> tuple[int, int]:
        """The line and column of the character ``offset`` characters into the token's raw text."""
        line, column = self.line, self.column
        for char in self.raw[:offset]:
            if char == "\n":
                line, column = line + 1, 1
            else:
                column += 1
        return line, column


class _Cursor:
    def __init__(self, text: str, line: int, column: int):
        self.text = text
        self.pos = 0
        self.line = line
        self.column = column

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def take(self) -> str:
        char = self.text[self.pos]
        self.pos += 1
        if char == "\n":
            self.line += 1
            self.column = 1
        else:
            self.column += 1
        return char

    def done(self) -> bool:
        return self.pos >= len(self.text)


def tokenize(text: str, first_line: int = 1, first_column: int = 1) -> list[Token]:
    """The tokens of ``text``, which starts at ``first_line``, ``first_column`` of its source."""
    cursor = _Cursor(text, first_line, first_column)
    tokens: list[Token] = []
    while not cursor.done():
        char = cursor.peek()
        if char.isspace():
            cursor.take()
            continue
        line, column, start = cursor.line, cursor.column, cursor.pos
        if char == "{":
            tokens.append(_comment(cursor, line, column, start))
        elif char == "[":
            tokens.append(_bracket(cursor, line, column, start))
        elif char in "()":
            cursor.take()
            tokens.append(Token(OPEN if char == "(" else CLOSE, char, char, line, column))
        elif char in "}]":
            raise LexError(f"{char!r} closes nothing here", line, column)
        else:
            tokens.append(_word(cursor, line, column, start))
    return tokens


def _comment(cursor: _Cursor, line: int, column: int, start: int) -> Token:
    cursor.take()
    value: list[str] = []
    while True:
        if cursor.done():
            raise LexError("this comment is never closed with '}'", line, column)
        char = cursor.take()
        if char == "\\" and cursor.peek() in ("}", "\\"):
            value.append(cursor.take())
        elif char == "}":
            break
        else:
            value.append(char)
    return Token(COMMENT, "".join(value), cursor.text[start:cursor.pos], line, column)


def _bracket(cursor: _Cursor, line: int, column: int, start: int) -> Token:
    cursor.take()
    while True:
        if cursor.done() or cursor.peek() == "\n":
            raise LexError("this '[' is never closed with ']' on its line", line, column)
        char = cursor.take()
        if char == "]":
            break
        if char in "[{}":
            raise LexError(f"{char!r} inside [...]: a dice group holds a label and faces, like [hit 5,2,6]",
                           cursor.line, cursor.column - 1)
    raw = cursor.text[start:cursor.pos]
    return Token(BRACKET, raw[1:-1], raw, line, column)


def _word(cursor: _Cursor, line: int, column: int, start: int) -> Token:
    value: list[str] = []
    quoted = False
    while not cursor.done():
        char = cursor.peek()
        if char.isspace() or char in _PUNCTUATION:
            break
        cursor.take()
        if char != '"':
            value.append(char)
            continue
        quoted = True
        quote_line, quote_column = cursor.line, cursor.column - 1
        while True:
            if cursor.done():
                raise LexError("this quote is never closed", quote_line, quote_column)
            inner = cursor.take()
            if inner == "\\" and cursor.peek() in ('"', "\\"):
                value.append(cursor.take())
            elif inner == '"':
                break
            else:
                value.append(inner)
    return Token(WORD, "".join(value), cursor.text[start:cursor.pos], line, column, quoted)


def quote(text: str) -> str:
    """``text`` as a quoted word part (escaping quotes and backslashes)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def escape_comment(text: str) -> str:
    """``text`` safe inside ``{ ... }``."""
    return text.replace("\\", "\\\\").replace("}", "\\}")
