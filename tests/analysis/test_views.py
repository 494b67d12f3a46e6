"""SQL views over the events table (and a Parquet export) agree with the folded game."""

from __future__ import annotations

import duckdb
import pytest

from aero_events.analysis import VIEW_NAMES, create_views, luck_table
from aero_events.analysis.timeline import load_timeline
from aero_events.core import DiceRolled
from aero_events.store import EventStore
from tests.viz.games import eventful_session


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    store = EventStore(tmp_path_factory.mktemp("views") / "aero.duckdb")
    session = eventful_session()
    store.save_session(session)
    return store, session.game_id


def _count(conn, sql):
    return conn.execute(sql).fetchall()[0][0]


def test_create_views_makes_temporary_views_that_leave_the_file_alone(stored):
    store, _ = stored
    with store.connection() as conn:
        assert create_views(conn) == list(VIEW_NAMES)
        names = {row[0] for row in conn.sql("SELECT view_name FROM duckdb_views() WHERE temporary").fetchall()}
        assert set(VIEW_NAMES) <= names
    with store.connection() as conn:  # a new connection: the views are gone
        assert not conn.sql("SELECT view_name FROM duckdb_views() WHERE view_name = 'dice_rolls'").fetchall()


def test_dice_views_agree_with_the_python_luck(stored):
    store, game = stored
    timeline = load_timeline(store, game)
    rolls = [env.event for env in timeline.envelopes if isinstance(env.event, DiceRolled)]
    table = luck_table(timeline)
    with store.connection() as conn:
        create_views(conn)
        assert _count(conn, "SELECT count(*) FROM dice_rolls") == len(rolls)
        assert conn.sql("SELECT faces FROM dice_rolls ORDER BY seq").fetchall() == [(list(r.faces),) for r in rolls]
        assert _count(conn, "SELECT count(*) FROM dice_luck") == table.num_rows
        ((expected, actual),) = conn.execute("SELECT sum(expected), sum(actual) FROM dice_luck").fetchall()
    assert expected == pytest.approx(sum(table.column("expected").to_pylist()))
    assert actual == sum(table.column("actual").to_pylist())


def test_movement_shot_damage_and_result_views(stored):
    store, game = stored
    events = store.events(game)
    flown = [e.event for e in events if e.event.type_name() == "ai.ManoeuvreFlown"]
    fired = [e.event for e in events if e.event.type_name() == "ai.WeaponFired" and e.event.target]
    hits = [e.event.hits for e in events if e.event.type_name() == "ai.HitsScored"]
    suffered = sum(e.event.hits for e in events if e.event.type_name() == "ai.DamageSuffered")
    ended = [e.event for e in events if e.event.type_name() == "ai.GameEnded"]
    with store.connection() as conn:
        create_views(conn)
        assert conn.sql("SELECT aircraft, q, r, hexes_flown FROM movements ORDER BY seq").fetchall() == [
            (f.aircraft, f.hex[0], f.hex[1], len(f.path) + len(f.pushed)) for f in flown]
        assert conn.sql("SELECT aircraft, target, band, dice FROM shots ORDER BY seq").fetchall() == [
            (f.aircraft, f.target, f.band, f.dice) for f in fired]
        assert _count(conn, "SELECT sum(hits) FROM shots") == sum(hits)
        assert _count(conn, "SELECT coalesce(sum(hits), 0) FROM damage") == suffered
        assert conn.sql("SELECT winner FROM game_results").fetchall() == [(e.winner,) for e in ended]
        aircraft = conn.sql("SELECT aircraft, player, profile FROM game_aircraft ORDER BY aircraft").fetchall()
    state = eventful_session().branch.state_at(0)
    assert aircraft == sorted((a.id, a.owner, a.profile) for a in state.aircraft.values())


def test_views_read_a_parquet_export_in_place(stored, tmp_path):
    store, game = stored
    path = tmp_path / "events.parquet"
    count = store.export_parquet(path)
    conn = duckdb.connect()
    created = create_views(conn, events=f"read_parquet('{path}')", games=None)
    assert "game_aircraft" not in created
    assert _count(conn, "SELECT count(*) FROM dice_rolls") == sum(
        1 for e in store.events(game) if isinstance(e.event, DiceRolled))
    assert count == len(store.events(game))
