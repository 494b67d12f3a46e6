"""Seeing games: the board figure, the animated replay, branch comparison (Plotly).

* :func:`board_figure` draws one state: the hexes (one trace), aircraft as arrows with
  Altitude and Speed, tokens, paths, Tailing, shots, and optionally an aircraft's Fire
  Arcs and range bands.
* :func:`replay_figure` / :func:`replay_from_store` animate a game step by step (one
  frame per aircraft's move, aircraft's firing, End phase...), with a slider, Play and
  Pause and a text panel; :func:`write_html` writes it as an offline HTML page.
* :func:`compare_figure` / :func:`compare_from_store` show two branches of a game side by
  side from their fork point.
"""

from .board import BoardScene, board_figure, dynamic_traces, static_traces
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
    "BoardScene", "ReplayStep", "board_figure", "compare_figure", "compare_from_store", "compare_spec",
    "compare_spec_from_store", "dynamic_traces", "fork_point", "recorded_fork", "replay_figure",
    "replay_from_store", "replay_spec", "replay_steps", "static_traces", "write_html",
]
