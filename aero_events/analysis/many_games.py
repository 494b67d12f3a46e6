"""Many games at once: outcomes and aircraft types, by SQL over the store (or a Parquet export).

Everything here runs in DuckDB over the views of :mod:`.views`, so it scales to a
corpus of simulated games without folding any of them in Python. Only the ``main``
branch of each game counts by default (a fork is a "what if", not another game).

Win rates by aircraft type count a side once for every type it fielded: a side of two
Thunderbolts and a Marauder that won is one win for ``thunderbolt`` and one for
``marauder``. A draw (``GameEnded.winner`` null) is no win for either side; games not
finished are left out.
"""

from __future__ import annotations

import duckdb
import pyarrow as pa

from .views import create_views

_OUTCOMES = """
    WITH forces AS (
        SELECT game, player, string_agg(profile, '+' ORDER BY profile) AS force, count(*) AS aircraft
        FROM game_aircraft GROUP BY game, player
    ), turns AS (
        SELECT game, max(turn) AS turns, count(*) AS events FROM {events} WHERE branch = $branch GROUP BY game
    )
    SELECT r.game, r.winner, r.reason, t.turns, t.events,
           list(f.player || ': ' || f.force ORDER BY f.player) AS forces
    FROM game_results r JOIN forces f ON f.game = r.game JOIN turns t ON t.game = r.game
    WHERE r.branch = $branch
    GROUP BY ALL ORDER BY r.game"""

_BY_TYPE = """
    WITH results AS (SELECT game, winner FROM game_results WHERE branch = $branch),
    sides AS (
        SELECT DISTINCT a.game, a.player, a.profile FROM game_aircraft a JOIN results r ON r.game = a.game
    ), side_results AS (
        SELECT s.profile, count(*) AS sides, count(*) FILTER (WHERE r.winner = s.player) AS wins,
               count(*) FILTER (WHERE r.winner IS NULL) AS draws
        FROM sides s JOIN results r ON r.game = s.game GROUP BY s.profile
    ), fielded AS (
        SELECT a.profile, count(*) AS aircraft FROM game_aircraft a JOIN results r ON r.game = a.game
        GROUP BY a.profile
    ), dealt AS (
        SELECT a.profile, count(*) AS shots, sum(s.hits) AS hits, sum(s.structure) AS damage_dealt
        FROM shots s JOIN game_aircraft a ON a.game = s.game AND a.aircraft = s.aircraft
        WHERE s.branch = $branch GROUP BY a.profile
    ), taken AS (
        SELECT a.profile, sum(d.hits) AS damage_taken
        FROM damage d JOIN game_aircraft a ON a.game = d.game AND a.aircraft = d.aircraft
        WHERE d.branch = $branch GROUP BY a.profile
    ), lost AS (
        SELECT a.profile, count(*) AS destroyed
        FROM destroyed x JOIN game_aircraft a ON a.game = x.game AND a.aircraft = x.aircraft
        WHERE x.branch = $branch GROUP BY a.profile
    )
    SELECT f.profile, f.aircraft, coalesce(sr.sides, 0) AS sides, coalesce(sr.wins, 0) AS wins,
           coalesce(sr.draws, 0) AS draws,
           round(coalesce(sr.wins, 0) / nullif(sr.sides, 0), 3) AS win_rate,
           coalesce(d.shots, 0) AS shots, coalesce(d.hits, 0)::BIGINT AS hits,
           coalesce(d.damage_dealt, 0)::BIGINT AS damage_dealt,
           coalesce(t.damage_taken, 0)::BIGINT AS damage_taken,
           coalesce(l.destroyed, 0) AS destroyed,
           round(coalesce(d.damage_dealt, 0) / f.aircraft, 2) AS damage_dealt_per_aircraft,
           round(coalesce(t.damage_taken, 0) / f.aircraft, 2) AS damage_taken_per_aircraft
    FROM fielded f
    LEFT JOIN side_results sr ON sr.profile = f.profile
    LEFT JOIN dealt d ON d.profile = f.profile
    LEFT JOIN taken t ON t.profile = f.profile
    LEFT JOIN lost l ON l.profile = f.profile
    ORDER BY f.profile"""


def game_outcomes(connection: duckdb.DuckDBPyConnection, *, branch: str = "main", events: str = "events",
                  games: str = "games") -> pa.Table:
    """One row per finished game: winner (null: a draw), reason, turns, events, each side's force."""
    create_views(connection, events=events, games=games)
    return connection.sql(_OUTCOMES.format(events=events), params={"branch": branch}).to_arrow_table()


def aircraft_type_summary(connection: duckdb.DuckDBPyConnection, *, branch: str = "main",
                          events: str = "events", games: str = "games") -> pa.Table:
    """Per aircraft type over every finished game: sides fielding it, wins, win rate, shots, hits, damage
    rolled against the enemy, Structure lost, aircraft destroyed, and damage per aircraft fielded."""
    create_views(connection, events=events, games=games)
    return connection.sql(_BY_TYPE, params={"branch": branch}).to_arrow_table()
