"""Adjust Altitude (rulebook p.18-19): climbing and diving by Speed, the Speed they cost or give, Stalling,
Crashing and Breaking Up. Every die is a DiceRolled event with its purpose and target, entered by hand here.
"""

from __future__ import annotations

import pytest

from aero_events.core import DiceRolled
from aero_events.rulesets.aeronautica import AeronauticaRules
from aero_events.rulesets.aeronautica.commands import (
    ActivateAircraft,
    AdjustAltitude,
    ManoeuvrePlan,
    SetThrottle,
)
from aero_events.rulesets.aeronautica.events import (
    AircraftDestroyed,
    AltitudeChanged,
    BrokeUp,
    CrashAvoided,
    DamageSuffered,
    MovementEnded,
    Stalled,
)
from aero_events.rulesets.aeronautica.state import ALTITUDE, DESTROYED, FLYING
from tests.aeronautica.helpers import (
    IMPERIUM,
    Plane,
    S,
    Table,
    catalogue_with,
    of_type,
    one,
    variant,
)


def at_altitude_step(profile: str, speed: int, altitude: int, throttle: int = 0, rules=None) -> Table:
    """imperium-1 has flown Ace Manoeuvre 1 and stands at its Adjust Altitude step."""
    table = Table([Plane(profile, (10, 17), speed=speed, altitude=altitude)],
                  [Plane("dakkajet", (1, 1), facing=S)], board="20x20h", rules=rules)
    table.start_movement({"imperium-1": 1, "orks-1": 1})
    table.apply(ActivateAircraft(player=IMPERIUM, aircraft="imperium-1"))
    table.apply(SetThrottle(player=IMPERIUM, aircraft="imperium-1", change=throttle))
    table.apply(ManoeuvrePlan(player=IMPERIUM, aircraft="imperium-1", stage_hexes=(1,), facings=(0,)))
    assert table.state.step == ALTITUDE
    return table


def adjust(table: Table, change: int, dice=()) -> list:
    table.dice.enter(dice)
    return table.apply(AdjustAltitude(player=IMPERIUM, aircraft="imperium-1", change=change))


def altitude_changes(table: Table) -> list[int]:
    return [c.change for c in table.legal(IMPERIUM) if isinstance(c, AdjustAltitude)]


# ---------------------------------------------------------------- the climb and dive tables


@pytest.mark.parametrize("speed", [2, 3, 4])
def test_at_speed_1_to_4_an_aircraft_climbs_or_dives_by_1(speed):
    """p.18 Climbing and Diving: "Speed 1-4: An aircraft may increase [decrease] its Altitude by 1"."""
    table = at_altitude_step("thunderbolt", speed, 3)
    assert altitude_changes(table) == [-1, 0, 1]
    for change in (2, -2):
        err = table.refused(AdjustAltitude(player=IMPERIUM, aircraft="imperium-1", change=change))
        assert (err.rule, err.page) == ("Adjust Altitude", 18)


@pytest.mark.parametrize("profile,speed", [("thunderbolt", 5), ("thunderbolt", 6), ("dakkajet", 8)])
def test_at_speed_5_to_9_an_aircraft_climbs_or_dives_by_1_or_2(profile, speed):
    """p.18: "Speed 5-9: An aircraft may increase [decrease] its Altitude by 1 or 2"."""
    table = at_altitude_step(profile, speed, 3)
    assert altitude_changes(table) == [-2, -1, 0, 1, 2]
    err = table.refused(AdjustAltitude(player=IMPERIUM, aircraft="imperium-1", change=3))
    assert err.page == 18


def test_the_table_reads_the_speed_after_throttle():
    """p.18: Altitude is adjusted on the current Speed, after the Throttle step and the manoeuvre."""
    assert altitude_changes(at_altitude_step("thunderbolt", 4, 3, throttle=1)) == [-2, -1, 0, 1, 2]
    assert altitude_changes(at_altitude_step("thunderbolt", 5, 3, throttle=-1)) == [-1, 0, 1]


@pytest.mark.parametrize("change", [1, 2])
def test_climbing_reduces_speed_by_1(change):
    """p.18: "If ... an aircraft climbs to increase its Altitude, its Speed will be reduced by 1" -- by 1,
    whether it climbs 1 or 2."""
    table = at_altitude_step("thunderbolt", 6, 2)
    events = adjust(table, change)
    assert one(events, AltitudeChanged) == AltitudeChanged(aircraft="imperium-1", change=change,
                                                           altitude=2 + change, speed=5)
    assert (table.aircraft("imperium-1").altitude, table.aircraft("imperium-1").speed) == (2 + change, 5)
    assert not of_type(events, Stalled) and isinstance(events[-1], MovementEnded)


@pytest.mark.parametrize("change", [-1, -2])
def test_diving_increases_speed_by_1(change):
    """p.18: "If ... an aircraft dives to decrease its Altitude, its Speed will be increased by 1"."""
    table = at_altitude_step("thunderbolt", 5, 4)
    events = adjust(table, change)
    assert one(events, AltitudeChanged).speed == 6
    assert (table.aircraft("imperium-1").altitude, table.aircraft("imperium-1").speed) == (4 + change, 6)
    assert not of_type(events, DiceRolled)


def test_holding_altitude_changes_nothing():
    """p.18: an aircraft "can" adjust its Altitude; holding it keeps Speed too."""
    table = at_altitude_step("thunderbolt", 4, 3)
    events = adjust(table, 0)
    assert not of_type(events, AltitudeChanged)
    assert (table.aircraft("imperium-1").altitude, table.aircraft("imperium-1").speed) == (3, 4)


# ---------------------------------------------------------------- Stalling (p.18)


def test_climbing_above_max_altitude_stalls():
    """p.18 Stalling: an aircraft that attempts "to climb above its Max Altitude characteristic" Stalls: the
    Dakkajet's Max Altitude is 4."""
    table = at_altitude_step("dakkajet", 5, 4)
    events = adjust(table, 1)
    assert one(events, AltitudeChanged).altitude == 5
    assert "Max Altitude" in one(events, Stalled).reason
    assert table.aircraft("imperium-1").stalled


def test_climbing_above_altitude_5_stalls():
    """p.18 Stalling: "... above Altitude 5" -- a Thunderbolt (Max Altitude 5) climbing 2 from 4."""
    table = at_altitude_step("thunderbolt", 5, 4)
    events = adjust(table, 2)
    assert one(events, Stalled).aircraft == "imperium-1"
    assert table.aircraft("imperium-1").stalled


def test_a_climb_that_takes_speed_below_min_speed_stalls():
    """p.18 Stalling: "or should an attempt to climb cause the aircraft to reduce its Speed below its Min Speed
    characteristic" -- a Thunderbolt (Min Speed 2) climbing at Speed 2."""
    table = at_altitude_step("thunderbolt", 2, 3)
    events = adjust(table, 1)
    assert one(events, AltitudeChanged).speed == 1
    assert "Min Speed" in one(events, Stalled).reason


def test_a_climb_within_the_limits_does_not_stall():
    """p.18: the Stall comes only from those three causes: to Max Altitude at Speed above Min Speed is fine."""
    table = at_altitude_step("dakkajet", 5, 3)
    events = adjust(table, 1)
    assert not of_type(events, Stalled) and not table.aircraft("imperium-1").stalled


def test_a_dive_never_stalls():
    table = at_altitude_step("thunderbolt", 2, 3)
    assert not of_type(adjust(table, -1), Stalled)


# ---------------------------------------------------------------- Crashing (p.19)


@pytest.mark.parametrize("face", [1, 2])
def test_a_dive_to_altitude_0_crashes_on_a_1_or_2(face):
    """p.19 Crashing: "Roll a D6 ... On a 1 or 2 ... the aircraft crashes into the ground. All remaining
    Structure points are lost and the aircraft is immediately removed from play"."""
    table = at_altitude_step("thunderbolt", 4, 1)
    events = adjust(table, -1, dice=[face])
    roll = one(events, DiceRolled)
    assert (roll.purpose, roll.roller, roll.faces, roll.target) == ("crash", IMPERIUM, (face,), 3)
    assert one(events, AircraftDestroyed) == AircraftDestroyed(aircraft="imperium-1", cause="crashed")
    crashed = table.aircraft("imperium-1")
    assert (crashed.status, crashed.structure, crashed.in_play) == (DESTROYED, 0, False)
    assert events.index(roll) < events.index(one(events, AircraftDestroyed))


@pytest.mark.parametrize("face", [3, 4, 5, 6])
def test_a_dive_to_altitude_0_pulls_out_on_a_3_or_more(face):
    """p.19: "On a 3+, the pilot is able to recover safely ... it will remain at Altitude 1 with its Speed
    increased for diving"."""
    table = at_altitude_step("thunderbolt", 4, 1)
    events = adjust(table, -1, dice=[face])
    assert one(events, DiceRolled).faces == (face,)
    assert one(events, CrashAvoided).aircraft == "imperium-1"
    pulled_out = table.aircraft("imperium-1")
    assert (pulled_out.status, pulled_out.altitude, pulled_out.speed) == (FLYING, 1, 5)


def test_a_dive_of_2_from_altitude_1_also_risks_crashing():
    """p.19: a dive that would reduce Altitude to 0 "for any reason, including player error"."""
    table = at_altitude_step("thunderbolt", 5, 1)
    events = adjust(table, -2, dice=[3])
    assert one(events, DiceRolled).purpose == "crash"
    assert table.aircraft("imperium-1").altitude == 1


def test_a_dive_to_altitude_1_rolls_nothing():
    table = at_altitude_step("thunderbolt", 5, 3)
    assert not of_type(adjust(table, -2), DiceRolled)


# ---------------------------------------------------------------- Breaking Up (p.19)


@pytest.mark.parametrize("face", [1, 2])
def test_diving_past_max_speed_breaks_up_on_a_1_or_2(face):
    """p.19 Breaking Up: "Roll a D6 ... On a 1 or 2 ... the aircraft ... immediately suffers one damaging hit"
    and "the Speed dial will remain at the Max Speed of the aircraft"."""
    table = at_altitude_step("thunderbolt", 6, 3)  # Max Speed 6, Structure 3
    events = adjust(table, -1, dice=[face])
    roll = one(events, DiceRolled)
    assert (roll.purpose, roll.roller, roll.target) == ("breaking up", IMPERIUM, 3)
    assert one(events, BrokeUp) == BrokeUp(aircraft="imperium-1", damaged=True, speed=6)
    assert one(events, DamageSuffered) == DamageSuffered(aircraft="imperium-1", hits=1, structure=2,
                                                         cause="breaking up")
    shaken = table.aircraft("imperium-1")
    assert (shaken.speed, shaken.altitude, shaken.structure, shaken.status) == (6, 2, 2, FLYING)


@pytest.mark.parametrize("face", [3, 6])
def test_diving_past_max_speed_holds_together_on_a_3_or_more(face):
    """p.19: "On a 3+, the aircraft is able to withstand the stresses"; the Speed dial remains at Max Speed."""
    table = at_altitude_step("thunderbolt", 6, 3)
    events = adjust(table, -2, dice=[face])
    assert one(events, BrokeUp).damaged is False and not of_type(events, DamageSuffered)
    assert (table.aircraft("imperium-1").speed, table.aircraft("imperium-1").structure) == (6, 3)


def test_breaking_up_can_destroy_the_aircraft():
    """p.19 with p.23: the damaging hit takes the last Structure point."""
    rules = AeronauticaRules(catalogue=catalogue_with(variant("thunderbolt", "glass", structure=1)))
    table = at_altitude_step("glass", 6, 3, rules=rules)
    events = adjust(table, -1, dice=[1])
    assert one(events, AircraftDestroyed).cause == "breaking up"
    assert table.aircraft("imperium-1").status == DESTROYED


def test_a_crash_avoided_can_still_break_up():
    """p.19: "Should this increase the aircraft's Speed above its Max Speed, it still runs the risk of
    Breaking Up": the crash roll comes first, then the Breaking Up roll."""
    table = at_altitude_step("thunderbolt", 6, 1)
    events = adjust(table, -1, dice=[4, 5])
    assert [r.purpose for r in of_type(events, DiceRolled)] == ["crash", "breaking up"]
    assert (table.aircraft("imperium-1").altitude, table.aircraft("imperium-1").speed) == (1, 6)


def test_at_max_speed_without_diving_nothing_is_rolled():
    """p.19: only Speed *above* Max Speed risks Breaking Up."""
    table = at_altitude_step("thunderbolt", 6, 3)
    events = adjust(table, 0)
    assert not of_type(events, DiceRolled) and not of_type(events, BrokeUp)
