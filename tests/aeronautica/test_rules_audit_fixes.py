"""Rules the audit of issue 19 found played against the text, each with the test that would fail if it came back.

1. Bad Weather with ``RuleOptions(cloud_cover="either")`` (p.33); 2. a Bombing Run's ground target uses no Fire
Arc (p.21, p.26); 3. Flares / Belching Smoke turn one hit into a miss (p.37, p.44, in test_upgrades_in_play);
4. Fuel (p.11); 5. landing with Min Speed 0 (p.19); 6. Terrain Height when taxiing, setting up and placing
reserves (p.33); 7. a Hovering aircraft need not choose a Manoeuvre (p.16); 8. Imperial Ace / Fly Boss re-roll
"a dice roll" (p.37, p.45); 9. taxiing off the board disengages (p.17, p.19). And two cosmetic ones: a crash
leaves Altitude 0, and throttling to Speed 0 Stalls once.
"""

from __future__ import annotations

import msgspec
import pytest

from aero_events.core import GameSession, ManualDice, RuleError
from aero_events.hexgrid import Hex
from aero_events.rulesets.aeronautica.commands import (
    AcceptRoll,
    ActivateAircraft,
    AdjustAltitude,
    ChooseManoeuvre,
    DeclineManoeuvre,
    Hover,
    Land,
    PassFiring,
    PlaceAircraft,
    PlaceReserve,
    SetThrottle,
    Taxi,
    UseReroll,
)
from aero_events.rulesets.aeronautica.events import (
    AircraftDestroyed,
    AircraftDisengaged,
    AltitudeChanged,
    CrashAvoided,
    DamageIgnored,
    EjectorSeatsRolled,
    FuelExhausted,
    Hovered,
    Landed,
    ManoeuvreDeclined,
    MovementEnded,
    RerollUsed,
    RollAccepted,
    RollOffered,
    Shot,
    SpinEntered,
    SpinRecovered,
    Stalled,
    StallRecovered,
    TerrainCrashed,
    WeaponFired,
)
from aero_events.rulesets.aeronautica.forces import AircraftEntry, ForceList
from aero_events.rulesets.aeronautica.profiles import build_catalogue
from aero_events.rulesets.aeronautica.reserves import arrival_hexes
from aero_events.rulesets.aeronautica.scenarios.format import TerrainFeature
from aero_events.rulesets.aeronautica.setup import GameSetup, SideSetup, board_for
from aero_events.rulesets.aeronautica.state import (
    ALTITUDE,
    ARRIVALS,
    DESTROYED,
    DISENGAGED,
    FLYING,
    GROUND,
    LANDED,
    MANOEUVRE,
    MOVEMENT,
    RESERVE,
    THROTTLE,
)
from tests.aeronautica.firing_helpers import (
    BOARD,
    IMPERIUM,
    ORKS,
    RULES,
    C,
    N,
    Range,
    S,
    StateRules,
    at,
    bunker,
    of_type,
    one,
    plane,
    rules_with,
)
from tests.aeronautica.helpers import Plane, Table, variant
from tests.aeronautica.helpers import make_rules as make_movement_rules
from tests.aeronautica.helpers import placement as movement_placement

AUTOCANNONS = 1
SPARE_ORKS = plane("orks-9", "dakkajet", at(-12, 12), N)
SPARE_IMPERIUM = plane("imperium-9", "thunderbolt", at(12, 12), N)


# ---------------------------------------------------------------- 1. Bad Weather, "either" (p.33)


@pytest.mark.parametrize(("cloud_cover", "dice"), [("firer", 6), ("either", 3)])
def test_cloud_cover_either_halves_medium_range_fire_from_above_at_a_target_below_the_clouds_p33(cloud_cover, dice):
    """p.33 Bad Weather: "At this Altitude level or below, aircraft follow the Night Fighting rules". The firer
    at Altitude 3 is above clouds at 2; its target at 2 is in them. Read as the firer's Altitude (the default)
    the Medium range Firepower stays 6; ``cloud_cover="either"`` counts the target's Altitude too: halved."""
    game = Range(plane("imperium-1", "thunderbolt", C, altitude=3), plane("orks-1", "dakkajet", at(0, -5), S,
                                                                          altitude=2),
                 cloud_level=2, rules=rules_with(cloud_cover=cloud_cover))
    events = game.fire("imperium-1", (AUTOCANNONS, "orks-1"), dice=[1] * dice)
    assert one(events, WeaponFired).dice == dice


def test_cloud_cover_either_also_shapes_what_is_offered_p33():
    """Long range under the clouds rolls nothing (p.33), so it is not offered when only the target is below."""
    def lascannon_offered(rules) -> bool:
        game = Range(plane("imperium-1", "thunderbolt", C, altitude=3),
                     plane("orks-1", "dakkajet", at(0, -9), S, altitude=3), cloud_level=3, rules=rules)
        return any(shot.weapon_index == 0 for shots in game.fire_options("imperium-1") for shot in shots)

    assert lascannon_offered(RULES) is False  # the firer is in the clouds itself
    high = Range(plane("imperium-1", "thunderbolt", C, altitude=4),
                 plane("orks-1", "dakkajet", at(0, -9), S, altitude=3), cloud_level=3,
                 rules=rules_with(cloud_cover="either"))
    assert not any(shot.weapon_index == 0 for shots in high.fire_options("imperium-1") for shot in shots)
    default = Range(plane("imperium-1", "thunderbolt", C, altitude=4),
                    plane("orks-1", "dakkajet", at(0, -9), S, altitude=3), cloud_level=3)
    assert any(shot.weapon_index == 0 for shots in default.fire_options("imperium-1") for shot in shots)


# ---------------------------------------------------------------- 2. Bombing Runs use no Fire Arc (p.21, p.26)


def bomber_over_a_bunker() -> Range:
    """A Thunderbolt with Hellstrike missiles (Front, Ground Attack) at Altitude 1; a bunker 2 hexes ahead and a
    Dakkajet 3 hexes ahead, both in its Front arc."""
    return Range(plane("imperium-1", "thunderbolt", C, altitude=1,
                       weapons=("twin_lascannons", "quad_autocannons", "hellstrike_missiles")),
                 plane("orks-1", "dakkajet", at(0, -3), S, altitude=1), SPARE_IMPERIUM,
                 ground_targets=(bunker("bunker", at(0, -2)),))


def test_a_bombing_run_and_fire_at_an_aircraft_share_the_front_arc_p21_p26():
    """p.26: "aircraft equipped with weapons with the Ground Attack special rule can make a Bombing Run whilst
    simultaneously targeting other aircraft"; p.21 limits each Fire Arc to one enemy *aircraft*."""
    game = bomber_over_a_bunker()
    wanted = (Shot(weapon_index=AUTOCANNONS, target="orks-1"), Shot(weapon_index=2, target="bunker"))
    assert wanted in game.fire_options("imperium-1")
    events = game.fire("imperium-1", *wanted, dice=[1, 1, 1, 1, 1, 1])
    assert [(f.weapon_index, f.target, f.attack) for f in of_type(events, WeaponFired)] == [
        (AUTOCANNONS, "orks-1", "air"), (2, "bunker", "bombing")]


def test_two_aircraft_in_one_arc_are_still_refused_p21():
    game = Range(plane("imperium-1", "thunderbolt", C), plane("orks-1", "dakkajet", at(0, -3), S),
                 plane("orks-2", "dakkajet", at(0, -2), S))
    assert game.refused_fire("imperium-1", (0, "orks-1"), (AUTOCANNONS, "orks-2")).page == 21


# ---------------------------------------------------------------- 4. Fuel (p.11)

FUELLED = variant("thunderbolt", "short_legs", fuel=2)


def fuel_rules(**options) -> StateRules:
    base = RULES.catalogue
    catalogue = build_catalogue(factions=base.factions.values(), aircraft=[*base.aircraft.values(), FUELLED],
                                weapons=base.weapons.values(), upgrades=base.upgrades.values(),
                                data_version=base.data_version + "+fuel", source="test_rules_audit_fixes.py")
    return StateRules(catalogue=catalogue, options=rules_with(**options).options)


def end_of_turn(turn: int, entered: int = 1, **changes) -> tuple[Range, list]:
    fuelled = msgspec.structs.replace(plane("imperium-1", "thunderbolt", C, entered_turn=entered, **changes),
                                      profile="short_legs")
    game = Range(fuelled, SPARE_IMPERIUM,
                 plane("orks-1", "dakkajet", at(8, -8), S), turn=turn, rules=fuel_rules())
    events = game.pass_(IMPERIUM) + game.pass_(ORKS)
    return game, events


def test_an_aircraft_with_fuel_2_flies_two_turns_then_runs_out_and_crashes_p11():
    """p.11: "an aircraft with a Fuel characteristic of 2 could operate for two turns before running out of
    fuel and crashing"."""
    game, events = end_of_turn(turn=1)
    assert not of_type(events, FuelExhausted) and game.aircraft("imperium-1").status == FLYING
    game, events = end_of_turn(turn=2)
    assert one(events, FuelExhausted) == FuelExhausted(aircraft="imperium-1", turns=2)
    assert one(events, AircraftDestroyed).cause == "out of fuel (Fuel 2)"
    assert game.aircraft("imperium-1").status == DESTROYED


def test_a_reserve_counts_its_fuel_from_the_turn_it_arrives_p11_p33():
    _, events = end_of_turn(turn=4, entered=3)
    assert one(events, FuelExhausted).turns == 2
    _, events = end_of_turn(turn=4, entered=4)
    assert not of_type(events, FuelExhausted)


def test_placing_a_reserve_records_its_arrival_turn_p33():
    game = Range(plane("imperium-1", "thunderbolt", C), plane("imperium-2", "thunderbolt", Hex(0, 0),
                                                              status=RESERVE),
                 plane("orks-1", "dakkajet", at(8, -8), S), phase=ARRIVALS, turn=5, arriving=("imperium-2",))
    hex = arrival_hexes(game.rules, game.state, IMPERIUM)[0]
    game.apply(PlaceReserve(player=IMPERIUM, aircraft="imperium-2", hex=hex, facing=N, altitude=3))
    assert game.aircraft("imperium-2").entered_turn == 5


def test_an_aircraft_without_fuel_flies_on():
    game = Range(plane("imperium-1", "thunderbolt", C), plane("orks-1", "dakkajet", at(8, -8), S), turn=11)
    events = game.pass_(IMPERIUM) + game.pass_(ORKS)
    assert not of_type(events, FuelExhausted)


# ---------------------------------------------------------------- 5. landing with Min Speed 0 (p.19, p.16)


def hoverer_table(altitude: int = 1, speed: int = 0) -> Table:
    return Table([Plane("hoverer", (8, 12), N, speed=speed, altitude=altitude)],
                 [Plane("dakkajet", (2, 2), S)], board="16x16h")


def test_an_aircraft_with_min_speed_0_lands_from_a_hover_p19():
    """p.19: Manoeuvre 1, Altitude 1, its minimum Speed after the Throttle step: it may land. At Speed 0 it
    Hovers (p.16) and makes no move: it lands in its hex."""
    table = hoverer_table()
    table.start_movement({"imperium-1": 1, "orks-1": 1})
    table.apply(ActivateAircraft(player=IMPERIUM, aircraft="imperium-1"))
    table.apply(SetThrottle(player=IMPERIUM, aircraft="imperium-1", change=0))
    assert table.state.step == MANOEUVRE
    legal = table.legal(IMPERIUM)
    assert Land(player=IMPERIUM, aircraft="imperium-1") in legal
    assert Hover(player=IMPERIUM, aircraft="imperium-1", facing=N) in legal
    events = table.apply(Land(player=IMPERIUM, aircraft="imperium-1"))
    assert [type(e) for e in events][:2] == [Landed, MovementEnded]
    landed = table.aircraft("imperium-1")
    assert (landed.status, landed.altitude, landed.speed) == (LANDED, 0, 0)


def test_a_hovering_aircraft_not_at_altitude_1_may_not_land_p19():
    table = hoverer_table(altitude=2)
    table.start_movement({"imperium-1": 1, "orks-1": 1})
    table.apply(ActivateAircraft(player=IMPERIUM, aircraft="imperium-1"))
    table.apply(SetThrottle(player=IMPERIUM, aircraft="imperium-1", change=0))
    assert Land(player=IMPERIUM, aircraft="imperium-1") not in table.legal(IMPERIUM)
    assert table.refused(Land(player=IMPERIUM, aircraft="imperium-1")).page == 19


# ---------------------------------------------------------------- 6. Terrain Height (p.33)

HILL = TerrainFeature(name="hill", level=2, hexes=(at(0, -1),))


def landed_at(hex, **state) -> Range:
    return Range(plane("imperium-1", "thunderbolt", hex, altitude=0, speed=0, status=LANDED),
                 plane("orks-1", "dakkajet", at(8, -8), S), phase=MOVEMENT, active="imperium-1", step=GROUND,
                 **state)


def test_a_landed_aircraft_taxiing_into_terrain_crashes_p33_p19():
    """p.33: aircraft not higher than the terrain "will crash into it if any part of their base touches any
    part of the terrain during the Movement phase"; a landed aircraft is at Altitude 0."""
    game = landed_at(C, terrain=(HILL,))
    command = Taxi(player=IMPERIUM, aircraft="imperium-1", facing_before=N, hexes=1, facing_after=N)
    assert command in game.legal(IMPERIUM)
    events = game.apply(command)
    assert one(events, TerrainCrashed).hex == at(0, -1)
    assert game.aircraft("imperium-1").status == DESTROYED


def terrain_setup(altitude: int, hex_offset=(8, 14), deployment: str = "placed") -> GameSetup:
    imperium = ForceList(name="i", faction="imperial_navy", aircraft=(AircraftEntry(aircraft="thunderbolt"),))
    orks = ForceList(name="o", faction="ork_air_waaagh", aircraft=(AircraftEntry(aircraft="dakkajet"),))
    hill = TerrainFeature(name="hill", level=2, hexes=(board_for("16x16h").from_offset(*hex_offset),))
    placed = deployment == "placed"
    return GameSetup(sides=(
        SideSetup(player=IMPERIUM, force=imperium, placements=(movement_placement(
            "16x16h", Plane("thunderbolt", hex_offset, N, altitude=altitude)),) if placed else ()),
        SideSetup(player=ORKS, force=orks, placements=(movement_placement(
            "16x16h", Plane("dakkajet", (2, 1), S)),) if placed else ())),
        board="16x16h", check_points=False, terrain=(hill,), deployment=deployment)


def test_an_aircraft_is_not_set_up_inside_terrain_p33():
    rules = make_movement_rules()
    with pytest.raises(RuleError) as refused:
        GameSession(rules, terrain_setup(altitude=2), dice=ManualDice(), game_id="t")
    assert refused.value.page == 33
    GameSession(rules, terrain_setup(altitude=3), dice=ManualDice(), game_id="t")  # above the hill: fine


def test_alternate_set_up_neither_offers_nor_accepts_a_place_inside_terrain_p33_p34():
    table = Table.__new__(Table)
    table.rules, table.dice = make_movement_rules(), ManualDice()
    table.session = GameSession(table.rules, terrain_setup(altitude=3, deployment="alternate"), dice=table.dice,
                                game_id="t")
    from aero_events.rulesets.aeronautica.commands import RollOff

    table.dice.enter([6, 1])
    table.apply(RollOff(player=IMPERIUM))
    hill = board_for("16x16h").from_offset(8, 14)
    assert table.state.to_act == IMPERIUM  # won the roll-off 6 to 1
    offered = [c for c in table.legal(IMPERIUM) if isinstance(c, PlaceAircraft) and Hex(*c.hex) == hill]
    assert offered and min(c.altitude for c in offered) == 3
    err = table.refused(PlaceAircraft(player=IMPERIUM, aircraft="imperium-1", hex=hill, facing=N, speed=4,
                                      altitude=2))
    assert err.page == 33


def test_a_reserve_is_not_placed_inside_terrain_p33():
    probe = Range(plane("imperium-1", "thunderbolt", C), plane("imperium-2", "thunderbolt", Hex(0, 0),
                                                               status=RESERVE),
                  plane("orks-1", "dakkajet", at(8, -8), S), phase=ARRIVALS, turn=3, arriving=("imperium-2",))
    edge_hex = arrival_hexes(probe.rules, probe.state, IMPERIUM)[0]
    spire = TerrainFeature(name="spire", level=3, hexes=(edge_hex,))
    game = Range(plane("imperium-1", "thunderbolt", C), plane("imperium-2", "thunderbolt", Hex(0, 0),
                                                              status=RESERVE),
                 plane("orks-1", "dakkajet", at(8, -8), S), phase=ARRIVALS, turn=3, arriving=("imperium-2",),
                 terrain=(spire,))
    there = [c.altitude for c in game.legal(IMPERIUM) if isinstance(c, PlaceReserve) and Hex(*c.hex) == edge_hex]
    assert there and min(there) == 4
    err = game.refused(PlaceReserve(player=IMPERIUM, aircraft="imperium-2", hex=edge_hex, facing=N, altitude=3))
    assert err.page == 33
    game.apply(PlaceReserve(player=IMPERIUM, aircraft="imperium-2", hex=edge_hex, facing=N, altitude=4))
    assert game.aircraft("imperium-2").status == FLYING


# ---------------------------------------------------------------- 7. Hovering without a Manoeuvre token (p.16)


def test_a_hovering_aircraft_may_take_no_manoeuvre_token_and_then_keeps_speed_0_p16():
    """p.16: "Whilst at Speed 0, the aircraft does not move and is not obliged to choose an Ace Manoeuvre. It
    may, however, turn to face any direction ... If no Ace Manoeuvre has been chosen, a Hovering aircraft may
    not adjust its Speed"."""
    table = hoverer_table(altitude=3)
    decline = DeclineManoeuvre(player=IMPERIUM, aircraft="imperium-1")
    assert decline in table.legal(IMPERIUM)
    assert one(table.apply(decline), ManoeuvreDeclined).aircraft == "imperium-1"
    assert decline not in table.legal(IMPERIUM)  # nothing left to choose for it
    table.dice.enter([6, 1])
    table.apply(ChooseManoeuvre(player=ORKS, aircraft="orks-1", manoeuvre=1))
    table.pass_firing("tailing_fire")
    from aero_events.rulesets.aeronautica.commands import ChooseFirstMover

    table.apply(ChooseFirstMover(player=IMPERIUM, first=IMPERIUM))
    table.apply(ActivateAircraft(player=IMPERIUM, aircraft="imperium-1"))
    assert table.state.step == THROTTLE
    assert table.legal(IMPERIUM) == [SetThrottle(player=IMPERIUM, aircraft="imperium-1", change=0)]
    assert table.refused(SetThrottle(player=IMPERIUM, aircraft="imperium-1", change=1)).page == 16
    table.apply(SetThrottle(player=IMPERIUM, aircraft="imperium-1", change=0))
    events = table.apply(Hover(player=IMPERIUM, aircraft="imperium-1", facing=S))
    assert one(events, Hovered).facing == S
    moved = table.aircraft("imperium-1")
    assert (moved.hex, moved.speed, moved.altitude, moved.facing) == (
        board_for("16x16h").from_offset(8, 12), 0, 3, S)


def test_an_aircraft_that_is_not_hovering_must_choose_a_manoeuvre_p13():
    table = hoverer_table(altitude=3, speed=2)
    assert DeclineManoeuvre(player=IMPERIUM, aircraft="imperium-1") not in table.legal(IMPERIUM)
    assert table.refused(DeclineManoeuvre(player=IMPERIUM, aircraft="imperium-1")).page == 13
    thunderbolt = Table([Plane("thunderbolt", (8, 12), N)], [Plane("dakkajet", (2, 2), S)])
    assert thunderbolt.refused(DeclineManoeuvre(player=IMPERIUM, aircraft="imperium-1")).page == 13


# ---------------------------------------------------------------- 8. the re-roll for any dice roll (p.37, p.45)


def end_phase_with(*aircraft, dice=(), **options) -> tuple[Range, list]:
    game = Range(*aircraft, SPARE_IMPERIUM, plane("orks-1", "dakkajet", at(8, -8), S),
                 rules=rules_with(**options) if options else None)
    game.dice.enter(dice)
    return game, game.pass_(IMPERIUM) + game.pass_(ORKS)


def test_imperial_ace_may_reroll_a_failed_stall_recovery_p37_p29():
    """p.37: "Once per game, this aircraft may choose to reroll a dice roll": the Handling roll of Stall
    recovery (p.29) is a dice roll. The End phase waits for the decision, then goes on."""
    game, events = end_phase_with(plane("imperium-1", "thunderbolt", C, stalled=True, upgrades=("imperial_ace",)),
                                  dice=[1])
    offered = one(events, RollOffered)
    assert (offered.aircraft, offered.step, offered.roll.faces) == ("imperium-1", "stall_recovery", (1,))
    assert game.legal(IMPERIUM) == [AcceptRoll(player=IMPERIUM, aircraft="imperium-1"),
                                    UseReroll(player=IMPERIUM, aircraft="imperium-1")]
    assert game.legal(ORKS) == []
    assert game.refused(PassFiring(player=ORKS)).page == 37
    events = game.reroll("imperium-1", dice=[4])
    assert one(events, RerollUsed).aircraft == "imperium-1"
    assert one(events, StallRecovered).aircraft == "imperium-1"
    assert game.aircraft("imperium-1").reroll_used and game.state.turn == 3
    assert game.state.pending_roll is None


def test_accepting_the_roll_keeps_the_reroll_for_later_p37():
    game, _ = end_phase_with(plane("imperium-1", "thunderbolt", C, stalled=True, upgrades=("imperial_ace",)),
                             dice=[1])
    events = game.accept("imperium-1")
    assert one(events, RollAccepted).aircraft == "imperium-1"
    assert one(events, SpinEntered).aircraft == "imperium-1"
    assert not game.aircraft("imperium-1").reroll_used


def test_fly_boss_may_reroll_the_spin_recovery_and_the_facing_roll_p45_p29():
    game, events = end_phase_with(plane("orks-2", "dakkajet", at(-8, 8), spinning=True, upgrades=("fly_boss",)),
                                  dice=[1])
    assert one(events, RollOffered).step == "spin_recovery"
    events = game.reroll("orks-2", dice=[5, 2])  # Handling 4+: recovered; facing D6 2 = NE
    assert one(events, SpinRecovered).facing == 1
    assert not of_type(events, RollOffered)  # once per game: the facing roll is not offered again


def test_the_facing_after_a_spin_is_a_roll_the_ace_may_reroll_p37_p29():
    game, events = end_phase_with(plane("imperium-1", "thunderbolt", C, spinning=True, upgrades=("imperial_ace",)),
                                  dice=[3])
    assert one(events, RollOffered).step == "spin_recovery"
    events = game.apply(AcceptRoll(player=IMPERIUM, aircraft="imperium-1"), dice=[6])  # 3: recovered; facing 6
    assert one(events, RollOffered).step == "spin_facing"
    events = game.reroll("imperium-1", dice=[4])
    assert one(events, SpinRecovered).facing == 3


def test_ejector_seats_are_a_roll_the_ace_may_reroll_p37():
    game, events = end_phase_with(plane("imperium-1", "thunderbolt", C, status=DESTROYED, structure=0,
                                        upgrades=("imperial_ace", "ejector_seats")), dice=[2])
    assert one(events, RollOffered).step == "ejector_seats"
    events = game.reroll("imperium-1", dice=[5])
    assert one(events, EjectorSeatsRolled).escaped is True


def diving_ace(altitude: int = 1, speed: int = 4, **changes) -> Range:
    return Range(plane("imperium-1", "thunderbolt", C, altitude=altitude, speed=speed, upgrades=("imperial_ace",),
                       **changes),
                 plane("orks-1", "dakkajet", at(8, -8), S), phase=MOVEMENT, active="imperium-1", step=ALTITUDE)


def test_the_crash_roll_of_a_dive_to_altitude_0_may_be_rerolled_p37_p19():
    game = diving_ace()
    events = game.apply(AdjustAltitude(player=IMPERIUM, aircraft="imperium-1", change=-1), dice=[1])
    assert one(events, RollOffered).step == "crash"
    assert game.state.active == "imperium-1"  # its move waits for the decision
    events = game.reroll("imperium-1", dice=[3])
    assert one(events, CrashAvoided).aircraft == "imperium-1"
    assert MovementEnded(aircraft="imperium-1") in events and game.aircraft("imperium-1").altitude == 1


def test_the_breaking_up_roll_may_be_rerolled_p37_p19():
    game = diving_ace(altitude=3, speed=6)
    events = game.apply(AdjustAltitude(player=IMPERIUM, aircraft="imperium-1", change=-1), dice=[1])
    assert one(events, RollOffered).step == "breaking_up"
    events = game.accept("imperium-1")
    assert game.aircraft("imperium-1").structure == 2 and MovementEnded(aircraft="imperium-1") in events


def test_the_armour_roll_against_enemy_fire_may_be_rerolled_by_the_target_p37():
    """p.37: the Ace's "dice roll" includes its Armoured Cockpit roll: the volley waits for the *target's*
    player, and goes on with the roll that stands."""
    game = Range(plane("imperium-1", "thunderbolt", at(0, -3), S, upgrades=("imperial_ace", "armoured_cockpit")),
                 plane("orks-1", "dakkajet", C, N), SPARE_IMPERIUM, first=ORKS)
    events = game.fire("orks-1", (0, "imperium-1"), dice=[5, 5, 1, 1, 1, 1, 1, 1, 5, 5, 1, 1])
    offered = one(events, RollOffered)
    assert (offered.aircraft, offered.step, offered.losses, offered.weapon_index) == ("imperium-1", "armour", (1, 1),
                                                                                     0)
    assert game.legal(IMPERIUM) == [AcceptRoll(player=IMPERIUM, aircraft="imperium-1"),
                                    UseReroll(player=IMPERIUM, aircraft="imperium-1")]
    assert game.legal(ORKS) == []
    events = game.reroll("imperium-1", dice=[6, 6])
    assert one(events, DamageIgnored).structure == 2
    assert game.aircraft("imperium-1").structure == 3 and game.state.volley is None
    assert game.aircraft("orks-1").fired


def test_an_accepted_armour_roll_lets_the_damage_through_p37():
    game = Range(plane("imperium-1", "thunderbolt", at(0, -3), S, upgrades=("imperial_ace", "armoured_cockpit")),
                 plane("orks-1", "dakkajet", C, N), SPARE_IMPERIUM, first=ORKS)
    game.fire("orks-1", (0, "imperium-1"), dice=[5, 5, 1, 1, 1, 1, 1, 1, 5, 5, 6, 1])
    game.accept("imperium-1")
    assert game.aircraft("imperium-1").structure == 2 and not game.aircraft("imperium-1").reroll_used


def test_without_an_ace_no_roll_waits():
    _, events = end_phase_with(plane("imperium-1", "thunderbolt", C, stalled=True), dice=[1])
    assert not of_type(events, RollOffered) and one(events, SpinEntered)


# ---------------------------------------------------------------- 9. taxiing off the board (p.17, p.19)


def test_taxiing_off_the_board_disengages_p17_p19():
    """p.17: "If an aircraft's movement takes it beyond the edge of the Area of Engagement ..., the aircraft
    Disengages immediately"; taxiing is movement (p.19)."""
    edge = board_for(BOARD).from_offset(0, 15)
    game = landed_at(edge)
    off = Taxi(player=IMPERIUM, aircraft="imperium-1", facing_before=4, hexes=1, facing_after=4)
    assert off in game.legal(IMPERIUM)
    events = game.apply(off)
    gone = one(events, AircraftDisengaged)
    assert (gone.how, gone.via) == ("accidental", "taxiing")
    assert game.aircraft("imperium-1").status == DISENGAGED


def test_taxiing_off_the_board_in_the_disengagement_turn_is_voluntary_p31():
    edge = board_for(BOARD).from_offset(0, 15)
    game = landed_at(edge, disengagement_turn=True)
    events = game.apply(Taxi(player=IMPERIUM, aircraft="imperium-1", facing_before=4, hexes=1, facing_after=4))
    assert one(events, AircraftDisengaged).how == "voluntary"


# ---------------------------------------------------------------- cosmetic


def test_a_crashed_aircraft_is_left_at_altitude_0_not_below_p19():
    game = Range(plane("imperium-1", "thunderbolt", C, altitude=1, speed=5), plane("orks-1", "dakkajet",
                                                                                  at(8, -8), S),
                 phase=MOVEMENT, active="imperium-1", step=ALTITUDE)
    events = game.apply(AdjustAltitude(player=IMPERIUM, aircraft="imperium-1", change=-2), dice=[1])
    assert one(events, AltitudeChanged).altitude == 0
    assert one(events, AircraftDestroyed).cause == "crashed"
    assert game.aircraft("imperium-1").altitude == 0


def test_throttling_to_speed_0_stalls_once_p15_p17():
    table = Table([Plane("thunderbolt", (8, 12), N, speed=2)], [Plane("dakkajet", (2, 2), S)])
    table.start_movement({"imperium-1": 1, "orks-1": 1})
    events = table.move("imperium-1", throttle=-2, altitude=None)
    assert len(of_type(events, Stalled)) == 1
    assert table.aircraft("imperium-1").stalled

