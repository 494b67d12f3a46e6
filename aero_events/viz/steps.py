"""The steps of a replay: the events grouped into moments worth a frame, from one fold.

A step is a run of events that changes the board, grouped the way players think of the
game: one aircraft's whole movement (``AircraftActivated`` .. ``MovementEnded``,
p.15), one aircraft's firing (``VolleyDeclared`` .. ``VolleyEnded``, p.20), an End
phase (``PhaseBegan(end)`` .. ``TurnEnded``, p.29-30), any other event that changes
what the board shows (a set-up placement, an Autonomous weapon moving...), and the end
of the game. Events that change nothing visible (secret manoeuvres, Initiative, a
volley that holds its fire) are told in the text of the next step.

The steps come from ONE pass over a :class:`~aero_events.analysis.timeline.Timeline`,
whose states were folded once: a step holds the state after its last event, the shots
it fired, and where each aircraft started its move this turn (for drawing paths).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from aero_events.analysis.shots import ShotRecord, shot_records
from aero_events.analysis.timeline import Timeline

from .words import Line, describe_event

START, MOVEMENT, FIRING, END, EVENT, GAME_OVER = "start", "movement", "firing", "end", "event", "game_over"

_FIRING_OPENERS = frozenset({"ai.VolleyDeclared", "ai.WeaponFired", "ai.AutonomousLaunched"})
_FIRING_PHASES = frozenset({"firing", "tailing_fire"})


@dataclass(frozen=True)
class ReplayStep:
    """One frame of a replay: the events ``first_seq..last_seq`` and the state after them."""

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
    shots: tuple[ShotRecord, ...] = ()
    path_starts: Mapping[str, tuple[int, int]] = field(default_factory=dict)

    @property
    def label(self) -> str:
        """The slider's label: ``T{turn} {phase} #{seq}``."""
        return f"T{self.turn} {self.phase} #{self.last_seq}"

    @property
    def name(self) -> str:
        """A unique frame name (labels are unique too, but names must never collide)."""
        return f"{self.index}: {self.label}"


def board_changed(before: Any, after: Any) -> bool:
    """Whether anything the board shows differs between two states (identity tests first: cheap)."""
    if after is before:
        return False
    if getattr(after, "autonomous", None) is not getattr(before, "autonomous", None):
        return True
    if getattr(after, "ground_targets", None) is not getattr(before, "ground_targets", None):
        return True
    if getattr(after, "ground_targets_destroyed", None) is not getattr(before, "ground_targets_destroyed", None):
        return True
    if after.aircraft is before.aircraft:
        return False
    if after.aircraft.keys() != before.aircraft.keys():
        return True
    return any(_looks(aircraft) != _looks(before.aircraft[aircraft_id])
               for aircraft_id, aircraft in after.aircraft.items() if aircraft is not before.aircraft[aircraft_id])


def _looks(aircraft: Any) -> tuple:
    """What the board shows of an aircraft."""
    return (aircraft.hex, aircraft.facing, aircraft.speed, aircraft.altitude, aircraft.structure, aircraft.status,
            getattr(aircraft, "stalled", False), getattr(aircraft, "spinning", False),
            getattr(aircraft, "tailing", None))


class _StepBuilder:
    """Walks the timeline once, opening and closing groups of events."""

    def __init__(self, timeline: Timeline, start_index: int):
        self.timeline = timeline
        self.start_index = start_index
        self.steps: list[ReplayStep] = []
        self.pending: list[Line] = []  # told with the next step
        self.group: tuple[str, str | None, int, Any] | None = None  # kind, actor, first index, state before
        self.group_lines: list[Line] = []
        self.path_starts: dict[str, tuple[int, int]] = {}
        self.turn_of_paths: int | None = None

    def run(self) -> list[ReplayStep]:
        timeline = self.timeline
        first_state = timeline.state_before(self.start_index)
        first_seq = timeline.envelopes[self.start_index - 1].seq if self.start_index > 0 else 0
        turn, phase = timeline.ruleset.clock(first_state)
        title = "Set-up" if first_seq == 0 else f"After event #{first_seq}"
        self.steps.append(ReplayStep(index=0, first_seq=first_seq, last_seq=first_seq, turn=turn, phase=phase,
                                     kind=START, actor=None, title=title, lines=(), state=first_state))
        for index in range(self.start_index, len(timeline.envelopes)):
            self.read(index)
        self.finish()
        return self.steps

    def read(self, index: int) -> None:
        envelope = self.timeline.envelopes[index]
        event = envelope.event
        name = event.type_name()
        before = self.timeline.state_before(index)
        after = self.timeline.states[index]
        if envelope.turn != self.turn_of_paths:
            self.turn_of_paths = envelope.turn
            self.path_starts = {}
        if self.group is None:
            self.open_group(name, event, envelope, index, before)
        line = describe_event(event)
        if line is not None:
            (self.group_lines if self.group is not None else self.pending).append(line)
        if self.group is not None:
            if self.closes(name, event):
                self.close_group(index, game_over=name == "ai.GameEnded")
        elif name == "ai.GameEnded":
            self.emit(index, index, GAME_OVER, None, "Game over")
        elif board_changed(before, after):
            self.emit(index, index, EVENT, getattr(event, "aircraft", None), self.pending_title(name))

    def open_group(self, name: str, event: Any, envelope: Any, index: int, before: Any) -> None:
        if name == "ai.AircraftActivated":
            self.group = (MOVEMENT, event.aircraft, index, before)
            aircraft = before.aircraft.get(event.aircraft)
            if aircraft is not None:
                self.path_starts[event.aircraft] = tuple(aircraft.hex)
        elif name in _FIRING_OPENERS and envelope.phase in _FIRING_PHASES:
            actor = getattr(event, "aircraft", None) or getattr(event, "firer", None)
            self.group = (FIRING, actor, index, before)
        elif name == "ai.PhaseBegan" and event.phase == "end":
            self.group = (END, None, index, before)

    def closes(self, name: str, event: Any) -> bool:
        kind = self.group[0]
        return ((kind == MOVEMENT and name == "ai.MovementEnded")
                or (kind == FIRING and name == "ai.VolleyEnded")
                or (kind == END and name == "ai.TurnEnded")
                or name == "ai.GameEnded")

    def close_group(self, index: int, game_over: bool = False) -> None:
        kind, actor, first, before = self.group
        self.group = None
        lines, self.group_lines = self.group_lines, []
        self.pending.extend(lines)
        after = self.timeline.states[index]
        if game_over:
            self.emit(first, index, GAME_OVER, actor, self.group_title(kind, actor, first) + "; game over")
        elif kind == FIRING and not self._fired(first, index) and not board_changed(before, after):
            return  # held its fire: told with the next step, no frame of its own
        else:
            self.emit(first, index, kind, actor, self.group_title(kind, actor, first))

    def _fired(self, first: int, last: int) -> bool:
        return any(env.event.type_name() in ("ai.WeaponFired", "ai.AutonomousLaunched", "ai.AutonomousAttacked")
                   for env in self.timeline.envelopes[first:last + 1])

    def group_title(self, kind: str, actor: str | None, first: int) -> str:
        if kind == MOVEMENT:
            return f"{actor} moves"
        if kind == FIRING:
            volley = self.timeline.envelopes[first].event
            how = {"tailing": " (Tailing Fire)", "tail_gunner": " (Tail Gunner)"}.get(getattr(volley, "kind", ""), "")
            return f"{actor} fires{how}"
        return f"End phase of turn {self.timeline.envelopes[first].turn}"

    @staticmethod
    def pending_title(name: str) -> str:
        return name.removeprefix("ai.")

    def emit(self, first: int, last: int, kind: str, actor: str | None, title: str) -> None:
        """A step from events ``first..last`` (indices), told with every pending line."""
        envelopes = self.timeline.envelopes
        last_seq = envelopes[last].seq
        shots = shot_records(self.timeline.pairs(first, last + 1)) if kind != MOVEMENT else []
        lines, self.pending = tuple(self.pending), []
        self.steps.append(ReplayStep(
            index=len(self.steps), first_seq=envelopes[first].seq, last_seq=last_seq, turn=envelopes[last].turn,
            phase=envelopes[last].phase, kind=kind, actor=actor, title=title, lines=lines,
            state=self.timeline.states[last], shots=tuple(shots), path_starts=dict(self.path_starts)))

    def finish(self) -> None:
        """Close what the events left open (a game stopped mid-turn) so every event is told."""
        last = len(self.timeline.envelopes) - 1
        if last < self.start_index:
            return
        if self.group is not None:
            kind, actor, first, _ = self.group
            self.pending.extend(self.group_lines)
            self.group, self.group_lines = None, []
            self.emit(first, last, kind, actor, self.group_title(kind, actor, first) + " (unfinished)")
        elif self.pending:
            self.emit(last, last, EVENT, None, "Events after the last change on the board")


def replay_steps(timeline: Timeline, start_seq: int = 0) -> list[ReplayStep]:
    """The steps of ``timeline`` from the state after event ``start_seq`` (0: the initial state).

    The first step shows that state; each further step ends with a change on the board
    (or the game's end), so ``len(steps) - 1`` frames follow the start.
    """
    start_index = timeline.index_of(start_seq) + 1 if start_seq else 0
    return _StepBuilder(timeline, start_index).run()
