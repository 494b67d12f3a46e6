"""Issue 16, items 5, 7 and 10: ``--db`` is a DuckDB file or a new path; ids and names are validated on
the way in and escaped on the way out; reads open the file read-only."""

from __future__ import annotations

import subprocess
import sys
import time

import duckdb
import pytest

from aero_events.cli import main
from aero_events.core import DataError, Game
from aero_events.core.ids import MAX_NAME_LENGTH, check_id, check_label, for_rich, for_terminal
from aero_events.store import EventStore, StoreBusy, StoreError
from aero_events.store.database import DUCKDB_MAGIC
from tests.store.conftest import ROOT
from tests.store.games import played_session, tally_game
from tests.store.tally import TallyRules, TallySetup


@pytest.mark.parametrize(("name", "content"), [
    ("game.jsonl", b'{"format":"aero-events/jsonl"}\n'),
    ("results.csv", b"a,b\n1,2\n"),
    ("notes.txt", b"hello"),
    ("empty.duckdb", b""),
    ("short.duckdb", b"DUCK"),
])
def test_a_db_that_is_not_a_duckdb_file_is_refused_and_left_alone(tmp_path, name, content):
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(StoreError, match="refusing to use it as the store"):
        EventStore(path).games()
    with pytest.raises(StoreError):
        EventStore(path).save_session(played_session())
    assert path.read_bytes() == content


@pytest.mark.parametrize("name", ["new.jsonl", "new.csv", "new.parquet"])
def test_a_new_db_named_like_a_data_file_is_refused(tmp_path, name):
    with pytest.raises(StoreError, match="data file"):
        EventStore(tmp_path / name).games()
    assert not (tmp_path / name).exists()


def test_a_directory_is_refused_and_a_new_path_or_a_duckdb_file_is_used(tmp_path):
    with pytest.raises(StoreError, match="directory"):
        EventStore(tmp_path).games()
    store = EventStore(tmp_path / "fresh.store")
    assert store.games() == []
    assert (tmp_path / "fresh.store").read_bytes()[8:12] == DUCKDB_MAGIC


def test_aero_import_and_demo_refuse_a_jsonl_db(tmp_path, capsys):
    """The issue's case: `--db game.jsonl` reported success and stored nothing."""
    target = tmp_path / "game.jsonl"
    target.write_text('{"not": "a store"}\n')
    assert main(["games", "--db", str(target)]) == 2
    assert "refusing to use it as the store" in capsys.readouterr().err


@pytest.mark.parametrize("bad", ["", " ", "a\nb", "nul\x00", "x" * (MAX_NAME_LENGTH + 1), "[/]",
                                 "[link=https://evil.example]click", "\x1b[31mred", "\x1b]8;;x\x07", " padded",
                                 "rtl\u202eoverride", 42])
def test_bad_ids_are_refused_with_what_is_wrong(bad):
    with pytest.raises(DataError, match="invalid game id"):
        check_id(bad, "game id")


def test_good_ids_and_labels_pass():
    for good in ("game-1", "demo-22-2", "2026-11-23 club night", "x" * MAX_NAME_LENGTH, "Ørsted/alt.2"):
        assert check_id(good, "game id") == good
    assert check_label("what if [bob] turned left") == "what if [bob] turned left"
    assert check_label("") == ""
    with pytest.raises(DataError):
        check_label("two\nlines")


def test_the_store_refuses_bad_names_before_writing(store):
    for game_id in ("a\nb", "[/]", "x" * 1_000_000):  # (Game makes an empty id a fresh uuid)
        with pytest.raises(DataError):
            store.create_game(Game(TallyRules(), TallySetup(), game_id))
    session = played_session()
    store.save_session(session)
    for name in ("", "\x1b[2J", "[link=x]y"):
        with pytest.raises(DataError):
            store.fork("game-1", "main", 4, name)
    with pytest.raises(DataError):
        store.fork("game-1", "main", 4, "ok-name", label="bell\x07")
    bad = played_session(game_id="other")
    bad.game.fork("main", 2, "a\nb")
    with pytest.raises(DataError):
        store.save_session(bad)
    assert [summary.id for summary in store.games()] == ["game-1"]
    assert list(store.branch_tree("game-1")) == ["main"]


def test_text_shown_on_a_terminal_is_escaped():
    assert for_terminal("\x1b[31mred\x00\n") == "\\x1b[31mred\\x00\\x0a"
    assert for_terminal("plain [b]text[/b]") == "plain [b]text[/b]"
    assert for_rich("[link=https://x]y[/link]") == "\\[link=https://x]y\\[/link]"


def test_aero_games_and_branches_show_stored_markup_and_escapes_as_text(db_path, capsys):
    """A game stored before names were checked (written by SQL here) cannot reach the terminal as markup."""
    store = EventStore(db_path)
    store.create_game(tally_game("plain"))
    with duckdb.connect(str(db_path)) as conn:
        conn.execute("UPDATE games SET id = '[link=https://evil]x[/link]\x1b[2J' WHERE id = 'plain'")
        conn.execute("UPDATE branches SET game = '[link=https://evil]x[/link]\x1b[2J', label = '[/]\x07'")
    assert main(["games", "--db", str(db_path)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "[link=https://evil]" in out.replace("\n", "")
    assert main(["branches", "[link=https://evil]x", "--db", str(db_path)]) == 0
    out = capsys.readouterr().out
    assert "\x07" not in out and "[/]" in out


def test_reads_open_the_file_read_only_so_readers_share_it(db_path, saved):
    """Another process holds the file read-only for two seconds; this one still reads at once (a read-write
    open would have to wait for it)."""
    hold = "import duckdb, sys, time; c = duckdb.connect(sys.argv[1], read_only=True); print('open', flush=True); " \
        "time.sleep(2)"
    holder = subprocess.Popen([sys.executable, "-c", hold, str(db_path)],
                              cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "open"
    started = time.monotonic()
    reader = EventStore(db_path, lock_timeout=0.5)
    assert [summary.id for summary in reader.games()] == ["game-1"]
    assert reader.verify("game-1").ok
    assert time.monotonic() - started < 1.5
    with pytest.raises(StoreBusy, match="--wait SECONDS"):  # a write must wait, and says how to wait longer
        reader.fork("game-1", "main", 4, "alt")
    holder.wait(timeout=10)
    assert reader.fork("game-1", "main", 4, "alt").fork_seq == 4


def test_aero_games_delete_removes_a_run_of_games_whole(db_path, capsys):
    """Issue 16, item 11: a killed `aero simulate --db` run can be removed, then run again."""
    store = EventStore(db_path)
    for game_id in ("run-a-0001", "run-a-0002", "keep-1"):
        store.save_session(played_session(game_id=game_id))
    assert main(["games", "--delete", "run-a-", "--db", str(db_path)]) == 0
    assert "removed 2 games" in capsys.readouterr().out
    assert [summary.id for summary in store.games()] == ["keep-1"]
    with store.connection() as conn:
        assert conn.execute("SELECT count(*) FROM events WHERE starts_with(game, 'run-a-')").fetchall() == [(0,)]
    with pytest.raises(DataError):
        store.delete_games("")
