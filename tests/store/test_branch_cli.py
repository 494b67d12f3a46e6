"""Issue 17 item 1 at the command line: ``aero branch`` (fork on a command boundary or --snap, --promote,
--rename, --delete) and ``aero branches``, ``show``, ``games``, ``export`` following the main line."""

from __future__ import annotations

import json

from aero_events.cli import main
from aero_events.store import EventStore
from tests.store.games import END_OF_TURN_1
from tests.support.bidding import play_scripted_game


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def played_alt(db_path, saved) -> int:
    alt = saved.fork(END_OF_TURN_1, "alt")
    play_scripted_game(alt, bids=((1, 3), (3, 1)))
    EventStore(db_path).save_session(alt)
    return alt.seq


def test_a_fork_inside_a_command_is_refused_naming_both_boundaries_and_the_snap(capsys, db_path, saved):
    inside = END_OF_TURN_1 + 1  # the CommandIssued of turn 2's first command: its event follows
    code, _, err = run(capsys, "branch", "game-1", "--at", str(inside), "--name", "x", "--db", str(db_path))
    assert code != 0
    assert f"fork at {END_OF_TURN_1} (before that command) or {END_OF_TURN_1 + 2} (after it)" in err
    assert f"--snap forks at {END_OF_TURN_1}, --snap after at {END_OF_TURN_1 + 2}" in err
    assert set(EventStore(db_path).branch_tree("game-1")) == {"main"}
    code, out, _ = run(capsys, "branch", "game-1", "--at", str(inside), "--name", "x", "--snap", "--db",
                       str(db_path))
    assert code == 0 and f"forks main at event {END_OF_TURN_1} (event {inside} is inside a command: snapped)" in out


def test_promote_makes_show_games_and_branches_follow_the_main_line(capsys, db_path, saved):
    head = played_alt(db_path, saved)
    code, out, _ = run(capsys, "branch", "game-1", "--promote", "alt", "--db", str(db_path))
    assert code == 0 and "alt is now the main line of game game-1 (main is a variation)" in out
    assert "alt: forks main at 15" in out and "★ main line" in out.split("alt: forks main", 1)[1]
    code, out, _ = run(capsys, "show", "game-1", "--db", str(db_path))
    assert code == 0 and out.splitlines()[0].startswith(f"game game-1 (test/bidding), branch alt: {head} events")
    assert "the main line" in out.splitlines()[0]
    code, out, _ = run(capsys, "games", "--db", str(db_path))
    row = next(line for line in out.splitlines() if "game-1" in line)
    assert f"│ {head:>6} │" in row and "2 (main line alt)" in row
    code, out, _ = run(capsys, "branches", "game-1", "--db", str(db_path))
    assert "(main line: alt)" in out


def test_rename_and_delete_at_the_command_line_keep_verify_and_export_ok(capsys, db_path, saved, tmp_path):
    played_alt(db_path, saved)
    code, out, _ = run(capsys, "branch", "game-1", "--rename", "alt", "second", "--db", str(db_path))
    assert code == 0 and "branch alt of game game-1 is now called second" in out
    code, out, _ = run(capsys, "verify", "game-1", "--db", str(db_path))
    assert code == 0 and "ok" in out
    code, out, _ = run(capsys, "branch", "game-1", "--promote", "second", "--db", str(db_path))
    code, _, err = run(capsys, "branch", "game-1", "--delete", "second", "--db", str(db_path))
    assert code != 0 and "is the main line" in err and "--promote" in err
    run(capsys, "branch", "game-1", "--promote", "main", "--db", str(db_path))
    code, out, _ = run(capsys, "branch", "game-1", "--delete", "second", "--db", str(db_path))
    assert code == 0 and "deleted branch second of game game-1" in out and "deleted: second" in out
    code, out, _ = run(capsys, "verify", "game-1", "--db", str(db_path))
    assert code == 0 and "ok" in out
    path = tmp_path / "after.jsonl"
    code, _, _ = run(capsys, "export", "game-1", str(path), "--db", str(db_path))
    assert code == 0 and json.loads(path.read_text().splitlines()[0])["branch_count"] == 1


def test_options_of_another_action_are_refused(capsys, db_path, saved):
    code, _, err = run(capsys, "branch", "game-1", "--promote", "main", "--snap", "--db", str(db_path))
    assert code != 0 and "--snap cannot go with --promote" in err
    code, _, err = run(capsys, "branch", "game-1", "--at", "15", "--db", str(db_path))
    assert code != 0 and "--at needs --name" in err
