"""The ruleset's own SQL views, created in every database file beside the generic ones.

Each reads ``event_log`` (every event with its game's ruleset, see :mod:`aero_events.store.views`) and keeps only the
games of this family. Payload fields left at their default are not stored and read as NULL.
"""

from __future__ import annotations

from aero_events.core.interface import SqlView, sql_literal

from .data import GameData, default_data

FAMILY = "whfb-flying"
_OURS = f"(ruleset = '{FAMILY}' OR ruleset LIKE '{FAMILY}/%')"

_VIEWS: tuple[tuple[str, str, str], ...] = (
    ("whfb_events", "the events of whfb-flying games (what the other whfb_ views read)",
     f"SELECT * FROM event_log WHERE {_OURS}"),
    ("whfb_flights", "every fly move (Take Off, Land, Fly, Soar, Fly High, Vanguard take off): unit, move, where",
     """SELECT game, branch, seq, turn, actor AS player, payload->>'$.unit' AS unit, payload->>'$.move' AS move,
               coalesce(CAST(payload->>'$.in_air' AS BOOLEAN), false) AS in_air,
               CAST(payload->>'$.pose.x' AS DOUBLE) / 2540 AS x_inches,
               CAST(payload->>'$.pose.y' AS DOUBLE) / 2540 AS y_inches
        FROM whfb_events WHERE type = 'whfb.FlightMade'"""),
    ("whfb_charges", "every charge, Intercept and Swoop: distance rolled against the distance needed, contact",
     """SELECT game, branch, seq, turn, payload->>'$.unit' AS unit, payload->>'$.target' AS target,
               payload->>'$.kind' AS kind, CAST(payload->>'$.distance' AS DOUBLE) / 2540 AS rolled_inches,
               CAST(payload->>'$.needed' AS DOUBLE) / 2540 AS needed_inches,
               coalesce(CAST(payload->>'$.reached' AS BOOLEAN), false) AS reached, payload->>'$.side' AS side
        FROM whfb_events WHERE type = 'whfb.ChargeResolved'"""),
    ("whfb_attacks", "every volley and round of blows: dice, hits, wounds, unsaved wounds and the modifiers",
     """SELECT game, branch, seq, turn, payload->>'$.attacker' AS attacker, payload->>'$.target' AS target,
               payload->>'$.attack' AS attack, CAST(payload->>'$.dice' AS INTEGER) AS dice,
               CAST(payload->>'$.hits' AS INTEGER) AS hits, CAST(payload->>'$.wounds' AS INTEGER) AS wounds,
               CAST(payload->>'$.unsaved' AS INTEGER) AS unsaved, CAST(payload->>'$.to_hit' AS INTEGER) AS to_hit,
               payload->>'$.modifiers' AS modifiers
        FROM whfb_events WHERE type = 'whfb.AttackResolved'"""),
    ("whfb_combats", "every round of close combat: its units (two or more), each side's resolution, the winner",
     """SELECT game, branch, seq, turn, payload->>'$.units' AS units, payload->>'$.scores' AS scores,
               payload->>'$.winner' AS winner, payload->>'$.details' AS details
        FROM whfb_events WHERE type = 'whfb.CombatResolved'"""),
    ("whfb_tests", "every test (break, panic, rally, fear, Fly High, stay aloft, dangerous terrain) and its result",
     """SELECT game, branch, seq, turn, payload->>'$.unit' AS unit, payload->>'$.test' AS test,
               CAST(payload->>'$.score' AS INTEGER) AS score, CAST(payload->>'$.target' AS INTEGER) AS target,
               coalesce(CAST(payload->>'$.passed' AS BOOLEAN), false) AS passed
        FROM whfb_events WHERE type = 'whfb.TestTaken'"""),
)


def _piece_views(data: GameData) -> tuple[tuple[str, str, str], ...]:
    """``whfb_pieces`` (game, side, piece, piece_type) and ``whfb_piece_stats`` (game, branch, piece, shots, hits,
    damage_dealt, damage_taken, destroyed): the store's convention for piece-level analysis
    (:mod:`aero_events.analysis.many_games`); a piece is a unit. A game's setup stores its scenario's name and
    only the forces that replace the scenario's own, so the scenarios' deployments and the units' names are
    written into the view from the data files. A shot is a volley, spell or round of blows, its hits their hits,
    damage the unsaved wounds dealt and taken; destroyed: the unit was wiped out or caught."""
    deployed = ", ".join(f"({sql_literal(scenario.id)}, {sql_literal(side)}, {sql_literal(unit.id)}, {sql_literal(unit.profile)})"
                         for scenario in data.scenarios.values()
                         for side, units in scenario.forces.items() for unit in units)
    names = ", ".join(f"({sql_literal(profile.id)}, {sql_literal(profile.name)})" for profile in data.units.values())
    pieces = f"""WITH planned(scenario, side, piece, profile) AS (VALUES {deployed}),
            profiles(profile, name) AS (VALUES {names}),
            ours AS (SELECT id, setup FROM games WHERE {_OURS}),
            deployed AS (
                SELECT g.id AS game, f.key AS side, u->>'$.id' AS piece, u->>'$.profile' AS profile
                FROM ours g, json_each(g.setup->'$.forces') AS f, unnest(CAST(f.value AS JSON[])) AS t(u)
                WHERE json_type(g.setup->'$.forces') = 'OBJECT'
                UNION ALL
                SELECT g.id, p.side, p.piece, p.profile FROM ours g
                JOIN planned p ON p.scenario = coalesce(g.setup->>'$.scenario', 'pitched_battle')
                WHERE json_type(g.setup->'$.forces') IS DISTINCT FROM 'OBJECT')
        SELECT d.game, d.side, d.piece, coalesce(n.name, d.profile) AS piece_type
        FROM deployed d LEFT JOIN profiles n USING (profile)"""
    stats = """WITH attacks AS (
            SELECT game, branch, attacker AS piece, count(*) AS shots, sum(hits) AS hits, sum(unsaved) AS dealt
            FROM whfb_attacks GROUP BY ALL),
        taken AS (
            SELECT game, branch, payload->>'$.unit' AS piece, sum(CAST(payload->>'$.wounds' AS INTEGER)) AS damage
            FROM whfb_events WHERE type = 'whfb.UnitWounded' GROUP BY ALL),
        lost AS (
            SELECT DISTINCT game, branch, payload->>'$.unit' AS piece FROM whfb_events
            WHERE type = 'whfb.UnitDestroyed'),
        branches AS (SELECT DISTINCT game, branch FROM whfb_events)
        SELECT b.game, b.branch, p.piece, coalesce(a.shots, 0) AS shots, coalesce(a.hits, 0) AS hits,
               coalesce(a.dealt, 0) AS damage_dealt, coalesce(t.damage, 0) AS damage_taken,
               l.piece IS NOT NULL AS destroyed
        FROM branches b JOIN whfb_pieces p ON p.game = b.game
        LEFT JOIN attacks a ON a.game = b.game AND a.branch = b.branch AND a.piece = p.piece
        LEFT JOIN taken t ON t.game = b.game AND t.branch = b.branch AND t.piece = p.piece
        LEFT JOIN lost l ON l.game = b.game AND l.branch = b.branch AND l.piece = p.piece"""
    return (("whfb_pieces", "the units of each game: side and unit profile", pieces),
            ("whfb_piece_stats", "per unit: volleys and blows, hits, wounds dealt and taken, destroyed", stats))


def sql_views(data: GameData | None = None) -> tuple[SqlView, ...]:
    """The views, the piece views written from ``data`` (default: the package's data files)."""
    views = _VIEWS + _piece_views(data or default_data())
    return tuple(SqlView(name=name, sql=sql, description=description) for name, description, sql in views)
