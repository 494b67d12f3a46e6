"""An import re-folds every event of the file under the ruleset it names, before anything is written.

A JSON Lines file carries its own hash chain, and anyone can recompute one: the chain proves the file
unaltered only against a head hash kept elsewhere (a signature, :mod:`.signing`). So an import checks
the game itself: the ruleset must be known, the setup must be one it accepts, every event must apply
(``evolve`` raising, e.g. for an aircraft the setup does not have, refuses the file at that line), each
event, the core's own included (a command, a roll, a checkpoint), must be stamped with the turn and phase the
state was in (as the session stamps them), and the session's
:class:`~aero_events.core.session.StateCheckpoint` must follow every change of turn and hold the folded
state's hash. A refusal is a :class:`DataError` naming the file, the line and the field.

Every sealed secret must hold its seal: the commitment recorded with it is the one its choice and salt
give (:func:`~aero_events.core.secrets.commitment`), so a choice swapped after it was sealed is refused; and a
sealed command is owned by the player who gave it (the seal does not cover the owner, whose copy shows it).

Then the import re-decides the game (:func:`redecide_parsed`, issue 16 item 4): each recorded command
(``CommandIssued``, and ``SecretCommandIssued``, which a full export holds whole) is decided again under
the named ruleset with the recorded dice and salts, and must produce exactly the events recorded after it
(by :func:`~aero_events.regress.decisions.recover_decisions`, the machinery ``aero regress`` uses), with
the command's player as their actor. The file is refused at the line of the first event the rules did not
produce: a die face changed so that a miss reads as a hit, an event inserted between two commands or
inside one, a command swapped. Each branch is re-decided from its fork point (its own events), from the
state its parent's events fold to.

What re-deciding cannot prove: the dice faces themselves (a table game's dice are what the record says;
a forged face *and* the events it would cause, rewritten consistently, are a legal game with other dice:
only a signature made before the change, :mod:`.signing`, shows it). A game recorded before commands were
(no ``CommandIssued`` anywhere) is re-folded only; :func:`redecide_parsed` returns False and ``aero import``
says so. A viewer's copy (an export for one player, other players' secrets left out) never gets here: its
sealed commands cannot be re-decided, so :func:`~.transfer.read_jsonl` refuses it as a full game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import msgspec

from aero_events.core.errors import AeroError, DataError
from aero_events.core.events import Envelope
from aero_events.core.secrets import SecretEvent, commitment
from aero_events.core.session import CORE_ACTOR, SecretCommandIssued, StateCheckpoint, issued_command
from aero_events.core.state_shape import CheckpointCheck, StateShapeError, recorded_fingerprint
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
    setup = None
    try:
        setup = decode_setup(record, ruleset)
        initial = ruleset.initial_state(setup)
    except DataError as err:
        raise DataError(err.detail, source=source, location=1, field="setup") from None
    except Exception as err:  # noqa: BLE001 -- whatever a ruleset raises on a setup it cannot use is a refusal
        why = "the setup is null, and it sets up no game without one" if setup is None else \
            f"{type(err).__name__}: {err}"
        raise DataError(f"{ruleset.name} cannot set up this game: {why}", source=source, location=1,
                        field="setup") from None
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


def refold_parsed(parsed: ParsedGame, record: GameRecord, fork_states: dict[str, Any] | None = None,
                  head_states: dict[str, Any] | None = None) -> tuple[GameContext, dict[str, dict[int, Any]]]:
    """Fold every branch of ``parsed``; returns the context and, per branch, the state at each checkpoint.

    ``fork_states``, when given, receives each branch's state at its fork point (by branch id);
    ``head_states`` each branch's state at its head (for the ``game_outcomes`` rows of an import)."""
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
        if fork_states is not None:
            fork_states[branch.id] = state
        checkpoints: dict[int, Any] = {}
        awaiting: int | None = None  # the turn whose checkpoint must come next
        # in the state shape the game was recorded with, or a later one (core/state_shape.py)
        check = CheckpointCheck.for_game(ruleset, game_metadata(record))
        batch = entry.batch
        for index, (seq, event) in enumerate(zip(batch.seqs, batch.events, strict=True)):
            line = entry.lines[index]
            try:
                turn, phase = ruleset.clock(state)
            except Exception as err:  # noqa: BLE001
                raise DataError(f"{ruleset.name} cannot read the turn of the state before this event: {err}",
                                source=source, location=line) from None
            stamp = (batch.turns[index], batch.phases[index])
            if stamp != (turn, phase):  # every event, the core's too (a command, a roll, a checkpoint)
                raise DataError(f"stamped turn {stamp[0]} phase {stamp[1]!r}; the game was in turn {turn} phase "
                                f"{phase!r}", source=source, location=line, field="turn" if stamp[0] != turn
                                else "phase")
            if type(event) is StateCheckpoint:
                if event.turn != turn:
                    raise DataError(f"a checkpoint of turn {event.turn} where the game is in turn {turn}",
                                    source=source, location=line, field="payload.turn")
                try:
                    matched = check.matches(state, event.state_hash)
                except StateShapeError as err:
                    raise DataError(str(err), source=source, location=line, field="metadata.state_shape") from None
                if not matched:
                    raise DataError(f"the checkpoint of turn {event.turn} records state hash {event.state_hash[:12]}, "
                                    f"folding the events gives {check.actual[:12]}", source=source, location=line,
                                    field="payload.state_hash")
                checkpoints[seq] = state
                awaiting = None
            else:
                if awaiting is not None:
                    raise DataError(f"turn {awaiting} began at the event before, and no StateCheckpoint follows "
                                    "it: checkpoints were removed from this file", source=source, location=line,
                                    field="type")
                if isinstance(event, SecretEvent) and event.commitment and \
                        commitment(event.secret_payload(), event.salt) != event.commitment:
                    raise DataError(f"this sealed {type(event).__name__} does not match its commitment: its choice "
                                    "or salt was changed after it was sealed", source=source, location=line,
                                    field="payload.commitment")
                _check_sealed_command_owner(event, source, line)
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
        if head_states is not None:
            head_states[branch.id] = state
        at_checkpoints[branch.id] = checkpoints
    return context, at_checkpoints


def _check_sealed_command_owner(event: Any, source: str, line: int) -> None:
    """A sealed command is owned by the player who gave it. The commitment covers the command, not its owner,
    and a player's copy shows a secret whole to its owner: a file that made the other side the owner of a
    player's sealed order would hand it to them in their copy."""
    if type(event) is SecretCommandIssued and event.owner != event.command.get("player"):
        raise DataError(f"this sealed command of {event.command.get('player')!r} names {event.owner!r} as its owner",
                        source=source, location=line, field="payload.owner")


def _line_of(parsed: ParsedGame, branch_id: str, seq: int) -> int:
    """The file line of event ``seq`` of ``branch_id``'s line of play."""
    entry = parsed.branches[_owner(parsed, branch_id, seq)]
    return entry.lines[seq - entry.branch.fork_seq - 1]


def _line_of_play(parsed: ParsedGame, branch_id: str, lines: dict[str, list[Envelope]]) -> list[Envelope]:
    """Every envelope of a branch's line of play: its parent's up to the fork point, then its own."""
    if branch_id in lines:
        return lines[branch_id]
    entry = parsed.branches[branch_id]
    branch = entry.branch
    inherited = [] if branch.parent is None else _line_of_play(parsed, branch.parent, lines)[: branch.fork_seq]
    batch = entry.batch
    game_id = parsed.header.game_id
    own = [Envelope(game_id=game_id, branch_id=branch.id, seq=seq, turn=turn, phase=phase, actor=actor, event=event)
           for seq, turn, phase, actor, event in zip(batch.seqs, batch.turns, batch.phases, batch.actors,
                                                     batch.events, strict=True)]
    lines[branch_id] = [*inherited, *own]
    return lines[branch_id]


def records_commands(parsed: ParsedGame) -> bool:
    """Whether the file's game was recorded with its commands (any ``CommandIssued`` in any branch)."""
    return any(issued_command(event) is not None for entry in parsed.branches.values() for event in entry.batch.events)


class Undecided(msgspec.Struct, frozen=True):
    """Where a line of play stops being what its rules decide: the seq of the first event the recorded
    commands do not produce, the field at fault and why."""

    seq: int
    field: str
    message: str
    #: The failure belongs to the branch as a whole (the ruleset raised), not to the event at ``seq``.
    whole_branch: bool = False


def redecide_line(ruleset: Any, setup: Any, envelopes: Sequence[Envelope], start: int,
                  start_state: Any, *, shape: str | None = None) -> Undecided | None:
    """Decide every recorded command of ``envelopes[start:]`` again (one line of play, ``start_state`` the
    state its first ``start`` events fold to) with the recorded dice and salts; None when each produces
    exactly the events recorded after it, with the command's player as their actor. Shared by ``aero
    import`` (:func:`redecide_parsed`) and ``aero verify`` (:func:`~.integrity.verify_game`). ``shape``: the
    fingerprint of the state shape the game was recorded with (its checkpoints are checked in it or a later one)."""
    from aero_events.regress.decisions import recover_decisions

    try:
        recovery = recover_decisions(ruleset, setup, envelopes, start=start, start_state=start_state, shape=shape)
    except AeroError as err:
        return Undecided(seq=getattr(err, "seq", start + 1), field="payload",
                         message=f"the rules of {ruleset.name} did not produce this event: {err}")
    except Exception as err:  # noqa: BLE001 -- whatever a ruleset raises deciding a recorded command refuses it
        return Undecided(seq=start + 1, field="payload", whole_branch=True,
                         message=f"{ruleset.name} cannot decide the recorded commands: {type(err).__name__}: {err}")
    for decision in recovery.decisions:
        player = decision.command.player
        for env in envelopes[decision.first_seq - 1: decision.last_seq]:
            if env.actor != player and not (env.actor == CORE_ACTOR and type(env.event) is StateCheckpoint):
                return Undecided(seq=env.seq, field="actor",
                                 message=f"this {env.type} was caused by {player}'s command, but names "
                                         f"{env.actor or 'no player'} as its actor")
    return None


def redecide_parsed(parsed: ParsedGame, context: GameContext, fork_states: dict[str, Any]) -> bool:
    """Decide every recorded command of ``parsed`` again (see the module docstring); refuse the file at the
    line of the first event the rules did not produce. Returns False, checking nothing, for a game recorded
    before commands were (re-folded only)."""
    if not records_commands(parsed):
        return False
    lines: dict[str, list[Envelope]] = {}
    for entry in parsed.branches.values():
        branch = entry.branch
        if not entry.batch.events:
            continue
        envelopes = _line_of_play(parsed, branch.id, lines)
        found = redecide_line(context.ruleset, context.setup, envelopes, branch.fork_seq, fork_states[branch.id],
                              shape=recorded_fingerprint(game_metadata(context.record)))
        if found is not None:
            if found.whole_branch:
                raise DataError(found.message.replace("recorded commands", f"recorded commands of branch "
                                                                            f"{branch.id!r}", 1),
                                source=parsed.source, location=entry.line, field=found.field)
            raise DataError(found.message, source=parsed.source, location=_line_of(parsed, branch.id, found.seq),
                            field=found.field)
    return True
