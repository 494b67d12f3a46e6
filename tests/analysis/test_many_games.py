"""Outcomes, win rates and damage by aircraft type over many stored games, in SQL."""

from __future__ import annotations

import pytest

from aero_events.analysis import aircraft_type_summary, game_outcomes
from aero_events.store import EventStore
from tests.viz.games import bot_session

MATCHUPS = [
    (0, ("thunderbolt", "thunderbolt"), ("dakkajet", "dakkajet")),
    (1, ("marauder",), ("fighta_bommer", "dakkajet")),
    (2, ("thunderbolt_fury", "thunderbolt"), ("dakkajet",)),
]


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    store = EventStore(tmp_path_factory.mktemp("many") / "aero.duckdb")
    sessions = []
    for seed, imperium, orks in MATCHUPS:
        session = bot_session(seed, imperium=imperium, orks=orks)
        store.save_session(session)
        sessions.append(session)
    store.sessions = sessions
    return store


def test_outcomes_name_each_games_winner_and_forces(store):
    with store.connection() as conn:
        rows = {row["game"]: row for row in game_outcomes(conn).to_pylist()}
    assert len(rows) == len(MATCHUPS)
    for session, (_, imperium, orks) in zip(store.sessions, MATCHUPS, strict=True):
        ended = [e.event for e in session.events() if e.event.type_name() == "ai.GameEnded"][-1]
        row = rows[session.game_id]
        assert row["winner"] == ended.winner and row["turns"] == session.events()[-1].turn
        assert row["forces"] == [f"imperium: {'+'.join(sorted(imperium))}", f"orks: {'+'.join(sorted(orks))}"]


def test_the_summary_by_aircraft_type_adds_up(store):
    with store.connection() as conn:
        rows = {row["profile"]: row for row in aircraft_type_summary(conn).to_pylist()}
    fielded = {}
    for _, imperium, orks in MATCHUPS:
        for profile in (*imperium, *orks):
            fielded[profile] = fielded.get(profile, 0) + 1
    assert {p: r["aircraft"] for p, r in rows.items()} == fielded
    wins = {}
    for session, (_, imperium, orks) in zip(store.sessions, MATCHUPS, strict=True):
        winner = [e.event for e in session.events() if e.event.type_name() == "ai.GameEnded"][-1].winner
        for player, force in (("imperium", imperium), ("orks", orks)):
            for profile in set(force):
                wins[profile] = wins.get(profile, 0) + (winner == player)
    assert {p: r["wins"] for p, r in rows.items()} == wins
    for row in rows.values():
        assert row["win_rate"] == pytest.approx(row["wins"] / row["sides"], abs=1e-3)
    taken = sum(e.event.hits for s in store.sessions for e in s.events() if e.event.type_name() == "ai.DamageSuffered")
    assert sum(r["damage_taken"] for r in rows.values()) == taken
