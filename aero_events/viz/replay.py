"""The replay: an animated board with one frame per step, a slider, Play/Pause, and words.

The figure's first traces are static (the table's edge, its hexes as one trace, their
labels) and are never repeated in frames; each frame carries only the dynamic traces
of :func:`~.board.dynamic_traces` (pieces, tags, paths, links, lines of fire, ...) with
``traces=[...]`` naming the indices they replace, and its text panel (a layout
annotation telling the step in words). The steps come from one fold of the events
(:mod:`.steps`), never a fold per frame.

``replay_figure(timeline)`` returns a ``go.Figure`` (it displays in JupyterLab);
:func:`write_html` writes a standalone page with plotly.js embedded, so it works
offline, and opens on the frame it shows: Play goes on from there (:data:`START_FROM_SHOWN`).
"""

from __future__ import annotations

import html
import os
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import plotly.graph_objects as go
import plotly.io as pio

from aero_events.analysis.timeline import Timeline, load_timeline
from aero_events.core.scene import Scene

from . import style
from .board import BoardView, board_axes, board_layout, dynamic_traces, static_traces
from .geometry import extent
from .odds_strip import (
    STRIP_GAP_PX,
    STRIP_PX,
    STRIP_TICKS_PX,
    cursor_trace,
    odds_line,
    strip_axes,
    strip_traces,
)
from .steps import ReplayStep, replay_steps

#: How long Play shows each frame, in milliseconds.
FRAME_MS = 900
#: Lines of narration shown in the text panel before "... N more".
PANEL_LINES = 24
#: Width in pixels of the text panel, and the characters of its font that fit on one line.
PANEL_WIDTH = 380
PANEL_CHARS = 56
#: Height in pixels of the board's drawing area; the figure's width follows from the board's shape.
BOARD_HEIGHT = 640
MAX_BOARD_WIDTH = 1100
MARGIN = {"l": 10, "r": 10, "t": 90, "b": 130}
#: The axes of the win-probability strip under the board.
STRIP_X, STRIP_Y = "x2", "y2"
#: With more steps than this, the slider's own tick labels would overlap: they are drawn
#: transparent and the current step's label is shown above the slider instead.
MAX_VISIBLE_TICK_LABELS = 8


def panel_text(step: ReplayStep, max_lines: int = PANEL_LINES) -> str:
    """The step in words, as annotation HTML: its label and title, then a line per event told."""
    title = "<br>".join(_escape(part) for part in textwrap.wrap(step.title, PANEL_CHARS) or [""])
    head = f"<b>{_escape(step.label)}</b><br><b>{title}</b>"
    lines = list(step.lines)
    shown = lines[:max_lines]
    body = []
    for line in shown:
        wrapped = textwrap.wrap(line.text, PANEL_CHARS, subsequent_indent="  ") or [""]
        text = "<br>".join(_escape(part) for part in wrapped)
        body.append(f"<span style='color:#777'>{text}</span>" if line.minor else text)
    if len(lines) > max_lines:
        body.append(f"<i>… and {len(lines) - max_lines} more</i>")
    return head + ("<br>" + "<br>".join(body) if body else "")


def _escape(text: str) -> str:
    """Text safe in a Plotly annotation: <, > and & escaped; quotes left alone (Plotly would show &quot;)."""
    return html.escape(text, quote=False)


def panel_annotation(text: str, *, x: float = 1.0, y: float = 1.0, xanchor: str = "right",
                     yanchor: str = "top", width: int | None = PANEL_WIDTH) -> dict[str, Any]:
    """A bordered, left-aligned text box in paper coordinates."""
    annotation = {"text": text, "xref": "paper", "yref": "paper", "x": x, "y": y, "xanchor": xanchor,
                  "yanchor": yanchor, "align": "left", "showarrow": False, "bgcolor": "rgba(255,255,255,0.95)",
                  "bordercolor": "#999", "borderwidth": 1, "borderpad": 6,
                  "font": {"size": 11, "family": style.FONT_FAMILY}}
    if width is not None:
        annotation["width"] = width
    return annotation


def animation_controls(names: Sequence[str], labels: Sequence[str], *, frame_ms: int = FRAME_MS,
                       prefix: str = "", active: int = 0) -> dict[str, Any]:
    """The slider (one step per frame, labelled; ``active`` shown first) and the Play/Pause buttons."""
    crowded = len(labels) > MAX_VISIBLE_TICK_LABELS
    steps = [{"method": "animate", "label": label,
              "args": [[name], {"mode": "immediate", "frame": {"duration": 0, "redraw": True},
                                "transition": {"duration": 0}}]}
             for name, label in zip(names, labels, strict=True)]
    slider = {"active": active, "steps": steps, "x": 0.17, "len": 0.83, "y": 0, "yanchor": "top",
              "pad": {"t": 40}, "currentvalue": {"visible": True, "prefix": prefix, "xanchor": "left",
                                                 "font": {"size": 14, "family": style.FONT_FAMILY, "color": "#222"}},
              "font": {"size": 9, "color": "rgba(0,0,0,0)" if crowded else "#444"},
              "transition": {"duration": 0}}
    play = {"label": "▶ Play", "method": "animate",
            "args": [None, {"frame": {"duration": frame_ms, "redraw": True}, "fromcurrent": True,
                            "transition": {"duration": 0}, "mode": "immediate"}]}
    pause = {"label": "❚❚ Pause", "method": "animate",
             "args": [[None], {"frame": {"duration": 0, "redraw": False}, "mode": "immediate",
                               "transition": {"duration": 0}}]}
    buttons = {"type": "buttons", "direction": "left", "showactive": False, "x": 0.0, "y": 0, "xanchor": "left",
               "yanchor": "top", "pad": {"t": 40, "r": 8}, "buttons": [play, pause]}
    return {"sliders": [slider], "updatemenus": [buttons]}


def replay_spec(timeline: Timeline, *, start_seq: int = 0, focus: str | None = None, title: str | None = None,
                frame_ms: int = FRAME_MS, steps: list[ReplayStep] | None = None, show_step: int | None = None,
                viewer: str | None = None, strip: Sequence[Any] | None = None) -> dict[str, Any]:
    """The replay as a plain figure dict (``data``, ``layout``, ``frames``), not yet validated by Plotly.

    Writing HTML from the dict skips building Plotly's object tree, which costs more
    than everything else together; :func:`replay_figure` wraps it in a ``go.Figure``.
    ``strip``: the points of a win-probability strip (:func:`aero_events.odds.strip_of_timeline`), drawn
    under the board with a cursor at the frame shown, and the chances told in each frame's panel.
    """
    steps = replay_steps(timeline, start_seq, viewer=viewer, focus=focus) if steps is None else steps
    scenes = [step.scene for step in steps]
    view = BoardView.of(scenes, height_px=_board_height(scenes[0]))
    static = static_traces(view, scenes[0])
    if strip:
        static += strip_traces(strip, view.colours, xaxis=STRIP_X, yaxis=STRIP_Y,
                               score_name=timeline.ruleset.score_name())
    dynamic_indices = None
    frames = []
    for step in steps:
        data = dynamic_traces(view, step.scene)
        text = panel_text(step)
        if strip:
            data.append(cursor_trace(step.last_seq, xaxis=STRIP_X, yaxis=STRIP_Y))
            chances = odds_line(strip, step.last_seq)
            text += f"<br><i>{_escape(chances)}</i>" if chances else ""
        if dynamic_indices is None:
            dynamic_indices = list(range(len(static), len(static) + len(data)))
        frames.append({"name": step.name, "data": data, "traces": dynamic_indices,
                       "layout": {"annotations": [panel_annotation(text)]}})
    if show_step is None:
        # Open where the game is under way: the set-up's empty board is less use than the deployed forces.
        show_step = next((s.index for s in steps if s.index > 0 and s.phase != "set_up"), 0)
    shown = range(len(frames))[show_step]
    heading = title if title is not None else _title(timeline, scenes[0], view)
    layout = board_layout(view, scenes[0], heading)
    layout.update(animation_controls([s.name for s in steps], [s.label for s in steps], frame_ms=frame_ms,
                                     active=shown))
    layout.update(sized_for_panel(view, scenes[0], strip=bool(strip)))
    if strip:
        plot_width = layout["width"] - MARGIN["l"] - MARGIN["r"]
        layout.update(strip_axes(strip, timeline.head_seq, xaxis=STRIP_X, yaxis=STRIP_Y,
                                 x_domain=(STRIP_TICKS_PX / plot_width, 1 - 12 / plot_width),
                                 y_domain=(0.0, STRIP_PX / (layout["height"] - MARGIN["t"] - MARGIN["b"]))))
    layout["annotations"] = frames[shown]["layout"]["annotations"]
    layout["meta"] = {"shown_frame": frames[shown]["name"]}
    return {"data": static + frames[shown]["data"], "layout": layout, "frames": frames}


#: Run after the figure is drawn (``post_script`` of Plotly's HTML writers): make the frame the page opens
#: on Plotly's *current* frame, so that Play goes on from there rather than from the first frame.
START_FROM_SHOWN = """(function () {
  var gd = document.getElementById('{plot_id}');
  var shown = gd && gd.layout && gd.layout.meta && gd.layout.meta.shown_frame;
  if (shown) { Plotly.animate(gd, [shown], {frame: {duration: 0, redraw: true}, transition: {duration: 0},
                                            mode: 'immediate'}); }
})();"""


def replay_figure(timeline: Timeline, **options: Any) -> go.Figure:
    """The animated replay of ``timeline``, as a ``go.Figure`` (it displays in JupyterLab).

    Options, as :func:`replay_spec`: ``start_seq`` (replay from the state after that
    event), ``focus`` (a piece whose arcs the ruleset shades in every frame), ``title``,
    ``frame_ms`` (Play's pace), ``steps`` (already computed), ``show_step`` (the frame shown
    first; negative counts from the end; default: the first step after the set-up), ``viewer``.
    Frames: one per step (see :func:`~.steps.replay_steps`), labelled ``T{turn} {phase} #{seq}``.
    """
    return go.Figure(replay_spec(timeline, **options))


def _board_height(scene: Scene) -> int:
    """How tall the board is drawn: BOARD_HEIGHT, less for a long table (8'x4') to keep a sensible width."""
    (x_min, x_max), (y_min, y_max) = extent(scene.table)
    board_px = BOARD_HEIGHT * (x_max - x_min) / (y_max - y_min)
    return BOARD_HEIGHT if board_px <= MAX_BOARD_WIDTH else round(BOARD_HEIGHT * MAX_BOARD_WIDTH / board_px)


def board_width_px(scene: Scene, height_px: int = BOARD_HEIGHT) -> int:
    """How wide the board is drawn when it is ``height_px`` tall (the axes keep equal scales)."""
    (x_min, x_max), (y_min, y_max) = extent(scene.table)
    return round(height_px * (x_max - x_min) / (y_max - y_min))


def sized_for_panel(view: BoardView, scene: Scene, *, strip: bool = False) -> dict[str, Any]:
    """Width, height, margins and the board's x domain so that the text panel sits just right of it; with a
    ``strip``, the board's y domain leaves room under it for the win-probability strip."""
    height = _board_height(scene)
    board_px = board_width_px(scene, height)
    plot_px = board_px + 16 + PANEL_WIDTH
    below = STRIP_PX + STRIP_GAP_PX if strip else 0
    sized = {"width": plot_px + MARGIN["l"] + MARGIN["r"], "height": height + below + MARGIN["t"] + MARGIN["b"],
             "margin": dict(MARGIN), "autosize": False,
             "xaxis": {**board_axes(view, scene)["xaxis"], "domain": [0, board_px / plot_px]}}
    if strip:
        sized["yaxis"] = {**board_axes(view, scene)["yaxis"], "domain": [below / (height + below), 1]}
    return sized


def _title(timeline: Timeline, scene: Scene, view: BoardView) -> str:
    branch = "" if timeline.branch == "main" else f", branch {timeline.branch}"
    return f"{timeline.game_id}{branch}: " + style.players_title(view.layers.sides, view.colours)


def replay_from_store(store: Any, game_id: str, branch: str | None = None, **options: Any) -> go.Figure:
    """Read a stored branch (None: the game's main line), fold it once, and build its replay (options as
    :func:`replay_figure`)."""
    return replay_figure(load_timeline(store, game_id, branch), **options)


def write_html(figure: go.Figure | dict[str, Any], path: str | os.PathLike, *, title: str | None = None) -> Path:
    """Write ``figure`` (a ``go.Figure`` or a figure dict) as a standalone HTML page with plotly.js
    embedded, so it works offline; returns the path."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    pio.write_html(figure, str(target), include_plotlyjs=True, full_html=True, auto_play=False,
                   config={"displaylogo": False}, div_id="aero-replay", validate=False,
                   post_script=START_FROM_SHOWN)
    if title:
        text = target.read_text(encoding="utf-8")
        target.write_text(text.replace("<head>", f"<head><title>{html.escape(title)}</title>", 1),
                          encoding="utf-8")
    return target
