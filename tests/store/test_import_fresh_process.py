"""``aero import`` in a new process: nothing has imported the game's ruleset yet, so the reader must load it
from the file's header before decoding a single event (a fresh process once refused every Aeronautica game
with "unknown event type")."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPLAYS = Path(__file__).resolve().parents[2] / "replays"
ONE_GAME_PER_FAMILY = sorted({min(folder.glob("*.jsonl")) for folder in [REPLAYS, *REPLAYS.iterdir()]
                              if folder.is_dir() and any(folder.glob("*.jsonl"))})


@pytest.mark.parametrize("path", ONE_GAME_PER_FAMILY, ids=lambda path: path.parent.name + "/" + path.name)
def test_a_fresh_process_imports_a_golden_game_of_every_ruleset(path, tmp_path):
    done = subprocess.run([sys.executable, "-m", "aero_events.cli", "import", str(path), "--db",
                           str(tmp_path / "fresh.duckdb")], capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert "imported game" in done.stdout


def test_a_file_naming_a_ruleset_this_installation_lacks_is_refused_at_its_header(tmp_path):
    source = min(REPLAYS.glob("*.jsonl")).read_text().splitlines()
    source[0] = source[0].replace('"aeronautica/wov-2019"', '"no-such-game/v1"', 1)
    forged = tmp_path / "forged.jsonl"
    forged.write_text("\n".join(source) + "\n")
    done = subprocess.run([sys.executable, "-m", "aero_events.cli", "import", str(forged), "--db",
                           str(tmp_path / "fresh.duckdb")], capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode != 0
    assert "line 1" in done.stderr and "ruleset" in done.stderr and "Traceback" not in done.stderr
