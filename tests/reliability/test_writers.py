"""Issue 16: N writer processes (at least 4) appending to one game and saving different games of one file:
events lost 0, doubled 0, spliced 0, chain breaks 0. ``make soak`` runs more writers and more events."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import defaultdict

import pytest

from aero_events.store import EventStore
from tests.reliability.conftest import report
from tests.store.conftest import ROOT
from tests.store.games import tally_game


def spawn(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "tests.reliability.workers", *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def run_writers(db, appenders: int, per_writer: int, batch: int, savers: int, games_each: int) -> dict:
    store = EventStore(db)
    store.create_game(tally_game("shared"))
    processes = [spawn("append", str(db), "shared", str(w), str(per_writer), str(batch)) for w in range(appenders)]
    processes += [spawn("save", str(db), str(w), str(games_each)) for w in range(savers)]
    results = []
    for process in processes:
        out, err = process.communicate(timeout=900)
        assert process.returncode == 0, err
        results.append(json.loads(out))
    records = store.records("shared")
    marks = [json.loads(bytes(r.payload))["purpose"] for r in records]
    by_writer: dict[str, list[int]] = defaultdict(list)
    for mark in marks:
        writer, number = mark[1:].split(":")
        by_writer[writer].append(int(number))
    lost = sum(per_writer - len(set(numbers)) for numbers in by_writer.values()) + \
        per_writer * (appenders - len(by_writer))
    doubled = sum(len(numbers) - len(set(numbers)) for numbers in by_writer.values())
    spliced = sum(numbers != sorted(numbers) for numbers in by_writer.values())  # a writer's events in its order
    seqs_ok = [r.seq for r in records] == list(range(1, len(records) + 1))
    saved = [game for result in results for game in result.get("saved", [])]
    chain_breaks = sum(not store.verify(game_id).ok for game_id in ["shared", *saved])
    stored_games = {summary.id for summary in store.games()}
    figures = {"writers": appenders + savers, "events": len(records), "lost": lost, "doubled": doubled,
               "spliced": spliced, "chain breaks": chain_breaks, "games missing": len(set(saved) - stored_games),
               "stale retries": sum(r.get("stale", 0) for r in results), "seqs contiguous": seqs_ok}
    return figures


def assert_clean(figures: dict) -> None:
    assert (figures["lost"], figures["doubled"], figures["spliced"], figures["chain breaks"],
            figures["games missing"], figures["seqs contiguous"]) == (0, 0, 0, 0, 0, True), figures


def test_four_appenders_and_two_savers_on_one_file_lose_double_and_splice_nothing(tmp_path):
    figures = run_writers(tmp_path / "shared.duckdb", appenders=4, per_writer=30, batch=5, savers=2, games_each=2)
    assert_clean(figures)


@pytest.mark.soak
def test_soak_many_writers(tmp_path):
    figures = run_writers(tmp_path / "shared.duckdb", appenders=6, per_writer=60, batch=3, savers=3, games_each=2)
    report("writers", **figures)
    assert_clean(figures)
