"""``aero demo --ruleset NAME`` for every registered ruleset and version: the demo plays to a result, is
stored, and verifies (issue 11: every tool works for any registered ruleset)."""

from __future__ import annotations

import pytest

from aero_events.cli import main
from aero_events.core.registry import known_rulesets

SHIPPED = [name for name in known_rulesets() if not name.startswith(("pawns/", "test"))]


def test_every_seed_system_is_registered():
    families = {name.partition("/")[0] for name in SHIPPED}
    assert {"aeronautica", "wings-of-glory", "battlefleet-gothic", "million-colored-sun", "whfb-flying"} <= families


@pytest.mark.parametrize("name", SHIPPED)
def test_the_demo_of_each_ruleset_ends_with_a_result_and_verifies(name, tmp_path, capsys):
    assert main(["demo", "--ruleset", name, "--db", str(tmp_path / "demo.duckdb")]) == 0
    printed = capsys.readouterr().out
    assert "Outcome: " in printed and "verify: ok" in printed
