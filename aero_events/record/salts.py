"""The salts of Manoeuvre-token commitments in a recorded game, derived so that a record need not carry them.

A Manoeuvre token is a secret event sealed with a salt (core/secrets.py, contract 7); the state keeps the
salt and the commitment, so replaying a game to the same state hashes needs the same salts. A record
names one *salt seed* (the ``[Salts "..."]`` header); the k-th secret of branch B's own events (k from 1)
is sealed with the k-th salt of ``SaltSource(f"{seed}:{B}")``, which is exactly what a session seeded
with ``SeededDice(seed)`` uses on its main branch. A salt that differs (a game played with random salts)
is written after its token (``M7~salt``) and used instead, still counting as the k-th.

At a real table the tokens are physical, face down until revealed: the secret is kept by the table, and
the recorder only notes the choices once both players have made them. So a table game's salts are derived
from its id (``metadata["salt_seed"]``): predictable, which costs nothing there.
"""

from __future__ import annotations

from aero_events.core import SaltSource, SecretEvent
from aero_events.core.session import Branch


class RecordSalts(SaltSource):
    """The salts of one branch: derived from ``seed`` and the branch name, the next one replaceable by an
    explicit salt (:meth:`use_next`). ``start`` is how many secrets the branch already holds."""

    def __init__(self, seed: str, branch: str, start: int = 0):
        super().__init__(f"{seed}:{branch}")
        self._counter = start
        self._explicit: list[str] = []

    def use_next(self, salts: list[str]) -> None:
        """The next secrets are sealed with these salts (a record's ``M7~salt``)."""
        self._explicit = list(salts)

    def next(self) -> str:
        derived = super().next()
        if self._explicit:
            return self._explicit.pop(0)
        return derived


def derived_salt(seed: str, branch: str, k: int) -> str:
    """The salt of the k-th secret (from 1) of ``branch``'s own events under ``seed``."""
    source = SaltSource(f"{seed}:{branch}")
    source._counter = k - 1
    return source.next()


def own_secrets(branch: Branch) -> int:
    """How many sealed secret events the branch holds after its fork point."""
    return sum(1 for env in branch.own if isinstance(env.event, SecretEvent) and env.event.salt)
