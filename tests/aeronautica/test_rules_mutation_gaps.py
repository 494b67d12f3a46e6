"""Rules whose mutation no test caught (issue 19): Spin recovery's Speed and facing, Stall recovery's Speed -1,
hovering holding its Altitude, Down arcs, Bomb Creep around a target destroyed earlier in the volley, and the
Ork upgrades Wazmek Speshul, Extra Armour and Kustom Big Shootas in play."""

from __future__ import annotations

import msgspec
import pytest

from aero_events.core import GameSession, ManualDice, RuleError
from aero_events.rulesets.aeronautica.commands import ActivateAircraft, AdjustAltitude, Hover, SetThrottle
from aero_events.rulesets.aeronautica.events import (
    AltitudeChanged,
    BombCreepRolled,
    BrokeUp,
    DamageIgnored,
    DamageRolled,
    GroundTargetDestroyed,
    Hovered,
    MovementEnded,
    SpinRecovered,
    Stalled,
    StallRecovered,
    WeaponFired,
)
from aero_events.rulesets.aeronautica.forces import AircraftEntry, ForceList
from aero_events.rulesets.aeronautica.ground import find_target
from aero_events.rulesets.aeronautica.profiles import FireArcs, WeaponProfile, build_catalogue
from aero_events.rulesets.aeronautica.setup import GameSetup, SideSetup
from aero_events.rulesets.aeronautica.state import ALTITUDE, FIRING, MOVEMENT, THROTTLE
from aero_events.rulesets.aeronautica.weapons import AIR, attack_kind
from tests.aeronautica.firing_helpers import (
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
    rolls,
    rules_with,
)
from tests.aeronautica.helpers import Plane, Table, make_rules, placement

SPARE_ORKS = plane("orks-9", "dakkajet", at(-12, 12), N)


def end_phase(*aircraft, dice) -> tuple[Range, list]:
    game = Range(*aircraft, plane("orks-1", "dakkajet", at(8, -8), S))
    game.dice.enter(dice)
    events: list = []
    while game.state.phase == FIRING and game.state.to_act is not None:
        events += game.pass_()
    return game, events


# ---------------------------------------------------------------- End phase recoveries (p.29)


def test_recovering_from_a_spin_sets_max_speed_and_the_rolled_facing_p29():
    """p.29: "The aircraft's Speed dial is set to its Max Speed characteristic and its facing is randomly
    determined ... roll a D6": a Thunderbolt (Max Speed 6, Handling 3+) spinning at Speed 2 facing north."""
    game, events = end_phase(plane("imperium-1", "thunderbolt", C, speed=2, spinning=True), dice=[3, 5])
    assert one(events, SpinRecovered) == SpinRecovered(aircraft="imperium-1", speed=6, facing=4)
    recovered = game.aircraft("imperium-1")
    assert (recovered.speed, recovered.facing, recovered.spinning) == (6, 4, False)
    assert rolls(events, "facing after spin")[0].faces == (5,)


@pytest.mark.parametrize(("face", "facing"), [(1, 0), (2, 1), (6, 5)])
def test_the_facing_after_a_spin_counts_the_d6_clockwise_from_north_p29(face, facing):
    _, events = end_phase(plane("imperium-1", "thunderbolt", C, facing=3, spinning=True), dice=[6, face])
    assert one(events, SpinRecovered).facing == facing


@pytest.mark.parametrize(("speed", "after"), [(5, 4), (3, 2), (2, 2)])
def test_recovering_from_a_stall_takes_1_speed_but_not_below_min_speed_p29(speed, after):
    """p.29: "The aircraft's Speed is reduced by 1 for climbing ..., to a minimum of the aircraft's Min Speed"
    (a Thunderbolt's is 2)."""
    game, events = end_phase(plane("imperium-1", "thunderbolt", C, speed=speed, stalled=True), dice=[4])
    assert one(events, StallRecovered).speed == after
    assert game.aircraft("imperium-1").speed == after


# ---------------------------------------------------------------- hovering holds its Altitude (p.16, p.18)


def test_a_hovering_aircraft_keeps_its_altitude_p16_p18():
    table = Table([Plane("hoverer", (8, 12), N, speed=0, altitude=3)], [Plane("dakkajet", (2, 2), S)])
    table.start_movement({"imperium-1": 1, "orks-1": 1})
    table.apply(ActivateAircraft(player=IMPERIUM, aircraft="imperium-1"))
    table.apply(SetThrottle(player=IMPERIUM, aircraft="imperium-1", change=0))
    events = table.apply(Hover(player=IMPERIUM, aircraft="imperium-1", facing=2))
    assert one(events, Hovered).facing == 2 and one(events, MovementEnded)
    assert not of_type(events, AltitudeChanged)
    hovering = table.aircraft("imperium-1")
    assert (hovering.altitude, hovering.speed, hovering.hex) == (3, 0, table.rules.board(table.state).from_offset(8, 12))


def test_at_speed_0_the_climb_and_dive_table_gives_nothing_p18():
    """p.18 gives climbs and dives for Speed 1-4 and 5-9 only: an aircraft at Speed 0 holds its Altitude."""
    game = Range(plane("imperium-1", "thunderbolt", C, speed=0, altitude=3), plane("orks-1", "dakkajet", at(8, -8)),
                 phase=MOVEMENT, active="imperium-1", step=ALTITUDE)
    assert [c.change for c in game.legal(IMPERIUM) if isinstance(c, AdjustAltitude)] == [0]
    assert game.refused(AdjustAltitude(player=IMPERIUM, aircraft="imperium-1", change=1)).page == 18
    assert game.refused(AdjustAltitude(player=IMPERIUM, aircraft="imperium-1", change=-1)).page == 18


def test_a_hovering_aircraft_climbing_too_high_hovers_at_its_max_altitude_p18():
    """p.18: aircraft with a Min Speed of 0 "cannot Stall ... Instead, they will simply Hover at their Max
    Altitude until the next turn"."""
    game = Range(plane("imperium-1", "thunderbolt", C, speed=1, altitude=5), plane("orks-1", "dakkajet", at(8, -8)),
                 phase=MOVEMENT, active="imperium-1", step=ALTITUDE, rules=_hover_rules())
    events = game.apply(AdjustAltitude(player=IMPERIUM, aircraft="imperium-1", change=1))
    assert one(events, AltitudeChanged).altitude == 5 and one(events, AltitudeChanged).speed == 0
    assert not of_type(events, Stalled) and not game.aircraft("imperium-1").stalled


def _hover_rules():
    """The firing test rules with the Thunderbolt given Min Speed 0 (it Hovers, p.16)."""
    base = RULES.catalogue
    hoverer = msgspec.structs.replace(base.aircraft["thunderbolt"], min_speed=0)
    aircraft = [hoverer if a.id == "thunderbolt" else a for a in base.aircraft.values()]
    catalogue = build_catalogue(factions=base.factions.values(), aircraft=aircraft, weapons=base.weapons.values(),
                                upgrades=base.upgrades.values(), data_version=base.data_version + "+hover",
                                source="test_rules_mutation_gaps.py")
    return StateRules(catalogue=catalogue)


# ---------------------------------------------------------------- Down arcs (p.21)

BELLY_GUN = WeaponProfile(id="test_belly_gun", name="Test Belly Gun", fire_arc=FireArcs(arcs=("all_round",),
                                                                                         vertical="down"),
                          firepower=(2, 2, 0), damage=5)


@pytest.mark.parametrize(("target_altitude", "allowed"), [(2, True), (3, True), (4, False)])
def test_a_down_weapon_targets_only_its_altitude_or_below_p21(target_altitude, allowed):
    """p.21: "Down: Means that this weapon may only target aircraft which are at the same Altitude level as this
    aircraft or below it"."""
    game = Range(plane("imperium-1", "thunderbolt", C, altitude=3),
                 plane("orks-1", "dakkajet", at(0, -2), S, altitude=target_altitude))
    firer, target = game.aircraft("imperium-1"), find_target(game.state, "orks-1")
    if allowed:
        assert attack_kind(BELLY_GUN, firer, target) == AIR
    else:
        with pytest.raises(RuleError) as refused:
            attack_kind(BELLY_GUN, firer, target)
        assert refused.value.page == 21 and "Down" in refused.value.rule


# ---------------------------------------------------------------- Bomb Creep (p.27)


def test_bomb_creep_falls_around_a_target_destroyed_earlier_in_the_volley_p27():
    """p.27: "After rolling one or more successful hits, roll a D6 for any other potential targets within a hex
    adjacent to the target of a Bombing Run". The first Hellstrike destroys bunker-a; the second also hit it:
    its damage has nothing left to roll against, but its Bomb Creep still falls around bunker-a's hex."""
    game = Range(plane("imperium-1", "thunderbolt", C, altitude=2,
                       weapons=("twin_lascannons", "quad_autocannons", "hellstrike_missiles", "hellstrike_missiles")),
                 plane("orks-1", "dakkajet", at(8, -8), S),
                 ground_targets=(bunker("bunker-a", at(0, -2), structure=1), bunker("bunker-b", at(0, -3))))
    # to hit: 5,1 and 5,1; damage of the first: 6 (Extra Damage); its Bomb Creep on bunker-b: 1;
    # the second's damage is skipped; its Bomb Creep on bunker-b: 4, and one Damage dice: 1.
    events = game.fire("imperium-1", (2, "bunker-a"), (3, "bunker-a"), dice=[5, 1, 5, 1, 6, 1, 4, 1])
    assert one(events, GroundTargetDestroyed).target == "bunker-a"
    skipped = [d for d in of_type(events, DamageRolled) if d.skipped]
    assert [(d.weapon_index, d.target) for d in skipped] == [(3, "bunker-a")]
    assert [(c.weapon_index, c.target, c.hit) for c in of_type(events, BombCreepRolled)] == [
        (2, "bunker-b", False), (3, "bunker-b", True)]
    assert [d.target for d in of_type(events, DamageRolled) if d.kind == "creep"] == ["bunker-b"]


# ---------------------------------------------------------------- Ork upgrades in play (p.44-45)


def ork_at_throttle(speed: int, upgrades=(), **options) -> Range:
    return Range(plane("imperium-1", "thunderbolt", at(8, 8)),
                 plane("orks-1", "dakkajet", C, S, speed=speed, upgrades=upgrades),
                 phase=MOVEMENT, first=ORKS, active="orks-1", step=THROTTLE,
                 rules=rules_with(**options) if options else None)


def test_wazmek_speshul_raises_max_speed_to_9_in_play_p44():
    """p.44: "Increase both the Max Speed and Min Speed characteristics of this aircraft by 1, up to a maximum
    of 9": a Dakkajet (Max Speed 8) may throttle to 9 where the Throttle keeps within Max Speed (2020)."""
    plain = ork_at_throttle(8, throttle_past_limits=False)
    speshul = ork_at_throttle(8, ("wazmek_speshul",), throttle_past_limits=False)
    assert [c.change for c in plain.legal(ORKS) if isinstance(c, SetThrottle)] == [-2, -1, 0]
    assert [c.change for c in speshul.legal(ORKS) if isinstance(c, SetThrottle)] == [-2, -1, 0, 1]
    speshul.apply(SetThrottle(player=ORKS, aircraft="orks-1", change=1))
    assert speshul.aircraft("orks-1").speed == 9


def test_wazmek_speshul_raises_min_speed_so_speed_4_stalls_p44_p15():
    plain = ork_at_throttle(5)
    assert not of_type(plain.apply(SetThrottle(player=ORKS, aircraft="orks-1", change=-1)), Stalled)
    speshul = ork_at_throttle(5, ("wazmek_speshul",))
    stalled = one(speshul.apply(SetThrottle(player=ORKS, aircraft="orks-1", change=-1)), Stalled)
    assert "Min Speed 5" in stalled.reason


def test_extra_armour_lowers_max_speed_so_speed_8_risks_breaking_up_p45_p19():
    """p.45: "the aircraft's Max Speed characteristic is reduced by 1": a Dakkajet ending its move at Speed 8
    with Extra Armour is above its Max Speed 7 and rolls for Breaking Up; without it, no roll."""
    def at_altitude_step(upgrades):
        return Range(plane("imperium-1", "thunderbolt", at(8, 8)),
                     plane("orks-1", "dakkajet", C, S, speed=8, upgrades=upgrades),
                     phase=MOVEMENT, first=ORKS, active="orks-1", step=ALTITUDE)

    plain = at_altitude_step(())
    assert not of_type(plain.apply(AdjustAltitude(player=ORKS, aircraft="orks-1", change=0)), BrokeUp)
    armoured = at_altitude_step(("extra_armour",))
    events = armoured.apply(AdjustAltitude(player=ORKS, aircraft="orks-1", change=0), dice=[4])
    assert one(events, BrokeUp) == BrokeUp(aircraft="orks-1", damaged=False, speed=7)
    assert armoured.aircraft("orks-1").speed == 7


def test_extra_armour_ignores_a_damaging_hit_on_a_6_p45():
    """p.45: "When this aircraft suffers a damaging hit from enemy fire, roll a D6. On a 6, the damage is
    ignored"."""
    game = Range(plane("imperium-1", "thunderbolt", C),
                 plane("orks-1", "dakkajet", at(0, -3), S, upgrades=("extra_armour",)), SPARE_ORKS)
    events = game.fire("imperium-1", (1, "orks-1"), dice=[5, 5, 4, 4, 6, 1])
    assert one(events, DamageIgnored) == DamageIgnored(aircraft="orks-1", upgrade="extra_armour", structure=1)
    assert game.aircraft("orks-1").structure == 1


def test_kustom_big_shootas_are_a_weapon_in_play_p45():
    """p.45: "Any Ork aircraft with this upgrade gains the following Primary weapon": Kustom Big Shootas, Front,
    2-2-0, 5+, UL. Set up with the upgrade, a Dakkajet carries them and fires them."""
    orks = ForceList(name="o", faction="ork_air_waaagh",
                     aircraft=(AircraftEntry(aircraft="dakkajet", upgrades=("kustom_big_shootas",)),))
    imperium = ForceList(name="i", faction="imperial_navy", aircraft=(AircraftEntry(aircraft="thunderbolt"),))
    setup = GameSetup(sides=(
        SideSetup(player=IMPERIUM, force=imperium, placements=(placement("16x16h", Plane("thunderbolt", (8, 12))),)),
        SideSetup(player=ORKS, force=orks, placements=(placement("16x16h", Plane("dakkajet", (8, 2), S)),))),
        board="16x16h", check_points=False)
    session = GameSession(make_rules(), setup, dice=ManualDice(), game_id="kustom")
    dakkajet = session.state.aircraft["orks-1"]
    assert dakkajet.weapons == ("quad_big_shootas", "kustom_big_shootas") and dakkajet.ammo == (None, None)
    game = Range(plane("imperium-1", "thunderbolt", at(0, -3), S),
                 plane("orks-1", "dakkajet", C, N, upgrades=("kustom_big_shootas",)), first=ORKS)
    assert game.aircraft("orks-1").weapons[1] == "kustom_big_shootas"
    events = game.fire("orks-1", (1, "imperium-1"), dice=[1, 1])
    fired = one(events, WeaponFired)
    assert (fired.weapon, fired.band, fired.dice) == ("kustom_big_shootas", "short", 2)
