"""The ruleset's own SQL views, created in every database file beside the generic ones.

Each reads ``event_log`` (every event with its game's ruleset, see :mod:`aero_events.store.views`) and keeps only the
games of this family. Payload fields left at their default are not stored and read as NULL.
"""

from __future__ import annotations

from aero_events.core.interface import SqlView

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


def sql_views() -> tuple[SqlView, ...]:
    return tuple(SqlView(name=name, sql=sql, description=description) for name, description, sql in _VIEWS)
