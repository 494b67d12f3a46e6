"""What happened, in words: one line per event worth telling, for the replay's text panel.

The ruleset tells its own events (``Ruleset.describe_event``); dice rolls, a core event, are told here
with their modifiers spelled out, because luck is half the story, and shown lighter. Bookkeeping
(checkpoints, the record of a command, lines a ruleset leaves empty) is not told.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from aero_events.core import DiceRolled, RedactedEvent, StateCheckpoint
from aero_events.core.session import SecretCommandIssued

#: Core bookkeeping events never told in the panel (the events a command caused are told instead).
_SILENT = frozenset({"CommandIssued", "SecretCommandIssued"})


class Line(NamedTuple):
    """One line of narration; ``minor`` lines (dice, bookkeeping) are shown lighter."""

    text: str
    minor: bool = False


def readable(identifier: str | None) -> str:
    """``twin_lascannons`` -> ``Twin Lascannons``."""
    if not identifier:
        return "?"
    return identifier.replace("_", " ").title()


def dice_line(event: DiceRolled) -> str:
    """"orks rolls [5, 2] (D6) for to hit, needing 4+ (-1 Night Fighting)"."""
    sides = getattr(event, "sides", 6)
    line = f"{event.roller or 'the game'} rolls {list(event.faces)} (D{sides}) for {event.purpose}"
    if event.target is not None:
        line += f", needing {event.target}+"
    if event.modifiers:
        line += " (" + "; ".join(f"{m.value:+d} {m.reason}" for m in event.modifiers) + ")"
    if event.replaces is not None:
        line += f" [re-roll of roll {event.replaces}]"
    return line


def describe_event(event: Any, ruleset: Any = None, state: Any = None, viewer: str | None = None) -> Line | None:
    """The line telling ``event`` (``state``: the state before it), or None for bookkeeping. A page drawn for
    ``viewer`` tells that player's own sealed commands (a face-down token: its owner knows it)."""
    if type(event) is SecretCommandIssued and viewer is not None and event.owner == viewer and ruleset is not None:
        return own_sealed_command(event, ruleset, state)
    if type(event) is StateCheckpoint or event.type_name() in _SILENT:
        return None
    if type(event) is RedactedEvent and event.secret_type in _SILENT:
        return None  # another player's sealed command: the events it caused are told (as that viewer sees them)
    if type(event) is DiceRolled:
        return Line(dice_line(event), minor=True)
    if ruleset is None:
        return Line(event.type_name())
    try:
        text = ruleset.describe_event(event, state)
    except Exception:  # noqa: BLE001 - an event the narrator cannot tell yet still gets its name told
        text = event.type_name()
    if not text:
        return None
    return Line(text.strip())


def own_sealed_command(event: SecretCommandIssued, ruleset: Any, state: Any) -> Line | None:
    """A player's own sealed command, on that player's page (titled "as imperium sees it"): "imperium-3:
    Manoeuvre token 4 face down (sealed)"; None when the ruleset cannot read it back."""
    try:
        command = ruleset.decode_command(event.command)
        text = ruleset.describe_command(command, state)
    except Exception:  # noqa: BLE001 - a command this ruleset cannot read back is left untold
        return None
    return Line(f"{text} (sealed)") if text else None
