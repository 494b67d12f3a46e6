"""A simulation that survives (issue 16, items 8 and 11): Ctrl-C or a kill during ``aero simulate --db`` leaves
whole games and a run that ``--resume`` finishes with exactly the games asked for, none doubled; the games
and their outcomes are those of an uninterrupted run (aero_events/sim/runner.py, "Interrupted and resumed
runs")."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest

from aero_events.cli import main
from aero_events.rulesets import get_ruleset
from aero_events.sim import SimulationError, SimulationInterrupted, load_matchup, simulate
from aero_events.sim import runner as sim_runner
from aero_events.store import EventStore

DUEL = {
    "name": "duel",
    "players": ["imperium", "orks"],
    "board": "3x3",
    "forces": [
        {"name": "Bolt", "faction": "imperial_navy", "aircraft": [{"aircraft": "thunderbolt"}]},
        {"name": "Dakka", "faction": "ork_air_waaagh", "aircraft": [{"aircraft": "dakkajet"}]},
    ],
}
GAMES = 60
RUN = "sim-duel-wov-2019-s3"


@pytest.fixture
def duel_file(tmp_path: Path) -> Path:
    path = tmp_path / "duel.json"
    path.write_text(json.dumps(DUEL))
    return path


def _stored(db: Path) -> list[tuple[str, str | None, str]]:
    """(game id, winner, final state hash) of every stored game, from the outcomes and results tables (none
    before the first batch is written)."""
    with duckdb.connect(str(db), read_only=True) as conn:
        tables = {row[0] for row in conn.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
        if not {"games", "game_outcomes", "simulation_results"} <= tables:
            return []
        return conn.execute("""SELECT g.id, o.winner, r.result->>'$.state_hash'
                               FROM games g JOIN game_outcomes o ON o.game = g.id
                               JOIN simulation_results r ON r.game = g.id ORDER BY g.id""").fetchall()


def _some_stored(db: Path) -> bool:
    """Whether games are in ``db`` yet (False while the writer holds the file: try again)."""
    if not db.exists():
        return False
    try:
        return bool(_stored(db))
    except duckdb.Error:
        return False


def _command(duel_file: Path, db: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "aero_events.cli", "simulate", "--matchup", str(duel_file), "--games", str(GAMES),
            "--seed", "3", "--rules", "wov-2019", "--bots", "random", "--db", str(db), "--no-progress", *extra]


def _interrupt_when_stored(command: list[str], db: Path, sig: int, *, group: bool) -> subprocess.CompletedProcess:
    """Start ``command``, wait until its first games are in ``db``, then send ``sig`` (to its whole process
    group when ``group``, as a terminal's Ctrl-C does)."""
    env = {**os.environ, "AERO_SIM_WRITE_SECONDS": "0"}  # every chunk of games written as it comes
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                               start_new_session=True)
    deadline = time.monotonic() + 120
    while not _some_stored(db) and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)
    if process.poll() is None:
        if group:
            os.killpg(process.pid, sig)
        else:
            process.send_signal(sig)
    out, err = process.communicate(timeout=120)
    return subprocess.CompletedProcess(command, process.returncode, out, err)


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory) -> list[tuple[str, str | None, str]]:
    folder = tmp_path_factory.mktemp("whole")
    path = folder / "duel.json"
    path.write_text(json.dumps(DUEL))
    db = folder / "whole.duckdb"
    simulate(load_matchup(path), get_ruleset("aeronautica/wov-2019"), games=GAMES, seed=3, bots=("random", "random"),
             db=db)
    return _stored(db)


def test_ctrl_c_stores_whole_games_says_how_to_resume_and_resume_finishes_the_run(duel_file, tmp_path,
                                                                                    uninterrupted, capsys):
    db = tmp_path / "sim.duckdb"
    done = _interrupt_when_stored(_command(duel_file, db, "--workers", "2"), db, signal.SIGINT, group=True)
    assert "Traceback" not in done.stderr
    stored = _stored(db)
    if len(stored) == GAMES:  # every game was played before the signal (a loaded machine): nothing to resume
        assert "stored as" in done.stdout or "were played and are stored" in done.stderr
    else:
        assert done.returncode == 130, done.stderr
        assert f"games of run {RUN} are stored in {db}" in done.stderr
        assert "run the same command with --resume" in done.stderr
        assert 0 < len(stored) < GAMES
        assert set(stored) <= set(uninterrupted)  # whole games, each as the uninterrupted run played it
    code = main(_command(duel_file, db)[3:])
    refusal = capsys.readouterr().err
    if len(stored) < GAMES:
        assert code == 2 and "add --resume to play only the missing games" in refusal
    assert main(_command(duel_file, db, "--resume")[3:]) == 0
    assert f"{len(stored)} games of the run were already stored" in capsys.readouterr().out or len(stored) == GAMES
    assert _stored(db) == uninterrupted


def test_a_killed_run_keeps_whole_games_only_and_resume_ends_with_exactly_the_games_asked_for(duel_file, tmp_path,
                                                                                            uninterrupted):
    db = tmp_path / "sim.duckdb"
    done = _interrupt_when_stored(_command(duel_file, db), db, signal.SIGKILL, group=False)
    assert done.returncode in (0, -signal.SIGKILL)
    stored = _stored(db)
    assert set(stored) <= set(uninterrupted)
    with EventStore(str(db)) as store:  # every stored game is whole: its chain verifies to its sealed head
        ids = [game for game, _, _ in stored]
        assert all(store.verify(game).ok for game in ids[:3] + ids[-3:])
    assert main(_command(duel_file, db, "--resume")[3:]) == 0
    assert _stored(db) == uninterrupted
    with duckdb.connect(str(db), read_only=True) as conn:
        assert conn.execute("SELECT count(*), count(DISTINCT id) FROM games").fetchall() == [(GAMES, GAMES)]
        assert conn.execute("SELECT count(*) FROM outcomes WHERE branch = 'main'").fetchall() == [(GAMES,)]


def test_resume_refuses_a_run_played_by_other_bots_or_with_more_games_than_asked(duel_file, tmp_path):
    db = tmp_path / "sim.duckdb"
    rules = get_ruleset("aeronautica/wov-2019")
    matchup = load_matchup(duel_file)
    simulate(matchup, rules, games=4, seed=3, bots=("random", "random"), db=db)
    with pytest.raises(SimulationError, match="was played by random, random under aeronautica/wov-2019"):
        simulate(matchup, rules, games=6, seed=3, bots=("greedy", "random"), db=db, resume=True)
    with pytest.raises(SimulationError, match="already has game 3, beyond the 2 games asked for"):
        simulate(matchup, rules, games=2, seed=3, bots=("random", "random"), db=db, resume=True)
    with pytest.raises(ValueError, match="only a run stored in a DuckDB file"):
        simulate(matchup, rules, games=2, seed=3, resume=True)
    finished = simulate(matchup, rules, games=6, seed=3, bots=("random", "random"), db=db, resume=True)
    assert finished.resumed == 4 and [r.index for r in finished.results] == list(range(6))


def test_ctrl_c_in_this_process_keeps_the_games_played_and_raises_a_message(duel_file, tmp_path, monkeypatch):
    """Ctrl-C inside a local run: the games already played are written, whole, before the message."""
    db = tmp_path / "sim.duckdb"
    rules = get_ruleset("aeronautica/wov-2019")
    real = sim_runner.run_task
    calls = []

    def interrupted_on_the_third_chunk(task):
        calls.append(task)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(task)

    monkeypatch.setattr(sim_runner, "run_task", interrupted_on_the_third_chunk)
    with pytest.raises(SimulationInterrupted, match=r"20 of the 40 games of run sim-duel-wov-2019-s3 are stored") \
            as caught:
        simulate(load_matchup(duel_file), rules, games=40, seed=3, bots=("random", "random"), db=db, chunk=10)
    assert caught.value.stored == 20
    assert len(_stored(db)) == 20
