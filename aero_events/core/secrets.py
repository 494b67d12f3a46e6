"""Hidden choices: commitments now, reveals later (DESIGN.md, contract 7).

A secret choice (an Ace Manoeuvre placed face down, p.13) is recorded as a
:class:`SecretEvent` holding the choice, a salt and the commitment
``sha256(canonical choice || salt)``. The owner's view shows the event whole;
every other player's view shows a :class:`Redacted` copy that keeps only the
public fields and the commitment. When the choice is revealed,
:func:`check_reveal` proves it is the one committed to.

Salts come from a :class:`SaltSource`. A salt must be a secret the opponent does not
have: with at most eight manoeuvres to choose from, anyone who can compute the salt
recovers the hidden choice from the commitment by trying them all. So:

* :meth:`SaltSource.for_player`: salts derived (HMAC-SHA256) from a player's own key,
  random per game (:func:`new_player_key`) and kept out of every other player's view and
  of every export; the owner can re-derive them, nobody else can.
* ``SaltSource()``: random salts from the OS (a game at a real table).
* ``SaltSource(seed)``: salts derived from a seed. Anyone who knows the seed (it is in a
  seeded game's id and metadata) knows every salt: only for games that must be reproduced
  from their seed alone, bot simulations, which say so in their metadata
  (``"reproducible_salts": true``, :data:`REPRODUCIBLE_SALTS`); :meth:`SaltSource.for_game`
  chooses accordingly.
"""

from __future__ import annotations

import hashlib
import hmac
import importlib
import os
from typing import Any, ClassVar

import msgspec

from .errors import SecretMismatch
from .events import Event

_canonical = msgspec.json.Encoder(order="sorted")


def _short_input_sha256() -> Any:
    """The SHA-256 constructor cheapest for a commitment's few dozen bytes: CPython's own (``_sha256`` in 3.11,
    ``_sha2`` from 3.12), about a fifth cheaper than OpenSSL's (``hashlib.sha256``) there, where setting up
    the OpenSSL context costs more than hashing 48 bytes (issue 18: every replay checks every revealed token);
    ``hashlib.sha256`` where neither is built. The same SHA-256: the same digests."""
    for module in ("_sha256", "_sha2"):
        try:
            return importlib.import_module(module).sha256
        except (ImportError, AttributeError):
            continue
    return hashlib.sha256


#: The SHA-256 every commitment is made and checked with (:func:`_short_input_sha256`).
commitment_sha256 = _short_input_sha256()


def canonical_json(choice: Any) -> bytes:
    """The canonical JSON of ``choice`` (keys sorted) that a commitment hashes."""
    return _canonical.encode(choice)


def commitment(choice: Any, salt: str) -> str:
    """sha256 (hex) of the canonical JSON of ``choice`` followed by ``salt``."""
    return commitment_sha256(_canonical.encode(choice) + salt.encode()).hexdigest()


def commitment_to_canonical(canonical: bytes, salt: str) -> str:
    """:func:`commitment` of a choice whose :func:`canonical_json` is ``canonical`` (already encoded once)."""
    return commitment_sha256(canonical + salt.encode()).hexdigest()


def check_reveal(choice: Any, salt: str, expected: str, *, what: str = "choice") -> None:
    """Raise :class:`SecretMismatch` unless ``choice`` and ``salt`` match ``expected``."""
    if commitment(choice, salt) != expected:
        raise SecretMismatch(f"the revealed {what} does not match the one committed to when it was chosen")


#: The metadata key by which a game declares its salts derived from its (public) seed: bot simulations
#: that must be byte-identical when re-run from the seed alone. Their commitments hide nothing.
REPRODUCIBLE_SALTS = "reproducible_salts"

#: Bytes of a player's salt key.
PLAYER_KEY_BYTES = 32


def new_player_key() -> bytes:
    """A fresh random key for one player in one game (never stored where another player can read it)."""
    return os.urandom(PLAYER_KEY_BYTES)


class SaltSource:
    """Salts for commitments: from a player's secret key, from the OS (both unguessable), or from a seed
    (reproducible, and therefore public: see the module docstring)."""

    def __init__(self, seed: int | str | None = None, *, key: bytes | None = None):
        if key is not None and seed is not None:
            raise ValueError("a salt source has a seed or a key, not both")
        if key is not None and len(key) < 16:
            raise ValueError(f"a salt key needs at least 16 bytes, got {len(key)}")
        self._seed = None if seed is None else str(seed).encode()
        self._key = key
        self._counter = 0

    @classmethod
    def for_player(cls, key: bytes) -> SaltSource:
        """Salts only the holder of ``key`` (a :func:`new_player_key`) can derive: HMAC-SHA256(key, counter)."""
        return cls(key=key)

    @classmethod
    def for_game(cls, metadata: dict | None, seed: int | str | None = None) -> SaltSource:
        """The salts a session uses by default: derived from ``seed`` only when the game's metadata says
        ``"reproducible_salts": true`` (and there is a seed), random otherwise."""
        if seed is not None and metadata and metadata.get(REPRODUCIBLE_SALTS) is True:
            return cls(seed)
        return cls()

    @property
    def reproducible(self) -> bool:
        """True when anyone who knows the seed can compute these salts."""
        return self._seed is not None

    def derived(self, label: str) -> SaltSource:
        """A second, independent stream: from this one's seed or key and ``label`` (random when this is).

        The session seals secret commands with it, so the ruleset's own salts are the same whether or not
        commands are recorded."""
        if self._key is not None:
            return SaltSource(key=hmac.new(self._key, b"derived:" + label.encode(), hashlib.sha256).digest())
        return SaltSource(None if self._seed is None else f"{label}:{self._seed.decode()}")

    def mark(self) -> int:
        """How many salts this source has given, for :meth:`restore` (a session undoing a refused command,
        :func:`~aero_events.core.dice.mark_position`); its seed or key never change."""
        return self._counter

    def restore(self, mark: int) -> None:
        self._counter = mark

    def next(self) -> str:
        if self._key is not None:
            self._counter += 1
            return hmac.new(self._key, b"salt:" + self._counter.to_bytes(8, "big"), hashlib.sha256).hexdigest()[:32]
        if self._seed is None:
            return os.urandom(16).hex()
        self._counter += 1
        return commitment_sha256(b"salt:" + self._seed + self._counter.to_bytes(8, "big")).hexdigest()[:32]


class SecretEvent(Event, frozen=True, kw_only=True):
    """An event whose ``secret_fields`` only its ``owner`` may see before the reveal.

    Subclasses list their secret fields; ``salt`` and ``commitment`` are filled by
    :meth:`sealed`.
    """

    secret_fields: ClassVar[tuple[str, ...]] = ()
    abstract_event: ClassVar[bool] = True
    owner: str
    salt: str = ""
    commitment: str = ""

    def secret_payload(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.secret_fields}

    def sealed(self, salt: str) -> SecretEvent:
        """A copy carrying ``salt`` and the commitment to its secret fields."""
        return msgspec.structs.replace(self, salt=salt, commitment=commitment(self.secret_payload(), salt))


class RedactedEvent(Event, frozen=True, tag="Redacted"):
    """A secret event as another player sees it: type, owner, public fields and commitment.

    It only ever appears in a player's view of the log, never in the store.
    """

    secret_type: str
    owner: str
    commitment: str
    public: dict[str, Any]


def redact(event: Event, viewer: str | None) -> Event:
    """The event as ``viewer`` may see it. ``viewer=None`` is a spectator: sees no secrets."""
    if not isinstance(event, SecretEvent) or event.owner == viewer:
        return event
    hidden = set(event.secret_fields) | {"salt"}
    public = {
        name: getattr(event, name)
        for name in event.__struct_fields__
        if name not in hidden and name not in ("owner", "commitment")
    }
    return RedactedEvent(secret_type=event.type_name(), owner=event.owner, commitment=event.commitment, public=public)
