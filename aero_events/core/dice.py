"""Dice: every result is an event.

A ruleset never rolls by itself: ``decide`` is handed a :class:`DiceCup`, asks it
for a roll, and gets back a :class:`DiceRolled` event to return among its events.
The cup draws faces from a *source*:

* :class:`SeededDice`: reproducible pseudo-random faces. The algorithm is fixed
  here and does not depend on Python's ``random`` module (whose algorithms may
  change between versions): SHA-256 in counter mode, see its docstring.
* :class:`ManualDice`: a person types what the table rolled; faces outside
  1..sides, or the wrong number of them, are refused.
* :class:`TapeDice`: recorded faces replayed in order (regression re-runs); it
  says when it runs out, or hands over to a fallback source and counts how many
  extra faces it needed.

D3, as the rulebook defines it (p.7): roll a D6 and halve it, rounding up. The
event records the D6 faces the table actually shows; :attr:`DiceRolled.values`
gives the D3 results.

A re-roll (the Imperial Ace and Fly Boss upgrades, p.41 and p.45) is a new
:class:`DiceRolled` whose ``replaces`` names the ``roll_index`` of the roll it
replaces.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

import msgspec

from .errors import DiceError, TapeExhausted
from .events import Event


class Modifier(msgspec.Struct, frozen=True):
    """A named modifier applied to each die of a roll, e.g. ("Altitude difference", -1)."""

    reason: str
    value: int


class DiceRolled(Event, frozen=True, tag="DiceRolled"):
    """A roll of ``count`` dice of ``sides`` sides, and the faces that came up.

    ``roll_index`` numbers the rolls of a game branch from 0. ``target`` and
    ``modifiers`` are recorded when a rule compares the dice with a number.
    ``d3`` marks a D3 roll made with D6s (p.7). ``replaces`` is the
    ``roll_index`` of the roll this one re-rolls.
    """

    roll_index: int
    purpose: str
    roller: str | None
    count: int
    sides: int
    faces: tuple[int, ...]
    target: int | None = None
    modifiers: tuple[Modifier, ...] = ()
    d3: bool = False
    replaces: int | None = None

    @property
    def values(self) -> tuple[int, ...]:
        """The results the rule reads: the faces, or for a D3 the halved faces rounded up (p.7)."""
        if self.d3:
            return tuple((face + 1) // 2 for face in self.faces)
        return self.faces

    @property
    def total_modifier(self) -> int:
        return sum(m.value for m in self.modifiers)

    @property
    def total(self) -> int:
        return sum(self.values)


# ---------------------------------------------------------------- sources


class DiceSource(Protocol):
    """Where faces come from. ``draw`` returns exactly ``count`` faces in 1..sides."""

    def draw(self, count: int, sides: int, purpose: str, roller: str | None) -> list[int]: ...


class SeededDice:
    """Reproducible dice from a seed, stable across Python versions and platforms.

    Algorithm (fixed; changing it changes every recorded seeded game): block ``n``
    is ``SHA-256(seed_bytes || n as 8 bytes big-endian)``; its 32 bytes are read in
    order and each byte ``b`` below ``256 - 256 % sides`` gives the face
    ``b % sides + 1`` (other bytes are skipped, so every face is equally likely).
    ``seed_bytes`` is the UTF-8 of ``str(seed)``.
    """

    def __init__(self, seed: int | str):
        self.seed = seed
        self._seed_bytes = str(seed).encode()
        self._block = 0
        self._buffer = b""
        self._pos = 0

    def _next_byte(self) -> int:
        if self._pos >= len(self._buffer):
            self._buffer = hashlib.sha256(self._seed_bytes + self._block.to_bytes(8, "big")).digest()
            self._block += 1
            self._pos = 0
        byte = self._buffer[self._pos]
        self._pos += 1
        return byte

    def draw(self, count: int, sides: int, purpose: str = "", roller: str | None = None) -> list[int]:
        if not 2 <= sides <= 256:
            raise DiceError(f"cannot roll a die with {sides} sides")
        limit = 256 - 256 % sides
        faces = []
        while len(faces) < count:
            byte = self._next_byte()
            if byte < limit:
                faces.append(byte % sides + 1)
        return faces

    def position(self) -> tuple[int, int]:
        """Where the stream stands, so that a copy can continue identically."""
        return (self._block, self._pos)


class ManualDice:
    """Faces typed in by a person at the table.

    ``ask`` is called with (purpose, roller, count, sides) and returns the faces;
    or faces are queued in advance with :meth:`enter`. Wrong counts and faces
    outside 1..sides are refused with a :class:`DiceError` before anything is used.
    """

    def __init__(self, ask: Callable[[str, str | None, int, int], Sequence[int]] | None = None):
        self._ask = ask
        self._queue: list[int] = []

    def enter(self, faces: Iterable[int]) -> None:
        faces = list(faces)
        for face in faces:
            if not isinstance(face, int) or not 1 <= face <= 6:
                raise DiceError(f"a die shows 1 to 6; {face!r} is not a face")
        self._queue.extend(faces)

    @property
    def remaining(self) -> int:
        """How many entered faces are still waiting to be used."""
        return len(self._queue)

    def draw(self, count: int, sides: int, purpose: str = "", roller: str | None = None) -> list[int]:
        if self._queue:
            if len(self._queue) < count:
                raise DiceError(f"{purpose}: {count} dice needed, only {len(self._queue)} entered")
            faces, self._queue = self._queue[:count], self._queue[count:]
        elif self._ask is not None:
            faces = list(self._ask(purpose, roller, count, sides))
        else:
            raise DiceError(f"{purpose}: {count} dice needed and none were entered")
        return check_faces(faces, count, sides, purpose)


def check_faces(faces: Sequence[int], count: int, sides: int, purpose: str = "roll") -> list[int]:
    """Refuse a wrong number of dice or a face outside 1..sides (the table's dice are D6, p.7)."""
    faces = list(faces)
    if len(faces) != count:
        raise DiceError(f"{purpose}: {count} dice needed, {len(faces)} given")
    for face in faces:
        if not isinstance(face, int) or isinstance(face, bool) or not 1 <= face <= sides:
            raise DiceError(f"{purpose}: a D{sides} shows 1 to {sides}; {face!r} is not a face")
    return faces


class TapeDice:
    """Recorded faces replayed in order.

    Without a ``fallback`` an exhausted tape raises :class:`TapeExhausted`. With
    one, the extra faces come from it and :attr:`extra_faces` counts them
    (regression re-runs report how many dice the new rules needed beyond the record).
    """

    def __init__(self, faces: Iterable[int], fallback: DiceSource | None = None):
        self._faces = list(faces)
        self._pos = 0
        self.fallback = fallback
        self.extra_faces = 0
        self.extra_rolls = 0

    @classmethod
    def from_events(cls, events: Iterable[Event], fallback: DiceSource | None = None) -> TapeDice:
        """A tape of the faces of every DiceRolled among ``events``, in order."""
        faces: list[int] = []
        for event in events:
            if isinstance(event, DiceRolled):
                faces.extend(event.faces)
        return cls(faces, fallback)

    @property
    def remaining(self) -> int:
        return len(self._faces) - self._pos

    def draw(self, count: int, sides: int, purpose: str = "", roller: str | None = None) -> list[int]:
        available = min(count, self.remaining)
        faces = self._faces[self._pos : self._pos + available]
        self._pos += available
        if available < count:
            missing = count - available
            if self.fallback is None:
                raise TapeExhausted(
                    f"{purpose}: the tape ran out after {len(self._faces)} faces; {missing} more needed"
                )
            faces = faces + list(self.fallback.draw(missing, sides, purpose, roller))
            self.extra_faces += missing
            self.extra_rolls += 1
        return check_faces(faces, count, sides, purpose)


# ---------------------------------------------------------------- the cup


class DiceCup:
    """What ``decide`` rolls with: numbers each roll and wraps its faces in an event.

    ``next_index`` is the number of rolls already made in this branch; the session
    sets it, so roll indices continue across commands and forks. ``salts`` gives the
    salts of secret choices' commitments (a :class:`~aero_events.core.secrets.SaltSource`):
    like the dice, they are handed to ``decide`` so that it stays pure.
    """

    def __init__(self, source: DiceSource, next_index: int = 0, salts: Any = None):
        self.source = source
        self.next_index = next_index
        self.salts = salts
        self.rolled: list[DiceRolled] = []

    def roll(
        self,
        count: int,
        *,
        purpose: str,
        roller: str | None = None,
        sides: int = 6,
        target: int | None = None,
        modifiers: Sequence[Modifier] = (),
        replaces: int | None = None,
    ) -> DiceRolled:
        """Roll ``count`` dice and return the :class:`DiceRolled` event (not yet applied)."""
        if count < 0:
            raise DiceError(f"{purpose}: cannot roll {count} dice")
        faces = self.source.draw(count, sides, purpose, roller) if count else []
        event = DiceRolled(
            roll_index=self.next_index,
            purpose=purpose,
            roller=roller,
            count=count,
            sides=sides,
            faces=tuple(faces),
            target=target,
            modifiers=tuple(modifiers),
            replaces=replaces,
        )
        self.next_index += 1
        self.rolled.append(event)
        return event

    def d6(self, *, purpose: str, roller: str | None = None, target: int | None = None,
           modifiers: Sequence[Modifier] = ()) -> DiceRolled:
        """A single D6."""
        return self.roll(1, purpose=purpose, roller=roller, target=target, modifiers=modifiers)

    def d3(self, count: int = 1, *, purpose: str, roller: str | None = None) -> DiceRolled:
        """``count`` D3: D6s halved and rounded up (p.7); the event keeps the D6 faces."""
        event = self.roll(count, purpose=purpose, roller=roller)
        event = msgspec.structs.replace(event, d3=True)
        self.rolled[-1] = event
        return event

    def reroll(self, original: DiceRolled, *, roller: str | None = None, purpose: str | None = None) -> DiceRolled:
        """Re-roll every die of ``original`` (Imperial Ace, Fly Boss); the new event names it."""
        event = self.roll(
            original.count,
            purpose=purpose or original.purpose,
            roller=roller if roller is not None else original.roller,
            sides=original.sides,
            target=original.target,
            modifiers=original.modifiers,
            replaces=original.roll_index,
        )
        if original.d3:
            event = msgspec.structs.replace(event, d3=True)
            self.rolled[-1] = event
        return event
