"""Ruleset versions and user variants (aero_events/rulesets/aeronautica/versions.py, data/versions.json)."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from aero_events.core import DataError
from aero_events.rulesets import get_ruleset, known_rulesets
from aero_events.rulesets.aeronautica import AeronauticaRules, RuleOptions
from aero_events.rulesets.aeronautica.versions import (
    DEFAULT_VERSION,
    FAQ_2020,
    Faq2020Rules,
    build_version,
    canonical_name,
    known_versions,
    load_variant,
    rules_for,
    version_definition,
)


def catalogue_differences(a, b) -> list[tuple[str, str, str]]:
    """(collection, id, field) of every field that differs between two catalogues."""
    found = []
    for collection in ("aircraft", "weapons", "upgrades", "factions"):
        left, right = getattr(a, collection), getattr(b, collection)
        for entry_id in sorted(set(left) | set(right)):
            if entry_id not in left or entry_id not in right:
                found.append((collection, entry_id, "*"))
                continue
            x, y = msgspec.structs.asdict(left[entry_id]), msgspec.structs.asdict(right[entry_id])
            found += [(collection, entry_id, name) for name in x if x[name] != y[name]]
    return found


def option_differences(a: RuleOptions, b: RuleOptions) -> list[str]:
    return [name for name in RuleOptions.__struct_fields__ if getattr(a, name) != getattr(b, name)]


# ---------------------------------------------------------------- the package's versions


def test_both_versions_are_declared_in_one_file_and_known_by_name():
    assert known_versions()[:2] == [DEFAULT_VERSION, FAQ_2020]
    assert {DEFAULT_VERSION, FAQ_2020} <= set(known_rulesets())
    assert canonical_name("faq-2020") == FAQ_2020 and canonical_name("wov-2019") == DEFAULT_VERSION
    assert version_definition(FAQ_2020).base == DEFAULT_VERSION
    assert all(version_definition(name).source for name in (DEFAULT_VERSION, FAQ_2020))


def test_faq_2020_is_the_2019_rules_with_the_2020_points_and_options():
    rules = get_ruleset("aeronautica/faq-2020")
    base = AeronauticaRules()
    assert isinstance(rules, Faq2020Rules) and rules.name == "aeronautica/faq-2020"
    assert rules.catalogue.aircraft["thunderbolt"].points == 23
    assert rules.catalogue.aircraft["thunderbolt_fury"].points == 25
    assert catalogue_differences(base.catalogue, rules.catalogue) == [
        ("aircraft", "thunderbolt", "points"), ("aircraft", "thunderbolt_fury", "points")]
    assert option_differences(base.options, rules.options) == ["throttle_past_limits", "occupied_hex_roll"]
    assert rules.options.occupied_hex_hits == 1 and not rules.options.throttle_past_limits
    assert rules.data_version != base.data_version and "faq-2020" in rules.data_version


def test_the_declared_2019_version_is_the_default_ruleset():
    built = build_version("wov-2019")
    default = get_ruleset("aeronautica/wov-2019")
    assert built.catalogue == default.catalogue and built.options == default.options
    assert rules_for("wov-2019").name == DEFAULT_VERSION


# ---------------------------------------------------------------- user variants


def write(path: Path, data) -> Path:
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return path


def test_a_variant_file_changes_exactly_what_it_says(tmp_path):
    path = write(tmp_path / "dakka.json", {"base": "aeronautica/wov-2019", "name": "my/dakka-structure-3",
                                           "aircraft": {"dakkajet": {"structure": 3}},
                                           "options": {"occupied_hex_roll": True}})
    rules = load_variant(path)
    base = AeronauticaRules()
    assert rules.name == "my/dakka-structure-3"
    assert catalogue_differences(base.catalogue, rules.catalogue) == [("aircraft", "dakkajet", "structure")]
    assert rules.catalogue.aircraft["dakkajet"].structure == 3
    assert option_differences(base.options, rules.options) == ["occupied_hex_roll"]
    assert get_ruleset("my/dakka-structure-3").catalogue == rules.catalogue
    assert rules_for(str(path)).name == "my/dakka-structure-3"
    assert rules.data_version.startswith("wov-2019.1+dakka-structure-3.")


def test_a_toml_variant_based_on_another_version_inherits_its_changes(tmp_path):
    path = write(tmp_path / "v.toml", 'name = "my/faq-tough-marauder"\nbase = "faq-2020"\n\n'
                                      '[aircraft.marauder]\nstructure = 6\n')
    rules = load_variant(path)
    assert rules.catalogue.aircraft["marauder"].structure == 6
    assert rules.catalogue.aircraft["thunderbolt"].points == 23  # from faq-2020
    assert rules.options.occupied_hex_roll and not rules.options.throttle_past_limits


def test_a_variant_may_add_a_whole_new_profile(tmp_path):
    flak = {"name": "Flak", "fire_arc": {"arcs": ["all_round"]}, "firepower": [2, 2, 2], "damage": 4,
            "special_rules": [{"rule": "ground_to_air"}]}
    rules = load_variant(write(tmp_path / "flak.json", {"base": "wov-2019", "name": "my/flak", "weapons": {"flak": flak}}))
    assert rules.catalogue.weapons["flak"].has_rule("ground_to_air")


@pytest.mark.parametrize("data, field, words", [
    ({"base": "wov-2019", "name": "my/bad", "aircraft": {"dakkajet": {"structure": 0}}},
     "aircraft.dakkajet.structure", "Structure must be 1 or more"),
    ({"base": "wov-2019", "name": "my/bad", "aircraft": {"dakkajet": {"structure": "three"}}},
     "aircraft.dakkajet.structure", "Expected `int`"),
    ({"base": "wov-2019", "name": "my/bad", "aircraft": {"dakkajet": {"strucure": 3}}},
     "aircraft.dakkajet.strucure", "unknown field"),
    ({"base": "wov-2019", "name": "my/bad", "weapons": {"quad_big_shootas": {"damage": 9}}},
     "weapons.quad_big_shootas.damage", "Damage is a D6 score"),
    ({"base": "wov-2019", "name": "my/bad", "aircraft": {"new_plane": {"points": 9}}},
     "aircraft.new_plane.name", "needs a whole profile"),
    ({"base": "wov-2019", "name": "my/bad", "options": {"occupied_hex_rolls": True}},
     "options.occupied_hex_rolls", "unknown rule option"),
    ({"base": "wov-2019", "name": "my/bad", "options": {"occupied_hex_roll": "yes"}},
     "options.occupied_hex_roll", "Expected `bool`"),
    ({"base": "wov-2019", "name": "my/bad", "options": {"occupied_hex_hits": -1}},
     "options.occupied_hex_hits", "0 or more"),
    ({"base": "wov-2019", "name": "my/bad", "options": {"air_to_air_to_hit": 7}},
     "options.air_to_air_to_hit", "a D6 score of 2 to 6"),
    ({"base": "wov-2019", "name": "my/bad", "options": {"air_to_air_to_hit_by_range": {"point_blank": 4}}},
     "options.air_to_air_to_hit_by_range.point_blank", "short, medium and long"),
    ({"base": "wov-2030", "name": "my/bad"}, "base", "unknown base version"),
    ({"name": "my/bad"}, "base", "names the version it changes"),
    ({"base": "wov-2019", "name": "My Bad"}, "name", "lower case"),
    ({"base": "wov-2019", "name": "my/bad", "colour": "red"}, "colour", "unknown field"),
    ({"base": "wov-2019", "name": "aeronautica/faq-2020"}, "name", "a version of the package"),
])
def test_malformed_variant_files_are_refused_naming_file_and_field(tmp_path, data, field, words):
    path = write(tmp_path / "bad.json", data)
    with pytest.raises(DataError) as refused:
        load_variant(path)
    err = refused.value
    assert err.source == str(path) and err.field == field
    assert words in str(err) and str(path) in str(err)


def test_a_json_error_names_the_line(tmp_path):
    path = write(tmp_path / "lines.json", '{\n  "base": "wov-2019",\n  "name": "my/lines",\n  "aircraft": {\n'
                                          '    "dakkajet": {"max_speed": 12}\n  }\n}\n')
    with pytest.raises(DataError, match=r"line 5") as refused:
        load_variant(path)
    assert refused.value.field == "aircraft.dakkajet.max_speed"


@pytest.mark.parametrize("text, suffix", [("{not json", ".json"), ("name = ", ".toml")])
def test_files_that_do_not_parse_are_refused(tmp_path, text, suffix):
    path = write(tmp_path / f"broken{suffix}", text)
    with pytest.raises(DataError, match="not valid"):
        load_variant(path)


def test_a_missing_file_is_a_data_error(tmp_path):
    with pytest.raises(DataError, match="cannot read file"):
        load_variant(tmp_path / "nowhere.json")


def test_an_unknown_version_name_lists_the_known_ones():
    with pytest.raises(KeyError, match="faq-2020"):
        rules_for("faq-2031")


def test_a_variant_to_hit_4_at_short_range_changes_short_range_shots_only(tmp_path):
    """A rules writer's variant (issue: "to-hit 4+ at Short range"): Short range Air-to-Air fire needs 4+,
    Medium range still the printed 5+ (p.22)."""
    from aero_events.hexgrid import RangeBand
    from aero_events.rulesets.aeronautica.weapons import AIR, hit_requirements

    path = write(tmp_path / "close.json", {"base": "wov-2019", "name": "my/close-in",
                                           "options": {"air_to_air_to_hit_by_range": {"short": 4}}})
    rules = load_variant(path)
    weapon = rules.catalogue.weapons["quad_big_shootas"]

    class Level:  # a firer and a target at one Altitude, neither evading
        altitude = 3
        evading = False

    short = hit_requirements(None, AIR, weapon, Level, Level, options=rules.options, band=RangeBand.SHORT)
    medium = hit_requirements(None, AIR, weapon, Level, Level, options=rules.options, band=RangeBand.MEDIUM)
    assert short == (4, ()) and medium == (5, ())
