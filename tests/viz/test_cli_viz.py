"""``aero replay`` and ``aero report`` write standalone HTML pages and print where."""

from __future__ import annotations

from pathlib import Path

import pytest

from aero_events.cli import main
from aero_events.store import EventStore
from tests.viz.games import bot_session


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    path = tmp_path_factory.mktemp("cli") / "aero.duckdb"
    session = bot_session(9)
    session.fork(40, "alt")
    store = EventStore(path)
    store.save_session(session)
    return path, session.game_id


def test_replay_writes_an_offline_html_page_and_prints_its_path(stored, tmp_path, capsys):
    db, game = stored
    out = tmp_path / "replay.html"
    assert main(["replay", game, "--db", str(db), "--out", str(out), "--odds-playouts", "0"]) == 0
    assert Path(capsys.readouterr().out.strip()) == out.resolve()
    text = out.read_text(encoding="utf-8")
    assert text.count("plotly.js v") == 1 and "sliders" in text


def test_replay_defaults_its_file_name_and_accepts_a_prefix_of_the_game_id(stored, tmp_path, monkeypatch, capsys):
    db, game = stored
    monkeypatch.chdir(tmp_path)
    assert main(["replay", game[:-1], "--db", str(db), "--focus", "imperium-1", "--odds-playouts", "0"]) == 0
    printed = Path(capsys.readouterr().out.strip())
    assert printed == (tmp_path / f"{game}-main-replay.html").resolve() and printed.exists()


def test_replay_compare_writes_both_branches(stored, tmp_path, capsys):
    db, game = stored
    out = tmp_path / "compare.html"
    assert main(["replay", game, "--compare", "alt", "--db", str(db), "--out", str(out)]) == 0
    assert "branch alt" in out.read_text(encoding="utf-8")


def test_report_writes_one_page(stored, tmp_path, capsys):
    db, game = stored
    out = tmp_path / "report.html"
    assert main(["report", game, "--out", str(out), "--db", str(db), "--odds-playouts", "1"]) == 0
    text = out.read_text(encoding="utf-8")
    assert text.count("plotly.js v") == 1
    for heading in ("Replay", "Chances of winning", "Per side", "Altitude over turns", "Hexes used", "Dice", "Per aircraft", "Luck",
                    "Damage over turns"):
        assert f"<h2>{heading}</h2>" in text


def test_unknown_games_and_aircraft_are_errors_not_tracebacks(stored, tmp_path, capsys):
    db, game = stored
    assert main(["replay", "no-such-game", "--db", str(db)]) == 2
    assert main(["replay", game, "--focus", "nobody", "--db", str(db), "--out", str(tmp_path / "x.html")]) == 2
    assert "no piece 'nobody'" in capsys.readouterr().err


def test_the_replay_draws_the_win_probability_strip_unless_told_not_to(stored, tmp_path):
    """Issue 18 item 3: the replay page shows each side's chances over the turns; ``--odds-playouts 0``
    leaves the strip out."""
    db, game = stored
    drawn, left_out = tmp_path / "strip.html", tmp_path / "no-strip.html"
    assert main(["replay", game, "--db", str(db), "--out", str(drawn), "--odds-playouts", "2"]) == 0
    assert main(["replay", game, "--db", str(db), "--out", str(left_out), "--odds-playouts", "0"]) == 0
    with_strip, without = drawn.read_text(encoding="utf-8"), left_out.read_text(encoding="utf-8")
    assert "Chance of winning at each turn" in with_strip and '"xaxis2"' in with_strip
    assert "imperium wins" in with_strip and "from 2 playouts" in with_strip
    assert "Chance of winning" not in without and '"xaxis2"' not in without


def test_a_negative_number_of_playouts_is_refused(stored, tmp_path, capsys):
    db, game = stored
    out = tmp_path / "x.html"
    assert main(["report", game, "--db", str(db), "--out", str(out), "--odds-playouts", "-1"]) == 2
    assert "--odds-playouts -1" in capsys.readouterr().err and not out.exists()


def test_a_replay_drawn_for_a_player_leaves_out_the_strip_where_the_game_hides_something_and_says_so(
        tmp_path, capsys):
    """Secrets stay secret: a Wings of Glory state holds the other side's next card face down at every turn's
    start (PLANNING), so no point is played on for RAF's page; the terminal says why."""
    from aero_events.demo import run_demo
    from aero_events.rulesets import get_ruleset

    db = tmp_path / "wog.duckdb"
    game = run_demo(str(db), say=lambda _line: None, ruleset=get_ruleset("wings-of-glory/bob-2017"))
    out = tmp_path / "raf.html"
    assert main(["replay", game, "--db", str(db), "--out", str(out), "--player", "RAF", "--odds-playouts", "1"]) == 0
    printed = capsys.readouterr()
    assert "The win-probability strip leaves out" in printed.err and "what RAF may not see" in printed.err
    assert "Chance of winning at each turn" not in out.read_text(encoding="utf-8")
