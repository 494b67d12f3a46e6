"""The store's SQL views on any connection: a store's file (where they already are), or a Parquet export.

The views themselves live in :mod:`aero_events.store.views` (generic: ``event_log``, ``games_overview``,
``events_by_type``, ``dice_rolls``, ``dice_by_purpose``, ``outcomes``, ``outcome_scores``) and in each
ruleset's ``sql_views()`` (Aeronautica's ``aeronautica_*``); the store creates them in its file whenever it
opens it for writing. :func:`create_views` makes them on another connection, reading any relation with
the events table's columns plus ``ruleset`` (what ``aero export --parquet`` writes), e.g.
``events="read_parquet('games.parquet')"``; views that need a table the relation lacks (``games``,
``branches``, ``game_outcomes``) are left out.
"""

from __future__ import annotations

import duckdb

from aero_events.store.views import all_views


def create_views(connection: duckdb.DuckDBPyConnection, *, events: str = "events", games: str | None = "games",
                 temporary: bool = True) -> list[str]:
    """Create (or replace) the views on ``connection``; returns the names of those created.

    ``events`` is the relation of events (a table name, or ``read_parquet(...)`` of an export, which
    carries each event's ``ruleset``); ``games=None`` says there is no games table (the views needing it
    are skipped). ``temporary=False`` stores the views in the database file.
    """
    kind = "TEMPORARY VIEW" if temporary else "VIEW"
    created = []
    for name, _description, sql in all_views():
        if name == "event_log" and (events != "events" or games is None):
            sql = ("SELECT game, ruleset, branch, seq, turn, phase, actor, type, version, payload "
                   f"FROM {events}")
        elif games is not None and games != "games":
            sql = sql.replace("FROM games", f"FROM {games}").replace("JOIN games", f"JOIN {games}")
        try:
            connection.execute(f"CREATE OR REPLACE {kind} {name} AS {sql}")
        except duckdb.Error:  # it reads a table this connection does not have (games, branches, game_outcomes)
            continue
        created.append(name)
    return created


def view_names() -> tuple[str, ...]:
    """Every view the store creates (generic first, then each known ruleset's)."""
    return tuple(name for name, _, _ in all_views())
