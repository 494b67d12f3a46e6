"""`aero demo` and `aero play` (issue: a full game played, stored and narrated; same seed, same stream)."""

from __future__ import annotations

import argparse

import aero_events.rulesets.aeronautica  # noqa: F401  (the stored events' types)
from aero_events.cli import main
from aero_events.cli.play import run as run_play
from aero_events.core import encode_event
from aero_events.store import EventStore


def test_the_demo_plays_stores_and_narrates_a_whole_dogfight(tmp_path, capsys):
    db = str(tmp_path / "demo.duckdb")
    assert main(["demo", "--db", db, "--seed", "7"]) == 0
    told = capsys.readouterr().out
    assert "wins the set-up roll-off" in told and "=== Turn 1 ===" in told
    assert "Victory points" in told and "=== Game over" in told
    assert "verify: ok" in told and "aero show demo-7" in told
    with EventStore(db) as store:
        assert [g.id for g in store.games()] == ["demo-7"]
        assert store.verify("demo-7").ok


def test_a_second_demo_with_the_same_seed_gives_a_byte_identical_event_stream(tmp_path, capsys):
    db = str(tmp_path / "demo.duckdb")
    main(["demo", "--db", db, "--seed", "3"])
    main(["demo", "--db", db, "--seed", "3"])
    capsys.readouterr()
    with EventStore(db) as store:
        first = [encode_event(e.event) for e in store.events("demo-3")]
        second = [encode_event(e.event) for e in store.events("demo-3-2")]
    assert first == second and len(first) > 50


def test_a_person_plays_at_the_terminal_choosing_among_legal_commands(tmp_path):
    """Typed answers in the ruleset's notation: a beginning narrows the list, a number chooses, 'board' shows the
    table, 'auto' lets the bot choose, 'q' stops and stores (tests/cli/test_play.py has the rest)."""
    answers = iter(["imperium roll", "1", "board", "imperium-1", "auto", "q"])
    said: list[str] = []
    args = argparse.Namespace(db=str(tmp_path / "play.duckdb"), side="imperium", bot="random", seed=1)
    assert run_play(args, ask=lambda prompt: next(answers), say=said.append) == 0
    text = "\n".join(said)
    assert "imperium rolloff" in text
    assert "imperium-1" in text and "undeployed" in text  # the board
    assert "12,150 choices matching 'imperium-1'" in text
    assert "the bot chooses: imperium-" in text and " placed at " in text
    assert "Stored" in text
    with EventStore(args.db) as store:
        games = store.games()
    assert len(games) == 1 and games[0].id.startswith("play-1-")
