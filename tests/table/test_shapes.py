"""Shapes: rectangle corners and sides, bounds, centres, hulls, validation, msgspec round trips."""

import msgspec
import pytest

from aero_events.table import (
    Capsule,
    Circle,
    OrientedRect,
    Polygon,
    Pose,
    RectSide,
    Sector,
    Segment,
    Shape,
    bounds,
    centre,
    convex_hull,
    hull,
    mm,
)


def test_a_wog_base_44_by_67_mm_facing_north_has_these_corners():
    """WINGS-OF-GLORY-DATA section 1: the base is the 44 x 67 mm card; width across, length along."""
    base = OrientedRect(Pose(0, 0, 0), mm(44), mm(67))
    assert base.corners() == ((-2200, 3350), (2200, 3350), (2200, -3350), (-2200, -3350))
    assert base.side(RectSide.FRONT) == ((-2200, 3350), (2200, 3350))
    assert base.side(RectSide.REAR) == ((2200, -3350), (-2200, -3350))


def test_turning_a_rectangle_a_right_angle_turns_its_corners_exactly():
    base = OrientedRect(Pose(100, 200, 9000), mm(44), mm(67))
    assert base.corners() == (
        (100 + 3350, 200 + 2200),
        (100 + 3350, 200 - 2200),
        (100 - 3350, 200 - 2200),
        (100 - 3350, 200 + 2200),
    )


def test_an_odd_width_rounds_its_half_corners_to_even():
    assert OrientedRect(Pose(0, 0, 0), 3, 5).corners() == ((-2, 2), (2, 2), (2, -2), (-2, -2))


def test_bounds_are_exact_for_round_and_straight_shapes():
    assert bounds(Circle((10, 20), 5)) == (5, 15, 15, 25)
    assert bounds(Capsule(((0, 0), (100, 0)), 10)) == (-10, -10, 110, 10)
    assert bounds(Segment((5, -5), (-5, 5))) == (-5, -5, 5, 5)
    assert bounds((3, 4)) == (3, 4, 3, 4)


def test_centres():
    assert centre(Circle((10, 20), 5)) == (10, 20)
    assert centre(OrientedRect(Pose(7, 8, 100), 10, 10)) == (7, 8)
    assert centre(Polygon(((0, 0), (10, 0), (10, 10), (0, 10)))) == (5, 5)


def test_convex_hull_drops_inner_and_collinear_points_and_runs_clockwise():
    square = [(0, 0), (10, 0), (10, 10), (0, 10), (5, 5), (5, 0)]
    assert convex_hull(square) == ((0, 0), (0, 10), (10, 10), (10, 0))


def test_hull_of_two_bases_covers_both_and_refuses_circles():
    first = OrientedRect(Pose(0, 0, 0), 200, 200)
    second = OrientedRect(Pose(1000, 0, 0), 200, 200)
    assert hull(first, second).points == ((-100, -100), (-100, 100), (1100, 100), (1100, -100))
    with pytest.raises(ValueError):
        hull(Circle((0, 0), 5))


def test_invalid_shapes_are_refused():
    with pytest.raises(ValueError):
        Circle((0, 0), -1)
    with pytest.raises(ValueError):
        Polygon(((0, 0), (1, 1)))
    with pytest.raises(ValueError):
        Sector(Pose(0, 0, 0), 18001)
    with pytest.raises(ValueError):
        Capsule((), 1)


def test_shapes_round_trip_through_msgspec_as_a_tagged_union():
    shapes = [
        Circle((1, 2), 3),
        OrientedRect(Pose(1, 2, 300), 4, 5),
        Polygon(((0, 0), (1, 0), (0, 1))),
        Segment((0, 0), (1, 1)),
        Capsule(((0, 0), (5, 5)), 2),
    ]
    encoded = msgspec.json.encode(shapes)
    assert msgspec.json.decode(encoded, type=list[Shape]) == shapes
    assert msgspec.json.decode(b'{"x": 1, "y": 2, "heading": 300}', type=Pose) == Pose(1, 2, 300)
    with pytest.raises(msgspec.ValidationError):
        msgspec.json.decode(b'{"x": 1, "y": 2, "heading": 36000}', type=Pose)
