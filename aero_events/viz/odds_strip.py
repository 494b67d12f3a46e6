"""The win-probability strip drawn under a replay's board and in the report (the lichess evaluation graph as
the model): each side's chance of winning at the start of every turn, with its 95% interval as a band, and
in a replay a cursor at the frame shown.

The strip's points come from :func:`aero_events.odds.strip_of_timeline` (any ruleset); they are read here
only through their fields (``seq``, ``turn``, ``final``, ``playouts`` and per side ``side``,
``win_probability``, ``interval``, ``expected_score``), so drawing them needs nothing of the odds' machinery.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import style

#: Height in pixels of the strip under a replay's board, and the gap above it (for its tick labels).
STRIP_PX = 150
STRIP_GAP_PX = 46
#: Room left of the strip for its tick labels (0%, 50%, 100%).
STRIP_TICKS_PX = 40
STRIP_TITLE = "Chance of winning at each turn's start (bots playing on; band: 95% interval)"


def point_label(point: Any) -> str:
    """The strip's tick of a point: ``T3`` (the start of turn 3) or ``end``."""
    return "end" if point.final else f"T{point.turn}"


def _hover(point: Any, entry: Any, score_name: str) -> str:
    low, high = entry.interval
    if point.final:
        return f"<b>{entry.side}</b> at the end: {'won' if entry.win_probability == 1 else 'did not win'}" \
               f"<br>{score_name} {entry.expected_score:g}"
    where = f"at the start of turn {point.turn}" if not point.final else "at the end"
    return (f"<b>{entry.side}</b> {where} (event {point.seq}): wins {entry.win_probability:.0%} "
            f"(95%: {low:.0%}–{high:.0%})<br>expected {score_name} {entry.expected_score:.1f}"
            f"<br>from {point.playouts} playouts")


def strip_traces(strip: Sequence[Any], colours: dict[str, str], *, xaxis: str = "x", yaxis: str = "y",
                 score_name: str = "score") -> list[dict[str, Any]]:
    """Per side (in the order of ``colours``): its interval as a shaded band, then its win probability as a
    line with a marker per point (hover: the figure in words). Sides missing from ``colours`` are skipped."""
    traces = []
    xs = [point.seq for point in strip]
    for side, colour in colours.items():
        entries = [next((e for e in point.sides if e.side == side), None) for point in strip]
        if not any(entries):
            continue
        lows = [e.interval[0] if e else None for e in entries]
        highs = [e.interval[1] if e else None for e in entries]
        common = {"xaxis": xaxis, "yaxis": yaxis, "legendgroup": f"odds {side}", "showlegend": False}
        traces.append({"type": "scatter", "name": f"{side}: 95% interval", "x": xs + xs[::-1],
                       "y": highs + lows[::-1], "mode": "lines", "fill": "toself",
                       "fillcolor": style.rgba(colour, 0.15), "line": {"width": 0, "color": colour},
                       "hoverinfo": "skip", **common})
        traces.append({"type": "scatter", "name": f"{side} wins", "x": xs,
                       "y": [e.win_probability if e else None for e in entries], "mode": "lines+markers",
                       "line": {"color": colour, "width": 2.5, "shape": "linear"},
                       "marker": {"size": 7, "color": colour, "symbol": ["diamond" if p.final else "circle"
                                                                         for p in strip]},
                       "hovertext": [_hover(p, e, score_name) if e else "" for p, e in zip(strip, entries,
                                                                                           strict=True)],
                       "hoverinfo": "text", **common})
    return traces


def cursor_trace(seq: int | None, *, xaxis: str = "x", yaxis: str = "y") -> dict[str, Any]:
    """A vertical line at event ``seq`` on the strip (the frame a replay shows); None draws nothing."""
    return {"type": "scatter", "name": "shown", "x": [seq, seq] if seq is not None else [],
            "y": [0, 1] if seq is not None else [], "mode": "lines", "xaxis": xaxis, "yaxis": yaxis,
            "line": {"color": "#222", "width": 1.5, "dash": "dot"}, "hoverinfo": "skip", "showlegend": False}


def strip_axes(strip: Sequence[Any], head_seq: int, *, xaxis: str = "x", yaxis: str = "y",
               x_domain: Sequence[float] = (0.0, 1.0), y_domain: Sequence[float] = (0.0, 1.0),
               title: str | None = STRIP_TITLE) -> dict[str, Any]:
    """Layout entries of the strip's axes: events along x, ticked at each point (``T1``.. ``end``); the win
    probability up y, 0 to 100%."""
    key_x, key_y = f"xaxis{xaxis[1:]}", f"yaxis{yaxis[1:]}"
    x = {"domain": list(x_domain), "range": [0, max(head_seq, 1)], "anchor": yaxis,
         "tickvals": [point.seq for point in strip], "ticktext": [point_label(point) for point in strip],
         "showgrid": True, "gridcolor": "#e5e5e5", "zeroline": False, "tickfont": {"size": 10},
         "fixedrange": True}
    y = {"domain": list(y_domain), "range": [-0.02, 1.02], "anchor": xaxis, "tickvals": [0, 0.5, 1],
         "ticktext": ["0%", "50%", "100%"], "showgrid": True, "gridcolor": "#e5e5e5", "zeroline": False,
         "tickfont": {"size": 10}, "fixedrange": True}
    if title:
        x["title"] = {"text": title, "font": {"size": 11}, "standoff": 4}
    return {key_x: x, key_y: y}


def odds_line(strip: Sequence[Any], seq: int) -> str:
    """The odds at the last point of the strip at or before event ``seq``, in a few words (for a replay's
    text panel): "Odds at the start of T3: imperium 62% · orks 30%"; '' before the first point."""
    shown = [point for point in strip if point.seq <= seq]
    if not shown:
        return ""
    point = shown[-1]
    parts = " · ".join(f"{entry.side} {entry.win_probability:.0%}" for entry in point.sides)
    where = "at the end" if point.final else f"at the start of T{point.turn}"
    return f"Chances {where}: {parts}"


def strip_figure(strip: Sequence[Any], colours: dict[str, str], head_seq: int, *,
                 score_name: str = "score", title: str | None = None) -> dict[str, Any]:
    """The strip alone, as a figure dict (the report's section): the same traces and axes as in a replay."""
    layout = {"height": 260, "margin": {"l": 50, "r": 40, "t": 40 if title else 20, "b": 50},
              "showlegend": False, "hovermode": "closest", "plot_bgcolor": "white",
              "font": {"family": "Helvetica, Arial, sans-serif", "size": 12},
              **strip_axes(strip, head_seq, xaxis="x", yaxis="y", title=STRIP_TITLE)}
    if title:
        layout["title"] = {"text": title, "x": 0.01, "xanchor": "left"}
    legend = [{"type": "scatter", "name": side, "x": [None], "y": [None], "mode": "lines+markers",
               "line": {"color": colour}, "showlegend": True} for side, colour in colours.items()]
    layout["showlegend"] = True
    layout["legend"] = {"orientation": "h", "x": 0, "y": 1.02, "yanchor": "bottom"}
    return {"data": strip_traces(strip, colours, score_name=score_name) + legend, "layout": layout}
