"""``aero record`` at the command line: a whole game typed on standard input, a recording process killed
mid-game and resumed, forces typed in from the catalogue's choices."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time

import pytest

from aero_events.cli import main
from aero_events.record import recorder
from aero_events.store import EventStore, StoreError
from aero_events.store.games import game_metadata
from tests.record.table import GAME_ID, cli_arguments, is_dice_prompt, record_scripted_game


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The scripted game recorded through the recorder's ask/say: its answers and final state hash."""
    store = EventStore(tmp_path_factory.mktemp("reference") / "reference.duckdb")
    table = record_scripted_game(store)
    return table, store.state_hash(GAME_ID)


def _type(monkeypatch, answers):
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{answer}\n" for answer in answers)))


def test_a_whole_game_typed_on_standard_input_is_recorded(tmp_path, monkeypatch, capsys, reference):
    table, final_hash = reference
    _type(monkeypatch, table.answers)
    db = tmp_path / "cli.duckdb"
    assert main(cli_arguments(db, tmp_path)) == 0
    out = capsys.readouterr().out
    assert "Set-up: roll off (p.34)" in out and "recorded: imperium rolloff [rolloff 5]" in out
    assert "The game is over" in out
    store = EventStore(db)
    assert store.state_hash(GAME_ID) == final_hash and store.verify(GAME_ID).ok


def _wait_for_head(db, head: int, process: subprocess.Popen, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert process.poll() is None, "the recorder stopped by itself"
        if db.exists():
            try:
                if EventStore(db, lock_timeout=20).head(GAME_ID) >= head:
                    return
            except StoreError:  # the game is not created yet
                time.sleep(0.2)
        time.sleep(0.2)
    raise TimeoutError(f"the recorder never stored event {head}")


def test_a_killed_recorder_loses_nothing_but_the_answer_being_typed_and_resumes(tmp_path, monkeypatch, capsys,
                                                                                reference):
    table, _ = reference
    # Stop at a decision (not a dice prompt) in the middle of the game, just after a command was recorded.
    middle = next(i for i in range(len(table.answers) // 2, len(table.answers))
                  if table.seqs[i] > table.seqs[i - 1] and not is_dice_prompt(table.prompts[i]))
    db = tmp_path / "killed.duckdb"
    with open(tmp_path / "recorder.out", "w") as log:
        process = subprocess.Popen([sys.executable, "-m", "aero_events.cli", *cli_arguments(db, tmp_path)],
                                   stdin=subprocess.PIPE, stdout=log, stderr=subprocess.STDOUT, text=True)
        try:
            process.stdin.write("".join(f"{answer}\n" for answer in table.answers[:middle]))
            process.stdin.write(table.answers[middle][:3])  # half typed when the process dies
            process.stdin.flush()
            _wait_for_head(db, table.seqs[middle], process)
            time.sleep(0.3)
            os.kill(process.pid, signal.SIGKILL)
            process.wait(timeout=30)
        finally:
            if process.poll() is None:
                process.kill()
    assert process.returncode == -signal.SIGKILL
    store = EventStore(db)
    assert store.head(GAME_ID) == table.seqs[middle]  # every answer before the one being typed is stored
    assert store.verify(GAME_ID).ok

    _type(monkeypatch, table.answers[middle:])
    assert main(["record", "--resume", GAME_ID, "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert f"Recording game {GAME_ID} on branch main, after event {table.seqs[middle]}" in out
    assert "The game is over" in out
    # The recorder process drew its own random salt seed (the session-wide pin of tests/record/conftest.py does
    # not reach a subprocess): the same answers recorded under that seed give the same game.
    salt_seed = game_metadata(store.game(GAME_ID))["salt_seed"]
    assert salt_seed != GAME_ID
    monkeypatch.setattr(recorder, "new_salt_seed", lambda: salt_seed)
    same_seed = EventStore(tmp_path / "same-seed.duckdb")
    record_scripted_game(same_seed)
    assert store.state_hash(GAME_ID) == same_seed.state_hash(GAME_ID)


def test_forces_are_typed_in_from_the_catalogues_choices(tmp_path, monkeypatch, capsys):
    answers = [
        "1", "",  # imperium: Imperial Navy, default name
        "done",  # not yet: no aircraft
        "thunderbolt", "", "4 4",  # Imperial Ace twice: refused (p.36)
        "1", "", "", "done",  # a Thunderbolt, no extras
        "2", "Da Kult",  # orks: Ork Air Waaagh!
        "1", "1 1", "", "done",  # a Dakkajet with two Rokkits
        "quit",
    ]
    _type(monkeypatch, answers)
    db = tmp_path / "typed.duckdb"
    assert main(["record", "--db", str(db), "--players", "imperium", "orks", "--points", "25", "--board", "3x3",
                 "--game", "typed"]) == 0
    out = capsys.readouterr().out
    assert "not yet legal: Building a Force (p.9): force 'Imperial Navy' has no aircraft" in out
    assert "refused: Aircraft Upgrades (p.36)" in out and "no upgrade can be taken twice" in out
    assert "Stopped after event 0 of branch main" in out
    setup = EventStore(db).load_game("typed").setup
    assert [(side.player, side.force.name, [(e.aircraft, e.weapons) for e in side.force.aircraft])
            for side in setup.sides] == [("imperium", "Imperial Navy", [("thunderbolt", ())]),
                                         ("orks", "Da Kult", [("dakkajet", ("rokkits", "rokkits"))])]


def test_a_bad_start_is_one_error_line(tmp_path, monkeypatch, capsys):
    db = tmp_path / "x.duckdb"
    assert main(["record", "--db", str(db), "--resume", "nothing-here"]) == 2
    assert "aero: error: no game 'nothing-here' in the store" in capsys.readouterr().err
    _type(monkeypatch, ["quit"])
    arguments = cli_arguments(db, tmp_path)
    assert main(arguments) == 0
    assert main(arguments) == 2
    assert "game table-test is already in the store: go on with it with --resume table-test" in \
        capsys.readouterr().err
