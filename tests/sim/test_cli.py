"""``aero simulate`` and ``aero compare`` through ``aero_events.cli.main([...])``."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from aero_events.cli import main
from tests.sim.test_simulate import MATCHUP

REPLAYS = Path(__file__).resolve().parents[2] / "replays"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def matchup_file(tmp_path):
    path = tmp_path / "matchup.json"
    path.write_text(json.dumps(MATCHUP))
    return path


def test_simulate_prints_win_rates_with_intervals(capsys, matchup_file):
    code, out, _ = run(capsys, "simulate", "--matchup", str(matchup_file), "--games", "20", "--seed", "5",
                       "--rules", "faq-2020", "--bots", "random,random", "--no-progress")
    assert code == 0
    assert "bolts-vs-dakkas: 20 games under aeronautica/faq-2020" in out
    assert "95% interval (Wilson)" in out and "imperium" in out and "orks" in out and "draws" in out
    assert "games/s" in out


def test_simulate_into_a_store_that_aero_games_lists(capsys, matchup_file, tmp_path):
    db = tmp_path / "sim.duckdb"
    code, out, _ = run(capsys, "simulate", "--matchup", str(matchup_file), "--games", "6", "--seed", "2",
                       "--workers", "2", "--db", str(db), "--no-progress")
    assert code == 0 and "aero games --db" in out
    code, out, _ = run(capsys, "games", "--db", str(db))
    assert code == 0 and out.count("sim-bolts-vs-dakkas-wov-2019-s2-") == 6


def test_simulate_as_json_matches_its_table(capsys, matchup_file):
    code, out, _ = run(capsys, "simulate", "--matchup", str(matchup_file), "--games", "12", "--seed", "8", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["games"] == 12 and len(data["results"]) == 12
    wins = sum(p["wins"] for p in data["players"]) + data["draws"]
    assert wins == 12
    for player in data["players"]:
        low, high = player["interval95"]
        assert low <= player["win_rate"] <= high


def test_simulate_with_a_variant_file(capsys, matchup_file, tmp_path):
    variant = tmp_path / "v.toml"
    variant.write_text('name = "cli/sim-variant"\nbase = "wov-2019"\n[aircraft.thunderbolt]\nstructure = 5\n')
    code, out, _ = run(capsys, "simulate", "--matchup", str(matchup_file), "--games", "4", "--rules", str(variant),
                       "--json")
    assert code == 0 and json.loads(out)["ruleset"] == "cli/sim-variant"


def test_compare_two_versions_says_which_differences_are_significant(capsys, matchup_file):
    code, out, _ = run(capsys, "compare", "--rules", "wov-2019,faq-2020", "--matchup", str(matchup_file),
                       "--games", "60", "--seed", "1", "--no-progress")
    assert code == 0
    assert "aeronautica/wov-2019 (A) vs aeronautica/faq-2020 (B)" in out
    assert "imperium win rate" in out and "two-proportion z" in out and "paired t" in out
    assert "significant at p < 0.05 after the Holm-Bonferroni correction:" in out
    assert "p (Holm)" in out and "differences tested at once" in out
    code, out, _ = run(capsys, "compare", "--rules", "wov-2019,faq-2020", "--matchup", str(matchup_file),
                       "--games", "60", "--seed", "1", "--workers", "2", "--json")
    data = json.loads(out)
    assert data["a"] == "aeronautica/wov-2019" and data["b"] == "aeronautica/faq-2020"
    assert {m["metric"] for m in data["metrics"]} >= {"imperium win rate", "orks mean VP", "draw rate"}
    assert data["correction"] == "Holm-Bonferroni"
    assert all((m["adjusted_p_value"] < 0.05) == m["significant"] for m in data["metrics"])
    assert all(m["adjusted_p_value"] >= m["p_value"] for m in data["metrics"])


def test_bad_arguments_are_one_line_errors(capsys, matchup_file, tmp_path):
    code, _, err = run(capsys, "compare", "--rules", "wov-2019", "--matchup", str(matchup_file), "--games", "2")
    assert code == 2 and "two versions" in err
    code, _, err = run(capsys, "simulate", "--matchup", str(tmp_path / "none.json"), "--games", "2")
    assert code == 2 and "cannot read file" in err
    code, _, err = run(capsys, "simulate", "--matchup", str(matchup_file), "--games", "2", "--bots", "x,y")
    assert code == 2 and "unknown bot" in err


def test_a_variant_game_verifies_in_a_new_process_without_the_variant_file(capsys, matchup_file, tmp_path):
    """The game carries its variant's definition in its metadata: another process (which never saw the file)
    shows and verifies it."""
    import subprocess
    import sys

    variant = tmp_path / "v.toml"
    variant.write_text('name = "cli/reload-variant"\nbase = "wov-2019"\n[aircraft.dakkajet]\nstructure = 4\n')
    db = tmp_path / "variant.duckdb"
    code, _, _ = run(capsys, "simulate", "--matchup", str(matchup_file), "--games", "1", "--rules", str(variant),
                     "--db", str(db), "--no-progress")
    assert code == 0
    variant.unlink()
    code, out, _ = run(capsys, "games", "--db", str(db))
    game_id = next(word for word in out.split() if word.startswith("sim-"))
    done = subprocess.run([sys.executable, "-m", "aero_events.cli", "verify", game_id, "--db", str(db)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


class _Terminal(io.StringIO):
    """A stream that says it is a terminal, as stderr is in an interactive shell."""

    def isatty(self) -> bool:
        return True


def test_progress_bars_go_to_stderr_when_it_is_a_terminal_never_to_stdout(capsys, matchup_file, monkeypatch):
    """Issue 17 item 5: the progress bar went to stdout, mixed with the results."""
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    code = main(["simulate", "--matchup", str(matchup_file), "--games", "3", "--bots", "random", "--json"])
    out = capsys.readouterr().out
    assert code == 0 and json.loads(out)["games"] == 3  # stdout is the JSON alone
    assert "bolts-vs-dakkas under aeronautica" in terminal.getvalue() and "3/3" in terminal.getvalue()
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(["regress", "--rules", "wov-2019", str(REPLAYS / "dogfight-2019-seed1.jsonl")]) == 0
    assert "re-running under aeronautica/wov-2019" in terminal.getvalue()
    assert "re-running" not in capsys.readouterr().out
