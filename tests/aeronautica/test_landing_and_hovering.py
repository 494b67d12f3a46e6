"""Special Manoeuvres (rulebook p.19): landing, taxiing, taking off; Hovering at Speed 0 (p.16, p.18); and the
Rocket Boosters special rule (p.37).

No 2019 aircraft hovers or has Rocket Boosters, so these tests fly profiles made from the Thunderbolt's
(tests/aeronautica/helpers.py): "hoverer" (Min Speed 0) and "booster" (special rule rocket_boosters).
"""

from __future__ import annotations

import pytest

from aero_events.rulesets.aeronautica.commands import (
    ActivateAircraft,
    AdjustAltitude,
    Hover,
    Land,
    ManoeuvrePlan,
    RocketBoostOut,
    SetThrottle,
    TakeOff,
    Taxi,
)
from aero_events.rulesets.aeronautica.events import (
    AircraftDisengaged,
    AltitudeChanged,
    Hovered,
    Landed,
    ManoeuvreFlown,
    MovementEnded,
    Stalled,
    Taxied,
    TookOff,
)
from aero_events.rulesets.aeronautica.state import ALTITUDE, DISENGAGED, FLYING, GROUND, LANDED, MANOEUVRE
from tests.aeronautica.helpers import (
    IMPERIUM,
    NE,
    ORKS,
    SW,
    N,
    Plane,
    S,
    Table,
    hex_at,
    of_type,
    one,
    walk,
)

BOARD = "16x16h"


def hx(column: int, row: int):
    return hex_at(BOARD, column, row)


# ---------------------------------------------------------------- landing (p.19)


def landing_table(manoeuvre: int = 1, altitude: int = 1, throttle: int = 0) -> Table:
    """A Thunderbolt (Min Speed 2) at Speed 2 flies its manoeuvre and stands at its Adjust Altitude step; the
    orks' Dakkajet waits at the top of the board, facing south."""
    table = Table([Plane("thunderbolt", (6, 10), speed=2, altitude=altitude), Plane("thunderbolt", (12, 12))],
                  [Plane("dakkajet", (6, 1), facing=S)], board=BOARD)
    table.start_movement({"imperium-1": manoeuvre, "imperium-2": 1, "orks-1": 1}, first=IMPERIUM)
    table.apply(ActivateAircraft(player=IMPERIUM, aircraft="imperium-1"))
    table.apply(SetThrottle(player=IMPERIUM, aircraft="imperium-1", change=throttle))
    side, facings = (None, (0,)) if manoeuvre == 1 else ("left", (1,))
    table.apply(ManoeuvrePlan(player=IMPERIUM, aircraft="imperium-1", side=side, stage_hexes=(1,),
                              facings=facings))
    assert table.state.step == ALTITUDE
    return table


def test_an_aircraft_lands_with_manoeuvre_1_at_altitude_1_and_min_speed():
    """p.19 Landing: "the aircraft must choose Ace Manoeuvre 1 ..., must be at Altitude 1 and must be
    travelling at its minimum Speed after the Throttle step ... the aircraft is able to land at the end of its
    movement. Reduce both its Altitude and Speed to 0"."""
    table = landing_table()
    assert Land(player=IMPERIUM, aircraft="imperium-1") in table.legal(IMPERIUM)
    events = table.apply(Land(player=IMPERIUM, aircraft="imperium-1"))
    assert one(events, Landed).aircraft == "imperium-1" and isinstance(events[-1], MovementEnded)
    landed = table.aircraft("imperium-1")
    assert (landed.status, landed.altitude, landed.speed, landed.hex) == (LANDED, 0, 0, hx(6, 8))
    assert landed.in_play and landed.hex in table.state.occupied()


@pytest.mark.parametrize("manoeuvre,altitude,throttle", [(2, 1, 0), (1, 2, 0), (1, 1, 1)],
                         ids=["not manoeuvre 1", "not altitude 1", "not min speed"])
def test_landing_needs_all_three_criteria(manoeuvre, altitude, throttle):
    """p.19: "If these criteria are met" -- each one missing forbids landing."""
    table = landing_table(manoeuvre, altitude, throttle)
    assert not [c for c in table.legal(IMPERIUM) if isinstance(c, Land)]
    err = table.refused(Land(player=IMPERIUM, aircraft="imperium-1"))
    assert (err.rule, err.page) == ("Landing", 19)


def landed_next_turn(manoeuvre: int) -> Table:
    """imperium-1 landed at (6, 8) facing north in turn 1; in turn 2 the orks' Dakkajet has flown to (6, 9),
    just south of it, and imperium-1 (token ``manoeuvre``) is activated."""
    table = landing_table()
    table.apply(Land(player=IMPERIUM, aircraft="imperium-1"))
    table.move("orks-1", stage_hexes=(1,), facings=(0,))  # (6, 1) -> (6, 5)
    table.move("imperium-2", stage_hexes=(1,), facings=(0,))
    table.pass_firing()
    assert table.state.turn == 2
    assert {c.aircraft for c in table.legal(IMPERIUM)} == {"imperium-1", "imperium-2"}  # landed still chooses
    table.start_movement({"imperium-1": manoeuvre, "imperium-2": 1, "orks-1": 1}, first=ORKS)
    table.move("orks-1", stage_hexes=(1,), facings=(0,))  # (6, 5) -> (6, 9), flying on over the landed aircraft
    assert table.aircraft("orks-1").hex == hx(6, 9)
    table.apply(ActivateAircraft(player=IMPERIUM, aircraft="imperium-1"))
    assert table.state.step == GROUND
    return table


def test_a_landed_aircraft_taxis_at_speed_1_turning_freely_before_and_after():
    """p.19 Taxiing: "A taxiing aircraft moves at Speed 1 and may change its facing freely before and after
    moving"; it has no Throttle step."""
    table = landed_next_turn(manoeuvre=2)
    err = table.refused(SetThrottle(player=IMPERIUM, aircraft="imperium-1", change=1))
    assert err.page == 15
    taxis = [c for c in table.legal(IMPERIUM) if isinstance(c, Taxi)]
    # Staying put: any final facing (6); one hex through any free hexside (5: south is occupied) x 6 facings.
    assert len([t for t in taxis if t.hexes == 0]) == 6
    assert {t.facing_before for t in taxis if t.hexes == 1} == {0, 1, 2, 4, 5}
    assert len([t for t in taxis if t.hexes == 1]) == 30
    events = table.apply(Taxi(player=IMPERIUM, aircraft="imperium-1", facing_before=NE, hexes=1, facing_after=SW))
    taxied = one(events, Taxied)
    assert (taxied.path, taxied.hex, taxied.facing) == (walk(hx(6, 8), NE), walk(hx(6, 8), NE)[0], SW)
    moved = table.aircraft("imperium-1")
    assert (moved.status, moved.hex, moved.facing, moved.altitude) == (LANDED, taxied.hex, SW, 0)


def test_a_taxiing_aircraft_cannot_enter_an_occupied_hex():
    """p.19 with p.7: aircraft on the ground do not fly on to a free hex; the occupied hex is closed to it."""
    table = landed_next_turn(manoeuvre=2)
    err = table.refused(Taxi(player=IMPERIUM, aircraft="imperium-1", facing_before=S, hexes=1, facing_after=S))
    assert (err.rule, err.page) == ("Taxiing", 19)


def test_a_landed_aircraft_takes_off_with_manoeuvre_1():
    """p.19 Taking-off: a landed aircraft that chose Ace Manoeuvre 1 "sets its Speed to its Min Speed
    characteristic before completing its movement and setting its Altitude to 1"."""
    table = landed_next_turn(manoeuvre=1)
    assert TakeOff(player=IMPERIUM, aircraft="imperium-1") in table.legal(IMPERIUM)
    events = table.apply(TakeOff(player=IMPERIUM, aircraft="imperium-1"))
    assert one(events, TookOff) == TookOff(aircraft="imperium-1", speed=2)
    flown = one(events, ManoeuvreFlown)
    assert (flown.manoeuvre, flown.path, flown.completed) == (1, walk(hx(6, 8), N, N), True)
    assert one(events, AltitudeChanged) == AltitudeChanged(aircraft="imperium-1", change=1, altitude=1, speed=2)
    assert [type(e) for e in events].index(TookOff) < [type(e) for e in events].index(ManoeuvreFlown)
    flying = table.aircraft("imperium-1")
    assert (flying.status, flying.speed, flying.altitude, flying.took_off_turn) == (FLYING, 2, 1, 2)


def test_taking_off_needs_manoeuvre_1():
    """p.19: "To take off, a landed aircraft ... must choose Ace Manoeuvre 1"."""
    table = landed_next_turn(manoeuvre=2)
    assert not [c for c in table.legal(IMPERIUM) if isinstance(c, TakeOff)]
    err = table.refused(TakeOff(player=IMPERIUM, aircraft="imperium-1"))
    assert (err.rule, err.page) == ("Taking-off", 19)


# ---------------------------------------------------------------- hovering (p.16, p.18)


def hovering_table(profile: str = "hoverer", speed: int = 2, altitude: int = 3, manoeuvre: int = 4,
                   throttle: int = -2) -> tuple[Table, list]:
    """imperium-1 (``profile``) has revealed ``manoeuvre`` and set its Throttle; returns the Throttle events."""
    table = Table([Plane(profile, (6, 10), speed=speed, altitude=altitude)], [Plane("dakkajet", (2, 1), facing=S)],
                  board=BOARD)
    table.start_movement({"imperium-1": manoeuvre, "orks-1": 1}, first=IMPERIUM)
    table.apply(ActivateAircraft(player=IMPERIUM, aircraft="imperium-1"))
    events = table.apply(SetThrottle(player=IMPERIUM, aircraft="imperium-1", change=throttle))
    return table, events


def test_an_aircraft_with_min_speed_0_hovers_at_speed_0():
    """p.16 Speed 0 - Hovering: it "must reduce its Speed to 0 during the Throttle step; doing so will mean that
    the aircraft is Hovering ... regardless of any Ace Manoeuvres chosen" (here Manoeuvre 4). "Whilst at Speed
    0, the aircraft does not move ... It may, however, turn to face any direction"."""
    table, throttle_events = hovering_table()
    assert not of_type(throttle_events, Stalled) and not table.aircraft("imperium-1").stalled
    assert table.state.step == MANOEUVRE
    assert table.legal(IMPERIUM) == [Hover(player=IMPERIUM, aircraft="imperium-1", facing=f) for f in range(6)]
    err = table.refused(ManoeuvrePlan(player=IMPERIUM, aircraft="imperium-1", side="left", stage_hexes=(1,),
                                      facings=(1,)))
    assert (err.rule, err.page) == ("Hovering", 16)
    events = table.apply(Hover(player=IMPERIUM, aircraft="imperium-1", facing=SW))
    assert one(events, Hovered) == Hovered(aircraft="imperium-1", facing=SW)
    assert isinstance(events[-1], MovementEnded)
    hovering = table.aircraft("imperium-1")
    assert (hovering.hex, hovering.facing, hovering.speed, hovering.altitude) == (hx(6, 10), SW, 0, 3)


def test_only_an_aircraft_with_min_speed_0_can_hover():
    """p.16: hovering is for aircraft with a Min Speed of 0; a Thunderbolt at Speed 0 has Stalled (p.15)."""
    table, throttle_events = hovering_table(profile="thunderbolt", manoeuvre=1)
    assert of_type(throttle_events, Stalled)
    assert not [c for c in table.legal(IMPERIUM) if isinstance(c, Hover)]
    err = table.refused(Hover(player=IMPERIUM, aircraft="imperium-1", facing=N))
    assert (err.rule, err.page) == ("Hovering", 16)


def test_a_hovering_aircraft_climbing_past_max_altitude_hovers_there_without_stalling():
    """p.18 Stalling: "aircraft with a Min Speed characteristic of 0 are able to Hover ... and so cannot Stall
    ... Instead, they will simply Hover at their Max Altitude until the next turn" -- Hover is Speed 0 (p.16)."""
    table, _throttle_events = hovering_table(speed=3, altitude=5, throttle=0, manoeuvre=1)
    table.apply(ManoeuvrePlan(player=IMPERIUM, aircraft="imperium-1", stage_hexes=(1,), facings=(0,)))
    events = table.apply(AdjustAltitude(player=IMPERIUM, aircraft="imperium-1", change=1))
    assert not of_type(events, Stalled)
    assert one(events, AltitudeChanged) == AltitudeChanged(aircraft="imperium-1", change=1, altitude=5, speed=0)
    hovering = table.aircraft("imperium-1")
    assert (hovering.altitude, hovering.speed, hovering.stalled) == (5, 0, False)


def test_an_aircraft_with_min_speed_0_too_slow_for_its_manoeuvre_does_not_stall():
    """p.18: aircraft with Min Speed 0 "cannot Stall"; at Speed 1 Manoeuvre 7 (two stages) cannot be
    completed, so it flies straight ahead (p.17) -- without the Stall a Thunderbolt would suffer."""
    table, _throttle_events = hovering_table(speed=1, throttle=0, manoeuvre=7)
    events = table.apply(ManoeuvrePlan(player=IMPERIUM, aircraft="imperium-1"))
    assert one(events, ManoeuvreFlown).completed is False
    assert not of_type(events, Stalled) and not table.aircraft("imperium-1").stalled


def test_a_hovering_aircraft_moves_off_again_with_its_throttle():
    """p.16: "If a Hovering aircraft wishes to move off again, it must have chosen an Ace Manoeuvre ... and must
    adjust its Speed during the Throttle step"."""
    table, _throttle_events = hovering_table(speed=0, throttle=2, manoeuvre=1)
    flown = one(table.apply(ManoeuvrePlan(player=IMPERIUM, aircraft="imperium-1", stage_hexes=(1,),
                                          facings=(0,))), ManoeuvreFlown)
    assert flown.path == walk(hx(6, 10), N, N)


# ---------------------------------------------------------------- Rocket Boosters (p.37)


def boosters_table(profile: str = "booster", altitude: int = 5) -> Table:
    table = Table([Plane(profile, (6, 10), altitude=altitude), Plane("thunderbolt", (12, 12))],
                  [Plane("dakkajet", (2, 1), facing=S)], board=BOARD)
    table.start_movement({"imperium-1": 2, "imperium-2": 1, "orks-1": 1}, first=IMPERIUM)
    table.move("imperium-1", side="right", stage_hexes=(2,), facings=(1,), altitude=None)
    assert table.state.step == ALTITUDE
    return table


def test_rocket_boosters_disengage_from_any_point_at_altitude_5():
    """p.37 Rocket Boosters: an aircraft with them "can choose to disengage from the Area of Engagement from
    any point ... the aircraft must be travelling at Altitude 5. Once it has completed its Ace Manoeuvre ...
    declare that the aircraft is using its Rocket Boosters to climb once more and disengage"."""
    table = boosters_table()
    here = table.aircraft("imperium-1").hex
    assert RocketBoostOut(player=IMPERIUM, aircraft="imperium-1") in table.legal(IMPERIUM)
    events = table.apply(RocketBoostOut(player=IMPERIUM, aircraft="imperium-1"))
    assert one(events, AircraftDisengaged) == AircraftDisengaged(aircraft="imperium-1", how="accidental",
                                                                 exit_hex=here, via="rocket boosters")
    assert isinstance(events[-1], MovementEnded)
    assert table.aircraft("imperium-1").status == DISENGAGED
    assert here in table.rules.board(table.state).hexes  # from the middle of the board, not its edge


@pytest.mark.parametrize("profile,altitude", [("booster", 4), ("thunderbolt", 5)],
                         ids=["below altitude 5", "no rocket boosters"])
def test_rocket_boosters_need_the_rule_and_altitude_5(profile, altitude):
    table = boosters_table(profile, altitude)
    assert not [c for c in table.legal(IMPERIUM) if isinstance(c, RocketBoostOut)]
    err = table.refused(RocketBoostOut(player=IMPERIUM, aircraft="imperium-1"))
    assert (err.rule, err.page) == ("Rocket Boosters", 37)
