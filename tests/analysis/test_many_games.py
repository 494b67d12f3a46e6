"""Outcomes, win rates and damage by piece type over many stored games, in SQL over the file's views."""

from __future__ import annotations

import pytest

from aero_events.analysis import game_outcomes, piece_type_summary
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
    finished = [s for s in store.sessions if s.ruleset.outcome(s.state).finished]
    assert set(rows) == {s.game_id for s in finished} and finished
    for session, (_, imperium, orks) in zip(store.sessions, MATCHUPS, strict=True):
        if session not in finished:
            continue
        outcome = session.ruleset.outcome(session.state)
        row = rows[session.game_id]
        assert row["winner"] == outcome.winner and row["reason"] == outcome.reason
        assert row["turns"] == session.events()[-1].turn and row["events"] == len(session.events())
        assert row["forces"] == [f"imperium: {'+'.join(sorted(imperium))}", f"orks: {'+'.join(sorted(orks))}"]


def test_the_summary_by_piece_type_adds_up(store):
    with store.connection() as conn:
        rows = {row["piece_type"]: row for row in piece_type_summary(conn).to_pylist()}
    finished = [(s, m) for s, m in zip(store.sessions, MATCHUPS, strict=True)
                if s.ruleset.outcome(s.state).finished]
    fielded, wins = {}, {}
    for session, (_, imperium, orks) in finished:
        winner = session.ruleset.outcome(session.state).winner
        for profile in (*imperium, *orks):
            fielded[profile] = fielded.get(profile, 0) + 1
        for player, force in (("imperium", imperium), ("orks", orks)):
            for profile in set(force):
                wins[profile] = wins.get(profile, 0) + (winner == player)
    assert {p: r["pieces"] for p, r in rows.items()} == fielded
    assert {p: r["wins"] for p, r in rows.items()} == wins
    for row in rows.values():
        assert row["win_rate"] == pytest.approx(row["wins"] / row["sides"], abs=1e-3)
    taken = sum(e.event.hits for s, _ in finished for e in s.events() if e.event.type_name() == "ai.DamageSuffered")
    assert sum(r["damage_taken"] for r in rows.values()) == taken
    shots = sum(1 for s, _ in finished for e in s.events()
                if e.event.type_name() == "ai.WeaponFired" and e.event.target)
    assert sum(r["shots"] for r in rows.values()) == shots
