"""What Aeronautica's firing and damage events say about a game: who fired at whom and what came of it
(:mod:`.shots`, Firing p.20-28), per aircraft and per side (:mod:`.stats`: shots, hits, damage, Tailing p.30,
Stalls p.17-18, Spins p.29) and turn by turn (:mod:`.over_time`).

They read Aeronautica's own events, so they live with the ruleset; the post-match report reaches them
through ``report_sections`` (:mod:`..scene`) and the replay through the scene's lines of fire. The generic
analysis (scenes over time, sides, luck, SQL views) is :mod:`aero_events.analysis`.

The names are imported when first asked for (:func:`aero_events.lazy_exports`): the scene's lines of fire
(:mod:`.shots`, asked for by every simulated game's result) need none of the tables' pyarrow and DuckDB.
"""

from typing import TYPE_CHECKING

from aero_events import exports_of, lazy_exports

_EXPORTS = exports_of({
    ".over_time": ("damage_by_turn",),
    ".shots": ("ShotRecord", "shot_records", "unit_hex"),
    ".stats": ("aircraft_stats", "game_result", "game_shots", "side_stats", "victory_points"),
})
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:
    from .over_time import damage_by_turn
    from .shots import ShotRecord, shot_records, unit_hex
    from .stats import aircraft_stats, game_result, game_shots, side_stats, victory_points

__all__ = ["ShotRecord", "aircraft_stats", "damage_by_turn", "game_result", "game_shots", "shot_records",
           "side_stats", "unit_hex", "victory_points"]
