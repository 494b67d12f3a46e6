"""The ruleset registry (aero_events/core/registry.py): entry points, run-time registration, families and
their default versions, and variants reloaded from a game's metadata (issue 11, item 1)."""

from __future__ import annotations

from importlib.metadata import entry_points

import pytest

from aero_events.core.registry import (
    GROUP,
    default_ruleset,
    family,
    get_ruleset,
    known_families,
    known_rulesets,
    register_ruleset,
    resolve_name,
    ruleset_for_game,
)
from aero_events.rulesets import get_ruleset as old_get_ruleset
from tests.support.plugin_ruleset import NAME, PawnRules


def test_the_package_declares_its_rulesets_as_entry_points():
    declared = {point.name: point.value for point in entry_points(group=GROUP)}
    assert declared["aeronautica/wov-2019"] == "aero_events.rulesets.aeronautica:AeronauticaRules"
    assert declared["aeronautica/faq-2020"] == "aero_events.rulesets.aeronautica.versions:Faq2020Rules"
    assert {"aeronautica/wov-2019", "aeronautica/faq-2020"} <= set(known_rulesets())
    assert get_ruleset("aeronautica/faq-2020").name == "aeronautica/faq-2020"


def test_a_family_name_plays_its_default_version():
    assert family("aeronautica/faq-2020") == "aeronautica" and family("aeronautica") == "aeronautica"
    assert get_ruleset("aeronautica").name == "aeronautica/wov-2019"
    assert resolve_name("aeronautica") == "aeronautica/wov-2019" and resolve_name("pawns") == NAME
    assert known_families()["aeronautica"] == "aeronautica/wov-2019"
    assert default_ruleset() == "aeronautica/wov-2019"  # the first family the installed packages declare


def test_a_ruleset_registers_itself_at_run_time_with_its_family_default():
    assert NAME in known_rulesets() and known_families()["pawns"] == NAME
    assert isinstance(get_ruleset("pawns"), PawnRules)

    class Pawns2(PawnRules):
        name = "pawns/v2"

    register_ruleset("pawns/v2", Pawns2)
    try:
        assert get_ruleset("pawns/v2").name == "pawns/v2" and get_ruleset("pawns").name == NAME
    finally:
        register_ruleset("pawns/v2", PawnRules)


def test_the_old_names_still_work_and_an_unknown_name_lists_the_known_ones():
    assert old_get_ruleset("aeronautica/wov-2019").name == "aeronautica/wov-2019"
    with pytest.raises(KeyError, match=r"unknown ruleset 'chess/1851'; known rulesets: .*aeronautica/faq-2020"):
        get_ruleset("chess/1851")


def test_a_variant_is_rebuilt_by_its_family_from_the_games_metadata():
    variant = {"base": "aeronautica/wov-2019", "name": "test/registry-tough-dakkas",
               "aircraft": {"dakkajet": {"structure": 4}}}
    rules = ruleset_for_game("test/registry-tough-dakkas", {"variant": variant})
    assert rules.name == "test/registry-tough-dakkas"
    assert rules.catalogue.aircraft["dakkajet"].structure == 4
    assert get_ruleset("test/registry-tough-dakkas").name == rules.name  # registered for the process


def test_a_game_of_an_unknown_ruleset_without_a_variant_is_refused():
    with pytest.raises(KeyError, match="unknown ruleset 'pawns/v9'"):
        ruleset_for_game("pawns/v9", {"seed": 3})
