"""Air-to-Air fire (rulebook p.21-23): targeting, Fire Arcs, range, Firepower, the roll to hit, Ammo and
Damage; the dice conventions of p.7.

The firer sits at the centre facing north (Front Arc up the board); a Thunderbolt's weapons are
0: Twin Lascannons (Front, 0-2-1, 2+, Extra Damage 6+) and 1: Quad Autocannons (Front, 2-6-0, 4+).
"""

from __future__ import annotations

from aero_events.core import DiceRolled, Modifier
from aero_events.rulesets.aeronautica.events import (
    AircraftDestroyed,
    DamageRolled,
    DamageSuffered,
    HitsScored,
    SpinEntered,
    Stalled,
    WeaponFired,
)
from aero_events.rulesets.aeronautica.firing import assign_arcs
from aero_events.rulesets.aeronautica.weapons import success
from tests.aeronautica.firing_helpers import IMPERIUM, ORKS, Range, S, at, of_type, one, plane, rolls

LASCANNONS, AUTOCANNONS = 0, 1


def thunderbolt_vs(*targets, **changes) -> Range:
    """imperium-1 against ``targets``; a spare Thunderbolt far away keeps the phase open after it fires."""
    return Range(plane("imperium-1", "thunderbolt", at(0, 0), **changes), *targets,
                 plane("imperium-9", "thunderbolt", at(-12, 12)))


def dakka(n: int, hex, altitude: int = 3, **changes):
    return plane(f"orks-{n}", "dakkajet", hex, S, altitude=altitude, **changes)


def test_air_to_air_fire_hits_on_5_plus_and_the_roll_records_target_and_roller_p22():
    """p.22: "The D6 roll which is required to hit a target with Air-to-Air fire is always 5+"."""
    game = thunderbolt_vs(dakka(1, at(0, -5)))
    events = game.fire("imperium-1", (AUTOCANNONS, "orks-1"), dice=[5, 6, 4, 3, 2, 5, 1, 1, 1])
    roll = rolls(events, "to hit")[0]
    assert (roll.count, roll.target, roll.modifiers, roll.roller) == (6, 5, (), IMPERIUM)
    assert one(events, HitsScored).hits == 3


def test_firepower_dice_follow_the_range_band_p22():
    """p.22: Short 1-4, Medium 5-7, Long 8-10 hexes; Quad Autocannons are 2-6-0."""
    for distance, dice in ((3, 2), (4, 2), (5, 6), (7, 6)):
        game = thunderbolt_vs(dakka(1, at(0, -distance)))
        events = game.fire("imperium-1", (AUTOCANNONS, "orks-1"), dice=[2] * dice)
        assert one(events, WeaponFired).dice == dice
        assert rolls(events, "to hit")[0].count == dice
    game = thunderbolt_vs(dakka(1, at(0, -9)))
    events = game.fire("imperium-1", (AUTOCANNONS, "orks-1"), (LASCANNONS, "orks-1"), dice=[6, 2])
    fired = {e.weapon_index: e for e in of_type(events, WeaponFired)}
    assert fired[AUTOCANNONS].dice == 0 and fired[AUTOCANNONS].band == "long"
    assert fired[LASCANNONS].dice == 1  # Twin Lascannons: 1 die at Long range
    assert [r.count for r in rolls(events, "to hit")] == [1]


def test_beyond_long_range_no_dice_are_rolled_p22():
    game = thunderbolt_vs(dakka(1, at(0, -11)))
    events = game.fire("imperium-1", (LASCANNONS, "orks-1"))
    fired = one(events, WeaponFired)
    assert fired.band is None and fired.dice == 0
    assert not rolls(events) and one(events, HitsScored).hits == 0


def test_minus_one_to_hit_a_target_with_a_stall_token_p22():
    """p.22: "-1 to the dice roll if the target has a Stall or Spin token on it"."""
    game = thunderbolt_vs(dakka(1, at(0, -5)))
    game.record(Stalled(aircraft="orks-1", reason="test"))
    events = game.fire("imperium-1", (AUTOCANNONS, "orks-1"), dice=[5, 5, 5, 6, 6, 4, 1, 1])
    assert rolls(events, "to hit")[0].modifiers == (Modifier("target has a Stall or Spin token", -1),)
    assert one(events, HitsScored).hits == 2  # the 5s become 4s; the 6s still hit


def test_minus_one_to_hit_a_target_with_a_spin_token_p22():
    game = thunderbolt_vs(dakka(1, at(0, -5)))
    game.record(SpinEntered(aircraft="orks-1"))
    events = game.fire("imperium-1", (AUTOCANNONS, "orks-1"), dice=[5, 5, 5, 5, 5, 6, 1])
    assert rolls(events, "to hit")[0].total_modifier == -1
    assert one(events, HitsScored).hits == 1


def test_minus_one_per_altitude_level_of_difference_p22():
    """p.22: -1 per level of Altitude difference, so two or more levels cannot normally be hit."""
    game = thunderbolt_vs(dakka(1, at(0, -5), altitude=4))
    events = game.fire("imperium-1", (AUTOCANNONS, "orks-1"), dice=[5, 5, 6, 6, 6, 1, 1, 1, 1])
    assert rolls(events, "to hit")[0].modifiers == (Modifier("1 Altitude level(s) of difference", -1),)
    assert one(events, HitsScored).hits == 3
    game = thunderbolt_vs(dakka(1, at(0, -5), altitude=1))
    events = game.fire("imperium-1", (AUTOCANNONS, "orks-1"), dice=[6] * 6)
    assert rolls(events, "to hit")[0].total_modifier == -2
    assert one(events, HitsScored).hits == 0


def test_the_modifiers_are_cumulative_p22():
    game = thunderbolt_vs(dakka(1, at(0, -5), altitude=4))
    game.record(Stalled(aircraft="orks-1", reason="test"))
    events = game.fire("imperium-1", (AUTOCANNONS, "orks-1"), dice=[6] * 6)
    assert rolls(events, "to hit")[0].total_modifier == -2
    assert one(events, HitsScored).hits == 0


def test_a_natural_one_always_fails_and_no_roll_is_modified_below_one_p7():
    """p.7: "A dice roll can never be modified to 0 or lower, and any natural roll of a 1 is always a
    fail, regardless of modifiers.\""""
    assert not success(1, 2, +1)  # 1 + 1 = 2 would reach 2+: a natural 1 still fails
    assert not success(1, 1)
    assert success(6, 1, -9)  # modified to 1 at worst, never 0 or lower
    assert not success(6, 2, -9)
    # In play: a natural 1 on a to-hit die is a miss, whatever else is rolled.
    game = thunderbolt_vs(dakka(1, at(0, -3)))
    events = game.fire("imperium-1", (AUTOCANNONS, "orks-1"), dice=[1, 1])
    assert one(events, HitsScored).hits == 0


def test_each_hit_is_rolled_again_against_the_weapons_damage_p23():
    """p.23: each hit becomes a Damage dice; each success takes one Structure point."""
    game = thunderbolt_vs(dakka(1, at(0, -5), structure=2))
    events = game.fire("imperium-1", (AUTOCANNONS, "orks-1"), dice=[5, 6, 1, 1, 1, 1, 4, 3])
    damage = rolls(events, "damage")[0]
    assert (damage.count, damage.target) == (2, 4)
    rolled = one(events, DamageRolled)
    assert (rolled.damaging, rolled.structure) == (1, 1)
    assert one(events, DamageSuffered).structure == 1
    assert game.aircraft("orks-1").structure == 1


def test_an_aircraft_at_zero_structure_is_shot_down_and_structure_never_goes_negative_p23():
    """p.23: "When an aircraft has 0 Structure points remaining, it has been shot down ... Remove the
    aircraft from play.\""""
    game = thunderbolt_vs(dakka(1, at(0, -5)))
    events = game.fire("imperium-1", (AUTOCANNONS, "orks-1"), dice=[5, 5, 5, 1, 1, 1, 6, 6, 6])
    assert one(events, DamageSuffered).structure == 0
    assert one(events, AircraftDestroyed).aircraft == "orks-1"
    assert game.aircraft("orks-1").status == "destroyed" and game.aircraft("orks-1").structure == 0


def test_no_damage_dice_against_a_target_already_shot_down_in_the_same_volley_p23():
    game = thunderbolt_vs(dakka(1, at(0, -5), structure=1))
    events = game.fire("imperium-1", (AUTOCANNONS, "orks-1"), (LASCANNONS, "orks-1"),
                       dice=[5, 1, 1, 1, 1, 1, 6, 1, 6])
    # to hit: autocannons one hit, lascannons one hit; damage: autocannons 6 -> shot down
    damage = of_type(events, DamageRolled)
    assert damage[1].skipped and len(rolls(events, "damage")) == 1
    assert len(of_type(events, AircraftDestroyed)) == 1


def test_ammo_is_spent_even_when_the_target_is_out_of_range_p22():
    """p.22: "ammunition is expended, even if the weapon is found to be out of range"."""
    game = thunderbolt_vs(dakka(1, at(0, -11)), weapons=("twin_lascannons", "quad_autocannons",
                                                          "skystrike_missiles"))
    events = game.fire("imperium-1", (2, "orks-1"))
    fired = one(events, WeaponFired)
    assert (fired.dice, fired.ammo_left) == (0, 0)
    assert game.aircraft("imperium-1").ammo == (None, None, 0)


def test_ammo_is_spent_with_no_firepower_at_that_range_p22():
    """Skystrike Missiles are 0-2-2: fired at Short range they roll nothing but are gone."""
    game = thunderbolt_vs(dakka(1, at(0, -3)), weapons=("twin_lascannons", "quad_autocannons",
                                                         "skystrike_missiles"))
    events = game.fire("imperium-1", (2, "orks-1"))
    assert one(events, WeaponFired).dice == 0 and not rolls(events)
    assert game.aircraft("imperium-1").ammo[2] == 0


def test_a_weapon_at_ammo_zero_may_no_longer_be_fired_p22():
    game = thunderbolt_vs(dakka(1, at(0, -5)), weapons=("twin_lascannons", "quad_autocannons",
                                                         "skystrike_missiles"), ammo=(None, None, 0))
    err = game.refused_fire("imperium-1", (2, "orks-1"))
    assert err.page == 22


def test_an_aircraft_may_target_only_one_enemy_within_each_fire_arc_p21():
    """p.21: "aircraft which have multiple weapons that fire into the same Fire Arc must fire all of them
    at the same target"."""
    game = thunderbolt_vs(dakka(1, at(0, -5)), dakka(2, at(1, -6)))
    err = game.refused_fire("imperium-1", (LASCANNONS, "orks-1"), (AUTOCANNONS, "orks-2"))
    assert err.page == 21 and "one enemy within each Fire Arc" in str(err)
    events = game.fire("imperium-1", (LASCANNONS, "orks-2"), (AUTOCANNONS, "orks-2"), dice=[1] * 8)
    assert {e.target for e in of_type(events, WeaponFired)} == {"orks-2"}


def test_weapons_facing_different_arcs_may_engage_one_target_each_p21():
    """p.21: a Marauder "could fire at one enemy aircraft in its Front Fire Arc, and one enemy aircraft
    in its Rear Fire Arc"."""
    game = Range(plane("imperium-1", "marauder", at(0, 0)), dakka(1, at(0, -5)), dakka(2, at(0, 3)))
    events = game.fire("imperium-1", (0, "orks-1"), (2, "orks-2"), dice=[1, 1, 1, 1, 1])
    assert {(e.weapon_index, e.target) for e in of_type(events, WeaponFired)} == {(0, "orks-1"), (2, "orks-2")}


def test_a_target_on_the_line_between_two_arcs_may_be_engaged_from_both_p21():
    """p.21: a hex "intersected by the line between the firing aircraft's different Fire Arcs": weapons
    facing into both arcs "may all target the same enemy aircraft". A Fighta Bommer's Quad Big Shootas
    (Front) and Turret Big Shootas (Rear, Left, Right; Up) fire at a Thunderbolt on the Front/Right line;
    that target also counts as the Front Arc's, so the turret may take another target on the right."""
    bommer = plane("orks-1", "fighta_bommer", at(0, 0))
    on_line = plane("imperium-1", "thunderbolt", at(1, -2), S)
    right = plane("imperium-2", "thunderbolt", at(3, 0), S)
    game = Range(bommer, on_line, right, first=ORKS)
    events = game.fire("orks-1", (0, "imperium-1"), (1, "imperium-1"), dice=[1] * 11)
    assert {e.target for e in of_type(events, WeaponFired)} == {"imperium-1"}
    game = Range(bommer, on_line, right, first=ORKS)
    game.fire("orks-1", (0, "imperium-1"), (1, "imperium-2"), dice=[1] * 11)
    assert assign_arcs([("T", frozenset({"front", "right"})), ("V", frozenset({"front"})),
                        ("U", frozenset({"right"}))]) is None


def test_a_target_outside_the_weapons_fire_arc_is_refused_p21():
    game = thunderbolt_vs(dakka(1, at(0, 3)))
    err = game.refused_fire("imperium-1", (AUTOCANNONS, "orks-1"))
    assert err.page == 21 and "Fire Arc" in str(err)


def test_an_up_weapon_targets_only_the_same_altitude_or_above_p21():
    """p.21: "Up: Means that this weapon may only target aircraft which are at the same Altitude level as
    this aircraft or above it." The Marauder's Dorsal Turret is All Round, Up."""
    game = Range(plane("imperium-1", "marauder", at(0, 0)), dakka(1, at(0, 3), altitude=2),
                 dakka(2, at(3, 0), altitude=4))
    err = game.refused_fire("imperium-1", (1, "orks-1"))
    assert err.page == 21 and "Up" in err.rule
    game.fire("imperium-1", (1, "orks-2"), dice=[1, 1, 1])


def test_weapons_target_enemies_each_weapon_fires_once_p20_p21():
    game = Range(plane("imperium-1", "thunderbolt", at(0, 0)), plane("imperium-2", "thunderbolt", at(0, -4)),
                 dakka(1, at(1, -6)))
    assert game.refused_fire("imperium-1", (AUTOCANNONS, "imperium-2")).page == 21
    assert game.refused_fire("imperium-1", (AUTOCANNONS, "nobody")).page == 21
    assert game.refused_fire("imperium-1", (AUTOCANNONS, "orks-1"), (AUTOCANNONS, "orks-1")).page == 20
    assert game.refused_fire("imperium-1", (7, "orks-1")).page == 20


def test_the_to_hit_dice_are_events_and_replay_reaches_the_same_state():
    """DESIGN contract 6: folding the recorded events (never re-rolling) gives the same state."""
    game = thunderbolt_vs(dakka(1, at(0, -5)))
    game.fire("imperium-1", (AUTOCANNONS, "orks-1"), (LASCANNONS, "orks-1"), dice=[5, 6, 1, 1, 1, 1, 2, 6, 4, 2, 6, 3])
    state = game.session.game.initial_state
    for envelope in game.session.events():
        state = game.rules.evolve(state, envelope.event)
    assert game.rules.state_hash(state) == game.session.state_hash()
    assert any(isinstance(e.event, DiceRolled) for e in game.session.events())
