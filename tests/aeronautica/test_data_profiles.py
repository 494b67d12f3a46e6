"""The shipped profiles load as the rulebook writes them.

Aircraft profile characteristics: rulebook p.10-11. Squadron Lists p.36-47: Thunderbolt p.38, Thunderbolt
Fury p.40, Marauder p.42, Dakkajet p.45, Fighta Bommer p.46; upgrades p.36-37 and p.44-45. Numbers as in
AERONAUTICA-DATA.md (cross-checked against BSData/aeronautica-imperialis 2019 launch files).
"""

from __future__ import annotations

import json

import pytest

from aero_events.rulesets.aeronautica.profiles import (
    AircraftProfile,
    data_path,
    load_catalogue,
)


@pytest.fixture(scope="module")
def cat():
    return load_catalogue()


# id, faction, class, points, structure, throttle, ace manoeuvres, min speed, max speed, max alt, handling, page
AIRCRAFT_TABLE = [
    ("thunderbolt", "Thunderbolt Fighter", "imperial_navy", "Fighter", 21, 3, 2, range(1, 7), 2, 6, 5, 3, 38),
    (
        "thunderbolt_fury",
        "Thunderbolt Fury Fighter",
        "imperial_navy",
        "Fighter",
        23,
        3,
        2,
        range(1, 7),
        2,
        6,
        5,
        3,
        40,
    ),
    ("marauder", "Marauder Bomber", "imperial_navy", "Bomber", 23, 5, 1, range(1, 4), 2, 5, 5, 4, 42),
    ("dakkajet", "Dakkajet", "ork_air_waaagh", "Fighter", 16, 2, 2, range(1, 6), 4, 8, 4, 4, 45),
    ("fighta_bommer", "Fighta Bommer", "ork_air_waaagh", "Fighter", 20, 3, 1, range(1, 5), 3, 7, 4, 4, 46),
]


@pytest.mark.parametrize(
    "aid,name,faction,klass,points,structure,throttle,aces,min_speed,max_speed,max_alt,handling,page",
    AIRCRAFT_TABLE,
    ids=[row[0] for row in AIRCRAFT_TABLE],
)
def test_aircraft_profile_characteristics_p10_11(
    cat,
    aid,
    name,
    faction,
    klass,
    points,
    structure,
    throttle,
    aces,
    min_speed,
    max_speed,
    max_alt,
    handling,
    page,
):
    a = cat.aircraft[aid]
    assert isinstance(a, AircraftProfile)
    assert a.name == name
    assert a.faction == faction
    assert a.aircraft_class == klass
    assert a.points == points
    assert a.structure == structure
    assert a.throttle == throttle
    assert a.ace_manoeuvres == tuple(aces)
    assert a.min_speed == min_speed
    assert a.max_speed == max_speed
    assert a.max_altitude == max_alt
    assert a.handling == handling
    assert a.page == page
    # Transport and Fuel are '-' for all five (p.11).
    assert a.transport is None
    assert a.fuel is None
    assert a.special_rules == ()
    assert a.max_upgrades == 2  # p.36: "No aircraft may take more than two upgrades"


def test_exactly_the_five_2019_aircraft_p36_47(cat):
    assert set(cat.aircraft) == {"thunderbolt", "thunderbolt_fury", "marauder", "dakkajet", "fighta_bommer"}
    assert set(cat.factions) == {"imperial_navy", "ork_air_waaagh"}
    assert cat.factions["ork_air_waaagh"].name == "Ork Air Waaagh!"


STANDARD_WEAPONS = [
    ("thunderbolt", ("twin_lascannons", "quad_autocannons")),
    ("thunderbolt_fury", ("twin_lascannons", "avenger_bolt_cannon")),
    ("marauder", ("lascannon", "dorsal_turret", "rear_turret", "bomb_bay")),
    ("dakkajet", ("quad_big_shootas",)),
    ("fighta_bommer", ("quad_big_shootas", "turret_big_shootas", "tail_gun")),
]


@pytest.mark.parametrize("aid,weapons", STANDARD_WEAPONS, ids=[r[0] for r in STANDARD_WEAPONS])
def test_standard_weaponry_p38_46(cat, aid, weapons):
    assert cat.aircraft[aid].weapons == weapons


# id, name, arcs, vertical, firepower, damage, ammo, special rules as (rule, value)
WEAPON_TABLE = [
    ("twin_lascannons", "Twin Lascannons", ("front",), None, (0, 2, 1), 2, None, {("extra_damage", 6)}),
    ("quad_autocannons", "Quad Autocannons", ("front",), None, (2, 6, 0), 4, None, set()),
    (
        "avenger_bolt_cannon",
        "Avenger Bolt Cannon",
        ("front",),
        None,
        (3, 7, 0),
        4,
        None,
        {("extra_damage", 6)},
    ),
    ("lascannon", "Lascannon", ("front",), None, (0, 2, 1), 2, None, {("extra_damage", 6)}),
    ("dorsal_turret", "Dorsal Turret", ("all_round",), "up", (3, 2, 0), 5, None, {("aerial_attack", None)}),
    (
        "rear_turret",
        "Rear Turret",
        ("rear",),
        None,
        (3, 2, 0),
        5,
        None,
        {("tail_gunner", None), ("aerial_attack", None)},
    ),
    (
        "bomb_bay",
        "Bomb Bay",
        ("rear",),
        None,
        (8, 0, 0),
        2,
        3,
        {("ground_attack", None), ("extra_damage", 5)},
    ),
    ("quad_big_shootas", "Quad Big Shootas", ("front",), None, (8, 4, 0), 5, None, set()),
    (
        "turret_big_shootas",
        "Turret Big Shootas",
        ("rear", "left", "right"),
        "up",
        (3, 1, 0),
        5,
        None,
        {("tail_gunner", None), ("aerial_attack", None)},
    ),
    (
        "tail_gun",
        "Tail Gun",
        ("rear",),
        None,
        (1, 0, 0),
        6,
        None,
        {("tail_gunner", None), ("aerial_attack", None)},
    ),
    (
        "hellstrike_missiles",
        "Pair of Hellstrike Missiles",
        ("front",),
        None,
        (2, 2, 2),
        3,
        1,
        {("ground_attack", None), ("extra_damage", 6)},
    ),
    (
        "skystrike_missiles",
        "Pair of Skystrike Missiles",
        ("front",),
        None,
        (0, 2, 2),
        3,
        1,
        {("aerial_attack", None), ("extra_damage", 6)},
    ),
    (
        "wing_bombs",
        "Pair of Wing Bombs",
        ("rear",),
        None,
        (4, 0, 0),
        2,
        1,
        {("ground_attack", None), ("extra_damage", 5)},
    ),
    ("rokkits", "Pair of Rokkits", ("front",), None, (3, 2, 1), 3, 1, set()),
    (
        "big_bombs",
        "Pair of Big Bombs",
        ("rear",),
        None,
        (6, 0, 0),
        2,
        1,
        {("ground_attack", None), ("extra_damage", 4)},
    ),
    ("kustom_big_shootas", "Kustom Big Shootas", ("front",), None, (2, 2, 0), 5, None, set()),
]


@pytest.mark.parametrize(
    "wid,name,arcs,vertical,firepower,damage,ammo,rules", WEAPON_TABLE, ids=[r[0] for r in WEAPON_TABLE]
)
def test_weapon_profiles_p11_p21_p24(cat, wid, name, arcs, vertical, firepower, damage, ammo, rules):
    w = cat.weapons[wid]
    assert w.name == name
    assert set(w.fire_arc.arcs) == set(arcs)
    assert w.fire_arc.vertical == vertical
    assert w.firepower == firepower
    assert w.damage == damage
    assert w.ammo == ammo
    assert {(r.rule, r.value) for r in w.special_rules} == rules


def test_every_weapon_in_the_file_is_in_the_table(cat):
    assert set(cat.weapons) == {row[0] for row in WEAPON_TABLE}


def test_weapon_rule_helpers_extra_damage_p24(cat):
    lascannon = cat.weapons["lascannon"]
    assert lascannon.has_rule("extra_damage")
    assert lascannon.rule_value("extra_damage") == 6
    assert not lascannon.has_rule("tail_gunner")
    assert lascannon.rule_value("effective_altitude") is None


# aircraft, [(group slots, {weapon: points})]
ADDITIONAL_WEAPONS = [
    ("thunderbolt", [(2, {"hellstrike_missiles": 2, "skystrike_missiles": 2, "wing_bombs": 2})]),
    ("thunderbolt_fury", [(2, {"hellstrike_missiles": 2, "skystrike_missiles": 2, "wing_bombs": 2})]),
    ("marauder", [(4, {"hellstrike_missiles": 2, "skystrike_missiles": 2, "wing_bombs": 2})]),
    ("dakkajet", [(2, {"rokkits": 2, "wing_bombs": 2})]),
    ("fighta_bommer", [(3, {"rokkits": 2, "wing_bombs": 2}), (2, {"big_bombs": 4})]),
]


@pytest.mark.parametrize("aid,groups", ADDITIONAL_WEAPONS, ids=[r[0] for r in ADDITIONAL_WEAPONS])
def test_additional_weaponry_slots_and_points_p38_46(cat, aid, groups):
    got = [(g.slots, {c.weapon: c.points for c in g.choices}) for g in cat.aircraft[aid].additional_weapons]
    assert got == groups


def test_fighta_bommer_either_or_is_two_option_groups_p46(cat):
    rokkits, big_bombs = cat.aircraft["fighta_bommer"].additional_weapons
    assert rokkits.slots == 3 and rokkits.option("rokkits").points == 2
    assert rokkits.option("big_bombs") is None
    assert big_bombs.slots == 2 and big_bombs.option("big_bombs").points == 4


UPGRADE_TABLE = [
    ("ejector_seats", "imperial_navy", 2, 37, False),
    ("flares_or_chaff_launchers", "imperial_navy", 1, 37, False),
    ("infra_red_targeting", "imperial_navy", 2, 37, False),
    ("imperial_ace", "imperial_navy", 5, 37, True),
    ("armoured_cockpit", "imperial_navy", 3, 37, False),
    ("belching_smoke", "ork_air_waaagh", 1, 44, False),
    ("fly_boss", "ork_air_waaagh", 5, 44, True),
    ("wazmek_speshul", "ork_air_waaagh", 2, 44, False),
    ("extra_armour", "ork_air_waaagh", 2, 44, False),
    ("kustom_big_shootas", "ork_air_waaagh", 3, 45, False),
]


@pytest.mark.parametrize(
    "uid,faction,points,page,one_per_force", UPGRADE_TABLE, ids=[r[0] for r in UPGRADE_TABLE]
)
def test_aircraft_upgrades_p37_p44_45(cat, uid, faction, points, page, one_per_force):
    u = cat.upgrades[uid]
    assert u.faction == faction
    assert u.points == points
    assert u.page == page
    assert u.one_per_force is one_per_force
    assert u.summary.strip()
    assert not u.repeatable  # p.36: "no upgrade can be taken twice on the same aircraft"


def test_every_upgrade_is_in_the_table(cat):
    assert set(cat.upgrades) == {row[0] for row in UPGRADE_TABLE}


def test_kustom_big_shootas_takes_a_weapon_slot_p45(cat):
    u = cat.upgrades["kustom_big_shootas"]
    assert u.takes_weapon_slot is True
    assert u.weapon == "kustom_big_shootas"
    assert sum(x.takes_weapon_slot for x in cat.upgrades.values()) == 1


def test_wazmek_speshul_raises_both_speeds_up_to_9_p44(cat):
    from aero_events.rulesets.aeronautica.profiles import apply_upgrades

    dakka = apply_upgrades(cat.aircraft["dakkajet"], [cat.upgrades["wazmek_speshul"]])
    assert (dakka.min_speed, dakka.max_speed) == (5, 9)
    twice = apply_upgrades(dakka, [cat.upgrades["wazmek_speshul"]])
    assert (twice.min_speed, twice.max_speed) == (6, 9)  # "up to a maximum of 9"


def test_extra_armour_reduces_max_speed_p44(cat):
    from aero_events.rulesets.aeronautica.profiles import apply_upgrades

    bommer = apply_upgrades(cat.aircraft["fighta_bommer"], [cat.upgrades["extra_armour"]])
    assert bommer.max_speed == 6
    assert bommer.min_speed == 3


def test_kustom_big_shootas_adds_its_weapon_p45(cat):
    from aero_events.rulesets.aeronautica.profiles import apply_upgrades

    dakka = apply_upgrades(cat.aircraft["dakkajet"], [cat.upgrades["kustom_big_shootas"]])
    assert dakka.weapons == ("quad_big_shootas", "kustom_big_shootas")
    assert cat.aircraft["dakkajet"].weapons == ("quad_big_shootas",)  # the original is untouched


@pytest.mark.parametrize("name", ["aircraft.json", "weapons.json", "upgrades.json", "manoeuvres.json"])
def test_data_files_name_their_source_and_version(name):
    data = json.loads(data_path(name).read_text())
    assert data["data_version"] == "wov-2019.1"
    assert "Wings of Vengeance" in data["source"]
    if name != "manoeuvres.json":
        assert "BSData/aeronautica-imperialis" in data["source"]


def test_catalogue_names_version_and_source(cat):
    assert cat.data_version == "wov-2019.1"
    assert "p.38" in cat.source and "BSData" in cat.source


def test_default_catalogue_is_cached():
    assert load_catalogue() is load_catalogue()


def test_catalogue_loads_from_a_directory(tmp_path, cat):
    for name in ("aircraft.json", "weapons.json", "upgrades.json"):
        (tmp_path / name).write_bytes(data_path(name).read_bytes())
    again = load_catalogue(tmp_path)
    assert again == cat
    assert again is not cat


def test_catalogue_by_faction(cat):
    assert [a.id for a in cat.aircraft_of("ork_air_waaagh")] == ["dakkajet", "fighta_bommer"]
    assert {u.id for u in cat.upgrades_of("imperial_navy")} == {
        "ejector_seats",
        "flares_or_chaff_launchers",
        "infra_red_targeting",
        "imperial_ace",
        "armoured_cockpit",
    }
