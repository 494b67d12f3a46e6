"""The reliability suite (issue 16): the store, the records and the secrets under attack.

Every test here has a bounded CI version (``make test``) and, where size matters, a longer one marked
``soak`` (``make soak``) that runs the same code with bigger numbers and prints the figures.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from aero_events.store import EventStore
from tests.store.games import END_OF_TURN_1, played_session
from tests.support.bidding import play_scripted_game

CREATED = datetime(2024, 5, 4, 18, 30, tzinfo=UTC)


def branched_game(store: EventStore, game_id: str = "game-1"):
    """A whole bidding game with a fork at the end of turn 1, saved."""
    session = played_session(game_id=game_id)
    alt = session.fork(END_OF_TURN_1, "alt")
    play_scripted_game(alt, bids=((1, 3),))
    store.save_session(alt, created=CREATED)
    return session


@pytest.fixture
def store(tmp_path: Path) -> EventStore:
    return EventStore(tmp_path / "aero.duckdb")


@pytest.fixture
def exported(tmp_path: Path, store: EventStore) -> Path:
    """A valid export of a branched game."""
    branched_game(store)
    path = tmp_path / "valid.jsonl"
    store.export_jsonl("game-1", path)
    return path


def stored_rows(store: EventStore) -> int:
    with store.connection() as conn:
        return conn.execute("SELECT (SELECT count(*) FROM games) + (SELECT count(*) FROM branches) "
                            "+ (SELECT count(*) FROM events) + (SELECT count(*) FROM snapshots)").fetchall()[0][0]


def report(name: str, **figures: object) -> None:
    """Print a soak run's figures (``make soak`` shows them with -s)."""
    print(f"\n[{name}] " + ", ".join(f"{key} {value}" for key, value in figures.items()))
