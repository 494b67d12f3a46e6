"""The ``aero`` command: store commands through ``main([...])``, and ``python -m aero_events.cli``."""

from __future__ import annotations

import json
import subprocess
import sys

import duckdb
import pytest

from aero_events.cli import COMMAND_MODULES, main
from aero_events.store import EventStore
from tests.store.conftest import ROOT
from tests.store.games import END_OF_TURN_1
from tests.support.bidding import play_scripted_game


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_store_commands_are_registered_by_their_module():
    assert "aero_events.cli.store_commands" in COMMAND_MODULES


def test_games_lists_each_game(capsys, db_path, saved):
    code, out, _ = run(capsys, "games", "--db", str(db_path))
    assert code == 0
    assert "game-1" in out and "test/bidding" in out and "alice, bob" in out
    assert f"{saved.seq}" in out


def test_games_on_an_empty_or_missing_store(capsys, tmp_path):
    EventStore(tmp_path / "empty.duckdb").games()
    code, out, _ = run(capsys, "games", "--db", str(tmp_path / "empty.duckdb"))
    assert code == 0 and "no games in" in out
    code, out, _ = run(capsys, "games", "--db", str(tmp_path / "missing.duckdb"))
    assert code == 0 and "no store at" in out
    code, _, err = run(capsys, "show", "g", "--db", str(tmp_path / "missing.duckdb"))
    assert code == 2 and "no store at" in err
    assert not (tmp_path / "missing.duckdb").exists()


def test_show_prints_the_events_turn_by_turn(capsys, db_path, saved):
    code, out, _ = run(capsys, "show", "game", "--db", str(db_path))  # a unique prefix will do
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith(f"game game-1 (test/bidding), branch main: {saved.seq} events")
    turn_headers = [i for i, line in enumerate(lines) if "Turn " in line]
    assert len(turn_headers) == 2 and "Turn 1" in lines[turn_headers[0]]
    first = lines[turn_headers[0] + 1].split()
    assert first[:4] == ["1", "bid", "alice", "SecretCommandIssued"]
    assert lines[turn_headers[0] + 2].split()[:4] == ["2", "bid", "alice", "test.BidPlaced"]
    assert any("DiceRolled" in line and "faces=[" in line and 'purpose="bid roll"' in line for line in lines)
    assert any("StateCheckpoint turn=2 state_hash=" in line for line in lines)
    assert len(lines) == 1 + 2 + saved.seq  # title, a header per turn, one line per event


def test_show_a_branch_includes_the_events_it_shares(capsys, db_path, saved):
    alt = saved.fork(END_OF_TURN_1, "alt")
    play_scripted_game(alt, bids=((1, 3),))
    EventStore(db_path).save_session(alt)
    code, out, _ = run(capsys, "show", "game-1", "--branch", "alt", "--db", str(db_path))
    assert code == 0 and f"branch alt: {alt.seq} events" in out
    seqs = [int(line.split()[0]) for line in out.splitlines() if line.split() and line.split()[0].isdigit()]
    assert seqs == list(range(1, alt.seq + 1))


def test_show_as_a_player_hides_the_others_secrets(capsys, db_path, saved):
    _, out, _ = run(capsys, "show", "game-1", "--turn", "1", "--player", "bob", "--db", str(db_path))
    lines = {line.split()[0]: line for line in out.splitlines() if line.split()[:1] and line.split()[0].isdigit()}
    alice_command, alice_bid, bob_command, bob_bid = (lines[seq] for seq in ("1", "2", "3", "4"))
    for hidden in (alice_command, alice_bid):
        assert "Redacted" in hidden and "amount" not in hidden and "salt" not in hidden
    assert "SecretCommandIssued" in bob_command and "amount:1" in bob_command
    assert "test.BidPlaced amount=1" in bob_bid
    assert "Turn 2" not in out


def test_branch_creates_a_fork_and_shows_the_tree(capsys, db_path, saved):
    code, out, _ = run(capsys, "branch", "game-1", "--at", "8", "--name", "what-if", "--db", str(db_path))
    assert code == 0
    assert "branch what-if of game game-1 forks main at event 8" in out
    assert "what-if: forks main at 8, 0 own events, head 8" in out
    code, out, _ = run(capsys, "branch", "game-1", "--at", "4", "--name", "deeper", "--from", "what-if",
                       "--db", str(db_path))
    assert code == 0 and "deeper: forks what-if at 4" in out
    assert EventStore(db_path).branch_tree("game-1")["deeper"].parent == "what-if"
    code, out, _ = run(capsys, "branches", "game-1", "--db", str(db_path))
    assert code == 0 and "deeper" in out and "what-if" in out


def test_verify_exits_0_when_ok_and_1_naming_the_event_when_not(capsys, db_path, saved):
    code, out, _ = run(capsys, "verify", "game-1", "--db", str(db_path))
    assert code == 0 and "ok" in out
    with duckdb.connect(str(db_path)) as conn:
        conn.execute("UPDATE events SET payload = replace(payload, 'alice', 'alicf') WHERE seq = 5")
    code, out, _ = run(capsys, "verify", "game-1", "--db", str(db_path))
    assert code == 1
    assert "FAILED" in out and "branch 'main' seq 5" in out and "altered" in out


def test_export_and_import_through_the_command(capsys, db_path, tmp_path, saved):
    path = tmp_path / "game.jsonl"
    code, out, _ = run(capsys, "export", "game-1", str(path), "--db", str(db_path))
    assert code == 0 and f"wrote {saved.seq} events" in out
    assert json.loads(path.read_text().splitlines()[0])["game_id"] == "game-1"
    other = tmp_path / "other.duckdb"
    code, out, _ = run(capsys, "import", str(path), "--db", str(other))
    assert code == 0 and f"imported game game-1 ({saved.seq} events)" in out
    assert EventStore(other).verify("game-1").ok

    code, _, err = run(capsys, "import", str(path), "--db", str(other))
    assert code == 2 and "already in the store" in err
    code, _, _ = run(capsys, "import", str(path), "--replace", "--db", str(other))
    assert code == 0

    parquet = tmp_path / "game.parquet"
    code, out, _ = run(capsys, "export", "game-1", str(parquet), "--db", str(db_path))
    assert code == 0 and "(parquet)" in out
    assert duckdb.sql(f"SELECT count(*) FROM '{parquet}'").fetchall() == [(saved.seq,)]


@pytest.mark.parametrize(("argv", "message"), [
    (["show", "nope"], "no game 'nope' in the store"),
    (["show", "game-1", "--branch", "ghost"], "has no branch 'ghost'"),
    (["branch", "game-1", "--at", "99", "--name", "x"], "cannot fork at 99"),
    (["verify", "nope"], "no game 'nope'"),
    (["import", "missing.jsonl"], "No such file"),
])
def test_errors_print_one_line_and_exit_2(capsys, db_path, saved, argv, message):
    code, _, err = run(capsys, *argv, "--db", str(db_path))
    assert code == 2
    assert err.startswith("aero: error: ") and message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_a_malformed_import_names_the_line(capsys, db_path, tmp_path, saved):
    path = tmp_path / "game.jsonl"
    EventStore(db_path).export_jsonl("game-1", path)
    lines = path.read_text().splitlines()
    assert '"seq":2,' in lines[3]  # line 4: header, one branch, event 1, event 2
    lines[3] = lines[3].replace('"seq":2,', '"seq":"2",')
    path.write_text("\n".join(lines) + "\n")
    code, _, err = run(capsys, "import", str(path), "--db", str(tmp_path / "fresh.duckdb"))
    assert code == 2 and "line 4" in err and "field 'seq'" in err


def test_the_module_runs_as_a_command_on_a_game_written_by_another_process(tmp_path):
    db = tmp_path / "shared.duckdb"
    writer = subprocess.run([sys.executable, "-m", "tests.store.processes", "record", str(db)], cwd=ROOT,
                            capture_output=True, text=True, timeout=120, check=False)
    assert writer.returncode == 0, writer.stderr
    game_id = writer.stdout.strip()

    def aero(*argv: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "aero_events.cli", *argv, "--db", str(db)], cwd=tmp_path,
                              capture_output=True, text=True, timeout=120, check=False)

    # Issue 16, item 2: a reader that cannot load the game's ruleset shows nothing of its events (their raw
    # payloads hold the players' secrets), and says why in one line.
    shown = aero("show", game_id, "--player", "bob")
    assert shown.returncode == 2 and "unknown ruleset 'test/bidding'" in shown.stderr
    assert "Traceback" not in shown.stderr and "salt" not in shown.stdout + shown.stderr
    listed = aero("games")
    assert listed.returncode == 0 and game_id in listed.stdout
    # This process has not imported the test ruleset: verify says so in one line instead of a traceback.
    verified = aero("verify", game_id)
    assert verified.returncode == 2 and "unknown ruleset 'test/bidding'" in verified.stderr
    assert "Traceback" not in verified.stderr
