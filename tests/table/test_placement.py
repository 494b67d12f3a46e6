"""The nearest free position: a ring search on a grid, nearest first, ties clockwise from north."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aero_events.table import Circle, mm, overlaps
from aero_events.table.placement import nearest_free_position, search_order


def test_the_search_starts_at_the_point_then_goes_north_east_south_west():
    order = list(search_order(step=mm(1), max_distance=mm(1)))
    assert order == [(0, 0), (0, 100), (100, 0), (0, -100), (-100, 0)]


def test_diagonal_neighbours_come_next_clockwise_from_north_east():
    order = list(search_order(step=1, max_distance=2))
    assert order[5:9] == [(1, 1), (1, -1), (-1, -1), (-1, 1)]
    assert order[9:] == [(0, 2), (2, 0), (0, -2), (-2, 0)]


@given(st.integers(1, 500), st.integers(0, 12))
def test_the_order_is_by_exact_distance_then_clockwise_bearing(step, reach):
    order = list(search_order(step, reach * step))
    assert (
        len(order)
        == len(set(order))
        == sum(
            1
            for i in range(-reach, reach + 1)
            for j in range(-reach, reach + 1)
            if i * i + j * j <= reach * reach
        )
    )
    keys = [(x * x + y * y, math.degrees(math.atan2(x, y)) % 360) for x, y in order]
    assert keys == sorted(keys)


def test_a_ship_ending_on_another_is_moved_the_minimum_distance_off_it():
    """MCS overlap fix-up: the nearest 1 mm grid point where the base no longer touches the other."""
    other = Circle((0, 0), mm(16))
    mine = mm(16)
    spot = nearest_free_position((mm(5), 0), lambda p: not overlaps(Circle(p, mine), other))
    # straight out to 33 mm is 28 mm away; 1 mm up at x = 32 mm is nearer (27.02 mm) and just clear
    # (centres 32.016 mm apart); of the two mirror spots, the one clockwise-first from north wins
    assert spot == (mm(32), mm(1))
    assert not overlaps(Circle(spot, mine), other)


def test_no_free_spot_within_reach_gives_none_and_bad_grids_are_refused():
    assert nearest_free_position((0, 0), lambda p: False, step=mm(1), max_distance=mm(2)) is None
    with pytest.raises(ValueError):
        list(search_order(step=0))
