"""Two branches of one game side by side, from the point where they part ("what if I had turned left?").

Both branches share their events up to the fork point (the last seq at which their
events are the same); from there each is replayed on its own board, the left one for
branch A and the right one for branch B, in lockstep: frame k shows step k of each
(the shorter branch holds its last step). Each board has its text panel underneath.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import plotly.graph_objects as go

from aero_events.analysis.timeline import Timeline, load_timeline

from . import style
from .board import LEGEND, BoardView, board_axes, dynamic_traces, static_traces
from .replay import MARGIN, animation_controls, board_width_px, panel_annotation, panel_text
from .steps import ReplayStep, replay_steps

BOARD_HEIGHT = 520
PANEL_LINES = 12


def fork_point(a: Timeline, b: Timeline) -> int:
    """The last seq at which the two timelines hold the same events (0 if they differ from the first)."""
    common = 0
    for env_a, env_b in zip(a.envelopes, b.envelopes, strict=False):
        if env_a.seq != env_b.seq or env_a.event != env_b.event:
            break
        common = env_a.seq
    return common


def _at(steps: list[ReplayStep], index: int) -> ReplayStep:
    return steps[min(index, len(steps) - 1)]


def compare_figure(a: Timeline, b: Timeline, **options: Any) -> go.Figure:
    """Branches ``a`` (left) and ``b`` (right) replayed side by side from their fork point, as a
    ``go.Figure`` (options as :func:`compare_spec`)."""
    return go.Figure(compare_spec(a, b, **options))


def compare_spec(a: Timeline, b: Timeline, *, title: str | None = None, fork_seq: int | None = None,
                 viewer: str | None = None) -> dict[str, Any]:
    """The comparison as a plain figure dict; ``fork_seq`` defaults to :func:`fork_point`; ``viewer``: the
    player both boards are drawn for (None: a spectator)."""
    fork = fork_point(a, b) if fork_seq is None else fork_seq
    steps_a, steps_b = replay_steps(a, fork, viewer=viewer), replay_steps(b, fork, viewer=viewer)
    scenes = [step.scene for step in (*steps_a, *steps_b)]
    left = BoardView.of(scenes, height_px=BOARD_HEIGHT)
    right = replace(left, xaxis="x2", yaxis="y2", legend=False)
    static = static_traces(left, steps_a[0].scene) + static_traces(right, steps_b[0].scene)
    count = max(len(steps_a), len(steps_b))
    board_px = board_width_px(steps_a[0].scene, BOARD_HEIGHT)
    gap = 40
    plot_px = 2 * board_px + gap
    split = board_px / plot_px
    frames, indices = [], None
    for index in range(count):
        step_a, step_b = _at(steps_a, index), _at(steps_b, index)
        data = dynamic_traces(left, step_a.scene) + dynamic_traces(right, step_b.scene)
        if indices is None:
            indices = list(range(len(static), len(static) + len(data)))
        frames.append({"name": f"{index}: {step_a.label} | {step_b.label}", "data": data, "traces": indices,
                       "layout": {"annotations": _panels(a, b, step_a, step_b, index, 1.0 - split)}})
    layout: dict[str, Any] = {
        "plot_bgcolor": style.BOARD_BACKGROUND, "paper_bgcolor": "white", "showlegend": True, "legend": LEGEND,
        "hovermode": "closest", "autosize": False, "width": plot_px + MARGIN["l"] + MARGIN["r"],
        "height": BOARD_HEIGHT + MARGIN["t"] + 300 + 130, "margin": {**MARGIN, "b": 300 + 130},
        "title": {"text": title or _title(a, b, left, fork), "x": 0.01, "xanchor": "left", "y": 0.99,
                  "yanchor": "top"},
        **board_axes(left, steps_a[0].scene, (0.0, split)), **board_axes(right, steps_b[0].scene, (1.0 - split, 1.0)),
    }
    layout.update(animation_controls([f["name"] for f in frames], [f"step {i}" for i in range(count)],
                                     prefix="step "))
    slider = layout["sliders"][0]
    slider.update(y=-0.55, currentvalue={**slider["currentvalue"], "visible": False})
    layout["updatemenus"][0]["y"] = -0.55
    layout["annotations"] = frames[0]["layout"]["annotations"]
    layout["meta"] = {"shown_frame": frames[0]["name"]}
    return {"data": static + frames[0]["data"], "layout": layout, "frames": frames}


def _panels(a: Timeline, b: Timeline, step_a: ReplayStep, step_b: ReplayStep, index: int,
            right_board: float) -> list[dict]:
    """A text panel under each board, from the board's left edge (``right_board``: where the right board
    starts, in paper coordinates), so that each reads under its own board: which branch, and its step in
    words."""
    panels = []
    for x, timeline, step in ((0.0, a, step_a), (right_board, b, step_b)):
        held = " (finished)" if step.index < index else ""
        text = f"<b>branch {timeline.branch}</b>{held}<br>" + panel_text(step, PANEL_LINES)
        panels.append(panel_annotation(text, x=x, y=-0.02, xanchor="left", width=None))
    return panels


def _title(a: Timeline, b: Timeline, view: BoardView, fork: int) -> str:
    return (f"{a.game_id}: branch <b>{a.branch}</b> (left) and <b>{b.branch}</b> (right) from event #{fork} — "
            + style.players_title(view.layers.sides, view.colours))


def recorded_fork(tree: Mapping[str, Any], branch_a: str, branch_b: str) -> int | None:
    """The last seq two stored branches share by descent (their branch tree), None if they share no branch.

    ``tree`` is ``EventStore.branch_tree(game)``: each branch names its parent and fork
    point. Unlike :func:`fork_point` this is where the branch was forked, even if the
    first events after it happen to be the same in both.
    """
    def shares(branch: str) -> dict[str, float]:
        upto: dict[str, float] = {branch: float("inf")}
        limit = float("inf")
        while tree[branch].parent is not None:
            limit = min(limit, tree[branch].fork_seq)
            branch = tree[branch].parent
            upto[branch] = limit
        return upto

    a, b = shares(branch_a), shares(branch_b)
    common = [min(a[name], b[name]) for name in a.keys() & b.keys()]
    if not common:
        return None
    shared = max(common)
    return None if shared == float("inf") else int(shared)


def compare_from_store(store: Any, game_id: str, branch_a: str, branch_b: str, **options: Any) -> go.Figure:
    """Read two stored branches of a game, fold each once, and compare them side by side (a ``go.Figure``),
    from the point where one was forked from the other (or both from a common ancestor)."""
    return go.Figure(compare_spec_from_store(store, game_id, branch_a, branch_b, **options))


def compare_spec_from_store(store: Any, game_id: str, branch_a: str, branch_b: str, **options: Any
                            ) -> dict[str, Any]:
    """As :func:`compare_from_store`, as a plain figure dict (for writing HTML quickly)."""
    game_id = store.resolve_game_id(game_id)
    a, b = load_timeline(store, game_id, branch_a), load_timeline(store, game_id, branch_b)
    options.setdefault("fork_seq", recorded_fork(store.branch_tree(game_id), branch_a, branch_b))
    return compare_spec(a, b, **options)
