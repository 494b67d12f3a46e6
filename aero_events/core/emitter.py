"""The Emitter every ruleset's ``decide`` writes to, and what it hands the session: no fold done twice.

A command's handler emits events one at a time and reads the state after each (a to-hit roll decides the
next step, a Stall the next roll). So ``decide`` has already folded every event it returns; the session
used to fold them again to get the states it keeps (issue 18: "no double ``evolve`` in ``decide``").
:class:`Emitter` keeps the state after each event, and ``out.events`` is a :class:`Decided`: the events
(a plain list to everything that reads them) with those states and the state they were decided from.
:meth:`~aero_events.core.session.GameSession.apply` takes the states when they are what it would compute
(:meth:`Decided.states_from`): the same start state, one state per event, every event folded by the
ruleset's own ``evolve``. Anything else (a ``decide`` that returns a plain list, or edits its list after
emitting) is folded by the session as before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .events import Event


class Decided(list):
    """Events a command caused, in order; ``states[i]`` is the state after ``self[i]``, folded from ``start``
    by ``evolve``."""

    __slots__ = ("evolve", "start", "states")

    def __init__(self, start: Any, evolve: Callable[[Any, Event], Any]):
        # an empty list already (list.__init__ would only clear it): not called, a fifth of a microsecond saved
        self.start = start
        self.states: list[Any] = []
        self.evolve = evolve

    def states_from(self, state: Any, evolve: Callable[[Any, Event], Any]) -> list[Any] | None:
        """The states after each event when these events were folded from ``state`` by ``evolve`` (the
        session's own fold would give the same); None when they were not, or the list changed since."""
        # Bound methods compare equal when they bind the same function to the same ruleset.
        if self.start is not state or len(self.states) != len(self) or self.evolve != evolve:
            return None
        return self.states


class Emitter:
    """Collects the events a command causes, folding each so later steps see the new state (and keeping
    every state for the session: :class:`Decided`)."""

    __slots__ = ("_evolve", "_keep_event", "_keep_state", "events", "state")

    def __init__(self, state: Any, evolve: Callable[[Any, Event], Any]):
        self.state = state
        events = self.events = Decided(state, evolve)
        self._evolve = evolve
        self._keep_event, self._keep_state = events.append, events.states.append  # bound once, not per event

    def emit(self, event: Event) -> Any:
        state = self._evolve(self.state, event)
        self._keep_event(event)
        self._keep_state(state)
        self.state = state
        return state
