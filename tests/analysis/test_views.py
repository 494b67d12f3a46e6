"""SQL views in the database file: there for any SQL client once the store has opened the file, true to the
folded games, filtered on each ruleset; and on a Parquet export through ``create_views``."""

from __future__ import annotations

import duckdb
import pytest

import tests.support.plugin_ruleset  # noqa: F401 - registers the Pawns ruleset
from aero_events.analysis import create_views, luck_table, view_names
from aero_events.analysis.timeline import load_timeline
from aero_events.bots import RandomBot, play
from aero_events.core import DiceRolled, GameSession, SeededDice
from aero_events.rulesets import get_ruleset
from aero_events.store import EventStore
from aero_events.store.views import GENERIC_VIEWS, install_views
from tests.viz.games import eventful_session

AERONAUTICA_VIEWS = ("aeronautica_events", "aeronautica_dice_luck", "aeronautica_movements", "aeronautica_shots",
                     "aeronautica_damage", "aeronautica_destroyed", "aeronautica_results", "aeronautica_pieces",
                     "aeronautica_piece_stats")


def pawns_session(seed: int = 1) -> GameSession:
    rules = get_ruleset("pawns")
    session = GameSession(rules, rules.scenarios()["meeting"].build({}, seed), dice=SeededDice(seed),
                          game_id=f"pawns-{seed}")
    play(session, {"red": RandomBot(seed), "blue": RandomBot(seed + 1)})
    return session


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    path = tmp_path_factory.mktemp("views") / "aero.duckdb"
    store = EventStore(path)
    session = eventful_session()
    store.save_session(session)
    pawns = pawns_session()
    store.save_session(pawns)
    return path, store, session, pawns


def _rows(path, sql, params=None):
    conn = duckdb.connect(str(path))  # a plain SQL client: no Python setup step
    try:
        return conn.execute(sql, params or []).fetchall()
    finally:
        conn.close()


def test_the_file_holds_every_view_for_any_sql_client(stored):
    path, *_ = stored
    names = {row[0] for row in _rows(path, "SELECT view_name FROM duckdb_views() WHERE NOT internal")}
    assert {name for name, _, _ in GENERIC_VIEWS} <= names
    assert set(AERONAUTICA_VIEWS) <= names and "pawns_moves" in names
    assert _rows(path, "SELECT count(*) FROM games")[0][0] == 2  # the table, not shadowed by a view


def test_opening_the_store_again_rewrites_nothing(stored):
    _path, store, *_ = stored
    with store.connection() as conn:
        assert install_views(conn) == []  # the fingerprint matches: one read, no writes


def test_games_overview_and_events_by_type(stored):
    path, _store, session, pawns = stored
    overview = {row[0]: row for row in _rows(path, "SELECT game, ruleset, events, last_turn, finished, winner "
                                                   "FROM games_overview")}
    for game in (session, pawns):
        assert overview[game.game_id][2] == len(game.events())
        assert overview[game.game_id][3] == game.events()[-1].turn
        outcome = game.ruleset.outcome(game.state)
        assert overview[game.game_id][4:] == (outcome.finished, outcome.winner)
    counted = dict(_rows(path, "SELECT type, sum(events) FROM events_by_type WHERE game = ? GROUP BY type",
                         [session.game_id]))
    expected: dict[str, int] = {}
    for env in session.events():
        expected[env.event.type_name()] = expected.get(env.event.type_name(), 0) + 1
    assert counted == expected
    turns = _rows(path, "SELECT DISTINCT turn FROM events_by_type WHERE game = ? ORDER BY turn", [session.game_id])
    assert [t for (t,) in turns] == sorted({env.turn for env in session.events()})


def test_dice_views_give_expected_against_actual_for_any_die(stored):
    path, _store, session, pawns = stored
    for game in (session, pawns):
        rolls = [env.event for env in game.events() if type(env.event) is DiceRolled]
        assert _rows(path, "SELECT count(*) FROM dice_rolls WHERE game = ?", [game.game_id])[0][0] == len(rolls)
    rows = _rows(path, "SELECT ruleset, kind, sides, dice, mean_face, expected_mean FROM dice_by_purpose "
                       "WHERE ruleset LIKE 'pawns%'")
    faces = [f for env in pawns.events() if type(env.event) is DiceRolled for f in env.event.faces]
    assert rows == [("pawns/v1", "move", 8, len(faces), pytest.approx(round(sum(faces) / len(faces), 3)), 4.5)]


def test_outcomes_are_the_rulesets_judgement_of_each_saved_branch(stored):
    path, _store, session, pawns = stored
    for game in (session, pawns):
        outcome = game.ruleset.outcome(game.state)
        row = _rows(path, "SELECT finished, winner, draw, reason, head_seq FROM outcomes WHERE game = ?",
                    [game.game_id])
        assert row == [(outcome.finished, outcome.winner, outcome.draw, outcome.reason, game.events()[-1].seq)]
        scores = dict(_rows(path, "SELECT side, score FROM outcome_scores WHERE game = ?", [game.game_id]))
        assert scores == outcome.scores


def test_the_aeronautica_dice_luck_agrees_with_the_python_luck(stored):
    path, store, session, _ = stored
    table = luck_table(load_timeline(store, session.game_id))
    (count, expected, actual), = _rows(path, "SELECT count(*), sum(expected), sum(actual) FROM aeronautica_dice_luck")
    assert count == table.num_rows
    assert expected == pytest.approx(sum(table.column("expected").to_pylist()))
    assert actual == sum(table.column("actual").to_pylist())


def test_aeronautica_views_read_only_aeronautica_games(stored):
    path, _store, session, pawns = stored
    events = session.events()
    flown = [e.event for e in events if e.event.type_name() == "ai.ManoeuvreFlown"]
    fired = [e.event for e in events if e.event.type_name() == "ai.WeaponFired" and e.event.target]
    hits = [e.event.hits for e in events if e.event.type_name() == "ai.HitsScored"]
    suffered = sum(e.event.hits for e in events if e.event.type_name() == "ai.DamageSuffered")
    ended = [e.event for e in events if e.event.type_name() == "ai.GameEnded"]
    assert _rows(path, "SELECT aircraft, q, r, hexes_flown FROM aeronautica_movements ORDER BY seq") == [
        (f.aircraft, f.hex[0], f.hex[1], len(f.path) + len(f.pushed)) for f in flown]
    assert _rows(path, "SELECT aircraft, target, band, dice FROM aeronautica_shots ORDER BY seq") == [
        (f.aircraft, f.target, f.band, f.dice) for f in fired]
    assert _rows(path, "SELECT sum(hits) FROM aeronautica_shots")[0][0] == sum(hits)
    assert _rows(path, "SELECT coalesce(sum(hits), 0) FROM aeronautica_damage")[0][0] == suffered
    assert _rows(path, "SELECT winner FROM aeronautica_results") == [(e.winner,) for e in ended]
    pieces = _rows(path, "SELECT piece, side, piece_type FROM aeronautica_pieces ORDER BY piece")
    state = session.branch.state_at(0)
    assert pieces == sorted((a.id, a.owner, a.profile) for a in state.aircraft.values())
    assert {g for (g,) in _rows(path, "SELECT DISTINCT game FROM aeronautica_events")} == {session.game_id}
    stats = {row[0]: row[1:] for row in _rows(path, "SELECT piece, damage_taken, destroyed FROM "
                                                    "aeronautica_piece_stats WHERE branch = 'main'")}
    for aircraft in session.state.aircraft.values():
        taken = sum(e.event.hits for e in events if e.event.type_name() == "ai.DamageSuffered"
                    and e.event.aircraft == aircraft.id)
        assert stats[aircraft.id] == (taken, aircraft.status == "destroyed")
    assert {g for (g,) in _rows(path, "SELECT DISTINCT game FROM pawns_moves")} == {pawns.game_id}


def test_views_read_a_parquet_export_in_place(stored, tmp_path):
    _path, store, session, pawns = stored
    export = tmp_path / "events.parquet"
    count = store.export_parquet(export)
    conn = duckdb.connect()
    created = create_views(conn, events=f"read_parquet('{export}')", games=None)
    assert "games_overview" not in created and "aeronautica_pieces" not in created
    assert {"event_log", "dice_rolls", "dice_by_purpose", "aeronautica_shots"} <= set(created)
    assert set(created) <= set(view_names())
    assert conn.execute("SELECT count(*) FROM dice_rolls").fetchall()[0][0] == sum(
        1 for game in (session, pawns) for e in game.events() if isinstance(e.event, DiceRolled))
    assert conn.execute("SELECT count(*) FROM aeronautica_shots").fetchall()[0][0] == sum(
        1 for e in session.events() if e.event.type_name() == "ai.WeaponFired" and e.event.target)
    assert count == len(session.events()) + len(pawns.events())


def test_many_outcomes_go_in_at_once_and_replace_older_rows(tmp_path):
    from aero_events.core.interface import Outcome
    from aero_events.store.views import insert_outcomes

    store = EventStore(tmp_path / "aero.duckdb")
    session = pawns_session(3)
    store.save_session(session)
    with store.connection() as conn:
        assert insert_outcomes(conn, [
            (session.game_id, "main", 99, Outcome(finished=True, winner="blue", scores={"red": 1, "blue": 2},
                                                  reason="a simulated end")),
            ("another-game", "main", 5, Outcome(finished=False, reason="under way")),
        ]) == 2
        rows = conn.execute("SELECT game, head_seq, finished, winner, reason, scores::VARCHAR FROM game_outcomes "
                            "ORDER BY game").fetchall()
    assert rows == [("another-game", 5, False, None, "under way", "{}"),
                    (session.game_id, 99, True, "blue", "a simulated end", '{"red":1,"blue":2}')]
