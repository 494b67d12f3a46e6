"""``aero versions``: every data version shown whole (no part cut off), every version described, and the rule
options of every ruleset listed, Aeronautica's too."""

from __future__ import annotations

import pytest

from aero_events.cli import main
from aero_events.cli.rules_commands import data_version_lines, listed_options
from aero_events.core.registry import get_ruleset, known_families


@pytest.mark.parametrize("columns", ["80", "160"])
def test_the_table_cuts_no_data_version_off(columns, monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", columns)
    assert main(["versions"]) == 0
    shown = capsys.readouterr().out
    assert "…" not in shown
    for default in known_families().values():
        for version in get_ruleset(default).versions():
            for part in version.data_version.split("+"):
                assert part in shown


def test_every_listed_version_of_the_projects_rulesets_is_described():
    """(Other tests register rulesets of their own in the same process: only this package's are checked.)"""
    ours = [get_ruleset(default) for default in known_families().values()]
    ours = [ruleset for ruleset in ours if type(ruleset).__module__.startswith("aero_events.rulesets.")]
    assert len(ours) == 5
    for ruleset in ours:
        for version in ruleset.versions():
            assert version.description, version.name


def test_aeronauticas_rule_options_are_listed(capsys):
    options, changed_by = listed_options(get_ruleset("aeronautica/wov-2019"))
    assert "throttle_past_limits" in {option.name for option in options} and "versions" in changed_by
    assert main(["versions"]) == 0
    shown = capsys.readouterr().out
    assert "rule options of aeronautica/wov-2019" in shown and "throttle_past_limits = true" in shown


def test_a_data_version_of_several_files_is_one_part_a_line():
    assert data_version_lines("a-1+b-2+c-3") == "a-1+\nb-2+\nc-3"
    assert data_version_lines("wov-2019.1") == "wov-2019.1"
