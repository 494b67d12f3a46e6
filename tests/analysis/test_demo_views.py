"""Issue 11, item 7: after ``aero demo`` the database file answers plain SQL, with no Python setup step."""

from __future__ import annotations

import duckdb

from aero_events.cli import main


def test_after_aero_demo_a_new_connection_reads_every_view(tmp_path, capsys):
    path = tmp_path / "aero.duckdb"
    assert main(["demo", "--db", str(path)]) == 0
    capsys.readouterr()
    conn = duckdb.connect(str(path))  # what `duckdb aero.duckdb` does: nothing of ours runs first
    try:
        (game, ruleset, *_), = conn.execute("SELECT * FROM games").fetchall()
        assert ruleset.startswith("aeronautica")
        assert conn.execute("SELECT * FROM games_overview").fetchall()[0][0] == game
        by_type = dict(conn.execute("SELECT type, sum(events) FROM events_by_type GROUP BY type").fetchall())
        assert by_type["DiceRolled"] == conn.execute("SELECT count(*) FROM dice_rolls").fetchall()[0][0] > 0
        assert sum(by_type.values()) == conn.execute("SELECT count(*) FROM events").fetchall()[0][0]
        for kind, sides, mean, expected in conn.execute(
                "SELECT kind, sides, mean_face, expected_mean FROM dice_by_purpose").fetchall():
            assert expected == (sides + 1) / 2 and 1 <= mean <= sides, kind
        (_finished, head), = conn.execute("SELECT finished, head_seq FROM outcomes WHERE branch = 'main'").fetchall()
        assert head == conn.execute("SELECT max(seq) FROM events WHERE branch = 'main'").fetchall()[0][0]
        for view in ("aeronautica_movements", "aeronautica_shots", "aeronautica_damage", "aeronautica_results",
                     "aeronautica_pieces", "aeronautica_piece_stats", "aeronautica_dice_luck"):
            conn.execute(f"SELECT * FROM {view}").fetchall()
        assert conn.execute("SELECT count(*) FROM aeronautica_shots").fetchall()[0][0] > 0  # seed 22 fires
        assert conn.execute("SELECT count(*) FROM aeronautica_pieces").fetchall()[0][0] > 0
    finally:
        conn.close()
