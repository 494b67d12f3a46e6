"""Seeing games of any ruleset: the board figure, the animated replay, branch comparison (Plotly).

Everything is drawn from :class:`~aero_events.core.scene.Scene` s, which each ruleset makes from its
states (``Ruleset.scene``); nothing here knows which game it shows.

* :func:`board_figure` draws one scene: the table (hexes labelled with their coordinates), pieces as
  arrows with their name, type and numbers, tags, markers, templates, paths flown, links and lines of
  fire, with a legend for every symbol.
* :func:`replay_figure` / :func:`replay_from_store` animate a game step by step (grouped as the
  ruleset says: ``Ruleset.step_grouping``), with a slider, Play and Pause and a text panel;
  :func:`write_html` writes it as an offline HTML page that opens, and plays on, from the frame shown.
* :func:`compare_figure` / :func:`compare_from_store` show two branches of a game side by side from
  their fork point.
"""

from typing import TYPE_CHECKING

from aero_events import exports_of, lazy_exports

#: Each name this package re-exports, by its module: imported when first asked for (aero_events.lazy_exports).
_EXPORTS = exports_of({
    ".board": ("BoardView", "Layers", "board_figure", "dynamic_traces", "place_labels", "static_traces"),
    ".compare": (
        "compare_figure", "compare_from_store", "compare_spec", "compare_spec_from_store", "fork_point",
        "recorded_fork",
    ),
    ".replay": ("replay_figure", "replay_from_store", "replay_spec", "write_html"),
    ".steps": ("ReplayStep", "replay_steps"),
})
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:
    from .board import BoardView, Layers, board_figure, dynamic_traces, place_labels, static_traces
    from .compare import (
        compare_figure,
        compare_from_store,
        compare_spec,
        compare_spec_from_store,
        fork_point,
        recorded_fork,
    )
    from .replay import replay_figure, replay_from_store, replay_spec, write_html
    from .steps import ReplayStep, replay_steps

__all__ = [
    "BoardView", "Layers", "ReplayStep", "board_figure", "compare_figure", "compare_from_store", "compare_spec",
    "compare_spec_from_store", "dynamic_traces", "fork_point", "place_labels", "recorded_fork", "replay_figure",
    "replay_from_store", "replay_spec", "replay_steps", "static_traces", "write_html",
]
