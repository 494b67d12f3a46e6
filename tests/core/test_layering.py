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


#: The tools above the core: none may import a ruleset's package (issue 11): they reach a ruleset through the
#: registry and the interface of core/interface.py.
TOOL_PACKAGES = ("core", "store", "viz", "analysis", "regress", "record", "sim", "cli", "bots", "odds")
TOOL_MODULES = ("demo.py", "rulesets/__init__.py")


def imports_anywhere(path: Path) -> set[str]:
    """Every module ``path`` imports, at the top or inside a function, relative imports resolved."""
    package = path.relative_to(ROOT.parent).with_suffix("").parts[:-1]
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(package[: len(package) - node.level + 1]) if node.level else ""
            module = ".".join(part for part in (base, node.module or "") if part)
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)
    return names


ROOT = Path(aero_events.core.__file__).resolve().parents[1]


def test_no_tool_imports_a_ruleset_package():
    files = [path for package in TOOL_PACKAGES for path in sorted((ROOT / package).rglob("*.py"))]
    files += [ROOT / name for name in TOOL_MODULES]
    assert len(files) > 40
    offenders = {str(path.relative_to(ROOT)): sorted(n for n in imports_anywhere(path)
                                                      if n.startswith("aero_events.rulesets.aeronautica"))
                 for path in files}
    assert {name: found for name, found in offenders.items() if found} == {}
