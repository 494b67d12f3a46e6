"""Building a Force (rulebook p.9) from the Squadron Lists (p.36-47).

Each breach is refused with a RuleError whose rule and page are set.
"""

from __future__ import annotations

import json

import pytest

from aero_events.core.errors import DataError, RuleError
from aero_events.rulesets.aeronautica.forces import (
    AircraftEntry,
    AircraftPoints,
    ForceList,
    encode_force,
    force_breaches,
    force_points,
    load_force,
    parse_force,
    validate_force,
)
from aero_events.rulesets.aeronautica.profiles import load_catalogue


@pytest.fixture(scope="module")
def cat():
    return load_catalogue()


def imperial(*entries: AircraftEntry, limit: int | None = None) -> ForceList:
    return ForceList("Veil Squadron", "imperial_navy", tuple(entries), limit)


def orks(*entries: AircraftEntry, limit: int | None = None) -> ForceList:
    return ForceList("Waaagh! Nafgurz", "ork_air_waaagh", tuple(entries), limit)


def refused(force: ForceList, cat, rule: str, page) -> RuleError:
    with pytest.raises(RuleError) as info:
        validate_force(force, cat)
    err = info.value
    assert (err.rule, err.page) == (rule, page), str(err)
    assert f"p.{page}" in str(err)
    return err


TB = AircraftEntry("thunderbolt")


# ---- points (p.9 and the aircraft entries) ------------------------------------------------------------


def test_points_are_base_plus_weapons_plus_upgrades(cat):
    force = imperial(
        AircraftEntry(
            "thunderbolt", ("hellstrike_missiles", "skystrike_missiles"), ("imperial_ace",), "Angel"
        ),
        AircraftEntry("marauder", ("wing_bombs",) * 4, ("ejector_seats", "armoured_cockpit")),
    )
    points = force_points(force, cat)
    assert points.aircraft == (
        AircraftPoints("thunderbolt", "Angel", 21, 4, 5, 30),
        AircraftPoints("marauder", None, 23, 8, 5, 36),
    )
    assert points.total == 66
    assert validate_force(force, cat) == points


def test_fighta_bommer_big_bombs_cost_4_each_p46(cat):
    points = force_points(orks(AircraftEntry("fighta_bommer", ("big_bombs", "big_bombs"))), cat)
    assert points.total == 28


def test_kustom_big_shootas_points_p45(cat):
    points = force_points(orks(AircraftEntry("dakkajet", ("rokkits",), ("kustom_big_shootas",))), cat)
    assert points.total == 16 + 2 + 3


# ---- the 200-point example (p.9) ----------------------------------------------------------------------


def _nine_thunderbolts(extra_upgrade: str | None = None, extra_points: bool = False) -> list[AircraftEntry]:
    entries = [TB] * 9  # 189 points
    if extra_points:  # +11: four missiles (8) and an armoured cockpit (3) -> 200
        entries[0] = AircraftEntry(
            "thunderbolt", ("hellstrike_missiles", "skystrike_missiles"), ("armoured_cockpit",)
        )
        entries[1] = AircraftEntry("thunderbolt", ("wing_bombs", "wing_bombs"))
    if extra_upgrade:
        entries[8] = AircraftEntry("thunderbolt", upgrades=(extra_upgrade,))
    return entries


@pytest.mark.parametrize(
    "entries,total,legal",
    [
        (_nine_thunderbolts(), 189, False),
        (_nine_thunderbolts("flares_or_chaff_launchers"), 190, True),
        (_nine_thunderbolts(extra_points=True), 200, True),
        (_nine_thunderbolts("flares_or_chaff_launchers", extra_points=True), 201, False),
    ],
    ids=["189", "190", "200", "201"],
)
def test_200_point_example_p9(cat, entries, total, legal):
    force = imperial(*entries, limit=200)
    assert force_points(force, cat).total == total
    if legal:
        assert validate_force(force, cat).total == total
    else:
        err = refused(force, cat, "Building a Force", 9)
        assert str(total) in str(err)


def test_no_points_limit_means_no_points_check(cat):
    assert validate_force(imperial(TB), cat).total == 21


# ---- a single Squadron List (p.9) ---------------------------------------------------------------------


def test_aircraft_from_another_squadron_list_is_refused_p9(cat):
    err = refused(imperial(TB, AircraftEntry("dakkajet")), cat, "Building a Force", 9)
    assert "Dakkajet" in str(err) and "single Squadron List" in str(err)


def test_unknown_faction_is_refused_p9(cat):
    refused(ForceList("x", "tau_air_caste", (TB,)), cat, "Building a Force", 9)


def test_empty_force_is_refused_p9(cat):
    refused(imperial(), cat, "Building a Force", 9)


def test_unknown_aircraft_is_refused(cat):
    err = refused(imperial(AircraftEntry("lightning")), cat, "Squadron Lists", "36-47")
    assert "lightning" in str(err)


# ---- additional weapons (p.38-46) ---------------------------------------------------------------------


def test_unknown_weapon_is_refused(cat):
    err = refused(imperial(AircraftEntry("thunderbolt", ("photon_torpedo",))), cat, "Additional Weaponry", 38)
    assert "photon_torpedo" in str(err)


@pytest.mark.parametrize(
    "aid,weapon,page",
    [
        ("thunderbolt", "rokkits", 38),
        ("thunderbolt_fury", "big_bombs", 40),
        ("marauder", "bomb_bay", 42),
        ("dakkajet", "hellstrike_missiles", 45),
        ("fighta_bommer", "skystrike_missiles", 46),
        ("dakkajet", "kustom_big_shootas", 45),
    ],
)
def test_weapon_not_on_the_aircraft_list_is_refused(cat, aid, weapon, page):
    force = ForceList("f", cat.aircraft[aid].faction, (AircraftEntry(aid, (weapon,)),))
    refused(force, cat, "Additional Weaponry", page)


@pytest.mark.parametrize(
    "aid,weapon,slots,page",
    [
        ("thunderbolt", "hellstrike_missiles", 2, 38),
        ("thunderbolt_fury", "skystrike_missiles", 2, 40),
        ("marauder", "wing_bombs", 4, 42),
        ("dakkajet", "rokkits", 2, 45),
        ("fighta_bommer", "wing_bombs", 3, 46),
        ("fighta_bommer", "big_bombs", 2, 46),
    ],
)
def test_slots_filled_is_legal_one_more_is_refused(cat, aid, weapon, slots, page):
    faction = cat.aircraft[aid].faction
    full = ForceList("f", faction, (AircraftEntry(aid, (weapon,) * slots),))
    assert validate_force(full, cat)
    over = ForceList("f", faction, (AircraftEntry(aid, (weapon,) * (slots + 1)),))
    err = refused(over, cat, "Additional Weaponry", page)
    assert str(slots) in str(err)


def test_fighta_bommer_either_rokkits_and_wing_bombs_p46(cat):
    force = orks(AircraftEntry("fighta_bommer", ("rokkits", "wing_bombs", "rokkits")))
    assert validate_force(force, cat).total == 26


def test_fighta_bommer_or_big_bombs_p46(cat):
    assert validate_force(orks(AircraftEntry("fighta_bommer", ("big_bombs",))), cat).total == 24


@pytest.mark.parametrize(
    "weapons", [("rokkits", "big_bombs"), ("big_bombs", "wing_bombs"), ("wing_bombs", "rokkits", "big_bombs")]
)
def test_fighta_bommer_cannot_mix_the_two_lists_p46(cat, weapons):
    err = refused(orks(AircraftEntry("fighta_bommer", weapons)), cat, "Additional Weaponry", 46)
    assert "EITHER" in str(err) and "Pair of Big Bombs" in str(err)


def test_kustom_big_shootas_take_one_additional_weapon_slot_p45(cat):
    ok = orks(AircraftEntry("dakkajet", ("rokkits",), ("kustom_big_shootas",)))
    assert validate_force(ok, cat)
    over = orks(AircraftEntry("dakkajet", ("rokkits", "wing_bombs"), ("kustom_big_shootas",)))
    refused(over, cat, "Kustom Big Shootas", 45)


def test_kustom_big_shootas_on_the_fighta_bommer_either_list_p45_46(cat):
    assert validate_force(
        orks(AircraftEntry("fighta_bommer", ("rokkits",) * 2, ("kustom_big_shootas",))), cat
    )
    assert validate_force(orks(AircraftEntry("fighta_bommer", ("big_bombs",), ("kustom_big_shootas",))), cat)
    refused(
        orks(AircraftEntry("fighta_bommer", ("big_bombs",) * 2, ("kustom_big_shootas",))),
        cat,
        "Kustom Big Shootas",
        45,
    )
    refused(
        orks(AircraftEntry("fighta_bommer", ("rokkits",) * 3, ("kustom_big_shootas",))),
        cat,
        "Kustom Big Shootas",
        45,
    )


# ---- upgrades (p.36, p.37, p.44-45) -------------------------------------------------------------------


def test_two_upgrades_are_legal_three_are_refused_p36(cat):
    assert validate_force(
        imperial(AircraftEntry("thunderbolt", upgrades=("ejector_seats", "armoured_cockpit"))), cat
    )
    err = refused(
        imperial(
            AircraftEntry(
                "thunderbolt", upgrades=("ejector_seats", "armoured_cockpit", "infra_red_targeting")
            )
        ),
        cat,
        "Aircraft Upgrades",
        36,
    )
    assert "more than 2 upgrades" in str(err)


def test_same_upgrade_twice_on_one_aircraft_is_refused_p36(cat):
    err = refused(
        imperial(AircraftEntry("marauder", upgrades=("ejector_seats", "ejector_seats"))),
        cat,
        "Aircraft Upgrades",
        36,
    )
    assert "twice" in str(err)


def test_same_upgrade_on_two_aircraft_is_legal_p36(cat):
    entry = AircraftEntry("thunderbolt", upgrades=("ejector_seats",))
    assert validate_force(imperial(entry, entry), cat).total == 46


def test_imperial_ace_once_per_force_p37(cat):
    ace = AircraftEntry("thunderbolt", upgrades=("imperial_ace",))
    assert validate_force(imperial(ace, TB), cat)
    err = refused(imperial(ace, ace), cat, "Imperial Ace", 37)
    assert "one aircraft within a force" in str(err)


def test_fly_boss_once_per_force_p44(cat):
    boss = AircraftEntry("dakkajet", upgrades=("fly_boss",))
    assert validate_force(orks(boss, AircraftEntry("dakkajet")), cat)
    refused(orks(boss, AircraftEntry("fighta_bommer", upgrades=("fly_boss",))), cat, "Fly Boss", 44)


def test_upgrade_of_another_faction_is_refused_p36(cat):
    err = refused(
        imperial(AircraftEntry("thunderbolt", upgrades=("fly_boss",))), cat, "Aircraft Upgrades", 36
    )
    assert "Ork Air Waaagh!" in str(err)
    refused(orks(AircraftEntry("dakkajet", upgrades=("ejector_seats",))), cat, "Aircraft Upgrades", 36)


def test_unknown_upgrade_is_refused_p36(cat):
    refused(imperial(AircraftEntry("thunderbolt", upgrades=("afterburner",))), cat, "Aircraft Upgrades", 36)


def test_force_breaches_lists_every_breach(cat):
    force = orks(
        AircraftEntry("fighta_bommer", ("rokkits", "big_bombs"), ("fly_boss", "fly_boss", "belching_smoke")),
        AircraftEntry("dakkajet", upgrades=("fly_boss",)),
        AircraftEntry("thunderbolt"),
        limit=200,
    )
    rules = [(e.rule, e.page) for e in force_breaches(force, cat)]
    assert ("Additional Weaponry", 46) in rules
    assert rules.count(("Aircraft Upgrades", 36)) == 2  # three upgrades; Fly Boss twice
    assert ("Building a Force", 9) in rules  # the Thunderbolt, and the points
    assert ("Fly Boss", 44) in rules
    assert all(isinstance(e, RuleError) and e.page is not None for e in force_breaches(force, cat))


# ---- force list files ---------------------------------------------------------------------------------


def test_load_force_round_trip(tmp_path, cat):
    force = orks(AircraftEntry("dakkajet", ("rokkits",), ("kustom_big_shootas",), "Red Wunz"), limit=25)
    path = tmp_path / "force.json"
    path.write_bytes(encode_force(force))
    assert load_force(path) == force
    assert validate_force(load_force(path), cat).total == 21


def test_load_force_minimal_file(tmp_path):
    path = tmp_path / "force.json"
    path.write_text(
        json.dumps({"name": "n", "faction": "imperial_navy", "aircraft": [{"aircraft": "marauder"}]})
    )
    force = load_force(path)
    assert force.aircraft == (AircraftEntry("marauder"),)
    assert force.points_limit is None


@pytest.mark.parametrize(
    "data,entry,field",
    [
        (
            {
                "name": "n",
                "faction": "imperial_navy",
                "aircraft": [{"aircraft": "marauder", "weapons": "wing_bombs"}],
            },
            "aircraft[0] (marauder)",
            "weapons",
        ),
        (
            {"name": "n", "faction": "imperial_navy", "aircraft": [{"aircraft": "marauder"}, {"craft": "x"}]},
            "aircraft[1]",
            "craft",
        ),
        (
            {"name": "n", "faction": "imperial_navy", "aircraft": [], "points_limit": "200"},
            None,
            "points_limit",
        ),
        ({"name": "n", "faction": "imperial_navy", "aircraft": [], "points_limit": 0}, None, "points_limit"),
        ({"name": "n", "aircraft": []}, None, "faction"),
    ],
)
def test_malformed_force_file_is_refused(tmp_path, data, entry, field):
    path = tmp_path / "force.json"
    path.write_text(json.dumps(data, indent=2))
    with pytest.raises(DataError) as info:
        load_force(path)
    err = info.value
    assert err.source == str(path)
    assert (err.location, err.field) == (entry, field)


def test_force_file_that_is_not_json_is_refused():
    with pytest.raises(DataError) as info:
        parse_force("{name: 1}")
    assert info.value.source == "<string>"
    assert info.value.location == 1
