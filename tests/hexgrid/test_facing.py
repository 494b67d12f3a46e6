"""Facings: the six hexsides an aircraft's base can point through (p.5, p.16)."""

from math import atan2, degrees, hypot

import msgspec
from hypothesis import given
from hypothesis import strategies as st

from aero_events.hexgrid import Facing, Hex, pixel_centre
from tests.hexgrid.strategies import facings


def test_facings_are_numbered_clockwise_from_north():
    """Compass order N, NE, SE, S, SW, NW with bearing 60 degrees per step."""
    assert [f.name for f in Facing] == ["N", "NE", "SE", "S", "SW", "NW"]
    assert [f.bearing for f in Facing] == [0, 60, 120, 180, 240, 300]


def test_turning_right_adds_one_and_left_subtracts_one():
    """A one-hexside manoeuvre to the right is clockwise (p.16)."""
    assert Facing.N.right() is Facing.NE
    assert Facing.N.left() is Facing.NW
    assert Facing.NW.right() is Facing.N
    assert Facing.SE.left(2) is Facing.N
    assert Facing.S.turned(-4) is Facing.NW


@given(facings, st.integers(-20, 20))
def test_turned_matches_right_and_left(facing, steps):
    """``turned`` with positive steps is ``right``, with negative steps ``left``."""
    assert facing.turned(steps) is facing.right(steps)
    assert facing.turned(-steps) is facing.left(steps)
    assert facing.turned(steps).turned(-steps) is facing
    assert isinstance(facing.turned(steps), Facing)


@given(facings)
def test_opposite_is_three_hexsides_round(facing):
    """The Rear Arc looks through the hexside opposite the front (p.5)."""
    assert facing.opposite is facing.turned(3)
    assert facing.opposite.opposite is facing
    assert facing.opposite != facing


@given(facings)
def test_each_step_points_along_its_bearing_two_inches(facing):
    """Stepping through a hexside moves one 2-inch hex (p.9) on the facing's compass bearing."""
    x, y = pixel_centre(Hex(*facing.delta))
    assert abs(hypot(x, y) - 2.0) < 1e-9
    assert abs((degrees(atan2(x, y)) - facing.bearing + 180) % 360 - 180) < 1e-9


def test_facing_encodes_as_its_number():
    """Facings travel in event streams as integers 0-5."""
    assert msgspec.json.encode(Facing.SW) == b"4"
    assert msgspec.json.decode(b"2", type=Facing) is Facing.SE
