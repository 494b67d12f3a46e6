"""Battlefleet Gothic's own DuckDB views, created beside the generic ones (``Ruleset.sql_views``).

Each reads ``event_log`` and keeps only this family's games. Following the store's convention for
piece-level analysis: ``battlefleet_gothic_pieces`` (game, side, piece, piece_type) and
``battlefleet_gothic_piece_stats`` (game, branch, piece, shots, hits, damage_dealt, damage_taken, destroyed).
"""

from __future__ import annotations

from aero_events.core.interface import SqlView

FAMILY = "battlefleet-gothic"
_OURS = f"(ruleset = '{FAMILY}' OR ruleset LIKE '{FAMILY}/%')"

_VIEWS: tuple[tuple[str, str, str], ...] = (
    ("battlefleet_gothic_events", "the events of Battlefleet Gothic games",
     f"SELECT * FROM event_log WHERE {_OURS}"),
    ("battlefleet_gothic_gunnery", "every weapons battery salvo: firepower, column, shifts, dice, to-hit, hits",
     """SELECT game, branch, seq, turn, phase, payload->>'$.ship' AS ship, payload->>'$.target' AS target,
               CAST(payload->>'$.firepower' AS INTEGER) AS firepower, payload->>'$.column' AS gunnery_column,
               CAST(payload->>'$.dice' AS INTEGER) AS dice, CAST(payload->>'$.needed' AS INTEGER) AS needed,
               CAST(payload->>'$.hits' AS INTEGER) AS hits,
               CAST(payload->>'$.dice' AS INTEGER) * (7 - CAST(payload->>'$.needed' AS INTEGER)) / 6.0 AS expected
        FROM battlefleet_gothic_events WHERE type = 'bfg.GunneryResolved'"""),
    ("battlefleet_gothic_damage", "every damage point taken, by source",
     """SELECT game, branch, seq, turn, phase, payload->>'$.ship' AS ship,
               CAST(payload->>'$.amount' AS INTEGER) AS amount, CAST(payload->>'$.damage' AS INTEGER) AS total,
               payload->>'$.source' AS source
        FROM battlefleet_gothic_events WHERE type = 'bfg.DamageTaken'"""),
    ("battlefleet_gothic_orders", "every Command check: order, roll, Leadership, passed",
     """SELECT game, branch, seq, turn, payload->>'$.ship' AS ship, payload->>'$.order' AS special_order,
               CAST(payload->>'$.roll' AS INTEGER) AS roll, CAST(payload->>'$.leadership' AS INTEGER) AS leadership,
               coalesce(CAST(payload->>'$.passed' AS BOOLEAN), false) AS passed
        FROM battlefleet_gothic_events WHERE type = 'bfg.CommandCheckTaken'"""),
    ("battlefleet_gothic_pieces", "the ships of each game: side and class",
     f"""SELECT g.id AS game, s->>'$.side' AS side, s->>'$.id' AS piece, s->>'$.class_id' AS piece_type
        FROM games g, unnest(CAST(g.setup->'$.ships' AS JSON[])) AS t(s) WHERE {_OURS}"""),
    ("battlefleet_gothic_piece_stats", "per ship: shots fired, hits scored, damage dealt and taken, destroyed",
     """WITH shots AS (
            SELECT game, branch, payload->>'$.shooter' AS piece, count(*) AS shots,
                   count(*) FILTER (WHERE payload->>'$.outcome' = 'hit') AS hits
            FROM battlefleet_gothic_events WHERE type = 'bfg.ShotRecorded' GROUP BY ALL),
        taken AS (
            SELECT game, branch, payload->>'$.ship' AS piece, sum(CAST(payload->>'$.amount' AS INTEGER)) AS damage
            FROM battlefleet_gothic_events WHERE type = 'bfg.DamageTaken' GROUP BY ALL),
        lost AS (
            SELECT DISTINCT game, branch, payload->>'$.ship' AS piece
            FROM battlefleet_gothic_events
            WHERE type = 'bfg.ShipDestroyed' OR (type = 'bfg.CatastrophicDamage')),
        branches AS (SELECT DISTINCT game, branch FROM battlefleet_gothic_events)
        SELECT b.game, b.branch, p.piece, coalesce(s.shots, 0) AS shots, coalesce(s.hits, 0) AS hits,
               NULL::INTEGER AS damage_dealt, coalesce(t.damage, 0) AS damage_taken,
               l.piece IS NOT NULL AS destroyed
        FROM branches b JOIN battlefleet_gothic_pieces p ON p.game = b.game
        LEFT JOIN shots s ON s.game = b.game AND s.branch = b.branch AND s.piece = p.piece
        LEFT JOIN taken t ON t.game = b.game AND t.branch = b.branch AND t.piece = p.piece
        LEFT JOIN lost l ON l.game = b.game AND l.branch = b.branch AND l.piece = p.piece"""),
)


def sql_views() -> tuple[SqlView, ...]:
    return tuple(SqlView(name=name, sql=sql, description=description) for name, description, sql in _VIEWS)
