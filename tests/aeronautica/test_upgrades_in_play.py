"""Aircraft upgrades in play (rulebook p.37 Imperial Navy, p.44-45 Orks): Flares or Chaff Launchers,
Belching Smoke, Infra-red Targeting, Imperial Ace, Fly Boss, Armoured Cockpit, Extra Armour.

A Dakkajet with Rokkits carries 0: Quad Big Shootas (Front, 8-4-0, 5+, UL) and 1: Pair of Rokkits
(Front, 3-2-1, 3+, Ammo 1). A Thunderbolt: 0 Twin Lascannons, 1 Quad Autocannons (2-6-0, 4+, UL).
"""

from __future__ import annotations

from aero_events.core import DiceRolled
from aero_events.rulesets.aeronautica.commands import AcceptRoll, FireWeapons, UseReroll
from aero_events.rulesets.aeronautica.events import (
    DamageIgnored,
    DamageRolled,
    DamageSuffered,
    DecoyLaunched,
    HitsScored,
    RerollOffered,
    RerollUsed,
    RollAccepted,
    WeaponFired,
)
from tests.aeronautica.firing_helpers import IMPERIUM, ORKS, Range, S, at, bunker, of_type, one, plane, rolls

SPARE_IMPERIUM = plane("imperium-9", "thunderbolt", at(-12, 12))
SPARE_ORKS = plane("orks-9", "dakkajet", at(12, 12))
ROKKIT_JET = ("quad_big_shootas", "rokkits")


def rokkits_at(target, **target_changes) -> Range:
    """orks-1 (Rokkits) 3 hexes south of its target, which faces north, the orks firing first."""
    return Range(plane("imperium-1", "thunderbolt", at(0, 0), **target_changes),
                 plane("orks-1", "dakkajet", at(0, -3), S, weapons=ROKKIT_JET), SPARE_IMPERIUM, SPARE_ORKS,
                 first=ORKS)


def test_flares_turn_the_hit_into_a_miss_on_a_6_once_per_game_p37():
    """p.37: "Once per game, if the aircraft is hit by a weapon with an Ammo characteristic of 1, 2 or 3,
    roll a D6. On a 6, the hit becomes a miss.\""""
    game = rokkits_at(None, upgrades=("flares_or_chaff_launchers",))
    events = game.fire("orks-1", (1, "imperium-1"), dice=[5, 5, 1, 6, 1])
    decoy = one(events, DecoyLaunched)
    assert (decoy.aircraft, decoy.upgrade, decoy.negated) == ("imperium-1", "flares_or_chaff_launchers", True)
    assert rolls(events, "flares")[0].target == 6
    # "the hit becomes a miss": one of the two hits; the other still rolls its Damage dice.
    assert one(events, HitsScored).hits == 2
    assert [r.faces for r in rolls(events, "damage")] == [(1,)] and game.aircraft("imperium-1").structure == 3
    assert game.aircraft("imperium-1").decoy_used


def test_flares_against_a_single_hit_leave_nothing_to_roll_p37():
    game = rokkits_at(None, upgrades=("flares_or_chaff_launchers",))
    events = game.fire("orks-1", (1, "imperium-1"), dice=[5, 1, 1, 6])
    assert one(events, DecoyLaunched).negated and not rolls(events, "damage")
    assert game.aircraft("imperium-1").structure == 3


def test_flares_spent_on_a_failed_roll_and_not_rolled_again_p37():
    game = rokkits_at(None, upgrades=("flares_or_chaff_launchers",))
    events = game.fire("orks-1", (1, "imperium-1"), dice=[5, 1, 1, 5, 1])
    assert one(events, DecoyLaunched).negated is False
    assert one(events, HitsScored).hits == 1 and rolls(events, "damage")
    again = rokkits_at(None, upgrades=("flares_or_chaff_launchers",), decoy_used=True)
    events = again.fire("orks-1", (1, "imperium-1"), dice=[5, 1, 1, 1])
    assert not of_type(events, DecoyLaunched)


def test_flares_do_nothing_against_unlimited_ammo_weapons_p37():
    game = rokkits_at(None, upgrades=("flares_or_chaff_launchers",))
    events = game.fire("orks-1", (0, "imperium-1"), dice=[5, 1, 1, 1, 1, 1, 1, 1, 1])
    assert not of_type(events, DecoyLaunched)


def test_belching_smoke_works_like_flares_p44():
    game = Range(plane("imperium-1", "thunderbolt", at(0, 0),
                       weapons=("twin_lascannons", "quad_autocannons", "skystrike_missiles")),
                 plane("orks-1", "dakkajet", at(0, -5), S, upgrades=("belching_smoke",)), SPARE_IMPERIUM)
    events = game.fire("imperium-1", (2, "orks-1"), dice=[5, 6, 6, 1])
    assert one(events, DecoyLaunched).upgrade == "belching_smoke"
    # Two hits; the 6 makes one of them a miss, the other rolls one Damage dice (p.44 "the hit").
    assert one(events, DecoyLaunched).negated and one(events, DamageRolled).damaging == 0
    assert [r.faces for r in rolls(events, "damage")] == [(1,)]


def test_infra_red_targeting_keeps_medium_range_firepower_at_night_p37():
    """p.37: "If the Night Fighting or Bad Weather rules are in use, this aircraft may fire at Medium range
    without reducing the number of Firepower dice rolled.\""""
    for upgrades, dice in (((), 3), (("infra_red_targeting",), 6)):
        game = Range(plane("imperium-1", "thunderbolt", at(0, 0), upgrades=upgrades),
                     plane("orks-1", "dakkajet", at(0, -5), S), SPARE_IMPERIUM, night_fighting=True)
        events = game.fire("imperium-1", (1, "orks-1"), dice=[1] * dice)
        assert one(events, WeaponFired).dice == dice


def ace_game(upgrade: str = "imperial_ace") -> Range:
    return Range(plane("imperium-1", "thunderbolt", at(0, 0), upgrades=(upgrade,)),
                 plane("orks-1", "dakkajet", at(0, -5), S), SPARE_IMPERIUM)


def test_imperial_ace_rerolls_all_the_dice_of_one_roll_and_the_second_stands_p37():
    """p.37: "Once per game, this aircraft may choose to reroll a dice roll. However, all of the dice rolled
    must be re-rolled and the player must accept the result of the second roll, even if it is worse.\""""
    game = ace_game()
    events = game.fire("imperium-1", (1, "orks-1"), dice=[5, 6, 1, 1, 1, 1])
    offered = one(events, RerollOffered)
    assert offered.stage == "to_hit" and offered.roll.faces == (5, 6, 1, 1, 1, 1)
    assert not of_type(events, HitsScored)  # the volley waits
    assert game.legal(IMPERIUM) == [AcceptRoll(player=IMPERIUM, aircraft="imperium-1"),
                                    UseReroll(player=IMPERIUM, aircraft="imperium-1")]
    assert game.legal(ORKS) == []
    assert game.refused(FireWeapons(player=ORKS, aircraft="orks-1")).page == 37
    events = game.reroll("imperium-1", dice=[1, 1, 1, 1, 1, 5] + [4])
    assert one(events, RerollUsed).upgrade == "imperial_ace"
    second = next(e for e in events if isinstance(e, DiceRolled))
    assert second.replaces == offered.roll.roll_index and second.count == 6
    assert one(events, HitsScored).hits == 1  # worse, and it stands
    assert game.aircraft("imperium-1").reroll_used
    # The damage roll that followed was not offered: once per game.
    assert len(of_type(events, RerollOffered)) == 0 and one(events, DamageRolled).damaging == 1
    assert game.state.volley is None


def test_the_reroll_is_offered_again_if_kept_and_covers_damage_rolls_p37():
    game = ace_game()
    game.fire("imperium-1", (1, "orks-1"), dice=[5, 6, 1, 1, 1, 1])
    events = game.apply(AcceptRoll(player=IMPERIUM, aircraft="imperium-1"), dice=[1, 1])
    assert one(events, RollAccepted).aircraft == "imperium-1"
    offered = one(events, RerollOffered)
    assert offered.stage == "damage" and offered.roll.faces == (1, 1)
    events = game.reroll("imperium-1", dice=[4, 6])
    assert one(events, DamageRolled).damaging == 2
    assert one(events, DamageSuffered).structure == 0


def test_fly_boss_is_the_same_once_per_game_reroll_p45():
    game = Range(plane("orks-1", "dakkajet", at(0, 0), upgrades=("fly_boss",)),
                 plane("imperium-1", "thunderbolt", at(0, -3), S), SPARE_ORKS, first=ORKS)
    events = game.fire("orks-1", (0, "imperium-1"), dice=[1] * 8)
    assert one(events, RerollOffered).aircraft == "orks-1"
    events = game.reroll("orks-1", dice=[6] * 8 + [1] * 8)
    assert one(events, RerollUsed).upgrade == "fly_boss"


def test_armoured_cockpit_ignores_a_damaging_hit_on_a_6_p37():
    """p.37: "When this aircraft suffers a damaging hit from enemy fire, roll a D6. On a 6, the damage is
    ignored and the Structure point(s) that would have been lost ... are not lost.\""""
    game = Range(plane("imperium-1", "thunderbolt", at(0, 0), upgrades=("armoured_cockpit",)),
                 plane("orks-1", "dakkajet", at(0, -3), S), SPARE_IMPERIUM, SPARE_ORKS, first=ORKS)
    events = game.fire("orks-1", (0, "imperium-1"), dice=[5, 5, 1, 1, 1, 1, 1, 1, 5, 6, 6, 3])
    armour = rolls(events, "armoured_cockpit")[0]
    assert armour.count == 2 and armour.target == 6
    assert one(events, DamageIgnored) == DamageIgnored(aircraft="imperium-1", upgrade="armoured_cockpit",
                                                      structure=1)
    assert one(events, DamageSuffered).hits == 1 and game.aircraft("imperium-1").structure == 2


def test_armour_saves_both_points_of_an_extra_damage_hit_p37_p24():
    game = Range(plane("imperium-1", "marauder", at(0, 0)),
                 plane("orks-1", "marauder", at(0, -5), S, owner=ORKS, upgrades=("armoured_cockpit",)),
                 SPARE_IMPERIUM)
    events = game.fire("imperium-1", (0, "orks-1"), dice=[5, 1, 6, 6])
    assert one(events, DamageIgnored).structure == 2
    assert not of_type(events, DamageSuffered)


def test_extra_armour_ignores_a_damaging_hit_on_a_6_p45():
    game = Range(plane("imperium-1", "thunderbolt", at(0, 0)),
                 plane("orks-1", "dakkajet", at(0, -5), S, upgrades=("extra_armour",)), SPARE_IMPERIUM)
    events = game.fire("imperium-1", (1, "orks-1"), dice=[5, 1, 1, 1, 1, 1, 4, 6])
    assert one(events, DamageIgnored).upgrade == "extra_armour"
    assert game.aircraft("orks-1").structure == 2


def test_armour_does_not_save_against_friendly_bomb_creep_p37_p27():
    """Only "enemy fire" is saved against: a friendly landed aircraft caught in our own Bomb Creep is not."""
    target = at(0, 3)
    game = Range(plane("imperium-1", "marauder", at(0, 0), altitude=2),
                 plane("imperium-2", "thunderbolt", target.neighbour(2), status="landed", altitude=0, speed=0,
                       upgrades=("armoured_cockpit",)), SPARE_ORKS,
                 ground_targets=[bunker("bunker", target)])
    events = game.fire("imperium-1", (3, "bunker"), dice=[5, 1, 1, 1, 1, 1, 1, 1] + [1] + [4, 3])
    assert not rolls(events, "armoured_cockpit")
    assert game.aircraft("imperium-2").structure == 2
