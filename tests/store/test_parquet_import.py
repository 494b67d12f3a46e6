"""``aero import`` reads back the Parquet ``aero export`` writes (issue 17, item 5), with the checks a JSON
Lines import makes (issue 16, item 4); an imported game gets its ``game_outcomes`` rows like a played one;
``aero games --delete`` leaves no row of a removed game in any table."""

from __future__ import annotations

import duckdb
import pyarrow.parquet as pq
import pytest

from aero_events.cli import main
from aero_events.core.errors import DataError
from aero_events.store import EventStore
from aero_events.store.transfer import read_parquet
from tests.reliability.secrets_games import demo_game

FAMILIES = ("aeronautica", "wings-of-glory", "battlefleet-gothic")


@pytest.fixture(scope="module")
def source(tmp_path_factory):
    """Three rulesets' demo games in one store, exported together to one Parquet file."""
    folder = tmp_path_factory.mktemp("parquet")
    store = EventStore(folder / "source.duckdb")
    for family in FAMILIES:
        store.save_session(demo_game(family))
    path = folder / "corpus.parquet"
    store.export_parquet(path)
    return store, path


def _game_ids():
    return [demo_game(family).game_id for family in FAMILIES]


def test_a_parquet_export_imports_every_game_it_holds_identical_to_the_source(tmp_path, source, capsys):
    store, path = source
    target = tmp_path / "target.duckdb"
    assert main(["import", str(path), "--db", str(target)]) == 0
    assert "imported 3 game(s)" in capsys.readouterr().out
    imported = EventStore(target)
    for game_id in _game_ids():
        assert imported.state_hash(game_id) == store.state_hash(game_id)
        assert imported.verify(game_id).ok
        store.export_jsonl(game_id, tmp_path / "before.jsonl")
        imported.export_jsonl(game_id, tmp_path / "after.jsonl")
        assert (tmp_path / "before.jsonl").read_bytes() == (tmp_path / "after.jsonl").read_bytes()


def test_an_imported_game_has_its_outcome_row(tmp_path, source):
    """The outcomes view reads ``game_outcomes``; an import writes the row a played game gets."""
    store, path = source
    target = tmp_path / "target.duckdb"
    assert main(["import", str(path), "--db", str(target)]) == 0
    with duckdb.connect(str(target), read_only=True) as conn:
        rows = dict(conn.execute("SELECT game, winner FROM game_outcomes WHERE branch = 'main'").fetchall())
        source_rows = dict(duckdb.connect(str(store.path), read_only=True).execute(
            "SELECT game, winner FROM game_outcomes WHERE branch = 'main'").fetchall())
    assert set(rows) == set(_game_ids())
    assert rows == source_rows


def test_a_jsonl_import_writes_the_outcome_row_too(tmp_path, source):
    store, _ = source
    game_id = _game_ids()[0]
    path = tmp_path / "one.jsonl"
    store.export_jsonl(game_id, path)
    target = tmp_path / "target.duckdb"
    assert main(["import", str(path), "--db", str(target)]) == 0
    with duckdb.connect(str(target), read_only=True) as conn:
        assert conn.execute("SELECT count(*) FROM game_outcomes WHERE game = ?", [game_id]).fetchone()[0] == 1


def test_a_parquet_extract_made_with_where_is_refused_with_the_game_and_field(tmp_path, source):
    store, _ = source
    game_id = _game_ids()[0]
    extract = tmp_path / "extract.parquet"
    store.export_parquet(extract, where="seq > 5")
    with pytest.raises(DataError) as refused:
        read_parquet(extract)
    assert game_id in str(refused.value) and refused.value.field == "event_count"
    assert "an extract" in str(refused.value)


def test_a_tampered_parquet_row_is_refused_and_nothing_is_stored(tmp_path, source, capsys):
    """A changed payload in one game refuses the whole file (one transaction): no game of it is stored."""
    _, path = source
    table = pq.read_table(path)
    payloads = table.column("payload").to_pylist()
    index = next(i for i, payload in enumerate(payloads) if '"faces":[' in payload)
    payloads[index] = payloads[index].replace('"faces":[', '"faces":[6,', 1)
    tampered = tmp_path / "tampered.parquet"
    import pyarrow as pa
    pq.write_table(table.set_column(table.column_names.index("payload"), "payload", pa.array(payloads)), tampered)
    target = tmp_path / "target.duckdb"
    assert main(["import", str(tampered), "--db", str(target)]) == 2
    assert "tampered.parquet, game" in capsys.readouterr().err
    assert EventStore(target).games() == []


def test_a_parquet_file_without_the_preamble_column_is_refused(tmp_path):
    other = tmp_path / "other.parquet"
    with duckdb.connect() as conn:
        conn.execute(f"COPY (SELECT 1 AS game) TO '{other}' (FORMAT parquet)")
    with pytest.raises(DataError) as refused:
        read_parquet(other)
    assert "not a whole aero export" in str(refused.value)


def test_deleting_a_game_removes_its_rows_from_every_table(tmp_path, source):
    """``aero games --delete``: the events, branches, snapshots, outcomes and any table a tool added with a
    ``game`` column (the simulations' results, the recorder's) lose the game's rows."""
    _, path = source
    target = tmp_path / "target.duckdb"
    assert main(["import", str(path), "--db", str(target)]) == 0
    with duckdb.connect(str(target)) as conn:
        conn.execute("CREATE TABLE simulation_results (game VARCHAR, run VARCHAR)")
        conn.execute("INSERT INTO simulation_results SELECT id, 'r' FROM games")
    game_id = _game_ids()[1]
    assert main(["games", "--delete", game_id, "--db", str(target)]) == 0
    with duckdb.connect(str(target), read_only=True) as conn:
        tables = [row[0] for row in conn.execute(
            "SELECT DISTINCT c.table_name FROM duckdb_columns() c JOIN duckdb_tables() t USING (table_name) "
            "WHERE c.column_name = 'game'").fetchall()]
        assert "simulation_results" in tables and "game_outcomes" in tables
        for table in tables:
            assert conn.execute(f'SELECT count(*) FROM "{table}" WHERE game = ?', [game_id]).fetchone()[0] == 0
        assert conn.execute("SELECT count(*) FROM simulation_results").fetchone()[0] == 2
