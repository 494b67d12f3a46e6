"""The ``aero`` command against a careless or hostile user: an output never overwrites a store, a player's view
shows nothing the rules hide from them, a read-only store is still read, and a refused command changes nothing."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from aero_events.cli import main
from aero_events.store import EventStore
from tests.reliability.conftest import stored_rows
from tests.reliability.secrets_games import forge
from tests.store.games import played_session


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("argv", [
    ("export", "game-1", "{db}"),
    ("export", "game-1", "{db}", "--format", "parquet"),
    ("export", "game-1", "{db}", "--format", "record"),
    ("export", "game-1", "{db}", "--player", "bob"),
    ("export", "game-1", "{other}"),
    ("replay", "game-1", "--out", "{db}", "--odds-playouts", "0"),
    ("report", "game-1", "--out", "{other}", "--odds-playouts", "0"),
    ("keygen", "{other}"),
])
def test_an_output_never_overwrites_a_store(capsys, tmp_path, db_path, saved, argv):
    """``aero export GAME aero.duckdb --db aero.duckdb`` emptied the store (the export opened it for writing
    while reading it); any other DuckDB file named as an output lost its games the same way."""
    other = tmp_path / "other.duckdb"
    EventStore(other).save_session(played_session("game-2"))
    before = {path: digest(path) for path in (db_path, other)}
    filled = [part.format(db=db_path, other=other) for part in argv]
    code, out, err = run(capsys, *filled, "--db", str(db_path)) if argv[0] != "keygen" else run(capsys, *filled)
    assert code == 2 and out == ""
    assert "is a DuckDB database (a store of games): an output never overwrites one, nothing was written" in err
    assert {path: digest(path) for path in (db_path, other)} == before
    assert [game.id for game in EventStore(db_path).games()] == ["game-1"]
    assert [game.id for game in EventStore(other).games()] == ["game-2"]


def test_a_signed_export_that_cannot_be_signed_writes_nothing(capsys, tmp_path, db_path, saved):
    """The key is read before the export is written: a missing key (or --sign on Parquet) leaves an earlier
    export, and its signatures, as they were."""
    export = tmp_path / "game.jsonl"
    export.write_text("an earlier export\n")
    code, _, err = run(capsys, "export", "game-1", str(export), "--sign", str(tmp_path / "missing.pem"),
                       "--db", str(db_path))
    assert code == 2 and "missing.pem: cannot read the key" in err
    parquet = tmp_path / "game.parquet"
    code, _, err = run(capsys, "export", "game-1", str(parquet), "--sign", str(tmp_path / "missing.pem"),
                       "--db", str(db_path))
    assert code == 2 and "only a JSON Lines export is signed" in err
    assert export.read_text() == "an earlier export\n" and not parquet.exists()


def test_show_as_a_player_withholds_the_checkpoints_state_hashes(capsys, db_path, saved):
    """A checkpoint's state hash covers every player's secrets: with a few secret values to try, a player would
    find the others' from it (store/viewer.py leaves it out of a player's copy, and so does show --player)."""
    hashes = [env.event.state_hash for env in saved.branch.envelopes() if env.type == "StateCheckpoint"]
    assert hashes
    _, organiser, _ = run(capsys, "show", "game-1", "--db", str(db_path))
    assert all(f"state_hash={state_hash[:10]}" in organiser for state_hash in hashes)
    for player in ("alice", "bob"):
        code, out, _ = run(capsys, "show", "game-1", "--player", player, "--db", str(db_path))
        assert code == 0 and out.count('StateCheckpoint turn=') == len(hashes)
        assert out.count('state_hash=""') == len(hashes)
        assert not any(state_hash[:6] in out for state_hash in hashes)


def _forged_import(capsys, tmp_path, lines: list[bytes], index: int, change) -> tuple[int, str]:
    """``aero import`` of the export with line ``index`` changed by ``change`` and the chain recomputed (a
    forger's file); the target store must be left as it was."""
    event = json.loads(lines[index])
    change(event)
    path = tmp_path / "forged.jsonl"
    path.write_bytes(forge([*lines[:index], json.dumps(event, separators=(",", ":")).encode(), *lines[index + 1:]]))
    target = tmp_path / "target.duckdb"
    code, _, err = run(capsys, "import", str(path), "--db", str(target))
    assert stored_rows(EventStore(target)) == 0
    return code, err


@pytest.mark.parametrize("kind", ["CommandIssued", "DiceRolled", "StateCheckpoint"])
def test_an_import_refuses_a_core_event_stamped_with_another_turn(capsys, tmp_path, kind):
    """The session stamps every event, the core's included, with the turn and phase the game was in; a command,
    a roll or a checkpoint moved to another turn (what ``aero show --turn`` and the SQL views read) is refused
    at its line like any other event."""
    lines = _export_lines(played_session(), tmp_path)
    index = next(i for i in range(2, len(lines)) if json.loads(lines[i])["type"] == kind
                 and json.loads(lines[i])["turn"] == 2)
    code, err = _forged_import(capsys, tmp_path, lines, index, lambda event: event.update(turn=1))
    assert code == 2
    assert f"forged.jsonl, line {index + 1}, field 'turn': stamped turn 1 phase" in err
    code, err = _forged_import(capsys, tmp_path, lines, index, lambda event: event.update(phase="nowhere"))
    assert code == 2 and f"line {index + 1}, field 'phase': stamped turn 2 phase 'nowhere'" in err


def test_an_import_refuses_a_sealed_command_given_to_the_other_player(capsys, tmp_path):
    """The commitment seals the command and its salt, not its owner; a player's copy shows a secret whole to its
    owner, so a sealed order of alice's that a file says bob owns would be handed to bob in his copy."""
    lines = _export_lines(played_session(), tmp_path)
    index = next(i for i in range(2, len(lines)) if json.loads(lines[i])["type"] == "SecretCommandIssued")
    owner = json.loads(lines[index])["payload"]["owner"]
    other = "bob" if owner == "alice" else "alice"
    code, err = _forged_import(capsys, tmp_path, lines, index, lambda event: event["payload"].update(owner=other))
    assert code == 2
    assert (f"line {index + 1}, field 'payload.owner': this sealed command of {owner!r} names {other!r} as its "
            "owner") in err


def _export_lines(session, tmp_path) -> list[bytes]:
    store = EventStore(tmp_path / "source.duckdb")
    store.save_session(session)
    path = tmp_path / "source.jsonl"
    store.export_jsonl(session.game_id, path)
    return path.read_bytes().splitlines()


@pytest.fixture
def unwritable(monkeypatch, db_path, saved) -> Path:
    """``saved``'s store as a file this process may only read."""
    return make_unwritable(monkeypatch, db_path)


def make_unwritable(monkeypatch, db_path: Path) -> Path:
    """The store as a file this process may only read (root ignores file modes, so the refusal to open it for
    writing is DuckDB's error, made here), its SQL views made by an earlier version of the package."""
    import duckdb

    from aero_events.store import StoreError, database

    with duckdb.connect(str(db_path)) as conn:
        conn.execute("UPDATE aero_views SET fingerprint = 'an earlier version' WHERE name = '(install key)'")
    real_connect = database.connect

    def connect(path: str, *, lock_timeout: float = 5.0, read_only: bool = False):
        if not read_only:
            raise StoreError(f'cannot open the store {path}: IO Error: Cannot open file "{path}": Permission denied')
        return real_connect(path, lock_timeout=lock_timeout, read_only=True)

    monkeypatch.setattr(database, "connect", connect)
    return db_path


@pytest.mark.parametrize("argv", [
    ("games",), ("show", "game-1"), ("branches", "game-1"), ("verify", "game-1"),
    ("export", "game-1", "{tmp}/game.jsonl"),
    ("replay", "game-1", "--out", "{tmp}/replay.html", "--odds-playouts", "0"),
    ("report", "game-1", "--out", "{tmp}/report.html", "--odds-playouts", "0"),
])
def test_every_command_that_only_reads_reads_a_store_it_may_not_write(capsys, tmp_path, unwritable, argv):
    """``aero replay``, ``report`` and ``odds`` opened the store for writing (to read the game's setup, to hold
    it while loading), so on a read-only file they failed where ``show`` and ``export`` worked; and a file whose
    SQL views an earlier version made could not be read at all (bringing the views up to date needs writing)."""
    before = digest(unwritable)
    code, out, err = run(capsys, *(part.format(tmp=tmp_path) for part in argv), "--db", str(unwritable))
    assert (code, err) == (0, ""), err
    assert "game-1" in out or str(tmp_path) in out
    assert digest(unwritable) == before


def test_odds_read_a_store_it_may_not_write(capsys, monkeypatch, db_path):
    """``aero odds`` held the store open for writing while it loaded the game."""
    assert main(["demo", "--ruleset", "million-colored-sun", "--db", str(db_path)]) == 0
    before = digest(make_unwritable(monkeypatch, db_path))
    capsys.readouterr()
    code, out, err = run(capsys, "odds", "demo-22", "--at", "0", "--playouts", "1", "--workers", "1",
                         "--db", str(db_path))
    assert (code, err) == (0, "") and "game demo-22, branch main, after event 0" in out
    assert digest(db_path) == before


def test_a_command_that_writes_says_it_cannot_write_the_store_in_one_line(capsys, tmp_path, unwritable):
    before = digest(unwritable)
    code, out, err = run(capsys, "branch", "game-1", "--at", "8", "--name", "what-if", "--db", str(unwritable))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "cannot open the store" in err and "Permission denied" in err
    assert digest(unwritable) == before


def test_a_players_parquet_copy_is_refused_as_a_players_copy(capsys, tmp_path, db_path, saved):
    """It has no preamble either: the refusal said "no column jsonl_preamble" instead of what the file is."""
    copy = tmp_path / "bob.parquet"
    assert main(["export", "game-1", str(copy), "--player", "bob", "--db", str(db_path)]) == 0
    capsys.readouterr()
    code, _, err = run(capsys, "import", str(copy), "--db", str(tmp_path / "target.duckdb"))
    assert code == 2 and "field 'viewer': this file is a player's copy of a game (secrets removed)" in err
    jsonl = tmp_path / "bob.jsonl"
    assert main(["export", "game-1", str(jsonl), "--player", "bob", "--db", str(db_path)]) == 0
    capsys.readouterr()
    code, _, err = run(capsys, "import", str(jsonl), "--db", str(tmp_path / "target.duckdb"))
    assert code == 2 and "field 'viewer': this file is bob's copy of game game-1 (exported with --player)" in err


def test_a_null_setup_is_refused_in_words(capsys, tmp_path, db_path, saved):
    """A ruleset that sets up no game from a null setup said so with Python's words ("AttributeError:
    'NoneType' object has no attribute ...")."""
    source = tmp_path / "source.duckdb"
    assert main(["demo", "--ruleset", "million-colored-sun", "--db", str(source)]) == 0
    export = tmp_path / "demo.jsonl"
    assert main(["export", "demo-22", str(export), "--db", str(source)]) == 0
    header, *rest = export.read_bytes().splitlines()
    changed = json.loads(header)
    changed["setup"] = None
    path = tmp_path / "null-setup.jsonl"
    path.write_bytes(b"\n".join([json.dumps(changed).encode(), *rest]) + b"\n")
    capsys.readouterr()
    code, _, err = run(capsys, "import", str(path), "--db", str(db_path))
    assert code == 2
    assert "line 1, field 'setup': million-colored-sun/2018 cannot set up this game: the setup is null, and it " \
           "sets up no game without one" in err
    assert "NoneType" not in err and [game.id for game in EventStore(db_path).games()] == ["game-1"]


def test_a_store_in_a_missing_folder_is_said_in_words(capsys, tmp_path):
    missing = tmp_path / "no-such-folder" / "aero.duckdb"
    code, _, err = run(capsys, "import", str(tmp_path / "any.jsonl"), "--db", str(missing))
    assert code == 2  # the file to import is missing too: the store is named first, as it is opened first
    code, _, err = run(capsys, "demo", "--ruleset", "million-colored-sun", "--db", str(missing))
    assert code == 2 and err == (f"aero: error: the store {missing} cannot be made: the folder {missing.parent} does "
                                 "not exist (create it first, or give another --db)\n")
    assert not missing.parent.exists()


def test_show_of_a_turn_the_branch_does_not_have_names_the_turns_it_has(capsys, db_path, saved):
    code, out, err = run(capsys, "show", "game-1", "--turn", "9", "--db", str(db_path))
    assert (code, out) == (2, "")
    assert err == "aero: error: --turn 9: branch main of game game-1 has turns 1..2\n"


def _parquet_with(tmp_path, db_path, select: str, order: str = "") -> Path:
    """``saved``'s Parquet export rewritten by ``select`` (a DuckDB SELECT list over its columns), its rows in
    ``order`` (an ORDER BY clause) if given."""
    import duckdb

    export = tmp_path / "game.parquet"
    assert main(["export", "game-1", str(export), "--db", str(db_path)]) == 0
    changed = tmp_path / "changed.parquet"
    with duckdb.connect() as conn:
        conn.execute(f"COPY (SELECT {select} FROM read_parquet('{export}') {order}) TO '{changed}' (FORMAT parquet)")
    return changed


@pytest.mark.parametrize(("column", "value", "found"), [
    ("payload", "NULL", "expected JSON text, found null"), ("payload", "42", "expected JSON text, found int"),
    ("payload", "CAST(payload AS BLOB)", "expected JSON text, found bytes"),
    ("seq", "NULL", "expected an integer, found null"), ("seq", "CAST(seq AS VARCHAR)", "expected an integer, found str"),
])
def test_a_parquet_column_of_the_wrong_type_is_refused_at_its_row(capsys, tmp_path, db_path, saved, column, value,
                                                                  found):
    """A payload that is not text, or a seq that is not an integer, was a traceback (``.encode()`` of it, a sort
    of None among integers)."""
    columns = "game, branch, seq, turn, phase, actor, type, version, payload, prev_hash, hash, ruleset, jsonl_preamble"
    changed = _parquet_with(tmp_path, db_path, columns.replace(f" {column},", f" {value} AS {column},", 1))
    capsys.readouterr()
    target = tmp_path / "target.duckdb"
    code, _, err = run(capsys, "import", str(changed), "--db", str(target))
    assert code == 2 and err == f"aero: error: {changed}, game game-1, row 1, field '{column}': {found}\n"
    assert not target.exists() or stored_rows(EventStore(target)) == 0


def test_a_parquet_refusal_names_the_files_row_not_a_line_of_json_lines(capsys, tmp_path, db_path, saved):
    """A Parquet game is read as the JSON Lines its export would be; its refusals named those lines ("line 17"),
    which the Parquet file does not have. The rows are shuffled here, so row and seq differ."""
    checkpoint = next(env.seq for env in saved.branch.envelopes() if env.type == "StateCheckpoint")
    changed = _parquet_with(tmp_path, db_path, f"* EXCLUDE (payload), CASE WHEN seq = {checkpoint} THEN replace("
                            "payload, 'state_hash\":\"', 'state_hash\":\"00') ELSE payload END AS payload",
                            "ORDER BY seq DESC")
    capsys.readouterr()
    code, _, err = run(capsys, "import", str(changed), "--db", str(tmp_path / "target.duckdb"))
    row = saved.seq - checkpoint + 1  # the rows run from the last event to the first
    assert code == 2
    assert f"{changed}, game game-1, row {row}, field 'payload.state_hash': the checkpoint of turn 2" in err


@pytest.mark.parametrize("form", ["jsonl", "parquet", "record"])
def test_a_players_copy_that_fails_part_way_leaves_an_earlier_export_as_it_was(capsys, tmp_path, db_path, saved,
                                                                               form):
    """The copy was written straight to the file: an event that could not be decoded left it emptied (an earlier
    export of the same name lost), and the message named no event."""
    import duckdb

    secret = next(env.seq for env in saved.branch.envelopes() if env.type == "SecretCommandIssued")
    with duckdb.connect(str(db_path)) as conn:
        conn.execute("UPDATE events SET payload = '{broken' WHERE seq = ?", [secret])
    earlier = tmp_path / "copy.out"
    earlier.write_text("an earlier export\n")
    code, out, err = run(capsys, "export", "game-1", str(earlier), "--format", form, "--player", "bob",
                         "--db", str(db_path))
    assert code == 2 and out == ""
    named = f"entry 'seq {secret}', field 'payload'" if form == "record" else \
        f"event {secret} (SecretCommandIssued) of game game-1, branch main cannot be decoded"
    assert named in err
    assert earlier.read_text() == "an earlier export\n"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["aero.duckdb", "copy.out"]


@pytest.mark.parametrize("player", [None, "bob"])
@pytest.mark.parametrize("form", ["jsonl", "parquet", "record"])
def test_an_export_replaces_an_earlier_one_whole_and_leaves_nothing_beside_it(capsys, tmp_path, db_path, saved,
                                                                                player, form):
    earlier = tmp_path / "game.out"
    earlier.write_text("an earlier export\n")
    viewer = ["--player", player] if player else []
    code, _, err = run(capsys, "export", "game-1", str(earlier), "--format", form, *viewer, "--db", str(db_path))
    assert (code, err) == (0, "")
    assert earlier.read_bytes() != b"an earlier export\n" and earlier.stat().st_size > 100
    assert sorted(path.name for path in tmp_path.iterdir()) == ["aero.duckdb", "game.out"]


def test_an_import_naming_a_family_rather_than_a_version_is_refused(capsys, tmp_path):
    """``"ruleset": "million-colored-sun"`` loaded the family's default version and was stored as the family:
    the game would follow whichever version is the default later, and replay under other rules."""
    source = tmp_path / "source.duckdb"
    assert main(["demo", "--ruleset", "million-colored-sun", "--db", str(source)]) == 0
    export = tmp_path / "demo.jsonl"
    assert main(["export", "demo-22", str(export), "--db", str(source)]) == 0
    header, *rest = export.read_bytes().splitlines()
    changed = json.loads(header)
    changed["ruleset"] = "million-colored-sun"
    path = tmp_path / "family.jsonl"
    path.write_bytes(b"\n".join([json.dumps(changed).encode(), *rest]) + b"\n")
    capsys.readouterr()
    target = tmp_path / "target.duckdb"
    code, _, err = run(capsys, "import", str(path), "--db", str(target))
    assert code == 2
    assert "line 1, field 'ruleset': 'million-colored-sun' names a family of rulesets, whose default version can " \
           "change: a game names the version it was played under (million-colored-sun/2018?)" in err
    assert not target.exists() or stored_rows(EventStore(target)) == 0


def test_an_export_through_a_link_replaces_the_file_it_links_to(capsys, tmp_path, db_path, saved):
    """An export is written beside its target and renamed over it: a link named as the target stays a link."""
    real = tmp_path / "exports" / "game.jsonl"
    real.parent.mkdir()
    real.write_text("an earlier export\n")
    link = tmp_path / "latest.jsonl"
    link.symlink_to(real)
    code, _, err = run(capsys, "export", "game-1", str(link), "--db", str(db_path))
    assert (code, err) == (0, "")
    assert link.is_symlink() and link.resolve() == real.resolve()
    assert real.read_bytes().startswith(b'{"format":"aero-events/jsonl"')
    assert sorted(path.name for path in real.parent.iterdir()) == ["game.jsonl"]
