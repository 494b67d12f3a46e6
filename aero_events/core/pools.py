"""Finite pools drawn without replacement: damage tokens from a cup, cards from a shuffled deck.

A :class:`Pool` is a state value (immutable) that lives in the ruleset's state: the items it holds
when full and the items that remain, each as (item, count) in the order of the item names. Items are
names (``"A-2-smoke"``); the ruleset keeps what a name means in its data.

A draw is an event, decided through the :class:`~aero_events.core.dice.DiceCup` like any roll
(:meth:`DiceCup.draw <aero_events.core.dice.DiceCup.draw>` or :func:`draw_from`), and applied to the
pool by a pure function (:func:`apply_to_pool`, :func:`evolve_pools`), so a replay reads the items back
from the store and never draws again.

How items are chosen (fixed; part of the recorded game like the seeded dice): items are drawn one at
a time. The remaining items are numbered 1..n in *position order*: by item name, each name repeated
as many times as it remains. When ``n >= 2`` a die of ``n`` sides is rolled through the cup's source
and the item at the face's position is taken; when ``n == 1`` the last item is taken and no die is
rolled. Every physical item is thus equally likely at each pick, whichever the source (seeded dice,
a tape, or a person). The event records those faces (``faces``), so
:meth:`TapeDice.from_events <aero_events.core.dice.TapeDice.from_events>` re-creates the draw.

At a real table a person draws a token and types its name: :class:`ManualDraw` takes the names,
checks each against what remains, and the event records the position of the named item as its face.

A draw only its owner sees (a damage token face down on the target's console, Wings of Glory
"Damage") is a :class:`SecretPoolDrawn`: others see the pool, the count and a commitment; a
:class:`PoolDrawRevealed` opens it later. Shuffling is not an event: a pool is a multiset, and a draw
from it is a draw from a shuffled deck.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import msgspec

from .dice import ManualDice
from .errors import DataError, DiceError
from .events import Event
from .secrets import SecretEvent, check_reveal

if TYPE_CHECKING:
    from .dice import DiceCup


class PoolExhausted(DiceError):
    """More items were asked of a pool than it holds."""


class PoolEntry(msgspec.Struct, frozen=True):
    """``count`` copies of ``item``."""

    item: str
    count: int


def _entries(counts: Mapping[str, int]) -> tuple[PoolEntry, ...]:
    return tuple(PoolEntry(item, counts[item]) for item in sorted(counts) if counts[item] > 0)


class Pool(msgspec.Struct, frozen=True):
    """A named finite pool: ``full`` is what it holds with nothing drawn, ``remaining`` what is left.

    Both are (item, count) entries sorted by item name, without zero counts, so equal contents are equal
    values (and hash equally in the state).
    """

    name: str
    full: tuple[PoolEntry, ...]
    remaining: tuple[PoolEntry, ...]

    @classmethod
    def of(cls, name: str, contents: Mapping[str, int] | Iterable[str]) -> Pool:
        """A full pool from ``{item: count}`` or from a list of items (repeats counted)."""
        counts: dict[str, int] = {}
        if isinstance(contents, Mapping):
            for item, count in contents.items():
                if not isinstance(item, str) or not isinstance(count, int) or isinstance(count, bool) or count < 0:
                    raise DataError(f"a pool holds a whole number of each named item, not {count!r} of {item!r}",
                                    source=f"pool {name}", location=str(item), field="count")
                counts[item] = counts.get(item, 0) + count
        else:
            for item in contents:
                if not isinstance(item, str):
                    raise DataError(f"pool items are names, not {item!r}", source=f"pool {name}", field="items")
                counts[item] = counts.get(item, 0) + 1
        entries = _entries(counts)
        return cls(name=name, full=entries, remaining=entries)

    @property
    def size(self) -> int:
        """How many items remain."""
        return sum(entry.count for entry in self.remaining)

    def count(self, item: str) -> int:
        """How many of ``item`` remain."""
        return next((entry.count for entry in self.remaining if entry.item == item), 0)

    def counts(self) -> dict[str, int]:
        return {entry.item: entry.count for entry in self.remaining}

    def items(self) -> tuple[str, ...]:
        """The remaining items in position order (position 1 first)."""
        return tuple(entry.item for entry in self.remaining for _ in range(entry.count))

    def item_at(self, position: int) -> str:
        """The item at ``position`` (1..size) in position order."""
        if not 1 <= position <= self.size:
            raise DiceError(f"pool {self.name!r} holds {self.size} items; there is no position {position}")
        for entry in self.remaining:
            if position <= entry.count:
                return entry.item
            position -= entry.count
        raise AssertionError("unreachable: position checked against the size")

    def first_position(self, item: str) -> int | None:
        """The position of the first remaining copy of ``item``; None when none remains."""
        position = 1
        for entry in self.remaining:
            if entry.item == item:
                return position
            position += entry.count
        return None

    def without(self, items: Iterable[str]) -> Pool:
        """The pool after ``items`` are taken out; a :class:`DataError` if one is not there.

        One walk over the sorted entries, keeping those nothing is taken from (a draw takes one item from a
        pool of many: Wings of Glory's damage decks fold a draw per hit); :meth:`_without_checked` when an
        item is missing, for its error."""
        items = tuple(items)
        taken: dict[str, int] = {}
        for item in items:
            taken[item] = taken.get(item, 0) + 1
        remaining = []
        for entry in self.remaining:
            count = taken.pop(entry.item, 0)
            if not count:
                remaining.append(entry)
            elif count < entry.count:
                remaining.append(PoolEntry(entry.item, entry.count - count))
            elif count > entry.count:
                return self._without_checked(items)
        if taken:
            return self._without_checked(items)
        return msgspec.structs.replace(self, remaining=tuple(remaining))

    def _without_checked(self, items: Iterable[str]) -> Pool:
        counts = self.counts()
        for item in items:
            if counts.get(item, 0) < 1:
                raise DataError(f"pool {self.name!r} has no {item!r} left to take", source=f"pool {self.name}",
                                field="items")
            counts[item] -= 1
        return msgspec.structs.replace(self, remaining=_entries(counts))

    def with_returned(self, items: Iterable[str]) -> Pool:
        """The pool after ``items`` are put back; a :class:`DataError` if that would hold more of an
        item than the full pool."""
        counts = self.counts()
        full = {entry.item: entry.count for entry in self.full}
        for item in items:
            counts[item] = counts.get(item, 0) + 1
            if counts[item] > full.get(item, 0):
                raise DataError(f"pool {self.name!r} holds at most {full.get(item, 0)} of {item!r}; cannot "
                                "take one more back", source=f"pool {self.name}", field="items")
        return msgspec.structs.replace(self, remaining=_entries(counts))

    def refilled(self) -> Pool:
        """The pool with every item back in it."""
        return msgspec.structs.replace(self, remaining=self.full)


class PoolView(msgspec.Struct, frozen=True):
    """A pool as a player sees it: its name and how many items remain (its contents are hidden)."""

    name: str
    size: int


def view_pool(pool: Pool) -> PoolView:
    """What any player may see of a pool (Wings of Glory: "token pools are hidden from everyone")."""
    return PoolView(name=pool.name, size=pool.size)


# ---------------------------------------------------------------- events


class PoolDrawn(Event, frozen=True, kw_only=True, tag="PoolDrawn"):
    """``items`` drawn from ``pool`` without replacement, in order, for everyone to see.

    ``faces`` are the dice faces that chose them (one per pick made from two or more items, see the
    module notes); ``size_before`` is how many items the pool held before the draw.
    """

    pool: str
    purpose: str
    drawer: str | None
    items: tuple[str, ...]
    faces: tuple[int, ...]
    size_before: int

    def tape_faces(self) -> tuple[int, ...]:
        return self.faces

    @property
    def count(self) -> int:
        return len(self.items)


class SecretPoolDrawn(SecretEvent, frozen=True, kw_only=True, tag="SecretPoolDrawn"):
    """A draw only ``owner`` sees: others see the pool, the purpose, ``count`` and a commitment.

    ``items`` and the ``faces`` that chose them are the secret fields.
    """

    secret_fields: ClassVar[tuple[str, ...]] = ("items", "faces")
    pool: str
    purpose: str
    drawer: str | None
    count: int
    size_before: int
    items: tuple[str, ...]
    faces: tuple[int, ...]

    def tape_faces(self) -> tuple[int, ...]:
        return self.faces


class PoolDrawRevealed(Event, frozen=True, kw_only=True, tag="PoolDrawRevealed"):
    """A secret draw turned face up; checkable against the commitment made when it was drawn."""

    pool: str
    owner: str
    items: tuple[str, ...]
    faces: tuple[int, ...]
    salt: str

    def check(self, expected_commitment: str) -> None:
        """Raise :class:`~aero_events.core.errors.SecretMismatch` unless these are the items committed to."""
        check_reveal({"items": self.items, "faces": self.faces}, self.salt, expected_commitment,
                     what=f"draw from {self.pool}")


def reveal_draw(secret: SecretPoolDrawn) -> PoolDrawRevealed:
    """The event that turns a secret draw face up (the referee state keeps the secret event whole)."""
    return PoolDrawRevealed(pool=secret.pool, owner=secret.owner, items=secret.items, faces=secret.faces,
                            salt=secret.salt)


class PoolReturned(Event, frozen=True, kw_only=True, tag="PoolReturned"):
    """``items`` put back into ``pool`` (Wings of Glory Sniper: "return the other, reshuffle")."""

    pool: str
    purpose: str
    items: tuple[str, ...]


class SecretPoolReturned(SecretEvent, frozen=True, kw_only=True, tag="SecretPoolReturned"):
    """Items put back unseen by all but ``owner``: others see the pool and ``count``."""

    secret_fields: ClassVar[tuple[str, ...]] = ("items",)
    pool: str
    purpose: str
    count: int
    items: tuple[str, ...]


class PoolRefilled(Event, frozen=True, kw_only=True, tag="PoolRefilled"):
    """Every item of ``pool`` put back (a deck gathered and reshuffled)."""

    pool: str
    purpose: str


POOL_EVENTS = (PoolDrawn, SecretPoolDrawn, PoolReturned, SecretPoolReturned, PoolRefilled)


# ---------------------------------------------------------------- drawing


class ManualDraw(ManualDice):
    """A table's dice *and* pool draws typed by name.

    Dice rolls work as :class:`~aero_events.core.dice.ManualDice`. A pool draw takes the names queued
    with :meth:`enter_items` (or asks ``ask_items(purpose, drawer, count, pool)``); each name must be an
    item still in the pool (after the ones drawn before it), else the draw is refused with a
    :class:`~aero_events.core.errors.DiceError` and nothing is used.
    """

    def __init__(self, ask: Callable[[str, str | None, int, int], Sequence[int]] | None = None,
                 ask_items: Callable[[str, str | None, int, Pool], Sequence[str]] | None = None):
        super().__init__(ask)
        self._ask_items = ask_items
        self._names: list[str] = []

    def enter_items(self, names: Iterable[str]) -> None:
        names = list(names)
        for name in names:
            if not isinstance(name, str) or not name:
                raise DiceError(f"a drawn item is given by its name, not {name!r}")
        self._names.extend(names)

    @property
    def remaining_items(self) -> int:
        return len(self._names)

    def draw_items(self, pool: Pool, count: int, purpose: str = "", drawer: str | None = None) -> list[str]:
        if self._names:
            if len(self._names) < count:
                raise DiceError(f"{purpose}: {count} items to draw, only {len(self._names)} entered")
            names = self._names[:count]
            check_names(pool, names, purpose)
            self._names = self._names[count:]
        elif self._ask_items is not None:
            names = list(self._ask_items(purpose, drawer, count, pool))
        else:
            raise DiceError(f"{purpose}: {count} items to draw from {pool.name!r} and none were entered")
        if len(names) != count:
            raise DiceError(f"{purpose}: {count} items to draw, {len(names)} given")
        return check_names(pool, names, purpose)


def check_names(pool: Pool, names: Sequence[str], purpose: str = "draw") -> list[str]:
    """Refuse a name that is not an item still in ``pool`` once the names before it are drawn.

    Returns the names, for chaining."""
    remaining = pool
    for name in names:
        if remaining.first_position(name) is None:
            left = ", ".join(sorted(remaining.counts())) or "nothing"
            raise DiceError(f"{purpose}: {name!r} is not in pool {pool.name!r} (it holds {left})")
        remaining = remaining.without((name,))
    return list(names)


def draw_from(cup: DiceCup, pool: Pool, count: int, *, purpose: str, drawer: str | None = None,
              secret_owner: str | None = None) -> PoolDrawn | SecretPoolDrawn:
    """Draw ``count`` items from ``pool`` without replacement through ``cup``'s source (module notes).

    The pool itself is not changed: apply the returned event with :func:`apply_to_pool`. With
    ``secret_owner`` the draw is a sealed :class:`SecretPoolDrawn`. A source with ``draw_items``
    (:class:`ManualDraw`) names the items instead of rolling for them.
    """
    if count < 0:
        raise DiceError(f"{purpose}: cannot draw {count} items")
    if count > pool.size:
        raise PoolExhausted(f"{purpose}: pool {pool.name!r} holds {pool.size} items; {count} cannot be drawn")
    items: list[str] = []
    faces: list[int] = []
    remaining = pool
    by_name = getattr(cup.source, "draw_items", None)
    if by_name is not None and count:
        for name in check_names(pool, by_name(pool, count, purpose, drawer), purpose):
            position = remaining.first_position(name)
            assert position is not None
            if remaining.size >= 2:
                faces.append(position)
            items.append(name)
            remaining = remaining.without((name,))
    else:
        for _ in range(count):
            position = 1
            if remaining.size >= 2:
                position = cup.source.draw(1, remaining.size, purpose, drawer)[0]
                faces.append(position)
            item = remaining.item_at(position)
            items.append(item)
            remaining = remaining.without((item,))
    event: Any
    if secret_owner is None:
        event = PoolDrawn(pool=pool.name, purpose=purpose, drawer=drawer, items=tuple(items), faces=tuple(faces),
                          size_before=pool.size)
    else:
        event = SecretPoolDrawn(owner=secret_owner, pool=pool.name, purpose=purpose, drawer=drawer, count=count,
                                size_before=pool.size, items=tuple(items), faces=tuple(faces))
        event = event.sealed(cup._salt(purpose))
    cup.rolled.append(event)
    return event


def put_back(cup: DiceCup, pool: Pool, items: Sequence[str], *, purpose: str,
             secret_owner: str | None = None) -> PoolReturned | SecretPoolReturned:
    """The event returning ``items`` to ``pool`` (secretly, seen only by ``secret_owner``, if given).

    Refused (:class:`DataError`) when the pool would then hold more of an item than when full."""
    pool.with_returned(items)
    if secret_owner is None:
        return PoolReturned(pool=pool.name, purpose=purpose, items=tuple(items))
    event = SecretPoolReturned(owner=secret_owner, pool=pool.name, purpose=purpose, count=len(items),
                               items=tuple(items))
    return event.sealed(cup._salt(purpose))


# ---------------------------------------------------------------- applying


def apply_to_pool(pool: Pool, event: Event) -> Pool:
    """The pool after one of the pool events (:data:`POOL_EVENTS`) that names it."""
    if not isinstance(event, POOL_EVENTS):
        raise TypeError(f"{type(event).__name__} is not a pool event")
    if event.pool != pool.name:
        raise DataError(f"a {event.type_name()} of pool {event.pool!r} applied to pool {pool.name!r}",
                        source=f"pool {pool.name}", field="pool")
    if isinstance(event, (PoolDrawn, SecretPoolDrawn)):
        return pool.without(event.items)
    if isinstance(event, (PoolReturned, SecretPoolReturned)):
        return pool.with_returned(event.items)
    return pool.refilled()


def evolve_pools(pools: Mapping[str, Pool], event: Event) -> dict[str, Pool] | None:
    """``pools`` (by name) after ``event``; None when ``event`` is not a pool event (so an evolve can chain)."""
    if not isinstance(event, POOL_EVENTS):
        return None
    if event.pool not in pools:
        raise DataError(f"no pool named {event.pool!r}", source="pools", field="pool")
    return {**pools, event.pool: apply_to_pool(pools[event.pool], event)}
