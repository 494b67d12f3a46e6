"""Issue 16, item 4: every tampering case is caught by ``verify`` (in the DuckDB file) or refused by
``import`` (in a JSON Lines file), and a game whose forger recomputed every hash is still refused by the
re-fold or shown altered by its players' Ed25519 signatures."""

from __future__ import annotations

import json

import duckdb
import msgspec
import pytest

from aero_events.core.errors import DataError
from aero_events.store import EventStore
from aero_events.store.signing import generate_key, sign_export, verify_export
from tests.reliability.conftest import branched_game, stored_rows
from tests.reliability.secrets_games import forge
from tests.store.games import played_session

# ---------------------------------------------------------------- in the DuckDB file: verify


def _sql(store: EventStore, *statements: str) -> None:
    with duckdb.connect(store.path) as conn:
        for statement in statements:
            conn.execute(statement)


def _max_seq(store: EventStore, branch: str = "main") -> int:
    with store.connection() as conn:
        return conn.execute("SELECT max(seq) FROM events WHERE branch = ?", [branch]).fetchall()[0][0]


DB_TAMPERING = {
    "a payload byte": [("UPDATE events SET payload = replace(payload, '\"amount\":2', '\"amount\":3') "
                        "WHERE seq = (SELECT min(seq) FROM events WHERE type = 'test.BidPlaced')")],
    "a dice face": [("UPDATE events SET payload = regexp_replace(payload, '\"faces\":\\[\\d\\]', '\"faces\":[6]') "
                     "WHERE branch = 'main' AND seq = (SELECT min(seq) FROM events WHERE type = 'DiceRolled' "
                     "AND payload NOT LIKE '%\"faces\":[6]%' AND branch = 'main')")],
    "a deleted event": ["DELETE FROM events WHERE branch = 'main' AND seq = 7"],
    "a deleted tail": ["DELETE FROM events WHERE branch = 'main' AND seq > 20"],
    "the last event deleted": [("DELETE FROM events WHERE branch = 'main' AND seq = (SELECT max(seq) FROM events "
                                "WHERE branch = 'main')")],
    "a deleted branch": ["DELETE FROM events WHERE branch = 'alt'", "DELETE FROM branches WHERE id = 'alt'",
                         "DELETE FROM snapshots WHERE branch = 'alt'"],
    "reordered events": ["UPDATE events SET seq = -1 WHERE branch = 'main' AND seq = 5",
                         "UPDATE events SET seq = 5 WHERE branch = 'main' AND seq = 6",
                         "UPDATE events SET seq = 6 WHERE branch = 'main' AND seq = -1"],
    "a changed hash": ["UPDATE events SET hash = sha256('x')::BLOB WHERE branch = 'main' AND seq = 9"],
    "checkpoints stripped": ["DELETE FROM events WHERE type = 'StateCheckpoint'"],
    "the branch's head hash nulled": ["UPDATE branches SET head_hash = NULL WHERE id = 'main'"],
    "the branch's head moved back": ["UPDATE branches SET head_seq = 3 WHERE id = 'main'"],
    "a branch smuggled in": [("INSERT INTO branches (game, id, parent, fork_seq, label, created) "
                              "VALUES ('game-1', 'extra', 'main', 3, 'extra', now()::TIMESTAMP)")],
}


@pytest.mark.parametrize("case", list(DB_TAMPERING), ids=list(DB_TAMPERING))
def test_tampering_in_the_database_is_caught_by_verify(store, case):
    branched_game(store)
    assert store.verify("game-1").ok
    _sql(store, *DB_TAMPERING[case])
    report = store.verify("game-1")
    assert not report.ok, case
    assert report.first_problem.game_id == "game-1"


def test_an_append_after_a_cut_off_tail_is_refused_not_sealed(store):
    """The store refuses to write after a branch whose events no longer reach its sealed head: it would
    otherwise chain new events onto the damage and seal it."""
    session = played_session()
    store.save_session(session)
    _sql(store, "DELETE FROM events WHERE seq > 20")
    from tests.store.tally import tally_envelopes

    envelopes = [msgspec.structs.replace(env, game_id="game-1") for env in tally_envelopes("game-1", 21, 2)]
    with pytest.raises(Exception, match="damaged"):
        store.append("game-1", "main", envelopes, expected_seq=20)
    assert _max_seq(store) == 20


# ---------------------------------------------------------------- in a JSON Lines file: import


def _export(store: EventStore, tmp_path, branches: bool = False) -> list[bytes]:
    if branches:
        branched_game(store)
    else:
        store.save_session(played_session())
    path = tmp_path / "source.jsonl"
    store.export_jsonl("game-1", path)
    return path.read_bytes().splitlines()


def _drop(lines: list[bytes], predicate) -> list[bytes]:
    return lines[:2] + [line for line in lines[2:] if not predicate(json.loads(line))]


def _edit_event(lines: list[bytes], predicate, edit) -> list[bytes]:
    out = []
    done = False
    for line in lines:
        event = json.loads(line)
        if not done and "payload" in event and predicate(event):
            edit(event)
            done = True
            line = json.dumps(event, separators=(",", ":")).encode()
        out.append(line)
    return out


def _face(event: dict) -> None:
    faces = event["payload"]["faces"]
    event["payload"]["faces"] = [1 if faces[0] != 1 else 2]


FORGED = {
    "a dice face changed, every hash recomputed":
        lambda lines: _edit_event(lines, lambda e: e["type"] == "DiceRolled", _face),
    "checkpoints stripped, renumbered, every hash recomputed":
        lambda lines: _drop(lines, lambda e: e["type"] == "StateCheckpoint"),
    "a reveal moved to another player, every hash recomputed":
        lambda lines: _edit_event(lines, lambda e: e["type"] == "test.BidRevealed",
                                  lambda e: e["payload"].update(player="mallory")),
    "events reordered, every hash recomputed":
        lambda lines: lines[:2] + [lines[3], lines[2]] + lines[4:],
    "an event deleted in the middle, every hash recomputed":
        lambda lines: lines[:8] + lines[9:],
}


#: Forgeries the re-fold itself refuses (the rest change nothing the rules can see: a die's face before a
#: score the file also records; those only the players' signatures show, below).
REFUSED_BY_THE_REFOLD = ("checkpoints stripped, renumbered, every hash recomputed",
                         "a reveal moved to another player, every hash recomputed")


@pytest.mark.parametrize("case", REFUSED_BY_THE_REFOLD)
def test_a_forged_file_with_recomputed_hashes_is_refused_by_the_refold(store, tmp_path, case):
    lines = _export(store, tmp_path)
    path = tmp_path / "forged.jsonl"
    path.write_bytes(forge(FORGED[case](lines)))
    target = EventStore(tmp_path / "target.duckdb")
    with pytest.raises(DataError) as refused:
        target.import_jsonl(path)
    assert refused.value.location is not None
    assert stored_rows(target) == 0


@pytest.mark.parametrize("case", list(FORGED), ids=list(FORGED))
def test_a_forged_file_is_refused_or_its_signatures_fail(store, tmp_path, case):
    """With both players' signatures over the export, any forgery is found: by the import or by the keys."""
    lines = _export(store, tmp_path)
    path = tmp_path / "game.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    keys = []
    for player in ("alice", "bob"):
        key = tmp_path / f"{player}.key"
        keys.append(generate_key(key))
        sign_export(path, key)
    assert verify_export(path, keys).ok
    path.write_bytes(forge(FORGED[case](lines)))
    target = EventStore(tmp_path / "target.duckdb")
    try:
        target.import_jsonl(path)
    except DataError:
        assert stored_rows(target) == 0
        return
    check = verify_export(path, keys)
    assert not check.ok and len(check.invalid) == 2


def test_the_forger_s_own_renumbering_of_an_untouched_file_imports(store, tmp_path):
    """The forging helper is faithful: applied to an unchanged file it gives a file that imports."""
    lines = _export(store, tmp_path)
    path = tmp_path / "same.jsonl"
    path.write_bytes(forge(lines))
    assert EventStore(tmp_path / "target.duckdb").import_jsonl(path) == "game-1"


FILE_TAMPERING = {
    "a payload byte": lambda lines: _edit_event(lines, lambda e: e["type"] == "test.TurnScored",
                                                lambda e: e["payload"].update(next_turn=9)),
    "null head hash": lambda lines: [lines[0], lines[1].replace(b'"head_hash":"', b'"head_hash":null,"x":"'),
                                     *lines[2:]],
    "a deleted tail": lambda lines: lines[:-3],
    "a deleted branch": lambda lines: [lines[0].replace(b'"branch_count":2', b'"branch_count":1'), lines[1],
                                       *(line for line in lines[3:] if b'"branch_id":"alt"' not in line)],
    "a changed head hash": lambda lines: [lines[0], lines[1].replace(b'"head_hash":"', b'"head_hash":"00'),
                                          *lines[2:]],
}


@pytest.mark.parametrize("case", list(FILE_TAMPERING), ids=list(FILE_TAMPERING))
def test_tampering_in_a_file_is_refused_or_shown_by_the_signatures(store, tmp_path, case):
    """Refused by import, or, for a change the file alone cannot show (a branch left out with the counts
    fixed), shown by the players' signatures."""
    lines = _export(store, tmp_path, branches=True)
    signed = tmp_path / "game.jsonl"
    signed.write_bytes(b"\n".join(lines) + b"\n")
    key = tmp_path / "alice.key"
    generate_key(key)
    sign_export(signed, key)
    signed.write_bytes(b"\n".join(FILE_TAMPERING[case](lines)) + b"\n")
    target = EventStore(tmp_path / "target.duckdb")
    try:
        target.import_jsonl(signed)
    except DataError:
        assert stored_rows(target) == 0
        return
    check = verify_export(signed, [key.with_suffix(".pub")])
    assert not check.ok and check.invalid
