"""Charts of the post-match analysis (Plotly figures), each drawn from a Table of this package.

* :func:`luck_figure`: each player's running luck (actual minus expected successes) by event;
* :func:`damage_figure`: Structure lost per turn and side, and the Structure left in play;
* :func:`flight_figure`: Altitude and Speed of every aircraft through the game;
* :func:`hex_heatmap_figure`: the hexes each side used, shaded by how often, over the board.

Sides keep the colours of the replay (:mod:`aero_events.viz.style`). The x axis of the
event-by-event charts is the event number, with a tick at the start of each turn.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence

import plotly.graph_objects as go
import pyarrow as pa
from plotly.subplots import make_subplots

from aero_events.hexgrid import Board
from aero_events.viz import style
from aero_events.viz.geometry import board_extent, board_hexes, centre, hex_polygons

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
    return {"title": {"text": "event # (ticks: start of each turn)"}, "tickmode": "array",
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


def damage_figure(damage: pa.Table, colours: Mapping[str, str] | None = None) -> go.Figure:
    """Bars: Structure each side lost per turn; lines: the Structure each side still had in play."""
    rows = damage.to_pylist()
    players = list(dict.fromkeys(row["side"] for row in rows))
    colours = dict(colours or style.side_colours(players))
    figure = make_subplots(specs=[[{"secondary_y": True}]])
    for player in players:
        mine = [row for row in rows if row["side"] == player]
        colour = colours.get(player, style.NEUTRAL)
        figure.add_trace(go.Bar(x=[r["turn"] for r in mine], y=[r["damage_taken"] for r in mine],
                                name=f"{player}: Structure lost", marker={"color": style.rgba(colour, 0.55)}),
                         secondary_y=False)
        figure.add_trace(go.Scatter(x=[r["turn"] for r in mine], y=[r["structure_left"] for r in mine],
                                    name=f"{player}: Structure in play", mode="lines+markers",
                                    line={"color": colour, "width": 3}), secondary_y=True)
    figure.update_layout(title="Damage over turns", barmode="group", height=380,
                         margin={"l": 60, "r": 60, "t": 50, "b": 50}, xaxis={"title": {"text": "turn"}, "dtick": 1})
    figure.update_yaxes(title_text="Structure lost in the turn", secondary_y=False, rangemode="tozero")
    figure.update_yaxes(title_text="Structure left in play", secondary_y=True, rangemode="tozero")
    return figure


def flight_figure(flight: pa.Table, colours: Mapping[str, str] | None = None,
                  starts: Mapping[int, int] | None = None, last_seq: int | None = None) -> go.Figure:
    """Altitude (top) and Speed (bottom) of every aircraft, as steps through the game's events."""
    rows = flight.to_pylist()
    players = list(dict.fromkeys(row["side"] for row in rows))
    colours = dict(colours or style.side_colours(players))
    by_aircraft: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        by_aircraft[row["aircraft"]].append(row)
    figure = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.06,
                           subplot_titles=("Altitude", "Speed"))
    dash_of: dict[str, int] = defaultdict(int)
    for aircraft_id in sorted(by_aircraft):
        trace = by_aircraft[aircraft_id]
        side = trace[0]["side"]
        dash = DASHES[dash_of[side] % len(DASHES)]
        dash_of[side] += 1
        in_play = [row for row in trace if row["status"] in ("flying", "landed")]
        if not in_play:
            continue
        xs = [row["seq"] for row in in_play]
        if last_seq is not None and trace[-1]["status"] in ("flying", "landed"):
            xs_end = [*xs, last_seq]
            in_play_end = [*in_play, in_play[-1]]
        else:
            xs_end, in_play_end = xs, in_play
        for row_number, field in ((1, "altitude"), (2, "speed")):
            figure.add_trace(go.Scatter(
                x=xs_end, y=[row[field] for row in in_play_end], mode="lines", name=aircraft_id,
                legendgroup=aircraft_id, showlegend=row_number == 1,
                line={"shape": "hv", "color": colours.get(side, style.NEUTRAL), "dash": dash, "width": 2},
                hovertemplate=f"{aircraft_id}: {field} %{{y}}<extra>#%{{x}}</extra>"), row=row_number, col=1)
    figure.update_layout(title="Altitude and Speed through the game", height=520, hovermode="closest",
                         margin={"l": 60, "r": 20, "t": 60, "b": 50})
    figure.update_xaxes(**_turn_axis(starts), row=2, col=1)
    figure.update_xaxes(showticklabels=False, row=1, col=1)
    figure.update_yaxes(dtick=1, rangemode="tozero")
    return figure


def hex_heatmap_figure(usage: pa.Table, board: Board, players: Sequence[str],
                       colours: Mapping[str, str] | None = None) -> go.Figure:
    """One board per side, each hex it used shaded by how many times its aircraft entered it."""
    colours = dict(colours or style.side_colours(players))
    rows = usage.to_pylist()
    most = max((row["visits"] for row in rows), default=1)
    (x_min, x_max), (y_min, y_max) = board_extent(board, margin_hexes=0.5)
    figure = make_subplots(rows=1, cols=len(players), subplot_titles=[f"hexes used by {p}" for p in players],
                           horizontal_spacing=0.03)
    outline_x, outline_y = hex_polygons(board_hexes(board))
    for column, player in enumerate(players, start=1):
        colour = colours.get(player, style.NEUTRAL)
        figure.add_trace(go.Scatter(x=outline_x, y=outline_y, mode="lines", hoverinfo="skip", showlegend=False,
                                    line={"color": style.BOARD_LINE, "width": 1}), row=1, col=column)
        mine = [row for row in rows if row["side"] == player]
        by_count: dict[int, list[tuple[int, int]]] = defaultdict(list)
        for row in mine:
            by_count[row["visits"]].append((row["q"], row["r"]))
        for count in sorted(by_count):
            xs, ys = hex_polygons(by_count[count])
            fill = style.blend("#ffffff", colour, 0.25 + 0.75 * count / most)
            figure.add_trace(go.Scatter(x=xs, y=ys, mode="lines", fill="toself", fillcolor=fill,
                                        line={"color": fill, "width": 0.5}, hoverinfo="skip", showlegend=False),
                             row=1, col=column)
        points = [centre((row["q"], row["r"])) for row in mine]
        figure.add_trace(go.Scatter(
            x=[p[0] for p in points], y=[p[1] for p in points], mode="markers", showlegend=False,
            marker={"size": 6, "color": "rgba(0,0,0,0)"}, hoverinfo="text",
            hovertext=[f"{player}: hex ({row['q']},{row['r']}) entered {row['visits']} time(s)" for row in mine]),
            row=1, col=column)
        axis_suffix = "" if column == 1 else str(column)
        figure.update_xaxes(range=[x_min, x_max], visible=False, row=1, col=column)
        figure.update_yaxes(range=[y_min, y_max], visible=False, scaleanchor=f"x{axis_suffix}", scaleratio=1,
                            row=1, col=column)
    figure.update_layout(title=f"Where each side flew (darkest: {most} visits)", height=520,
                         plot_bgcolor=style.BOARD_BACKGROUND, margin={"l": 10, "r": 10, "t": 70, "b": 10})
    return figure
