"""The steps of a recorded game, for any ruleset: where each command begins and ends, the dice it rolled
as a record writes them, and how a step is shown at the table (a secret order only as its commitment).

A *step* is one command and the events it caused. The words of a step are the ruleset's
(:meth:`~aero_events.core.interface.Notation.words`); what follows them is the record format's own:

* the dice the command rolled, one group per roll the rules asked of the dice, ``[label faces]``
  (``[hit 5,2,6]``), the label from the roll's purpose (:meth:`~aero_events.core.interface.Notation.dice_label`),
  ``[label d8:3,7]`` for a die of other than six sides. A draw from a pool (damage tokens, a deck: see
  :mod:`aero_events.core.pools`) is written as the dice that chose its items, one group per item picked
  from two or more, so a record replays it without the table's names;
* result marks (``=orks-1:X``): facts the ruleset derives (:meth:`~aero_events.core.interface.Notation.marks`).

Command boundaries come from the recorded commands (:class:`~aero_events.core.session.CommandIssued`);
a game recorded before commands were has them recovered by :mod:`aero_events.regress.decisions`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from aero_events.core import AeroError, Command, DiceCup, DiceRolled, SaltSource, SecretEvent, TapeDice
from aero_events.core.dice import faces_on_tape
from aero_events.core.events import Envelope, is_core_event
from aero_events.core.interface import NotationError as CoreNotationError
from aero_events.core.secrets import redact
from aero_events.core.session import SecretCommandIssued, issued_command

from .lexer import BRACKET, WORD, Token

_TURN_MARKER = re.compile(r"^(\d+)\.+$")


class NotationError(CoreNotationError):
    """A step or dice group of a record that cannot be read, at ``token`` (None: at the end of the text)."""

    def __init__(self, message: str, token: Token | None = None, offset: int = 0):
        super().__init__(message, None, offset)
        self.token = token

    def position(self) -> tuple[int, int] | None:
        return self.token.at(self.offset) if self.token is not None else None


# ---------------------------------------------------------------- words of a record


def is_turn_marker(token: Token) -> int | None:
    """The turn number of an unquoted marker like ``3.`` (or ``3...``), else None."""
    if token.kind != WORD or token.quoted:
        return None
    match = _TURN_MARKER.match(token.value)
    return int(match.group(1)) if match else None


def is_mark(token: Token) -> bool:
    """A result mark (``=@4,-2NW``, ``=orks-2:X``): compared as written with what the rules derive."""
    return token.kind == WORD and token.raw.startswith("=")


def is_dice_group(token: Token) -> bool:
    return token.kind == BRACKET and not token.value.lstrip().startswith("%")


def step_words(items: Sequence[Any], start: int) -> list[Token]:
    """The run of words from ``items[start]`` a step may use: it ends at anything that is not a plain word
    (a dice group, a comment, a variation, a result mark, a turn marker)."""
    words: list[Token] = []
    for item in items[start:]:
        if not isinstance(item, Token) or item.kind != WORD or is_mark(item) or is_turn_marker(item) is not None:
            break
        words.append(item)
    return words


# ---------------------------------------------------------------- dice


@dataclass(frozen=True)
class Roll:
    """One draw the rules made from the dice source: what for, the die's sides and the faces it gave."""

    purpose: str
    sides: int
    faces: tuple[int, ...]


def dice_text(label: str, sides: int, faces: Sequence[int]) -> str:
    """``[hit 5,2,6]``; a die of other than six sides says so: ``[x d8:3,7]``."""
    prefix = "" if sides == 6 else f"d{sides}:"
    return f"[{label} {prefix}{','.join(str(face) for face in faces)}]"


@dataclass(frozen=True)
class DiceGroup:
    """One roll as a record writes it: its label (None if left out), the dice's sides and the faces."""

    label: str | None
    sides: int
    faces: tuple[int, ...]
    token: Token


_GROUP = re.compile(r"^\s*(?:(?P<label>[A-Za-z][A-Za-z0-9_\-]*)\s+)?(?:d(?P<sides>\d+):)?(?P<faces>.*?)\s*$")


def read_dice_group(token: Token) -> DiceGroup:
    """A ``[label faces]`` token as a :class:`DiceGroup`; a face that is no die's face is refused where it
    stands (a D6 shows 1 to 6)."""
    match = _GROUP.match(token.value)
    assert match is not None  # the pattern matches any text
    sides = int(match.group("sides")) if match.group("sides") else 6
    faces_text = match.group("faces")
    start = match.start("faces") + 1  # +1: the token's raw text begins with "["
    if not faces_text:
        raise NotationError("a dice group needs the faces rolled, like [hit 5,2,6]", token)
    faces: list[int] = []
    for piece in re.finditer(r"[^,\s]+", faces_text):
        text = piece.group()
        offset = start + piece.start()
        if not text.isdigit():
            raise NotationError(f"{text!r} is not a die's face: faces are numbers, like [hit 5,2,6]", token, offset)
        face = int(text)
        if not 1 <= face <= sides:
            raise NotationError(f"a D{sides} shows 1 to {sides}; {face} is not a face", token, offset)
        faces.append(face)
    return DiceGroup(match.group("label"), sides, tuple(faces), token)


class _LoggedTape:
    """A tape of recorded faces that notes each draw the rules make from it."""

    def __init__(self, tape: TapeDice):
        self.tape = tape
        self.rolls: list[Roll] = []

    def draw(self, count: int, sides: int, purpose: str = "", roller: str | None = None) -> list[int]:
        faces = self.tape.draw(count, sides, purpose, roller)
        self.rolls.append(Roll(purpose, sides, tuple(faces)))
        return faces


def step_rolls(ruleset: Any, state: Any, command: Command, envelopes: Sequence[Envelope]) -> list[Roll]:
    """The draws ``command`` made from the dice source, in order, read from its recorded events.

    Plain rolls are read off their :class:`~aero_events.core.DiceRolled` events. A step with other draws (a
    pool, a scatter die, a secret roll) is decided again on a tape of its recorded faces, so that each draw
    is written as the rules asked for it (a pool draw is one die per item, its sides the items left)."""
    events = [env.event for env in envelopes]
    drawn = [event for event in events if faces_on_tape(event)]
    if all(type(event) is DiceRolled for event in drawn):
        return [Roll(event.purpose, event.sides, tuple(event.faces)) for event in drawn]
    logged = _LoggedTape(TapeDice.from_events(events))
    try:
        ruleset.decide(state, command, DiceCup(logged, 0, salts=SaltSource("record")))
    except AeroError as err:
        raise AeroError(f"the dice of {type(command).__name__} cannot be read back from its events: {err}") from err
    return logged.rolls


def rolls_text(notation: Any, rolls: Iterable[Roll]) -> list[str]:
    return [dice_text(notation.dice_label(roll.purpose), roll.sides, roll.faces) for roll in rolls if roll.faces]


# ---------------------------------------------------------------- commands and their events


@dataclass(frozen=True)
class Boundary:
    """One command of a line of play and the events it produced, ``first_seq`` to ``last_seq``."""

    command: Command
    first_seq: int
    last_seq: int


def command_boundaries(ruleset: Any, setup: Any, envelopes: Iterable[Envelope]) -> list[Boundary]:
    """The commands of a line of play and where each one's events lie.

    Each :class:`~aero_events.core.session.CommandIssued` (or its sealed form) starts a command, whose events
    run to the next one. Events before the first (a game recorded before commands were) are explained by
    :func:`aero_events.regress.decisions.recover_decisions`, which re-decides them."""
    envelopes = list(envelopes)
    first = next((i for i, env in enumerate(envelopes) if issued_command(env.event) is not None), len(envelopes))
    boundaries: list[Boundary] = []
    if first:
        from aero_events.regress.decisions import recover_decisions

        recovery = recover_decisions(ruleset, setup, envelopes[:first])
        boundaries += [Boundary(d.command, d.first_seq, d.last_seq) for d in recovery.decisions]
    starts = [i for i in range(first, len(envelopes)) if issued_command(envelopes[i].event) is not None]
    for number, index in enumerate(starts):
        stop = starts[number + 1] - 1 if number + 1 < len(starts) else len(envelopes) - 1
        command = ruleset.decode_command(issued_command(envelopes[index].event))
        boundaries.append(Boundary(command, envelopes[index].seq, envelopes[stop].seq))
    return boundaries


def is_secret_step(ruleset: Any, command: Command) -> bool:
    """A secret order: a command the ruleset calls secret (recorded sealed, as the session does)."""
    return bool(ruleset.is_secret_command(command))


def has_secrets(events: Iterable[Any]) -> bool:
    """Whether a step sealed secrets of the ruleset's (a draw face down, a hidden roll)."""
    return any(isinstance(event, SecretEvent) and not is_core_event(event) for event in events)


def commitment_of(events: Iterable[Any]) -> str:
    """The commitment a secret step shows others: its sealed command's, else its first secret's."""
    sealed = [event for event in events if isinstance(event, SecretEvent) and event.commitment]
    recorded = [event for event in sealed if isinstance(event, SecretCommandIssued)]
    chosen = (recorded or sealed)
    return chosen[0].commitment if chosen else ""


def secret_step_text(command: Command, subject: str | None, events: Sequence[Any]) -> str:
    """How a secret order is shown at the table: who gave one, and its commitment, never the order."""
    who = subject or command.player
    commitment = commitment_of(events)
    return f"{who}: an order given face down" + (f" (commitment {commitment[:12]})" if commitment else "")


def seen_line(ruleset: Any, event: Any, state: Any) -> str:
    """The narration of ``event`` as every player at the table may see it (a secret only as its
    commitment); '' for events the ruleset leaves out and for the session's own records."""
    if is_core_event(event):
        return ""
    shown = redact(event, None)
    if shown is not event:
        owner = getattr(shown, "owner", "?")
        return f"{owner}: {getattr(shown, 'secret_type', 'a secret')} kept face down " \
               f"(commitment {getattr(shown, 'commitment', '')[:12]})"
    if type(event) is DiceRolled:
        return ""
    return ruleset.describe_event(event, state)
