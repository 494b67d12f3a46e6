"""Branch operations on stored games: the main line, forking, renaming, promoting, deleting, comparing.

**The main line.** As in a chess game's record (python-chess's ``GameNode``: one main line, the other
moves variations of it), every game has one branch that is *the game that was played*:
``games.main_line`` (schema 4; NULL reads as the root ``main``). Every reader given no branch reads it
(:func:`resolve_branch`, the one place a missing branch is resolved). ``aero record``'s ``undo`` makes
the branch it forks the main line (the taken-back moves become a variation), an import takes it from
the file (the record's ``Current`` header, the JSON Lines header's ``main_line``), and
``aero branch GAME --promote B`` sets it by hand.

**Fork points.** A branch shares its parent's events up to its fork point, so the fork point must be a
command boundary: 0, the end of the line, or the event just before a recorded command
(:class:`~aero_events.core.session.CommandIssued`). A point inside a command's events would leave the
new branch half a command, which no session can continue (its next command would be decided from a
state the rules never left a player in). :func:`fork_point` refuses such a point naming the two
boundaries around it, or snaps to one of them when asked.

**Rename and delete** keep every check of :mod:`.integrity` true: the hash chain does not cover branch
names (:mod:`.chain`), and the game's digest of its branch rows (:mod:`.heads`) is recomputed in the
same transaction. A deleted branch leaves a row in ``deleted_branches`` (its fork point, head and
head hash, when), so the deletion is on record rather than passing for tampering.

Comparing uses the hash chain: each hash covers every event before it, so two
branches agree up to a seq exactly when their hashes there are equal, and the
first seq where the hashes differ (or one line ends) is where they part.
"""

from __future__ import annotations

import bisect
from datetime import datetime

import duckdb
import msgspec

from aero_events.core.errors import AeroError
from aero_events.core.events import Envelope
from aero_events.core.ids import check_id, check_label
from aero_events.core.session import CommandIssued, SecretCommandIssued

from .errors import BranchExists, StoreError, UnknownBranch
from .games import ROOT_BRANCH, branch_infos, insert_branch, main_line
from .heads import seal_game
from .lineage import head_seq, lineage_events
from .options import SNAP_AFTER, SNAP_BEFORE, SNAP_CHOICES
from .records import BranchInfo, utc_naive

_COMMAND_TYPES = (CommandIssued.type_name(), SecretCommandIssued.type_name())


class Comparison(msgspec.Struct, frozen=True, kw_only=True):
    """Where two branches of a game part, and the hashes of the states they end in.

    ``first_difference`` is None when the two lines hold the same events. Otherwise
    ``event_a`` / ``event_b`` are the two events at that seq (None where a line has
    already ended).
    """

    game_id: str
    branch_a: str
    branch_b: str
    first_difference: int | None
    event_a: Envelope | None
    event_b: Envelope | None
    head_a: int
    head_b: int
    state_hash_a: str
    state_hash_b: str

    @property
    def identical(self) -> bool:
        return self.first_difference is None


class ForkPointError(StoreError):
    """A fork point inside a command's events; names the command boundaries on either side."""

    def __init__(self, message: str, before: int, after: int):
        super().__init__(message)
        self.before = before
        self.after = after


class BranchInUse(StoreError):
    """A branch that cannot be deleted or renamed as asked (the main line, a parent of other branches)."""


# ---------------------------------------------------------------- the main line


def resolve_branch(conn: duckdb.DuckDBPyConnection, game_id: str, branch: str | None) -> str:
    """``branch``, or the game's main line when it is None: the one place a reader's default is decided."""
    return main_line(conn, game_id) if branch is None else branch


def set_main_line(conn: duckdb.DuckDBPyConnection, game_id: str, branch: str) -> None:
    """Make ``branch`` the game's main line (inside the caller's transaction)."""
    known = [row[0] for row in conn.execute("SELECT id FROM branches WHERE game = ? ORDER BY id",
                                            [game_id]).fetchall()]
    if branch not in known:
        if not known:
            main_line(conn, game_id)  # raises UnknownGame
        raise UnknownBranch(f"game {game_id} has no branch {branch!r}; its branches: {', '.join(known)}")
    conn.execute("UPDATE games SET main_line = ? WHERE id = ?", [branch, game_id])


# ---------------------------------------------------------------- fork points


def command_starts(conn: duckdb.DuckDBPyConnection, game_id: str, branch: str, stop: int | None = None) -> list[int]:
    """The seq of every recorded command (``CommandIssued``, sealed or not) of a branch's line, in order."""
    table = lineage_events(conn, game_id, branch, columns=("seq",), types=_COMMAND_TYPES, stop=stop)
    return table.column("seq").to_pylist()


def _recovered_boundaries(conn: duckdb.DuckDBPyConnection, game_id: str, branch: str, stop: int) -> list[int]:
    """Command ends (last seqs) of events 1..``stop`` of a line recorded before commands were: recovered by
    re-deciding them (:mod:`aero_events.regress.decisions`, as the recorder's undo does)."""
    from aero_events.regress.decisions import recover_decisions

    from .codec import decode_table, envelopes_from_columns
    from .games import game_context

    context = game_context(conn, game_id)
    names = ("branch", "seq", "turn", "phase", "actor", "type", "version", "payload")
    table = lineage_events(conn, game_id, branch, columns=names, stop=stop)
    events = decode_table(table, where=f"game {game_id} branch {branch}")
    envelopes = envelopes_from_columns(game_id, *(table.column(name).to_pylist() for name in names[:5]), events)
    recovery = recover_decisions(context.ruleset, context.setup, envelopes)
    return [decision.last_seq for decision in recovery.decisions]


def command_boundaries(conn: duckdb.DuckDBPyConnection, game_id: str, branch: str) -> list[int]:
    """Every seq of a branch's line a fork may share up to: 0, the end of each command, the head."""
    head = head_seq(conn, game_id, branch)
    starts = command_starts(conn, game_id, branch)
    ends = {0, head}
    first = starts[0] if starts else head + 1
    if first > 1:  # events before the first recorded command: a game stored before commands were
        try:
            ends.update(_recovered_boundaries(conn, game_id, branch, first - 1))
        except AeroError as err:
            raise StoreError(f"game {game_id} branch {branch!r} was stored without its commands, and they cannot "
                             f"be recovered from its events ({err}): it forks only at 0 or at its end "
                             f"({head})") from err
    ends.update(start - 1 for start in starts)
    return sorted(end for end in ends if end <= head)


def fork_point(conn: duckdb.DuckDBPyConnection, game_id: str, branch: str, at_seq: int,
               snap: str | None = None) -> int:
    """``at_seq`` if it is a command boundary of the branch's line; else the boundary ``snap`` names
    (``before``: the end of the previous command, ``after``: the end of the command holding ``at_seq``), or,
    without ``snap``, :class:`ForkPointError` naming both."""
    head = head_seq(conn, game_id, branch)
    if isinstance(at_seq, bool) or not isinstance(at_seq, int) or not 0 <= at_seq <= head:
        raise StoreError(f"branch {branch!r} of game {game_id} has events 1..{head}; cannot fork at {at_seq}")
    if snap is not None and snap not in SNAP_CHOICES:
        raise StoreError(f"snap must be one of {', '.join(SNAP_CHOICES)}, not {snap!r}")
    if at_seq in (0, head):
        return at_seq
    boundaries = command_boundaries(conn, game_id, branch)
    index = bisect.bisect_left(boundaries, at_seq)
    if boundaries[index] == at_seq:
        return at_seq
    before, after = boundaries[index - 1], boundaries[index]
    if snap == SNAP_BEFORE:
        return before
    if snap == SNAP_AFTER:
        return after
    raise ForkPointError(
        f"event {at_seq} of branch {branch!r} is inside a command (its events are {before + 1}..{after}): a "
        f"branch must fork between commands, so that play can go on from it; fork at {before} (before that "
        f"command) or {after} (after it), or ask to snap to one of them", before, after)


def fork_branch(conn: duckdb.DuckDBPyConnection, game_id: str, from_branch: str | None, at_seq: int, name: str,
                *, label: str | None = None, created: datetime | None = None,
                snap: str | None = None) -> BranchInfo:
    """Add branch ``name`` sharing ``from_branch``'s events 1..``at_seq`` (inside the caller's transaction).

    ``from_branch`` None is the main line. ``at_seq`` must be a command boundary, or is snapped to one
    (:func:`fork_point`); the new branch's ``fork_seq`` is the point used."""
    check_id(name, "branch name")
    if label is not None:
        check_label(label, "branch label")
    from_branch = resolve_branch(conn, game_id, from_branch)
    point = fork_point(conn, game_id, from_branch, at_seq, snap)
    insert_branch(conn, game_id, name, from_branch, point, label or name, utc_naive(created))
    return branch_infos(conn, game_id)[name]


# ---------------------------------------------------------------- rename, delete


def _branch_tables(conn: duckdb.DuckDBPyConnection) -> list[str]:
    """Every table of the file that keeps rows per (game, branch): the store's events and snapshots, the
    outcomes, and any tool's own (the recorder's annotations), so that a rename or delete leaves none behind."""
    rows = conn.execute(
        """SELECT table_name FROM information_schema.columns
           WHERE table_schema = 'main' AND column_name IN ('game', 'branch')
             AND table_name IN (SELECT table_name FROM information_schema.tables
                                WHERE table_schema = 'main' AND table_type = 'BASE TABLE')
           GROUP BY table_name HAVING count(*) = 2 ORDER BY table_name""").fetchall()
    return [row[0] for row in rows]


def rename_branch(conn: duckdb.DuckDBPyConnection, game_id: str, old: str, new: str) -> BranchInfo:
    """Give branch ``old`` the name ``new`` everywhere (inside the caller's transaction).

    The root keeps its name ``main``: the engine starts every game on it (``core.session.Game``); to show
    another line by default, promote it. A label that was the old name follows the rename."""
    check_id(new, "branch name")
    infos = branch_infos(conn, game_id)
    if old not in infos:
        raise UnknownBranch(f"game {game_id} has no branch {old!r}; its branches: {', '.join(infos)}")
    if infos[old].parent is None:
        raise BranchInUse(f"branch {old!r} is the root of game {game_id}'s tree and keeps its name (every game "
                          f"starts on {ROOT_BRANCH!r}); to make another line the one shown, use --promote")
    if new in infos:
        raise BranchExists(f"game {game_id} already has a branch {new!r}")
    label = new if infos[old].label == old else infos[old].label
    conn.execute("""INSERT INTO branches (game, id, parent, fork_seq, label, created, head_seq, head_hash)
                    SELECT game, ?, parent, fork_seq, ?, created, head_seq, head_hash FROM branches
                    WHERE game = ? AND id = ?""", [new, label, game_id, old])
    conn.execute("DELETE FROM branches WHERE game = ? AND id = ?", [game_id, old])
    conn.execute("UPDATE branches SET parent = ? WHERE game = ? AND parent = ?", [new, game_id, old])
    for table in _branch_tables(conn):
        conn.execute(f"UPDATE {table} SET branch = ? WHERE game = ? AND branch = ?", [new, game_id, old])
    conn.execute("UPDATE games SET main_line = ? WHERE id = ? AND main_line = ?", [new, game_id, old])
    seal_game(conn, game_id)
    return branch_infos(conn, game_id)[new]


def _subtree(infos: dict[str, BranchInfo], branch: str) -> list[str]:
    """``branch`` and every branch forked from it, children after their parents."""
    found = [branch]
    for name in found:
        found.extend(infos[name].children)
    return found


def delete_branch(conn: duckdb.DuckDBPyConnection, game_id: str, branch: str, *, with_children: bool = False,
                  deleted: datetime | None = None) -> list[str]:
    """Delete a branch (and, ``with_children``, every branch forked from it), recording each in
    ``deleted_branches`` and re-sealing the game's digest in the caller's transaction; returns the names,
    deepest first. The main line, the root, and a branch others fork from (without ``with_children``) are
    refused, saying why."""
    infos = branch_infos(conn, game_id)
    if branch not in infos:
        raise UnknownBranch(f"game {game_id} has no branch {branch!r}; its branches: {', '.join(infos)}")
    if infos[branch].parent is None:
        raise BranchInUse(f"branch {branch!r} is the root of game {game_id}: every other line starts from it")
    doomed = _subtree(infos, branch)
    if len(doomed) > 1 and not with_children:
        children = doomed[1:]
        which = f"branch {children[0]} forks" if len(children) == 1 else f"branches {', '.join(children)} fork"
        raise BranchInUse(f"{which} from {branch!r}: deleting it would leave {'it' if len(children) == 1 else 'them'} "
                          "without the first events; delete them too with --with-children, or delete them first")
    line = main_line(conn, game_id)
    if line in doomed:
        whose = "is" if line == branch else f"forks from it: {line!r} is"
        raise BranchInUse(f"branch {branch!r} {whose} the main line of game {game_id} (the game that was "
                          "played); promote another branch first (--promote)")
    when = utc_naive(deleted)
    tables = _branch_tables(conn)
    for name in reversed(doomed):
        info = infos[name]
        conn.execute("INSERT INTO deleted_branches VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                     [game_id, name, info.parent, info.fork_seq, info.sealed_seq, info.sealed_hash,
                      info.own_events, when])
        for table in tables:
            conn.execute(f"DELETE FROM {table} WHERE game = ? AND branch = ?", [game_id, name])
        conn.execute("DELETE FROM branches WHERE game = ? AND id = ?", [game_id, name])
    seal_game(conn, game_id)
    return list(reversed(doomed))


class DeletedBranch(msgspec.Struct, frozen=True, kw_only=True):
    """A row of ``deleted_branches``: what a branch was when it was deleted on purpose."""

    id: str
    parent: str | None
    fork_seq: int
    head_seq: int | None
    own_events: int
    deleted: datetime


def deleted_branches(conn: duckdb.DuckDBPyConnection, game_id: str) -> list[DeletedBranch]:
    rows = conn.execute("SELECT id, parent, fork_seq, head_seq, own_events, deleted FROM deleted_branches "
                        "WHERE game = ? ORDER BY deleted, id", [game_id]).fetchall()
    return [DeletedBranch(id=r[0], parent=r[1], fork_seq=int(r[2]), head_seq=None if r[3] is None else int(r[3]),
                          own_events=int(r[4]), deleted=r[5]) for r in rows]


def first_difference(conn: duckdb.DuckDBPyConnection, game_id: str, branch_a: str, branch_b: str) -> int | None:
    """The first seq at which the two branches' lines differ, or None if they are the same."""
    hashes = []
    for branch in (branch_a, branch_b):
        table = lineage_events(conn, game_id, branch, columns=("hash",))
        hashes.append(table.column("hash").to_pylist())
    a, b = hashes
    shorter = min(len(a), len(b))
    if a[:shorter] == b[:shorter]:
        return None if len(a) == len(b) else shorter + 1
    low, high = 0, shorter - 1  # the chain makes "equal up to i" monotone: bisect for the first difference
    while low < high:
        middle = (low + high) // 2
        if a[middle] == b[middle]:
            low = middle + 1
        else:
            high = middle
    return low + 1
