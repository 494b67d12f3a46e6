"""The decider contract every ruleset keeps (DESIGN.md, contracts 2-4).

A ruleset is a set of pure functions over immutable states:

* ``initial_state(setup)``: the state before the first event;
* ``decide(state, command, dice)``: the events a command causes, rolling any dice
  through the :class:`~aero_events.core.dice.DiceCup` it is handed; raises
  :class:`~aero_events.core.errors.RuleError` for an illegal command;
* ``evolve(state, event)``: the state after one event; never rolls, reads a clock
  or does I/O;
* ``legal_commands(state, player)``: every legal choice at the current decision
  point, so a bot or user interface never has to guess;
* ``is_over(state)``.

The core never imports a ruleset: it only calls these methods.
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

import msgspec

from .dice import DiceCup
from .events import Event

_state_encoder = msgspec.msgpack.Encoder(order="deterministic")


def state_hash(state: Any) -> str:
    """A stable sha256 of a state: msgpack with deterministic key and set order.

    Equal states hash equally across runs and processes, so a hash recorded at a
    turn's end proves a replay reached the same state.
    """
    return hashlib.sha256(_state_encoder.encode(state)).hexdigest()


class Command(msgspec.Struct, frozen=True, kw_only=True, tag_field="command"):
    """Base of a ruleset's commands: what a player (or bot) asks to do.

    ``player`` names who issues it; each ruleset's commands subclass this with a tag.
    """

    player: str


class Ruleset(ABC):
    """Abstract base of a ruleset. Variants subclass it (as python-chess does its variants)."""

    #: Stable name and version, e.g. "aeronautica/wov-2019".
    name: ClassVar[str]
    #: The msgspec type of this ruleset's setup, used to store and reload games.
    setup_type: ClassVar[type]

    @property
    def data_version(self) -> str:
        """The version of the data files (profiles, tables) this ruleset reads."""
        return "none"

    @abstractmethod
    def initial_state(self, setup: Any) -> Any: ...

    @abstractmethod
    def decide(self, state: Any, command: Command, dice: DiceCup) -> list[Event]: ...

    @abstractmethod
    def evolve(self, state: Any, event: Event) -> Any: ...

    @abstractmethod
    def legal_commands(self, state: Any, player: str) -> list[Command]: ...

    @abstractmethod
    def is_over(self, state: Any) -> bool: ...

    @abstractmethod
    def clock(self, state: Any) -> tuple[int, str]:
        """The (turn, phase) a state stands in; stamped on each event's envelope."""

    @abstractmethod
    def players(self, state: Any) -> Sequence[str]: ...

    def view(self, state: Any, player: str | None) -> Any:
        """The state as ``player`` may see it (None: a spectator). Override to hide secrets."""
        return state

    def fold(self, state: Any, events: Iterable[Event]) -> Any:
        """Apply ``events`` in order."""
        evolve = self.evolve
        for event in events:
            state = evolve(state, event)
        return state

    def state_hash(self, state: Any) -> str:
        return state_hash(state)
