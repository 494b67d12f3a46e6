"""Million-Colored Sun's own SQL views, created in every database file beside the generic ones.

Each reads ``event_log`` (every event with its game's ruleset, see :mod:`aero_events.store.views`) and keeps only the
games of this family, so it never misreads another ruleset's payloads. Payload fields left at their default are not
stored and read as NULL.
"""

from __future__ import annotations

from aero_events.core.interface import SqlView

FAMILY = "million-colored-sun"
_OURS = f"(ruleset = '{FAMILY}' OR ruleset LIKE '{FAMILY}/%')"

_VIEWS: tuple[tuple[str, str, str], ...] = (
    ("mcs_events", "the events of Million-Colored Sun games (what the other mcs_ views read)",
     f"SELECT * FROM event_log WHERE {_OURS}"),
    ("mcs_attacks", "every weapon's attacks: hits, wounds, unsaved, wounds inflicted, doubled from the rear arc",
     """SELECT game, branch, seq, turn, phase, actor AS player,
               payload->>'$.model' AS model, payload->>'$.weapon' AS weapon, payload->>'$.target' AS target,
               CAST(payload->>'$.attacks' AS INTEGER) AS attacks, CAST(payload->>'$.hits' AS INTEGER) AS hits,
               CAST(payload->>'$.wounds' AS INTEGER) AS wounds, CAST(payload->>'$.unsaved' AS INTEGER) AS unsaved,
               CAST(payload->>'$.inflicted' AS INTEGER) AS inflicted,
               coalesce(CAST(payload->>'$.doubled' AS BOOLEAN), false) AS doubled
        FROM mcs_events WHERE type = 'mcs.AttacksMade'"""),
    ("mcs_initiative_tests", "every Initiative test (Difficult to Hit, Strafing Run, missiles) and whether it passed",
     """SELECT game, branch, seq, turn, payload->>'$.model' AS model, payload->>'$.reason' AS reason,
               CAST(payload->>'$.roll' AS INTEGER) AS roll,
               coalesce(CAST(payload->>'$.modifier' AS INTEGER), 0) AS modifier,
               CAST(payload->>'$.target' AS INTEGER) AS target, CAST(payload->>'$.passed' AS BOOLEAN) AS passed
        FROM mcs_events WHERE type = 'mcs.InitiativeTested'"""),
    ("mcs_flights", "every manoeuvre flown: the model, the manoeuvre, where it ended (inches) and its heading",
     """SELECT game, branch, seq, turn, actor AS player, payload->>'$.model' AS model,
               payload->>'$.manoeuvre' AS manoeuvre,
               CAST(payload->>'$.x' AS DOUBLE) / 2540 AS x_inches, CAST(payload->>'$.y' AS DOUBLE) / 2540 AS y_inches,
               CAST(payload->>'$.heading' AS DOUBLE) / 100 AS heading_degrees,
               (payload->'$.pilot_input') IS NOT NULL AS pilot_input
        FROM mcs_events WHERE type = 'mcs.ModelFlew'"""),
)


def sql_views() -> tuple[SqlView, ...]:
    return tuple(SqlView(name=name, sql=sql, description=description) for name, description, sql in _VIEWS)
