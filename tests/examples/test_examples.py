"""Every file in examples/ run through the real ``aero`` command (in this process, on a temporary store), and
every ``aero`` command written in docs/ parsed by the real parser: the examples and the documentation cannot
drift from the code."""

from __future__ import annotations

import io
import json
import re
import shlex
from pathlib import Path

import pytest

from aero_events.cli import build_parser, main
from aero_events.rulesets.aeronautica.forces import load_force, validate_force
from aero_events.rulesets.aeronautica.profiles import load_catalogue
from aero_events.store import EventStore

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
DOCS = ROOT / "docs"


def aero(*argv: str | Path) -> int:
    return main([str(arg) for arg in argv])


@pytest.fixture
def db(tmp_path) -> Path:
    return tmp_path / "examples.duckdb"


@pytest.fixture
def duel(db) -> Path:
    """examples/duel.aero imported into a fresh store."""
    assert aero("import", EXAMPLES / "duel.aero", "--db", db) == 0
    return db


def test_example_force_lists_are_legal_forces():
    """Both force lists are legal 50-point forces (Building a Force, p.9), and the roster is the same force
    as the JSON file."""
    catalogue = load_catalogue()
    for name in ("veil-squadron.json", "nafgurz.json", "veil-squadron.ros"):
        force = load_force(EXAMPLES / "forces" / name)
        assert 40 <= validate_force(force, catalogue).total <= 50 == force.points_limit
    assert load_force(EXAMPLES / "forces" / "veil-squadron.ros") == load_force(EXAMPLES / "forces" /
                                                                                "veil-squadron.json")


def test_example_matchup_simulates_and_stores_its_games(db, capsys):
    assert aero("simulate", "--matchup", EXAMPLES / "matchup.json", "--games", "2", "--no-progress",
                "--db", db) == 0
    assert "veil-vs-nafgurz" in capsys.readouterr().out
    assert len(EventStore(db).games()) == 2


def test_a_matchup_can_name_the_example_roster(tmp_path, db):
    """A .ros roster is accepted wherever a force file is read: here in a matchup."""
    matchup = json.loads((EXAMPLES / "matchup.json").read_text())
    matchup["forces"] = [str(EXAMPLES / "forces" / "veil-squadron.ros"), str(EXAMPLES / "forces" / "nafgurz.json")]
    path = tmp_path / "roster-matchup.json"
    path.write_text(json.dumps(matchup))
    assert aero("simulate", "--matchup", path, "--games", "1", "--no-progress", "--db", db) == 0


def test_example_forces_start_a_table_recording(db, monkeypatch, capsys):
    """aero record takes the roster and the JSON force list; quitting keeps what was answered."""
    monkeypatch.setattr("sys.stdin", io.StringIO("1\nquit\n"))
    assert aero("record", "--forces", EXAMPLES / "forces" / "veil-squadron.ros", EXAMPLES / "forces" / "nafgurz.json",
                "--players", "imperium", "orks", "--points", "50", "--board", "3x3", "--game", "club-1",
                "--digital-dice", "--seed", "1", "--db", db) == 0
    assert "imperium rolloff" in capsys.readouterr().out
    (game,) = EventStore(db).games()
    assert game.id == "club-1" and list(game.players) == ["imperium", "orks"]


def test_example_record_imports_verifies_and_keeps_its_variation(duel, capsys):
    assert aero("verify", "example-duel", "--db", duel) == 0
    assert aero("branches", "example-duel", "--db", duel) == 0
    out = capsys.readouterr().out
    assert "hold-fire" in out and "what if Red One had held fire?" in out


def test_example_record_round_trips_through_export(duel, tmp_path):
    written = tmp_path / "again.aero"
    assert aero("export", "example-duel", written, "--db", duel) == 0
    again = tmp_path / "again.duckdb"
    assert aero("import", written, "--db", again) == 0
    assert aero("verify", "example-duel", "--db", again) == 0


def test_example_record_replays_and_reports(duel, tmp_path):
    replay, report = tmp_path / "duel-replay.html", tmp_path / "duel-report.html"
    assert aero("replay", "example-duel", "--db", duel, "--out", replay) == 0
    assert aero("report", "example-duel", "--db", duel, "--out", report) == 0
    assert replay.stat().st_size > 0 and report.stat().st_size > 0


def test_example_variant_regresses_the_example_record(duel, capsys):
    assert aero("regress", "example-duel", "--db", duel, "--rules", EXAMPLES / "variant.json") == 0
    assert "club/tough-dakkajets" in capsys.readouterr().out


def test_example_variant_compares_with_the_printed_rules(capsys):
    assert aero("compare", "--matchup", EXAMPLES / "matchup.json", "--games", "2", "--no-progress",
                "--rules", f"wov-2019,{EXAMPLES / 'variant.json'}") == 0
    assert "club/tough-dakkajets" in capsys.readouterr().out


def documented_commands() -> list[tuple[str, str]]:
    """(page, command) for every ``aero ...`` line inside a fenced sh block of docs/."""
    found = []
    for page in sorted(DOCS.glob("*.md")):
        for block in re.findall(r"```sh\n(.*?)```", page.read_text(), flags=re.DOTALL):
            for line in block.splitlines():
                line = line.split(" #")[0].strip()
                for prefix in ("aero ", ".venv/bin/aero "):
                    if line.startswith(prefix):
                        found.append((page.name, line.removeprefix(prefix)))
    return found


@pytest.mark.parametrize(("page", "command"), documented_commands())
def test_documented_command_parses(page, command):
    """Every command the documentation shows names a real subcommand with real options."""
    parser = build_parser()
    try:
        parser.parse_args(shlex.split(command))
    except SystemExit as exit_:
        assert exit_.code == 0, f"docs/{page}: `aero {command}` is refused by the parser"


def test_docs_name_only_example_files_that_exist():
    for page in DOCS.glob("*.md"):
        for name in re.findall(r"examples/[\w./-]+\.\w+", page.read_text()):
            assert (ROOT / name).exists(), f"docs/{page.name} names {name}, which is not there"


def _anchor(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_docs_links_lead_somewhere():
    """Every relative link of docs/ names a file that exists, and a heading of it when it has an anchor."""
    for page in DOCS.glob("*.md"):
        for target in re.findall(r"\]\(([^)#\s]*)(?:#([^)\s]+))?\)", page.read_text()):
            name, anchor = target
            if name.startswith(("http:", "https:")):
                continue
            path = (page.parent / name).resolve() if name else page
            assert path.exists(), f"docs/{page.name} links to {name}, which is not there"
            if anchor:
                headings = re.findall(r"^#+ (.+)$", path.read_text(), flags=re.MULTILINE)
                assert anchor in {_anchor(h) for h in headings}, f"docs/{page.name}: no heading #{anchor} in {name}"
