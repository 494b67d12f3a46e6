"""Game and branch rows: writing them, reading them back, and the ruleset a game names."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import duckdb
import msgspec

from aero_events.core.decider import Ruleset
from aero_events.core.errors import DataError
from aero_events.core.session import Game
from aero_events.rulesets import ruleset_for_game

from .database import first_row
from .errors import BranchExists, GameExists, StoreError, UnknownGame
from .heads import branches_digest
from .records import BranchInfo, GameRecord, engine_version, utc_naive

_GAME_COLUMNS = "id, ruleset, data_version, engine_version, created, players, setup, metadata"

#: The branch every game starts on (``core.session.Game``), and its main line until another is made one.
ROOT_BRANCH = "main"


def game_record_for(game: Game, created: datetime | None = None) -> GameRecord:
    """The row that describes an in-memory game."""
    ruleset = game.ruleset
    return GameRecord(
        id=game.id,
        ruleset=ruleset.name,
        data_version=str(ruleset.data_version),
        engine_version=engine_version(),
        created=utc_naive(created),
        players=list(ruleset.players(game.initial_state)),
        setup=msgspec.json.encode(game.setup).decode(),
        metadata=msgspec.json.encode(game.metadata).decode(),
    )


def insert_game(conn: duckdb.DuckDBPyConnection, record: GameRecord) -> None:
    if conn.execute("SELECT 1 FROM games WHERE id = ?", [record.id]).fetchall():
        raise GameExists(f"game {record.id} is already in the store")
    conn.execute(
        f"INSERT INTO games ({_GAME_COLUMNS}, branches_digest) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [record.id, record.ruleset, record.data_version, record.engine_version, record.created,
         record.players, record.setup, record.metadata, branches_digest([])],
    )


def insert_branch(
    conn: duckdb.DuckDBPyConnection,
    game_id: str,
    branch_id: str,
    parent: str | None,
    fork_seq: int,
    label: str,
    created: datetime | None,
) -> None:
    """Add a branch row, sealed at its fork point (:mod:`.heads`), and re-digest the game."""
    from .heads import fork_hash, seal_game

    if conn.execute("SELECT 1 FROM branches WHERE game = ? AND id = ?", [game_id, branch_id]).fetchall():
        raise BranchExists(f"game {game_id} already has a branch {branch_id!r}")
    conn.execute("INSERT INTO branches (game, id, parent, fork_seq, label, created, head_seq, head_hash) "
                 "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                 [game_id, branch_id, parent, fork_seq, label, utc_naive(created), fork_seq,
                  fork_hash(conn, game_id, parent, fork_seq)])
    seal_game(conn, game_id)


def game_record(conn: duckdb.DuckDBPyConnection, game_id: str) -> GameRecord:
    row = first_row(conn.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", [game_id]).fetchall())
    if row is None:
        raise UnknownGame(f"no game {game_id!r} in the store")
    return GameRecord(**dict(zip(_GAME_COLUMNS.split(", "), row, strict=True)))


def main_line(conn: duckdb.DuckDBPyConnection, game_id: str) -> str:
    """The game's main line: the branch that was played (schema 4, :mod:`.branches`); NULL reads as the root."""
    row = first_row(conn.execute("SELECT main_line FROM games WHERE id = ?", [game_id]).fetchall())
    if row is None:
        raise UnknownGame(f"no game {game_id!r} in the store")
    return row[0] or ROOT_BRANCH


def resolve_game_id(conn: duckdb.DuckDBPyConnection, prefix: str) -> str:
    """The id of the one game whose id is ``prefix`` or starts with it (an empty one names no game)."""
    if not prefix:
        raise UnknownGame("no game id given: an empty id names no game")
    if conn.execute("SELECT 1 FROM games WHERE id = ?", [prefix]).fetchall():
        return prefix
    matches = [row[0] for row in conn.execute(
        "SELECT id FROM games WHERE starts_with(id, ?) ORDER BY id LIMIT 6", [prefix]).fetchall()]
    if not matches:
        raise UnknownGame(f"no game {prefix!r} in the store")
    if len(matches) > 1:
        raise UnknownGame(f"{prefix!r} names more than one game ({', '.join(matches[:5])}...); give more of the id")
    return matches[0]


def branch_infos(conn: duckdb.DuckDBPyConnection, game_id: str) -> dict[str, BranchInfo]:
    """Every branch of a game, parents before children (depth first from main, children by creation)."""
    rows = conn.execute(
        """SELECT b.id, b.parent, b.fork_seq, b.label, b.created,
                  coalesce(max(e.seq), b.fork_seq) AS head_seq, count(e.seq) AS own_events,
                  b.head_seq AS sealed_seq, b.head_hash AS sealed_hash
           FROM branches b LEFT JOIN events e ON e.game = b.game AND e.branch = b.id
           WHERE b.game = ?
           GROUP BY b.id, b.parent, b.fork_seq, b.label, b.created, b.head_seq, b.head_hash
           ORDER BY b.created, b.id""",
        [game_id],
    ).fetchall()
    if not rows:
        raise UnknownGame(f"no game {game_id!r} in the store")
    found = {row[0]: row for row in rows}
    children: dict[str | None, list[str]] = {}
    for row in rows:
        parent = row[1] if row[1] in found else None
        children.setdefault(parent, []).append(row[0])
    ordered: dict[str, BranchInfo] = {}

    def visit(branch_id: str, depth: int) -> None:
        bid, parent, fork_seq, label, created, head, own, sealed_seq, sealed_hash = found[branch_id]
        ordered[bid] = BranchInfo(id=bid, parent=parent, fork_seq=int(fork_seq), label=label, created=created,
                                  head_seq=int(head), own_events=int(own),
                                  children=tuple(children.get(bid, ())), depth=depth,
                                  sealed_seq=None if sealed_seq is None else int(sealed_seq),
                                  sealed_hash=None if sealed_hash is None else bytes(sealed_hash))
        for child in children.get(bid, ()):
            visit(child, depth + 1)

    for root in children.get(None, []):
        visit(root, 0)
    return ordered


@dataclass(frozen=True)
class GameContext:
    """What folding a stored game needs: its row, ruleset, decoded setup and initial state."""

    record: GameRecord
    ruleset: Ruleset
    setup: Any
    initial_state: Any

    @property
    def state_type(self) -> type:
        """The type snapshots decode into (the ruleset declares none: the initial state's)."""
        return type(self.initial_state)


def game_context(conn: duckdb.DuckDBPyConnection, game_id: str) -> GameContext:
    record = game_record(conn, game_id)
    try:
        ruleset = ruleset_for_game(record.ruleset, game_metadata(record))
    except KeyError as err:
        raise StoreError(str(err).strip("'\"")) from err
    setup = decode_setup(record, ruleset)
    return GameContext(record, ruleset, setup, ruleset.initial_state(setup))


def game_metadata(record: GameRecord) -> dict[str, Any]:
    try:
        metadata = json.loads(record.metadata or "{}")
    except ValueError:
        return {}
    return metadata if isinstance(metadata, dict) else {}


def decode_setup(record: GameRecord, ruleset: Ruleset) -> Any:
    """The game's setup as the ruleset's setup type (None if it was recorded as null)."""
    setup_type = getattr(ruleset, "setup_type", None)
    try:
        if setup_type is None:
            return msgspec.json.decode(record.setup)
        return msgspec.json.decode(record.setup, type=setup_type | None)
    except msgspec.ValidationError as err:
        raise DataError(f"the stored setup does not fit {ruleset.name}'s setup type: {err}",
                        source=f"game {record.id}", field="setup") from err
