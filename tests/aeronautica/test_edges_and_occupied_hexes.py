"""Occupied hexes (rulebook p.7 "The Infinite Skies", p.17 step 6) and the edge of the Area of Engagement
(p.17): aircraft never share a hex at the end of a move, and an aircraft that flies off the board, or into
an incomplete hex at its edge, Disengages.

Positions are offset (column, row) on a "12x10h" board (12 columns, 10 rows, all hexes complete) unless a
rulebook board is named.
"""

from __future__ import annotations

import pytest

from aero_events.hexgrid import Board
from aero_events.rulesets.aeronautica.commands import ChooseManoeuvre
from aero_events.rulesets.aeronautica.events import AircraftDisengaged, ManoeuvreFlown, MovementEnded
from aero_events.rulesets.aeronautica.state import DISENGAGED, FIRING, MOVEMENT
from tests.aeronautica.helpers import IMPERIUM, ORKS, N, Plane, S, Table, hex_at, of_type, one, walk

BOARD = "12x10h"


def hx(column: int, row: int):
    return hex_at(BOARD, column, row)


def imperium_moves_first(orks_at: list[tuple[int, int]], imperium_at=(4, 8), speed: int = 4,
                         manoeuvre: int = 1, board: str = BOARD, second=(10, 8)) -> Table:
    """imperium-1 (Thunderbolt facing north) will move first; the orks' Dakkajets wait where they are."""
    table = Table([Plane("thunderbolt", imperium_at, speed=speed), Plane("thunderbolt", second)],
                  [Plane("dakkajet", at, facing=S) for at in orks_at], board=board)
    choices = {"imperium-1": manoeuvre, "imperium-2": 1} | {f"orks-{i + 1}": 1 for i in range(len(orks_at))}
    table.start_movement(choices, first=IMPERIUM)
    return table


def test_ending_in_an_occupied_hex_flies_on_to_the_first_unoccupied_hex():
    """p.17 step 6: "Should a moving aircraft ever end its movement in a hex occupied by another aircraft, the
    moving aircraft will continue moving in the same direction until it reaches the first unoccupied hex"."""
    table = imperium_moves_first(orks_at=[(4, 4)])
    flown = one(table.move("imperium-1", stage_hexes=(1,), facings=(0,)), ManoeuvreFlown)
    assert flown.path == (hx(4, 7), hx(4, 6), hx(4, 5), hx(4, 4))
    assert flown.pushed == (hx(4, 3),) and flown.hex == hx(4, 3)
    assert table.aircraft("imperium-1").hex == hx(4, 3)
    assert table.aircraft("imperium-1").path == flown.path + flown.pushed
    assert table.aircraft("orks-1").hex == hx(4, 4)


def test_a_row_of_occupied_hexes_is_flown_through_to_the_first_free_one():
    """p.7: the moving aircraft continues "until it can be placed in the first unoccupied hex"."""
    table = imperium_moves_first(orks_at=[(4, 4), (4, 3)])
    flown = one(table.move("imperium-1", stage_hexes=(1,), facings=(0,)), ManoeuvreFlown)
    assert flown.pushed == (hx(4, 3), hx(4, 2)) and flown.hex == hx(4, 2)


def test_passing_through_an_occupied_hex_is_no_collision():
    """p.7: "aircraft cannot collide, even if a moving aircraft passes through a hex occupied by another"."""
    table = imperium_moves_first(orks_at=[(4, 6)])
    flown = one(table.move("imperium-1", stage_hexes=(1,), facings=(0,)), ManoeuvreFlown)
    assert hx(4, 6) in flown.path and flown.pushed == () and flown.hex == hx(4, 4)


def test_flying_on_continues_in_the_direction_of_the_last_hex_entered():
    """p.17 step 6 "in the same direction": the direction the aircraft was moving when it entered the hex,
    not the facing it turned to there (Reverse at Speed 2 flies two hexes north, then faces south)."""
    table = imperium_moves_first(orks_at=[(4, 6)], speed=2, manoeuvre=6)
    flown = one(table.move("imperium-1", stage_hexes=(2,), facings=(3,)), ManoeuvreFlown)
    assert flown.path == (hx(4, 7), hx(4, 6)) and flown.facing == S
    assert flown.pushed == (hx(4, 5),)


def test_the_aircraft_own_starting_hex_is_not_occupied():
    """p.17 step 6 counts hexes occupied by *another* aircraft: Reverse at Speed 2 can end where it began."""
    table = imperium_moves_first(orks_at=[(8, 2)], speed=2, manoeuvre=6)
    flown = one(table.move("imperium-1", stage_hexes=(1,), facings=(3,)), ManoeuvreFlown)
    assert flown.path == (hx(4, 7), hx(4, 8)) and flown.pushed == () and flown.hex == hx(4, 8)


def test_flying_beyond_the_edge_disengages_accidentally():
    """p.17: "If an aircraft's movement takes it beyond the edge of the Area of Engagement ... the aircraft
    Disengages immediately and may not return to the game"; outside the Disengagement turn it counts as
    Accidentally Disengaged."""
    table = imperium_moves_first(orks_at=[(8, 2)], imperium_at=(4, 1))
    events = table.move("imperium-1", stage_hexes=(1,), facings=(0,))
    flown = one(events, ManoeuvreFlown)
    off = walk(hx(4, 1), N, N)[1]
    assert flown.path == (hx(4, 0), off)  # the move stops where it leaves the board
    assert one(events, AircraftDisengaged) == AircraftDisengaged(aircraft="imperium-1", how="accidental",
                                                                 exit_hex=off)
    assert isinstance(events[-1], MovementEnded)
    gone = table.aircraft("imperium-1")
    assert (gone.status, gone.disengaged_how, gone.in_play) == (DISENGAGED, "accidental", False)
    assert table.state.phase == MOVEMENT and table.state.active is None and table.state.to_act == ORKS
    assert off not in table.state.occupied()


def test_a_disengaged_aircraft_does_not_return():
    """p.17: "may not return to the game": no Manoeuvre token for it next turn."""
    table = imperium_moves_first(orks_at=[(8, 2)], imperium_at=(4, 1))
    table.move("imperium-1", stage_hexes=(1,), facings=(0,))
    table.move("orks-1", stage_hexes=(1,), facings=(0,))
    table.move("imperium-2", stage_hexes=(1,), facings=(0,))
    assert table.state.phase == FIRING
    table.pass_firing()
    assert {c.aircraft for c in table.legal(IMPERIUM)} == {"imperium-2"}
    err = table.refused(ChooseManoeuvre(player=IMPERIUM, aircraft="imperium-1", manoeuvre=1))
    assert err.page == 13


def test_flown_on_past_an_occupied_hex_and_off_the_board():
    """p.17 step 6 then p.17 edge: flying on from an occupied hex at the edge leaves the board."""
    table = imperium_moves_first(orks_at=[(4, 0)], imperium_at=(4, 4))
    events = table.move("imperium-1", stage_hexes=(1,), facings=(0,))
    flown = one(events, ManoeuvreFlown)
    off = walk(hx(4, 0), N)[0]
    assert flown.path[-1] == hx(4, 0) and flown.pushed == (off,)
    assert one(events, AircraftDisengaged).exit_hex == off
    assert table.aircraft("imperium-1").status == DISENGAGED


def test_the_rulebook_board_has_incomplete_hexes_at_its_edge():
    """p.9, p.17: the 3'x3' board (36x36 inches of 2-inch hexes) has complete hexes in 18 rows of its even
    columns but 17 of its odd ones: the odd columns' last hex is cut by the south edge."""
    board = Board.preset("3x3")
    assert board.contains(board.from_offset(0, 17)) and board.contains(board.from_offset(1, 16))
    assert not board.contains(board.from_offset(1, 17))


@pytest.mark.parametrize("column,disengages", [(0, False), (1, True)])
def test_flying_into_an_incomplete_edge_hex_disengages(column, disengages):
    """p.17: "... or into an incomplete hex at the edge of the Area of Engagement, the aircraft Disengages
    immediately". Two hexes south from row 15 reaches row 17: complete in column 0, cut in column 1."""
    table = Table([Plane("thunderbolt", (column, 15), facing=S, speed=2), Plane("thunderbolt", (10, 10))],
                  [Plane("dakkajet", (10, 2), facing=S)], board="3x3")
    table.start_movement({"imperium-1": 1, "imperium-2": 1, "orks-1": 1})
    events = table.move("imperium-1", stage_hexes=(1,), facings=(0,))
    end = Board.preset("3x3").from_offset(column, 17)
    assert one(events, ManoeuvreFlown).path[-1] == end
    assert bool(of_type(events, AircraftDisengaged)) is disengages
    assert table.aircraft("imperium-1").in_play is not disengages
