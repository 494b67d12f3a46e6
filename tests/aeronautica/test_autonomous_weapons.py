"""Autonomous Weapons (rulebook p.25), with a test weapon (no shipped weapon has the rule): the Test Seeker
Missile, Fire Arcs Front/Left/Right, Damage 3+, Extra Damage (6+), Ammo 2.

The firer sits at the centre facing north; its adjacent hexes: N (Front), NE and SE (Right), SW and NW
(Left), S (Rear).
"""

from __future__ import annotations

from aero_events.rulesets.aeronautica.commands import (
    AdjustAltitude,
    FireWeapons,
    LaunchAutonomous,
    PassFiring,
    SteerAutonomous,
)
from aero_events.rulesets.aeronautica.events import (
    AutonomousAttacked,
    AutonomousDistanceRolled,
    AutonomousLaunched,
    AutonomousMoved,
    AutonomousRemoved,
    DamageRolled,
    PhaseBegan,
    Shot,
    WeaponFired,
)
from aero_events.rulesets.aeronautica.state import END, FIRING, MOVEMENT, AutonomousWeapon
from tests.aeronautica.firing_helpers import (
    IMPERIUM,
    NE,
    NW,
    ORKS,
    SE,
    C,
    N,
    Range,
    S,
    at,
    of_type,
    one,
    plane,
)

SEEKERS = ("twin_lascannons", "test_seeker", "test_seeker", "test_seeker")


def launcher(**changes):
    return plane("imperium-1", "thunderbolt", at(0, 0), weapons=SEEKERS, **changes)


def seeker(index: int = 1, hex=None, facing: int = N, hexes: int = 0) -> Shot:
    return Shot(weapon_index=index, hex=hex or C.neighbour(N), facing=facing, hexes=hexes)


def test_an_autonomous_weapon_is_placed_adjacent_in_its_arc_and_first_moves_up_to_six_hexes_away_p25():
    """p.25: "place a model ... in a hex immediately adjacent to one of the Fire Arcs listed ... may choose
    its facing ... moves up to six hexes in a straight line directly away from the firing aircraft".
    Firing it needs no target and rolls no dice; it spends Ammo."""
    game = Range(launcher(), plane("orks-1", "dakkajet", at(8, -8), S))
    events = game.fire("imperium-1", seeker(hex=C.neighbour(N), facing=N, hexes=6))
    launched = one(events, AutonomousLaunched)
    assert (launched.hex, launched.facing, launched.firer) == (C.neighbour(N), N, "imperium-1")
    moved = one(events, AutonomousMoved)
    assert moved.path[-1] == at(0, -7) and len(moved.path) == 6
    fired = one(events, WeaponFired)
    assert (fired.attack, fired.target, fired.dice, fired.ammo_left) == ("autonomous", None, 0, 1)
    weapon = game.state.autonomous["imperium-1/auto-1"]
    assert (weapon.hex, weapon.facing, weapon.launched_turn) == (at(0, -7), N, game.state.turn)


def test_placement_must_be_adjacent_within_a_listed_arc_facing_away_and_at_most_six_hexes_p25():
    game = Range(launcher(), plane("orks-1", "dakkajet", at(8, -8), S))
    owner = IMPERIUM
    bad = [
        seeker(hex=C.neighbour(S), facing=S),  # the Rear Arc is not listed
        seeker(hex=at(0, -2), facing=N),  # not adjacent
        seeker(hex=C.neighbour(N), facing=S),  # pointing back at the firer
        seeker(hex=C.neighbour(N), facing=N, hexes=7),  # more than six hexes
        Shot(weapon_index=1, target="orks-1"),  # no target, it is placed
    ]
    for shot in bad:
        err = game.refused(FireWeapons(player=owner, aircraft="imperium-1", shots=(shot,)))
        assert err.page == 25, shot
    for hex, facing in ((C.neighbour(NE), N), (C.neighbour(SE), S), (C.neighbour(NW), NW)):
        branch = Range(launcher(), plane("orks-1", "dakkajet", at(8, -8), S))
        branch.fire("imperium-1", seeker(hex=hex, facing=facing, hexes=1))


def test_at_most_two_autonomous_weapons_per_firing_phase_p25():
    game = Range(launcher(), plane("orks-1", "dakkajet", at(8, -8), S))
    err = game.refused(FireWeapons(player=IMPERIUM, aircraft="imperium-1", shots=(
        seeker(1), seeker(2, hex=C.neighbour(NE), facing=NE), seeker(3, hex=C.neighbour(NW), facing=NW))))
    assert err.page == 25 and "at most 2" in str(err)
    events = game.fire("imperium-1", seeker(1), seeker(2, hex=C.neighbour(NE), facing=NE))
    assert len(of_type(events, AutonomousLaunched)) == 2


def test_autonomous_weapons_are_not_fired_in_the_tailing_fire_phase_p25():
    game = Range(launcher(tailing="orks-1"), plane("orks-1", "dakkajet", at(0, -3)), phase="tailing_fire",
                 first=None, initiative=IMPERIUM)
    err = game.refused(FireWeapons(player=IMPERIUM, aircraft="imperium-1", shots=(seeker(),)))
    assert err.page == 25


def test_leaving_the_area_of_engagement_removes_it_p25():
    edge = plane("imperium-1", "thunderbolt", at(0, -13), weapons=SEEKERS)  # row 2 of the board
    game = Range(edge, plane("orks-1", "dakkajet", at(8, -8), S))
    events = game.fire("imperium-1", seeker(hex=at(0, -14), facing=N, hexes=6))
    assert one(events, AutonomousRemoved).reason == "left the Area of Engagement"
    assert game.state.autonomous == {}


def test_adjacent_at_the_end_of_the_firing_phase_it_hits_on_2_plus_ignoring_altitude_p25():
    """p.25: "If at the end of any Firing phase the Autonomous weapon occupies a hex adjacent to any other
    aircraft, roll a D6. If the result is a 2 or higher, the Autonomous weapon has hit ... Roll one Damage
    dice ... after which the Autonomous Weapon is removed from play ... Autonomous aircraft ignore the
    Altitude of other aircraft when making this roll.\""""
    game = Range(launcher(), plane("orks-1", "dakkajet", at(0, -4), S, altitude=5))
    game.fire("imperium-1", seeker(hex=C.neighbour(N), facing=N, hexes=2))  # it ends at (0, -3)
    events = game.apply(FireWeapons(player=ORKS, aircraft="orks-1"), dice=[2, 6])
    attack = one(events, AutonomousAttacked)
    assert (attack.target, attack.hit) == ("orks-1", True)
    roll = next(e for e in events if getattr(e, "purpose", "").startswith("Autonomous"))
    assert (roll.target, roll.modifiers) == (2, ())
    damage = one(events, DamageRolled)
    assert (damage.kind, damage.structure) == ("autonomous", 2)  # a 6: Extra Damage (6+)
    assert one(events, AutonomousRemoved).reason == "hit"
    assert game.aircraft("orks-1").status == "destroyed"
    assert PhaseBegan(phase=END) in events and events.index(attack) < events.index(PhaseBegan(phase=END))


def test_a_1_misses_and_the_weapon_flies_on_p25():
    game = Range(launcher(), plane("orks-1", "dakkajet", at(0, -4), S))
    game.fire("imperium-1", seeker(hex=C.neighbour(N), facing=N, hexes=2))
    events = game.apply(FireWeapons(player=ORKS, aircraft="orks-1"), dice=[1])
    assert one(events, AutonomousAttacked).hit is False
    assert "imperium-1/auto-1" in game.state.autonomous


def test_from_the_next_turn_it_travels_d3_plus_3_after_all_aircraft_have_moved_turning_once_p25():
    """p.25: "From the next turn onwards, the Autonomous weapon will travel D3+3 hexes in the same
    direction at the end of each Movement phase, after all other aircraft have moved. During this
    movement, the Autonomous weapon may turn once to the left or right"."""
    flying = AutonomousWeapon(id="imperium-1/auto-1", owner=IMPERIUM, firer="imperium-1", weapon="test_seeker",
                              weapon_index=1, hex=at(0, -3), facing=N, launched_turn=1, moved_turn=1)
    game = Range(launcher(), plane("orks-1", "dakkajet", at(9, 0), S), phase=MOVEMENT, active="imperium-1",
                 step="altitude", autonomous={flying.id: flying}, autonomous_launched=1)
    events = game.apply(AdjustAltitude(player=IMPERIUM, aircraft="imperium-1", change=0), dice=[3])
    assert PhaseBegan(phase=FIRING) in events
    assert one(events, AutonomousDistanceRolled).hexes == 5  # D3 from a 3 is 2, plus 3
    assert game.legal(ORKS) == []
    options = game.legal(IMPERIUM)
    assert all(isinstance(c, SteerAutonomous) for c in options) and len(options) == 1 + 2 * 6
    assert game.refused_fire("imperium-1").page == 25
    events = game.apply(SteerAutonomous(player=IMPERIUM, weapon=flying.id, turn_at=2, turn=1))
    moved = one(events, AutonomousMoved)
    assert moved.path == (at(0, -4), at(0, -5), at(1, -6), at(2, -7), at(3, -8))
    assert game.state.autonomous[flying.id].facing == NE
    assert game.state.to_act == IMPERIUM  # now the Firing phase proceeds


def test_steering_is_refused_beyond_one_turn_p25():
    flying = AutonomousWeapon(id="imperium-1/auto-1", owner=IMPERIUM, firer="imperium-1", weapon="test_seeker",
                              weapon_index=1, hex=at(0, -3), facing=N, launched_turn=1, moved_turn=1)
    game = Range(launcher(), plane("orks-1", "dakkajet", at(9, 0), S), phase=MOVEMENT, active="imperium-1",
                 step="altitude", autonomous={flying.id: flying}, autonomous_launched=1)
    game.apply(AdjustAltitude(player=IMPERIUM, aircraft="imperium-1", change=0), dice=[1])  # 1+3 hexes
    assert game.refused(SteerAutonomous(player=IMPERIUM, weapon=flying.id, turn_at=1, turn=2)).page == 25
    assert game.refused(SteerAutonomous(player=IMPERIUM, weapon=flying.id, turn_at=5, turn=1)).page == 25
    assert game.refused(SteerAutonomous(player=ORKS, weapon=flying.id)).page == 25


def test_placing_weapons_one_at_a_time_then_finishing_the_aircrafts_firing_p25_p20():
    """LaunchAutonomous places one weapon and keeps the aircraft's firing open: the same aircraft places a
    second, then fires its other weapons with FireWeapons; nobody else acts in between (p.20)."""
    game = Range(launcher(), plane("imperium-2", "thunderbolt", at(6, 6)),
                 plane("orks-1", "dakkajet", at(0, -6), S))
    launches = [c for c in game.legal(IMPERIUM) if isinstance(c, LaunchAutonomous)]
    assert launches and {c.shot.weapon_index for c in launches} == {1}  # identical seekers offered once
    game.apply(LaunchAutonomous(player=IMPERIUM, aircraft="imperium-1", shot=seeker(1, hexes=1)))
    assert game.state.volley.open and game.state.to_act == IMPERIUM
    assert game.refused(PassFiring(player=IMPERIUM)).page == 20
    assert game.refused_fire("imperium-2").page == 20
    game.apply(LaunchAutonomous(player=IMPERIUM, aircraft="imperium-1",
                                shot=seeker(2, hex=C.neighbour(NE), facing=NE, hexes=1)))
    assert not [c for c in game.legal(IMPERIUM) if isinstance(c, LaunchAutonomous)]
    err = game.refused(LaunchAutonomous(player=IMPERIUM, aircraft="imperium-1",
                                        shot=seeker(3, hex=C.neighbour(NW), facing=NW)))
    assert err.page == 25
    events = game.fire("imperium-1", (0, "orks-1"), dice=[1, 1])
    assert one(events, WeaponFired).target == "orks-1"
    assert game.aircraft("imperium-1").fired and game.aircraft("imperium-1").ammo == (None, 1, 1, 2)
    assert game.state.to_act == ORKS
