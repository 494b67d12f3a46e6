"""Air-to-Ground fire (rulebook p.26-28): Strafing Runs, Bombing Runs, Bomb Creep; Directly Overhead (p.21);
landed aircraft and Ground Defences as ground targets (p.19, p.24); Ground-to-Air fire (p.28).

A Thunderbolt with Wing Bombs carries 0: Twin Lascannons, 1: Quad Autocannons (Front), 2: Pair of Wing
Bombs (Rear, 4-0-0, 2+, Ammo 1, Ground Attack, Extra Damage (5+)). A Marauder: 0 Lascannon (Front),
1 Dorsal Turret (All Round, Up), 2 Rear Turret, 3 Bomb Bay (Rear, 8-0-0, 2+, Ammo 3, Ground Attack).
"""

from __future__ import annotations

from aero_events.core import Modifier
from aero_events.rulesets.aeronautica.events import (
    BombCreepRolled,
    DamageRolled,
    DamageSuffered,
    GroundTargetDamaged,
    GroundTargetDestroyed,
    HitsScored,
    WeaponFired,
)
from tests.aeronautica.firing_helpers import (
    IMPERIUM,
    ORKS,
    Range,
    S,
    at,
    bunker,
    ground_defence,
    of_type,
    one,
    plane,
    rolls,
)

BOMBER_WEAPONS = ("twin_lascannons", "quad_autocannons", "wing_bombs")
SPARE = plane("imperium-9", "thunderbolt", at(-12, 12))


def bomber(altitude: int = 1, hex=None, **changes):
    return plane("imperium-1", "thunderbolt", hex or at(0, 0), altitude=altitude, weapons=BOMBER_WEAPONS, **changes)


def test_a_strafing_run_is_made_at_altitude_1_and_hits_on_5_plus_p26():
    """p.26: "To perform a Strafing Run, an aircraft must be travelling at Altitude 1 ... The D6 roll
    required to hit an Altitude 0 target during a Strafing run is 5+"."""
    game = Range(bomber(altitude=1), SPARE, plane("orks-9", "dakkajet", at(9, 9)),
                 ground_targets=[bunker("bunker", at(0, -3))])
    events = game.fire("imperium-1", (1, "bunker"), dice=[5, 4, 1, 1])
    fired = one(events, WeaponFired)
    assert fired.attack == "strafing"
    roll = rolls(events, "to hit")[0]
    assert (roll.target, roll.modifiers) == (5, ())
    assert one(events, HitsScored).hits == 1
    high = Range(bomber(altitude=2), SPARE, ground_targets=[bunker("bunker", at(0, -3))])
    err = high.refused_fire("imperium-1", (1, "bunker"))
    assert (err.rule, err.page) == ("Strafing Run", 26)


def test_a_strafing_aircraft_may_not_target_aircraft_in_another_fire_arc_p26():
    """p.26: "An aircraft making a Strafing Run ... may not target other aircraft in a different Fire Arc
    with other weapons during the same Firing phase\""""
    game = Range(plane("imperium-1", "marauder", at(0, 0), altitude=1), SPARE,
                 plane("orks-1", "dakkajet", at(0, 3), S, altitude=1), ground_targets=[bunker("bunker", at(0, -5))])
    err = game.refused_fire("imperium-1", (0, "bunker"), (2, "orks-1"))
    assert (err.rule, err.page) == ("Strafing Run", 26)
    game.fire("imperium-1", (0, "bunker"), dice=[1, 1])


def test_a_bombing_run_may_be_made_while_targeting_other_aircraft_p26():
    """p.26: "aircraft equipped with weapons with the Ground Attack special rule can make a Bombing Run
    whilst simultaneously targeting other aircraft\""""
    game = Range(plane("imperium-1", "marauder", at(0, 0), altitude=3), SPARE,
                 plane("orks-1", "dakkajet", at(0, -5), S), ground_targets=[bunker("bunker", at(0, 3))])
    events = game.fire("imperium-1", (0, "orks-1"), (3, "bunker"), dice=[1] * 10)
    assert {(e.target, e.attack) for e in of_type(events, WeaponFired)} == {("orks-1", "air"),
                                                                          ("bunker", "bombing")}


def test_bombing_run_modifiers_by_altitude_difference_p27():
    """p.27: 5+; +1 for one level of Altitude difference, -1 for three, -2 for four or more."""
    expected = {1: 1, 2: 0, 3: -1, 4: -2, 5: -2}
    for altitude, modifier in expected.items():
        game = Range(bomber(altitude=altitude), SPARE, ground_targets=[bunker("bunker", at(0, 2))])
        events = game.fire("imperium-1", (2, "bunker"), dice=[1, 1, 1, 1])
        roll = rolls(events, "to hit")[0]
        assert (roll.target, roll.total_modifier) == (5, modifier)
    game = Range(bomber(altitude=1), SPARE, ground_targets=[bunker("bunker", at(0, 2))])
    events = game.fire("imperium-1", (2, "bunker"), dice=[4, 3, 1, 1, 2])
    assert rolls(events, "to hit")[0].modifiers == (Modifier("Bombing Run from one Altitude level above", 1),)
    assert one(events, HitsScored).hits == 1  # the 4 becomes 5; the 3 does not


def test_bomb_creep_hits_other_altitude_0_targets_adjacent_on_4_plus_friend_or_foe_p27():
    """p.27: "roll a D6 for any other potential targets within a hex adjacent to the target of a Bombing Run
    that are at Altitude 0, be they friendly or enemy, Ground Defences or landed aircraft. On the roll of a
    4+, they are also hit ... Roll once for damage"."""
    target = at(0, 3)
    game = Range(
        plane("imperium-1", "marauder", at(0, 0), altitude=2),
        plane("imperium-2", "thunderbolt", target.neighbour(2), status="landed", altitude=0, speed=0),  # friend
        ground_defence("orks-1", target.neighbour(4), owner=ORKS),  # enemy Ground Defence
        plane("orks-2", "dakkajet", target.neighbour(1), altitude=1),  # in the air: not rolled for
        plane("orks-3", "dakkajet", at(0, 6), status="landed", altitude=0, speed=0),  # two hexes away
        ground_targets=[bunker("bunker-a", target), bunker("bunker-b", target.neighbour(3)),
                        bunker("bunker-c", target, owner=None)])
    to_hit = [5, 1, 1, 1, 1, 1, 1, 1]
    damage = [1]
    creep = [4, 5,  # bunker-b: hit, damage 5 (Extra Damage 5+: 2 Structure)
             3,  # imperium-2: missed
             6, 2]  # orks-1: hit, damage 2
    events = game.fire("imperium-1", (3, "bunker-a"), dice=to_hit + damage + creep)
    rolled = of_type(events, BombCreepRolled)
    assert [(r.target, r.hit) for r in rolled] == [("bunker-b", True), ("imperium-2", False), ("orks-1", True)]
    creep_damage = [d for d in of_type(events, DamageRolled) if d.kind == "creep"]
    assert [(d.target, d.structure) for d in creep_damage] == [("bunker-b", 2), ("orks-1", 1)]
    assert game.state.ground_targets_destroyed == {"bunker-b": IMPERIUM}
    assert game.aircraft("orks-1").structure == 1


def test_no_bomb_creep_without_a_hit_p27():
    target = at(0, 3)
    game = Range(plane("imperium-1", "marauder", at(0, 0), altitude=2), SPARE,
                 ground_defence("orks-1", target.neighbour(4), owner=ORKS), ground_targets=[bunker("bunker", target)])
    events = game.fire("imperium-1", (3, "bunker"), dice=[1] * 8)
    assert not of_type(events, BombCreepRolled)


def test_directly_overhead_a_ground_target_is_in_the_aircrafts_rear_arc_p21():
    """p.21: "when an aircraft is Directly Overhead a Ground Defence or Ground Target, these are considered
    to be within the aircraft's Rear Fire Arc\""""
    game = Range(bomber(altitude=1), SPARE, ground_targets=[bunker("bunker", at(0, 0))])
    err = game.refused_fire("imperium-1", (1, "bunker"))  # the Front Arc's autocannons cannot strafe it
    assert err.page == 21
    events = game.fire("imperium-1", (2, "bunker"), dice=[1, 1, 1, 1])
    fired = one(events, WeaponFired)
    assert (fired.attack, fired.band, fired.dice) == ("bombing", "short", 4)


def test_an_aircraft_directly_overhead_is_in_the_ground_defences_all_round_arc_p21_p28():
    game = Range(ground_defence("imperium-1", at(0, 0)), plane("orks-1", "dakkajet", at(0, 0), altitude=2))
    events = game.fire("imperium-1", (0, "orks-1"), dice=[1, 1, 1])
    assert one(events, WeaponFired).band == "short"


def test_landed_aircraft_are_ground_targets_p19_p24():
    """p.19: "Whilst landed, aircraft are vulnerable to Air-to-Ground fire as if they were Ground
    Defences"; Aerial Attack weapons cannot touch them (p.24)."""
    game = Range(plane("imperium-1", "thunderbolt", at(0, 0), altitude=1,
                       weapons=("twin_lascannons", "quad_autocannons", "skystrike_missiles")), SPARE,
                 plane("orks-1", "dakkajet", at(0, -3), status="landed", altitude=0, speed=0))
    assert game.refused_fire("imperium-1", (2, "orks-1")).page == 24
    events = game.fire("imperium-1", (1, "orks-1"), dice=[6, 1, 4])
    assert one(events, WeaponFired).attack == "strafing"
    assert one(events, DamageSuffered).aircraft == "orks-1"


def test_a_ground_target_at_0_structure_is_destroyed_p27():
    game = Range(bomber(altitude=1), SPARE, ground_targets=[bunker("bunker", at(0, -3), structure=2)])
    events = game.fire("imperium-1", (1, "bunker"), dice=[6, 6, 4, 5])
    assert one(events, GroundTargetDamaged).structure == 0
    assert one(events, GroundTargetDestroyed) == GroundTargetDestroyed(target="bunker", by=IMPERIUM)
    assert game.refused_fire("imperium-9", (1, "bunker")).page == 21  # no longer there to be targeted


def test_only_the_enemys_or_nobodys_ground_targets_are_fired_at_p21():
    game = Range(bomber(altitude=1), SPARE, ground_targets=[bunker("ours", at(0, -3), owner=IMPERIUM),
                                                            bunker("neutral", at(1, -4), owner=None)])
    assert game.refused_fire("imperium-1", (1, "ours")).page == 21
    game.fire("imperium-1", (1, "neutral"), dice=[1, 1])


def test_a_ground_defence_does_not_fire_at_ground_targets_p26_p28():
    game = Range(ground_defence("imperium-1", at(0, 0)), SPARE, ground_targets=[bunker("bunker", at(0, -2))])
    err = game.refused_fire("imperium-1", (0, "bunker"))
    assert err.page == 25
    err = game.refused_fire("imperium-1", (1, "bunker"))
    assert err.page == 25


def test_terrain_height_counts_for_bombing_and_ground_to_air_modifiers_p33():
    """p.33: ground targets on terrain stay at Altitude 0 for targeting, "whilst the Altitude of the terrain
    is used for the purposes of modifiers on the Firepower dice"; Ground Defences on terrain "add that
    level to their Effective Altitude (X)"."""
    from aero_events.rulesets.aeronautica.scenarios.format import TerrainFeature

    hill = TerrainFeature(name="hill", level=2, hexes=(at(0, 2), at(0, 8)))
    game = Range(bomber(altitude=3), SPARE, ground_targets=[bunker("bunker", at(0, 2))], terrain=(hill,))
    events = game.fire("imperium-1", (2, "bunker"), dice=[1, 1, 1, 1])
    assert rolls(events, "to hit")[0].total_modifier == 1  # 3 - 2: one level of difference
    flak = Range(ground_defence("imperium-1", at(0, 8)), SPARE, plane("orks-1", "dakkajet", at(0, 5), S,
                                                                     altitude=4), terrain=(hill,))
    events = flak.fire("imperium-1", (0, "orks-1"), dice=[1, 1, 1])
    assert rolls(events, "to hit")[0].total_modifier == 0  # Effective Altitude 2 + 2 = 4
