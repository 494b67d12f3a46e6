"""``verify``: is a stored game exactly what was recorded?

Two independent checks, each branch on its own:

1. **The hash chain.** Walk the branch's own events in seq order from the hash at its
   fork point (genesis for main). The first event that breaks the walk is reported:
   *missing* (a gap in seq), *out of order* (its recorded predecessor is another
   stored event), *altered* (its stored hash or link does not match its content).
   Then the end: the branch's row records where the last write left it and the hash
   there (schema 3, :mod:`.heads`), so a cut-off tail is *truncated*; the game's row
   records a digest of its branch rows, so a deleted (or smuggled-in) branch is
   *branches*.
2. **The replay.** Fold the branch's events through the game's ruleset from the
   state at its fork point; every :class:`StateCheckpoint` must match the folded
   state's hash and every stored snapshot the folded state.
3. **The decisions** (after a clean replay). Every recorded command is decided again under the game's
   ruleset with the recorded dice and salts (:func:`~.refold.redecide_line`, as ``aero import`` does) and
   must produce exactly the events stored after it. A chain can be recomputed by anyone who can write the
   database file, and a replay only shows that the events apply; this shows that the rules produced them
   (a die changed so that a miss reads as a hit is found here). A game recorded before commands were is
   replayed only, and the report says so.

Each problem names the game, the branch and the seq.
"""

from __future__ import annotations

from typing import Any

import duckdb
import msgspec

from aero_events.core.errors import DataError
from aero_events.core.events import Envelope
from aero_events.core.session import StateCheckpoint, issued_command
from aero_events.core.state_shape import CheckpointCheck, StateShapeError, recorded_fingerprint

from .chain import GENESIS, chain_hashes
from .codec import decode_payloads, gc_paused
from .games import GameContext, branch_infos, game_context, game_metadata, game_record
from .heads import branch_rows, branches_digest
from .records import BranchInfo, engine_version
from .snapshots import encode_state

ALTERED = "altered"
MISSING = "missing"
OUT_OF_ORDER = "out of order"
REPLAY = "replay"
TRUNCATED = "truncated"
BRANCHES = "branches"
SNAPSHOT = "snapshot"
UNDECODABLE = "undecodable"
DECIDED = "not decided"


class Problem(msgspec.Struct, frozen=True, kw_only=True):
    """The first thing wrong in one branch (by one of the two checks)."""

    kind: str
    game_id: str
    branch_id: str
    seq: int
    message: str

    def __str__(self) -> str:
        return f"game {self.game_id} branch {self.branch_id!r} seq {self.seq}: {self.kind}: {self.message}"


class VerifyReport(msgspec.Struct, kw_only=True):
    """What ``verify`` found. ``ok`` when there is no problem."""

    game_id: str
    branches: int
    events: int
    replayed: bool
    #: Whether every recorded command was decided again (False: not asked, or no recorded commands).
    redecided: bool = False
    problems: list[Problem] = []
    notes: list[str] = []

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def first_problem(self) -> Problem | None:
        return self.problems[0] if self.problems else None

    def summary(self) -> str:
        checks = ("hash chain, replay and decisions" if self.redecided else
                  "hash chain and replay" if self.replayed else "hash chain")
        if self.ok:
            return (f"game {self.game_id}: ok ({_count(self.events, 'event')} in {_count(self.branches, 'branch')}; "
                    f"{checks} checked)")
        return f"game {self.game_id}: FAILED: {self.problems[0]}" + (
            f" (and {len(self.problems) - 1} more)" if len(self.problems) > 1 else "")


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "es" if noun.endswith("ch") else "s")


class _BranchRows:
    """One branch's own stored rows, as columns."""

    def __init__(self, columns: dict[str, list[Any]]):
        self.seqs: list[int] = columns["seq"]
        self.turns: list[int] = columns["turn"]
        self.phases: list[str] = columns["phase"]
        self.actors: list[str | None] = columns["actor"]
        self.types: list[str] = columns["type"]
        self.versions: list[int] = columns["version"]
        self.payloads: list[str] = columns["payload"]
        self.prev_hashes: list[bytes] = columns["prev_hash"]
        self.hashes: list[bytes] = columns["hash"]


def _load_rows(conn: duckdb.DuckDBPyConnection, game_id: str, infos: dict[str, BranchInfo]) -> dict[str, _BranchRows]:
    names = ("seq", "turn", "phase", "actor", "type", "version", "payload", "prev_hash", "hash")
    rows = {}
    for branch_id in infos:
        table = conn.sql(
            f"SELECT {', '.join(names)} FROM events WHERE game = $game AND branch = $branch ORDER BY seq",
            params={"game": game_id, "branch": branch_id},
        ).to_arrow_table()
        rows[branch_id] = _BranchRows({name: table.column(name).to_pylist() for name in names})
    return rows


def _owner(infos: dict[str, BranchInfo], branch_id: str, seq: int) -> str:
    """The branch that stores event ``seq`` of ``branch_id``'s line of play."""
    info = infos[branch_id]
    while seq <= info.fork_seq and info.parent in infos:
        info = infos[info.parent]
    return info.id


def check_chain(game_id: str, infos: dict[str, BranchInfo], rows: dict[str, _BranchRows]) -> list[Problem]:
    """The first break in each branch's hash chain."""
    located: dict[bytes, tuple[str, int]] = {}
    for branch_id, branch in rows.items():
        located.update(zip(branch.hashes, ((branch_id, seq) for seq in branch.seqs), strict=True))
    problems = []
    for info in infos.values():
        problem = _first_break(game_id, info, infos, rows, rows[info.id], located)
        if problem is not None:
            problems.append(problem)
    return problems


def _first_break(game_id: str, info: BranchInfo, infos: dict[str, BranchInfo], rows: dict[str, _BranchRows],
                 branch: _BranchRows, located: dict[bytes, tuple[str, int]]) -> Problem | None:
    def problem(kind: str, seq: int, message: str) -> Problem:
        return Problem(kind=kind, game_id=game_id, branch_id=info.id, seq=seq, message=message)

    if info.parent is not None and info.parent not in infos:
        return problem(MISSING, info.fork_seq, f"its parent branch {info.parent!r} is not stored")
    start = GENESIS
    if info.fork_seq > 0:
        owner = _owner(infos, info.parent, info.fork_seq)  # type: ignore[arg-type]
        owner_rows = rows[owner]
        index = info.fork_seq - infos[owner].fork_seq - 1
        if not (0 <= index < len(owner_rows.seqs) and owner_rows.seqs[index] == info.fork_seq):
            return problem(MISSING, info.fork_seq,
                           f"it forks from {info.parent!r} at {info.fork_seq}, and that event is not stored")
        start = owner_rows.hashes[index]
    expected_seqs = list(range(info.fork_seq + 1, info.fork_seq + 1 + len(branch.seqs)))
    with gc_paused():
        computed = chain_hashes(start, branch.seqs, branch.turns, branch.phases, branch.actors, branch.types,
                                branch.versions, [payload.encode() for payload in branch.payloads])
    if branch.seqs == expected_seqs and computed == branch.hashes and branch.prev_hashes == [start, *computed[:-1]]:
        return _truncation(info, branch, start, problem)
    previous = start
    for index, seq in enumerate(branch.seqs):
        wanted = info.fork_seq + 1 + index
        if seq != wanted:
            gap = f"{wanted}" if seq == wanted + 1 else f"{wanted}..{seq - 1}"
            return problem(MISSING, wanted, f"event {gap} is missing: event {seq} follows event {wanted - 1}")
        recorded_prev = branch.prev_hashes[index]
        if recorded_prev != previous:
            if recorded_prev in located:
                where_branch, where_seq = located[recorded_prev]
                elsewhere = f" of branch {where_branch!r}" if where_branch != info.id else ""
                return problem(OUT_OF_ORDER, seq, f"its chain says it follows event {where_seq}{elsewhere}, "
                                                  f"not event {seq - 1}")
            return problem(ALTERED, seq, f"its link to event {seq - 1} does not match: "
                                         f"event {seq - 1}'s hash or this event's prev_hash was changed")
        if computed[index] != branch.hashes[index]:
            return problem(ALTERED, seq, f"its content ({branch.types[index]}) does not match its hash")
        previous = branch.hashes[index]
    return _truncation(info, branch, start, problem)


def _truncation(info: BranchInfo, branch: _BranchRows, start: bytes, problem: Any) -> Problem | None:
    """A branch whose stored events stop short of (or run past) the head its row was sealed at."""
    if info.sealed_seq is None:
        return problem(TRUNCATED, info.fork_seq, "its row records no head (written outside the store?)")
    head = branch.seqs[-1] if branch.seqs else info.fork_seq
    head_hash = branch.hashes[-1] if branch.hashes else start
    if info.sealed_seq > head:
        gone = f"{head + 1}" if info.sealed_seq == head + 1 else f"{head + 1}..{info.sealed_seq}"
        return problem(TRUNCATED, head + 1, f"its row says it ends at event {info.sealed_seq}, the stored "
                                            f"events end at {head}: event {gone} was deleted")
    if info.sealed_seq < head:
        return problem(TRUNCATED, info.sealed_seq + 1, f"its row says it ends at event {info.sealed_seq}, the "
                                                       f"stored events run to {head}: written outside the store")
    if info.sealed_hash is not None and info.sealed_hash != head_hash:
        return problem(TRUNCATED, head, "its last event is not the one its row was sealed with")
    return None


def check_branches(conn: duckdb.DuckDBPyConnection, game_id: str, infos: dict[str, BranchInfo]) -> list[Problem]:
    """The game's branch rows must be those its last write sealed (a deleted branch leaves no other trace)."""
    (recorded,), = conn.execute("SELECT branches_digest FROM games WHERE id = ?", [game_id]).fetchall()
    if recorded == branches_digest(branch_rows(conn, game_id)):
        return []
    detail = ("the game records no digest of its branches" if recorded is None else
              "its branches are not those the store last wrote: a branch was deleted, added or changed "
              f"outside the store (now: {', '.join(infos) or 'none'})")
    first = next(iter(infos), "main")
    return [Problem(kind=BRANCHES, game_id=game_id, branch_id=first, seq=0, message=detail)]


def check_replay(game_id: str, context: GameContext, infos: dict[str, BranchInfo], rows: dict[str, _BranchRows],
                 snapshots: dict[tuple[str, int], bytes], replayed: dict[str, tuple[Any, list[Any]]] | None = None
                 ) -> tuple[list[Problem], list[str]]:
    """Fold each branch from the state at its fork point; checkpoints and snapshots must match. Each branch
    replayed without a problem is put in ``replayed``: its id -> (the state at its fork point, its events)."""
    ruleset = context.ruleset
    needed = {(_owner(infos, info.parent, info.fork_seq), info.fork_seq)
              for info in infos.values() if info.parent in infos and info.fork_seq > 0}
    states: dict[tuple[str, int], Any] = {}
    problems: list[Problem] = []
    notes: list[str] = []
    for info in infos.values():
        if info.parent is None or info.fork_seq == 0:
            state = context.initial_state
        else:
            key = (_owner(infos, info.parent, info.fork_seq), info.fork_seq) if info.parent in infos else None
            if key not in states:
                notes.append(f"branch {info.id!r} not replayed: the line it forks from could not be replayed "
                             f"to event {info.fork_seq}")
                continue
            state = states[key]
        branch = rows[info.id]
        events: list[Any] = []
        problem = _replay_branch(game_id, info, context, branch, state, snapshots, needed, states, ruleset, events)
        if problem is not None:
            problems.append(problem)
        elif replayed is not None:
            replayed[info.id] = (state, events)
    return problems, notes


def _replay_branch(game_id: str, info: BranchInfo, context: GameContext, branch: _BranchRows, state: Any,
                   snapshots: dict[tuple[str, int], bytes], needed: set[tuple[str, int]],
                   states: dict[tuple[str, int], Any], ruleset: Any, decoded: list[Any]) -> Problem | None:
    def problem(kind: str, seq: int, message: str) -> Problem:
        return Problem(kind=kind, game_id=game_id, branch_id=info.id, seq=seq, message=message)

    try:
        events = decode_payloads(branch.types, branch.versions, branch.payloads, branch.seqs,
                                 where=f"game {game_id} branch {info.id}")
    except DataError as err:
        seq = int(str(err.location).removeprefix("seq ")) if err.location else info.fork_seq + 1
        return problem(UNDECODABLE, seq, err.detail + (f" (field {err.field})" if err.field else ""))
    decoded.extend(events)
    evolve = ruleset.evolve
    # in the state shape the game was recorded with, or a later one (core/state_shape.py)
    check = CheckpointCheck.for_game(ruleset, game_metadata(context.record))
    for seq, event in zip(branch.seqs, events, strict=True):
        if type(event) is StateCheckpoint:
            try:
                matched = check.matches(state, event.state_hash)
            except StateShapeError as err:
                return problem(REPLAY, seq, str(err))
            if not matched:
                return problem(REPLAY, seq, f"the checkpoint of turn {event.turn} records state hash "
                                            f"{event.state_hash[:12]}, the replay reaches {check.actual[:12]}")
            blob = snapshots.get((info.id, seq))
            # a snapshot is written in the shape current when it was written: this one, or the checkpoint's
            if blob is not None and blob != encode_state(state) and blob != check.encode(state):
                return problem(SNAPSHOT, seq, "the stored snapshot differs from the replayed state")
        else:
            try:
                state = evolve(state, event)
            except Exception as err:  # noqa: BLE001 -- whatever a ruleset raises on a stored event is a finding
                return problem(REPLAY, seq, f"{ruleset.name} cannot apply {type(event).__name__}: "
                                            f"{type(err).__name__}: {err}")
        if (info.id, seq) in needed:
            states[(info.id, seq)] = state
    return None


def verify_game(conn: duckdb.DuckDBPyConnection, game_id: str, *, replay: bool = True,
                decide: bool = True) -> VerifyReport:
    """Check a stored game's hash chains and (with ``replay``) re-fold every branch, then (with ``decide``,
    when the replay found nothing) decide every recorded command again."""
    record = game_record(conn, game_id)
    infos = branch_infos(conn, game_id)
    rows = _load_rows(conn, game_id, infos)
    problems = check_branches(conn, game_id, infos) + check_chain(game_id, infos, rows)
    notes: list[str] = []
    decided = False
    if replay:
        context = game_context(conn, game_id)
        snapshots = {(branch, int(seq)): bytes(blob) for branch, seq, blob in conn.execute(
            "SELECT branch, seq, state FROM snapshots WHERE game = ?", [game_id]).fetchall()}
        replayed: dict[str, tuple[Any, list[Any]]] = {}
        replay_problems, notes = check_replay(game_id, context, infos, rows, snapshots, replayed)
        problems.extend(replay_problems)
        if decide and not problems:
            decision_problems, decided = check_decisions(game_id, context, infos, rows, replayed)
            problems.extend(decision_problems)
            if not decided:
                notes.append("recorded before commands were: its events were replayed, not decided again")
        if str(context.ruleset.data_version) != record.data_version:
            notes.append(f"recorded with data version {record.data_version}; "
                         f"this engine's {record.ruleset} has {context.ruleset.data_version}")
    if record.engine_version != engine_version():
        notes.append(f"recorded by aero_events {record.engine_version}; this is {engine_version()}")
    order = list(infos)
    problems.sort(key=lambda p: (order.index(p.branch_id), p.seq))
    return VerifyReport(game_id=game_id, branches=len(infos), events=sum(len(r.seqs) for r in rows.values()),
                        replayed=replay, redecided=replay and decide and not problems and decided,
                        problems=problems, notes=notes)


def check_decisions(game_id: str, context: GameContext, infos: dict[str, BranchInfo], rows: dict[str, _BranchRows],
                    replayed: dict[str, tuple[Any, list[Any]]]) -> tuple[list[Problem], bool]:
    """Decide each branch's recorded commands again from its fork point (:func:`~.refold.redecide_line`); the
    first event the rules did not produce is the branch's problem. Also says whether the game records its
    commands at all (a game from before they were is replayed only)."""
    from .refold import redecide_line

    if not any(issued_command(event) is not None for _, events in replayed.values() for event in events):
        return [], False
    lines: dict[str, list[Envelope]] = {}

    def line_of_play(branch_id: str) -> list[Envelope]:
        if branch_id not in lines:
            info, branch = infos[branch_id], rows[branch_id]
            inherited = line_of_play(info.parent)[: info.fork_seq] if info.parent in infos else []
            own = [Envelope(game_id=game_id, branch_id=branch_id, seq=seq, turn=turn, phase=phase, actor=actor,
                            event=event)
                   for seq, turn, phase, actor, event in zip(branch.seqs, branch.turns, branch.phases,
                                                             branch.actors, replayed[branch_id][1], strict=True)]
            lines[branch_id] = [*inherited, *own]
        return lines[branch_id]

    problems = []
    for info in infos.values():
        if info.id not in replayed or not rows[info.id].seqs:
            continue
        if info.parent is not None and info.parent not in replayed:
            continue  # its parent's line could not be replayed: already noted
        found = redecide_line(context.ruleset, context.setup, line_of_play(info.id), info.fork_seq,
                              replayed[info.id][0], shape=recorded_fingerprint(game_metadata(context.record)))
        if found is not None:
            problems.append(Problem(kind=DECIDED, game_id=game_id, branch_id=info.id, seq=found.seq,
                                    message=f"{found.message} (field {found.field})"))
    return problems, True
