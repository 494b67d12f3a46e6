"""Events: immutable, tagged, versioned facts, and the envelope that places them in a game.

Every event type is a frozen msgspec Struct with a stable tag (its ``type`` on the
wire) and a schema version. Subclassing :class:`Event` registers the type; an
event stored at an older version is upcast on decode by the functions registered
with :func:`upcaster`, never rewritten in place (DESIGN.md, contract 1).

Payloads are JSON (msgspec): compact enough, and readable with DuckDB's JSON
functions during analysis.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Union

import msgspec

from .errors import DataError

# ---------------------------------------------------------------- the base


class Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", omit_defaults=True):
    """Base of every event.

    Subclasses give a stable tag, e.g. ``class DiceRolled(Event, tag="DiceRolled")``,
    and set ``version`` when their payload changes shape (registering an upcaster
    from the previous version).
    """

    version: ClassVar[int] = 1
    #: True on a base class that is never an event itself (set in its own class body).
    abstract_event: ClassVar[bool] = True
    #: True for the events the session records about a game rather than the ruleset's own facts
    #: (:class:`~aero_events.core.session.StateCheckpoint`, :class:`~aero_events.core.session.CommandIssued`):
    #: they change no state, and every fold skips them (:func:`is_core_event`).
    core_event: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "abstract_event" not in cls.__dict__:
            cls.abstract_event = False
        EVENT_TYPES.mark_stale()

    @classmethod
    def type_name(cls) -> str:
        return cls.__struct_config__.tag  # type: ignore[return-value]


def is_core_event(event: Event) -> bool:
    """True for an event the session records about the game (a state checkpoint, an issued command) rather
    than a fact of the ruleset: it changes no state, so every fold (the session, the store, viz, analysis)
    skips it, and a ruleset's ``evolve`` never sees one (:class:`~aero_events.core.decider.Ruleset`)."""
    return type(event).core_event


Upcaster = Callable[[dict[str, Any]], dict[str, Any]]


class EventRegistry:
    """Every event type by tag, with the upcasters that bring old payloads forward."""

    def __init__(self) -> None:
        self._types: dict[str, type[Event]] = {}
        self._upcasters: dict[tuple[str, int], Upcaster] = {}
        self._decoders: dict[str, msgspec.json.Decoder] = {}
        self._union_decoder: msgspec.json.Decoder | None = None
        self._stale = True

    def mark_stale(self) -> None:
        """A new Event subclass was defined: rescan before the next lookup."""
        self._stale = True

    def _scan(self) -> None:
        """Register every concrete Event subclass by its tag (msgspec sets tags after class creation,
        so registration happens lazily here rather than in ``__init_subclass__``)."""
        pending = list(Event.__subclasses__())
        while pending:
            cls = pending.pop()
            pending.extend(cls.__subclasses__())
            if cls.abstract_event:
                continue
            name = cls.type_name()
            existing = self._types.get(name)
            if existing is not None and existing is not cls:
                if existing.__module__ == cls.__module__ and existing.__qualname__ == cls.__qualname__:
                    pass  # the same module imported twice (e.g. by pytest): keep the newer class
                else:
                    raise TypeError(f"event tag {name!r} is used by both {existing.__qualname__} "
                                    f"and {cls.__qualname__}")
            if existing is not cls:
                _current_decoders.clear()
                self._types[name] = cls
                self._decoders.pop(name, None)
                self._union_decoder = None
        self._stale = False

    def __contains__(self, name: str) -> bool:
        if self._stale:
            self._scan()
        return name in self._types

    def __getitem__(self, name: str) -> type[Event]:
        if self._stale:
            self._scan()
        try:
            return self._types[name]
        except KeyError:
            raise KeyError(f"unknown event type {name!r}; is its ruleset imported?") from None

    def names(self) -> list[str]:
        if self._stale:
            self._scan()
        return sorted(self._types)

    def add_upcaster(self, name: str, from_version: int, fn: Upcaster) -> None:
        self._upcasters[(name, from_version)] = fn

    def current_version(self, name: str) -> int:
        return self[name].version

    def upcast(self, name: str, version: int, payload: dict[str, Any]) -> dict[str, Any]:
        """Apply upcasters from ``version`` up to the current version of ``name``."""
        current = self.current_version(name)
        while version < current:
            step = self._upcasters.get((name, version))
            if step is None:
                raise KeyError(f"no upcaster for {name} from version {version} to {version + 1}")
            payload = step(payload)
            version += 1
        if version > current:
            raise ValueError(f"{name} stored at version {version}, newer than this engine's {current}")
        return payload

    def decoder(self, name: str) -> msgspec.json.Decoder:
        dec = self._decoders.get(name)
        if dec is None:
            dec = self._decoders[name] = msgspec.json.Decoder(self[name])
        return dec

    def union_decoder(self) -> msgspec.json.Decoder:
        """A decoder for any registered event (tagged union on ``type``)."""
        if self._stale:
            self._scan()
        if self._union_decoder is None:
            types = tuple(self._types.values())
            self._union_decoder = msgspec.json.Decoder(Union[types] if len(types) > 1 else types[0])  # noqa: UP007
        return self._union_decoder


EVENT_TYPES = EventRegistry()


def upcaster(name: str, from_version: int) -> Callable[[Upcaster], Upcaster]:
    """Decorator: register ``fn`` to turn a ``name`` payload at ``from_version`` into ``from_version + 1``."""

    def register(fn: Upcaster) -> Upcaster:
        EVENT_TYPES.add_upcaster(name, from_version, fn)
        return fn

    return register


# ---------------------------------------------------------------- encoding

_encoder = msgspec.json.Encoder()


def encode_event(event: Event) -> bytes:
    """The event's payload as JSON bytes (includes its ``type`` tag)."""
    return _encoder.encode(event)


#: (type, current version) -> decoder; the fast path of decode_event. Cleared when types change.
_current_decoders: dict[tuple[str, int], msgspec.json.Decoder] = {}


def decode_event(name: str, version: int, payload: bytes | str) -> Event:
    """Decode a stored payload of type ``name`` written at schema ``version``.

    The current version decodes straight into its Struct; an older one is read
    as a plain mapping, upcast step by step, then converted and validated.
    """
    current = _current_decoders.get((name, version))
    if current is not None:
        return current.decode(payload)
    if isinstance(payload, str):
        payload = payload.encode()
    cls = EVENT_TYPES[name]
    if version == cls.version:
        decoder = _current_decoders[(name, version)] = EVENT_TYPES.decoder(name)
        return decoder.decode(payload)
    raw = msgspec.json.decode(payload)
    if not isinstance(raw, dict):
        raise DataError("payload is not a JSON object", source=name, field="payload")
    raw = EVENT_TYPES.upcast(name, version, raw)
    raw["type"] = name
    return msgspec.convert(raw, cls)


# ---------------------------------------------------------------- the envelope


class Envelope(msgspec.Struct, frozen=True, gc=False):
    """Where an event stands: which game and branch, its sequence number, the turn
    and phase it happened in, and who acted (None for the game itself).

    Not tracked by the garbage collector (``gc=False``): an envelope only points at strings, ints and its
    event, never back at itself, and a game keeps one per event, so tracking them would only lengthen
    every collection. Its fields may be given in order (the session does: a third quicker than by name,
    issue 18); the encoding is the same either way (an object with these keys)."""

    game_id: str
    branch_id: str
    seq: int
    turn: int
    phase: str
    actor: str | None
    event: Event

    @property
    def type(self) -> str:
        return self.event.type_name()


class EnvelopeRecord(msgspec.Struct, frozen=True, kw_only=True):
    """The storable form of an envelope: the payload kept as raw JSON, with its type and
    schema version beside it so that it can be upcast when read (JSON Lines export, the store)."""

    game_id: str
    branch_id: str
    seq: int
    turn: int
    phase: str
    actor: str | None
    type: str
    version: int
    payload: msgspec.Raw

    @classmethod
    def from_envelope(cls, env: Envelope) -> EnvelopeRecord:
        return cls(
            game_id=env.game_id,
            branch_id=env.branch_id,
            seq=env.seq,
            turn=env.turn,
            phase=env.phase,
            actor=env.actor,
            type=env.event.type_name(),
            version=type(env.event).version,
            payload=msgspec.Raw(encode_event(env.event)),
        )

    def to_envelope(self) -> Envelope:
        return Envelope(
            game_id=self.game_id,
            branch_id=self.branch_id,
            seq=self.seq,
            turn=self.turn,
            phase=self.phase,
            actor=self.actor,
            event=decode_event(self.type, self.version, bytes(self.payload)),
        )
