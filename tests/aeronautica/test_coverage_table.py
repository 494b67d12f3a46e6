"""The rules-coverage table in aero_events/rulesets/aeronautica/README.md (issue 19).

Every heading of the rulebook's rules pages (p.7-37, with the Ork upgrades of p.44-45) and of the 2020 update
has a row: its page, the code that implements it and the tests that would fail if it were wrong. This test
fails when a row names no test, names a test or code that does not exist, or when a heading of the rulebook
text has no row.
"""

from __future__ import annotations

import ast
import functools
import importlib
import json
import re
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULESET = ROOT / "aero_events" / "rulesets" / "aeronautica"
README = RULESET / "README.md"
RULEBOOK = ROOT.parent / "shared" / "seeds" / "000_d9de01f1f04f5d07.txt"
PACKAGE = "aero_events.rulesets.aeronautica"


class Row:
    def __init__(self, section: str, cells: list[str]):
        self.section = section
        self.heading, self.page, implemented, tests = cells
        self.implemented = re.findall(r"`([^`]+)`", implemented)
        self.tests = re.findall(r"`([^`]+)`", tests)

    def __repr__(self) -> str:
        return f"{self.section}: {self.heading}"


def coverage_rows() -> list[Row]:
    """The rows of the tables under '## Rules coverage' (its own table and the 2020 update's)."""
    text = README.read_text(encoding="utf-8")
    assert "## Rules coverage" in text, "the ruleset README has no '## Rules coverage' section"
    rows, section = [], "2019"
    for line in text.split("## Rules coverage", 1)[1].splitlines():
        if line.startswith("### "):
            section = line[4:].strip()
        if not line.startswith("| ") or line.startswith("| heading |"):
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split(" | ")]
        assert len(cells) == 4, f"a coverage row has heading | page | implemented by | tests: {line}"
        rows.append(Row(section, cells))
    return rows


ROWS = coverage_rows()


@functools.cache
def defined_tests(path: str) -> frozenset[str]:
    """The test functions defined in a test file (module level or in a class), read from its AST."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    return frozenset(node.name for node in ast.walk(tree)
                     if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"))


def resolves(reference: str) -> bool:
    """``module.function`` (relative to the ruleset package), ``module.Class.attribute``, or a file path."""
    if "/" in reference or reference.endswith(".json"):
        return (RULESET / reference).exists()
    parts = reference.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            target = importlib.import_module(f"{PACKAGE}.{'.'.join(parts[:cut])}")
        except ModuleNotFoundError:
            continue
        for name in parts[cut:]:
            if not hasattr(target, name):
                return False
            target = getattr(target, name)
        return True
    return False


def rulebook_headings() -> list[str]:
    """The headings of the rules pages in the rulebook text: THE BASICS (p.7) to the Ork upgrades (p.45),
    leaving out the aircraft entries (p.38-43, p.45-47), which are data (data/aircraft.json)."""
    lines = RULEBOOK.read_text(encoding="utf-8").splitlines()
    start = lines.index("## THE BASICS")
    end = next(i for i, line in enumerate(lines) if line.startswith("### DAKKAJET"))
    skip_from = next(i for i, line in enumerate(lines) if line.startswith("# THUNDERBOLT FIGHTER"))
    skip_to = next(i for i, line in enumerate(lines) if line.startswith("### ORK AIR WAAAGH!"))
    return [normalise(line) for i, line in enumerate(lines[start:end], start)
            if line.startswith("#") and not skip_from <= i < skip_to]


def normalise(heading: str) -> str:
    return re.sub(r"\s+", " ", heading.lstrip("#").replace("*", "").replace("\\", "").strip()).lower()


def test_the_table_has_a_row_for_the_rules_and_for_the_2020_update():
    sections = Counter(row.section for row in ROWS)
    assert sections["2019"] >= 150
    versions = json.loads((RULESET / "data" / "versions.json").read_text(encoding="utf-8"))
    faq = next(v for v in versions["versions"] if v["name"] == "aeronautica/faq-2020")
    assert sections["The 2020 update"] >= len(faq["notes"])  # one row per change the project holds


@pytest.mark.parametrize("row", ROWS, ids=[f"{row.section}:{row.heading}" for row in ROWS])
def test_every_heading_names_its_page_code_and_tests_that_exist(row):
    assert row.tests, f"{row} names no test"
    for reference in row.tests:
        path, _, name = reference.partition("::")
        assert path.startswith("tests/") and name, f"{row}: {reference!r} is not tests/<file>.py::<test>"
        assert (ROOT / path).exists(), f"{row}: {path} does not exist"
        assert name in defined_tests(path), f"{row}: {path} has no test {name}"
    assert row.implemented, f"{row} names no code"
    for reference in row.implemented:
        assert resolves(reference), f"{row}: {reference} is not in {PACKAGE}"
    pages = re.findall(r"\d+", row.page)
    assert pages, f"{row} gives no page"
    if row.section == "2019":
        assert all(7 <= int(page) <= 37 or 44 <= int(page) <= 45 for page in pages), f"{row}: page {row.page}"


def test_every_heading_of_the_rulebook_rules_pages_has_a_row():
    """Read against the rulebook text (the shared seed the project implements) when it is there."""
    if not RULEBOOK.exists():
        pytest.skip(f"the rulebook text is not at {RULEBOOK}")
    in_table = Counter(normalise(row.heading) for row in ROWS if row.section == "2019")
    in_book = Counter(rulebook_headings())
    missing = in_book - in_table
    assert not missing, f"headings of the rulebook without a row: {sorted(missing)}"
    extra = in_table - in_book
    assert not extra, f"rows that are no heading of the rulebook's rules pages: {sorted(extra)}"


def test_a_missing_test_or_code_is_caught():
    """The checks above are real: a test name or code reference that does not exist is refused."""
    assert "test_taxiing_off_the_board_disengages_p17_p19" in defined_tests(
        "tests/aeronautica/test_rules_audit_fixes.py")
    assert "test_no_such_rule" not in defined_tests("tests/aeronautica/test_rules_audit_fixes.py")
    assert resolves("end_phase.run_out_of_fuel") and resolves("state.GameState.occupied")
    assert not resolves("end_phase.no_such_function") and not resolves("no_such_module.thing")
