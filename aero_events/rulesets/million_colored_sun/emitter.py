"""The Emitter (as Aeronautica's ``turn.py`` has it): collects the events a command causes, folding each."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aero_events.core import Event


class Emitter:
    """Collects the events a command causes, folding each so later steps see the new state."""

    def __init__(self, state: Any, evolve: Callable[[Any, Event], Any]):
        self.state = state
        self.events: list[Event] = []
        self._evolve = evolve

    def emit(self, event: Event) -> Any:
        self.events.append(event)
        self.state = self._evolve(self.state, event)
        return self.state
