"""Where simulated games go: the DuckDB store in batches, or Parquet shards that DuckDB queries in place.

* **DuckDB** (``--db PATH``): workers encode each game (:func:`encode_game`: the events' columns, the
  store's hash chain, the per-turn snapshots); the parent writes many games at once with
  :func:`write_games`: one transaction, one Arrow insert per table (games, branches, events, snapshots),
  never row by row. The rows are exactly what ``EventStore.save_session`` writes, so ``aero games``,
  ``aero show`` and ``aero verify`` work on them; each game's outcome goes into ``game_outcomes`` (the
  ``outcomes`` and ``outcome_scores`` views) and its :class:`~aero_events.sim.games.GameResult` into
  ``simulation_results``, in the same transaction, so a stored game is always whole and a resumed run
  (:func:`stored_results`) knows what its stored games came to without playing them again.
* **Parquet** (``--parquet DIR``): each worker writes its own shards (:func:`write_parquet_shard`):
  ``<run>-<first game>.events.parquet`` with the columns of ``EventStore.export_parquet`` (the events
  table plus ``ruleset``) and ``<run>-<first game>.games.parquet`` with one row per game (``game``), its
  result and its row of the ``games`` table. ``SELECT ... FROM 'DIR/*.events.parquet'`` reads them all.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

import msgspec
import pyarrow as pa
import pyarrow.parquet as pq

from aero_events.core import GameSession, StateCheckpoint
from aero_events.core.interface import Outcome
from aero_events.store.chain import GENESIS, chain_hashes, previous_hashes
from aero_events.store.codec import batch_from_envelopes
from aero_events.store.database import open_database, registered, transaction
from aero_events.store.errors import GameExists
from aero_events.store.games import GameContext, game_record_for
from aero_events.store.heads import seal_written_games
from aero_events.store.snapshots import snapshot_row
from aero_events.store.views import insert_outcomes

from .games import GameResult

MAIN = "main"


class EncodedGame(msgspec.Struct, frozen=True, kw_only=True):
    """One finished game as the store's rows: its game row, its events' columns and its snapshots."""

    id: str
    ruleset: str
    data_version: str
    engine_version: str
    created: datetime
    players: list[str]
    setup: str
    metadata: str
    seqs: list[int]
    turns: list[int]
    phases: list[str]
    actors: list[str | None]
    types: list[str]
    versions: list[int]
    payloads: list[str]
    prev_hashes: list[bytes]
    hashes: list[bytes]
    snapshot_seqs: list[int]
    snapshot_turns: list[int]
    snapshot_hashes: list[str]
    snapshot_states: list[bytes]


def encode_game(session: GameSession) -> EncodedGame:
    """A played session's main branch as store rows (chain hashes and snapshots computed here)."""
    game = session.game
    record = game_record_for(game)
    batch = batch_from_envelopes(session.events(), game.id, MAIN, 1)
    hashes = chain_hashes(GENESIS, batch.seqs, batch.turns, batch.phases, batch.actors, batch.types, batch.versions,
                          batch.payloads)
    context = GameContext(record, session.ruleset, game.setup, game.initial_state)
    snapshots = [row for seq, event in zip(batch.seqs, batch.events, strict=True) if type(event) is StateCheckpoint
                 for row in [snapshot_row(context, seq, event.turn, event.state_hash, session.state_at(seq))]
                 if row is not None]
    return EncodedGame(
        id=record.id, ruleset=record.ruleset, data_version=record.data_version,
        engine_version=record.engine_version, created=record.created, players=record.players, setup=record.setup,
        metadata=record.metadata, seqs=batch.seqs, turns=batch.turns, phases=batch.phases, actors=batch.actors,
        types=batch.types, versions=batch.versions, payloads=[p.decode() for p in batch.payloads],
        prev_hashes=previous_hashes(GENESIS, hashes), hashes=hashes,
        snapshot_seqs=[row[0] for row in snapshots], snapshot_turns=[row[1] for row in snapshots],
        snapshot_hashes=[row[2] for row in snapshots], snapshot_states=[row[3] for row in snapshots],
    )


def _repeat(games: Sequence[EncodedGame], value: str, count_of: str) -> list[str]:
    return [getattr(game, value) for game in games for _ in range(len(getattr(game, count_of)))]


def _flat(games: Sequence[EncodedGame], column: str) -> list:
    return [item for game in games for item in getattr(game, column)]


def games_table(games: Sequence[EncodedGame]) -> pa.Table:
    return pa.table({
        "id": pa.array([g.id for g in games], pa.string()),
        "ruleset": pa.array([g.ruleset for g in games], pa.string()),
        "data_version": pa.array([g.data_version for g in games], pa.string()),
        "engine_version": pa.array([g.engine_version for g in games], pa.string()),
        "created": pa.array([g.created for g in games], pa.timestamp("us")),
        "players": pa.array([g.players for g in games], pa.list_(pa.string())),
        "setup": pa.array([g.setup for g in games], pa.string()),
        "metadata": pa.array([g.metadata for g in games], pa.string()),
    })


def events_table(games: Sequence[EncodedGame], ruleset: bool = False) -> pa.Table:
    columns = {
        "game": pa.array(_repeat(games, "id", "seqs"), pa.string()),
        "branch": pa.array([MAIN] * sum(len(g.seqs) for g in games), pa.string()),
        "seq": pa.array(_flat(games, "seqs"), pa.int64()),
        "turn": pa.array(_flat(games, "turns"), pa.int32()),
        "phase": pa.array(_flat(games, "phases"), pa.string()),
        "actor": pa.array(_flat(games, "actors"), pa.string()),
        "type": pa.array(_flat(games, "types"), pa.string()),
        "version": pa.array(_flat(games, "versions"), pa.int32()),
        "payload": pa.array(_flat(games, "payloads"), pa.string()),
        "prev_hash": pa.array(_flat(games, "prev_hashes"), pa.binary()),
        "hash": pa.array(_flat(games, "hashes"), pa.binary()),
    }
    if ruleset:
        columns["ruleset"] = pa.array(_repeat(games, "ruleset", "seqs"), pa.string())
    return pa.table(columns)


def snapshots_table(games: Sequence[EncodedGame]) -> pa.Table:
    return pa.table({
        "game": pa.array(_repeat(games, "id", "snapshot_seqs"), pa.string()),
        "branch": pa.array([MAIN] * sum(len(g.snapshot_seqs) for g in games), pa.string()),
        "seq": pa.array(_flat(games, "snapshot_seqs"), pa.int64()),
        "turn": pa.array(_flat(games, "snapshot_turns"), pa.int32()),
        "state_hash": pa.array(_flat(games, "snapshot_hashes"), pa.string()),
        "state": pa.array(_flat(games, "snapshot_states"), pa.binary()),
    })


def stored_ids(db_path: str | os.PathLike, prefix: str) -> list[str]:
    """Ids of games already in the store that start with ``prefix`` (none if the file does not exist)."""
    if not Path(db_path).exists():
        return []
    conn = open_database(os.fspath(db_path))
    try:
        return [row[0] for row in conn.execute("SELECT id FROM games WHERE starts_with(id, ?) ORDER BY id",
                                               [prefix]).fetchall()]
    finally:
        conn.close()


#: The table of simulated games' results (one :class:`GameResult` as JSON per game), keyed by game id.
RESULTS_TABLE = """CREATE TABLE IF NOT EXISTS simulation_results (
    game VARCHAR PRIMARY KEY,
    run VARCHAR NOT NULL,
    result JSON NOT NULL
)"""


def stored_results(db_path: str | os.PathLike, prefix: str) -> tuple[list[str], dict[str, GameResult]]:
    """The ids of the games stored whose id starts with ``prefix``, and the results kept for them by
    :func:`write_games` (a game stored some other way has none)."""
    ids = stored_ids(db_path, prefix)
    if not ids:
        return [], {}
    conn = open_database(os.fspath(db_path), read_only=True)
    try:
        present = conn.execute("SELECT count(*) FROM duckdb_tables() WHERE table_name = 'simulation_results' "
                               "AND schema_name = 'main'").fetchall()[0][0]
        rows = conn.execute("SELECT r.game, r.result::VARCHAR FROM simulation_results r JOIN games g ON g.id = r.game "
                            "WHERE starts_with(r.game, ?)", [prefix]).fetchall() if present else []
    finally:
        conn.close()
    decoder = msgspec.json.Decoder(GameResult)
    return ids, {game: decoder.decode(result) for game, result in rows}


def stored_settings(db_path: str | os.PathLike, ids: Sequence[str]) -> list[tuple[str, str, list[str]]]:
    """The distinct (ruleset, data version, bots) the games ``ids`` were played with (from their metadata)."""
    if not ids:
        return []
    conn = open_database(os.fspath(db_path), read_only=True)
    try:
        rows = conn.execute("SELECT DISTINCT ruleset, data_version, metadata FROM games WHERE list_contains(?, id)",
                            [list(ids)]).fetchall()
    finally:
        conn.close()
    settings = set()
    for ruleset, data_version, metadata in rows:
        bots = msgspec.json.decode(metadata).get("bots", []) if metadata else []
        settings.add((ruleset, data_version, tuple(bots)))
    return [(ruleset, data_version, list(bots)) for ruleset, data_version, bots in sorted(settings)]


def _outcome(result: GameResult) -> Outcome:
    return Outcome(finished=result.finished, winner=result.winner, draw=result.draw, scores=dict(result.scores),
                   reason=result.end_reason or "")


def write_games(db_path: str | os.PathLike, games: Sequence[EncodedGame],
                results: Sequence[GameResult] = ()) -> int:
    """Write ``games`` to the store in one transaction (one Arrow insert per table); returns their events.

    ``results`` (the games' :class:`GameResult`, matched by game id) go into ``game_outcomes`` and
    ``simulation_results`` in the same transaction. A game id already stored is refused with
    :class:`GameExists` and nothing is written.
    """
    if not games:
        return 0
    by_id = {result.game_id: result for result in results}
    conn = open_database(os.fspath(db_path))
    try:
        with transaction(conn):
            ids = [game.id for game in games]
            taken = conn.execute("SELECT id FROM games WHERE list_contains(?, id) LIMIT 3", [ids]).fetchall()
            if taken:
                raise GameExists(f"games {', '.join(row[0] for row in taken)} are already in the store {db_path}")
            games_rows = games_table(games)
            branches = pa.table({
                "game": games_rows.column("id"), "id": pa.array([MAIN] * len(games), pa.string()),
                "parent": pa.nulls(len(games), pa.string()), "fork_seq": pa.array([0] * len(games), pa.int64()),
                "label": pa.array([MAIN] * len(games), pa.string()), "created": games_rows.column("created"),
            })
            with registered(conn, "sim_games", games_rows):
                conn.execute("""INSERT INTO games (id, ruleset, data_version, engine_version, created, players, setup,
                                                   metadata)
                                SELECT id, ruleset, data_version, engine_version, created, players, setup, metadata
                                FROM sim_games""")
            with registered(conn, "sim_branches", branches):
                conn.execute("INSERT INTO branches (game, id, parent, fork_seq, label, created) "
                             "SELECT game, id, parent, fork_seq, label, created FROM sim_branches")
            events = events_table(games)
            with registered(conn, "sim_events", events):
                conn.execute("""INSERT INTO events (game, branch, seq, turn, phase, actor, type, version, payload,
                                                    prev_hash, hash)
                                SELECT game, branch, seq, turn, phase, actor, type, version, payload, prev_hash, hash
                                FROM sim_events""")
            with registered(conn, "sim_snapshots", snapshots_table(games)):
                conn.execute("INSERT INTO snapshots SELECT game, branch, seq, turn, state_hash, state FROM sim_snapshots")
            seal_written_games(conn, ids)  # each branch's sealed head, so verify sees a cut-off tail
            kept = [(game, by_id[game.id]) for game in games if game.id in by_id]
            insert_outcomes(conn, [(game.id, MAIN, game.seqs[-1] if game.seqs else 0, _outcome(result))
                                   for game, result in kept])
            if kept:
                conn.execute(RESULTS_TABLE)
                encoder = msgspec.json.Encoder()
                rows = pa.table({
                    "game": pa.array([game.id for game, _ in kept], pa.string()),
                    "run": pa.array([game.id.rsplit("-", 1)[0] for game, _ in kept], pa.string()),
                    "result": pa.array([encoder.encode(result).decode() for _, result in kept], pa.string()),
                })
                with registered(conn, "sim_results", rows):
                    conn.execute("INSERT OR REPLACE INTO simulation_results SELECT game, run, CAST(result AS JSON) "
                                 "FROM sim_results")
    finally:
        conn.close()
    return events.num_rows


def results_table(results: Sequence[GameResult], players: Sequence[str]) -> pa.Table:
    """One row per game: index, seed, id, winner, turns, and per player its score and each statistic
    (``score1``, then e.g. ``aircraft_lost1`` for the ruleset's "aircraft lost")."""
    columns: dict[str, pa.Array] = {
        "game": pa.array([r.game_id for r in results], pa.string()),
        "index": pa.array([r.index for r in results], pa.int64()),
        "seed": pa.array([r.seed for r in results], pa.int64()),
        "finished": pa.array([r.finished for r in results], pa.bool_()),
        "winner": pa.array([r.winner for r in results], pa.string()),
        "end_reason": pa.array([r.end_reason for r in results], pa.string()),
        "turns": pa.array([r.turns for r in results], pa.int32()),
        "events": pa.array([r.events for r in results], pa.int64()),
        "state_hash": pa.array([r.state_hash for r in results], pa.string()),
    }
    for number, player in enumerate(players, start=1):
        columns[f"player{number}"] = pa.array([player] * len(results), pa.string())
        columns[f"score{number}"] = pa.array([r.scores.get(player, 0.0) for r in results], pa.float64())
        names = sorted({name for r in results for name in r.statistics})
        for name in names:
            column = "_".join(name.split()) + str(number)
            columns[column] = pa.array([r.statistics.get(name, {}).get(player, 0) for r in results], pa.int32())
    return pa.table(columns)


def write_parquet_shard(folder: str | os.PathLike, name: str, games: Sequence[EncodedGame],
                        results: Sequence[GameResult]) -> list[str]:
    """Write one worker's shards (events, and games with their results); returns the file paths."""
    root = Path(folder)
    root.mkdir(parents=True, exist_ok=True)
    events_path = root / f"{name}.events.parquet"
    games_path = root / f"{name}.games.parquet"
    pq.write_table(events_table(games, ruleset=True), events_path, compression="zstd")
    players = games[0].players if games else []
    table = results_table(results, players)  # keyed by "game", as the events shards are
    rows = games_table(games)
    for column in rows.column_names:
        if column != "id":
            table = table.append_column(column, rows.column(column))
    pq.write_table(table, games_path, compression="zstd")
    return [os.fspath(events_path), os.fspath(games_path)]
