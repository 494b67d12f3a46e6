"""EventStore: games, branches and their hash-chained events in one DuckDB file.

The store opens the file for each operation and closes it afterwards, so several
processes can share a file (DuckDB admits one writing process at a time; the others
wait, see :mod:`.database`). ``with EventStore(path) as store:`` keeps it open for a
run of operations instead (and keeps other processes out meanwhile).

Every write is one transaction: an append whose expected head is stale, a batch
whose checkpoint does not match, an import with one bad line, a process killed
mid-write: none leaves anything behind.
"""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any, Self

import duckdb
import msgspec

from aero_events.core.decider import Ruleset
from aero_events.core.dice import DiceSource, ManualDice
from aero_events.core.errors import DataError
from aero_events.core.events import Envelope, EnvelopeRecord, Event
from aero_events.core.ids import check_id, check_label
from aero_events.core.secrets import SaltSource
from aero_events.core.session import Branch, Game, GameSession
from aero_events.rulesets import ruleset_for_game

from . import snapshots as snapshot_store
from .append import write_batch
from .branches import (
    Comparison,
    DeletedBranch,
    command_boundaries,
    delete_branch,
    deleted_branches,
    first_difference,
    fork_branch,
    rename_branch,
    resolve_branch,
    set_main_line,
)
from .codec import batch_from_envelopes, decode_table, envelopes_from_columns, gc_paused
from .database import DEFAULT_LOCK_TIMEOUT, open_database, transaction
from .errors import StaleSequence, StoreError, UnknownGame
from .fresh import write_new_game
from .games import (
    GameContext,
    branch_infos,
    game_context,
    game_metadata,
    game_record,
    game_record_for,
    insert_branch,
    insert_game,
    main_line,
    resolve_game_id,
)
from .integrity import VerifyReport, verify_game
from .lineage import hash_at, head_seq, lineage_events
from .options import DEFAULT_PATH
from .prefix import session_hash_at
from .records import BranchInfo, GameRecord, GameSummary
from .signing import SignatureCheck, check_signatures, load_public_key, read_signatures
from .transfer import (
    delete_game,
    export_jsonl,
    export_jsonl_bytes,
    export_parquet,
    game_tables,
    read_jsonl,
    store_parsed,
)
from .views import record_appended_outcome, record_outcomes

_READ_COLUMNS = ("branch", "seq", "turn", "phase", "actor", "type", "version", "payload")
_ENVELOPE_COLUMNS = ("branch", "seq", "turn", "phase", "actor")


def _conflict(err: duckdb.Error) -> bool:
    """A write that lost a race with another writer in this process (same rows, or a commit conflict)."""
    text = str(err).lower()
    return any(marker in text for marker in ("primary key", "duplicate key", "conflict"))


class EventStore:
    """Games recorded as event streams in a DuckDB file (``aero.duckdb`` by default).

    ``lock_timeout`` is how long an operation waits for another process to release the
    file before raising :class:`StoreBusy`. ``read_only`` opens the file read-only for every operation, a
    caller's own connections included (a command that only reads works on a file it may not write, and
    cannot write by mistake); a write then raises :class:`StoreError`.
    """

    def __init__(self, path: str | os.PathLike = DEFAULT_PATH, *, lock_timeout: float = DEFAULT_LOCK_TIMEOUT,
                 read_only: bool = False):
        self.path = os.fspath(path)
        self.lock_timeout = lock_timeout
        self.read_only = read_only and self.path != ":memory:"
        self._held: duckdb.DuckDBPyConnection | None = None
        #: Games this store object has written: saving one of them again goes straight to the checked path.
        self._written: set[str] = set()
        if self.path == ":memory:":
            self._held = open_database(self.path)

    # ---------------------------------------------------------------- connections

    def __enter__(self) -> Self:
        if self._held is None:
            self._held = open_database(self.path, lock_timeout=self.lock_timeout, read_only=self.read_only)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.path != ":memory:":
            self.close()

    def close(self) -> None:
        if self._held is not None:
            self._held.close()
            self._held = None

    @contextmanager
    def connection(self, *, write: bool = True) -> Iterator[duckdb.DuckDBPyConnection]:
        """A connection with an up-to-date schema, for SQL of your own (``write=False``: read-only, which
        readers in several processes share; the store's own reads open the file that way)."""
        if self._held is not None:
            yield self._held
            return
        conn = open_database(self.path, lock_timeout=self.lock_timeout, read_only=self.read_only or not write)
        try:
            yield conn
        finally:
            conn.close()

    def _reading(self):
        return self.connection(write=False)

    @contextmanager
    def _writing(self) -> Iterator[duckdb.DuckDBPyConnection]:
        if self.read_only:
            raise StoreError(f"the store {self.path} was opened read-only: nothing is written to it")
        with self.connection(write=True) as conn, transaction(conn):
            yield conn

    # ---------------------------------------------------------------- games

    def create_game(self, game: Game, created: datetime | None = None) -> GameRecord:
        """Store a game's row and its branches (no events: append or save_session adds those)."""
        _check_names(game)
        record = game_record_for(game, created)
        with self._writing() as conn:
            insert_game(conn, record)
            for branch in _parents_first(game):
                insert_branch(conn, game.id, branch.id, branch.parent.id if branch.parent else None,
                              branch.fork_seq, branch.label, record.created)
        self._written.add(game.id)
        return record

    def game(self, game_id: str) -> GameRecord:
        with self._reading() as conn:
            return game_record(conn, game_id)

    def unused_game_id(self, first: str, numbered: str) -> str:
        """``first`` if no stored game has it, else the first free ``numbered.format(n)`` for n = 2, 3, ...

        (The demo stores a second run of a seed as ``demo-SEED-2``; the recorder numbers a day's games.)
        """
        candidate, number = first, 1
        while True:
            try:
                self.game(candidate)
            except UnknownGame:
                return candidate
            number += 1
            candidate = numbered.format(number)

    def delete_games(self, prefix: str) -> list[str]:
        """Remove every game whose id starts with ``prefix`` (a run of ``aero simulate`` killed half way,
        before running it again), all in one transaction; returns their ids. An empty prefix is refused."""
        check_id(prefix, "game id prefix")
        with self._writing() as conn:
            ids = [row[0] for row in conn.execute("SELECT id FROM games WHERE starts_with(id, ?) ORDER BY id",
                                                  [prefix]).fetchall()]
            tables = game_tables(conn)  # looked up once for the whole run of games
            for game_id in ids:
                delete_game(conn, game_id, tables)
        return ids

    def resolve_game_id(self, prefix: str) -> str:
        """The full id of the one game whose id starts with ``prefix``."""
        with self._reading() as conn:
            return resolve_game_id(conn, prefix)

    def games(self) -> list[GameSummary]:
        """Every game, oldest first: its main line's events and last turn, its branches, all its events."""
        with self._reading() as conn:
            rows = conn.execute(
                """WITH line AS (SELECT id AS game, coalesce(main_line, 'main') AS branch FROM games),
                        head AS (SELECT b.game, b.id AS branch, coalesce(max(e.seq), b.fork_seq) AS seq,
                                        max(e.turn) AS last_turn
                                 FROM line JOIN branches b ON b.game = line.game AND b.id = line.branch
                                 LEFT JOIN events e ON e.game = b.game AND e.branch = b.id
                                 GROUP BY b.game, b.id, b.fork_seq)
                   SELECT g.id, g.ruleset, g.created, g.players, coalesce(h.seq, 0), coalesce(b.branches, 0),
                          h.last_turn, coalesce(line.branch, 'main'), coalesce(e.events, 0)
                   FROM games g
                   JOIN line ON line.game = g.id
                   LEFT JOIN head h ON h.game = g.id
                   LEFT JOIN (SELECT game, count(*) AS events FROM events GROUP BY game) e ON e.game = g.id
                   LEFT JOIN (SELECT game, count(*) AS branches FROM branches GROUP BY game) b ON b.game = g.id
                   ORDER BY g.created, g.id"""
            ).fetchall()
            summaries = []
            for r in rows:
                last_turn = r[6]
                if last_turn is None and r[4] > 0:  # a main line with no events of its own: its fork's turn
                    turns = lineage_events(conn, r[0], r[7], columns=("turn",), start=r[4], stop=r[4])
                    last_turn = turns.column("turn")[0].as_py() if turns.num_rows else None
                summaries.append(GameSummary(id=r[0], ruleset=r[1], created=r[2], players=list(r[3]),
                                             events=int(r[4]), branches=int(r[5]), last_turn=last_turn,
                                             main_line=r[7], all_events=int(r[8])))
        return summaries

    # ---------------------------------------------------------------- writing

    def append(self, game_id: str, branch_id: str, envelopes: Sequence[Envelope], expected_seq: int) -> int:
        """Append ``envelopes`` (numbered ``expected_seq + 1``...) to a branch whose head is ``expected_seq``.

        Raises :class:`StaleSequence`, writing nothing, when the stored head differs
        (another writer got there first). Returns the new head.
        """
        batch = batch_from_envelopes(envelopes, game_id, branch_id, expected_seq + 1)
        try:
            with self._writing() as conn:
                write_batch(conn, game_id, branch_id, batch, expected_seq,
                            context=lambda: game_context(conn, game_id))
                record_appended_outcome(conn, game_id, branch_id, expected_seq + len(batch))
        except (duckdb.ConstraintException, duckdb.TransactionException) as err:
            if not _conflict(err):
                raise
            raise self._lost_race(game_id, branch_id, expected_seq) from err
        return expected_seq + len(batch)

    def _lost_race(self, game_id: str, branch_id: str, expected_seq: int) -> StaleSequence:
        """The StaleSequence for a write that collided with another writer's rows.

        The collision can be noticed before the other writer commits: wait (a little)
        until its events are visible, so that the error says where the branch now ends.
        """
        deadline = time.monotonic() + self.lock_timeout
        while True:
            with self._reading() as conn:
                head = head_seq(conn, game_id, branch_id)
            if head != expected_seq or time.monotonic() > deadline:
                break
            time.sleep(0.01)
        detail = ("another writer committed first" if head != expected_seq
                  else "another writer was appending at the same time")
        return StaleSequence(game_id, branch_id, expected_seq, head, detail)

    def save_session(self, session: GameSession, created: datetime | None = None) -> dict[str, int]:
        """Store everything of ``session.game`` not yet stored: the game, new branches, new events.

        One transaction for the whole game. Each branch's stored line of play must be exactly the
        session's, event for event, up to the stored head (checked by the chain hash there, which
        covers every event before it: :mod:`.prefix`); then the session's events after it are
        appended. A branch whose stored events run past, or differ anywhere from, the session's
        raises :class:`StaleSequence` and nothing is written, so two processes that continued one
        game differently never both save. Returns the number of events appended per branch.
        """
        game = session.game
        _check_names(game)
        branches = _parents_first(game)
        if game.id not in self._written:
            # Most often the store has never seen the game: its rows go in as they are (store/fresh.py),
            # without a read first. A key the store has already (the game, or rows of it) makes the
            # transaction fail, nothing written, and the checked path below takes over.
            try:
                with self._writing() as conn:
                    appended = write_new_game(conn, session, branches, created)
            except (duckdb.ConstraintException, duckdb.TransactionException) as err:
                if not _conflict(err):
                    raise
            else:
                self._written.add(game.id)
                return appended
        appended = self._save_checked(session, branches, created)
        self._written.add(game.id)
        return appended

    def _save_checked(self, session: GameSession, branches: list[Branch], created: datetime | None) -> dict[str, int]:
        """save_session of a game the store may have: each stored branch checked against the session's."""
        game = session.game
        appended: dict[str, int] = {}
        first_written: tuple[str, int] | None = None
        try:
            with self._writing() as conn:
                context = functools.cache(lambda: game_context(conn, game.id))  # read once, if a batch needs it
                if not conn.execute("SELECT 1 FROM games WHERE id = ?", [game.id]).fetchall():
                    insert_game(conn, game_record_for(game, created))
                known = _stored_branches(conn, game.id)
                for branch in branches:
                    info = known.get(branch.id)
                    self._check_branch(conn, game, branch, info)
                    start = max(info.head_seq if info is not None else branch.fork_seq, branch.fork_seq)
                    batch = batch_from_envelopes(branch.own[start - branch.fork_seq:], game.id, branch.id,
                                                 start + 1)
                    if len(batch) and first_written is None:
                        first_written = (branch.id, start)
                    write_batch(conn, game.id, branch.id, batch, start, context=context, state_of=branch.state_at)
                    appended[branch.id] = len(batch)
                record_outcomes(conn, game.id, session.ruleset,  # the outcomes view (store/views.py)
                                [(b.id, b.head_seq, b.state_at(b.head_seq)) for b in branches
                                 if appended.get(b.id)])
        except (duckdb.ConstraintException, duckdb.TransactionException) as err:
            if not _conflict(err) or first_written is None:
                raise
            raise self._lost_race(game.id, *first_written) from err
        return appended

    @staticmethod
    def _check_branch(conn: duckdb.DuckDBPyConnection, game: Game, branch: Branch, info: BranchInfo | None) -> None:
        """Create a branch the store lacks; refuse one whose store copy went elsewhere."""
        parent = branch.parent.id if branch.parent else None
        if info is None:
            insert_branch(conn, game.id, branch.id, parent, branch.fork_seq, branch.label, None)
            return
        if (info.parent, info.fork_seq) != (parent, branch.fork_seq):
            raise StoreError(f"branch {branch.id!r} of game {game.id} is stored as a fork of {info.parent!r} at "
                             f"{info.fork_seq}, the session has it fork {parent!r} at {branch.fork_seq}")
        if info.head_seq > branch.head_seq:
            raise StaleSequence(game.id, branch.id, branch.head_seq, info.head_seq,
                                "the store has events this session has not seen")
        if info.head_seq > 0:
            _check_prefix(conn, game.id, branch, info.head_seq)

    # ---------------------------------------------------------------- reading

    def head(self, game_id: str, branch: str | None = None) -> int:
        """The seq of the branch's last event (its fork point if it has none of its own); None: the main line."""
        with self._reading() as conn:
            return head_seq(conn, game_id, resolve_branch(conn, game_id, branch))

    def records(self, game_id: str, branch: str | None = None, *, turn: int | None = None, phase: str | None = None,
                types: Iterable[str | type[Event]] | None = None, start: int | None = None,
                stop: int | None = None) -> list[EnvelopeRecord]:
        """A branch's events as stored (payload undecoded): no ruleset or event class needed.
        ``branch`` None is the main line."""
        with self._reading() as conn:
            branch = resolve_branch(conn, game_id, branch)
            table = lineage_events(conn, game_id, branch, columns=_READ_COLUMNS, turn=turn, phase=phase,
                                   types=_type_names(types), start=start, stop=stop)
        columns = [table.column(name).to_pylist() for name in _READ_COLUMNS]
        with gc_paused():
            return [EnvelopeRecord(game_id=game_id, branch_id=b, seq=s, turn=t, phase=p, actor=a, type=ty,
                                   version=v, payload=msgspec.Raw(payload.encode()))
                    for b, s, t, p, a, ty, v, payload in zip(*columns, strict=True)]

    def events(self, game_id: str, branch: str | None = None, turn: int | None = None, phase: str | None = None,
               types: Iterable[str | type[Event]] | None = None, start: int | None = None,
               stop: int | None = None) -> list[Envelope]:
        """A branch's events in seq order: its ancestors' up to the fork, then its own.

        Filters: one ``turn``, one ``phase``, event ``types`` (names or classes), and
        ``start <= seq <= stop``. Older payload versions are upcast. ``branch`` None is the main line.
        """
        self._register_event_types(game_id)
        with self._reading() as conn:
            branch = resolve_branch(conn, game_id, branch)
            table = lineage_events(conn, game_id, branch, columns=_READ_COLUMNS, turn=turn, phase=phase,
                                   types=_type_names(types), start=start, stop=stop)
        events = decode_table(table, where=f"game {game_id} branch {branch}")
        return envelopes_from_columns(game_id, *(table.column(name).to_pylist() for name in _ENVELOPE_COLUMNS),
                                      events)

    def ruleset(self, game_id: str) -> Ruleset:
        """The ruleset the game was played under (its variant rebuilt from the metadata); a ruleset this
        installation does not have is a :class:`StoreError` naming it. Readers decode through it."""
        with self._reading() as conn:
            return game_context(conn, game_id).ruleset

    def _register_event_types(self, game_id: str) -> None:
        """Import the game's ruleset, so that its event types are known when its payloads are decoded.

        A ruleset this installation does not have is not an error here: decoding then names the
        first unknown event type.
        """
        record = self.game(game_id)
        try:
            ruleset_for_game(record.ruleset, game_metadata(record))
        except (KeyError, DataError):
            pass

    def load_game(self, game_id: str) -> Game:
        """The whole game rebuilt in memory, every branch replayed (checkpoints checked)."""
        with self._reading() as conn:
            context = game_context(conn, game_id)
            infos = branch_infos(conn, game_id)
            table = conn.sql(f"SELECT {', '.join(_READ_COLUMNS)} FROM events WHERE game = $game ORDER BY branch, seq",
                             params={"game": game_id}).to_arrow_table()
        events = decode_table(table, where=f"game {game_id}")
        envelopes = envelopes_from_columns(game_id, *(table.column(name).to_pylist() for name in _ENVELOPE_COLUMNS),
                                           events)
        own: dict[str, list[Envelope]] = {}
        for envelope in envelopes:
            own.setdefault(envelope.branch_id, []).append(envelope)
        return _rebuild(context, game_id, infos, own)

    def session(self, game_id: str, branch: str | None = None, *, dice: DiceSource,
                salts: SaltSource | None = None) -> GameSession:
        """A session to continue play on a stored branch (None: the main line); save it with
        :meth:`save_session`."""
        branch = self.resolve_branch(game_id, branch)
        game = self.load_game(game_id)
        return GameSession(game.ruleset, dice=dice, salts=salts, game=game, branch=branch)

    def state_at(self, game_id: str, branch: str | None = None, seq: int | None = None, *,
                 use_snapshots: bool = True) -> Any:
        """The state after event ``seq`` (default: the head) of a branch.

        Starts from the nearest snapshot at or before ``seq``, so only the events
        since that turn's start are folded (``use_snapshots=False`` folds from the start).
        ``branch`` None is the main line.
        """
        with self._reading() as conn:
            context = game_context(conn, game_id)
            branch = resolve_branch(conn, game_id, branch)
            return snapshot_store.state_at(conn, context, game_id, branch, seq, use_snapshots=use_snapshots)

    def state_hash(self, game_id: str, branch: str | None = None, seq: int | None = None) -> str:
        with self._reading() as conn:
            context = game_context(conn, game_id)
            branch = resolve_branch(conn, game_id, branch)
            state = snapshot_store.state_at(conn, context, game_id, branch, seq)
        return context.ruleset.state_hash(state)

    def rebuild_snapshots(self, game_id: str) -> int:
        """Recompute a game's snapshots from its events (e.g. for games stored before schema 2)."""
        with self._writing() as conn:
            return snapshot_store.rebuild_snapshots(conn, game_context(conn, game_id), game_id)

    # ---------------------------------------------------------------- branches

    def main_line(self, game_id: str) -> str:
        """The game's main line: the branch that was played, which every read shows unless told another."""
        with self._reading() as conn:
            return main_line(conn, game_id)

    def resolve_branch(self, game_id: str, branch: str | None) -> str:
        """``branch``, or the game's main line when it is None (how every reader here picks its default)."""
        with self._reading() as conn:
            return resolve_branch(conn, game_id, branch)

    def fork(self, game_id: str, from_branch: str | None, at_seq: int, name: str, *, label: str | None = None,
             created: datetime | None = None, snap: str | None = None) -> BranchInfo:
        """A new branch sharing ``from_branch``'s (None: the main line's) events 1..``at_seq``; play on with
        :meth:`session`. ``at_seq`` must end a command, or ``snap`` (``before``/``after``) says which command
        boundary to use instead (:func:`.branches.fork_point`)."""
        with self._writing() as conn:
            return fork_branch(conn, game_id, from_branch, at_seq, name, label=label, created=created, snap=snap)

    def command_boundaries(self, game_id: str, branch: str | None = None) -> list[int]:
        """The seqs of a branch's line a fork may share up to: 0, the end of every command, the head."""
        with self._reading() as conn:
            return command_boundaries(conn, game_id, resolve_branch(conn, game_id, branch))

    def promote(self, game_id: str, branch: str) -> str:
        """Make ``branch`` the game's main line; returns the main line it replaces."""
        with self._writing() as conn:
            previous = main_line(conn, game_id)
            set_main_line(conn, game_id, branch)
        return previous

    def rename_branch(self, game_id: str, old: str, new: str) -> BranchInfo:
        """Rename a branch (its events, snapshots, children and annotations follow); the root stays ``main``."""
        with self._writing() as conn:
            return rename_branch(conn, game_id, old, new)

    def delete_branch(self, game_id: str, branch: str, *, with_children: bool = False) -> list[str]:
        """Delete a branch (``with_children``: and every branch forked from it), on record; returns their names.
        The main line and a branch others fork from (without ``with_children``) are refused."""
        with self._writing() as conn:
            return delete_branch(conn, game_id, branch, with_children=with_children)

    def deleted_branches(self, game_id: str) -> list[DeletedBranch]:
        """The game's branches deleted on purpose, oldest deletion first."""
        with self._reading() as conn:
            return deleted_branches(conn, game_id)

    def branch_tree(self, game_id: str) -> dict[str, BranchInfo]:
        """Every branch, parents before children; each names its parent, fork point and children."""
        with self._reading() as conn:
            return branch_infos(conn, game_id)

    def compare(self, game_id: str, branch_a: str, branch_b: str) -> Comparison:
        """The first seq where two branches differ (and the events there) and their final state hashes."""
        with self._reading() as conn:
            context = game_context(conn, game_id)
            seq = first_difference(conn, game_id, branch_a, branch_b)
            heads, hashes, at = [], [], []
            for branch in (branch_a, branch_b):
                head = head_seq(conn, game_id, branch)
                heads.append(head)
                hashes.append(context.ruleset.state_hash(
                    snapshot_store.state_at(conn, context, game_id, branch, head)))
        for branch in (branch_a, branch_b):
            found = self.events(game_id, branch, start=seq, stop=seq) if seq is not None else []
            at.append(found[0] if found else None)
        return Comparison(game_id=game_id, branch_a=branch_a, branch_b=branch_b, first_difference=seq,
                          event_a=at[0], event_b=at[1], head_a=heads[0], head_b=heads[1],
                          state_hash_a=hashes[0], state_hash_b=hashes[1])

    # ---------------------------------------------------------------- integrity and transfer

    def verify(self, game_id: str, *, replay: bool = True, decide: bool = True) -> VerifyReport:
        """Re-walk every branch's hash chain, (with ``replay``) re-fold it through the ruleset and (with
        ``decide``) decide every recorded command again (:mod:`.integrity`)."""
        with self._reading() as conn:
            return verify_game(conn, game_id, replay=replay, decide=decide)

    def export_jsonl(self, game_id: str, path: str | os.PathLike) -> int:
        """Write a game as JSON Lines (header, branches, events); returns the number of events."""
        with self._reading() as conn:
            return export_jsonl(conn, game_id, path)

    def export_bytes(self, game_id: str) -> bytes:
        """The game's canonical JSON Lines export (what :meth:`export_jsonl` writes, and a signature signs)."""
        with self._reading() as conn:
            return export_jsonl_bytes(conn, game_id)

    def check_signatures(self, game_id: str, signatures_path: str | os.PathLike,
                         key_paths: Sequence[str | os.PathLike] = ()) -> SignatureCheck:
        """Check the signatures in ``signatures_path`` (a ``.sig`` file made by ``aero export --sign``) against
        the stored game's canonical export: it was not altered after they signed (:mod:`.signing`)."""
        return check_signatures(self.export_bytes(game_id), read_signatures(signatures_path),
                                [load_public_key(path) for path in key_paths])

    def import_jsonl(self, path: str | os.PathLike, *, replace: bool = False) -> str:
        """Store a game from JSON Lines, all or nothing; returns its id.

        A game id already stored is refused (:class:`GameExists`) unless ``replace``.
        """
        parsed = read_jsonl(path)
        with self._writing() as conn:
            return store_parsed(conn, parsed, replace=replace)

    def export_parquet(self, path: str | os.PathLike, game_ids: Sequence[str] | None = None,
                       where: str | None = None) -> int:
        """Copy events to a Parquet file for DuckDB to query in place; returns the number of events."""
        with self._reading() as conn:
            return export_parquet(conn, path, game_ids, where)


def _check_names(game: Game) -> None:
    """The game's id, its branches' ids and labels, its players (core/ids.py): refused before anything is written."""
    check_id(game.id, "game id")
    for branch in game.branches.values():
        check_id(branch.id, "branch name")
        check_label(branch.label, "branch label")
    if game.main.parent is not None or "main" not in game.branches:
        raise StoreError(f"game {game.id}'s root branch must be 'main'")


def _check_prefix(conn: duckdb.DuckDBPyConnection, game_id: str, branch: Branch, stored_head: int) -> None:
    """Refuse (StaleSequence) unless the branch's stored events 1..``stored_head`` are the session's."""
    stored_hash = hash_at(conn, game_id, branch.id, stored_head)
    if session_hash_at(branch, stored_head) == stored_hash:
        return
    # Not byte for byte: the stored payloads may be older versions of the same events (upcast when read).
    table = lineage_events(conn, game_id, branch.id, columns=("seq", "turn", "phase", "actor", "type", "version",
                                                               "payload"), stop=stored_head)
    events = decode_table(table, where=f"game {game_id} branch {branch.id}")
    columns = [table.column(name).to_pylist() for name in ("seq", "turn", "phase", "actor")]
    for seq, turn, phase, actor, event in zip(*columns, events, strict=True):
        mine = branch.envelope(seq)
        if (mine.turn, mine.phase, mine.actor, mine.event) != (turn, phase, actor, event):
            raise StaleSequence(game_id, branch.id, branch.head_seq, stored_head,
                                f"the stored event {seq} differs from the session's: another session saved "
                                "another continuation")


def _type_names(types: Iterable[str | type[Event]] | None) -> list[str] | None:
    if types is None:
        return None
    return [name if isinstance(name, str) else name.type_name() for name in types]


def _stored_branches(conn: duckdb.DuckDBPyConnection, game_id: str) -> dict[str, BranchInfo]:
    """The stored branches of a game; none if the game is not stored (yet)."""
    if not conn.execute("SELECT 1 FROM branches WHERE game = ? LIMIT 1", [game_id]).fetchall():
        return {}
    return branch_infos(conn, game_id)


def _parents_first(game: Game) -> list[Branch]:
    """The game's branches ordered so that each comes after its parent."""
    return sorted(game.branches.values(), key=lambda branch: len(branch.lineage()))


def _rebuild(context: GameContext, game_id: str, infos: dict[str, BranchInfo],
             own: dict[str, list[Envelope]]) -> Game:
    record = context.record
    game = Game(context.ruleset, context.setup, game_id, metadata=msgspec.json.decode(record.metadata), recorded=True)
    for info in infos.values():
        if info.parent is None:
            if info.id != "main":
                raise StoreError(f"game {game_id}'s root branch is {info.id!r}; a game starts on 'main'")
        else:
            game.fork(info.parent, info.fork_seq, info.id)
        game.branches[info.id].label = info.label
        replay = GameSession(context.ruleset, dice=ManualDice(), salts=SaltSource("replay"), game=game,
                             branch=info.id)
        replay.record(own.get(info.id, []))
    return game
