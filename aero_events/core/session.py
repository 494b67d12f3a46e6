"""The game session: commands in, events out, states at any point, branches.

A :class:`Game` is a tree of :class:`Branch` es (python-chess's variations): the
root branch ``main`` and any number of forks, each sharing its parent's events up
to the fork point (by reference, never copied). A :class:`GameSession` plays one
branch of a game: it hands commands to the ruleset's ``decide`` with a dice cup,
folds the resulting events with ``evolve``, and appends them only when every
step succeeded, so an illegal command appends nothing (contract 4).

At each change of turn the session records a :class:`StateCheckpoint` carrying
the hash of the state reached; folding a recorded game checks it (contract 6).

Each applied command is recorded too, as a :class:`CommandIssued` event just before the
events it caused (a :class:`SecretCommandIssued`, sealed like any secret, when the ruleset
says the command is a secret choice), so that any ruleset's recorded game can be decided
again command by command (``aero regress``). Both are core events: they change no state.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, ClassVar

import msgspec

from .decider import Command, Ruleset
from .dice import DiceCup, DiceSource, SeededDice, position_keeper, rolls_after
from .emitter import Decided
from .errors import AeroError
from .events import Envelope, Event
from .secrets import SaltSource, SecretEvent, commitment_to_canonical, redact
from .state_shape import METADATA_KEY as SHAPE_KEY
from .state_shape import CheckpointCheck, StateShapeError, new_game_fingerprint
from .typed_commands import checked_command, refuse_if_mistyped

CORE_ACTOR = None


class StateCheckpoint(Event, frozen=True, gc=False, tag="StateCheckpoint"):
    """The hash of the state reached when ``turn`` began (recorded by the session, not the ruleset).

    It changes no state; a replay that reaches another hash has diverged. Like the session's other records it
    holds only JSON data, which never points back at it: not tracked by the garbage collector (``gc=False``).
    """

    core_event: ClassVar[bool] = True
    turn: int
    state_hash: str


class CommandIssued(Event, frozen=True, gc=False, tag="CommandIssued"):
    """A command a player gave, recorded before the events it caused (its envelope's actor is the player).

    ``command`` is the command's msgspec encoding as JSON data (its tag in ``command``);
    :meth:`~aero_events.core.interface.ToolInterface.decode_command` turns it back into the command.
    """

    core_event: ClassVar[bool] = True
    command: dict[str, Any]


class SecretCommandIssued(SecretEvent, frozen=True, gc=False, tag="SecretCommandIssued"):
    """A command that is a secret choice (a face-down token, a sealed bid), readable only by its ``owner``.

    Other players see a commitment (:func:`~aero_events.core.secrets.redact`), for good: what they learn
    is the ruleset's own reveal event.
    """

    core_event: ClassVar[bool] = True
    secret_fields: ClassVar[tuple[str, ...]] = ("command",)
    command: dict[str, Any]


def issued_command(event: Event) -> dict[str, Any] | None:
    """The encoded command a :class:`CommandIssued` or :class:`SecretCommandIssued` carries, else None."""
    kind = type(event)
    if kind is CommandIssued or kind is SecretCommandIssued:
        return event.command  # type: ignore[attr-defined]
    return None


def encode_command(command: Command) -> dict[str, Any]:
    """A command as the JSON data a :class:`CommandIssued` stores (exactly what a JSON round trip gives)."""
    return msgspec.json.decode(msgspec.json.encode(command))


def _folded_one_by_one(state: Any, events: Iterable[Event], evolve: Any) -> Iterator[tuple[Event, Any]]:
    """Each event with the state after it, folded as the caller reads them (the order of calls of a fold inside
    the caller's loop: an event, its ``evolve``, then whatever the caller does with it)."""
    for event in events:
        state = evolve(state, event)
        yield event, state


class ReplayMismatch(AeroError):
    """A replayed game reached a state whose hash differs from the one recorded."""


class Branch:
    """One line of play: the parent's events up to ``fork_seq``, then its own.

    Sequence numbers start at 1; ``state_at(0)`` is the initial state.
    """

    def __init__(self, branch_id: str, parent: Branch | None, fork_seq: int, label: str, initial: Any):
        self.id = branch_id
        self.parent = parent
        self.fork_seq = fork_seq
        self.label = label
        self._initial = initial
        self.own: list[Envelope] = []
        self._states: list[Any] = []

    @property
    def head_seq(self) -> int:
        return self.fork_seq + len(self.own)

    def envelope(self, seq: int) -> Envelope:
        if seq > self.fork_seq:
            return self.own[seq - self.fork_seq - 1]
        assert self.parent is not None
        return self.parent.envelope(seq)

    def envelopes(self, start: int = 1, stop: int | None = None) -> Iterator[Envelope]:
        """Envelopes with start <= seq <= stop (default: to the head), ancestors' first."""
        stop = self.head_seq if stop is None else min(stop, self.head_seq)
        if start > stop:
            return
        if self.parent is not None and start <= self.fork_seq:
            yield from self.parent.envelopes(start, min(stop, self.fork_seq))
        first_own = max(start, self.fork_seq + 1)
        for seq in range(first_own, stop + 1):
            yield self.own[seq - self.fork_seq - 1]

    def state_at(self, seq: int) -> Any:
        if not 0 <= seq <= self.head_seq:
            raise IndexError(f"branch {self.id!r} has events 1..{self.head_seq}; no state at {seq}")
        if seq > self.fork_seq:
            return self._states[seq - self.fork_seq - 1]
        if self.parent is None:
            return self._initial
        return self.parent.state_at(seq)

    def lineage(self) -> list[Branch]:
        chain, branch = [], self
        while branch is not None:
            chain.append(branch)
            branch = branch.parent
        return chain[::-1]

    def _append(self, envelope: Envelope, state: Any) -> None:
        self.own.append(envelope)
        self._states.append(state)


class Game:
    """A game's identity, setup and tree of branches."""

    def __init__(self, ruleset: Ruleset, setup: Any, game_id: str | None = None, metadata: dict | None = None,
                 *, recorded: bool = False):
        """A new game's metadata records the fingerprint of the ruleset's state shape (``"state_shape"``,
        :mod:`.state_shape`; when the ruleset keeps a history of shapes), replacing any it was given: its
        checkpoints will be of that shape. A game read back from a record (``recorded``: the store, a file)
        keeps its metadata as recorded; one without a fingerprint was recorded before they were, with the first
        shape of the ruleset's history."""
        self.ruleset = ruleset
        self.setup = setup
        self.id = game_id or uuid.uuid4().hex
        self.metadata = dict(metadata or {})
        if not recorded and (shape := new_game_fingerprint(ruleset)) is not None:
            self.metadata[SHAPE_KEY] = shape
        self.initial_state = ruleset.initial_state(setup)
        self.branches: dict[str, Branch] = {"main": Branch("main", None, 0, "main", self.initial_state)}

    @property
    def main(self) -> Branch:
        return self.branches["main"]

    def fork(self, parent: str, at_seq: int, name: str | None = None) -> Branch:
        """A new branch sharing ``parent``'s events 1..``at_seq``."""
        base = self.branches[parent]
        if not 0 <= at_seq <= base.head_seq:
            raise IndexError(f"branch {parent!r} has events 1..{base.head_seq}; cannot fork at {at_seq}")
        name = name or f"branch-{len(self.branches)}"
        if name in self.branches:
            raise ValueError(f"game {self.id} already has a branch named {name!r}")
        branch = Branch(name, base, at_seq, name, self.initial_state)
        self.branches[name] = branch
        return branch

    def tree(self) -> dict[str, list[str]]:
        """Each branch's children, by id."""
        children: dict[str, list[str]] = {bid: [] for bid in self.branches}
        for branch in self.branches.values():
            if branch.parent is not None:
                children[branch.parent.id].append(branch.id)
        return children


class _MarkedSource:
    """A session's dice or salt source, an attribute whose (mark, restore) functions
    (:func:`~.dice.position_keeper`) are looked up when it is set, not three times a command (issue 18): a session
    whose dice or salts are replaced marks the new ones. The session holds ``(source, mark, restore)`` in
    ``_<name>_kept``, which :meth:`GameSession.apply` reads."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.kept = f"_{name}_kept"

    def __get__(self, session: Any, owner: type | None = None) -> Any:
        return self if session is None else getattr(session, self.kept)[0]

    def __set__(self, session: Any, source: Any) -> None:
        setattr(session, self.kept, (source, *position_keeper(source)))


class GameSession:
    """Plays one branch of a game.

    ``dice`` is the source of faces (seeded, manual or a tape); ``salts`` seeds the
    commitments of secret choices (default: random; from the seed of seeded dice only when
    the game's metadata says ``"reproducible_salts": true``, :meth:`SaltSource.for_game`).
    ``checkpoints`` records a :class:`StateCheckpoint` at every change of turn;
    ``record_commands`` records each applied command as a :class:`CommandIssued` (off
    only to write a log as games were recorded before commands were, e.g. the golden
    corpus). Secret commands are sealed with salts from ``salts.derived("commands")``, so
    the ruleset's own salts do not depend on it.
    """

    def __init__(
        self,
        ruleset: Ruleset,
        setup: Any = None,
        *,
        dice: DiceSource,
        salts: SaltSource | None = None,
        game_id: str | None = None,
        game: Game | None = None,
        branch: str = "main",
        checkpoints: bool = True,
        metadata: dict | None = None,
        record_commands: bool = True,
    ):
        self.ruleset = ruleset
        self.game = game or Game(ruleset, setup, game_id, metadata)
        self.branch = self.game.branches[branch]
        self.dice = dice
        if salts is None:  # from the seed only when the game's metadata says so (issue 16 item 3)
            seed = f"{dice.seed}:{self.branch.id}" if isinstance(dice, SeededDice) else None
            salts = SaltSource.for_game(self.game.metadata, seed)
        self.salts = salts
        self.command_salts = salts.derived("commands")
        self.checkpoints = checkpoints
        self.record_commands = record_commands
        self._roll_count = max((rolls_after(env.event) or 0 for env in self.branch.envelopes()), default=0)

    # ---------------------------------------------------------------- the sources

    #: Where the faces come from.
    dice = _MarkedSource()
    #: The salts of the secrets the ruleset seals.
    salts = _MarkedSource()
    #: The salts of secret commands' records (``salts.derived("commands")`` unless replaced).
    command_salts = _MarkedSource()

    # ---------------------------------------------------------------- reading

    @property
    def game_id(self) -> str:
        return self.game.id

    @property
    def state(self) -> Any:
        states = self.branch._states
        if states:  # the state after the branch's last own event: its head
            return states[-1]
        return self.branch.state_at(self.branch.head_seq)

    @property
    def seq(self) -> int:
        return self.branch.head_seq

    def events(self, start: int = 1, stop: int | None = None) -> list[Envelope]:
        return list(self.branch.envelopes(start, stop))

    def state_at(self, seq: int) -> Any:
        return self.branch.state_at(seq)

    def state_hash(self, seq: int | None = None) -> str:
        return self.ruleset.state_hash(self.state_at(self.seq if seq is None else seq))

    def legal_commands(self, player: str) -> list[Command]:
        return self.ruleset.legal_commands(self.state, player)

    def is_over(self) -> bool:
        return self.ruleset.is_over(self.state)

    def view(self, player: str | None) -> Any:
        """The current state as ``player`` sees it."""
        return self.ruleset.view(self.state, player)

    def events_for(self, player: str | None) -> list[Envelope]:
        """The event log as ``player`` sees it: others' secrets appear as commitments only."""
        seen: list[Envelope] = []
        for env in self.branch.envelopes():
            shown = redact(env.event, player)
            seen.append(env if shown is env.event else msgspec.structs.replace(env, event=shown))
        return seen

    # ---------------------------------------------------------------- playing

    def apply(self, command: Command) -> list[Envelope]:
        """Decide and apply ``command``; return the new envelopes.

        A :class:`RuleError` (or any failure while folding) leaves the branch, the
        dice stream and the salt stream exactly as they were.
        """
        dice, mark_dice, restore_dice = self._dice_kept
        salts, mark_salts, restore_salts = self._salts_kept
        command_salts, mark_command_salts, restore_command_salts = self._command_salts_kept
        dice_mark, salt_mark, command_salt_mark = mark_dice(dice), mark_salts(salts), mark_command_salts(command_salts)
        branch = self.branch
        try:
            cup = DiceCup(dice, self._roll_count, salts)
            before = self.state
            events = self.ruleset.decide(before, command, cup)
            issued = self._issued(command) if self.record_commands else None
            envelopes, states = self._fold_new(before, events, command.player, issued)
        except BaseException as error:
            restore_dice(dice, dice_mark)
            restore_salts(salts, salt_mark)
            restore_command_salts(command_salts, command_salt_mark)
            if isinstance(error, Exception):
                refuse_if_mistyped(command)  # a RuleError naming the field (issue 16 item 8), else re-raise
            raise
        branch.own.extend(envelopes)
        branch._states.extend(states)
        self._roll_count = cup.next_index
        return envelopes

    def _issued(self, command: Command) -> Event:
        """The record of ``command``: sealed, owned by its player, when the ruleset calls it secret."""
        checked = checked_command(command)  # a RuleError for a mistyped field, before anything is appended
        if self.ruleset.is_secret_command(command):  # sealed as SecretEvent.sealed seals, in one construction
            salt = self.command_salts.next()
            return SecretCommandIssued(owner=command.player, command=checked.record(), salt=salt,
                                       commitment=commitment_to_canonical(checked.secret_payload_json(), salt))
        return CommandIssued(command=checked.record())

    def _fold_new(self, state: Any, events: Sequence[Event], actor: str | None, issued: Event | None = None
                  ) -> tuple[list[Envelope], list[Any]]:
        """The envelopes of ``issued`` (the command's record, if any) then ``events`` after the head, and the
        state after each (state checkpoints included)."""
        ruleset = self.ruleset
        clock = ruleset.clock
        branch = self.branch
        game_id, branch_id = self.game.id, branch.id
        checkpoints = self.checkpoints
        seq = branch.head_seq
        envelopes: list[Envelope] = []
        states: list[Any] = []
        add_envelope, add_state = envelopes.append, states.append
        # An event is stamped with the turn and phase in which it happened: the clock before it.
        turn, phase = clock(state)
        if issued is not None:  # a core event changes no state: no evolve, and the clock stays where it was
            seq += 1
            add_envelope(Envelope(game_id, branch_id, seq, turn, phase, actor, issued))
            add_state(state)
        # A decide that folded as it went (core/emitter.py) hands over the state after each event: they are
        # taken, not folded a second time (issue 18), when they are what ``evolve`` gives from ``state``.
        after_each = events.states_from(state, ruleset.evolve) if type(events) is Decided else None
        folded = _folded_one_by_one(state, events, ruleset.evolve) if after_each is None else zip(events, after_each)
        for event, after in folded:
            seq += 1
            add_envelope(Envelope(game_id, branch_id, seq, turn, phase, actor, event))
            add_state(after)
            turn_after, phase_after = clock(after)
            if checkpoints and turn_after != turn:
                seq += 1
                mark = StateCheckpoint(turn=turn_after, state_hash=ruleset.state_hash(after))
                add_envelope(Envelope(game_id, branch_id, seq, turn_after, phase_after, CORE_ACTOR, mark))
                add_state(after)
            turn, phase = turn_after, phase_after
        return envelopes, states

    def record(self, envelopes: Iterable[Envelope]) -> None:
        """Append already-decided events (a replay or an import): fold them, never re-roll.

        Checkpoints are verified, in the state shape the game was recorded with or a later one
        (:class:`~.state_shape.CheckpointCheck`: a game recorded before its ruleset's state gained a field still
        replays); a mismatch, or a recorded shape this version cannot check, raises :class:`ReplayMismatch` and
        appends nothing.
        """
        state = self.state
        seq = self.seq
        staged = []
        evolve = self.ruleset.evolve
        game_id, branch_id = self.game.id, self.branch.id
        rolls = self._roll_count
        # Each checkpoint is checked in the shape the game was recorded with or a later one (.state_shape).
        check = CheckpointCheck.for_game(self.ruleset, self.game.metadata)
        for env in envelopes:
            seq += 1
            if env.seq != seq:
                raise ReplayMismatch(f"event {env.seq} follows event {seq - 1}: the log is out of order")
            event = env.event
            if type(event) is StateCheckpoint:
                try:
                    matched = check.matches(state, event.state_hash)
                except StateShapeError as err:
                    raise ReplayMismatch(f"at event {seq} (turn {event.turn}): {err}") from None
                if not matched:
                    raise ReplayMismatch(
                        f"at event {seq} (turn {event.turn}) the replayed state hash {check.actual[:12]} "
                        f"differs from the recorded {event.state_hash[:12]}"
                    )
            else:
                state = evolve(state, event)
                after = rolls_after(event)  # any roll that took an index: plain, secret or scatter
                if after is not None:
                    rolls = max(rolls, after)
            if env.game_id != game_id or env.branch_id != branch_id:
                env = msgspec.structs.replace(env, game_id=game_id, branch_id=branch_id)
            staged.append((env, state))
        self._roll_count = rolls
        for envelope, new_state in staged:
            self.branch._append(envelope, new_state)

    def fork(self, at_seq: int, name: str | None = None, *, dice: DiceSource | None = None) -> GameSession:
        """A session on a new branch sharing this branch's events 1..``at_seq``.

        Without ``dice``, a seeded game continues with dice seeded from its seed and
        the branch name (reproducible); other sources are shared.
        """
        branch = self.game.fork(self.branch.id, at_seq, name)
        if dice is None:
            dice = SeededDice(f"{self.dice.seed}/{branch.id}") if isinstance(self.dice, SeededDice) else self.dice
        return GameSession(self.ruleset, dice=dice, game=self.game, branch=branch.id, checkpoints=self.checkpoints,
                           record_commands=self.record_commands)

    def switch(self, branch: str) -> GameSession:
        """A session on another existing branch of this game, sharing the dice source."""
        return GameSession(self.ruleset, dice=self.dice, salts=self.salts, game=self.game, branch=branch,
                           checkpoints=self.checkpoints, record_commands=self.record_commands)

