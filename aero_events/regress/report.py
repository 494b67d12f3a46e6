"""What a regression re-run found, per game: identical, or where it diverged and what changed.

:class:`GameReport` is plain data (msgspec Structs) so ``aero regress --json`` writes it as it is;
:func:`render` draws the readable form with rich: one table line per game, then for each game that
diverged the first event that changed (turn, phase, what the old rules did, what the new ones do),
the decisions that became illegal and what was done about them, and the change in the outcome.

Over many games (``aero regress`` of a folder of 200 games) every detail is thousands of lines:
:func:`render_summary` prints the counts (:class:`RegressSummary`: identical, diverged, outcome changed,
stopped, errors) and the first few games of each kind with their details, and says how to see the rest
(``--verbose``, or ``--details FILE``, written by :func:`write_details`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import msgspec
from rich.console import Console
from rich.table import Table
from rich.text import Text


class EventAt(msgspec.Struct, frozen=True, kw_only=True):
    """One event of a line of play, as shown in a report."""

    seq: int
    turn: int
    phase: str
    actor: str | None
    type: str
    text: str


class Divergence(msgspec.Struct, frozen=True, kw_only=True):
    """The first event (checkpoints aside) where the re-run differs from the record.

    ``old`` is the recorded event (None: the record had ended), ``new`` the re-run's (None: the re-run
    ended first); ``decision`` the recorded decision being replayed there; ``old_next`` and ``new_next``
    the few events after, for context.
    """

    index: int
    old: EventAt | None
    new: EventAt | None
    decision: str | None = None
    old_next: tuple[EventAt, ...] = ()
    new_next: tuple[EventAt, ...] = ()

    @property
    def where(self) -> EventAt:
        at = self.old or self.new
        assert at is not None
        return at


class IllegalDecision(msgspec.Struct, frozen=True, kw_only=True):
    """A recorded decision the new rules refuse, and what the re-run did: ``stopped`` (policy stop),
    ``replaced`` (the bot chose another of the same kind), ``skipped`` (the decision no longer arises) or
    ``waited`` (another decision came first: the bot made it, and the recorded one was tried again)."""

    decision: int
    turn: int
    phase: str
    command: str
    error: str
    action: str


class Outcome(msgspec.Struct, frozen=True, kw_only=True):
    """How a line of play ended (or stands, if unfinished), in the ruleset's terms: the scores per side
    (``score_name``: Aeronautica's "VP") and counts per side (``statistics``: "aircraft lost"...)."""

    finished: bool
    turn: int
    winner: str | None
    end_reason: str | None
    scores: dict[str, float]
    score_name: str = "score"
    statistics: dict[str, dict[str, int]] = msgspec.field(default_factory=dict)

    def summary(self) -> str:
        if not self.finished:
            return f"unfinished at turn {self.turn}"
        vp = ", ".join(f"{player} {number(points)}" for player, points in self.scores.items())
        winner = f"{self.winner} wins" if self.winner else "draw"
        return f"{winner} ({vp}), turn {self.turn}"


class GameReport(msgspec.Struct, kw_only=True):
    """One game re-run under another ruleset."""

    game_id: str
    source: str
    recorded_ruleset: str
    recorded_data_version: str
    ruleset: str
    data_version: str
    identical: bool = False
    events_recorded: int = 0
    events_replayed: int = 0
    decisions: int = 0
    decisions_applied: int = 0
    setup_note: str | None = None
    divergence: Divergence | None = None
    state_difference: str | None = None
    illegal: tuple[IllegalDecision, ...] = ()
    bot_decisions: int = 0
    unused_decisions: int = 0
    stopped: str | None = None
    extra_dice: int = 0
    extra_rolls: int = 0
    unused_dice: int = 0
    extra_salts: int = 0
    old_outcome: Outcome | None = None
    new_outcome: Outcome | None = None
    outcome_changes: tuple[str, ...] = ()
    error: str | None = None

    @property
    def status(self) -> str:
        if self.error is not None:
            return "error"
        if self.identical:
            return "identical"
        if self.stopped is not None:
            return "stopped"
        return "diverged" if self.divergence is not None else "state differs"


def outcome_changes(old: Outcome | None, new: Outcome | None) -> tuple[str, ...]:
    """What changed between two outcomes, in words (nothing: an empty tuple)."""
    if old is None or new is None:
        return ()
    changes = []
    if old.finished != new.finished:
        changes.append("finished -> unfinished" if old.finished else "unfinished -> finished")
    if old.winner != new.winner:
        changes.append(f"winner {_winner(old)} -> {_winner(new)}")
    for player in sorted(set(old.scores) | set(new.scores)):
        before, after = old.scores.get(player, 0), new.scores.get(player, 0)
        if before != after:
            changes.append(f"{player} {new.score_name} {number(before)} -> {number(after)}")
    for name in sorted(set(old.statistics) | set(new.statistics)):
        old_counts, new_counts = old.statistics.get(name, {}), new.statistics.get(name, {})
        for player in sorted(set(old_counts) | set(new_counts)):
            before, after = old_counts.get(player, 0), new_counts.get(player, 0)
            if before != after:
                changes.append(f"{player} {name} {before} -> {after}")
    if old.turn != new.turn:
        changes.append(f"last turn {old.turn} -> {new.turn}")
    return tuple(changes)


def _winner(outcome: Outcome) -> str:
    """Who won, in words: no winner is a draw only in a finished game (a re-run that stopped has none yet)."""
    return outcome.winner or ("draw" if outcome.finished else "no winner yet")


def number(value: float) -> str:
    """A score as people write it: ``12``, not ``12.0``."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def to_json(reports: Sequence[GameReport]) -> bytes:
    """The reports as indented JSON (``aero regress --json``)."""
    return msgspec.json.format(msgspec.json.encode(list(reports)), indent=2)


_STYLES = {"identical": "green", "diverged": "yellow", "stopped": "red", "error": "bold red",
           "state differs": "yellow"}


def _where(report: GameReport) -> str:
    if report.error is not None:
        return report.error
    if report.divergence is not None:
        at = report.divergence.where
        return f"seq {at.seq}, turn {at.turn}, {at.phase}: {at.type}"
    return report.state_difference or "-"


def _dice(report: GameReport) -> str:
    parts = []
    if report.extra_dice:
        parts.append(f"{report.extra_dice} extra ({report.extra_rolls} rolls)")
    if report.unused_dice:
        parts.append(f"{report.unused_dice} unused")
    return ", ".join(parts) or "as recorded"


def _decisions(report: GameReport) -> str:
    text = f"{report.decisions_applied}/{report.decisions}"
    if report.illegal:
        text += f", {len(report.illegal)} illegal"
    if report.bot_decisions:
        text += f", {report.bot_decisions} by bot"
    if report.unused_decisions:
        text += f", {report.unused_decisions} unused"
    return text


def summary_table(reports: Sequence[GameReport], title: str) -> Table:
    table = Table(title=title)
    for column, justify in (("game", "left"), ("result", "left"), ("first difference", "left"),
                            ("decisions", "right"), ("dice", "left"), ("outcome change", "left")):
        table.add_column(column, justify=justify)
    for report in reports:
        table.add_row(report.game_id, Text(report.status, style=_STYLES[report.status]), _where(report),
                      _decisions(report), _dice(report), "; ".join(report.outcome_changes) or "none")
    return table


def _event_line(label: str, at: EventAt | None, style: str) -> Text:
    line = Text(f"  {label:<4}", style="bold " + style)
    if at is None:
        line.append("(no more events)")
    else:
        line.append(f"seq {at.seq:>4}  turn {at.turn:>2}  {at.phase:<13} {at.actor or '-':<9} ", style="dim")
        line.append(at.text)
    return line


def render(reports: Sequence[GameReport], console: Console, title: str) -> None:
    """The summary table, then the details of every game that did not replay identically."""
    console.print(summary_table(reports, title))
    render_details(reports, console)


def _games(count: int) -> str:
    return f"{count} game" if count == 1 else f"{count} games"


def render_details(reports: Sequence[GameReport], console: Console, max_illegal: int | None = None) -> None:
    """For each game that did not replay identically: where it diverged, what became illegal (the first
    ``max_illegal`` decisions, None: all), the outcome."""
    for report in reports:
        if report.identical or report.error is not None:
            continue
        console.print(Text(f"\n{report.game_id} ({report.source})", style="bold"))
        console.print(f"  {report.recorded_ruleset} [{report.recorded_data_version}] -> {report.ruleset} "
                      f"[{report.data_version}]", markup=False, highlight=False)
        if report.setup_note:
            console.print(f"  setup: {report.setup_note}", markup=False, highlight=False)
        divergence = report.divergence
        if divergence is not None:
            at = divergence.where
            console.print(f"  first difference: turn {at.turn}, {at.phase} phase, event {divergence.index + 1} "
                          f"(checkpoints aside)" + (f", replaying {divergence.decision}" if divergence.decision
                                                    else ""), markup=False, highlight=False)
            console.print(_event_line("old", divergence.old, "cyan"), soft_wrap=True)
            for following in divergence.old_next:
                console.print(_event_line("", following, "cyan"), soft_wrap=True)
            console.print(_event_line("new", divergence.new, "magenta"), soft_wrap=True)
            for following in divergence.new_next:
                console.print(_event_line("", following, "magenta"), soft_wrap=True)
        if report.state_difference:
            console.print(f"  state: {report.state_difference}", markup=False, highlight=False)
        listed = report.illegal if max_illegal is None else report.illegal[:max_illegal]
        for illegal in listed:
            console.print(f"  illegal now (turn {illegal.turn}, {illegal.phase}): {illegal.command}: "
                          f"{illegal.error} -> {illegal.action}", markup=False, highlight=False)
        if len(listed) < len(report.illegal):
            console.print(f"  ... and {len(report.illegal) - len(listed)} more decisions illegal now",
                          markup=False, highlight=False)
        if report.stopped:
            console.print(f"  stopped: {report.stopped}", markup=False, highlight=False)
        if report.old_outcome is not None and report.new_outcome is not None:
            console.print(f"  outcome: {report.old_outcome.summary()} -> {report.new_outcome.summary()}",
                          markup=False, highlight=False)


#: Games up to which ``aero regress`` lists every game and its details (beyond: the summary).
LIST_ALL_UP_TO = 5
#: Games of each kind shown as examples in the summary.
EXAMPLES = 3


@dataclass(frozen=True)
class RegressSummary:
    """How many of the re-run games were identical, diverged (any difference, stopped ones included),
    changed their outcome (winner, scores, statistics or length), stopped on an illegal decision, or could
    not be re-run at all (errors)."""

    games: int
    identical: int
    diverged: int
    outcome_changed: int
    stopped: int
    errors: int

    @classmethod
    def of(cls, reports: Sequence[GameReport]) -> RegressSummary:
        return cls(games=len(reports), identical=sum(r.identical for r in reports),
                   diverged=sum(not r.identical and r.error is None for r in reports),
                   outcome_changed=sum(bool(r.outcome_changes) for r in reports),
                   stopped=sum(r.stopped is not None and r.error is None for r in reports),
                   errors=sum(r.error is not None for r in reports))

    def line(self) -> str:
        parts = [f"{self.identical} identical", f"{self.diverged} diverged",
                 f"{self.outcome_changed} with a changed outcome"]
        if self.stopped:
            parts.append(f"{self.stopped} stopped on an illegal decision")
        if self.errors:
            parts.append(f"{self.errors} could not be re-run")
        return ", ".join(parts)


def _kinds(reports: Sequence[GameReport]) -> list[tuple[str, list[GameReport]]]:
    """The reports that are not identical, by kind, in order of gravity (a report may be of several)."""
    return [("could not be re-run", [r for r in reports if r.error is not None]),
            ("outcome changed", [r for r in reports if r.outcome_changes]),
            ("diverged, same outcome", [r for r in reports if not r.identical and r.error is None
                                        and not r.outcome_changes])]


def render_summary(reports: Sequence[GameReport], console: Console, title: str, *, verbose: bool = False,
                   details: str | None = None) -> None:
    """Every game and its details when there are few (or ``verbose``); else the counts, the first
    :data:`EXAMPLES` games of each kind with their details, and how to see the rest."""
    summary = RegressSummary.of(reports)
    heading = f"{title}: {summary.line()}"
    if verbose or len(reports) <= LIST_ALL_UP_TO:
        render(reports, console, heading)
        return
    console.print(heading, markup=False, highlight=False)
    counts = Table()
    for column, justify in (("result", "left"), ("games", "right"), ("share", "right")):
        counts.add_column(column, justify=justify)
    for label, value, style in (("identical", summary.identical, "green"), ("diverged", summary.diverged, "yellow"),
                                ("outcome changed", summary.outcome_changed, "yellow"),
                                ("stopped on an illegal decision", summary.stopped, "red"),
                                ("could not be re-run", summary.errors, "bold red")):
        counts.add_row(Text(label, style=style), str(value), f"{100 * value / summary.games:.1f}%")
    console.print(counts)
    shown: dict[str, GameReport] = {}
    left_out = 0
    for kind, found in _kinds(reports):
        if not found:
            continue
        examples = found[:EXAMPLES]
        left_out += len(found) - len(examples)
        console.print(Text(f"\n{kind}: {_games(len(found))}" + (f", the first {len(examples)}:" if len(found) >
                                                                  len(examples) else ":"), style="bold"))
        for report in examples:
            shown.setdefault(report.game_id, report)
        console.print(summary_table(examples, f"{kind} (first {len(examples)})"))
    render_details(list(shown.values()), console, max_illegal=EXAMPLES)
    if summary.identical == summary.games:
        return
    more = "--details FILE writes them" if details is None else f"written to {details}"
    console.print(f"\nevery game's report: --verbose prints them, {more} (JSON when FILE ends in .json)",
                  markup=False, highlight=False)


def write_details(reports: Sequence[GameReport], path: str | os.PathLike, title: str) -> None:
    """Every game's report into ``path``: JSON (:func:`to_json`) when it ends in ``.json``, else the text
    of :func:`render` (no colour, no wrapping). The folder must exist (it is not created silently)."""
    target = Path(path)
    if not target.parent.is_dir():
        raise FileNotFoundError(2, "No such file or directory", os.fspath(target))
    if target.suffix.lower() == ".json":
        target.write_bytes(to_json(reports) + b"\n")
        return
    with target.open("w", encoding="utf-8") as handle:
        render(reports, Console(file=handle, width=200, no_color=True, highlight=False, soft_wrap=True),
               f"{title}: {RegressSummary.of(reports).line()}")
