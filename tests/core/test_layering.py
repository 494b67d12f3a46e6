"""The core knows nothing of any ruleset (DESIGN.md layout; issue: 'The core never imports a ruleset')."""

import ast
from pathlib import Path

import aero_events.core
import aero_events.hexgrid

FORBIDDEN = ("aero_events.rulesets", "aero_events.store", "aero_events.bots", "aero_events.cli")


def imported_modules(package) -> dict[str, set[str]]:
    found = {}
    for path in Path(package.__file__).parent.glob("*.py"):
        names = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module)
        found[path.name] = names
    return found


def test_the_core_never_imports_a_ruleset_or_the_store():
    for module, names in imported_modules(aero_events.core).items():
        assert not [n for n in names if n.startswith(FORBIDDEN)], module


def test_the_hex_grid_is_independent_of_rules_and_core():
    for module, names in imported_modules(aero_events.hexgrid).items():
        assert not [n for n in names if n.startswith((*FORBIDDEN, "aero_events.core"))], module
