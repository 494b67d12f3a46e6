"""SQL views over the store's tables, for analysis in DuckDB itself (one game or thousands).

``create_views(conn)`` defines, over the ``events`` table (or any relation with its
columns, such as a Parquet export: ``events="read_parquet('games.parquet')"``):

* ``dice_rolls``: every ``DiceRolled`` with its purpose, roller, faces, target and summed modifiers;
* ``dice_luck``: the targeted rolls that counted (re-rolled ones left out), with the
  expected and actual successes (p.7: never modified below 1, a natural 1 fails);
* ``movements``: every Ace Manoeuvre flown (``ManoeuvreFlown``): where to, how far, completed or not;
* ``shots``: every weapon fired at a target (``WeaponFired``) with the hits it scored and
  the damaging hits its Damage dice rolled (matched with ASOF joins on the same firer
  and weapon);
* ``damage``: every ``DamageSuffered`` (any cause); ``destroyed``: every ``AircraftDestroyed``;
* ``game_results``: each branch's ``GameEnded``: winner and reason;

and over the ``games`` table (skipped when ``games=None``, e.g. for a bare Parquet file):

* ``game_aircraft``: every aircraft of every game's setup: its id, player and profile
  (ids as ``setup.aircraft_ids`` gives them: the entry's name, or ``player-N``).

The payload column is JSON text (see store/schema.py); fields left at their default
are not written, so a missing ``target`` or ``modifiers`` reads as NULL here. Views are
TEMPORARY by default: they live in the connection and never change the store's file.
Events of a fork are stored once, in the branch that made them: these views read rows
as stored (for a branch's whole line of play use the store's ``events()``).
"""

from __future__ import annotations

import duckdb

_D3_VALUE = "(CASE WHEN d3 THEN (f + 1) // 2 ELSE f END)"
_SUCCEEDS = f"{_D3_VALUE} != 1 AND greatest(1, {_D3_VALUE} + modifier) >= target"

_EVENT_VIEWS = {
    "dice_rolls": """
        SELECT game, branch, seq, turn, phase, actor,
               CAST(payload->>'$.roll_index' AS BIGINT) AS roll_index,
               payload->>'$.purpose' AS purpose,
               trim(split_part(payload->>'$.purpose', ':', 1)) AS kind,
               payload->>'$.roller' AS roller,
               CAST(payload->>'$.count' AS INTEGER) AS dice,
               CAST(payload->>'$.sides' AS INTEGER) AS sides,
               CAST(payload->'$.faces' AS INTEGER[]) AS faces,
               CAST(payload->>'$.target' AS INTEGER) AS target,
               CAST(coalesce(list_sum(CAST(payload->'$.modifiers[*].value' AS INTEGER[])), 0) AS INTEGER)
                   AS modifier,
               coalesce(CAST(payload->>'$.d3' AS BOOLEAN), false) AS d3,
               CAST(payload->>'$.replaces' AS BIGINT) AS replaces
        FROM {events} WHERE type = 'DiceRolled'""",
    "dice_luck": f"""
        SELECT r.*,
               r.dice * len(list_filter(range(1, r.sides + 1), lambda f: {_SUCCEEDS})) / r.sides AS expected,
               len(list_filter(r.faces, lambda f: {_SUCCEEDS})) AS actual
        FROM dice_rolls r
        WHERE r.target IS NOT NULL AND r.dice > 0
          AND NOT EXISTS (SELECT 1 FROM dice_rolls later
                          WHERE later.game = r.game AND later.replaces = r.roll_index)""",
    "movements": """
        SELECT game, branch, seq, turn, actor AS player,
               payload->>'$.aircraft' AS aircraft,
               CAST(payload->>'$.manoeuvre' AS INTEGER) AS manoeuvre,
               payload->>'$.side' AS manoeuvre_side,
               CAST(payload->'$.hex[0]' AS INTEGER) AS q,
               CAST(payload->'$.hex[1]' AS INTEGER) AS r,
               CAST(payload->>'$.facing' AS INTEGER) AS facing,
               CAST(coalesce(json_array_length(payload->'$.path'), 0)
                    + coalesce(json_array_length(payload->'$.pushed'), 0) AS INTEGER) AS hexes_flown,
               coalesce(CAST(payload->>'$.completed' AS BOOLEAN), true) AS completed
        FROM {events} WHERE type = 'ai.ManoeuvreFlown'""",
    "fired_weapons": """
        SELECT game, branch, seq, turn, phase, actor AS player,
               payload->>'$.aircraft' AS aircraft,
               CAST(payload->>'$.weapon_index' AS INTEGER) AS weapon_index,
               payload->>'$.weapon' AS weapon,
               payload->>'$.target' AS target,
               payload->>'$.attack' AS attack,
               payload->>'$.band' AS band,
               CAST(payload->>'$.dice' AS INTEGER) AS dice
        FROM {events} WHERE type = 'ai.WeaponFired' AND payload->>'$.target' IS NOT NULL""",
    "scored_hits": """
        SELECT game, branch, seq, payload->>'$.aircraft' AS aircraft,
               CAST(payload->>'$.weapon_index' AS INTEGER) AS weapon_index,
               CAST(payload->>'$.hits' AS INTEGER) AS hits
        FROM {events} WHERE type = 'ai.HitsScored'""",
    "rolled_damage": """
        SELECT game, branch, seq, payload->>'$.aircraft' AS aircraft,
               CAST(payload->>'$.weapon_index' AS INTEGER) AS weapon_index,
               CAST(payload->>'$.damaging' AS INTEGER) AS damaging,
               CAST(payload->>'$.structure' AS INTEGER) AS structure
        FROM {events} WHERE type = 'ai.DamageRolled' AND coalesce(payload->>'$.kind', 'shot') = 'shot'""",
    "shots": """
        SELECT f.*, coalesce(h.hits, 0) AS hits,
               CASE WHEN coalesce(h.hits, 0) > 0 THEN coalesce(d.damaging, 0) ELSE 0 END AS damaging,
               CASE WHEN coalesce(h.hits, 0) > 0 THEN coalesce(d.structure, 0) ELSE 0 END AS structure
        FROM fired_weapons f
        ASOF LEFT JOIN scored_hits h
               ON h.game = f.game AND h.branch = f.branch AND h.aircraft = f.aircraft
              AND h.weapon_index = f.weapon_index AND h.seq > f.seq
        ASOF LEFT JOIN rolled_damage d
               ON d.game = f.game AND d.branch = f.branch AND d.aircraft = f.aircraft
              AND d.weapon_index = f.weapon_index AND d.seq > f.seq""",
    "damage": """
        SELECT game, branch, seq, turn, phase,
               payload->>'$.aircraft' AS aircraft,
               CAST(payload->>'$.hits' AS INTEGER) AS hits,
               CAST(payload->>'$.structure' AS INTEGER) AS structure_left,
               payload->>'$.cause' AS cause
        FROM {events} WHERE type = 'ai.DamageSuffered'""",
    "destroyed": """
        SELECT game, branch, seq, turn, phase, payload->>'$.aircraft' AS aircraft, payload->>'$.cause' AS cause
        FROM {events} WHERE type = 'ai.AircraftDestroyed'""",
    "game_results": """
        SELECT game, branch, seq, turn, payload->>'$.winner' AS winner, payload->>'$.reason' AS reason
        FROM {events} WHERE type = 'ai.GameEnded'""",
}

_GAME_VIEWS = {
    "game_aircraft": """
        WITH sides AS (
            SELECT g.id AS game, unnest(CAST(g.setup->'$.sides' AS JSON[])) AS side FROM {games} g
        ), entries AS (
            SELECT game, side->>'$.player' AS player,
                   unnest(CAST(side->'$.force.aircraft' AS JSON[])) AS entry,
                   unnest(range(1, coalesce(json_array_length(side->'$.force.aircraft'), 0)::BIGINT + 1))
                       AS position
            FROM sides
        )
        SELECT game, player, coalesce(entry->>'$.name', player || '-' || position::VARCHAR) AS aircraft,
               entry->>'$.aircraft' AS profile, position
        FROM entries""",
}


def create_views(connection: duckdb.DuckDBPyConnection, *, events: str = "events", games: str | None = "games",
                 temporary: bool = True) -> list[str]:
    """Create (or replace) the analysis views on ``connection``; returns their names.

    ``events`` and ``games`` are the relations to read (table names, or e.g.
    ``read_parquet('file.parquet')``); ``games=None`` skips the views that need the
    games table. ``temporary=False`` stores the views in the database file.
    """
    kind = "TEMPORARY VIEW" if temporary else "VIEW"
    created = []
    views = {name: sql.format(events=events) for name, sql in _EVENT_VIEWS.items()}
    if games is not None:
        views.update({name: sql.format(games=games) for name, sql in _GAME_VIEWS.items()})
    for name, sql in views.items():
        connection.execute(f"CREATE OR REPLACE {kind} {name} AS {sql}")
        created.append(name)
    return created


#: Every view :func:`create_views` makes (helpers such as ``fired_weapons`` included).
VIEW_NAMES: tuple[str, ...] = (*_EVENT_VIEWS, *_GAME_VIEWS)
