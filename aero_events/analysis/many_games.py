"""Many games at once: outcomes and piece types, by SQL over the store's views (any ruleset).

Everything here runs in DuckDB over the views the store keeps in its file (:mod:`aero_events.store.views`),
so it scales to a corpus of simulated games without folding any of them in Python. Only the ``main``
branch of each game counts by default (a fork is a "what if", not another game).

Outcomes come from the generic ``outcomes`` view (each game's outcome as its ruleset judged it). Forces
and piece types come from the rulesets' views that follow the store's convention: ``{family}_pieces``
(game, side, piece, piece_type) and ``{family}_piece_stats`` (game, branch, piece, shots, hits,
damage_dealt, damage_taken, destroyed); every such view in the file is read, whatever its ruleset.

Both take ``prefix``: only the games whose id starts with it (one run of ``aero simulate``, whose game ids
share the run's prefix: ``piece_type_summary(conn, prefix="sim-fighters-wov-2019-s0-")``).

Win rates by piece type count a side once for every type it fielded: a side of two Thunderbolts and a
Marauder that won is one win for ``thunderbolt`` and one for ``marauder``. A draw (no winner) is no win
for either side; games not finished are left out.
"""

from __future__ import annotations

import duckdb
import pyarrow as pa


def _convention_views(connection: duckdb.DuckDBPyConnection, suffix: str) -> list[str]:
    rows = connection.execute(
        "SELECT DISTINCT view_name FROM duckdb_views() WHERE NOT internal AND ends_with(view_name, ?) "
        "ORDER BY view_name", [suffix]).fetchall()
    return [row[0] for row in rows]


def _union(views: list[str], columns: str, empty: str) -> str:
    """The rows of every view in ``views`` (their ``columns``), or ``empty`` (a typed empty SELECT)."""
    if not views:
        return empty
    return " UNION ALL ".join(f"SELECT {columns} FROM {view}" for view in views)


_NO_PIECES = ("SELECT NULL::VARCHAR AS game, NULL::VARCHAR AS side, NULL::VARCHAR AS piece, "
              "NULL::VARCHAR AS piece_type WHERE false")
_NO_STATS = ("SELECT NULL::VARCHAR AS game, NULL::VARCHAR AS branch, NULL::VARCHAR AS piece, 0::BIGINT AS shots, "
             "0::BIGINT AS hits, 0::BIGINT AS damage_dealt, 0::BIGINT AS damage_taken, false AS destroyed WHERE false")


def game_outcomes(connection: duckdb.DuckDBPyConnection, *, branch: str = "main", prefix: str = "") -> pa.Table:
    """One row per finished game (of those whose id starts with ``prefix``): ruleset, winner (null: a draw),
    reason, turns, events, each side's force."""
    pieces = _union(_convention_views(connection, "_pieces"), "game, side, piece, piece_type", _NO_PIECES)
    sql = f"""
        WITH pieces AS ({pieces}),
        forces AS (SELECT game, side, string_agg(piece_type, '+' ORDER BY piece_type) AS force
                   FROM pieces GROUP BY game, side),
        turns AS (SELECT game, max(turn) AS turns, count(*) AS events FROM events WHERE branch = $branch
                  GROUP BY game)
        SELECT o.game, o.ruleset, o.winner, o.draw, o.reason, t.turns, t.events,
               list(f.side || ': ' || f.force ORDER BY f.side) FILTER (WHERE f.side IS NOT NULL) AS forces
        FROM outcomes o JOIN turns t ON t.game = o.game LEFT JOIN forces f ON f.game = o.game
        WHERE o.branch = $branch AND o.finished AND starts_with(o.game, $prefix)
        GROUP BY ALL ORDER BY o.game"""
    return connection.sql(sql, params={"branch": branch, "prefix": prefix}).to_arrow_table()


def piece_type_summary(connection: duckdb.DuckDBPyConnection, *, branch: str = "main", prefix: str = ""
                       ) -> pa.Table:
    """Per piece type over every finished game (whose id starts with ``prefix``): pieces fielded, sides
    fielding it, wins, draws, win rate, shots, hits, damage dealt and taken, pieces destroyed, and damage per
    piece fielded. Damage dealt is null where the ruleset's view cannot know it (Wings of Glory's damage
    tokens are drawn face down: its ``damage_dealt`` is NULL), not zero."""
    pieces = _union(_convention_views(connection, "_pieces"), "game, side, piece, piece_type", _NO_PIECES)
    stats = _union(_convention_views(connection, "_piece_stats"),
                   "game, branch, piece, shots, hits, damage_dealt, damage_taken, destroyed", _NO_STATS)
    sql = f"""
        WITH pieces AS ({pieces}), stats AS ({stats}),
        results AS (SELECT game, winner, draw FROM outcomes
                    WHERE branch = $branch AND finished AND starts_with(game, $prefix)),
        sides AS (SELECT DISTINCT p.game, p.side, p.piece_type FROM pieces p JOIN results r USING (game)),
        side_results AS (
            SELECT s.piece_type, count(*) AS sides, count(*) FILTER (WHERE r.winner = s.side) AS wins,
                   count(*) FILTER (WHERE r.winner IS NULL) AS draws
            FROM sides s JOIN results r USING (game) GROUP BY s.piece_type
        ),
        fielded AS (
            SELECT p.piece_type, count(*) AS pieces, sum(coalesce(st.shots, 0)) AS shots,
                   sum(coalesce(st.hits, 0)) AS hits,
                   CASE WHEN count(st.piece) > 0 AND count(st.damage_dealt) = 0 THEN NULL
                        ELSE sum(coalesce(st.damage_dealt, 0)) END AS damage_dealt,
                   sum(coalesce(st.damage_taken, 0)) AS damage_taken,
                   count(*) FILTER (WHERE st.destroyed) AS destroyed
            FROM pieces p JOIN results r USING (game)
            LEFT JOIN stats st ON st.game = p.game AND st.piece = p.piece AND st.branch = $branch
            GROUP BY p.piece_type
        )
        SELECT f.piece_type, f.pieces, coalesce(sr.sides, 0) AS sides, coalesce(sr.wins, 0) AS wins,
               coalesce(sr.draws, 0) AS draws, round(coalesce(sr.wins, 0) / nullif(sr.sides, 0), 3) AS win_rate,
               f.shots::BIGINT AS shots, f.hits::BIGINT AS hits, f.damage_dealt::BIGINT AS damage_dealt,
               f.damage_taken::BIGINT AS damage_taken, f.destroyed,
               round(f.damage_dealt / f.pieces, 2) AS damage_dealt_per_piece,
               round(f.damage_taken / f.pieces, 2) AS damage_taken_per_piece
        FROM fielded f LEFT JOIN side_results sr USING (piece_type)
        ORDER BY f.piece_type"""
    return connection.sql(sql, params={"branch": branch, "prefix": prefix}).to_arrow_table()
