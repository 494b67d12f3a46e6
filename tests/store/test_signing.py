"""Issue 16, item 4: Ed25519 signatures over a game's canonical export, so that a tournament organiser can
prove a record was not altered after both players signed it (store/signing.py, ``aero export --sign``,
``aero sign``, ``aero verify --key``)."""

from __future__ import annotations

import pytest

from aero_events.cli import main
from aero_events.core import DataError
from aero_events.store import EventStore
from aero_events.store.signing import (
    generate_key,
    load_public_key,
    read_signatures,
    sign_export,
    signature_path,
    verify_export,
)


@pytest.fixture
def keys(tmp_path):
    return {player: (tmp_path / f"{player}.key", generate_key(tmp_path / f"{player}.key"))
            for player in ("alice", "bob", "mallory")}


def test_both_players_sign_and_the_organiser_checks_both(store, saved, tmp_path, keys):
    path = tmp_path / "final.jsonl"
    store.export_jsonl(saved.game_id, path)
    for player in ("alice", "bob"):
        sign_export(path, keys[player][0])
    assert [s.signer for s in read_signatures(signature_path(path))] == ["alice", "bob"]
    check = verify_export(path, [keys["alice"][1], keys["bob"][1]])
    assert check.ok and len(check.valid) == 2
    missing = verify_export(path, [keys["alice"][1], keys["mallory"][1]])
    assert not missing.ok and missing.missing and "NOT signed" in missing.summary()


def test_one_byte_changed_after_signing_fails_every_signature(store, saved, tmp_path, keys):
    path = tmp_path / "final.jsonl"
    store.export_jsonl(saved.game_id, path)
    sign_export(path, keys["alice"][0])
    sign_export(path, keys["bob"][0])
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    path.write_bytes(bytes(data))
    check = verify_export(path, [keys["alice"][1], keys["bob"][1]])
    assert not check.ok and len(check.invalid) == 2 and "altered after it was signed" in check.summary()


def test_signing_again_with_the_same_key_replaces_the_signature(store, saved, tmp_path, keys):
    path = tmp_path / "final.jsonl"
    store.export_jsonl(saved.game_id, path)
    sign_export(path, keys["alice"][0])
    sign_export(path, keys["alice"][0])
    assert len(read_signatures(signature_path(path))) == 1


def test_the_export_is_canonical_so_a_signature_holds_for_the_imported_game(store, saved, tmp_path, keys):
    """Export, sign, import elsewhere: the other store's export is byte for byte the signed one."""
    path = tmp_path / "final.jsonl"
    store.export_jsonl(saved.game_id, path)
    sign_export(path, keys["alice"][0])
    elsewhere = EventStore(tmp_path / "organiser.duckdb")
    elsewhere.import_jsonl(path)
    assert elsewhere.export_bytes(saved.game_id) == path.read_bytes()
    assert elsewhere.check_signatures(saved.game_id, signature_path(path), [keys["alice"][1]]).ok


def test_keys_that_are_not_ed25519_keys_are_refused_with_the_file(tmp_path):
    bad = tmp_path / "bad.pub"
    bad.write_text("-----BEGIN PUBLIC KEY-----\nnope\n-----END PUBLIC KEY-----\n")
    with pytest.raises(DataError) as refused:
        load_public_key(bad)
    assert refused.value.source == str(bad)
    with pytest.raises(DataError, match="cannot read"):
        load_public_key(tmp_path / "missing.pub")


def test_aero_export_sign_and_verify_key(db_path, saved, tmp_path, keys, capsys):
    path = tmp_path / "final.jsonl"
    alice, bob = (str(keys[p][0]) for p in ("alice", "bob"))
    assert main(["export", saved.game_id, str(path), "--sign", alice, "--db", str(db_path)]) == 0
    assert main(["sign", str(path), "--key", bob]) == 0
    capsys.readouterr()
    assert main(["verify", str(path), "--key", str(keys["alice"][1]), "--key", str(keys["bob"][1])]) == 0
    out = capsys.readouterr().out
    assert "signed by alice" in out and "bob" in out and ": ok" in out
    assert main(["verify", saved.game_id, "--db", str(db_path), "--key", str(keys["bob"][1]),
                 "--signatures", str(signature_path(path))]) == 0
    path.write_bytes(path.read_bytes().replace(b'"winner":"alice"', b'"winner":"bob"', 1))
    assert main(["verify", str(path), "--key", str(keys["alice"][1])]) != 0


def test_aero_keygen_writes_a_private_key_only_its_owner_reads(tmp_path, capsys):
    key = tmp_path / "carol.key"
    assert main(["keygen", str(key)]) == 0
    assert key.stat().st_mode & 0o077 == 0 and key.with_suffix(".pub").exists()
    assert main(["keygen", str(key)]) == 2  # never overwrites a key
