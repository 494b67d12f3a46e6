"""Charts of the post-match analysis (Plotly figures), each drawn from a Table of this package.

* :func:`level_figure`: every piece's level (altitude, height band) through the game, one panel per side;
* :func:`cell_heatmap_figure`: on a hex table, the cells each side used, shaded by how often;
* :func:`luck_figure`: each player's running luck (actual minus expected successes) by event;
* :func:`damage_figure`: Structure lost per turn and side, and the Structure left in play.

Sides keep the colours of the replay (:mod:`aero_events.viz.style`); lines within a panel take distinct
colours, never more than a side's pieces per panel. Axes of whole quantities (levels, turns, Structure)
have whole-number ticks. The x axis of the event-by-event charts is the event number, with a tick at the
start of each turn. A piece out of play ends its line with a status marker (✗ destroyed), never a level
below the table.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from math import ceil

import plotly.graph_objects as go
import pyarrow as pa
from plotly.subplots import make_subplots

from aero_events.core.scene import Table
from aero_events.viz import style
from aero_events.viz.geometry import extent, hex_corners, polygons, table_hexes

from .timeline import Timeline

DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")


def turn_starts(timeline: Timeline) -> dict[int, int]:
    """The first event seq of each turn (for ticks on event-number axes)."""
    starts: dict[int, int] = {}
    for envelope in timeline.envelopes:
        starts.setdefault(envelope.turn, envelope.seq)
    return starts


def _turn_axis(starts: Mapping[int, int] | None) -> dict:
    if not starts:
        return {"title": {"text": "event #"}}
    return {"title": {"text": "the game's events, turn by turn (ticks: each turn's start)"}, "tickmode": "array",
            "tickvals": list(starts.values()), "ticktext": [f"T{turn}" for turn in starts], "showgrid": True}


def luck_figure(luck: pa.Table, colours: Mapping[str, str] | None = None,
                starts: Mapping[int, int] | None = None) -> go.Figure:
    """Each player's cumulative luck: the sum over their targeted rolls of actual minus expected successes.

    Above zero a player rolled better than the odds; the hover tells each roll.
    """
    rows = luck.to_pylist()
    players = sorted({row["roller"] for row in rows})
    colours = dict(colours or style.side_colours(players))
    figure = go.Figure()
    for player in players:
        mine = [row for row in rows if row["roller"] == player]
        figure.add_trace(go.Scatter(
            x=[0] + [row["seq"] for row in mine], y=[0.0] + [row["cumulative_luck"] for row in mine],
            mode="lines+markers", name=player, line={"shape": "hv", "color": colours.get(player, style.NEUTRAL)},
            hovertext=["start"] + [
                f"T{row['turn']} #{row['seq']}: {row['purpose']}<br>{row['dice']} dice needing {row['target']}+"
                f" ({row['modifier']:+d}): {row['faces']}<br>expected {row['expected']:.2f}, got {row['actual']}"
                f"<br>running luck {row['cumulative_luck']:+.2f}" for row in mine],
            hoverinfo="text"))
    figure.add_hline(y=0, line={"color": "#999", "width": 1})
    figure.update_layout(title="Luck: successes rolled minus successes expected (running total)",
                         xaxis=_turn_axis(starts), yaxis={"title": {"text": "successes above the odds"}},
                         height=380, margin={"l": 60, "r": 20, "t": 50, "b": 50}, hovermode="closest")
    return figure


def whole_axis(largest: float, *, title: str | None = None) -> dict:
    """An axis of whole numbers from 0: ticks 1, 2, 5, 10... apart, labels without decimals."""
    step = 1
    for candidate in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000):
        step = candidate
        if ceil(max(largest, 1) / candidate) <= 8:
            break
    axis = {"tickmode": "linear", "tick0": 0, "dtick": step, "tickformat": "d", "rangemode": "tozero",
            "range": [0, max(largest, 1) * 1.08]}
    if title:
        axis["title"] = {"text": title}
    return axis


def damage_figure(damage: pa.Table, colours: Mapping[str, str] | None = None) -> go.Figure:
    """Top: Structure each side lost per turn (bars); bottom: the Structure each side still had in play."""
    rows = damage.to_pylist()
    players = list(dict.fromkeys(row["side"] for row in rows))
    colours = dict(colours or style.side_colours(players))
    figure = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.12,
                           subplot_titles=("Structure lost in the turn", "Structure left in play at the end of the turn"))
    for player in players:
        mine = [row for row in rows if row["side"] == player]
        colour = colours.get(player, style.NEUTRAL)
        figure.add_trace(go.Bar(x=[r["turn"] for r in mine], y=[r["damage_taken"] for r in mine],
                                name=f"{player}: Structure lost", legendgroup=player,
                                marker={"color": style.rgba(colour, 0.6)},
                                hovertemplate=f"{player}, turn %{{x}}: %{{y}} Structure lost<extra></extra>"),
                         row=1, col=1)
        figure.add_trace(go.Scatter(x=[r["turn"] for r in mine], y=[r["structure_left"] for r in mine],
                                    name=f"{player}: Structure in play", legendgroup=player, mode="lines+markers",
                                    line={"color": colour, "width": 3},
                                    hovertemplate=f"{player}, end of turn %{{x}}: %{{y}} Structure<extra></extra>"),
                         row=2, col=1)
    turns = [row["turn"] for row in rows] or [1]
    figure.update_layout(title="Damage over turns", barmode="group", height=480,
                         margin={"l": 60, "r": 20, "t": 70, "b": 50})
    figure.update_xaxes(tickmode="linear", tick0=1, dtick=1, tickformat="d", range=[min(turns) - 0.5, max(turns) + 0.5])
    figure.update_xaxes(title_text="turn", row=2, col=1)
    figure.update_yaxes(whole_axis(max((r["damage_taken"] for r in rows), default=1), title="Structure"), row=1, col=1)
    figure.update_yaxes(whole_axis(max((r["structure_left"] for r in rows), default=1), title="Structure"),
                        row=2, col=1)
    return figure


_STATUS_MARKS = {"destroyed": ("x-thin-open", "destroyed"), "crashed": ("x-thin-open", "crashed"),
                 "disengaged": ("arrow-bar-up-open", "disengaged"), "off-table": ("square-open", "off the table")}


#: Lines at the same level are drawn this far apart (in levels), so that none hides another.
LEVEL_SPREAD = 0.07


def level_figure(levels: pa.Table, colours: Mapping[str, str] | None = None,
                 starts: Mapping[int, int] | None = None, last_seq: int | None = None) -> go.Figure:
    """Each piece's level through the game as steps, one panel per side, one colour per piece.

    Pieces at the same level are drawn a hair apart (the hover tells the true level), so that none hides
    another. A piece leaving play ends its line where it was last in play, with a status marker there (a
    cross for destroyed, a bar-arrow for disengaged), explained in the legend.
    """
    rows = levels.to_pylist()
    sides = list(dict.fromkeys(row["side"] for row in rows))
    name = next((row["level_name"] for row in rows if row["level"] is not None), "Level")
    by_piece: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        by_piece[row["piece"]].append(row)
    figure = make_subplots(rows=max(1, len(sides)), cols=1, shared_xaxes=True, vertical_spacing=0.1,
                           subplot_titles=[f"{name} of {side}'s pieces" for side in sides] or [name])
    top = max((row["level"] for row in rows if row["level"] is not None), default=1)
    ends: dict[str, list[tuple[int, float, str, int]]] = defaultdict(list)
    for panel, side in enumerate(sides, start=1):
        pieces = sorted({row["piece"] for row in rows if row["side"] == side})
        for number, piece in enumerate(pieces):
            trace = by_piece[piece]
            colour = style.LINE_PALETTE[number % len(style.LINE_PALETTE)]
            shift = (number - (len(pieces) - 1) / 2) * LEVEL_SPREAD
            xs, ys = [], []
            for row in trace:
                if row["level"] is None:
                    break
                xs.append(row["seq"])
                ys.append(row["level"])
            ended = next((row for row in trace if row["level"] is None), None)
            if ended is None and last_seq is not None and xs:
                xs.append(last_seq)
                ys.append(ys[-1])
            elif ended is not None and xs:
                xs.append(ended["seq"])
                ys.append(ys[-1])
            label = trace[0]["label"]
            figure.add_trace(go.Scatter(x=xs, y=[y + shift for y in ys], customdata=ys, mode="lines", name=label,
                                        legendgroup=side, legendgrouptitle={"text": side},
                                        line={"shape": "hv", "color": colour, "width": 2.5},
                                        hovertemplate=f"{label}: {name} %{{customdata}}<extra>#%{{x}}</extra>"),
                             row=panel, col=1)
            if ended is not None and xs:
                ends[ended["status"]].append((ended["seq"], ys[-1] + shift, f"{label} {ended['status']}", panel))
    for status, points in ends.items():
        symbol, words = _STATUS_MARKS.get(status, ("circle-x-open", status))
        for index, (x, y, text, panel) in enumerate(points):
            figure.add_trace(go.Scatter(
                x=[x], y=[y], mode="markers", name=words, legendgroup="out of play",
                legendgrouptitle={"text": "out of play"}, showlegend=index == 0,
                marker={"symbol": symbol, "size": 14, "color": "#333", "line": {"width": 2, "color": "#333"}},
                hovertemplate=f"{text} at #%{{x}}<extra></extra>"), row=panel, col=1)
    figure.update_layout(title=f"{name} over turns", height=260 + 220 * max(1, len(sides)), hovermode="closest",
                         margin={"l": 60, "r": 20, "t": 70, "b": 50}, legend={"groupclick": "toggleitem"})
    for panel in range(1, max(1, len(sides)) + 1):
        figure.update_xaxes(**_turn_axis(starts), row=panel, col=1)
        if panel < len(sides):
            figure.update_xaxes(title_text="", showticklabels=False, row=panel, col=1)
    figure.update_yaxes(whole_axis(top, title=name))
    return figure


def cell_heatmap_figure(usage: pa.Table, table: Table, sides: Sequence[str],
                        colours: Mapping[str, str] | None = None) -> go.Figure:
    """One board per side, each cell it used shaded by how many times its pieces entered it (hex tables)."""
    colours = dict(colours or style.side_colours(sides))
    rows = usage.to_pylist()
    most = max((row["visits"] for row in rows), default=1)
    (x_min, x_max), (y_min, y_max) = extent(table)
    figure = make_subplots(rows=1, cols=len(sides), subplot_titles=[f"hexes used by {s}" for s in sides],
                           horizontal_spacing=0.03)
    outline_x, outline_y = table_hexes(table)
    for column, side in enumerate(sides, start=1):
        colour = colours.get(side, style.NEUTRAL)
        figure.add_trace(go.Scatter(x=outline_x, y=outline_y, mode="lines", hoverinfo="skip", showlegend=False,
                                    line={"color": style.BOARD_LINE, "width": 1}), row=1, col=column)
        mine = [row for row in rows if row["side"] == side]
        by_count: dict[int, list[dict]] = defaultdict(list)
        for row in mine:
            by_count[row["visits"]].append(row)
        for count in sorted(by_count):
            xs, ys = polygons(hex_corners(r["x"], r["y"], table.hex_size, table.flat_top) for r in by_count[count])
            fill = style.blend("#ffffff", colour, 0.25 + 0.75 * count / most)
            figure.add_trace(go.Scatter(x=xs, y=ys, mode="lines", fill="toself", fillcolor=fill,
                                        line={"color": fill, "width": 0.5}, hoverinfo="skip", showlegend=False),
                             row=1, col=column)
        figure.add_trace(go.Scatter(
            x=[r["x"] for r in mine], y=[r["y"] for r in mine], mode="markers", showlegend=False,
            marker={"size": 6, "color": "rgba(0,0,0,0)"}, hoverinfo="text",
            hovertext=[f"{side}: hex {r['label']} entered {r['visits']} time(s)" for r in mine]), row=1, col=column)
        axis_suffix = "" if column == 1 else str(column)
        figure.update_xaxes(range=[x_min, x_max], visible=False, row=1, col=column)
        figure.update_yaxes(range=[y_min, y_max], visible=False, scaleanchor=f"x{axis_suffix}", scaleratio=1,
                            row=1, col=column)
    figure.update_layout(title=f"Where each side went (darkest: {most} visits)", height=520,
                         plot_bgcolor=style.BOARD_BACKGROUND, margin={"l": 10, "r": 10, "t": 70, "b": 10})
    return figure
