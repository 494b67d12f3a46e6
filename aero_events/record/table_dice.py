"""The dice of a game at a real table: asked for roll by roll, checked, retried; or rolled on screen.

The core's :class:`~aero_events.core.dice.ManualDice` asks once and raises on a bad answer, which would
abandon the whole command. :class:`TableDice` wraps the same check (:func:`~aero_events.core.dice.check_faces`:
the number of dice the rule needs, faces 1..6, p.7) in a loop: a wrong count or face is refused with a
clear message and asked again, and nothing is recorded until the command has all its dice.

At the prompt a player types the faces as rolled (``5 2 6``, ``5,2,6``, or ``526`` for several dice),
``r`` to have this one roll made on screen, ``cancel`` to take back the command being entered
(:class:`CommandCancelled`; the session keeps nothing of it), or ``quit`` to stop recording
(:class:`Stop`; the command being entered is not recorded). With ``digital`` every roll is made on
screen, for groups who play without dice, and the faces are shown as rolled.

A direction roll (a scatter arrow, a random heading: a die of
:data:`~aero_events.core.dice.DIRECTION_SIDES` faces) is asked for as the heading read at the table, in
degrees clockwise from north to the hundredth (``135``, ``272.5``).

Items drawn from a pool (damage tokens from a cup, cards from a deck: :mod:`aero_events.core.pools`) are
typed by name, unseen (``ask_secret``: a token drawn face down is its owner's to see), separated by
spaces or commas; a name that is not an item still in the pool is refused and asked again. ``r`` draws
them on screen (by the pool's documented rolls) without showing them.

Digital faces come from :class:`~aero_events.core.dice.SeededDice` seeded per command
(``{seed}:{branch}:{seq}``, see :meth:`TableDice.start_command`), so a resumed game does not repeat the
faces it rolled before the interruption.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from aero_events.core import SeededDice, check_faces
from aero_events.core.dice import DIRECTION_SIDES
from aero_events.core.errors import AeroError, DataError, DiceError
from aero_events.core.pools import Pool, check_names

ROLL_HERE = "r"
CANCEL = "cancel"
QUIT = ("quit", "q", "stop")


class CommandCancelled(AeroError):
    """The person entering a command took it back at a dice prompt."""


class Stop(Exception):
    """The person asked to stop recording (everything recorded so far is stored)."""


class TableDice:
    """A dice source for :class:`~aero_events.core.session.GameSession` that asks the table for each roll."""

    def __init__(self, ask: Callable[[str], str], say: Callable[[str], None], *, digital: bool = False,
                 seed: int | str = 0, ask_secret: Callable[[str], str] | None = None):
        self.ask = ask
        self.ask_secret = ask_secret or ask
        self.say = say
        self.digital = digital
        self.base_seed = seed
        self.stream = SeededDice(f"{seed}:start")
        self.rolls_asked = 0

    def start_command(self, branch: str, seq: int) -> None:
        """Digital faces for the next command come from a stream of its own (see the module notes)."""
        self.stream = SeededDice(f"{self.base_seed}:{branch}:{seq}")

    def draw(self, count: int, sides: int, purpose: str = "", roller: str | None = None) -> list[int]:
        who = roller or "the table"
        what = f"{count} D{sides}" if count != 1 else f"a D{sides}"
        if self.digital:
            return self._roll_here(count, sides, purpose, who)
        if sides == DIRECTION_SIDES:
            return [self._heading(purpose, who) for _ in range(count)]
        while True:
            self.rolls_asked += 1
            answer = self.ask(f"{who} rolls {what} for {purpose}: faces (or r to roll here)? ").strip()
            if answer.lower() == ROLL_HERE:
                return self._roll_here(count, sides, purpose, who)
            if answer.lower() == CANCEL:
                raise CommandCancelled("the command was taken back at the dice prompt; nothing was recorded")
            if answer.lower() in QUIT:
                raise Stop
            try:
                return check_faces(read_faces(answer, count), count, sides, purpose)
            except DiceError as err:
                self.say(f"  refused: {err}. Type the {count} face(s) as rolled, r to roll here, cancel to take "
                         "the command back, or quit.")

    def _heading(self, purpose: str, who: str) -> int:
        """A direction roll read at the table (a scatter arrow, a random heading): the heading in degrees
        clockwise from north, to the hundredth; the die's face is the heading in hundredths, plus one
        (:data:`aero_events.core.dice.DIRECTION_SIDES`)."""
        while True:
            self.rolls_asked += 1
            answer = self.ask(f"{who} reads a direction for {purpose}: the heading in degrees clockwise from "
                              "north, like 135 or 272.5 (or r to roll here)? ").strip()
            if answer.lower() == ROLL_HERE:
                return self._roll_here(1, DIRECTION_SIDES, purpose, who)[0]
            if answer.lower() == CANCEL:
                raise CommandCancelled("the command was taken back at the dice prompt; nothing was recorded")
            if answer.lower() in QUIT:
                raise Stop
            match = re.fullmatch(r"(\d{1,3})(?:\.(\d{1,2}))?", answer)
            centidegrees = int(match[1]) * 100 + int((match[2] or "0").ljust(2, "0")) if match else -1
            if 0 <= centidegrees < DIRECTION_SIDES:
                return centidegrees + 1
            self.say(f"  refused: {answer!r} is not a heading from 0 to 359.99 degrees. Type it again, r to roll "
                     "here, cancel to take the command back, or quit.")

    def draw_items(self, pool: Pool, count: int, purpose: str = "", drawer: str | None = None) -> list[str]:
        """The names of ``count`` items drawn from ``pool`` at the table, typed unseen (see the module notes);
        :func:`aero_events.core.pools.draw_from` calls it instead of rolling for them."""
        who = drawer or "the table"
        if self.digital:
            return self._draw_here(pool, count, purpose, who)
        while True:
            self.rolls_asked += 1
            answer = self.ask_secret(f"{who} draws {count} from {pool.name} for {purpose}: the names drawn, "
                                     "unseen (or r to draw here)? ").strip()
            if answer.lower() == ROLL_HERE:
                return self._draw_here(pool, count, purpose, who)
            if answer.lower() == CANCEL:
                raise CommandCancelled("the command was taken back at the draw prompt; nothing was recorded")
            if answer.lower() in QUIT:
                raise Stop
            names = [name for name in re.split(r"[\s,;]+", answer) if name]
            try:
                if len(names) != count:
                    raise DiceError(f"{purpose}: {count} item(s) drawn, {len(names)} named")
                return check_names(pool, names, purpose)
            except (DiceError, DataError) as err:
                self.say(f"  refused: {err}. Type the {count} name(s) drawn, r to draw here, cancel to take the "
                         "command back, or quit.")

    def _draw_here(self, pool: Pool, count: int, purpose: str, who: str) -> list[str]:
        """Items drawn on screen: each by a die of as many sides as items remain (the pool's rule)."""
        names: list[str] = []
        remaining = pool
        for _ in range(count):
            position = self.stream.draw(1, remaining.size, purpose, who)[0] if remaining.size >= 2 else 1
            names.append(remaining.item_at(position))
            remaining = remaining.without(names[-1:])
        self.say(f"  {who} draws {count} from {pool.name} for {purpose} on screen (not shown)")
        return names

    def _roll_here(self, count: int, sides: int, purpose: str, who: str) -> list[int]:
        faces = self.stream.draw(count, sides, purpose, who)
        self.say(f"  {who} rolls {count}D{sides} for {purpose}: {' '.join(map(str, faces))}")
        return faces


def read_faces(answer: str, count: int) -> list[int]:
    """Faces typed as ``5 2 6``, ``5,2,6`` or ``526`` (a run of single digits for several dice).

    Anything that is not a number is refused (DiceError), before the count and range checks."""
    pieces = [piece for piece in re.split(r"[\s,;/]+", answer) if piece]
    if len(pieces) == 1 and count > 1 and pieces[0].isdigit() and len(pieces[0]) == count:
        pieces = list(pieces[0])
    faces = []
    for piece in pieces:
        if not piece.isdigit():
            raise DiceError(f"{piece!r} is not a face")
        faces.append(int(piece))
    return faces
