"""The steps of a replay: the events grouped into moments worth a frame, from one fold, for any ruleset.

The ruleset says how its events group (``Ruleset.step_grouping()``, see
:class:`~aero_events.core.scene.StepGrouping`): one aircraft's whole movement, one volley, an End
phase... or, by default, the events caused by one command. An event outside any group makes a frame
of its own when it changed the board; events that change nothing visible (secret choices, dice, a
volley that holds its fire) are told in the text of the next step. The step that ends the game (the
ruleset's ``is_over`` turns true) is a ``game_over`` step.

Every page cuts the game where the organiser's does: a sealed command the page's viewer may not read (redacted)
still opens its group. No frame runs over into the next turn (a group closes with its turn's last event),
so each is labelled with the turn it shows. A frame is titled by its command in the ruleset's words (a shot
declared that waits for the target player's reaction is named before the reaction: "Unclean: fire ...; then
Agrippa: no brace"), or, for a frame of one event, by that event told in words.

The steps come from ONE pass over a :class:`~aero_events.analysis.timeline.Timeline`, whose states were
folded once. Each step holds the state after its last event and its :class:`Scene`, made by the ruleset
from that state and the step's events (so the paths flown and shots fired in the step are drawn).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import msgspec

from aero_events.analysis.timeline import Timeline
from aero_events.core.scene import Scene, StepGrouping, make_scene
from aero_events.core.secrets import RedactedEvent, redact
from aero_events.core.session import CommandIssued, SecretCommandIssued

from .words import Line, describe_event

START, EVENT, GAME_OVER = "start", "event", "game_over"


@dataclass(frozen=True)
class ReplayStep:
    """One frame of a replay: the events ``first_seq..last_seq``, the state after them, and its scene."""

    index: int
    first_seq: int
    last_seq: int
    turn: int
    phase: str
    kind: str
    actor: str | None
    title: str
    lines: tuple[Line, ...]
    state: Any
    scene: Scene

    @property
    def label(self) -> str:
        """The slider's label: ``T{turn} {phase} #{seq}``."""
        return f"T{self.turn} {self.phase.replace('_', ' ')} #{self.last_seq}"

    @property
    def name(self) -> str:
        """A unique frame name (labels are unique too, but names must never collide)."""
        return f"{self.index}: {self.label}"


class _StepBuilder:
    """Walks the timeline once, opening and closing groups of events."""

    def __init__(self, timeline: Timeline, start_index: int, viewer: str | None, focus: str | None):
        self.timeline = timeline
        self.ruleset = timeline.ruleset
        self.grouping: StepGrouping = _grouping(self.ruleset)
        self.start_index = start_index
        self.viewer = viewer
        self.focus = focus
        self.steps: list[ReplayStep] = []
        self.pending: list[Line] = []  # told with the next step
        self.group: tuple[str, str | None, int, Any] | None = None  # kind, actor, first index, state before
        self.group_lines: list[Line] = []
        self.last_scene: Scene | None = None
        #: The last public command whose events changed nothing on the board (a shot declared, waiting for
        #: the target's reaction): its title, player and phase. The next command, if another player's in the
        #: same phase (the reaction), makes the frame that shows what the first set off, so says both.
        self.carried: tuple[str, str | None, str] | None = None

    def scene(self, state: Any, first: int = 0, last: int = -1) -> Scene:
        events = list(self.timeline.pairs(first, last + 1)) if last >= first else []
        return make_scene(self.ruleset, state, self.viewer, events, self.focus)

    def changed(self, before: Any, after: Any) -> bool:
        quick = self.grouping.changed(before, after)
        if quick is not None:
            return quick
        return _board(self.scene(before)) != _board(self.scene(after))

    def run(self) -> list[ReplayStep]:
        timeline = self.timeline
        first_state = timeline.state_before(self.start_index)
        first_seq = timeline.envelopes[self.start_index - 1].seq if self.start_index > 0 else 0
        turn, phase = self.ruleset.clock(first_state)
        title = "Set-up" if first_seq == 0 else f"After event #{first_seq}"
        self.steps.append(ReplayStep(index=0, first_seq=first_seq, last_seq=first_seq, turn=turn, phase=phase,
                                     kind=START, actor=None, title=title, lines=(), state=first_state,
                                     scene=self.scene(first_state)))
        for index in range(self.start_index, len(timeline.envelopes)):
            self.read(index)
        self.finish()
        return self.steps

    def read(self, index: int) -> None:
        envelopes = self.timeline.envelopes
        envelope = envelopes[index]
        before = self.timeline.state_before(index)
        after = self.timeline.states[index]
        following = _as_recorded(envelopes[index + 1]) if index + 1 < len(envelopes) else None
        if self.group is None:
            opened = self.grouping.opens(_as_recorded(envelope), before)
            if opened is not None:
                self.group = (opened[0], opened[1], index, before)
        # The panel tells the event as this page's viewer may see it: another player's secret stays sealed.
        line = describe_event(redact(envelope.event, self.viewer), self.ruleset, before, self.viewer)
        if line is not None:
            (self.group_lines if self.group is not None else self.pending).append(line)
        game_over = bool(self.ruleset.is_over(after)) and not self.ruleset.is_over(before)
        if self.group is not None:
            # A frame never runs over into the next turn: what a command set off there (a new turn's start)
            # is told with the frames of that turn, and the frame is labelled with the turn it shows.
            if (game_over or self.grouping.closes(self.group[0], _as_recorded(envelope), following)
                    or (following is not None and following.turn != envelope.turn)):
                self.close_group(index, game_over=game_over)
        elif game_over:
            self.emit(index, index, GAME_OVER, None, "Game over")
        elif self.changed(before, after):
            self.emit(index, index, EVENT, envelope.actor, _event_title(envelope, line))

    def close_group(self, index: int, game_over: bool = False) -> None:
        kind, actor, first, before = self.group
        self.group = None
        lines, self.group_lines = self.group_lines, []
        self.pending.extend(lines)
        after = self.timeline.states[index]
        title = self.title(kind, actor, first, index)
        opener = self.timeline.envelopes[first]
        if (kind == "command" and self.carried is not None and self.carried[1] != actor
                and self.carried[2] == opener.phase):
            title = f"{self.carried[0]}; then {title}"
        if game_over:
            self.emit(first, index, GAME_OVER, actor, title + "; game over")
        elif self.grouping.keeps(kind, self.timeline.envelopes[first:index + 1], self.changed(before, after)):
            self.emit(first, index, kind, actor, title)
        elif kind == "command" and lines and type(opener.event) is CommandIssued:
            self.carried = (title, actor, self.timeline.envelopes[index].phase)

    def title(self, kind: str, actor: str | None, first: int, last: int) -> str:
        """The grouping's title; for a group opened by a recorded command, the command in the ruleset's words
        (a sealed command only on its owner's page: everyone else reads the grouping's title)."""
        envelope = self.timeline.envelopes[first]
        event = envelope.event
        readable = event.type_name() == "CommandIssued" or (
            event.type_name() == "SecretCommandIssued" and self.viewer is not None and event.owner == self.viewer)
        if kind == "command" and readable:
            try:
                command = self.ruleset.decode_command(envelope.event.command)
                return self.ruleset.describe_command(command, self.timeline.state_before(first))
            except Exception:  # noqa: BLE001, S110 - a command this ruleset cannot read back still gets a title
                pass
        return self.grouping.title(kind, actor, self.timeline.envelopes[first:last + 1])

    def emit(self, first: int, last: int, kind: str, actor: str | None, title: str) -> None:
        """A step from events ``first..last`` (indices), told with every pending line."""
        envelopes = self.timeline.envelopes
        lines, self.pending = tuple(self.pending), []
        self.carried = None
        state = self.timeline.states[last]
        self.steps.append(ReplayStep(
            index=len(self.steps), first_seq=envelopes[first].seq, last_seq=envelopes[last].seq,
            turn=envelopes[last].turn, phase=envelopes[last].phase, kind=kind, actor=actor, title=title,
            lines=lines, state=state, scene=self.scene(state, first, last)))

    def finish(self) -> None:
        """Close what the events left open (a game stopped mid-turn) so every event is told."""
        last = len(self.timeline.envelopes) - 1
        if last < self.start_index:
            return
        if self.group is not None:
            kind, actor, first, _ = self.group
            self.pending.extend(self.group_lines)
            self.group, self.group_lines = None, []
            self.emit(first, last, kind, actor, self.title(kind, actor, first, last) + " (unfinished)")
        elif self.pending:
            self.emit(last, last, EVENT, None, "Events after the last change on the board")


def _grouping(ruleset: Any) -> StepGrouping:
    grouping = getattr(ruleset, "step_grouping", None)
    return grouping() if grouping is not None else StepGrouping()


def _board(scene: Scene) -> tuple:
    """What a scene shows that a step changes (pieces, markers, templates, links)."""
    return scene.pieces, scene.markers, scene.templates, scene.links


def _event_title(envelope: Any, line: Line | None) -> str:
    """The title of a frame made by one event: the event told in words ("bf109-1 flies straight to ..."),
    else, for an event the ruleset tells with no words, its type's name as words ("mcs.EffectsExpired" ->
    "Effects expired")."""
    if line is not None and not line.minor:
        return line.text
    name = envelope.event.type_name().rsplit(".", 1)[-1]
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).split()
    return " ".join([words[0], *(word.lower() for word in words[1:])]) if words else name


def _as_recorded(envelope: Any) -> Any:
    """The envelope as the step grouping reads it. A sealed command the page's viewer may not read (a
    :class:`~aero_events.core.secrets.RedactedEvent` of a ``SecretCommandIssued``, in a timeline
    :func:`~aero_events.analysis.report.seen_by` redacted) still marks where a player gave a command, so
    the steps of a spectator's or a player's page are cut where the organiser's are: without it the
    group of the last public command would run on over every sealed order, reveal and move after it."""
    event = envelope.event
    if type(event) is RedactedEvent and event.secret_type == SecretCommandIssued.type_name():
        sealed = SecretCommandIssued(owner=event.owner, commitment=event.commitment, command={})
        return msgspec.structs.replace(envelope, event=sealed)
    return envelope


def replay_steps(timeline: Timeline, start_seq: int = 0, *, viewer: str | None = None,
                 focus: str | None = None) -> list[ReplayStep]:
    """The steps of ``timeline`` from the state after event ``start_seq`` (0: the initial state).

    The first step shows that state; each further step ends with a change on the board (or the game's
    end), so ``len(steps) - 1`` frames follow the start. ``viewer`` and ``focus`` are handed to the
    ruleset's ``scene`` (what that player may see; a piece whose arcs to shade).
    """
    start_index = timeline.index_of(start_seq) + 1 if start_seq else 0
    return _StepBuilder(timeline, start_index, viewer, focus).run()
