"""Post-match and many-match analysis: statistics, luck, damage, flight traces, hexes used, SQL views.

Per game, everything starts from one fold of the events (:func:`load_timeline`, or
:func:`timeline_from_session` for a live game) and returns pyarrow Tables (pandas is
not needed; ``table.to_pandas()`` works where it is installed) and Plotly figures:

* :func:`aircraft_stats`, :func:`side_stats`: shots, hits, damage dealt and taken, Tailing, Stalls, Spins;
* :func:`luck_table`: expected against actual successes of every targeted roll (p.7), running per player;
* :func:`damage_by_turn`, :func:`flight_traces`, :func:`hex_usage`;
* :mod:`.charts`: the figures of those tables; :func:`report_html` / :func:`write_report`: one HTML page.

Across games, in DuckDB: :func:`create_views` (``dice_rolls``, ``dice_luck``, ``movements``,
``shots``, ``damage``, ``destroyed``, ``game_results``, ``game_aircraft``) and
:mod:`.many_games` (outcomes, win rates and damage by aircraft type).
"""

from .hex_usage import hex_usage, hex_visits
from .luck import actual_successes, expected_successes, luck_summary, luck_table, success_chance
from .many_games import aircraft_type_summary, game_outcomes
from .over_time import damage_by_turn, flight_traces
from .report import GameReport, report_html, write_report
from .shots import ShotRecord, shot_records
from .stats import aircraft_stats, game_result, game_shots, side_stats, victory_points
from .tables import query, table_html
from .timeline import Timeline, fold_timeline, load_timeline, timeline_from_session
from .views import VIEW_NAMES, create_views

__all__ = [
    "VIEW_NAMES", "GameReport", "ShotRecord", "Timeline", "actual_successes", "aircraft_stats",
    "aircraft_type_summary", "create_views", "damage_by_turn", "expected_successes", "flight_traces",
    "fold_timeline", "game_outcomes", "game_result", "game_shots", "hex_usage", "hex_visits", "load_timeline",
    "luck_summary", "luck_table", "query", "report_html", "shot_records", "side_stats", "success_chance",
    "table_html", "timeline_from_session", "victory_points", "write_report",
]
