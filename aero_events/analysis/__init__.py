"""Post-match and many-match analysis of games of any ruleset: scenes over time, sides, dice, SQL views.

Per game, everything starts from one fold of the events (:func:`load_timeline`, or
:func:`timeline_from_session` for a live game) and the replay's steps (:func:`game_steps`, each with the
ruleset's scene), and returns pyarrow Tables (``table.to_pandas()`` works where pandas is installed) and
Plotly figures:

* :func:`side_summary`: pieces fielded, in play, destroyed, disengaged, score and result, dice, per side;
* :func:`level_traces`: every piece's level (altitude, height band) through the game;
* :func:`cell_usage`: on a hex table, the cells each side entered, and how often;
* :mod:`.charts`: the figures of those tables; :func:`report_html` / :func:`write_report`: one HTML page,
  with the ruleset's own sections after the generic ones (``Ruleset.report_sections``).

Luck (:mod:`.luck`) reads the core ``DiceRolled`` events that carry a target number (DESIGN.md contract 3).
What a ruleset's own events say (Aeronautica's shots, damage and Tailing) lives with the ruleset
(the Aeronautica ruleset's ``statistics`` package) and reaches the report through its ``report_sections``.

Across games, in DuckDB: the views the store keeps in its file (:mod:`aero_events.store.views`;
:func:`create_views` makes them on another connection, e.g. over a Parquet export) and
:mod:`.many_games` (outcomes, win rates and damage by piece type).
"""

from typing import TYPE_CHECKING

from aero_events import exports_of, lazy_exports

#: Each name this package re-exports, by its module: imported when first asked for (aero_events.lazy_exports).
_EXPORTS = exports_of({
    ".luck": ("actual_successes", "expected_successes", "luck_summary", "luck_table", "success_chance"),
    ".many_games": ("game_outcomes", "piece_type_summary"),
    ".report": ("GameReport", "report_html", "write_report"),
    ".scenes": ("cell_usage", "game_steps", "level_traces", "side_summary"),
    ".tables": ("heading", "query", "table_html"),
    ".timeline": ("Timeline", "fold_timeline", "load_timeline", "timeline_from_session"),
    ".views": ("create_views", "view_names"),
})
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:
    from .luck import actual_successes, expected_successes, luck_summary, luck_table, success_chance
    from .many_games import game_outcomes, piece_type_summary
    from .report import GameReport, report_html, write_report
    from .scenes import cell_usage, game_steps, level_traces, side_summary
    from .tables import heading, query, table_html
    from .timeline import Timeline, fold_timeline, load_timeline, timeline_from_session
    from .views import create_views, view_names

__all__ = [
    "GameReport", "Timeline", "actual_successes", "cell_usage", "create_views", "expected_successes",
    "fold_timeline", "game_outcomes", "game_steps", "heading", "level_traces", "load_timeline", "luck_summary",
    "luck_table", "piece_type_summary", "query", "report_html", "side_summary", "success_chance", "table_html",
    "timeline_from_session", "view_names", "write_report",
]
