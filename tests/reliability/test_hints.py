"""Issue 16 item 6 (and issue 17's "hints that run as printed"): a message that tells the user to run an
``aero`` command prints it so that it runs as printed: this installation's ``aero`` (``.venv/bin/aero`` or
``python -m aero_events.cli`` when ``aero`` is not on the PATH, cli/common.py ``aero_command``) and
``--db PATH`` when the store is not the default one."""

from __future__ import annotations

import re
import shlex
import subprocess
from pathlib import Path

import duckdb
import pytest

from aero_events.record.transfer import import_record
from aero_events.store import EventStore, StoreError
from aero_events.store.database import aero_hint, check_database_path

ROOT = Path(__file__).resolve().parents[2]


def _quoted_command(message: str) -> list[str]:
    return shlex.split(re.search(r"`([^`]*)`", message)[1])


def test_a_damaged_branch_names_verify_with_its_database(tmp_path):
    """store/heads.py: the refusal to write after a damaged branch names ``verify GAME --db PATH``, and that
    command runs (and finds the damage: exit 1)."""
    db = tmp_path / "damaged.duckdb"
    store = EventStore(db)
    game = import_record(store, ROOT / "examples" / "duel.aero")
    envelopes = store.events(game)[20:22]
    with duckdb.connect(str(db)) as conn:
        conn.execute("DELETE FROM events WHERE seq > 20")
    with pytest.raises(StoreError, match="damaged") as refused:
        store.append(game, "main", envelopes, expected_seq=20)
    command = _quoted_command(str(refused.value))
    assert command[-4:] == ["verify", game, "--db", str(db)]
    ran = subprocess.run(command, capture_output=True, text=True, cwd=Path.cwd(), timeout=300, check=False)
    assert ran.returncode == 1, ran.stdout + ran.stderr  # verify ran and found the game damaged


def test_a_store_named_like_a_data_file_names_a_runnable_import(tmp_path):
    """store/database.py: a new --db named like a .jsonl file is refused with the import command to use."""
    with pytest.raises(StoreError) as refused:
        check_database_path(str(tmp_path / "game.jsonl"))
    command = _quoted_command(str(refused.value))
    assert command[-2:] == ["import", "FILE"]
    help_text = subprocess.run([*command[:-2], "import", "--help"], capture_output=True, text=True, timeout=300,
                               check=False)
    assert help_text.returncode == 0 and "usage:" in help_text.stdout


def test_the_default_store_needs_no_db_option_and_another_store_is_quoted():
    assert "--db" not in aero_hint("games")
    hint = aero_hint("games", "my games/club.duckdb")
    assert shlex.split(hint)[-2:] == ["--db", "my games/club.duckdb"]
