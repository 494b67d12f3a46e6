"""A bot that picks uniformly among the legal commands, with a random stream that never changes.

Its choices become decision events, so a seeded bot game must choose the same way on
every Python version: :class:`StableRandom` uses SHA-256 in counter mode (as the
seeded dice do) rather than the ``random`` module.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any, TypeVar

T = TypeVar("T")


class StableRandom:
    """Uniform integers from ``SHA-256(seed || counter)``, by rejection sampling on 64-bit words."""

    def __init__(self, seed: int | str):
        self._seed = str(seed).encode()
        self._counter = 0

    def _word(self) -> int:
        digest = hashlib.sha256(self._seed + self._counter.to_bytes(8, "big")).digest()
        self._counter += 1
        return int.from_bytes(digest[:8], "big")

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        if n == 1:  # every word is below 2**64 and every word % 1 is 0: one word used, none hashed
            self._counter += 1
            return 0
        limit = (1 << 64) - (1 << 64) % n
        while True:
            word = self._word()
            if word < limit:
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
