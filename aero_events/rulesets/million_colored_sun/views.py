"""Million-Colored Sun's own SQL views, created in every database file beside the generic ones.

Each reads ``event_log`` (every event with its game's ruleset, see :mod:`aero_events.store.views`) and keeps only the
games of this family, so it never misreads another ruleset's payloads. Payload fields left at their default are not
stored and read as NULL.
"""

from __future__ import annotations

from aero_events.core.interface import SqlView, sql_literal

from .data import GameData, default_data

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


def _piece_views(data: GameData) -> tuple[tuple[str, str, str], ...]:
    """``mcs_pieces`` (game, side, piece, piece_type) and ``mcs_piece_stats`` (game, branch, piece, shots, hits,
    damage_dealt, damage_taken, destroyed): the store's convention for piece-level analysis
    (:mod:`aero_events.analysis.many_games`). A game's setup stores its battleplan's name and only the forces that
    replace the plan's own, so the plans' deployments and the warscrolls' names are written into the view from
    the data files. A shot is a weapon's attacks, its hits their hits, damage the wounds inflicted and taken."""
    deployed = ", ".join(f"({sql_literal(plan.id)}, {sql_literal(model.side)}, {sql_literal(model.id)}, {sql_literal(model.warscroll)})"
                         for plan in data.battleplans.values() for model in plan.models)
    names = ", ".join(f"({sql_literal(scroll.id)}, {sql_literal(scroll.name)})" for scroll in data.warscrolls.values())
    pieces = f"""WITH planned(battleplan, side, piece, warscroll) AS (VALUES {deployed}),
            scrolls(warscroll, name) AS (VALUES {names}),
            ours AS (SELECT id, setup FROM games WHERE {_OURS}),
            deployed AS (
                SELECT g.id AS game, m->>'$.side' AS side, m->>'$.id' AS piece, m->>'$.warscroll' AS warscroll
                FROM ours g, unnest(CAST(g.setup->'$.models' AS JSON[])) AS t(m)
                WHERE json_type(g.setup->'$.models') = 'ARRAY'
                UNION ALL
                SELECT g.id, p.side, p.piece, p.warscroll FROM ours g
                JOIN planned p ON p.battleplan = coalesce(g.setup->>'$.battleplan', 'skyfire')
                WHERE json_type(g.setup->'$.models') IS DISTINCT FROM 'ARRAY')
        SELECT d.game, d.side, d.piece, coalesce(s.name, d.warscroll) AS piece_type
        FROM deployed d LEFT JOIN scrolls s USING (warscroll)"""
    stats = """WITH attacks AS (
            SELECT game, branch, model AS piece, count(*) AS shots, sum(hits) AS hits, sum(inflicted) AS dealt
            FROM mcs_attacks GROUP BY ALL),
        taken AS (
            SELECT game, branch, payload->>'$.model' AS piece, sum(CAST(payload->>'$.wounds' AS INTEGER)) AS damage
            FROM mcs_events WHERE type = 'mcs.WoundsAllocated' GROUP BY ALL),
        slain AS (
            SELECT DISTINCT game, branch, payload->>'$.model' AS piece FROM mcs_events WHERE type = 'mcs.ModelSlain'),
        branches AS (SELECT DISTINCT game, branch FROM mcs_events)
        SELECT b.game, b.branch, p.piece, coalesce(a.shots, 0) AS shots, coalesce(a.hits, 0) AS hits,
               coalesce(a.dealt, 0) AS damage_dealt, coalesce(t.damage, 0) AS damage_taken,
               s.piece IS NOT NULL AS destroyed
        FROM branches b JOIN mcs_pieces p ON p.game = b.game
        LEFT JOIN attacks a ON a.game = b.game AND a.branch = b.branch AND a.piece = p.piece
        LEFT JOIN taken t ON t.game = b.game AND t.branch = b.branch AND t.piece = p.piece
        LEFT JOIN slain s ON s.game = b.game AND s.branch = b.branch AND s.piece = p.piece"""
    return (("mcs_pieces", "the models of each game: side and warscroll", pieces),
            ("mcs_piece_stats", "per model: attacks made, hits, wounds inflicted and taken, slain", stats))


def sql_views(data: GameData | None = None) -> tuple[SqlView, ...]:
    """The views, the piece views written from ``data`` (default: the package's data files)."""
    views = _VIEWS + _piece_views(data or default_data())
    return tuple(SqlView(name=name, sql=sql, description=description) for name, description, sql in views)
