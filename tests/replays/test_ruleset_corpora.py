"""The golden corpora of the other ruleset families, ``replays/<family>/``: each game replays identically under
its own ruleset, each manifest lists exactly its folder's games, each corpus covers what its family's plan
requires, and ``aero regress`` re-runs a game of each family identically.

A failure names the first event that changed. If the change is meant, regenerate that family's corpus with
``aero corpus --ruleset FAMILY --out replays/FAMILY --write`` and read ``git diff replays/FAMILY``.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from aero_events.cli import main
from aero_events.regress.corpus import MANIFEST, check_game, read_manifest, required_coverage

REPLAYS = Path(__file__).resolve().parents[2] / "replays"
FOLDERS = sorted(path.parent for path in REPLAYS.glob(f"*/{MANIFEST}"))
#: The families whose corpus is in a folder of its own; the folder is named after the family.
FAMILIES = [folder.name for folder in FOLDERS]
GAMES = [(folder, entry) for folder in FOLDERS for entry in read_manifest(folder).games]


def test_every_ruleset_family_with_a_corpus_plan_has_its_folder():
    assert {"battlefleet-gothic", "million-colored-sun", "whfb-flying", "wings-of-glory"} <= set(FAMILIES)


@pytest.mark.parametrize("folder", FOLDERS, ids=FAMILIES)
def test_the_manifest_lists_exactly_the_folders_games(folder):
    listed = [entry.file for entry in read_manifest(folder).games]
    assert len(listed) == len(set(listed))
    assert set(listed) == {path.name for path in folder.glob("*.jsonl")}


@pytest.mark.parametrize("folder", FOLDERS, ids=FAMILIES)
def test_the_corpus_covers_its_plans_required_items(folder):
    manifest = read_manifest(folder)
    required = required_coverage(folder.name)
    assert manifest.missing == ()
    assert set(manifest.coverage) == set(required)
    for item, files in manifest.coverage.items():
        assert files and set(files) <= {entry.file for entry in manifest.games}, item
        assert all(item in next(e for e in manifest.games if e.file == name).covers for name in files), item


@pytest.mark.parametrize(("folder", "entry"), GAMES, ids=[f"{folder.name}/{entry.file}" for folder, entry in GAMES])
def test_each_corpus_game_replays_identically_under_its_own_ruleset(folder, entry):
    game = check_game(folder, entry)
    assert game.ruleset == entry.ruleset and game.game_id == entry.game_id
    assert game.ruleset.partition("/")[0] == folder.name


@pytest.mark.parametrize("folder", FOLDERS, ids=FAMILIES)
def test_aero_regress_reruns_a_game_of_the_family_identically(folder, capsys):
    entry = min(read_manifest(folder).games, key=lambda e: e.events)
    code = main(["regress", "--rules", entry.ruleset, str(folder / entry.file), "--expect-identical"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "1 identical" in out and entry.game_id in out


def test_aero_corpus_check_in_a_fresh_process_replays_every_familys_corpus():
    """A fresh process has imported no ruleset: ``aero corpus --check`` must load the family's before it reads
    the games (their event types are the ruleset's)."""
    script = ("import sys; from aero_events.cli import main; "
              "sys.exit(max(main(['corpus', '--check', '--ruleset', family, '--out', folder]) "
              "for family, folder in zip(sys.argv[1::2], sys.argv[2::2])))")
    argv = [value for folder in FOLDERS for value in (folder.name, str(folder))]
    done = subprocess.run([sys.executable, "-c", script, *argv], check=False, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    for folder in FOLDERS:
        count = len(read_manifest(folder).games)
        assert f"{count} of {count} corpus games replay identically" in done.stdout
