"""``aero record`` stopped early (issue 16 item 8) and kept going while the database is busy (item 10).

* The end of input or Ctrl-C, in the set-up questions or in play: a clear message, no traceback, the game as
  far as recorded kept, and the command that goes on with it printed so that it runs as printed. Exit codes
  (documented in aero_events/cli/record_commands.py): 0 for the end of input in play (like ``quit``), 2 for
  the end of input in the set-up (no game could be stored), 130 for Ctrl-C.
* Another process holding the DuckDB file for longer than the old limit (~10 s): the recorder queues the
  commands, says so, and writes them in order once the file is free: nothing lost, nothing doubled.
"""

from __future__ import annotations

import io
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from aero_events.cli import main
from aero_events.record import recorder as recorder_module
from aero_events.record.recorder import TableRecorder
from aero_events.rulesets.aeronautica import AeronauticaRules
from aero_events.store import EventStore, StoreError
from tests.record.table import (
    GAME_ID,
    ScriptedTable,
    cli_arguments,
    is_dice_prompt,
    new_setup,
    record_scripted_game,
)

#: How long the other process holds the file: longer than the recorder used to survive (two 5 s waits).
HOLD_SECONDS = 11.0
ROOT = Path(__file__).resolve().parents[2]
#: The scripted game is played to its QUIT-th answer (``quit``): enough turns, and a short test.
QUIT = 16


def quit_at(index: int):
    return lambda number, prompt, recorder: "quit" if number == index else None


def _script(answers: list[str]) -> str:
    return "".join(f"{answer}\n" for answer in answers)


@pytest.fixture(scope="module", autouse=True)
def salts_sealed_as_in_the_reference():
    """The reference game and the games compared with it seal their secrets alike: the recorder's salt seed
    (random in play) pinned to the game id, as tests/record/conftest.py does for its own tests (this module
    must not depend on that one having run first)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(recorder_module, "new_salt_seed", lambda: GAME_ID)
        yield


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The scripted game recorded through the recorder's ask/say up to its QUIT-th answer: its answers
    (the last one ``quit``) and final state hash."""
    store = EventStore(tmp_path_factory.mktemp("reference") / "reference.duckdb")
    table = record_scripted_game(store, quit_at(QUIT))
    assert table.answers[-1] == "quit"
    return table, store.state_hash(GAME_ID)


def _middle(table) -> int:
    """An answer in the middle of the script, at a decision (not a dice prompt), just after a command."""
    return next(i for i in range(len(table.answers) // 2, len(table.answers))
                if table.seqs[i] > table.seqs[i - 1] and not is_dice_prompt(table.prompts[i]))


def _printed_resume(out: str) -> list[str]:
    line = next(line for line in out.splitlines() if "go on with: " in line)
    return shlex.split(line.split("go on with: ", 1)[1])


def _aero(argv: list[str], answers: list[str], cwd: Path) -> subprocess.CompletedProcess:
    """A printed ``aero ...`` command run as printed (its first word the program), answers on stdin."""
    return subprocess.run(argv, input="".join(f"{answer}\n" for answer in answers), capture_output=True,
                          text=True, cwd=cwd, timeout=300, check=False)


def test_the_end_of_input_in_play_keeps_the_game_and_prints_a_resume_command_that_runs(
        tmp_path, monkeypatch, capsys, reference):
    table, final_hash = reference
    middle = _middle(table)
    db = tmp_path / "eof.duckdb"
    monkeypatch.setattr("sys.stdin", io.StringIO(_script(table.answers[:middle])))
    assert main(cli_arguments(db, tmp_path)) == 0
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert f"Stopped after event {table.seqs[middle]} of branch main (the input ended)" in out
    assert EventStore(db).head(GAME_ID) == table.seqs[middle]
    resume = _printed_resume(out)
    assert resume[resume.index("record"):] == ["record", "--resume", GAME_ID, "--branch", "main", "--db", str(db)]
    finished = _aero(resume, table.answers[middle:], Path.cwd())
    assert finished.returncode == 0, finished.stderr
    assert f"Recording game {GAME_ID} on branch main, after event {table.seqs[middle]}" in finished.stdout
    assert EventStore(db).state_hash(GAME_ID) == final_hash


def test_the_end_of_input_in_the_set_up_questions_is_one_error_line_and_stores_nothing(tmp_path, monkeypatch,
                                                                                        capsys):
    db = tmp_path / "setup.duckdb"
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n"))  # the first force's Squadron List, then nothing
    assert main(["record", "--db", str(db), "--players", "imperium", "orks", "--points", "25", "--board", "3x3",
                 "--game", "cut-short"]) == 2
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert err.strip().splitlines()[-1].startswith("aero: error: the input ended during the set-up questions")
    assert not db.exists() or EventStore(db).games() == []


def _start_recorder(args: list[str], log: Path) -> subprocess.Popen:
    with open(log, "w") as out:
        return subprocess.Popen([sys.executable, "-m", "aero_events.cli", *args], stdin=subprocess.PIPE,
                                stdout=out, stderr=subprocess.STDOUT, text=True, cwd=ROOT)


def _wait_for(predicate, process: subprocess.Popen, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert process.poll() is None, "the recorder stopped by itself"
        if predicate():
            return
        time.sleep(0.2)
    raise TimeoutError("the recorder never got there")


def _head(db: Path) -> int:
    try:
        return EventStore(db, lock_timeout=20).head(GAME_ID) if db.exists() else -1
    except StoreError:
        return -1


def _ctrl_c_when(process: subprocess.Popen, ready, settle: float = 0.0) -> None:
    """Ctrl-C to the recorder once ``ready()`` holds (and ``settle`` seconds more); it must exit with 130. A
    recorder that does not stop is killed."""
    try:
        _wait_for(ready, process)
        time.sleep(settle)
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=60) == 130
    finally:
        if process.poll() is None:
            process.kill()


def test_ctrl_c_in_play_keeps_the_game_exits_130_and_prints_the_resume_command(tmp_path, reference):
    table, _ = reference
    middle = _middle(table)
    db = tmp_path / "interrupted.duckdb"
    log = tmp_path / "recorder.out"
    process = _start_recorder(cli_arguments(db, tmp_path), log)
    process.stdin.write(_script(table.answers[:middle]))
    process.stdin.flush()
    _ctrl_c_when(process, lambda: _head(db) >= table.seqs[middle], settle=0.5)  # then at the next question
    out = log.read_text()
    assert "Traceback" not in out and "KeyboardInterrupt" not in out
    assert f"Stopped after event {table.seqs[middle]} of branch main (Ctrl-C)" in out
    assert EventStore(db).head(GAME_ID) == table.seqs[middle]
    resume = _printed_resume(out)  # runs as printed: see the end-of-input test
    assert resume[resume.index("record"):] == ["record", "--resume", GAME_ID, "--branch", "main", "--db", str(db)]


def test_ctrl_c_in_the_set_up_questions_exits_130_and_stores_nothing(tmp_path):
    db = tmp_path / "setup-interrupted.duckdb"
    log = tmp_path / "recorder.out"
    process = _start_recorder(["record", "--db", str(db), "--players", "imperium", "orks", "--points", "25",
                               "--board", "3x3", "--game", "never"], log)
    _ctrl_c_when(process, lambda: "Squadron List" in log.read_text())
    out = log.read_text()
    assert "Traceback" not in out and "KeyboardInterrupt" not in out
    assert "Stopped (Ctrl-C) before the game was stored: nothing was recorded." in out
    assert not db.exists() or EventStore(db).games() == []


LOCK_HOLDER = """
import sys, time
import duckdb
conn = duckdb.connect(sys.argv[1])
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
conn.close()
"""


def test_the_recorder_keeps_its_game_while_another_process_holds_the_database(tmp_path, reference):
    """Issue 16 item 10: the file locked for 11 s in mid-game; every command is written, in order, once."""
    table, final_hash = reference
    db = tmp_path / "busy.duckdb"
    store = EventStore(db)
    holder: list[subprocess.Popen] = []
    middle = _middle(table)
    # Lock the file once the game has reached the middle: every command after it meets a busy database.

    def lock_in_the_middle(index: int, prompt: str, recorder) -> str | None:
        if index == middle and not holder:
            process = subprocess.Popen([sys.executable, "-c", LOCK_HOLDER, str(db), str(HOLD_SECONDS)],
                                       stdout=subprocess.PIPE, text=True)
            assert process.stdout.readline().strip() == "locked"
            holder.append(process)
        return None

    started = time.monotonic()
    try:
        busy = record_scripted_game(store, lambda index, prompt, recorder: lock_in_the_middle(
            index, prompt, recorder) or quit_at(QUIT)(index, prompt, recorder))
    finally:
        for process in holder:
            process.wait(timeout=60)
    assert holder, "the database was never locked"
    waiting = [line for line in busy.said if "database busy" in line]
    assert waiting and "command(s) waiting to be written" in waiting[0]
    assert time.monotonic() - started >= HOLD_SECONDS * 0.9  # the lock was really held past the old limit
    assert busy.answers == table.answers  # the game went on through the lock
    assert store.state_hash(GAME_ID) == final_hash
    report = store.verify(GAME_ID)
    assert report.ok, report
    assert store.head(GAME_ID) == busy.recorder.session.seq == table.seqs[-1]
    assert len(store.events(GAME_ID)) == busy.recorder.session.seq  # nothing lost, nothing doubled
    assert [line for line in busy.said if "Stopped after event" in line]


def test_a_resume_hint_names_the_database_by_its_full_path(tmp_path, monkeypatch, capsys):
    """Issue 16 item 6: a store named by a relative --db is printed by its full path, so the command runs
    wherever it is typed."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    arguments = cli_arguments(tmp_path / "unused.duckdb", tmp_path)
    arguments[arguments.index("--db") + 1] = "relative.duckdb"
    assert main(arguments) == 0
    resume = _printed_resume(capsys.readouterr().out)
    assert resume[resume.index("--db") + 1] == str(tmp_path / "relative.duckdb")
    assert os.path.isabs(resume[resume.index("--db") + 1])


def test_giving_up_on_a_busy_database_names_the_commands_that_were_not_stored(tmp_path, reference, monkeypatch):
    """A second Ctrl-C while the recorder waits for the database at the end: it gives up, exits 130 and
    names the commands that were not stored; everything before them is stored and the game resumes there."""
    table, _ = reference
    db = tmp_path / "given-up.duckdb"
    store = EventStore(db, lock_timeout=0.5)
    middle = _middle(table)
    holder: list[subprocess.Popen] = []

    def lock_in_the_middle(index: int, prompt: str, recorder) -> str | None:
        if index == middle and not holder:
            process = subprocess.Popen([sys.executable, "-c", LOCK_HOLDER, str(db), "300"], stdout=subprocess.PIPE,
                                       text=True)
            assert process.stdout.readline().strip() == "locked"
            holder.append(process)
        return quit_at(QUIT)(index, prompt, recorder)

    def second_ctrl_c(recorder) -> None:  # the person gives up at the first "database busy ... trying again"
        if not recorder._write_waiting(patient=True):
            raise KeyboardInterrupt

    monkeypatch.setattr(TableRecorder, "_finish_writing", second_ctrl_c)
    rules = AeronauticaRules()
    scripted = ScriptedTable(store, lock_in_the_middle)
    recorder = TableRecorder.new_game(store, rules, new_setup(rules), game_id=GAME_ID, metadata={}, ask=scripted.ask,
                                      say=scripted.say, ask_secret=scripted.ask_secret)
    scripted.recorder = recorder
    try:
        assert recorder.run() == 130
        lost = [line for line in scripted.said if "were NOT stored" in line]
        assert lost and "type them again" in lost[0] and "--resume" in lost[0]
    finally:
        for process in holder:
            process.kill()
            process.wait(timeout=60)
    assert EventStore(db).head(GAME_ID) == table.seqs[middle]  # everything before the lock is stored
    assert EventStore(db).verify(GAME_ID).ok
