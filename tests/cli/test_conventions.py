"""The command's conventions (issue 17, item 7): ``aero --version``; file errors that name the file in words;
``show --player`` refusing a player the game does not have; ``--out`` into a missing folder refused; ``aero
corpus`` never rewriting a corpus folder unless asked (``--write``); hints printed runnable as printed."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

import aero_events
from aero_events.cli import main
from aero_events.cli.common import aero_command

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture
def duel(tmp_path) -> Path:
    db = tmp_path / "conventions.duckdb"
    assert main(["import", str(EXAMPLES / "duel.aero"), "--db", str(db)]) == 0
    return db


def test_version(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.strip() == f"aero {aero_events.__version__}"


def test_a_missing_file_is_named_in_words(tmp_path, capsys):
    assert main(["import", str(tmp_path / "nowhere.aero"), "--db", str(tmp_path / "x.duckdb")]) == 2
    err = capsys.readouterr().err
    assert "nowhere.aero" in err and "Errno" not in err and "no such file" in err


def test_export_into_a_missing_folder_is_said(duel, tmp_path, capsys):
    target = tmp_path / "missing" / "duel.jsonl"
    assert main(["export", "example-duel", str(target), "--db", str(duel)]) == 2
    err = capsys.readouterr().err
    assert f"the folder {target.parent} does not exist" in err and "Errno" not in err


@pytest.mark.parametrize("command", ["replay", "report"])
def test_out_into_a_missing_folder_is_refused_not_created(duel, tmp_path, capsys, command):
    target = tmp_path / "missing" / "page.html"
    assert main([command, "example-duel", "--db", str(duel), "--out", str(target)]) == 2
    assert not target.parent.exists()
    assert f"the folder {target.parent} does not exist" in capsys.readouterr().err


def test_show_refuses_a_player_the_game_does_not_have(duel, capsys):
    assert main(["show", "example-duel", "--db", str(duel), "--player", "nobody"]) == 2
    err = capsys.readouterr().err
    assert "nobody" in err and "imperium" in err and "orks" in err


def test_show_as_a_player_of_the_game(duel, capsys):
    assert main(["show", "example-duel", "--db", str(duel), "--player", "orks", "--turn", "1"]) == 0
    assert "as orks sees it" in capsys.readouterr().out


def test_corpus_does_not_rewrite_a_corpus_unless_asked(tmp_path, capsys):
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "MANIFEST.json").write_text("{}")
    assert main(["corpus", "--out", str(folder), "--max-seeds", "1"]) == 2
    assert "--write" in capsys.readouterr().err
    assert (folder / "MANIFEST.json").read_text() == "{}"


def test_the_hint_command_is_runnable_from_here():
    """Hints say `aero` only when that command is this installation's; else the script's path."""
    command = aero_command()
    assert command == "aero" or Path(command.split()[0]).exists()


def test_every_hint_the_demo_prints_runs_as_printed(tmp_path, capsys, monkeypatch):
    """The demo's closing hints (replay, report, show, branch, export) each run, as printed."""
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "demo.duckdb"
    assert main(["demo", "--db", str(db)]) == 0
    hints = [line.split(":", 1)[1].strip() for line in capsys.readouterr().out.splitlines()
             if line.startswith("  ") and aero_command() in line]
    assert len(hints) == 5
    for hint in hints:
        argv = shlex.split(hint.removeprefix(aero_command()).strip())
        assert main(argv) == 0, hint
