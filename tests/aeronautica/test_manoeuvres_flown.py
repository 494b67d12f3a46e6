"""Move and Manoeuvre (rulebook p.16-17): the worked example, how many ways each manoeuvre can be flown,
remaining movement, and the Stall of an aircraft too slow to complete its manoeuvre.

The Ace Manoeuvre table is the documented reconstruction (AERONAUTICA-DATA.md, data/manoeuvres.json):

| # | name | side | stage 1 move | stage 1 facings | stage 2 move | final facings |
| 1 | Straight | none | forward | 0 | - | - |
| 2 | Bank | left/right | forward | 1 | - | - |
| 3 | Sideslip | left/right | slip | 0 | - | - |
| 4 | Turn | left/right | forward | 1, 2 | - | - |
| 5 | Roll | left/right | slip | 0, 1 | - | - |
| 6 | Reverse | none | forward | 3 | - | - |
| 7 | Wingover | left/right | slip | 1 | forward | 0, 1, 2 |
| 8 | Hammerhead | left/right | forward | 2 | forward | -2, -1, 0, 1, 2, 3 |

The aircraft here is "ace", a Thunderbolt that knows all eight manoeuvres and flies Speed 1-6.
"""

from __future__ import annotations

from math import comb

import pytest

from aero_events.hexgrid import Hex
from aero_events.rulesets.aeronautica import movement
from aero_events.rulesets.aeronautica.commands import ActivateAircraft, ManoeuvrePlan, SetThrottle
from aero_events.rulesets.aeronautica.events import ManoeuvreFlown, Stalled
from aero_events.rulesets.aeronautica.manoeuvres import load_manoeuvres
from aero_events.rulesets.aeronautica.state import ALTITUDE
from tests.aeronautica.helpers import IMPERIUM, NE, NW, SW, N, Plane, S, Table, hex_at, of_type, one, walk

BOARD = "20x20h"
START = (10, 10)


def at_manoeuvre(manoeuvre: int, speed: int, profile: str = "ace", throttle: int = 0) -> Table:
    """imperium-1 (facing north in the middle of a 20x20 board) has revealed ``manoeuvre`` and set its Speed."""
    table = Table([Plane(profile, START, speed=speed)], [Plane("dakkajet", (1, 1), facing=S)], board=BOARD)
    table.start_movement({"imperium-1": manoeuvre, "orks-1": 1})
    table.apply(ActivateAircraft(player=IMPERIUM, aircraft="imperium-1"))
    table.apply(SetThrottle(player=IMPERIUM, aircraft="imperium-1", change=throttle))
    return table


def fly(table: Table, side=None, stage_hexes=(), facings=()) -> ManoeuvreFlown:
    events = table.apply(ManoeuvrePlan(player=IMPERIUM, aircraft="imperium-1", side=side,
                                       stage_hexes=stage_hexes, facings=facings))
    return one(events, ManoeuvreFlown)


def plans(table: Table) -> list[ManoeuvrePlan]:
    return [c for c in table.legal(IMPERIUM) if isinstance(c, ManoeuvrePlan)]


START_HEX = hex_at(BOARD, *START)


# ---------------------------------------------------------------- the worked example (p.16-17)


def test_worked_example_manoeuvre_7_at_speed_3():
    """p.16: "an aircraft travelling at Speed 3 is performing Ace Manoeuvre 7 ... it uses 1 point of Speed to
    move one hex forward and to the left. It then performs a manoeuvre, turning to the left and uses two points
    of Speed to move two hexes before choosing its final facing"."""
    table = at_manoeuvre(7, 3)
    flown = fly(table, side="left", stage_hexes=(1, 2), facings=(1, 1))
    # Facing north, forward-and-left is the north-west hexside; turning left faces north-west; two hexes on.
    assert flown.path == walk(START_HEX, NW, NW, NW)
    assert flown.pushed == () and flown.completed
    # The final facing chosen: one hexside further left than north-west, i.e. south-west.
    assert (flown.hex, flown.facing) == (flown.path[-1], SW)
    moved = table.aircraft("imperium-1")
    assert (moved.hex, moved.facing, moved.path) == (flown.path[-1], SW, flown.path)
    assert table.state.step == ALTITUDE


def test_worked_example_manoeuvre_7_final_facings():
    """p.16 step 3: the final facing is one of the arrows; the reconstruction gives 0, 1 or 2 hexsides left
    of north-west: north-west, south-west or south."""
    finals = {fly(at_manoeuvre(7, 3), side="left", stage_hexes=(1, 2), facings=(1, value)).facing
              for value in (0, 1, 2)}
    assert finals == {NW, SW, S}
    err = at_manoeuvre(7, 3).refused(ManoeuvrePlan(player=IMPERIUM, aircraft="imperium-1", side="left",
                                                   stage_hexes=(1, 2), facings=(1, 3)))
    assert (err.rule, err.page) == ("Move and Manoeuvre", 16)


def test_worked_example_manoeuvre_7_at_speed_4_flies_one_more_hex():
    """p.17 step 5: "if the aircraft in the previous example had been travelling at Speed 4, it would have
    completed its Ace Manoeuvre as described, but would then be obliged to move forward one more hex"."""
    flown = fly(at_manoeuvre(7, 4), side="left", stage_hexes=(1, 2), facings=(1, 1))
    assert flown.path == walk(START_HEX, NW, NW, NW, SW)
    assert flown.facing == SW


def test_the_right_side_mirrors_the_left():
    """p.16 step 1: the player chooses to move to the left or the right."""
    flown = fly(at_manoeuvre(7, 4), side="right", stage_hexes=(1, 2), facings=(1, 1))
    assert flown.path == walk(START_HEX, NE, NE, NE, 2)  # 2 = south-east, the mirror of south-west
    assert flown.facing == 2


# ---------------------------------------------------------------- perft: how many distinct plans


def expected_plans(number: int, s: int) -> int:
    """The distinct (path, final facing) plans of manoeuvre ``number`` at Speed ``s``, counted by hand.

    k, k1, k2 are hexes flown in a stage (each at least 1, p.16), r = what is left (flown forward, p.17).
    Written for the left side facing north; the right side mirrors it, doubling the count.

    1 Straight: every k gives the same path N^s: 1 plan.
    2 Bank: N^k then NW^(s-k), facing NW; k = 1..s all differ: s a side, 2s.
    3 Sideslip: NW^k then N^(s-k), facing N: s a side, 2s.
    4 Turn: N^k, then turn 1 (NW) or 2 (SW) and fly on: paths differ by k and by turn (at k = s only the
      final facing differs): 2s a side, 4s.
    5 Roll: slip NW^k, then keep N (NW^k N^(s-k): s plans) or turn to NW -- then the rest is flown NW too, so
      every k gives NW^s facing NW: 1 plan. s + 1 a side, 2(s + 1).
    6 Reverse (unsided): N^k then S^(s-k) facing S, one per k: s. (At k = s - k the aircraft is back home.)
    7 Wingover, Speed 2+: NW^k1, turn to NW, NW^k2, final facing NW, SW or S, then the rest: the path is
      NW^m F^(s-m) with m = k1 + k2 in 2..s. Facing NW: NW^s whatever m, 1 plan; SW and S: one per m, s - 1
      each. 1 + 2(s - 1) a side, 4s - 2. At Speed 1 it cannot be completed: 1 plan, straight ahead (Stall).
    8 Hammerhead, Speed 2+: N^k1, turn to SW, SW^k2, then any of the six facings F and the rest F^r.
      F = SW: N^k1 SW^(s-k1) whatever k2, one per k1 in 1..s-1; the five other facings: one per (k1, k2)
      with k1 + k2 <= s, comb(s, 2) of them. 5 comb(s, 2) + s - 1 a side. Speed 1: 1 plan (Stall).
    """
    per_side = {
        1: lambda: 1, 2: lambda: 2 * s, 3: lambda: 2 * s, 4: lambda: 4 * s, 5: lambda: 2 * (s + 1),
        6: lambda: s, 7: lambda: 4 * s - 2 if s >= 2 else 1,
        8: lambda: 2 * (5 * comb(s, 2) + s - 1) if s >= 2 else 1,
    }
    return per_side[number]()


PERFT = {  # the table the formulas give, written out
    1: [1, 1, 1, 1, 1, 1],
    2: [2, 4, 6, 8, 10, 12],
    3: [2, 4, 6, 8, 10, 12],
    4: [4, 8, 12, 16, 20, 24],
    5: [4, 6, 8, 10, 12, 14],
    6: [1, 2, 3, 4, 5, 6],
    7: [1, 6, 10, 14, 18, 22],
    8: [1, 12, 34, 66, 108, 160],
}


def test_the_perft_table_is_the_hand_count():
    assert PERFT == {n: [expected_plans(n, s) for s in range(1, 7)] for n in range(1, 9)}


@pytest.mark.parametrize("number", range(1, 9))
@pytest.mark.parametrize("speed", range(1, 7))
def test_perft_legal_plans_of_each_manoeuvre_at_each_speed(number, speed):
    """p.16 steps 1-5: the engine offers every distinct way to fly the manoeuvre, each once."""
    table = at_manoeuvre(number, speed)
    offered = plans(table)
    assert len(offered) == PERFT[number][speed - 1]
    # Distinct: no two offered plans fly the same hexes to the same final facing.
    flights = [movement.plan_flight(table.rules, table.aircraft("imperium-1"), p.side, p.stage_hexes, p.facings)
               for p in offered]
    assert len({(f.path, f.final_facing) for f in flights}) == len(offered)
    # Every plan moves the full Speed (p.15 "It cannot move less"), hex by adjacent hex.
    for f in flights:
        assert len(f.path) == speed
        assert all(a.distance(b) == 1 for a, b in zip((START_HEX, *f.path), f.path))


@pytest.mark.parametrize("number", range(1, 9))
def test_perft_flights_agree_with_the_hand_count(number):
    """movement.flights, the enumeration behind the legal plans, gives the same counts (0 when too slow)."""
    table = load_manoeuvres()
    for speed in range(1, 7):
        count = len(movement.flights(Hex(0, 0), N, table.get(number), speed))
        assert count == (PERFT[number][speed - 1] if speed >= len(table.get(number).stages) else 0)


def test_equivalent_plans_are_offered_once_but_all_accepted():
    """p.16 step 2: the player is free to choose how many hexes to fly before the manoeuvre. Straight at
    Speed 4 flies the same four hexes however they are split, so it is offered once; any split is legal."""
    table = at_manoeuvre(1, 4)
    assert plans(table) == [ManoeuvrePlan(player=IMPERIUM, aircraft="imperium-1", side=None, stage_hexes=(1,),
                                          facings=(0,))]
    flown = fly(table, stage_hexes=(3,), facings=(0,))
    assert flown.stage_hexes == (3,) and flown.path == walk(START_HEX, N, N, N, N)


@pytest.mark.parametrize("plan", [
    {"side": "left", "stage_hexes": (0, 3), "facings": (1, 0)},  # a stage moves at least one hex (p.16 step 2)
    {"side": "left", "stage_hexes": (2, 3), "facings": (1, 0)},  # more hexes than Speed 4 (p.15)
    {"side": "left", "stage_hexes": (1,), "facings": (1,)},  # both stages are flown (p.16 step 4)
    {"side": None, "stage_hexes": (1, 1), "facings": (1, 0)},  # a sided manoeuvre needs a side (p.16 step 1)
    {"side": "up", "stage_hexes": (1, 1), "facings": (1, 0)},
    {"side": "left", "stage_hexes": (1, 1), "facings": (0, 0)},  # only the arrows shown (p.16 step 3)
    {"side": None, "stage_hexes": (), "facings": ()},  # straight ahead is only for an aircraft too slow
])
def test_plans_outside_the_diagram_are_refused(plan):
    """p.16: the manoeuvre is flown as its diagram shows, with the choices it offers."""
    table = at_manoeuvre(7, 4)
    err = table.refused(ManoeuvrePlan(player=IMPERIUM, aircraft="imperium-1", **plan))
    assert (err.rule, err.page) == ("Move and Manoeuvre", 16)


def test_an_unsided_manoeuvre_moves_forward():
    """p.16 step 1: "If the chosen Ace Manoeuvre only shows the aircraft moving forward ... it must move
    forward": Reverse has no side to choose."""
    table = at_manoeuvre(6, 3)
    err = table.refused(ManoeuvrePlan(player=IMPERIUM, aircraft="imperium-1", side="left", stage_hexes=(1,),
                                      facings=(3,)))
    assert err.page == 16
    flown = fly(table, stage_hexes=(2,), facings=(3,))
    assert flown.path == walk(START_HEX, N, N, S) and flown.facing == S


def test_remaining_movement_is_flown_forward_in_the_final_facing():
    """p.17 step 5: hexes not used by the manoeuvre are flown after it, forward."""
    flown = fly(at_manoeuvre(2, 4), side="left", stage_hexes=(1,), facings=(1,))
    assert flown.path == walk(START_HEX, N, NW, NW, NW) and flown.facing == NW
    flown = fly(at_manoeuvre(2, 4), side="left", stage_hexes=(4,), facings=(1,))
    assert flown.path == walk(START_HEX, N, N, N, N) and flown.facing == NW


# ---------------------------------------------------------------- too slow: Stall (p.17)


def test_an_aircraft_too_slow_to_complete_its_manoeuvre_flies_straight_and_stalls():
    """p.17: "If, for any reason, an aircraft cannot complete its chosen Ace Manoeuvre, for example, if the
    aircraft did not use sufficient Throttle and is travelling too slowly, it will Stall." Manoeuvre 7 has
    two stages of at least one hex each: at Speed 1 the only plan is straight ahead."""
    table = at_manoeuvre(7, 1)
    assert plans(table) == [ManoeuvrePlan(player=IMPERIUM, aircraft="imperium-1", side=None, stage_hexes=(),
                                          facings=())]
    err = table.refused(ManoeuvrePlan(player=IMPERIUM, aircraft="imperium-1", side="left", stage_hexes=(1, 1),
                                      facings=(1, 0)))
    assert err.page == 16
    events = table.apply(ManoeuvrePlan(player=IMPERIUM, aircraft="imperium-1"))
    flown = one(events, ManoeuvreFlown)
    assert (flown.manoeuvre, flown.completed, flown.path, flown.facing) == (7, False, walk(START_HEX, N), N)
    stall = one(events, Stalled)
    assert "too slow" in stall.reason
    assert events.index(flown) < events.index(stall)
    assert table.aircraft("imperium-1").stalled and table.state.step == ALTITUDE


def test_speed_0_flies_nowhere_and_stalls():
    """p.15 (2019 Throttle past Min Speed) and p.17: a Thunderbolt throttled from 2 to 0 Stalls and cannot fly
    even Ace Manoeuvre 1; it stays in its hex."""
    table = at_manoeuvre(1, 2, profile="thunderbolt", throttle=-2)
    assert table.aircraft("imperium-1").stalled
    assert len(plans(table)) == 1
    flown = fly(table)
    assert (flown.path, flown.hex, flown.completed) == ((), START_HEX, False)


def test_a_completed_manoeuvre_does_not_stall():
    events = at_manoeuvre(7, 2).apply(ManoeuvrePlan(player=IMPERIUM, aircraft="imperium-1", side="right",
                                                    stage_hexes=(1, 1), facings=(1, 2)))
    assert not of_type(events, Stalled) and one(events, ManoeuvreFlown).completed
