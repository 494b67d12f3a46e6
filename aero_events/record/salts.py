"""The salts of the sealed secrets of a recorded game, derived so that a record need not carry them.

A secret (a face-down Manoeuvre token, a secret draw, a secret order's recorded command) is an event
sealed with a salt (core/secrets.py, contract 7); the state keeps the salt and the commitment, so replaying
a game to the same events needs the same salts. A record names one *salt seed* (the ``[Salts "..."]``
header). Two streams derive from it per branch B, as a :class:`~aero_events.core.session.GameSession`
uses them:

* the ruleset's secrets: the k-th of branch B's own events (k from 1) is sealed with the k-th salt of
  ``SaltSource(f"{seed}:{B}")``, which is exactly what a session seeded with ``SeededDice(seed)`` uses
  on its main branch;
* the recorded secret commands (:class:`~aero_events.core.session.SecretCommandIssued`): the k-th with
  the k-th salt of the session's ``salts.derived("commands")``.

A salt that differs (a game played with random salts) is written with its step (``M7~salt``, or ``~salt``
words; in order: the recorded command's, then the ruleset's) and used instead, still counting as the k-th.

A table game recorded by ``aero record`` draws its salt seed at random (``metadata["salt_seed"]``): the
store and a full export (the organiser's copy) keep it so the game can be resumed and re-read; a player's
copy (``aero export --player``) leaves it out, so the commitments in it cannot be opened by trying every
choice.
"""

from __future__ import annotations

from aero_events.core import SaltSource, SecretEvent
from aero_events.core.events import is_core_event
from aero_events.core.session import Branch, SecretCommandIssued

COMMANDS = "commands"


class RecordSalts(SaltSource):
    """The salts of one branch: derived from ``seed`` and the branch name, the next ones replaceable by
    explicit salts (:meth:`use_next`). ``start`` is how many ruleset secrets the branch already holds,
    ``command_start`` how many secret commands (for the stream :meth:`derived` gives the session)."""

    def __init__(self, seed: str, branch: str, start: int = 0, *, command_start: int = 0, label: str | None = None):
        super().__init__(f"{seed}:{branch}" if label is None else f"{label}:{seed}:{branch}")
        self.seed_text = seed
        self.branch = branch
        self.command_start = command_start
        self._counter = start
        self._explicit: list[str] = []

    def use_next(self, salts: list[str]) -> None:
        """The next secrets are sealed with these salts (a record's ``M7~salt``)."""
        self._explicit = list(salts)

    def unused(self) -> list[str]:
        """The salts given by :meth:`use_next` that no secret has taken yet."""
        return list(self._explicit)

    def next(self) -> str:
        derived = super().next()
        if self._explicit:
            return self._explicit.pop(0)
        return derived

    def derived(self, label: str) -> RecordSalts:
        """The stream the session seals recorded secret commands with (as ``SaltSource.derived``), which
        also takes explicit salts."""
        return RecordSalts(self.seed_text, self.branch, self.command_start, label=label)


def is_salt(text: str) -> bool:
    """Whether ``text`` is a salt as the engine makes them (:class:`~aero_events.core.secrets.SaltSource`): 32
    lowercase hex digits, 128 bits. A shorter one (an empty ``~``) would seal a secret that anyone could open by
    trying every choice."""
    return len(text) == 32 and all(char in "0123456789abcdef" for char in text)


def derived_salt(seed: str, branch: str, k: int, label: str | None = None) -> str:
    """The salt of the k-th secret (from 1) of ``branch``'s own events under ``seed`` (``label``
    ``"commands"``: of its k-th secret command)."""
    source = RecordSalts(seed, branch, k - 1, label=label)
    return source.next()


def is_command_secret(event: object) -> bool:
    return isinstance(event, SecretCommandIssued)


def is_ruleset_secret(event: object) -> bool:
    """A sealed secret of the ruleset's own (not the session's record of a secret command)."""
    return isinstance(event, SecretEvent) and bool(event.salt) and not is_core_event(event)


def own_secrets(branch: Branch) -> int:
    """How many sealed secret events of the ruleset the branch holds after its fork point."""
    return sum(1 for env in branch.own if is_ruleset_secret(env.event))


def own_secret_commands(branch: Branch) -> int:
    """How many sealed secret commands the branch holds after its fork point."""
    return sum(1 for env in branch.own if is_command_secret(env.event))


def branch_salts(seed: str, branch: Branch) -> RecordSalts:
    """The salts a session going on with ``branch`` uses next."""
    return RecordSalts(seed, branch.id, own_secrets(branch), command_start=own_secret_commands(branch))
