"""The README's "SQL views" section names every view a shipped ruleset creates in the file, so that a newcomer
who plays another ruleset's demo finds its views (only Aeronautica's were listed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from aero_events.rulesets import get_ruleset

README = Path(__file__).resolve().parents[2] / "README.md"
SHIPPED = ("aeronautica/wov-2019", "battlefleet-gothic/core", "million-colored-sun/2018", "whfb-flying/alternate",
           "wings-of-glory/bob-2017")


@pytest.mark.parametrize("name", SHIPPED)
def test_the_readme_names_every_view_of_the_ruleset(name):
    section = README.read_text(encoding="utf-8").split("## SQL views", 1)[1].split("\n## ", 1)[0]
    views = [view.name for view in get_ruleset(name).sql_views()]
    assert views and [view for view in views if f"`{view}`" not in section] == []
