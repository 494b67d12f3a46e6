"""Several processes on one file: two writers race (one wins, one is told it is stale), and a writer
killed mid-batch leaves the batch wholly absent."""

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

from tests.store.conftest import ROOT
from tests.store.games import new_session, tally_game
from tests.store.tally import tally_envelopes
from tests.support.bidding import play_scripted_game


def child(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "tests.store.processes", *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for(path: Path, process: subprocess.Popen, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        if process.poll() is not None:
            raise AssertionError(f"child exited early: {process.communicate()[1]}")
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.01)


def test_two_processes_append_at_once_one_wins_one_is_stale(store, db_path, tmp_path):
    session = new_session(game_id="contested")
    play_scripted_game(session, bids=((2, 1),))
    store.save_session(session)
    head = session.seq

    go = tmp_path / "go"
    writers = []
    for name, bids in (("a", ("1", "3")), ("b", ("3", "1"))):
        ready = tmp_path / f"ready-{name}"
        writers.append((child("continue", str(db_path), "contested", f"seed-{name}", *bids, str(ready), str(go)),
                        ready))
    for process, ready in writers:
        wait_for(ready, process)
    # Both have loaded the game at the same head. Hold the file while they start their appends,
    # so that both find it locked and must retry; then let go.
    holder = duckdb.connect(str(db_path))
    go.touch()
    time.sleep(0.3)
    holder.close()

    results = []
    for process, _ in writers:
        out, err = process.communicate(timeout=60)
        assert process.returncode == 0, err
        results.append(json.loads(out))
    outcomes = sorted(result["result"] for result in results)
    assert outcomes == ["appended", "stale"]
    winner = next(r for r in results if r["result"] == "appended")
    loser = next(r for r in results if r["result"] == "stale")
    assert (loser["expected"], loser["actual"]) == (head, winner["head"])
    assert "nothing was written" in loser["message"]

    stored = store.records("contested")
    assert [r.seq for r in stored] == list(range(1, winner["head"] + 1))  # none lost, none doubled
    assert [bytes(r.payload).decode() for r in stored[head:]] == winner["payloads"]
    assert store.verify("contested").ok


@pytest.mark.parametrize("when", ["rows inserted, not committed", "while hashing and inserting"])
def test_a_writer_killed_mid_batch_leaves_all_or_nothing(store, db_path, tmp_path, when):
    game = tally_game()
    store.create_game(game)
    store.append(game.id, "main", tally_envelopes(game.id, 1, 1000), expected_seq=0)

    started = tmp_path / "started"
    flags = ["--pause-before-commit"] if when.startswith("rows") else []
    writer = child("bulk", str(db_path), game.id, "1001", "300000", str(started), *flags)
    wait_for(started, writer)
    if not flags:
        time.sleep(0.25)  # the transaction is open: somewhere in hashing or inserting 300,000 events
    os.kill(writer.pid, signal.SIGKILL)
    writer.wait(timeout=30)
    assert writer.returncode == -signal.SIGKILL

    head = store.head(game.id)
    assert head in (1000, 301_000), head
    if flags:
        assert head == 1000
    assert store.verify(game.id).ok
    records = store.records(game.id)
    assert [r.seq for r in records] == list(range(1, head + 1))
    assert store.append(game.id, "main", tally_envelopes(game.id, head + 1, 10), expected_seq=head) == head + 10
