"""Issue 16: SIGKILL at points spread over appends and imports: files that fail to open 0, partial batches
visible 0, and every stored game still verifies. ``make soak`` kills more often."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import time
from collections import Counter

import pytest

from aero_events.store import EventStore
from tests.reliability.conftest import branched_game, report
from tests.reliability.test_writers import spawn
from tests.store.games import tally_game

BATCH = 300


def delays(count: int, low: float, high: float) -> list[float]:
    """Kill times spread over [low, high) seconds, the same on every run (sha256, not a random module)."""
    return [low + (high - low) * int.from_bytes(hashlib.sha256(f"kill-{n}".encode()).digest()[:4], "big") / 2**32
            for n in range(count)]


def kill_after(process, delay: float) -> None:
    time.sleep(delay)
    os.kill(process.pid, signal.SIGKILL)
    process.wait(timeout=30)


def kill_appends(db, kills: int) -> dict:
    store = EventStore(db)
    store.create_game(tally_game("bulk"))
    failed_opens = partial = 0
    for delay in delays(kills, 0.8, 2.5):
        kill_after(spawn("bulk", str(db), "bulk", str(BATCH)), delay)
        try:
            records = store.records("bulk")
        except Exception:  # noqa: BLE001 -- counted: the figure must be 0
            failed_opens += 1
            continue
        sizes = Counter(json.loads(bytes(r.payload))["purpose"] for r in records)
        partial += sum(size != BATCH for size in sizes.values())
    events = len(store.records("bulk"))
    return {"kills": kills, "failed opens": failed_opens, "partial batches": partial,
            "events": events, "verify ok": store.verify("bulk").ok}


def kill_imports(db, source, kills: int) -> dict:
    store = EventStore(db)
    expected = len(source.read_bytes().splitlines()) - 3  # header and two branch lines
    failed_opens = partial = 0
    for delay in delays(kills, 0.8, 2.5):
        kill_after(spawn("reimport", str(db), str(source)), delay)
        try:
            games = {summary.id: summary.all_events for summary in store.games()}  # every branch
        except Exception:  # noqa: BLE001
            failed_opens += 1
            continue
        if "game-1" in games:
            partial += games["game-1"] != expected or not store.verify("game-1").ok
    return {"kills": kills, "failed opens": failed_opens, "partial imports": partial}


def test_appends_killed_at_any_point_leave_whole_batches_and_a_file_that_opens(tmp_path):
    figures = kill_appends(tmp_path / "killed.duckdb", kills=3)
    assert (figures["failed opens"], figures["partial batches"], figures["verify ok"]) == (0, 0, True), figures


def test_imports_killed_at_any_point_leave_the_game_whole_or_absent(tmp_path):
    source = tmp_path / "game.jsonl"
    origin = EventStore(tmp_path / "origin.duckdb")
    branched_game(origin)
    origin.export_jsonl("game-1", source)
    figures = kill_imports(tmp_path / "killed.duckdb", source, kills=3)
    assert (figures["failed opens"], figures["partial imports"]) == (0, 0), figures


@pytest.mark.soak
def test_soak_kills(tmp_path):
    appends = kill_appends(tmp_path / "appends.duckdb", kills=25)
    report("SIGKILL during appends", **appends)
    source = tmp_path / "game.jsonl"
    origin = EventStore(tmp_path / "origin.duckdb")
    branched_game(origin)
    origin.export_jsonl("game-1", source)
    imports = kill_imports(tmp_path / "imports.duckdb", source, kills=25)
    report("SIGKILL during imports", **imports)
    assert (appends["failed opens"], appends["partial batches"], appends["verify ok"]) == (0, 0, True)
    assert (imports["failed opens"], imports["partial imports"]) == (0, 0)
