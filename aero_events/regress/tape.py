"""The dice and salts of a recorded game, handed back in order when it is played again.

A regression re-run plays a game's recorded decisions under other rules with the game's own dice: the
faces of its rolls and draws (``faces_on_tape``), in order (:class:`RegressionDice`, a :class:`TapeDice`).
Rules that roll more dice than the record holds get the extra faces from a seeded source, counted in
``extra_faces`` and ``extra_rolls`` so the report can say how many the new rules needed.

The salts of the ruleset's secret events (Aeronautica's Manoeuvre tokens) are replayed the same way
(:class:`RecordedSalts`, a salt tape), so a token chosen again is sealed with the salt it had, and its event is
byte-identical to the recorded one; so are the salts of the session's sealed commands (``SecretCommandIssued``,
the tape's :meth:`~RecordedSalts.derived` stream). Re-deciding a game never regenerates a salt: a game played
with random salts (every game but those that declare ``reproducible_salts``, issue 16) regresses
identically.

Both keep their position in plain attributes, which :class:`~aero_events.core.session.GameSession`
saves and restores around a command the rules refuse: a refused command consumes no die and no salt.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from aero_events.core import Envelope, SecretEvent, SeededDice, TapeDice
from aero_events.core.dice import faces_on_tape
from aero_events.core.secrets import SaltSource


class _ExtraDice:
    """The fallback of a :class:`RegressionDice`: each extra roll draws from its own seeded stream,
    ``SeededDice(f"{seed}:extra:{n}")`` for the tape's n-th extra roll, so the faces depend only on how
    many extra rolls came before (the tape restores that count when a command is refused)."""

    def __init__(self, tape: RegressionDice, seed: int | str):
        self._tape = tape
        self.seed = seed

    def draw(self, count: int, sides: int, purpose: str = "", roller: str | None = None) -> list[int]:
        return SeededDice(f"{self.seed}:extra:{self._tape.extra_rolls}").draw(count, sides, purpose, roller)


class RegressionDice(TapeDice):
    """A game's recorded faces in order, then seeded extra faces (counted) once the record runs out.

    ``start`` skips faces already used (the recovery of decisions walks the tape command by command).
    """

    def __init__(self, faces: Iterable[int], seed: int | str = 0, start: int = 0):
        super().__init__(faces, fallback=None)
        self.fallback = _ExtraDice(self, seed)
        self._pos = start

    @property
    def position(self) -> int:
        """How many recorded faces have been used."""
        return self._pos

    @property
    def recorded(self) -> int:
        """How many faces the record holds."""
        return len(self._faces)


class RecordedSalts(SaltSource):
    """The salts of a game's secret choices in recorded order, then seeded ones (counted in ``extra``).

    ``command_salts`` are the salts of the recorded sealed commands, in order: the stream a session seals
    commands with (:meth:`derived`, as :class:`~aero_events.core.session.GameSession` asks for it)."""

    def __init__(self, salts: Sequence[str], seed: int | str = "regress", start: int = 0,
                 command_salts: Sequence[str] = (), command_start: int = 0):
        super().__init__(f"{seed}:extra-salts")
        self._seed_text = str(seed)
        self._recorded = tuple(salts)
        self._next = start
        self._command_salts = tuple(command_salts)
        self._command_start = command_start
        self.extra = 0

    def derived(self, label: str) -> RecordedSalts:
        """The recorded sealed commands' salts (then seeded ones), for the session's ``derived("commands")``."""
        return RecordedSalts(self._command_salts, seed=f"{label}:{self._seed_text}", start=self._command_start)

    @property
    def position(self) -> int:
        return self._next

    def next(self) -> str:
        if self._next < len(self._recorded):
            salt = self._recorded[self._next]
            self._next += 1
            return salt
        self.extra += 1
        return super().next()


def recorded_faces(envelopes: Iterable[Envelope]) -> list[int]:
    """Every face the record drew from its dice source, in order: rolls (plain, secret, scatter) and the
    faces that chose pool draws (:func:`~aero_events.core.dice.faces_on_tape`)."""
    faces: list[int] = []
    for envelope in envelopes:
        faces.extend(faces_on_tape(envelope.event))
    return faces


def recorded_command_salts(envelopes: Iterable[Envelope]) -> list[str]:
    """The salt of every sealed command (``SecretCommandIssued``) in the record, in order."""
    return [envelope.event.salt for envelope in envelopes
            if isinstance(envelope.event, SecretEvent) and envelope.event.salt and envelope.event.core_event]


def recorded_salts(envelopes: Iterable[Envelope]) -> list[str]:
    """The salt of every sealed secret event of the ruleset in the record (Manoeuvre tokens), in order; the
    salts of sealed commands (``SecretCommandIssued``, a core event) come from the session's own stream."""
    return [envelope.event.salt for envelope in envelopes
            if isinstance(envelope.event, SecretEvent) and envelope.event.salt and not envelope.event.core_event]
