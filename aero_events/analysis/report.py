"""The one-page post-match report of a game of any ruleset: the result, the replay, charts and tables.

plotly.js is embedded once, in the first figure; the other figures reuse it, so the page works offline
and weighs plotly.js plus the game's data. Sections, for every ruleset: the result (the ruleset's
outcome), the replay, each side's chances of winning over the turns (the win-probability strip, worked out
by bots playing the game on from each turn's start: :mod:`aero_events.odds`), each side's summary, the level
of every piece over the turns, the cells each side used (hex tables only), the dice each side rolled against
a fair die; then the ruleset's own sections (``Ruleset.report_sections``), if it has any.

A report is drawn for a viewer: a player (``viewer``), or a spectator (None, the default), who sees no
secret. Every secret event the viewer may not read is redacted in the timeline every section reads
(:func:`seen_by`), and the replay's scenes are the ruleset's scenes for that viewer, so no unrevealed choice
or salt the viewer may not know is in the page.
"""

from __future__ import annotations

import html
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import plotly.io as pio
import pyarrow as pa

from aero_events.odds.strip import DEFAULT_STRIP_PLAYOUTS

from . import charts
from .scenes import cell_usage, level_traces, side_summary
from .tables import query, table_html
from .timeline import Timeline, load_timeline

#: Playouts per point of the win-probability strip unless told (``aero report --odds-playouts``).
DEFAULT_ODDS_PLAYOUTS = DEFAULT_STRIP_PLAYOUTS

_STYLE = """
body { font-family: Helvetica, Arial, sans-serif; margin: 24px auto; max-width: 1500px; color: #222; }
h1 { font-size: 24px; margin-bottom: 4px; } h2 { font-size: 19px; margin-top: 36px; border-bottom: 1px solid #ddd; }
p.meta { color: #555; margin-top: 0; } p.result { font-size: 17px; }
table.stats { border-collapse: collapse; margin: 12px 0; font-size: 13px; }
table.stats caption { text-align: left; font-weight: bold; padding: 4px 0; }
table.stats th, table.stats td { border: 1px solid #ddd; padding: 3px 8px; }
table.stats th { background: #f3f3f3; } table.stats td.num { text-align: right; }
"""


@dataclass(frozen=True)
class Section:
    """One section of the page: a heading, then a figure (a ``go.Figure`` or a figure dict) and/or HTML."""

    title: str
    figure: Any = None
    html: str = ""
    options: dict[str, Any] = field(default_factory=dict)


def dice_table(timeline: Timeline) -> pa.Table:
    """Per player and kind of roll: rolls, dice, mean face and a fair die's mean (generic: any die size)."""
    from aero_events.core import DiceRolled

    rows = [{"roller": env.event.roller or "(the game)", "kind": env.event.purpose.split(":", 1)[0].strip(),
             "sides": env.event.sides, "dice": len(env.event.faces), "total": sum(env.event.faces)}
            for env in timeline.envelopes if type(env.event) is DiceRolled and env.event.faces]
    schema = pa.schema([("roller", pa.string()), ("kind", pa.string()), ("sides", pa.int64()), ("dice", pa.int64()),
                        ("total", pa.int64())])
    return query("""SELECT roller, kind, 'D' || sides AS die, count(*) AS rolls, sum(dice)::BIGINT AS dice,
                           round(sum(total) / sum(dice), 2) AS mean_roll, (sides + 1) / 2 AS fair_mean
                    FROM rolls GROUP BY roller, kind, sides ORDER BY roller, kind, sides""",
                 rolls=pa.Table.from_pylist(rows, schema=schema))


def seen_by(timeline: Timeline, viewer: str | None) -> Timeline:
    """``timeline`` as ``viewer`` may read it (None: a spectator): every secret event of another player
    replaced by its redacted copy (the commitment and public fields only; DESIGN.md contract 7). The states
    are kept (the ruleset's ``scene`` draws them for the viewer)."""
    import msgspec

    from aero_events.core.secrets import redact

    envelopes = []
    for envelope in timeline.envelopes:
        shown = redact(envelope.event, viewer)
        envelopes.append(envelope if shown is envelope.event else msgspec.structs.replace(envelope, event=shown))
    return Timeline(game_id=timeline.game_id, branch=timeline.branch, ruleset=timeline.ruleset,
                    initial=timeline.initial, envelopes=envelopes, states=timeline.states,
                    metadata=dict(timeline.metadata))


@dataclass(frozen=True)
class GameReport:
    """Everything the report shows, computed once from one fold of the game and one pass of its steps.

    ``viewer``: the player the page is drawn for (None: a spectator); ``strip``: the win-probability strip's
    points (empty: left out)."""

    timeline: Timeline
    steps: list[Any]
    sides: pa.Table
    levels: pa.Table
    cells: pa.Table
    dice: pa.Table
    viewer: str | None = None
    strip: tuple[Any, ...] = ()
    #: Why points of the strip are missing (their states hide something from ``viewer``), or None.
    strip_note: str | None = None

    @classmethod
    def of(cls, timeline: Timeline, *, viewer: str | None = None, odds_playouts: int = 0,
           odds_workers: int = 1) -> GameReport:
        """The report of ``timeline``; ``odds_playouts`` per point of the strip (0: no strip)."""
        from aero_events.viz.steps import replay_steps

        strip: tuple[Any, ...] = ()
        strip_note = None
        if odds_playouts > 0:
            from aero_events.odds import left_out_note, strip_of_timeline

            # as the page's viewer may see it: no point played on from a state hiding something from them
            worked_out = strip_of_timeline(timeline, playouts=odds_playouts, workers=odds_workers, viewer=viewer)
            strip, strip_note = tuple(worked_out), left_out_note(worked_out, viewer, timeline.ruleset)
        timeline = seen_by(timeline, viewer)
        steps = replay_steps(timeline, viewer=viewer)
        return cls(timeline=timeline, steps=steps, sides=side_summary(timeline, steps), levels=level_traces(steps),
                   cells=cell_usage(steps), dice=dice_table(timeline), viewer=viewer, strip=strip,
                   strip_note=strip_note)

    def result_line(self) -> str:
        """The result in the ruleset's words."""
        outcome = self.timeline.ruleset.outcome(self.timeline.final)
        turn, phase = self.timeline.ruleset.clock(self.timeline.final)
        scores = ", ".join(f"{side} {score:g}" for side, score in outcome.scores.items())
        if not outcome.finished:
            text = f"Not finished: turn {turn}, {phase.replace('_', ' ')}."
        else:
            text = ("A draw" if outcome.draw or outcome.winner is None else f"{outcome.winner} wins")
            text += f" — {outcome.reason}." if outcome.reason else "."
        return text + (f" Score: {scores}." if scores else "")

    def sections(self, replay: bool = True) -> list[Section]:
        """The page's sections in order (the replay as a figure dict: see ``replay_spec``)."""
        from aero_events.viz import replay_spec, style

        timeline = self.timeline
        colours = style.side_colours(timeline.players)
        sections = []
        # a strip of nothing but the game's result (every other point left out for the viewer) is not drawn
        strip = self.strip if any(point.playouts for point in self.strip) else ()
        note = "" if self.strip_note is None else f"<p class='meta'>{html.escape(self.strip_note)}</p>"
        if replay:
            sections.append(Section("Replay", replay_spec(timeline, steps=self.steps, viewer=self.viewer,
                                                          strip=strip or None), options={"auto_play": False}))
        if strip:
            from aero_events.bots import default_bot
            from aero_events.viz.odds_strip import strip_figure

            playouts = max(point.playouts for point in strip)
            bot = default_bot(timeline.ruleset)
            played_by = ("the ruleset's default bot" if bot == "default"
                         else f"the {bot} bot (the ruleset names no default)")
            sections.append(Section("Chances of winning", strip_figure(
                strip, {side: colours.get(side, style.NEUTRAL) for side in timeline.ruleset.sides(timeline.final)},
                timeline.head_seq, score_name=timeline.ruleset.score_name()),
                html=f"<p class='meta'>Each point: {playouts} games played on by {played_by} from the start of "
                     "that turn (no secret order sealed yet); the band is "
                     "the 95% Wilson interval. <code>aero odds GAME --at SEQ</code> plays more from any "
                     "position.</p>" + note))
        elif note:
            sections.append(Section("Chances of winning", html=note))
        sections.append(Section("Per side", html=table_html(self.sides, title="Each side's summary")))
        if self.levels.num_rows and any(value is not None for value in self.levels.column("level").to_pylist()):
            name = next(v for v in self.levels.column("level_name").to_pylist() if v)
            sections.append(Section(f"{name} over turns", charts.level_figure(
                self.levels, colours, charts.turn_starts(timeline), timeline.head_seq)))
        table = self.steps[0].scene.table if self.steps else None
        if table is not None and table.hex_size and self.cells.num_rows:
            sides = list(dict.fromkeys([*timeline.players, *self.cells.column("side").to_pylist()]))
            sections.append(Section("Hexes used", charts.cell_heatmap_figure(self.cells, table, sides, colours)))
        if self.dice.num_rows:
            sections.append(Section("Dice", html=table_html(self.dice, title="Dice rolled, against a fair die",
                                                            headings={"die": "Die"})))
        for extra in timeline.ruleset.report_sections(timeline):
            sections.append(Section(extra.title, extra.figure, extra.html))
        return sections


def report_html(timeline: Timeline, *, replay: bool = True, viewer: str | None = None,
                odds_playouts: int = DEFAULT_ODDS_PLAYOUTS, odds_workers: int = 1) -> str:
    """The report of ``timeline`` as a standalone HTML page (plotly.js embedded once), as ``viewer`` may see
    it (None: a spectator), with a win-probability strip of ``odds_playouts`` playouts a point (0: none)."""
    from aero_events.viz.replay import START_FROM_SHOWN

    report = GameReport.of(timeline, viewer=viewer, odds_playouts=odds_playouts, odds_workers=odds_workers)
    players = " vs ".join(timeline.players)
    seen = f", as {viewer} sees it" if viewer is not None else ""
    title = f"{timeline.game_id} ({timeline.branch}): {players}{seen}"
    parts: list[str] = []
    first = True
    for section in report.sections(replay):
        parts.append(f"<h2>{html.escape(section.title)}</h2>")
        if section.figure is not None:
            options: dict[str, Any] = {"full_html": False, "include_plotlyjs": first,
                                       "config": {"displaylogo": False}, "validate": False, **section.options}
            if section.title == "Replay":
                options["post_script"] = START_FROM_SHOWN
            parts.append(pio.to_html(section.figure, **options))
            first = False
        parts.append(section.html)
    meta = f"{html.escape(getattr(timeline.ruleset, 'name', ''))} · {len(timeline)} events"
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            f"<style>{_STYLE}</style></head><body><h1>{html.escape(title)}</h1><p class='meta'>{meta}</p>"
            f"<p class='result'><b>Result:</b> {html.escape(report.result_line())}</p>"
            + "".join(parts) + "</body></html>")


def write_report(store: Any, game_id: str, path: str | os.PathLike, branch: str | None = None, *,
                 viewer: str | None = None, odds_playouts: int = DEFAULT_ODDS_PLAYOUTS, odds_workers: int = 1) -> Path:
    """Read a stored game, fold it once, and write its report to ``path`` (options as :func:`report_html`);
    returns the path."""
    timeline = load_timeline(store, game_id, branch)
    check_viewer(timeline, viewer)
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(report_html(timeline, viewer=viewer, odds_playouts=odds_playouts, odds_workers=odds_workers),
                      encoding="utf-8")
    return target


def check_viewer(timeline: Timeline, viewer: str | None) -> None:
    """A page drawn for a player the game does not have is refused (as ``aero show --player`` refuses it)."""
    if viewer is not None and viewer not in timeline.players:
        raise ValueError(f"--player: game {timeline.game_id} has no player {viewer!r}; its players are "
                         f"{', '.join(timeline.players)}")
