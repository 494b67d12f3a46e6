"""Dice: every result is an event.

A ruleset never rolls by itself: ``decide`` is handed a :class:`DiceCup`, asks it
for a roll, and gets back a :class:`DiceRolled` event to return among its events.
The cup draws faces from a *source*:

* :class:`SeededDice`: reproducible pseudo-random faces. The algorithm is fixed
  here and does not depend on Python's ``random`` module (whose algorithms may
  change between versions): SHA-256 in counter mode, see its docstring.
* :class:`ManualDice`: a person types what the table rolled; faces outside
  1..sides of the die, or the wrong number of them, are refused.
* :class:`TapeDice`: recorded faces replayed in order (regression re-runs); it
  says when it runs out, or hands over to a fallback source and counts how many
  extra faces it needed.

A die may have any number of sides from 2 to :data:`MAX_SIDES`. Beside plain rolls the cup makes:

* secret rolls (``roll(..., secret_owner=...)``): a :class:`SecretDiceRolled` only its owner sees
  (others see the count, the die and a commitment), later opened by a :class:`DiceRevealed`;
* direction rolls (:meth:`DiceCup.direction`): one die of :data:`DIRECTION_SIDES` sides, face ``f``
  meaning a heading of ``f - 1`` hundredths of a degree clockwise from north (the scene convention);
* scatter rolls (:meth:`DiceCup.scatter`): the scatter die (HIT or an arrow), and for an arrow a
  direction roll, in one :class:`ScatterRolled`;
* draws without replacement from a finite pool (:meth:`DiceCup.draw`, see :mod:`.pools`).

Every event that holds faces drawn from the source says which, in order (:func:`faces_on_tape`), so
:meth:`TapeDice.from_events` rebuilds the source of any recorded game, secret events included (the
store keeps events whole; only views redact them).

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
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

import msgspec

from .errors import DiceError, TapeExhausted
from .events import Envelope, Event
from .secrets import SecretEvent, check_reveal

if TYPE_CHECKING:
    from .pools import Pool, PoolDrawn, SecretPoolDrawn

#: The largest die the sources roll (four bytes of the seeded stream per face).
MAX_SIDES = 2**32
#: A direction roll is one die of this many sides: face ``f`` is a heading of ``f - 1`` hundredths of a degree.
DIRECTION_SIDES = 36_000


class Modifier(msgspec.Struct, frozen=True):
    """A named modifier applied to each die of a roll, e.g. ("Altitude difference", -1)."""

    reason: str
    value: int


class RollResults:
    """What the rules read of a roll, open or secret: the results, modifiers and total (a slotless mixin, so
    :class:`DiceRolled` and :class:`SecretDiceRolled` share it without changing what they encode)."""

    __slots__ = ()

    @property
    def values(self) -> tuple[int, ...]:
        """The results the rule reads: the faces, or for a D3 the halved faces rounded up (p.7)."""
        if self.d3:  # type: ignore[attr-defined]
            return tuple((face + 1) // 2 for face in self.faces)  # type: ignore[attr-defined]
        return self.faces  # type: ignore[attr-defined]

    @property
    def total_modifier(self) -> int:
        return sum(m.value for m in self.modifiers)  # type: ignore[attr-defined]

    @property
    def total(self) -> int:
        return sum(self.values)

    def tape_faces(self) -> tuple[int, ...]:
        """The faces drawn from the dice source, in order (what a tape must hold to replay this roll)."""
        return self.faces  # type: ignore[attr-defined]


class DiceRolled(RollResults, Event, frozen=True, tag="DiceRolled"):
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
    def headings(self) -> tuple[int, ...]:
        """For a direction roll (``sides == DIRECTION_SIDES``): the headings in 1/100 degree, 0..35999."""
        if self.sides != DIRECTION_SIDES:
            raise DiceError(f"{self.purpose}: a D{self.sides} roll is not a direction roll")
        return tuple(face - 1 for face in self.faces)


class SecretDiceRolled(RollResults, SecretEvent, frozen=True, kw_only=True, tag="SecretDiceRolled"):
    """A roll only ``owner`` sees: others see who rolled, how many dice of which die, and a commitment.

    The same fields as :class:`DiceRolled`; ``faces`` is the secret field. A later
    :class:`DiceRevealed` (made by :func:`reveal_roll`) opens it.
    """

    secret_fields: ClassVar[tuple[str, ...]] = ("faces",)
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



class DiceRevealed(Event, frozen=True, kw_only=True, tag="DiceRevealed"):
    """A secret roll turned face up: its faces and salt, checkable against the commitment made when rolled."""

    roll_index: int
    owner: str
    faces: tuple[int, ...]
    salt: str

    def check(self, expected_commitment: str) -> None:
        """Raise :class:`~aero_events.core.errors.SecretMismatch` unless these are the faces committed to."""
        check_reveal({"faces": self.faces}, self.salt, expected_commitment, what=f"roll {self.roll_index}")


def reveal_roll(secret: SecretDiceRolled) -> DiceRevealed:
    """The event that turns a secret roll face up (the referee state keeps the whole secret event)."""
    return DiceRevealed(roll_index=secret.roll_index, owner=secret.owner, faces=secret.faces, salt=secret.salt)


class ScatterDie(msgspec.Struct, frozen=True):
    """A scatter die as data: ``sides`` faces, of which ``hit_faces`` show HIT and the rest an arrow.

    The Games Workshop scatter die (WHFB "Scatter"; BFG Nova Cannon p.40) has two HIT faces among six.
    Which numbers stand for the HIT faces is a labelling choice, not a rule: faces 1 and 2 here
    (:data:`SCATTER_DIE`). Change ``hit_faces`` for a die with another share of HITs.
    """

    sides: int = 6
    hit_faces: tuple[int, ...] = (1, 2)

    def __post_init__(self) -> None:
        if not self.hit_faces or any(not 1 <= face <= self.sides for face in self.hit_faces):
            raise DiceError(f"a scatter die of {self.sides} sides cannot have HIT faces {self.hit_faces}")
        if len(set(self.hit_faces)) >= self.sides:
            raise DiceError("a scatter die needs at least one arrow face")

    @property
    def arrow_faces(self) -> tuple[int, ...]:
        return tuple(face for face in range(1, self.sides + 1) if face not in self.hit_faces)


#: The scatter die of the Games Workshop games: faces 1-2 HIT, 3-6 an arrow.
SCATTER_DIE = ScatterDie()


class ScatterRolled(Event, frozen=True, kw_only=True, tag="ScatterRolled"):
    """A roll of the scatter die: HIT, or an arrow whose direction is a direction roll.

    ``face`` is the scatter die's face; ``direction_face`` the face of the :data:`DIRECTION_SIDES`-sided
    direction roll made for an arrow (None on a HIT). A physical arrow points wherever it lands;
    a uniform heading is its digital equivalent.
    """

    roll_index: int
    purpose: str
    roller: str | None
    face: int
    hit_faces: tuple[int, ...]
    sides: int = 6
    direction_face: int | None = None

    @property
    def hit(self) -> bool:
        return self.face in self.hit_faces

    @property
    def direction(self) -> int | None:
        """The arrow's heading in 1/100 degree clockwise from north (0..35999); None on a HIT."""
        return None if self.direction_face is None else self.direction_face - 1

    def tape_faces(self) -> tuple[int, ...]:
        return (self.face,) if self.direction_face is None else (self.face, self.direction_face)


def faces_on_tape(event: Event) -> tuple[int, ...]:
    """The faces ``event`` drew from the dice source, in order; () for an event that rolled nothing.

    Any event type that holds dice faces defines ``tape_faces()``: :class:`DiceRolled`,
    :class:`SecretDiceRolled`, :class:`ScatterRolled`, and the pool draws of :mod:`.pools`.
    """
    tape_faces = getattr(event, "tape_faces", None)
    return tape_faces() if tape_faces is not None else ()


def rolls_after(event: Event) -> int | None:
    """For an event that took a roll index (a roll, secret roll or scatter roll): that index + 1; else None.

    A session counting the rolls of a recorded branch must count every such event, not only
    :class:`DiceRolled`, so that roll indices continue correctly after a replay.
    """
    if isinstance(event, (DiceRolled, SecretDiceRolled, ScatterRolled)):
        return event.roll_index + 1
    return None


# ---------------------------------------------------------------- sources


class DiceSource(Protocol):
    """Where faces come from. ``draw`` returns exactly ``count`` faces in 1..sides.

    A source may also name the items of a pool draw instead of rolling for them
    (``draw_items(pool, count, purpose, drawer) -> list[str]``, see :class:`.pools.ManualDraw`).
    A source keeps its position in plain attributes (lists copied), which the session saves and
    restores around a refused command; a class may say cheaply where it stands instead, by defining
    ``mark()`` (any value) and ``restore(mark)`` itself (see :func:`mark_position`).
    """

    def draw(self, count: int, sides: int, purpose: str, roller: str | None) -> list[int]: ...


def _copied_position(source: Any) -> Any:
    """A copy of a source's attributes (lists copied), or None for a source without any."""
    if not hasattr(source, "__dict__"):
        return None
    return {name: list(value) if isinstance(value, list) else value for name, value in vars(source).items()}


def _restore_copied_position(source: Any, mark: Any) -> None:
    if mark is not None:
        for name, value in mark.items():
            setattr(source, name, list(value) if isinstance(value, list) else value)


#: A source's (mark, restore) functions: ``mark(source)`` says where it stands, ``restore(source, mark)`` puts
#: it back there.
PositionKeeper = tuple[Callable[[Any], Any], Callable[[Any, Any], None]]
#: Exact class -> its :data:`PositionKeeper`: the class's own ``mark``/``restore`` when it defines both in its
#: body, else the copy of its attributes.
_POSITION_KEEPERS: dict[type, PositionKeeper] = {}


def _position_keeper(kind: type) -> PositionKeeper:
    keeper = _POSITION_KEEPERS.get(kind)
    if keeper is None:
        own = vars(kind)
        if callable(own.get("mark")) and callable(own.get("restore")):
            keeper = (own["mark"], own["restore"])
        else:  # a subclass may keep more state than its parent's mark() knows of: copy everything
            keeper = (_copied_position, _restore_copied_position)
        _POSITION_KEEPERS[kind] = keeper
    return keeper


def position_keeper(source: Any) -> PositionKeeper:
    """The (mark, restore) functions :func:`mark_position` and :func:`restore_position` call for ``source``, for a
    caller that marks the same source many times: a session looks them up once per source, not on every
    command (issue 18)."""
    return _position_keeper(type(source))


def mark_position(source: Any) -> Any:
    """Where a dice or salt source stands, for :func:`restore_position` after a refused command.

    A class that defines ``mark()`` and ``restore(mark)`` in its own body says it cheaply (:class:`SeededDice`,
    :class:`TapeDice`, :class:`ManualDice`, :class:`~aero_events.core.secrets.SaltSource`); any other source,
    a subclass included, has its attributes copied (lists copied too)."""
    return _position_keeper(type(source))[0](source)


def restore_position(source: Any, mark: Any) -> None:
    """Put ``source`` back where :func:`mark_position` found it."""
    _position_keeper(type(source))[1](source, mark)


def bytes_per_face(sides: int) -> int:
    """How many bytes of the seeded stream one face of a ``sides``-sided die reads: the least ``k``
    with ``256**k >= sides``."""
    if not 2 <= sides <= MAX_SIDES:
        raise DiceError(f"cannot roll a die with {sides} sides (2 to {MAX_SIDES})")
    width = 1
    while 256**width < sides:
        width += 1
    return width


def face_from_bytes(chunk: bytes, sides: int) -> int | None:
    """The face of a ``sides``-sided die that the bytes ``chunk`` give, or None when they are rejected.

    ``chunk`` (``bytes_per_face(sides)`` bytes) is read as a big-endian number ``v`` below
    ``span = 256**len(chunk)``; ``v < span - span % sides`` gives the face ``v % sides + 1``, any
    other ``v`` is rejected. Every face is then given by exactly ``(span - span % sides) / sides``
    values of ``v``: no modulo bias.
    """
    span = 256 ** len(chunk)
    value = int.from_bytes(chunk, "big")
    if value >= span - span % sides:
        return None
    return value % sides + 1


class SeededDice:
    """Reproducible dice from a seed, stable across Python versions and platforms.

    Algorithm (fixed; changing it changes every recorded seeded game): block ``n``
    is ``SHA-256(seed_bytes || n as 8 bytes big-endian)``; the blocks' bytes are read in
    order as one stream. A face of a die of ``sides`` sides (2 to 2**32) reads the next ``k`` bytes,
    ``k`` the least with ``256**k >= sides`` (one byte for 2 to 256 sides, two up to 65536, ...),
    as a big-endian number ``v``; with ``span = 256**k``, ``v < span - span % sides`` gives the face
    ``v % sides + 1``, and any other ``v`` is skipped and the next ``k`` bytes read instead
    (rejection sampling, so every face is equally likely). A ``k``-byte group may run across the
    end of one block into the next. For 2 to 256 sides this is the original one-byte rule: each
    byte ``b`` below ``256 - 256 % sides`` gives ``b % sides + 1``. ``seed_bytes`` is the UTF-8 of
    ``str(seed)``. See :func:`face_from_bytes`.
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
        width = 1 if 2 <= sides <= 256 else bytes_per_face(sides)
        span = 256**width
        limit = span - span % sides
        next_byte = self._next_byte
        faces = []
        if width == 1 and type(self)._next_byte is SeededDice._next_byte:
            # the common case, read from the block in hand without a call per byte (same bytes, same faces)
            buffer, pos = self._buffer, self._pos
            while len(faces) < count:
                if pos >= len(buffer):
                    self._pos = pos
                    next_byte()  # the next block (and its first byte, read again below)
                    buffer, pos = self._buffer, 0
                byte = buffer[pos]
                pos += 1
                if byte < limit:
                    faces.append(byte % sides + 1)
            self._pos = pos
            return faces
        while len(faces) < count:
            value = next_byte()
            for _ in range(width - 1):
                value = value << 8 | next_byte()
            if value < limit:
                faces.append(value % sides + 1)
        return faces

    def position(self) -> tuple[int, int]:
        """Where the stream stands, so that a copy can continue identically."""
        return (self._block, self._pos)

    def mark(self) -> tuple[int, bytes, int]:
        """Where the stream stands, for :meth:`restore` (:func:`mark_position`)."""
        return (self._block, self._buffer, self._pos)

    def restore(self, mark: tuple[int, bytes, int]) -> None:
        self._block, self._buffer, self._pos = mark


class ManualDice:
    """Faces typed in by a person at the table.

    ``ask`` is called with (purpose, roller, count, sides) and returns the faces;
    or faces are queued in advance with :meth:`enter` (checked against the die they are entered
    for, a D6 unless ``sides`` says otherwise). Wrong counts and faces outside 1..sides of the die
    rolled are refused with a :class:`DiceError` before anything is used.
    """

    def __init__(self, ask: Callable[[str, str | None, int, int], Sequence[int]] | None = None):
        self._ask = ask
        self._queue: list[int] = []

    def enter(self, faces: Iterable[int], sides: int = 6) -> None:
        """Queue ``faces`` of dice of ``sides`` sides; all are refused if one is not a face of that die."""
        faces = list(faces)
        bytes_per_face(sides)
        for face in faces:
            if not isinstance(face, int) or isinstance(face, bool) or not 1 <= face <= sides:
                raise DiceError(f"a D{sides} shows 1 to {sides}; {face!r} is not a face")
        self._queue.extend(faces)

    def enter_heading(self, centidegrees: int) -> None:
        """Queue a direction roll read at the table: a heading of 0..35999 hundredths of a degree."""
        if not isinstance(centidegrees, int) or not 0 <= centidegrees < DIRECTION_SIDES:
            raise DiceError(f"a heading is 0 to {DIRECTION_SIDES - 1} hundredths of a degree; "
                            f"{centidegrees!r} is not one")
        self._queue.append(centidegrees + 1)

    def enter_scatter(self, hit: bool, heading: int | None = None, die: ScatterDie = SCATTER_DIE) -> None:
        """Queue a scatter roll read at the table: HIT, or an arrow pointing at ``heading`` (1/100 degree)."""
        if hit:
            if heading is not None:
                raise DiceError("a HIT has no arrow: no heading is entered with it")
            self._queue.append(die.hit_faces[0])
            return
        if heading is None:
            raise DiceError("an arrow needs its heading (0 to 35999 hundredths of a degree)")
        if not isinstance(heading, int) or not 0 <= heading < DIRECTION_SIDES:
            raise DiceError(f"a heading is 0 to {DIRECTION_SIDES - 1} hundredths of a degree; {heading!r} is not one")
        self._queue.extend((die.arrow_faces[0], heading + 1))

    @property
    def remaining(self) -> int:
        """How many entered faces are still waiting to be used."""
        return len(self._queue)

    def mark(self) -> tuple[int, ...]:
        """The faces still waiting, for :meth:`restore` (:func:`mark_position`)."""
        return tuple(self._queue)

    def restore(self, mark: tuple[int, ...]) -> None:
        self._queue = list(mark)

    def draw(self, count: int, sides: int, purpose: str = "", roller: str | None = None) -> list[int]:
        if self._queue:
            if len(self._queue) < count:
                raise DiceError(f"{purpose}: {count} dice needed, only {len(self._queue)} entered")
            faces = self._queue[:count]
            check_faces(faces, count, sides, purpose)
            self._queue = self._queue[count:]
        elif self._ask is not None:
            faces = list(self._ask(purpose, roller, count, sides))
        else:
            raise DiceError(f"{purpose}: {count} dice needed and none were entered")
        return check_faces(faces, count, sides, purpose)


def check_faces(faces: Sequence[int], count: int, sides: int, purpose: str = "roll") -> list[int]:
    """Refuse a wrong number of dice or a face outside 1..sides of the die rolled."""
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
    def from_events(cls, events: Iterable[Event | Envelope], fallback: DiceSource | None = None) -> TapeDice:
        """A tape of every face drawn by ``events``, in order: rolls, secret rolls, scatter rolls and
        pool draws (public or secret), see :func:`faces_on_tape`. Envelopes are accepted too."""
        faces: list[int] = []
        for event in events:
            faces.extend(faces_on_tape(event.event if isinstance(event, Envelope) else event))
        return cls(faces, fallback)

    @property
    def remaining(self) -> int:
        return len(self._faces) - self._pos

    def mark(self) -> tuple[int, int, int, Any, Any]:
        """Where the tape stands, its counts of extra faces, its fallback and where that stands (:meth:`restore`)."""
        fallback = self.fallback
        return (self._pos, self.extra_faces, self.extra_rolls, fallback,
                None if fallback is None else mark_position(fallback))

    def restore(self, mark: tuple[int, int, int, Any, Any]) -> None:
        self._pos, self.extra_faces, self.extra_rolls, self.fallback, fallback_mark = mark
        if self.fallback is not None:
            restore_position(self.fallback, fallback_mark)

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
    like the dice, they are handed to ``decide`` so that it stays pure. Secret rolls and
    secret draws take their salts from it.
    """

    def __init__(self, source: DiceSource, next_index: int = 0, salts: Any = None):
        self.source = source
        self.next_index = next_index
        self.salts = salts
        self.rolled: list[Event] = []

    def _salt(self, purpose: str) -> str:
        if self.salts is None:
            raise DiceError(f"{purpose}: a secret result needs a salt source for its commitment")
        return self.salts.next()

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
        secret_owner: str | None = None,
    ) -> Any:
        """Roll ``count`` dice and return the event (not yet applied).

        A :class:`DiceRolled`; with ``secret_owner`` a sealed :class:`SecretDiceRolled` that only
        that player sees (a hidden roll).
        """
        if count < 0:
            raise DiceError(f"{purpose}: cannot roll {count} dice")
        if not 2 <= sides <= 256:
            bytes_per_face(sides)
        faces = self.source.draw(count, sides, purpose, roller) if count else []
        event: Any
        if secret_owner is None:
            event = DiceRolled(roll_index=self.next_index, purpose=purpose, roller=roller, count=count, sides=sides,
                               faces=tuple(faces), target=target, modifiers=tuple(modifiers), replaces=replaces)
        else:
            event = SecretDiceRolled(owner=secret_owner, roll_index=self.next_index, purpose=purpose, roller=roller,
                                     count=count, sides=sides, faces=tuple(faces), target=target,
                                     modifiers=tuple(modifiers), replaces=replaces).sealed(self._salt(purpose))
        self.next_index += 1
        self.rolled.append(event)
        return event

    def d6(self, *, purpose: str, roller: str | None = None, target: int | None = None,
           modifiers: Sequence[Modifier] = ()) -> DiceRolled:
        """A single D6."""
        return self.roll(1, purpose=purpose, roller=roller, target=target, modifiers=modifiers)

    def d3(self, count: int = 1, *, purpose: str, roller: str | None = None,
           secret_owner: str | None = None) -> Any:
        """``count`` D3: D6s halved and rounded up (p.7); the event keeps the D6 faces."""
        event = self.roll(count, purpose=purpose, roller=roller, secret_owner=secret_owner)
        event = msgspec.structs.replace(event, d3=True)
        self.rolled[-1] = event
        return event

    def reroll(self, original: DiceRolled | SecretDiceRolled, *, roller: str | None = None,
               purpose: str | None = None) -> Any:
        """Re-roll every die of ``original`` (Imperial Ace, Fly Boss); the new event names it.

        A secret roll is re-rolled in secret for the same owner."""
        event = self.roll(
            original.count,
            purpose=purpose or original.purpose,
            roller=roller if roller is not None else original.roller,
            sides=original.sides,
            target=original.target,
            modifiers=original.modifiers,
            replaces=original.roll_index,
            secret_owner=original.owner if isinstance(original, SecretDiceRolled) else None,
        )
        if original.d3:
            event = msgspec.structs.replace(event, d3=True)
            self.rolled[-1] = event
        return event

    def direction(self, *, purpose: str, roller: str | None = None, secret_owner: str | None = None) -> Any:
        """A uniform heading: one die of :data:`DIRECTION_SIDES` sides; ``event.headings[0]`` is the heading
        in 1/100 degree clockwise from north (0..35999)."""
        return self.roll(1, purpose=purpose, roller=roller, sides=DIRECTION_SIDES, secret_owner=secret_owner)

    def scatter(self, *, purpose: str, roller: str | None = None, die: ScatterDie = SCATTER_DIE) -> ScatterRolled:
        """Roll the scatter die; on an arrow, roll its direction too (WHFB "Scatter", BFG Nova Cannon p.40).

        The faces come from the source in that order: the scatter die's face, then for an arrow the
        direction roll's face. One roll index for both."""
        face = self.source.draw(1, die.sides, purpose, roller)[0]
        direction_face = None
        if face not in die.hit_faces:
            direction_face = self.source.draw(1, DIRECTION_SIDES, f"{purpose}: arrow direction", roller)[0]
        event = ScatterRolled(roll_index=self.next_index, purpose=purpose, roller=roller, face=face,
                              hit_faces=die.hit_faces, sides=die.sides, direction_face=direction_face)
        self.next_index += 1
        self.rolled.append(event)
        return event

    def draw(self, pool: Pool, count: int, *, purpose: str, drawer: str | None = None,
             secret_owner: str | None = None) -> PoolDrawn | SecretPoolDrawn:
        """Draw ``count`` items from ``pool`` without replacement (see :func:`.pools.draw_from`)."""
        from .pools import draw_from

        return draw_from(self, pool, count, purpose=purpose, drawer=drawer, secret_owner=secret_owner)
