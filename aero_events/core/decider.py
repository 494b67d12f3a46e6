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

import bisect
import functools
import hashlib
import itertools
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, ClassVar

import msgspec

from .dice import DiceCup
from .errors import DataError
from .events import Event
from .interface import ToolInterface

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


def command_types(tag: str) -> list[type[Command]]:
    """Every loaded :class:`Command` subclass whose tag is ``tag`` (several rulesets may reuse a tag)."""
    found, pending = [], list(Command.__subclasses__())
    while pending:
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        if cls.__struct_config__.tag == tag:
            found.append(cls)
    return found


def decode_command(data: Any, package: str = "") -> Command:
    """The command a mapping (``msgspec.to_builtins(command)``, tag in its ``command`` field) encodes.

    A tag used by several rulesets' commands is resolved by ``package``: the module prefix of the ruleset
    whose game it is (:meth:`ToolInterface.decode_command` passes its own).
    """
    if not isinstance(data, dict) or not isinstance(data.get("command"), str):
        raise DataError("a recorded command is a JSON object with its tag in 'command'", source="CommandIssued",
                        field="command")
    tag = data["command"]
    found = command_types(tag)
    if len(found) > 1 and package:
        found = [cls for cls in found if cls.__module__.startswith(package)] or found
    if len(found) != 1:
        reason = "no loaded command has it (is its ruleset imported?)" if not found else \
            "several rulesets' commands use it: " + ", ".join(sorted(c.__module__ for c in found))
        raise DataError(f"cannot decode the recorded command {tag!r}: {reason}", source="CommandIssued",
                        field="command")
    fields = {key: value for key, value in data.items() if key != "command"}
    try:
        return msgspec.convert(fields, found[0])
    except msgspec.ValidationError as err:
        raise DataError(f"the recorded command {tag!r} does not decode: {err}", source="CommandIssued",
                        field="command") from err


class CommandProduct(Sequence):
    """Every combination of some choices, each command built only when asked for.

    Some decision points offer tens of thousands of choices (every hex, facing, Speed and
    Altitude of a set-up placement): a bot picking one at random needs only the count and one
    index. ``build(*values)`` makes the command for one value of each axis; the order is
    that of ``itertools.product(*axes)``.
    """

    def __init__(self, build: Callable[..., Command], axes: Sequence[Sequence[Any]]):
        self._build = build
        self._axes = [tuple(axis) for axis in axes]
        self._length = 1
        for axis in self._axes:
            self._length *= len(axis)

    def __len__(self) -> int:
        return self._length

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._length))]
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError("command index out of range")
        values = []
        for axis in reversed(self._axes):
            index, position = divmod(index, len(axis))
            values.append(axis[position])
        return self._build(*reversed(values))

    def __iter__(self) -> Iterator[Command]:
        build = self._build
        for values in itertools.product(*self._axes):
            yield build(*values)


class CommandChain(Sequence):
    """Several sequences of commands read as one, without copying them."""

    def __init__(self, parts: Iterable[Sequence[Command]]):
        self._parts = [part for part in parts if len(part)]
        self._starts = list(itertools.accumulate((len(part) for part in self._parts), initial=0))

    def __len__(self) -> int:
        return self._starts[-1]

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("command index out of range")
        part = bisect.bisect_right(self._starts, index) - 1
        return self._parts[part][index - self._starts[part]]

    def __iter__(self) -> Iterator[Command]:
        for part in self._parts:
            yield from part


def chain_commands(parts: Iterable[Sequence[Command]]) -> Sequence[Command]:
    """A list when every part is a list (the usual case), else a :class:`CommandChain`."""
    parts = list(parts)
    if all(isinstance(part, list) for part in parts):
        return [command for part in parts for command in part]
    return CommandChain(parts)


class Ruleset(ToolInterface, ABC):
    """Abstract base of a ruleset. Variants subclass it (as python-chess does its variants).

    Beside the decider contract below, a ruleset answers the tools through the methods of
    :class:`~aero_events.core.interface.ToolInterface` (narration, outcome, scene, SQL views, notation,
    scenarios, bots), each with a default that works for any ruleset.
    """

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A ruleset's ``evolve`` never sees a core event (:func:`~aero_events.core.events.is_core_event`):
        each class's own ``evolve`` is wrapped so that a state checkpoint or an issued command leaves the state
        as it is. So every fold of a recorded log (the session's, the store's, a tool's, a test's) may hand
        the ruleset every event it reads, the session's records included."""
        super().__init_subclass__(**kwargs)
        evolve = cls.__dict__.get("evolve")
        if evolve is not None and not getattr(evolve, "skips_core_events", False):
            cls.evolve = _skipping_core_events(evolve)  # type: ignore[method-assign]

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
    def legal_commands(self, state: Any, player: str) -> Sequence[Command]:
        """Every legal command: a list, or a lazy Sequence (:class:`CommandProduct`) when there are very many."""

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
        """Apply ``events`` in order (core events change nothing: see ``__init_subclass__``)."""
        evolve = self.evolve
        for event in events:
            state = evolve(state, event)
        return state

    def state_hash(self, state: Any) -> str:
        return state_hash(state)

    def state_shapes_file(self) -> Any:
        """The file of this ruleset's past and present state shapes (:mod:`~aero_events.core.state_shape`), a
        ``pathlib.Path``; None for none. Default: ``data/state_shapes.json`` beside the module of the ruleset's
        class, or of the first class it derives from that has one. The state type whose shape is recorded is
        the class attribute ``state_type`` if set, else the return annotation of ``initial_state``."""
        from .state_shape import history_file_of

        return history_file_of(type(self))


def _skipping_core_events(evolve: Callable[[Any, Any, Event], Any]) -> Callable[[Any, Any, Event], Any]:
    @functools.wraps(evolve)
    def evolve_ruleset_events(self: Any, state: Any, event: Event) -> Any:
        if type(event).core_event:
            return state
        return evolve(self, state, event)

    evolve_ruleset_events.skips_core_events = True  # type: ignore[attr-defined]
    return evolve_ruleset_events
