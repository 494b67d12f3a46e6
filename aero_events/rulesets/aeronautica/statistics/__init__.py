"""What Aeronautica's firing and damage events say about a game: who fired at whom and what came of it
(:mod:`.shots`, Firing p.20-28), per aircraft and per side (:mod:`.stats`: shots, hits, damage, Tailing p.30,
Stalls p.17-18, Spins p.29) and turn by turn (:mod:`.over_time`).

They read Aeronautica's own events, so they live with the ruleset; the post-match report reaches them
through ``report_sections`` (:mod:`..scene`) and the replay through the scene's lines of fire. The generic
analysis (scenes over time, sides, luck, SQL views) is :mod:`aero_events.analysis`.
"""

from .over_time import damage_by_turn
from .shots import ShotRecord, shot_records, unit_hex
from .stats import aircraft_stats, game_result, game_shots, side_stats, victory_points

__all__ = ["ShotRecord", "aircraft_stats", "damage_by_turn", "game_result", "game_shots", "shot_records",
           "side_stats", "unit_hex", "victory_points"]
