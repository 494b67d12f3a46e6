"""``aero compare`` warns when the bots draw every game without destroying a piece: random Battlefleet Gothic
fleets drift for eight turns, every game a 0-0 draw, and the comparison then reported "no difference" with
no warning at all, though nothing was measured."""

from __future__ import annotations

import json

import pytest

from aero_events.rulesets import get_ruleset
from aero_events.sim import load_matchup, simulate
from aero_events.sim.compare import bot_warnings


@pytest.fixture
def cruiser_clash(tmp_path):
    path = tmp_path / "clash.json"
    path.write_text(json.dumps({"name": "clash", "ruleset": "battlefleet-gothic", "scenario": "cruiser-clash"}))
    return load_matchup(path)


def test_random_fleets_that_never_fight_are_named_with_the_bot_to_use_instead(cruiser_clash):
    rules = get_ruleset("battlefleet-gothic/core")
    run = simulate(cruiser_clash, rules, games=4, seed=0, bots=("random", "random"))
    assert all(result.winner is None for result in run.results)
    warnings = bot_warnings([run], rules)
    assert any(w.startswith("every game was drawn and no piece was destroyed (4 games under battlefleet-gothic/core)")
               and "try --bots broadside" in w for w in warnings), warnings


def test_fleets_that_fight_raise_no_such_warning(cruiser_clash):
    rules = get_ruleset("battlefleet-gothic/core")
    run = simulate(cruiser_clash, rules, games=2, seed=0, bots=("broadside", "broadside"))
    assert not any("every game was drawn" in w for w in bot_warnings([run], rules))


def test_aero_simulate_says_so_too_under_its_table(tmp_path, capsys):
    """``aero simulate`` prints the same warnings under its table, and in its JSON."""
    from aero_events.cli import main

    path = tmp_path / "clash.json"
    path.write_text(json.dumps({"name": "clash", "ruleset": "battlefleet-gothic", "scenario": "cruiser-clash"}))
    assert main(["simulate", "--matchup", str(path), "--games", "4", "--bots", "random", "--no-progress"]) == 0
    printed = " ".join(capsys.readouterr().out.split())
    assert "warning: every game was drawn and no piece was destroyed" in printed and "--bots broadside" in printed
    assert main(["simulate", "--matchup", str(path), "--games", "4", "--bots", "random", "--no-progress",
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert any(w.startswith("every game was drawn") for w in data["warnings"])
