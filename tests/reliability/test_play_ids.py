"""Issue 16, item 6: ``aero play`` reserves its game id when the game starts, so two plays of one seed
running at the same time are stored as two games (the second used to be lost)."""

from __future__ import annotations

import argparse

from aero_events.cli.play import run as run_play
from aero_events.store import EventStore


def test_two_plays_of_one_seed_at_the_same_time_are_both_stored(tmp_path):
    db = str(tmp_path / "play.duckdb")
    said: list[str] = []

    def second_play_then_quit(prompt: str) -> str:
        if not said or "Stored" not in said[-1]:  # while the first game waits for its first answer...
            args = argparse.Namespace(db=db, side="imperium", bot="random", seed=1)
            assert run_play(args, ask=lambda prompt: "q", say=said.append) == 0  # ...another play runs whole
        return "q"

    first = argparse.Namespace(db=db, side="imperium", bot="random", seed=1)
    assert run_play(first, ask=second_play_then_quit, say=said.append) == 0
    stored = [line for line in said if line.startswith("Stored")]
    assert len(stored) == 2
    ids = sorted(summary.id for summary in EventStore(db).games())
    assert ids == ["play-1-1", "play-1-2"]
    assert all(EventStore(db).verify(game_id).ok for game_id in ids)
