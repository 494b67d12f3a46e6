"""Shared fixtures for the store tests: a store in tmp_path and a played game (saved or not)."""

from __future__ import annotations

from pathlib import Path

import pytest

from aero_events.core import GameSession
from aero_events.store import EventStore
from tests.store.games import played_session

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "aero.duckdb"


@pytest.fixture
def store(db_path: Path) -> EventStore:
    return EventStore(db_path)


@pytest.fixture
def session() -> GameSession:
    return played_session()


@pytest.fixture
def saved(store: EventStore, session: GameSession) -> GameSession:
    """The played game, saved in ``store``."""
    store.save_session(session)
    return session
