"""An import re-folds every event of the file under the ruleset it names, before anything is written.

A JSON Lines file carries its own hash chain, and anyone can recompute one: the chain proves the file
unaltered only against a head hash kept elsewhere (a signature, :mod:`.signing`). So an import checks
the game itself: the ruleset must be known, the setup must be one it accepts, every event must apply
(``evolve`` raising, e.g. for an aircraft the setup does not have, refuses the file at that line), each
event must be stamped with the turn and phase the state was in, and the session's
:class:`~aero_events.core.session.StateCheckpoint` must follow every change of turn and hold the folded
state's hash. A refusal is a :class:`DataError` naming the file, the line and the field.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aero_events.core.errors import AeroError, DataError
from aero_events.core.events import is_core_event
from aero_events.core.session import StateCheckpoint
from aero_events.rulesets import ruleset_for_game

from .games import GameContext, decode_setup, game_metadata
from .records import GameRecord

if TYPE_CHECKING:
    from .transfer import ParsedGame


def _context(parsed: ParsedGame, record: GameRecord) -> GameContext:
    source = parsed.source
    try:
        ruleset = ruleset_for_game(record.ruleset, game_metadata(record))
    except KeyError as err:
        raise DataError(str(err).strip("'\""), source=source, location=1, field="ruleset") from None
    except (AeroError, ValueError, TypeError) as err:
        raise DataError(f"the ruleset {record.ruleset!r} cannot be loaded: {err}", source=source, location=1,
                        field="ruleset") from None
    try:
        setup = decode_setup(record, ruleset)
        initial = ruleset.initial_state(setup)
    except DataError as err:
        raise DataError(err.detail, source=source, location=1, field="setup") from None
    except Exception as err:  # noqa: BLE001 -- whatever a ruleset raises on a setup it cannot use is a refusal
        raise DataError(f"{ruleset.name} cannot set up this game: {type(err).__name__}: {err}", source=source,
                        location=1, field="setup") from None
    players = list(ruleset.players(initial))
    if list(record.players) != players:
        raise DataError(f"the header names the players {record.players}, the setup has {players}", source=source,
                        location=1, field="players")
    return GameContext(record, ruleset, setup, initial)


def _owner(parsed: ParsedGame, branch_id: str, seq: int) -> str:
    """The branch that holds event ``seq`` of ``branch_id``'s line of play."""
    entry = parsed.branches[branch_id]
    while seq <= entry.branch.fork_seq and entry.branch.parent is not None:
        entry = parsed.branches[entry.branch.parent]
    return entry.branch.id


def refold_parsed(parsed: ParsedGame, record: GameRecord) -> tuple[GameContext, dict[str, dict[int, Any]]]:
    """Fold every branch of ``parsed``; returns the context and, per branch, the state at each checkpoint."""
    context = _context(parsed, record)
    ruleset = context.ruleset
    needed = {(_owner(parsed, entry.branch.parent, entry.branch.fork_seq), entry.branch.fork_seq)
              for entry in parsed.branches.values() if entry.branch.parent is not None and entry.branch.fork_seq}
    kept: dict[tuple[str, int], Any] = {}
    at_checkpoints: dict[str, dict[int, Any]] = {}
    source = parsed.source
    for entry in parsed.branches.values():
        branch = entry.branch
        if branch.parent is None or branch.fork_seq == 0:
            state = context.initial_state
        else:
            state = kept[(_owner(parsed, branch.parent, branch.fork_seq), branch.fork_seq)]
        checkpoints: dict[int, Any] = {}
        awaiting: int | None = None  # the turn whose checkpoint must come next
        batch = entry.batch
        for index, (seq, event) in enumerate(zip(batch.seqs, batch.events, strict=True)):
            line = entry.lines[index]
            try:
                turn, phase = ruleset.clock(state)
            except Exception as err:  # noqa: BLE001
                raise DataError(f"{ruleset.name} cannot read the turn of the state before this event: {err}",
                                source=source, location=line) from None
            if type(event) is StateCheckpoint:
                if event.turn != turn:
                    raise DataError(f"a checkpoint of turn {event.turn} where the game is in turn {turn}",
                                    source=source, location=line, field="payload.turn")
                actual = ruleset.state_hash(state)
                if actual != event.state_hash:
                    raise DataError(f"the checkpoint of turn {event.turn} records state hash {event.state_hash[:12]}, "
                                    f"folding the events gives {actual[:12]}", source=source, location=line,
                                    field="payload.state_hash")
                checkpoints[seq] = state
                awaiting = None
            else:
                if awaiting is not None:
                    raise DataError(f"turn {awaiting} began at the event before, and no StateCheckpoint follows "
                                    "it: checkpoints were removed from this file", source=source, location=line,
                                    field="type")
                if (batch.turns[index], batch.phases[index]) != (turn, phase) and not is_core_event(event):
                    raise DataError(f"stamped turn {batch.turns[index]} phase {batch.phases[index]!r}; the game was "
                                    f"in turn {turn} phase {phase!r}", source=source, location=line, field="turn")
                try:
                    state = ruleset.evolve(state, event)
                    turn_after = ruleset.clock(state)[0]
                except Exception as err:  # noqa: BLE001 -- whatever a ruleset raises on a recorded event refuses it
                    raise DataError(f"{ruleset.name} cannot apply this {type(event).__name__}: "
                                    f"{type(err).__name__}: {err}", source=source, location=line,
                                    field="payload") from None
                if turn_after != turn:
                    awaiting = turn_after
            if (branch.id, seq) in needed:
                kept[(branch.id, seq)] = state
        if awaiting is not None:
            raise DataError(f"turn {awaiting} began at the branch's last event, and no StateCheckpoint follows it: "
                            "checkpoints were removed from this file", source=source,
                            location=entry.lines[-1], field="type")
        if (branch.id, branch.fork_seq) in needed:
            kept[(branch.id, branch.fork_seq)] = state
        at_checkpoints[branch.id] = checkpoints
    return context, at_checkpoints
