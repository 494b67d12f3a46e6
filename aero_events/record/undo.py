"""Undo at the table: taking back whole commands by forking, never by deleting.

Undoing the last N commands forks a new branch at the event just before the first of them; the branch
that held them stays in the store, abandoned but whole (DESIGN.md contract 5: undo is a fork). The new
branch is named ``undo-1``, ``undo-2``... and becomes the game's current branch (:mod:`.journal`), the one
``aero record --resume`` goes on with.

A command's events are taken back together, never half a command: the recorder keeps the list of command
boundaries (:class:`Boundary`) of the current line of play, recovered from the stored events when a game
is resumed (:func:`recover_boundaries`) and extended by every command it applies.
"""

from __future__ import annotations

from collections.abc import Sequence

from aero_events.core import Game, GameSession
from aero_events.core.session import Branch

from .steps import Boundary, command_boundaries

UNDO_PREFIX = "undo-"

__all__ = ["Boundary", "fork_source", "next_undo_name", "recover_boundaries", "undo_point"]


def recover_boundaries(session: GameSession) -> list[Boundary]:
    """The commands of the session's line of play (its ancestors' included), from its events
    (:func:`~.steps.command_boundaries`)."""
    return command_boundaries(session.ruleset, session.game.setup, session.events())


def undo_point(boundaries: Sequence[Boundary], count: int) -> int:
    """The event to fork at so as to take back the last ``count`` commands."""
    if not 1 <= count <= len(boundaries):
        raise ValueError(f"there are {len(boundaries)} command(s) to take back, not {count}")
    return boundaries[-count].first_seq - 1


def fork_source(branch: Branch, at_seq: int) -> Branch:
    """The branch of ``branch``'s line that holds event ``at_seq`` (the root for 0): forking there keeps the
    tree honest when the undone commands reach back past ``branch``'s own fork point."""
    source = branch
    while source.parent is not None and at_seq <= source.fork_seq:
        source = source.parent
    return source


def next_undo_name(game: Game) -> str:
    """``undo-1``, ``undo-2``...: the first name the game does not use yet."""
    number = 1
    while f"{UNDO_PREFIX}{number}" in game.branches:
        number += 1
    return f"{UNDO_PREFIX}{number}"
