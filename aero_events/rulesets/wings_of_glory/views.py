"""Wings of Glory's own DuckDB views (``Ruleset.sql_views``), on public facts only (no token faces).

``wings_of_glory_pieces`` (game, side, piece, piece_type) and ``wings_of_glory_piece_stats`` (game, branch,
piece, shots, hits, damage_dealt, damage_taken, destroyed) follow the store's convention for piece-level
analysis; ``damage_taken`` counts tokens (their points are secret), ``damage_dealt`` is unknown (NULL).
"""

from __future__ import annotations

from aero_events.core.interface import SqlView

FAMILY = "wings-of-glory"
_OURS = f"(ruleset = '{FAMILY}' OR ruleset LIKE '{FAMILY}/%')"

_VIEWS: tuple[tuple[str, str, str], ...] = (
    ("wings_of_glory_events", "the events of Wings of Glory games", f"SELECT * FROM event_log WHERE {_OURS}"),
    ("wings_of_glory_shots", "every shot: firer, gun, target, range band, tokens owed, Improved Aim, tailing",
     """SELECT game, branch, seq, turn, phase, payload->>'$.plane' AS plane,
               CAST(payload->>'$.gun' AS INTEGER) AS gun, payload->>'$.target' AS target,
               payload->>'$.band' AS band, payload->>'$.letters' AS letters,
               length(payload->>'$.letters') AS tokens, coalesce(payload->>'$.improved_aim', '') AS improved_aim,
               coalesce(CAST(payload->>'$.tailing' AS BOOLEAN), false) AS tailing
        FROM wings_of_glory_events WHERE type = 'wog.Fired'"""),
    ("wings_of_glory_tokens", "every batch of damage tokens taken: plane, how many, letters, cause (faces secret)",
     """SELECT game, branch, seq, turn, phase, payload->>'$.plane' AS plane,
               CAST(payload->>'$.count' AS INTEGER) AS tokens, payload->>'$.letters' AS letters,
               payload->>'$.mode' AS mode, payload->>'$.cause' AS cause
        FROM wings_of_glory_events WHERE type = 'wog.TokensTaken'"""),
    ("wings_of_glory_losses", "every plane out of play: shot down, crashed, off the table, returned",
     """SELECT game, branch, seq, turn, payload->>'$.plane' AS plane, payload->>'$.status' AS status,
               payload->>'$.reason' AS reason
        FROM wings_of_glory_events WHERE type = 'wog.PlaneOut'"""),
    ("wings_of_glory_pieces", "the planes of each game: side and profile",
     f"""SELECT g.id AS game, p->>'$.owner' AS side, p->>'$.id' AS piece, p->>'$.profile' AS piece_type
        FROM games g, unnest(CAST(g.setup->'$.planes' AS JSON[])) AS t(p) WHERE {_OURS}"""),
    ("wings_of_glory_piece_stats", "per plane: shots fired, tokens inflicted and taken, destroyed",
     """WITH shots AS (
            SELECT game, branch, plane AS piece, count(*) AS shots, sum(tokens) AS hits
            FROM wings_of_glory_shots GROUP BY ALL),
        taken AS (
            SELECT game, branch, plane AS piece, sum(tokens) AS damage FROM wings_of_glory_tokens GROUP BY ALL),
        lost AS (
            SELECT DISTINCT game, branch, plane AS piece FROM wings_of_glory_losses
            WHERE status IN ('shot_down', 'crashed')),
        branches AS (SELECT DISTINCT game, branch FROM wings_of_glory_events)
        SELECT b.game, b.branch, p.piece, coalesce(s.shots, 0) AS shots, coalesce(s.hits, 0) AS hits,
               NULL::INTEGER AS damage_dealt, coalesce(t.damage, 0) AS damage_taken,
               l.piece IS NOT NULL AS destroyed
        FROM branches b JOIN wings_of_glory_pieces p ON p.game = b.game
        LEFT JOIN shots s ON s.game = b.game AND s.branch = b.branch AND s.piece = p.piece
        LEFT JOIN taken t ON t.game = b.game AND t.branch = b.branch AND t.piece = p.piece
        LEFT JOIN lost l ON l.game = b.game AND l.branch = b.branch AND l.piece = p.piece"""),
)


def sql_views() -> tuple[SqlView, ...]:
    return tuple(SqlView(name=name, sql=sql, description=description) for name, description, sql in _VIEWS)
