"""Malformed data files are refused with a DataError naming file, entry and field (and line).

Ranges checked come from the rulebook: profile characteristics p.10-11, Min Speed 0 = hovering p.16,
Max Altitude 1-5 p.18, Ace Manoeuvres 1-8 p.16, weapon special rules p.24-25, Fire Arcs p.21,
Ground-to-Air p.28, Rocket Boosters and Jump Troops p.37.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import msgspec
import pytest

from aero_events.core.errors import DataError
from aero_events.rulesets.aeronautica.profiles import (
    AircraftProfile,
    FireArcs,
    JsonDocument,
    WeaponProfile,
    WeaponSpecialRule,
    build_catalogue,
    data_path,
    load_catalogue,
    load_catalogue_from,
)

FILES = ("aircraft", "weapons", "upgrades")


def _original(kind: str) -> dict:
    return json.loads(data_path(f"{kind}.json").read_text())


def _write(tmp_path: Path, **changed: dict) -> tuple[Path, Path, Path]:
    paths = []
    for kind in FILES:
        data = changed.get(kind, _original(kind))
        path = tmp_path / f"{kind}.json"
        path.write_text(json.dumps(data, indent=2))
        paths.append(path)
    return tuple(paths)


def _refused(tmp_path: Path, **changed: dict) -> DataError:
    paths = _write(tmp_path, **changed)
    with pytest.raises(DataError) as info:
        load_catalogue_from(*paths)
    return info.value


def _aircraft(edit) -> dict:
    data = _original("aircraft")
    edit({a["id"]: a for a in data["aircraft"]})
    return data


def _weapons(edit) -> dict:
    data = _original("weapons")
    edit({w["id"]: w for w in data["weapons"]})
    return data


def test_max_speed_fast_is_refused_naming_file_entry_field(tmp_path):
    err = _refused(tmp_path, aircraft=_aircraft(lambda a: a["dakkajet"].update(max_speed="fast")))
    assert err.source.endswith("aircraft.json")
    assert err.location == "dakkajet"
    assert err.field == "max_speed"
    text = str(err)
    assert "aircraft.json" in text and "dakkajet" in text and "max_speed" in text
    # the line of "max_speed" in the dakkajet entry
    lines = (tmp_path / "aircraft.json").read_text().splitlines()
    assert '"max_speed": "fast"' in lines[err.line - 1]
    assert f"line {err.line}" in text


def test_unknown_field_is_refused(tmp_path):
    err = _refused(tmp_path, aircraft=_aircraft(lambda a: a["marauder"].update(top_speed=9)))
    assert (err.location, err.field) == ("marauder", "top_speed")
    assert "unknown field" in str(err)
    assert '"top_speed"' in (tmp_path / "aircraft.json").read_text().splitlines()[err.line - 1]


def test_missing_field_is_refused(tmp_path):
    err = _refused(tmp_path, aircraft=_aircraft(lambda a: a["thunderbolt_fury"].pop("handling")))
    assert (err.location, err.field) == ("thunderbolt_fury", "handling")
    assert "missing required field" in str(err)


def test_missing_weapon_reference_is_refused(tmp_path):
    err = _refused(
        tmp_path,
        aircraft=_aircraft(lambda a: a["thunderbolt"].update(weapons=["twin_lascannons", "laser_death_ray"])),
    )
    assert err.source.endswith("aircraft.json")
    assert (err.location, err.field) == ("thunderbolt", "weapons[1]")
    assert "laser_death_ray" in str(err)


def test_missing_additional_weapon_reference_is_refused(tmp_path):
    def edit(a):
        a["fighta_bommer"]["additional_weapons"][1]["choices"][0]["weapon"] = "huge_bombs"

    err = _refused(tmp_path, aircraft=_aircraft(edit))
    assert (err.location, err.field) == ("fighta_bommer", "additional_weapons[1].choices[0].weapon")


def test_weapon_removed_from_weapons_file_breaks_the_aircraft_referring_to_it(tmp_path):
    weapons = _original("weapons")
    weapons["weapons"] = [w for w in weapons["weapons"] if w["id"] != "tail_gun"]
    err = _refused(tmp_path, weapons=weapons)
    assert err.source.endswith("aircraft.json")
    assert (err.location, err.field) == ("fighta_bommer", "weapons[2]")


def test_nested_type_error_names_the_nested_field(tmp_path):
    def edit(a):
        a["marauder"]["additional_weapons"][0]["slots"] = "four"

    err = _refused(tmp_path, aircraft=_aircraft(edit))
    assert (err.location, err.field) == ("marauder", "additional_weapons[0].slots")


@pytest.mark.parametrize(
    "aid,field,value,why",
    [
        ("dakkajet", "min_speed", 9, "Min Speed 9 is above Max Speed 8"),
        ("thunderbolt", "max_altitude", 6, "Max Altitude must be 1 to 5"),
        ("thunderbolt", "max_altitude", 0, "Max Altitude must be 1 to 5"),
        ("marauder", "throttle", -1, "Throttle cannot be negative"),
        ("marauder", "handling", 7, "Handling"),
        ("marauder", "handling", 1, "Handling"),
        ("dakkajet", "structure", 0, "Structure"),
        ("dakkajet", "max_speed", 10, "Max Speed must be 1 to 9"),
        ("dakkajet", "transport", 0, "Transport"),
        ("dakkajet", "fuel", 0, "Fuel"),
        ("dakkajet", "min_speed", -1, "Min Speed cannot be negative"),
    ],
)
def test_characteristic_out_of_range_is_refused_p10_11(tmp_path, aid, field, value, why):
    err = _refused(tmp_path, aircraft=_aircraft(lambda a: a[aid].update({field: value})))
    assert (err.location, err.field) == (aid, field)
    assert why in str(err)


def test_ace_manoeuvre_outside_1_to_8_is_refused_p16(tmp_path):
    err = _refused(tmp_path, aircraft=_aircraft(lambda a: a["dakkajet"].update(ace_manoeuvres=[1, 2, 9])))
    assert (err.location, err.field) == ("dakkajet", "ace_manoeuvres[2]")


def test_unknown_class_is_refused(tmp_path):
    err = _refused(tmp_path, aircraft=_aircraft(lambda a: a["dakkajet"].update({"class": "Zeppelin"})))
    assert (err.location, err.field) == ("dakkajet", "class")


def test_unknown_faction_is_refused(tmp_path):
    err = _refused(tmp_path, aircraft=_aircraft(lambda a: a["dakkajet"].update(faction="tau_air_caste")))
    assert (err.location, err.field) == ("dakkajet", "faction")


def test_unknown_aircraft_special_rule_is_refused(tmp_path):
    err = _refused(tmp_path, aircraft=_aircraft(lambda a: a["dakkajet"].update(special_rules=["warp_drive"])))
    assert (err.location, err.field) == ("dakkajet", "special_rules[0]")


def test_duplicate_aircraft_id_is_refused(tmp_path):
    data = _original("aircraft")
    data["aircraft"].append(copy.deepcopy(data["aircraft"][0]))
    err = _refused(tmp_path, aircraft=data)
    assert (err.location, err.field) == ("thunderbolt", "id")
    assert "two entries" in str(err)


def test_duplicate_key_in_an_object_is_refused(tmp_path):
    paths = _write(tmp_path)
    text = paths[0].read_text().replace('"max_speed": 8,', '"max_speed": 8,\n      "max_speed": 9,', 1)
    paths[0].write_text(text)
    with pytest.raises(DataError) as info:
        load_catalogue_from(*paths)
    err = info.value
    assert (err.location, err.field) == ("dakkajet", "max_speed")
    assert "appears twice" in str(err)


def test_invalid_json_gives_the_line(tmp_path):
    paths = _write(tmp_path)
    text = paths[1].read_text()
    lines = text.splitlines()
    target = next(i for i, line in enumerate(lines) if '"id": "rokkits"' in line)
    lines[target] = lines[target].rstrip(",")  # drop the comma after the id
    paths[1].write_text("\n".join(lines))
    with pytest.raises(DataError) as info:
        load_catalogue_from(*paths)
    err = info.value
    assert err.source.endswith("weapons.json")
    assert err.location == target + 2  # the next line is where the parser stops
    assert "not valid JSON" in str(err)


def test_missing_file_is_a_data_error(tmp_path):
    paths = _write(tmp_path)
    with pytest.raises(DataError) as info:
        load_catalogue_from(tmp_path / "nope.json", paths[1], paths[2])
    assert info.value.source.endswith("nope.json")


def test_mixed_data_versions_are_refused(tmp_path):
    weapons = _original("weapons")
    weapons["data_version"] = "faq-2020.1"
    err = _refused(tmp_path, weapons=weapons)
    assert err.source.endswith("weapons.json")
    assert err.field == "data_version"


@pytest.mark.parametrize(
    "wid,edit,field,why",
    [
        ("lascannon", {"damage": 7}, "damage", "Damage"),
        ("lascannon", {"ammo": 4}, "ammo", "Ammo"),
        ("lascannon", {"firepower": [0, 2]}, "firepower", "Expected `array` of length 3"),
        ("lascannon", {"firepower": [0, -2, 1]}, "firepower[1]", "negative"),
        (
            "lascannon",
            {"special_rules": [{"rule": "extra_damage"}]},
            "special_rules[0].value",
            "needs a value",
        ),
        (
            "lascannon",
            {"special_rules": [{"rule": "extra_damage", "value": 2}]},
            "special_rules[0].value",
            "above the Damage",
        ),
        (
            "tail_gun",
            {"special_rules": [{"rule": "tail_gunner", "value": 3}]},
            "special_rules[0].value",
            "takes no value",
        ),
        (
            "tail_gun",
            {"special_rules": [{"rule": "laser_guided"}]},
            "special_rules[0].rule",
            "Invalid enum value",
        ),
        ("tail_gun", {"fire_arc": {"arcs": ["rear", "behind"]}}, "fire_arc.arcs[1]", "Invalid enum value"),
        (
            "dorsal_turret",
            {"fire_arc": {"arcs": ["all_round"], "vertical": None}},
            "fire_arc.vertical",
            "Up or Down",
        ),
        (
            "dorsal_turret",
            {"fire_arc": {"arcs": ["all_round", "front"], "vertical": "up"}},
            "fire_arc.arcs",
            "alone",
        ),
        (
            "skystrike_missiles",
            {"special_rules": [{"rule": "aerial_attack"}, {"rule": "ground_attack"}]},
            "special_rules",
            "exclude each other",
        ),
        ("rokkits", {"special_rules": [{"rule": "ground_to_air"}]}, "fire_arc.arcs", "All Round Fire Arc"),
        (
            "rokkits",
            {"special_rules": [{"rule": "effective_altitude", "value": 3}]},
            "special_rules[0].rule",
            "Ground-to-Air",
        ),
    ],
)
def test_malformed_weapon_is_refused_p11_p21_p24(tmp_path, wid, edit, field, why):
    err = _refused(tmp_path, weapons=_weapons(lambda w: w[wid].update(edit)))
    assert err.source.endswith("weapons.json")
    assert (err.location, err.field) == (wid, field)
    assert why in str(err)


def test_upgrade_with_unknown_weapon_is_refused(tmp_path):
    data = _original("upgrades")
    next(u for u in data["upgrades"] if u["id"] == "kustom_big_shootas")["weapon"] = "kustom_mega_shootas"
    err = _refused(tmp_path, upgrades=data)
    assert err.source.endswith("upgrades.json")
    assert (err.location, err.field) == ("kustom_big_shootas", "weapon")


def test_upgrade_with_unknown_field_is_refused(tmp_path):
    data = _original("upgrades")
    data["upgrades"][0]["cost"] = 2
    err = _refused(tmp_path, upgrades=data)
    assert (err.location, err.field) == ("ejector_seats", "cost")


def test_option_group_prices_must_agree(tmp_path):
    def edit(a):
        a["fighta_bommer"]["additional_weapons"][1]["choices"].append({"weapon": "rokkits", "points": 3})

    err = _refused(tmp_path, aircraft=_aircraft(edit))
    assert (err.location, err.field) == ("fighta_bommer", "additional_weapons[1].choices[1].points")


# ----------------------------------------------------------------------------------------------------------
# What the rules allow even where the five aircraft do not use it
# ----------------------------------------------------------------------------------------------------------


def test_hover_transport_fuel_and_rocket_boosters_are_accepted_p11_p16_p37(tmp_path):
    def edit(a):
        a["marauder"].update(
            min_speed=0, transport=2, fuel=3, special_rules=["rocket_boosters", "jump_troops"]
        )

    paths = _write(tmp_path, aircraft=_aircraft(edit))
    cat = load_catalogue_from(*paths)
    m = cat.aircraft["marauder"]
    assert m.can_hover and m.min_speed == 0  # p.16: Min Speed 0 means it can Hover
    assert m.transport == 2 and m.fuel == 3
    assert m.has_rule("rocket_boosters") and m.has_rule("jump_troops")


def test_jump_troops_need_transport_p37(tmp_path):
    err = _refused(
        tmp_path, aircraft=_aircraft(lambda a: a["marauder"].update(special_rules=["jump_troops"]))
    )
    assert (err.location, err.field) == ("marauder", "special_rules")


def _cat():
    return load_catalogue()


def test_a_ground_defence_profile_made_in_code_p8_p28():
    cat = _cat()
    flak = WeaponProfile(
        id="flak_battery",
        name="Flak Battery",
        fire_arc=FireArcs(arcs=("all_round",)),
        firepower=(0, 3, 3),
        damage=4,
        special_rules=(WeaponSpecialRule("ground_to_air"), WeaponSpecialRule("effective_altitude", 3)),
    )
    gd = AircraftProfile(
        id="flak_emplacement",
        name="Flak Emplacement",
        faction="imperial_navy",
        aircraft_class="Ground Defence",
        points=10,
        structure=2,
        throttle=0,
        ace_manoeuvres=(),
        min_speed=0,
        max_speed=0,
        max_altitude=0,
        handling=4,
        weapons=("flak_battery",),
    )
    built = build_catalogue(
        factions=cat.factions.values(),
        aircraft=[*cat.aircraft.values(), gd],
        weapons=[*cat.weapons.values(), flak],
        upgrades=cat.upgrades.values(),
        data_version="test",
        source="made in a test",
    )
    assert built.aircraft["flak_emplacement"].is_ground_defence
    assert built.weapons["flak_battery"].rule_value("effective_altitude") == 3


def test_build_catalogue_refuses_a_bad_profile_made_in_code():
    cat = _cat()
    bad = msgspec.structs.replace(cat.aircraft["dakkajet"], id="slow_jet", min_speed=5, max_speed=4)
    with pytest.raises(DataError) as info:
        build_catalogue(
            factions=cat.factions.values(),
            aircraft=[bad],
            weapons=cat.weapons.values(),
            upgrades=cat.upgrades.values(),
            data_version="t",
            source="t",
        )
    assert (info.value.source, info.value.location, info.value.field) == (
        "<catalogue>",
        "slow_jet",
        "min_speed",
    )


def test_json_document_maps_paths_to_lines():
    text = '{\n  "aircraft": [\n    {"id": "a",\n     "x": 1},\n    {"id": "b", "x": [1,\n 2]}\n  ]\n}'
    doc = JsonDocument(text, "<string>")
    assert doc.line_of(("aircraft", 0, "x")) == 4
    assert doc.line_of(("aircraft", 1, "x", 1)) == 6
    assert doc.line_of(("aircraft", 1, "nope")) == 5
    assert doc.split(("aircraft", 1, "x", 0)) == ("b", "x[0]")
