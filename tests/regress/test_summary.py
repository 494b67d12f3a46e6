"""``aero regress`` over many games (issue 17, item 5): a summary (identical, diverged, outcome changed) and
the first few examples instead of every detail; every report with ``--verbose`` or in ``--details FILE``;
no progress bar on stdout (aero_events/regress/report.py, cli/rules_commands.py)."""

from __future__ import annotations

import json
from pathlib import Path

from rich.console import Console

from aero_events.cli import main
from aero_events.regress import GameReport, RegressSummary, render_summary
from aero_events.regress.report import EXAMPLES, Outcome

REPLAYS = Path(__file__).resolve().parents[2] / "replays"


def _report(number: int, *, identical: bool = False, changes: tuple[str, ...] = (), error: str | None = None,
            stopped: str | None = None) -> GameReport:
    outcome = Outcome(finished=True, turn=3, winner="a", end_reason=None, scores={"a": 1})
    return GameReport(game_id=f"game-{number:03d}", source="test", recorded_ruleset="r/1", recorded_data_version="1",
                      ruleset="r/2", data_version="2", identical=identical, outcome_changes=changes, error=error,
                      stopped=stopped, old_outcome=outcome, new_outcome=outcome,
                      state_difference=None if identical else f"difference {number}")


def _many() -> list[GameReport]:
    return ([_report(i, identical=True) for i in range(150)]
            + [_report(i, changes=("winner a -> b",)) for i in range(150, 180)]
            + [_report(i) for i in range(180, 198)]
            + [_report(198, error="the new rules refuse the game's setup"),
               _report(199, stopped="an illegal decision", changes=("last turn 3 -> 2",))])


def test_the_summary_counts_identical_diverged_and_changed_outcomes():
    summary = RegressSummary.of(_many())
    assert (summary.games, summary.identical, summary.diverged, summary.outcome_changed) == (200, 150, 49, 31)
    assert (summary.stopped, summary.errors) == (1, 1)
    assert summary.line() == ("150 identical, 49 diverged, 31 with a changed outcome, 1 stopped on an illegal "
                              "decision, 1 could not be re-run")


def test_two_hundred_games_print_the_counts_and_the_first_examples_not_every_game():
    console = Console(width=160, record=True, file=open("/dev/null", "w"))  # noqa: SIM115 - closed with the console
    render_summary(_many(), console, "200 games re-run under r/2")
    text = console.export_text()
    console.file.close()
    assert "200 games re-run under r/2: 150 identical, 49 diverged" in text
    assert "outcome changed: 31 games, the first 3:" in text and "could not be re-run: 1 game:" in text
    shown = {f"game-{i:03d}" for i in range(200) if f"game-{i:03d}" in text}
    assert shown == {"game-150", "game-151", "game-152", "game-198", "game-180", "game-181", "game-182"}
    assert EXAMPLES == 3 and len(text.splitlines()) < 80
    assert "--verbose prints them, --details FILE writes them" in text


def test_few_games_are_each_listed_with_their_details():
    console = Console(width=160, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    render_summary(_many()[148:152], console, "4 games")
    text = console.export_text()
    console.file.close()
    assert all(f"game-{i:03d}" in text for i in range(148, 152)) and "difference 151" in text


def test_aero_regress_of_a_folder_summarises_and_writes_the_details(capsys, tmp_path):
    details = tmp_path / "details.json"
    code = main(["regress", "--rules", "faq-2020", str(REPLAYS), "--on-illegal", "bot", "--details", str(details)])
    captured = capsys.readouterr()
    assert code == 0 and captured.err == ""  # stderr is not a terminal: no progress bar anywhere
    games = json.loads(details.read_text())
    assert len(games) > 5
    identical = sum(game["identical"] for game in games)
    assert f"{len(games)} games re-run under aeronautica/faq-2020: {identical} identical" in captured.out
    assert f"written to {details}" in captured.out
    listed = [game["game_id"] for game in games if game["game_id"] in captured.out]
    assert len(listed) < len(games)  # examples only
    code = main(["regress", "--rules", "faq-2020", str(REPLAYS), "--on-illegal", "bot", "--verbose"])
    verbose = capsys.readouterr().out
    assert code == 0 and all(game["game_id"] in verbose for game in games)


def test_details_into_a_missing_folder_is_refused_before_any_game_is_re_run(capsys, tmp_path):
    code = main(["regress", "--rules", "faq-2020", str(REPLAYS), "--details", str(tmp_path / "no" / "d.txt")])
    assert code == 2 and "the folder" in capsys.readouterr().err
