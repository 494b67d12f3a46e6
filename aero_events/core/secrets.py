"""Hidden choices: commitments now, reveals later (DESIGN.md, contract 7).

A secret choice (an Ace Manoeuvre placed face down, p.13) is recorded as a
:class:`SecretEvent` holding the choice, a salt and the commitment
``sha256(canonical choice || salt)``. The owner's view shows the event whole;
every other player's view shows a :class:`Redacted` copy that keeps only the
public fields and the commitment. When the choice is revealed,
:func:`check_reveal` proves it is the one committed to.

Salts come from a :class:`SaltSource`: seeded (so that a seeded game is
byte-identical when replayed from its seed) or random (a game at a real table).
"""

from __future__ import annotations

import hashlib
import os
from typing import Any, ClassVar

import msgspec

from .errors import SecretMismatch
from .events import Event

_canonical = msgspec.json.Encoder(order="sorted")


def commitment(choice: Any, salt: str) -> str:
    """sha256 (hex) of the canonical JSON of ``choice`` followed by ``salt``."""
    return hashlib.sha256(_canonical.encode(choice) + salt.encode()).hexdigest()


def check_reveal(choice: Any, salt: str, expected: str, *, what: str = "choice") -> None:
    """Raise :class:`SecretMismatch` unless ``choice`` and ``salt`` match ``expected``."""
    if commitment(choice, salt) != expected:
        raise SecretMismatch(f"the revealed {what} does not match the one committed to when it was chosen")


class SaltSource:
    """Salts for commitments: derived from a seed (reproducible) or from the OS (unguessable)."""

    def __init__(self, seed: int | str | None = None):
        self._seed = None if seed is None else str(seed).encode()
        self._counter = 0

    def next(self) -> str:
        if self._seed is None:
            return os.urandom(16).hex()
        self._counter += 1
        return hashlib.sha256(b"salt:" + self._seed + self._counter.to_bytes(8, "big")).hexdigest()[:32]


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
