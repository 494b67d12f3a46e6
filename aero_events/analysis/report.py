"""The one-page post-match report: the replay and every chart and table of a game, in one HTML file.

plotly.js is embedded once, in the first figure; the other figures reuse it, so the
page works offline and weighs plotly.js plus the game's data. Sections: the result,
the replay, per-side and per-aircraft statistics, luck, damage over turns, Altitude
and Speed, and the hexes each side used.
"""

from __future__ import annotations

import html
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import plotly.graph_objects as go
import plotly.io as pio
import pyarrow as pa

from . import charts
from .hex_usage import hex_usage
from .luck import luck_summary, luck_table
from .over_time import damage_by_turn, flight_traces
from .stats import aircraft_stats, game_result, game_shots, side_stats
from .tables import table_html
from .timeline import Timeline, load_timeline

_STYLE = """
body { font-family: Helvetica, Arial, sans-serif; margin: 24px auto; max-width: 1500px; color: #222; }
h1 { font-size: 24px; margin-bottom: 4px; } h2 { font-size: 19px; margin-top: 36px; border-bottom: 1px solid #ddd; }
p.meta { color: #555; margin-top: 0; }
table.stats { border-collapse: collapse; margin: 12px 0; font-size: 13px; }
table.stats caption { text-align: left; font-weight: bold; padding: 4px 0; }
table.stats th, table.stats td { border: 1px solid #ddd; padding: 3px 8px; }
table.stats th { background: #f3f3f3; } table.stats td.num { text-align: right; }
"""


@dataclass(frozen=True)
class GameReport:
    """Everything the report shows, computed once from one fold of the game."""

    timeline: Timeline
    aircraft: pa.Table
    sides: pa.Table
    luck: pa.Table
    luck_by_kind: pa.Table
    damage: pa.Table
    flight: pa.Table
    hexes: pa.Table

    @classmethod
    def of(cls, timeline: Timeline) -> GameReport:
        shots = game_shots(timeline)
        aircraft = aircraft_stats(timeline, shots)
        luck = luck_table(timeline)
        return cls(timeline=timeline, aircraft=aircraft, sides=side_stats(timeline, aircraft), luck=luck,
                   luck_by_kind=luck_summary(luck), damage=damage_by_turn(timeline, shots),
                   flight=flight_traces(timeline), hexes=hex_usage(timeline))

    def figures(self, replay: bool = True) -> list[tuple[str, go.Figure | dict]]:
        """(section title, figure) in page order (the replay as a figure dict: see ``replay_spec``)."""
        from aero_events.viz import replay_spec, style

        colours = style.side_colours(self.timeline.players)
        starts = charts.turn_starts(self.timeline)
        figures = []
        if replay:
            figures.append(("Replay", replay_spec(self.timeline)))
        figures += [
            ("Luck", charts.luck_figure(self.luck, colours, starts)),
            ("Damage over turns", charts.damage_figure(self.damage, colours)),
            ("Altitude and Speed", charts.flight_figure(self.flight, colours, starts, self.timeline.head_seq)),
            ("Hexes used", charts.hex_heatmap_figure(self.hexes, self.timeline.board, self.timeline.players,
                                                     colours)),
        ]
        return figures


def _result_line(timeline: Timeline) -> str:
    over, winner, reason = game_result(timeline)
    final = timeline.final
    if not over:
        return f"Not finished: turn {final.turn}, {final.phase.replace('_', ' ')}."
    return (f"{winner} wins" if winner else "A draw") + f" — {reason}."


def report_html(timeline: Timeline, *, replay: bool = True) -> str:
    """The report of ``timeline`` as a standalone HTML page (plotly.js embedded once)."""
    report = GameReport.of(timeline)
    players = " vs ".join(timeline.players)
    title = f"{timeline.game_id} ({timeline.branch}): {players}"
    sections: list[str] = []
    first = True
    tables_after = {"Replay": [table_html(report.sides, title="Per side"),
                               table_html(report.aircraft, title="Per aircraft")],
                    "Luck": [table_html(report.luck_by_kind, title="Luck by player and kind of roll")]}
    for heading, figure in report.figures(replay):
        options: dict[str, Any] = {"full_html": False, "include_plotlyjs": first,
                                   "config": {"displaylogo": False}, "validate": False}
        if heading == "Replay":
            options["auto_play"] = False
        sections.append(f"<h2>{html.escape(heading)}</h2>" + pio.to_html(figure, **options))
        sections.extend(tables_after.get(heading, []))
        first = False
    if not replay:
        sections.insert(0, table_html(report.sides, title="Per side") + table_html(report.aircraft,
                                                                                     title="Per aircraft"))
    meta = (f"{html.escape(getattr(timeline.ruleset, 'name', ''))} · {len(timeline)} events · "
            f"{html.escape(_result_line(timeline))}")
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            f"<style>{_STYLE}</style></head><body><h1>{html.escape(title)}</h1><p class='meta'>{meta}</p>"
            + "".join(sections) + "</body></html>")


def write_report(store: Any, game_id: str, path: str | os.PathLike, branch: str = "main") -> Path:
    """Read a stored game, fold it once, and write its report to ``path``; returns the path."""
    timeline = load_timeline(store, game_id, branch)
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(report_html(timeline), encoding="utf-8")
    return target
