"""The commands of a recorded game, each proven to reproduce the record under the game's own ruleset.

Since issue 11 the session records every command it applies as a ``CommandIssued`` event (sealed as a
``SecretCommandIssued`` when it is a secret choice) just before the events it caused: the commands are
read from those, for any ruleset. A game recorded before (the golden corpus in ``replays/``) has no such
event: its ruleset's :meth:`~aero_events.core.interface.ToolInterface.legacy_command_candidates` names the
commands that may have produced the events at each command boundary (Aeronautica keeps a table of its
decision events for that), and the one whose events are exactly the recorded ones is kept. This is an
upcaster of whole games, done when they are read: the corpus files stay as they were recorded.

A game recorded before and continued since has both: the table up to its first ``CommandIssued``.
Either way :func:`recover_decisions` plays the game again under its own ruleset: at each boundary it
decides the command with the recorded dice and salts and accepts it only if the rules produce exactly the
recorded events (checkpoint hashes included); the next boundary is where those events end. So the
recovery is also a proof that the record replays under its own rules, and a record it cannot explain
fails loudly (:class:`RecoveryError`), naming the seq, turn, phase and event.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from aero_events.core import Command, DiceCup, Envelope, Event, RuleError, StateCheckpoint, issued_command
from aero_events.core.dice import rolls_after
from aero_events.core.errors import DataError, DiceError
from aero_events.core.interface import DecisionPoint, RecoveryError, UnknownDecision
from aero_events.core.state_shape import CheckpointCheck, StateShapeError

from .describe import describe_command, event_at
from .tape import RecordedSalts, RegressionDice, recorded_faces, recorded_salts

__all__ = ["DecisionPoint", "RecordedDecision", "Recovery", "RecoveryError", "UnknownDecision",
           "commands_from_events", "has_recorded_commands", "recover_decisions"]


def has_recorded_commands(envelopes: Sequence[Envelope]) -> bool:
    """Whether the game was recorded with its commands (any ``CommandIssued``)."""
    return any(issued_command(env.event) is not None for env in envelopes)


def candidates(rules: Any, point: DecisionPoint) -> list[Command]:
    """The commands that may have produced the events from ``point.start``: the recorded one when there is
    a ``CommandIssued`` there, else the ruleset's legacy candidates."""
    first = point.envelopes[point.start]
    encoded = issued_command(first.event)
    if encoded is not None:
        try:
            return [rules.decode_command(encoded)]
        except DataError as err:
            raise _mismatch(f"the command recorded at seq {first.seq} (turn {first.turn}, {first.phase}) "
                            f"does not decode under {rules.name}: {err}", first.seq) from None
    return list(rules.legacy_command_candidates(point))


@dataclass(frozen=True)
class RecordedDecision:
    """One recovered command, where its events lie in the record (seqs) and when it was given."""

    index: int
    command: Command
    first_seq: int
    last_seq: int
    turn: int
    phase: str

    def describe(self) -> str:
        return describe_command(self.command)


@dataclass(frozen=True)
class Recovery:
    """The commands of a recorded game, and the states its record passes through at each boundary."""

    decisions: tuple[RecordedDecision, ...]
    final_state: Any
    initial_state: Any


def _same(decided: Sequence[Event], plain: Sequence[Envelope], start: int) -> int | None:
    """Index of the first decided event that differs from the record's events from ``plain[start]``
    (None: all equal)."""
    for index, event in enumerate(decided):
        if start + index >= len(plain) or plain[start + index].event != event:
            return index
    return None


def _mismatch(message: str, seq: int) -> RecoveryError:
    """A :class:`RecoveryError` carrying ``seq``: the first recorded event the rules did not produce there
    (an import names its line)."""
    err = RecoveryError(message)
    err.seq = seq  # type: ignore[attr-defined]
    return err


def recover_decisions(rules: Any, setup: object, envelopes: Sequence[Envelope], *, start: int = 0,
                      start_state: Any = None, shape: str | None = None) -> Recovery:
    """The commands that produced ``envelopes`` (one line of play from its start) under ``rules``.

    Each command is decided with the recorded dice and salts and must reproduce the recorded events and
    checkpoint hashes exactly; otherwise :class:`RecoveryError` says where and how the record differs (its
    ``seq``: the first recorded event the rules did not produce).

    ``start`` (an index into ``envelopes``) with ``start_state`` (the state the events before it fold to)
    recovers only the commands from there: a branch's own events after its fork point, the events
    before having been explained on the parent's line (an import re-decides every branch so). The dice and
    salts before ``start`` are skipped on the tapes.

    ``shape``: the fingerprint of the state shape the game was recorded with (its metadata's ``state_shape``;
    None: recorded before fingerprints were), whose checkpoints are checked in it or a later shape
    (:mod:`aero_events.core.state_shape`).
    """
    check = CheckpointCheck(rules, shape)
    initial = rules.initial_state(setup) if start_state is None else start_state
    state = initial
    before = envelopes[:start]
    tape = RegressionDice(recorded_faces(envelopes), seed="recovery", start=len(recorded_faces(before)))
    salts = RecordedSalts(recorded_salts(envelopes), seed="recovery", start=len(recorded_salts(before)))
    roll_index = max((rolls_after(env.event) or 0 for env in before), default=0)
    decisions: list[RecordedDecision] = []
    position = start
    count = len(envelopes)
    # A game recorded before commands were and continued since has its commands from the first one recorded:
    # every boundary after that one must have its own.
    first_recorded = next((index for index, env in enumerate(envelopes) if issued_command(env.event) is not None),
                          count)
    # The record without its core events (checkpoints, commands), and for each envelope the index of the
    # first such event from it on.
    plain = [env for env in envelopes if not env.event.core_event]
    plain_index, seen = [], 0
    for env in envelopes:
        plain_index.append(seen)
        seen += not env.event.core_event
    while True:
        position = _check_checkpoints(rules, state, envelopes, position, check)
        if position >= count:
            break
        point = DecisionPoint(state, envelopes, position)
        if position > first_recorded and issued_command(envelopes[position].event) is None:
            env = envelopes[position]
            raise _mismatch(f"event {env.seq} ({env.type}, turn {env.turn}, {env.phase}) starts a command, "
                            "but no recorded command comes before it", env.seq)
        next_plain = plain_index[position]
        problems: list[str] = []
        first_unexplained: int | None = None
        accepted: tuple[Command, list[Event]] | None = None
        for command in candidates(rules, point):
            dice_at, salt_at = tape.position, salts.position
            cup = DiceCup(tape, roll_index)
            cup.salts = salts  # type: ignore[attr-defined]
            try:
                decided = rules.decide(state, command, cup)
            except (RuleError, DiceError) as err:
                problems.append(f"{describe_command(command)} is refused: {err}")
                tape._pos, salts._next = dice_at, salt_at
                continue
            differs = _same(decided, plain, next_plain)
            if differs is None:
                accepted = (command, decided)
                roll_index = cup.next_index
                break
            shown = plain[next_plain + differs] if next_plain + differs < len(plain) else None
            if first_unexplained is None:
                first_unexplained = shown.seq if shown is not None else envelopes[-1].seq
            problems.append(f"{describe_command(command)} decides {event_at(decided[differs])} where the record has "
                            + (f"seq {shown.seq}: {event_at(shown.event)}" if shown else "no more events"))
            tape._pos, salts._next = dice_at, salt_at
        if accepted is None:
            at = envelopes[position]
            raise _mismatch(
                f"the record does not replay under {rules.name} from seq {at.seq} (turn {at.turn}, "
                f"{at.phase}): " + ("; ".join(problems) or "no command fits"), first_unexplained or at.seq)
        command, decided = accepted
        first_seq = envelopes[position].seq
        if issued_command(envelopes[position].event) is not None:
            position += 1
        state, position = _fold_recorded(rules, state, envelopes, position, len(decided), check)
        decisions.append(RecordedDecision(index=len(decisions), command=command, first_seq=first_seq,
                                          last_seq=envelopes[position - 1].seq, turn=envelopes[position - 1].turn,
                                          phase=envelopes[position - 1].phase))
    return Recovery(decisions=tuple(decisions), final_state=state, initial_state=initial)


def _check_checkpoints(rules: Any, state: Any, envelopes: Sequence[Envelope], position: int,
                       check: CheckpointCheck) -> int:
    """Step over checkpoints at ``position``, checking each one's hash; return the next position."""
    while position < len(envelopes) and type(envelopes[position].event) is StateCheckpoint:
        checkpoint = envelopes[position]
        try:
            matched = check.matches(state, checkpoint.event.state_hash)
        except StateShapeError as err:
            raise _mismatch(f"at seq {checkpoint.seq} (turn {checkpoint.turn}): {err}", checkpoint.seq) from None
        if not matched:
            raise _mismatch(f"at seq {checkpoint.seq} (turn {checkpoint.turn}) the state replayed under "
                            f"{rules.name} hashes to {check.actual[:12]}, the record says "
                            f"{checkpoint.event.state_hash[:12]}", checkpoint.seq)
        position += 1
    return position


def _fold_recorded(rules: Any, state: Any, envelopes: Sequence[Envelope], position: int,
                   events: int, check: CheckpointCheck) -> tuple[Any, int]:
    """Fold ``events`` recorded events from ``position`` (checking the checkpoints among them)."""
    folded = 0
    while folded < events:
        position = _check_checkpoints(rules, state, envelopes, position, check)
        state = rules.evolve(state, envelopes[position].event)
        position += 1
        folded += 1
    # A checkpoint recorded right after the command's last event belongs to the same command.
    return state, _check_checkpoints(rules, state, envelopes, position, check)


def commands_from_events(envelopes: Sequence[Envelope], rules: Any, setup: object) -> list[Command]:
    """The commands that produced a recorded line of play, in order (see :func:`recover_decisions`)."""
    return [decision.command for decision in recover_decisions(rules, setup, envelopes).decisions]
