"""A record's headers (``[Name "value"]``, as in PGN): the game's setup, identity and metadata.

=================  ===========================================================================================
header             holds
=================  ===========================================================================================
``Event``          what the game was played for (``metadata["event"]``); ``Site`` where (``metadata["site"]``)
``Date`` ``Time``  when the game was created (UTC), ``2024.05.01`` and ``19:30:00``
``GameId``         the game's id in the store (default on import: the file's name without ``.aero``)
``Ruleset``        the ruleset and version, ``aeronautica/wov-2019`` (contract 8); ``DataVersion`` its data
(setup)            the ruleset's headers for the game's setup (its recorder guide's ``setup_headers``);
                   by default ``Setup``, the whole setup as JSON. Aeronautica writes ``Scenario``,
                   ``Players``, ``Forces``, ``Points``, ``Board``... (its ``record_setup.py``)
``Dice``           ``manual`` (typed in from a real table) or ``digital``; ``Seed`` the seed of digital dice
``Salts``          the seed the secrets' salts derive from (:mod:`.salts`)
``Current``        the branch a recorded game goes on with (``aero record --resume``), when not ``main``
``Result``         the winner of the current branch (else main), ``draw``, or ``*`` while it is being played
``Metadata``       the game's other metadata, as JSON
=================  ===========================================================================================
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import msgspec

from aero_events.core.interface import HeaderError

__all__ = ["DEFAULT_SALT_SEED", "METADATA_HEADERS", "Header", "HeaderError", "created_from_values", "date_headers",
           "header_line", "metadata_from_values", "metadata_headers", "read_header", "salt_seed"]

#: Metadata keys that have a header of their own.
METADATA_HEADERS = {"event": "Event", "site": "Site", "seed": "Seed", "dice": "Dice", "salt_seed": "Salts"}
DEFAULT_SALT_SEED = "record"
_TAG = re.compile(r'^\[(?P<name>[A-Za-z][A-Za-z0-9_]*)\s+"(?P<value>(?:[^"\\]|\\.)*)"\s*\]\s*$')


@dataclass(frozen=True)
class Header:
    """One ``[Name "value"]`` line: the value unescaped, its line, and the column where the value starts."""

    name: str
    value: str
    line: int
    column: int


def header_line(name: str, value: str) -> str:
    return f'[{name} "{value.replace(chr(92), chr(92) * 2).replace(chr(34), chr(92) + chr(34))}"]'


def read_header(text: str, line: int) -> Header | tuple[str, int]:
    """A header line, or (what is wrong, column) when it is not one."""
    match = _TAG.match(text)
    if match:
        raw = match["value"]
        return Header(match["name"], re.sub(r"\\(.)", r"\1", raw), line, match.start("value") + 1)
    if not text.startswith("["):
        return "a header is [Name \"value\"]", 1
    name = re.match(r"\[([A-Za-z][A-Za-z0-9_]*)", text)
    if not name:
        return "a header starts with its name: [Name \"value\"]", 2
    after = name.end()
    spaces = len(text[after:]) - len(text[after:].lstrip())
    if not text[after + spaces:].startswith('"'):
        return f"the value of [{name[1]} ...] is written in double quotes", after + spaces + 1
    closing = re.match(r'"(?:[^"\\]|\\.)*"', text[after + spaces:])
    if not closing:
        return f"the value of [{name[1]} ...] is never closed with '\"'", after + spaces + 1
    return f"[{name[1]} \"...\"] ends with ']' after its value", after + spaces + closing.end() + 1


# ---------------------------------------------------------------- metadata and dates


def metadata_headers(metadata: dict[str, Any]) -> dict[str, str]:
    """Headers for the metadata keys that have one, and ``Metadata`` (JSON) for the rest."""
    headers = {header: str(metadata[key]) for key, header in METADATA_HEADERS.items() if key in metadata}
    rest = {key: value for key, value in metadata.items() if key not in METADATA_HEADERS and key != "annotations"}
    if rest:
        headers["Metadata"] = msgspec.json.encode(rest).decode()
    return headers


def metadata_from_values(values: dict[str, str]) -> dict[str, Any]:
    """The game's metadata from its headers (the inverse of :func:`metadata_headers`)."""
    metadata: dict[str, Any] = {}
    if "Metadata" in values:
        try:
            extra = msgspec.json.decode(values["Metadata"])
        except msgspec.DecodeError as err:
            raise HeaderError(f"not JSON: {err}", "Metadata") from err
        if not isinstance(extra, dict):
            raise HeaderError("the metadata is a JSON object: {\"key\": value}", "Metadata")
        metadata.update(extra)
    for key, header in METADATA_HEADERS.items():
        if header in values and values[header] != "?":
            value: Any = values[header]
            metadata[key] = int(value) if key == "seed" and re.fullmatch(r"-?\d+", value) else value
    return metadata


def salt_seed(metadata: dict[str, Any]) -> str:
    """The seed a game's salts derive from: the recorder's, else the digital dice's seed (a seeded session
    derives its salts from it), else the default."""
    if "salt_seed" in metadata:
        return str(metadata["salt_seed"])
    if "seed" in metadata:
        return str(metadata["seed"])
    return DEFAULT_SALT_SEED


def date_headers(created: datetime) -> dict[str, str]:
    return {"Date": created.strftime("%Y.%m.%d"), "Time": created.strftime("%H:%M:%S")}


def created_from_values(values: dict[str, str]) -> datetime | None:
    """When the game was created, from ``Date`` (and ``Time``); None if unknown (``????.??.??``)."""
    date = values.get("Date")
    if not date or "?" in date:
        return None
    try:
        return datetime.strptime(f"{date} {values.get('Time', '00:00:00')}", "%Y.%m.%d %H:%M:%S")
    except ValueError as err:
        raise HeaderError("a date is YYYY.MM.DD and a time HH:MM:SS", "Date" if "Time" not in values else "Time") \
            from err
