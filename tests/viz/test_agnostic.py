"""Issue 11: viz/ and analysis/ know no ruleset. Neither names Aeronautica in an import, and importing them
(and drawing a game of a ruleset that lives under tests/) loads no ruleset of this repository."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "aero_events"


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_no_module_of_viz_or_analysis_imports_a_ruleset():
    modules = sorted((*PACKAGE.joinpath("viz").rglob("*.py"), *PACKAGE.joinpath("analysis").rglob("*.py")))
    assert len(modules) > 10
    offenders = {path.name: name for path in modules for name in _imports(path) if name.startswith(
        "aero_events.rulesets")}
    assert offenders == {}
    for path in modules:
        assert "rulesets.aeronautica" not in path.read_text(encoding="utf-8"), path


def test_drawing_a_plugin_rulesets_game_loads_no_ruleset_of_this_repository():
    script = """
import sys
import tests.support.plugin_ruleset
from aero_events.analysis import report_html
from aero_events.analysis.timeline import timeline_from_session
from aero_events.bots import RandomBot, play
from aero_events.core import GameSession, SeededDice
from aero_events.rulesets import get_ruleset
from aero_events.viz import replay_spec
rules = get_ruleset("pawns")
session = GameSession(rules, rules.scenarios()["meeting"].build({}, 1), dice=SeededDice(1), game_id="p")
play(session, {"red": RandomBot(1), "blue": RandomBot(2)})
timeline = timeline_from_session(session)
replay_spec(timeline)
report_html(timeline)
print(sorted(name for name in sys.modules if name.startswith("aero_events.rulesets.")))
"""
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                            cwd=PACKAGE.parent, check=False)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.strip() == "[]"
