"""Exact predicates and edge-to-edge distances; metric properties and invariance under rigid motions."""

from fractions import Fraction
from math import sqrt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aero_events.table import (
    Capsule,
    Circle,
    OrientedRect,
    Polygon,
    Pose,
    Segment,
    centre,
    cm,
    compare_gap,
    contains,
    distance,
    distance_squared,
    gap,
    gap_at_most,
    gap_squared,
    mm,
    overlaps,
    point_in_polygon,
    round_sqrt,
    segment_crossing,
    segments_intersect,
)
from tests.table.strategies import areas, motions, moved, points, right_angle_motions, shapes

SQUARE = Polygon(((0, 0), (0, 1000), (1000, 1000), (1000, 0)))
NOTCHED = Polygon(((0, 0), (0, 1000), (500, 500), (1000, 1000), (1000, 0)))  # non-convex: a V cut in the top


def test_point_distances_are_exact_squares_rounded_to_the_nearest_unit():
    assert distance_squared((0, 0), (300, 400)) == 250_000
    assert distance((0, 0), (300, 400)) == 500
    assert distance((0, 0), (1, 1)) == 1  # 1.414
    assert distance((0, 0), (1, 2)) == 2  # 2.236
    assert round_sqrt(9, 4) == 2  # exactly 1.5: ties go to even
    assert round_sqrt(25, 4) == 2  # exactly 2.5
    assert round_sqrt(2) == 1 and round_sqrt(3) == 2


def test_segments_touching_at_an_end_intersect_and_parallel_ones_do_not():
    assert segments_intersect((0, 0), (10, 10), (0, 10), (10, 0))
    assert segments_intersect((0, 0), (10, 0), (10, 0), (20, 5))
    assert not segments_intersect((0, 0), (10, 0), (0, 1), (10, 1))
    assert segments_intersect((0, 0), (10, 0), (5, 0), (20, 0))  # collinear overlap
    assert not segments_intersect((0, 0), (10, 0), (11, 0), (20, 0))


def test_segment_crossing_gives_the_exact_first_fraction():
    assert segment_crossing((0, 0), (10, 0), (3, -5), (3, 5)) == Fraction(3, 10)
    assert segment_crossing((0, 0), (30, 0), (10, 0), (20, 0)) == Fraction(1, 3)
    assert segment_crossing((0, 0), (10, 0), (0, 1), (10, 1)) is None


def test_point_in_polygon_tells_inside_boundary_and_outside():
    assert point_in_polygon((500, 500), SQUARE.points) == 1
    assert point_in_polygon((1000, 300), SQUARE.points) == 0
    assert point_in_polygon((0, 0), SQUARE.points) == 0
    assert point_in_polygon((1001, 300), SQUARE.points) == -1
    assert point_in_polygon((500, 900), NOTCHED.points) == -1  # inside the notch
    assert point_in_polygon((500, 500), NOTCHED.points) == 0
    assert point_in_polygon((100, 850), NOTCHED.points) == 1


def test_contains_counts_the_edge_unless_strict():
    base = Circle((0, 0), mm(16))  # a 32 mm BFG small base
    assert contains(base, (1600, 0))
    assert not contains(base, (1600, 0), inclusive=False)
    assert contains(base, (1131, 1131)) and not contains(base, (1132, 1132))
    rect = OrientedRect(Pose(0, 0, 0), 200, 400)
    assert contains(rect, (100, 200)) and not contains(rect, (100, 200), inclusive=False)
    assert contains(Capsule(((0, 0), (1000, 0)), 50), (500, 50))
    assert contains(Segment((0, 0), (10, 10)), (5, 5))
    assert not contains(Segment((0, 0), (10, 10)), (5, 5), inclusive=False)


def test_circle_to_circle_gap_is_centre_distance_minus_radii():
    assert gap(Circle((0, 0), 100), Circle((1000, 0), 200)) == 700
    assert gap(Circle((0, 0), 500), Circle((1000, 0), 500)) == 0  # touching: base contact
    assert overlaps(Circle((0, 0), 500), Circle((1000, 0), 500))
    assert not overlaps(Circle((0, 0), 500), Circle((1001, 0), 500))


def test_circle_to_rectangle_gap_measures_to_the_nearest_side_or_corner():
    rect = OrientedRect(Pose(0, 0, 0), 2000, 4000)  # x in [-1000, 1000], y in [-2000, 2000]
    assert gap(Circle((3000, 0), 500), rect) == 1500  # to the right side
    assert gap(Circle((4000, 6000), 1000), rect) == 4000  # to the corner (1000, 2000): 5000 - 1000
    assert gap(Circle((0, 0), 10), rect) == 0  # inside


def test_rectangle_to_rectangle_gap_and_polygon_to_polygon_gap():
    a = OrientedRect(Pose(0, 0, 0), 2000, 2000)
    b = OrientedRect(Pose(5000, 0, 4500), 2000, 2000)  # a diamond whose left corner is at x = 5000 - 1414
    assert gap(a, b) == 5000 - 1414 - 1000
    assert gap(SQUARE, Polygon(((3000, 0), (4000, 0), (4000, 1000)))) == 2000
    assert gap(NOTCHED, (500, 900)) == 283  # from inside the notch to its sides: 400 / sqrt(2)


def test_segment_crossing_a_rectangle_without_a_corner_inside_overlaps_it():
    rect = OrientedRect(Pose(0, 0, 0), 200, 200)
    assert overlaps(Segment((-1000, 0), (1000, 0)), rect)
    assert gap(Segment((-1000, 500), (1000, 500)), rect) == 400


def test_range_rules_compare_exactly_without_rounding():
    """BFG: 'within 30 cm' is <= 30 cm exactly; a stem 30 cm away is within, 30.0001 is not."""
    assert gap_at_most((0, 0), (cm(30), 0), cm(30))
    assert not gap_at_most((0, 0), (cm(30), 1), cm(30))  # 300.0000017 mm
    assert gap((0, 0), (cm(30), 1)) == cm(30)  # the rounded distance hides it
    assert compare_gap((0, 0), (cm(30), 0), cm(30)) == 0
    assert compare_gap((0, 0), (cm(30), 1), cm(30)) == 1
    assert compare_gap(Circle((0, 0), 10), Circle((15, 0), 10), 0) == 0
    assert compare_gap(Circle((0, 0), 10), Circle((15, 0), 10), 1) == -1
    with pytest.raises(ValueError):
        gap_at_most((0, 0), (1, 1), -1)


def test_unknown_things_are_refused():
    with pytest.raises(TypeError):
        gap("base", (0, 0))


@given(shapes, shapes)
def test_gap_is_symmetric(a, b):
    assert gap_squared(a, b)[1] == gap_squared(b, a)[1]
    assert gap(a, b) == gap(b, a)
    assert overlaps(a, b) == overlaps(b, a)


@given(shapes)
def test_gap_of_a_shape_to_itself_is_zero(a):
    assert gap(a, a) == 0 and overlaps(a, a)


@given(points, points, points)
def test_point_distance_is_a_metric_within_rounding(a, b, c):
    """Each rounded root is within half a unit, so the triangle inequality holds within 1 unit."""
    assert distance(a, b) == distance(b, a)
    assert (distance(a, b) == 0) == (a == b)
    assert distance(a, c) <= distance(a, b) + distance(b, c) + 1


@given(points, points, shapes)
def test_distance_to_a_shape_is_one_lipschitz_within_rounding(p, q, shape):
    assert gap(p, shape) <= distance(p, q) + gap(q, shape) + 1


@given(shapes, shapes)
def test_gap_matches_the_float_distance(a, b):
    (n, d), radii = gap_squared(a, b)
    expected = max(0.0, sqrt(n / d) - radii)
    assert abs(gap(a, b) - expected) <= 0.5 + 1e-6 * (1 + expected)


@given(shapes, shapes, right_angle_motions)
def test_right_angle_motions_of_the_whole_picture_keep_every_answer_exactly(a, b, motion):
    assert gap_squared(moved(a, motion), moved(b, motion)) == gap_squared(a, b)
    assert overlaps(moved(a, motion), moved(b, motion)) == overlaps(a, b)


@given(areas, points, right_angle_motions)
def test_right_angle_motions_keep_containment_exactly(shape, p, motion):
    assert contains(moved(shape, motion), motion.apply(p)) == contains(shape, p)


@given(shapes, shapes, motions)
def test_any_rigid_motion_keeps_gaps_within_three_units(a, b, motion):
    """Each moved point is rounded by at most 0.71 units (a rectangle's corners by 0.71 from the ideal)."""
    assert abs(gap(moved(a, motion), moved(b, motion)) - gap(a, b)) <= 3


@given(areas, st.integers(-5, 5), st.integers(-5, 5))
def test_a_shape_overlaps_a_dot_at_any_of_its_points(shape, dx, dy):
    cx, cy = centre(shape)
    probe = (cx + dx, cy + dy)
    assert contains(shape, probe) == overlaps(shape, probe)
    if overlaps(shape, probe):
        assert gap(shape, probe) == 0  # the converse fails by rounding: 0.4 units rounds to 0
