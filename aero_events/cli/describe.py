"""Events in a line: ``DiceRolled roll_index=3 purpose="to hit" faces=[4,6]``.

Works from the payload's JSON (default fields are already omitted), so a game can be
shown without its ruleset installed; hashes and salts are cut to their first characters.
"""

from __future__ import annotations

import string
from typing import Any

import msgspec

from aero_events.core.events import Event

_HEX = set(string.hexdigits)
_SHORT_HEX = 10


def format_value(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        if len(value) >= 24 and set(value) <= _HEX:
            return value[:_SHORT_HEX] + "…"
        return value if value and not any(ch.isspace() or ch in ',=[]{}"' for ch in value) else f'"{value}"'
    if isinstance(value, list | tuple):
        return "[" + ",".join(format_value(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(f"{key}:{format_value(item)}" for key, item in value.items()) + "}"
    return str(value)


def describe_payload(type_name: str, payload: dict[str, Any]) -> str:
    """The type, then each field as name=value."""
    fields = " ".join(f"{name}={format_value(value)}" for name, value in payload.items() if name != "type")
    return f"{type_name} {fields}".rstrip()


def describe_event(event: Event) -> str:
    return describe_payload(event.type_name(), msgspec.to_builtins(event))
