"""Aeronautica Imperialis' own SQL views, created in every database file beside the generic ones.

Each reads ``event_log`` (every event with its game's ruleset, see :mod:`aero_events.store.views`) and
keeps only the games of this family (``aeronautica`` and its variants), so it never misreads another
ruleset's payloads. Payload fields left at their default are not stored, so they read as NULL.

The views ``aeronautica_pieces`` and ``aeronautica_piece_stats`` follow the store's convention for
piece-level analysis across rulesets (``{family}_pieces``: game, side, piece, piece_type;
``{family}_piece_stats``: game, branch, piece, shots, hits, damage_dealt, damage_taken, destroyed).
"""

from __future__ import annotations

from aero_events.core.interface import SqlView

FAMILY = "aeronautica"
_OURS = f"(ruleset = '{FAMILY}' OR ruleset LIKE '{FAMILY}/%')"
_D3_VALUE = "(CASE WHEN d3 THEN (f + 1) // 2 ELSE f END)"
_SUCCEEDS = f"{_D3_VALUE} != 1 AND greatest(1, {_D3_VALUE} + modifier) >= target"

_VIEWS: tuple[tuple[str, str, str], ...] = (
    ("aeronautica_events", "the events of Aeronautica games (what the other aeronautica_ views read)",
     f"SELECT * FROM event_log WHERE {_OURS}"),
    ("aeronautica_dice_luck",
     "targeted rolls that counted (re-rolls replace), expected and actual successes (p.7: a natural 1 fails)",
     f"""SELECT r.*,
               r.dice * len(list_filter(range(1, r.sides + 1), lambda f: {_SUCCEEDS})) / r.sides AS expected,
               len(list_filter(r.faces, lambda f: {_SUCCEEDS})) AS actual
        FROM dice_rolls r
        WHERE {_OURS.replace('ruleset', 'r.ruleset')} AND r.target IS NOT NULL AND r.dice > 0
          AND NOT EXISTS (SELECT 1 FROM dice_rolls later
                          WHERE later.game = r.game AND later.replaces = r.roll_index)"""),
    ("aeronautica_movements", "every Ace Manoeuvre flown: where to, facing, hexes flown, completed or not",
     """SELECT game, branch, seq, turn, actor AS player,
               payload->>'$.aircraft' AS aircraft,
               CAST(payload->>'$.manoeuvre' AS INTEGER) AS manoeuvre,
               payload->>'$.side' AS manoeuvre_side,
               CAST(payload->'$.hex[0]' AS INTEGER) AS q,
               CAST(payload->'$.hex[1]' AS INTEGER) AS r,
               CAST(payload->>'$.facing' AS INTEGER) AS facing,
               CAST(coalesce(json_array_length(payload->'$.path'), 0)
                    + coalesce(json_array_length(payload->'$.pushed'), 0) AS INTEGER) AS hexes_flown,
               coalesce(CAST(payload->>'$.completed' AS BOOLEAN), true) AS completed
        FROM aeronautica_events WHERE type = 'ai.ManoeuvreFlown'"""),
    ("aeronautica_fired_weapons", "every weapon fired at a target (WeaponFired), before its hits",
     """SELECT game, branch, seq, turn, phase, actor AS player,
               payload->>'$.aircraft' AS aircraft,
               CAST(payload->>'$.weapon_index' AS INTEGER) AS weapon_index,
               payload->>'$.weapon' AS weapon,
               payload->>'$.target' AS target,
               payload->>'$.attack' AS attack,
               payload->>'$.band' AS band,
               CAST(payload->>'$.dice' AS INTEGER) AS dice
        FROM aeronautica_events WHERE type = 'ai.WeaponFired' AND payload->>'$.target' IS NOT NULL"""),
    ("aeronautica_scored_hits", "hits each weapon scored (HitsScored)",
     """SELECT game, branch, seq, payload->>'$.aircraft' AS aircraft,
               CAST(payload->>'$.weapon_index' AS INTEGER) AS weapon_index,
               CAST(payload->>'$.hits' AS INTEGER) AS hits
        FROM aeronautica_events WHERE type = 'ai.HitsScored'"""),
    ("aeronautica_rolled_damage", "damaging hits each weapon's Damage dice scored (DamageRolled)",
     """SELECT game, branch, seq, payload->>'$.aircraft' AS aircraft,
               CAST(payload->>'$.weapon_index' AS INTEGER) AS weapon_index,
               CAST(payload->>'$.damaging' AS INTEGER) AS damaging,
               CAST(payload->>'$.structure' AS INTEGER) AS structure
        FROM aeronautica_events WHERE type = 'ai.DamageRolled' AND coalesce(payload->>'$.kind', 'shot') = 'shot'"""),
    ("aeronautica_shots", "every weapon fired at a target with its hits and damaging hits (p.20-28)",
     """SELECT f.*, coalesce(h.hits, 0) AS hits,
               CASE WHEN coalesce(h.hits, 0) > 0 THEN coalesce(d.damaging, 0) ELSE 0 END AS damaging,
               CASE WHEN coalesce(h.hits, 0) > 0 THEN coalesce(d.structure, 0) ELSE 0 END AS structure
        FROM aeronautica_fired_weapons f
        ASOF LEFT JOIN aeronautica_scored_hits h
               ON h.game = f.game AND h.branch = f.branch AND h.aircraft = f.aircraft
              AND h.weapon_index = f.weapon_index AND h.seq > f.seq
        ASOF LEFT JOIN aeronautica_rolled_damage d
               ON d.game = f.game AND d.branch = f.branch AND d.aircraft = f.aircraft
              AND d.weapon_index = f.weapon_index AND d.seq > f.seq"""),
    ("aeronautica_damage", "every DamageSuffered, whatever its cause: hits and Structure left",
     """SELECT game, branch, seq, turn, phase,
               payload->>'$.aircraft' AS aircraft,
               CAST(payload->>'$.hits' AS INTEGER) AS hits,
               CAST(payload->>'$.structure' AS INTEGER) AS structure_left,
               payload->>'$.cause' AS cause
        FROM aeronautica_events WHERE type = 'ai.DamageSuffered'"""),
    ("aeronautica_destroyed", "every aircraft destroyed, and why",
     """SELECT game, branch, seq, turn, phase, payload->>'$.aircraft' AS aircraft, payload->>'$.cause' AS cause
        FROM aeronautica_events WHERE type = 'ai.AircraftDestroyed'"""),
    ("aeronautica_results", "each branch's GameEnded: winner and reason (p.31)",
     """SELECT game, branch, seq, turn, payload->>'$.winner' AS winner, payload->>'$.reason' AS reason
        FROM aeronautica_events WHERE type = 'ai.GameEnded'"""),
    ("aeronautica_pieces", "every aircraft of every Aeronautica game's setup: side, id, aircraft type",
     f"""WITH sides AS (
            SELECT g.id AS game, unnest(CAST(g.setup->'$.sides' AS JSON[])) AS side FROM games g
            WHERE {_OURS.replace('ruleset', 'g.ruleset')}
        ), entries AS (
            SELECT game, side->>'$.player' AS player,
                   unnest(CAST(side->'$.force.aircraft' AS JSON[])) AS entry,
                   unnest(range(1, coalesce(json_array_length(side->'$.force.aircraft'), 0)::BIGINT + 1))
                       AS position
            FROM sides
        )
        SELECT game, player AS side, coalesce(entry->>'$.name', player || '-' || position::VARCHAR) AS piece,
               entry->>'$.aircraft' AS piece_type, position
        FROM entries"""),
    ("aeronautica_piece_stats",
     "per game, branch and aircraft: shots, hits, Structure its fire took, Structure lost, destroyed",
     """WITH fired AS (
            SELECT game, branch, aircraft AS piece, count(*) AS shots, sum(hits) AS hits,
                   sum(structure) AS damage_dealt
            FROM aeronautica_shots GROUP BY ALL
        ), taken AS (
            SELECT game, branch, aircraft AS piece, sum(hits) AS damage_taken FROM aeronautica_damage GROUP BY ALL
        ), lost AS (
            SELECT DISTINCT game, branch, aircraft AS piece FROM aeronautica_destroyed
        ), played AS (
            SELECT b.game, b.id AS branch, p.piece FROM branches b JOIN aeronautica_pieces p ON p.game = b.game
        )
        SELECT p.game, p.branch, p.piece, coalesce(f.shots, 0)::BIGINT AS shots,
               coalesce(f.hits, 0)::BIGINT AS hits, coalesce(f.damage_dealt, 0)::BIGINT AS damage_dealt,
               coalesce(t.damage_taken, 0)::BIGINT AS damage_taken, l.piece IS NOT NULL AS destroyed
        FROM played p
        LEFT JOIN fired f USING (game, branch, piece)
        LEFT JOIN taken t USING (game, branch, piece)
        LEFT JOIN lost l USING (game, branch, piece)"""),
)


def sql_views() -> tuple[SqlView, ...]:
    """Aeronautica's views, in the order they must be created."""
    return tuple(SqlView(name=name, sql=sql, description=description) for name, description, sql in _VIEWS)
