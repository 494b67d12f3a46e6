"""A bot that picks uniformly among the legal commands, with a random stream that never changes.

Its choices become decision events, so a seeded bot game must choose the same way on
every Python version: :class:`StableRandom` uses SHA-256 in counter mode (as the
seeded dice do) rather than the ``random`` module.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from aero_events.core.secrets import commitment_sha256

T = TypeVar("T")

#: SHA-256 for the stream's 16-odd-byte inputs: the cheapest constructor of the same digest
#: (:func:`~aero_events.core.secrets.commitment_sha256`).
_sha256 = commitment_sha256
_WORD_SPAN = 1 << 64


class StableRandom:
    """Uniform integers from ``SHA-256(seed || counter)``, by rejection sampling on 64-bit words.

    Word ``i`` is the first 8 bytes (big-endian) of SHA-256 of the seed's UTF-8 followed by ``i`` as 8 bytes
    big-endian; ``below(n)`` takes words until one is below the largest multiple of ``n`` up to 2**64 and
    returns it modulo ``n``."""

    def __init__(self, seed: int | str):
        self._seed = str(seed).encode()
        self._counter = 0

    def _word(self) -> int:
        digest = _sha256(self._seed + self._counter.to_bytes(8, "big")).digest()
        self._counter += 1
        return int.from_bytes(digest[:8], "big")

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        if n <= 1:
            if n == 1:  # every word is below 2**64 and every word % 1 is 0: one word used, none hashed
                self._counter += 1
                return 0
            raise ValueError("below() needs a positive bound")
        limit = _WORD_SPAN - _WORD_SPAN % n
        seed, counter = self._seed, self._counter
        while True:  # _word() written out: one choice a command (issue 18)
            word = int.from_bytes(_sha256(seed + counter.to_bytes(8, "big")).digest()[:8], "big")
            counter += 1
            if word < limit:
                self._counter = counter
                return word % n

    def choice(self, options: Sequence[T]) -> T:
        return options[self.below(len(options))]


class RandomBot:
    """Chooses uniformly among ``legal_commands``: the baseline every other bot must beat."""

    name = "random"

    def __init__(self, seed: int | str = 0):
        self.random = StableRandom(f"random-bot:{seed}")

    def choose(self, session: Any, player: str, options: Sequence[Any]) -> Any:
        return self.random.choice(options)
