"""``aero compare`` measures something (issue 17, item 5): it warns when the bots do not play the game and
says what to use instead, and calls a difference significant only after Holm's correction for the several
differences it tests (aero_events/sim/compare.py)."""

from __future__ import annotations

import json

import pytest

from aero_events.cli import main
from aero_events.rulesets import get_ruleset
from aero_events.sim import compare_runs, load_matchup, simulate
from aero_events.sim.compare import bot_warnings
from aero_events.sim.stats import holm_adjusted
from tests.sim.test_simulate import MATCHUP


@pytest.fixture
def matchup(tmp_path):
    path = tmp_path / "matchup.json"
    path.write_text(json.dumps(MATCHUP))
    return load_matchup(path)


def test_random_bots_that_fly_off_the_board_early_are_named_with_the_bot_to_use_instead(matchup):
    rules = get_ruleset("aeronautica/wov-2019")
    run = simulate(matchup, rules, games=12, seed=1, bots=("random", "random"))
    assert run.turn_limit == 12
    warnings = bot_warnings([run], rules)
    assert any("end games after few turns on average" in w and "up to 12" in w for w in warnings)
    assert any("ended off the table" in w for w in warnings)
    assert all("use --bots default (the ruleset's default bot" in w for w in warnings)


def test_bots_that_play_the_game_to_its_last_turn_raise_no_warning(matchup):
    rules = get_ruleset("aeronautica/wov-2019")
    run = simulate(matchup, rules, games=3, seed=1, bots=("baseline", "baseline"))
    assert bot_warnings([run], rules) == []


def test_significance_is_judged_on_the_holm_adjusted_p_values(matchup):
    run_a = simulate(matchup, get_ruleset("aeronautica/wov-2019"), games=20, seed=4, bots=("random", "random"))
    run_b = simulate(matchup, get_ruleset("aeronautica/faq-2020"), games=20, seed=4, bots=("random", "random"))
    comparison = compare_runs(run_a, run_b)
    raw = [metric.test.p_value for metric in comparison.metrics]
    assert [metric.adjusted_p_value for metric in comparison.metrics] == holm_adjusted(raw)
    assert [metric.significant for metric in comparison.metrics] == [p < 0.05 for p in holm_adjusted(raw)]
    assert comparison.correction == "Holm-Bonferroni"


def test_aero_compare_prints_the_warning_before_and_after_the_table(capsys, tmp_path):
    path = tmp_path / "matchup.json"
    path.write_text(json.dumps(MATCHUP))
    code = main(["compare", "--rules", "wov-2019,faq-2020", "--matchup", str(path), "--games", "10", "--bots",
                 "random", "--no-progress"])
    out = capsys.readouterr().out
    assert code == 0
    first = out.partition("\n")[0]
    assert first.startswith("warning: the bots (random) end games after few turns")
    assert out.rstrip().splitlines()[-1].startswith("warning: ")
    code = main(["compare", "--rules", "wov-2019,faq-2020", "--matchup", str(path), "--games", "10", "--bots",
                 "random", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["correction"] == "Holm-Bonferroni" and data["warnings"]
