"""Commands and events in one line, for the regression report: ``SetThrottle imperium-1 change=-1``.

The same compact form as ``aero show`` (:func:`aero_events.cli.describe.describe_payload`): the type,
then each field as name=value, hashes and salts cut short.
"""

from __future__ import annotations

from typing import Any

import msgspec

from aero_events.cli.describe import describe_payload
from aero_events.core import Command, Envelope, Event


def describe_command(command: Command) -> str:
    """``SetThrottle player=orks aircraft=orks-2 change=1``."""
    fields: dict[str, Any] = msgspec.to_builtins(command)
    name = fields.pop("command", type(command).__name__)
    return describe_payload(str(name).removeprefix("ai."), fields)


def event_at(event: Event | Envelope) -> str:
    """An event (or an envelope's event) in one line."""
    if isinstance(event, Envelope):
        event = event.event
    return describe_payload(event.type_name(), msgspec.to_builtins(event))
