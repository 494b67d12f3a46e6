"""Issue 16, the malformed-input corpus: every file under tests/reliability/malformed/ fed to ``aero`` (in
this process, through ``aero_events.cli.main``) is refused with exit code 2, one line naming the file and
its line, entry or field (or, for arguments, the value at fault), no traceback, and the database unchanged
(its content hash before and after). What each file breaks: tests/reliability/malformed/README.md."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import re
import sys
from pathlib import Path

import duckdb
import pytest

from aero_events.cli import main

CORPUS = Path(__file__).resolve().parent / "malformed"
ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
GAME = "example-duel"
LOCATED = re.compile(r"\bline \d+|\bentry '|\bfield '|\(p\.[0-9A-Za-z]")
KINDS = ("jsonl", "records", "forces", "matchups", "variants", "rulesets", "ids")


def corpus_files() -> list[Path]:
    return sorted(path for kind in KINDS for path in (CORPUS / kind).iterdir() if path.name != "README.md")


def run_aero(argv: list[str]) -> tuple[int | str, str, str]:
    """``aero ARGV`` in this process with standard input at its end: (exit code, stdout, stderr); an
    exception escaping ``main`` is returned as the exit code's place as its traceback text."""
    out, err = io.StringIO(), io.StringIO()
    stdin = sys.stdin
    sys.stdin = io.StringIO("")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code: int | str = main(argv)
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 2
    except BaseException as escaped:  # noqa: BLE001 -- a traceback is what the corpus must never see
        import traceback

        code = "".join(traceback.format_exception(escaped))
    finally:
        sys.stdin = stdin
    return code, out.getvalue(), err.getvalue()


def content_hash(db: Path) -> str:
    """A hash of every row of every table of the store (not its bytes, which DuckDB may rewrite)."""
    digest = hashlib.sha256()
    with duckdb.connect(str(db), read_only=True) as conn:
        tables = [row[0] for row in conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_type = 'BASE TABLE' "
            "ORDER BY table_name").fetchall()]
        for table in tables:
            digest.update(table.encode())
            for row in conn.execute(f'SELECT * FROM "{table}" ORDER BY ALL').fetchall():
                digest.update(repr(row).encode())
    return digest.hexdigest()


def file_hash(db: Path) -> str:
    return hashlib.sha256(db.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> tuple[Path, str]:
    """A store holding examples/duel.aero (the game the variants re-run and the ids fork), and its content
    hash: every case must leave it so."""
    db = tmp_path_factory.mktemp("corpus") / "store.duckdb"
    code, _, err = run_aero(["import", str(EXAMPLES / "duel.aero"), "--db", str(db)])
    assert code == 0, err
    return db, content_hash(db)


def assert_unchanged(db: Path, before_bytes: str, content: str) -> None:
    """The store is as it was: the same bytes (quick), or, if DuckDB rewrote the file, the same rows."""
    if file_hash(db) != before_bytes:
        assert content_hash(db) == content


def argv_for(path: Path, db: Path, tmp: Path) -> tuple[list[str], str]:
    """The arguments that feed ``path`` to aero, and the text its refusal must name."""
    kind = path.parent.name
    file = str(path)
    if kind in ("jsonl", "records"):
        return ["import", file, "--db", str(db)], path.name
    if kind == "forces":
        return ["record", "--forces", file, str(EXAMPLES / "forces" / "nafgurz.json"), "--points", "50",
                "--board", "3x3", "--players", "a", "b", "--db", str(db)], path.name
    if kind == "matchups":
        return ["simulate", "--matchup", file, "--games", "1", "--no-progress", "--db", str(db)], path.name
    if kind == "variants":
        return ["regress", "--rules", file, GAME, "--db", str(db)], path.name
    case = json.loads(path.read_text())
    values = {"{db}": str(db), "{game}": GAME, "{tmp}": str(tmp), "{matchup}": str(EXAMPLES / "matchup.json"),
              "{forces}": str(EXAMPLES / "forces" / "veil-squadron.json"),
              "{forces2}": str(EXAMPLES / "forces" / "nafgurz.json"), "{megabyte}": "x" * 1_000_000}
    argv = []
    for argument in case["argv"]:
        for key, value in values.items():
            argument = argument.replace(key, value)
        argv.append(argument)
    return argv, case["names"]


def test_the_corpus_holds_at_least_150_files_of_every_kind():
    files = corpus_files()
    assert len(files) >= 150
    assert {path.parent.name for path in files} == set(KINDS)
    for path in files:  # each folder's README says what each of its files breaks
        assert f"`{path.name}`" in (path.parent / "README.md").read_text(), path


@pytest.mark.parametrize("path", corpus_files(), ids=lambda path: f"{path.parent.name}/{path.name}")
def test_a_malformed_input_is_refused_with_a_located_message_and_the_store_unchanged(path, store, tmp_path):
    db, content = store
    argv, names = argv_for(path, db, tmp_path)
    before = file_hash(db)
    code, out, err = run_aero(argv)
    assert not isinstance(code, str), f"traceback:\n{code}"
    assert "Traceback" not in out + err
    assert code == 2, f"exit {code}; stdout {out[-500:]!r}; stderr {err[-500:]!r}"
    message = err.strip().splitlines()[-1] if err.strip() else ""
    assert message.startswith("aero: error: "), err
    assert names in message, f"the refusal does not name {names[:40]!r}: {message[:300]}"
    if path.parent.name not in ("rulesets", "ids"):
        assert LOCATED.search(message), f"the refusal names no line, entry or field: {message[:300]}"
    assert "\x1b" not in out + err and "\x00" not in out + err
    assert_unchanged(db, before, content)
