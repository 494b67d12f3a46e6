"""Weapon special rules (rulebook p.24-25) and the Firepower hook for Night Fighting and Bad Weather (p.33).

Extra Damage (X+), Ground Attack, Aerial Attack, Ground-to-Air Fire and Effective Altitude (X) here;
Tail Gunner in test_firing_tailing.py, Autonomous Weapons in test_autonomous_weapons.py.
"""

from __future__ import annotations

from types import SimpleNamespace

from aero_events.core import Modifier
from aero_events.hexgrid import RangeBand
from aero_events.rulesets.aeronautica.events import DamageRolled, HitsScored, WeaponFired
from aero_events.rulesets.aeronautica.weapons import damage_losses, firepower_dice
from tests.aeronautica.firing_helpers import (
    IMPERIUM,
    ORKS,
    RULES,
    Range,
    S,
    at,
    bunker,
    ground_defence,
    one,
    plane,
    rolls,
)

WEAPONS = RULES.catalogue.weapons
SPARE = plane("imperium-9", "thunderbolt", at(-12, 12))  # keeps the phase open after the tests' volleys


def test_a_lascannon_causes_1_structure_on_2_plus_and_2_on_a_6_p24():
    """p.24: "a lascannon has a Damage characteristic of 2+ and has the Extra Damage (6+) special rule ...
    will cause the target to lose 1 Structure point on rolls of 2 or higher, but should any of the Damage
    dice roll a 6, that dice will cause the target to lose 2 Structure points." A Marauder's Lascannon
    (0-2-1) at Medium range against a 5-Structure target."""
    game = Range(plane("imperium-1", "marauder", at(0, 0)), plane("orks-1", "marauder", at(0, -5), S, owner=ORKS),
                 SPARE)
    events = game.fire("imperium-1", (0, "orks-1"), dice=[5, 6, 2, 6])
    damage = one(events, DamageRolled)
    assert (damage.damaging, damage.structure) == (2, 3)
    assert game.aircraft("orks-1").structure == 2
    assert damage_losses((1, 2, 5, 6), WEAPONS["lascannon"]) == [0, 1, 1, 2]


def test_extra_damage_counts_from_its_own_number_p24():
    """Wing Bombs: Damage 2+, Extra Damage (5+); Big Bombs: Extra Damage (4+)."""
    assert damage_losses((1, 2, 4, 5, 6), WEAPONS["wing_bombs"]) == [0, 1, 1, 2, 2]
    assert damage_losses((3, 4), WEAPONS["big_bombs"]) == [1, 2]
    assert damage_losses((3, 4, 6), WEAPONS["quad_autocannons"]) == [0, 1, 1]  # no Extra Damage


def test_ground_attack_weapons_never_target_anything_at_altitude_1_or_above_p24():
    """p.24: Ground Attack weapons "may only be used against ground targets during a Bombing Run ... they
    can never be used to target anything at Altitude 1 or above"."""
    game = Range(plane("imperium-1", "thunderbolt", at(0, 0),
                       weapons=("twin_lascannons", "quad_autocannons", "hellstrike_missiles")),
                 plane("orks-1", "dakkajet", at(0, -3), S), SPARE,
                 ground_targets=[bunker("bunker", at(1, -4))])
    err = game.refused_fire("imperium-1", (2, "orks-1"))
    assert (err.rule, err.page) == ("Ground Attack", 24)
    events = game.fire("imperium-1", (2, "bunker"), dice=[1, 1])
    assert one(events, WeaponFired).attack == "bombing"


def test_aerial_attack_weapons_never_target_altitude_0_p24():
    """p.24: Aerial Attack weapons "can never be used to target anything at Altitude 0 and cannot be used
    to make a Strafing Run"."""
    game = Range(plane("imperium-1", "thunderbolt", at(0, 0), altitude=1,
                       weapons=("twin_lascannons", "quad_autocannons", "skystrike_missiles")), SPARE,
                 plane("orks-1", "dakkajet", at(5, 5)), ground_targets=[bunker("bunker", at(0, -5))])
    err = game.refused_fire("imperium-1", (2, "bunker"))
    assert (err.rule, err.page) == ("Aerial Attack", 24)
    game.fire("imperium-1", (1, "bunker"), dice=[1] * 6)  # the autocannons may strafe it


def test_ground_to_air_weapons_are_used_at_altitude_0_against_altitude_1_or_above_p25():
    """p.25: "Weapons with this special rule can only be used at Altitude 0 and may only target aircraft at
    Altitude 1 or above\""""
    flying_flak = Range(plane("imperium-1", "thunderbolt", at(0, 0), weapons=("test_flak",)), SPARE,
                        plane("orks-1", "dakkajet", at(0, -3), S))
    err = flying_flak.refused_fire("imperium-1", (0, "orks-1"))
    assert (err.rule, err.page) == ("Ground-to-Air Fire", 25)
    game = Range(ground_defence("imperium-1", at(0, 0)), SPARE, plane("orks-1", "dakkajet", at(0, -3), S),
                 plane("orks-2", "dakkajet", at(2, 2), S, status="landed", altitude=0, speed=0))
    err = game.refused_fire("imperium-1", (0, "orks-2"))
    assert err.page == 25
    events = game.fire("imperium-1", (0, "orks-1"), dice=[5, 5, 1, 1])
    assert one(events, WeaponFired).attack == "ground_to_air"


def test_effective_altitude_minus_one_per_level_above_it_p25_p28():
    """p.28: "-1 to the dice roll per level of Altitude the target is above the firing weapon's Effective
    Altitude (X)" and "-1 if the target has a Stall or Spin token". Test Flak: Effective Altitude (2)."""
    for altitude, expected in ((1, 0), (2, 0), (3, -1), (4, -2)):
        game = Range(ground_defence("imperium-1", at(0, 0)), SPARE,
                     plane("orks-1", "dakkajet", at(0, -3), S, altitude=altitude))
        events = game.fire("imperium-1", (0, "orks-1"), dice=[6, 6, 6, 1, 1, 1])
        assert rolls(events, "to hit")[0].total_modifier == expected
    game = Range(ground_defence("imperium-1", at(0, 0)), SPARE,
                 plane("orks-1", "dakkajet", at(0, -3), S, altitude=3, stalled=True))
    events = game.fire("imperium-1", (0, "orks-1"), dice=[6, 5, 5])
    roll = rolls(events, "to hit")[0]
    assert set(roll.modifiers) == {Modifier("target has a Stall or Spin token", -1),
                                   Modifier("target 1 Altitude level(s) above the Effective Altitude", -1)}
    assert one(events, HitsScored).hits == 0  # 6 - 2 = 4


def test_night_fighting_only_short_and_medium_range_medium_halved_rounding_up_p33():
    """p.33: "aircraft may only fire at targets at Short and Medium range. Additionally, the number of
    Firepower dice rolled at Medium range is halved, rounding fractions up.\""""
    night = SimpleNamespace(night_fighting=True, cloud_level=None)
    firer = plane("imperium-1", "thunderbolt", at(0, 0))
    autocannons, lascannons, turret = WEAPONS["quad_autocannons"], WEAPONS["twin_lascannons"], WEAPONS[
        "turret_big_shootas"]
    assert firepower_dice(RULES, night, firer, autocannons, RangeBand.SHORT) == 2
    assert firepower_dice(RULES, night, firer, autocannons, RangeBand.MEDIUM) == 3
    assert firepower_dice(RULES, night, firer, turret, RangeBand.MEDIUM) == 1  # 1/2 rounds up
    assert firepower_dice(RULES, night, firer, lascannons, RangeBand.LONG) == 0
    assert firepower_dice(RULES, SimpleNamespace(), firer, lascannons, RangeBand.LONG) == 1  # no such fields
    game = Range(firer, plane("orks-1", "dakkajet", at(0, -5), S), SPARE, night_fighting=True)
    events = game.fire("imperium-1", (1, "orks-1"), dice=[1, 1, 1])
    assert one(events, WeaponFired).dice == 3


def test_bad_weather_applies_night_fighting_to_a_firer_at_or_below_the_cloud_level_p33():
    """p.33: "Above this Altitude level, all of the normal rules apply. At this Altitude level or below,
    aircraft follow the Night Fighting rules" - the firer's Altitude decides."""
    cloud = SimpleNamespace(night_fighting=False, cloud_level=2)
    autocannons = WEAPONS["quad_autocannons"]
    low = plane("imperium-1", "thunderbolt", at(0, 0), altitude=2)
    high = plane("imperium-1", "thunderbolt", at(0, 0), altitude=3)
    assert firepower_dice(RULES, cloud, low, autocannons, RangeBand.MEDIUM) == 3
    assert firepower_dice(RULES, cloud, high, autocannons, RangeBand.MEDIUM) == 6


def test_a_ground_defence_fires_in_the_alternation_like_an_aircraft_p28():
    """p.28: "A player may choose a Ground Defence to fire ... as if it was another aircraft in their
    force" - and it never chooses a manoeuvre or moves (p.8)."""
    from aero_events.rulesets.aeronautica.turn import eligible_to_choose, eligible_to_move

    flak = ground_defence("imperium-1", at(0, 0))
    assert not eligible_to_choose(flak) and not eligible_to_move(flak)
    game = Range(flak, plane("orks-1", "dakkajet", at(0, -3), S), plane("orks-2", "dakkajet", at(6, -3), S))
    assert game.state.to_act == IMPERIUM
    game.fire("imperium-1", (0, "orks-1"), (1, "orks-2"), dice=[1] * 5)
    assert game.state.to_act == ORKS
