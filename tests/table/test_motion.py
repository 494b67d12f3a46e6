"""Moves: swept regions, first contact (the smallest touching fraction), lines of fire, scatter."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aero_events.table import (
    CONTACT_SCALE,
    Capsule,
    Circle,
    OrientedRect,
    Polygon,
    Pose,
    Segment,
    Transform,
    centre,
    cm,
    contains,
    convex_hull,
    crossed_obstacles,
    first_contact,
    first_contact_on_path,
    first_contacts,
    line_blocked,
    mm,
    overlaps,
    path_length,
    path_points,
    point_along,
    scatter,
    swept_circle,
    swept_circle_path,
    swept_rect,
    swept_rect_path,
    trace,
)
from tests.table.strategies import headings, near

SMALL_BASE = mm(16)  # BFG small base radius (32 mm, spec data/geometry.json default)
BLAST = mm("12.5")  # BFG blast marker radius (2.5 cm diameter default)


def test_a_ship_moving_into_a_blast_marker_touches_it_when_the_edges_meet():
    """BFG p.49-50: a ship moving through blast markers; contact when its base touches the marker."""
    ship = Circle((0, 0), SMALL_BASE)
    marker = Circle((cm(10), 0), BLAST)
    # edges meet when the centre is 100 - 16 - 12.5 = 71.5 mm along a 200 mm move
    assert first_contact(ship, (cm(20), 0), marker) == 357_500
    assert first_contact(ship, (cm(5), 0), marker) is None
    assert first_contact(ship, (-cm(20), 0), marker) is None
    assert first_contact(Circle((cm(10), mm(20)), SMALL_BASE), (cm(20), 0), marker) == 0


def test_a_glancing_move_first_touches_where_the_offset_allows():
    mover = Circle((0, 3000), 1000)
    fixed = Circle((8000, 0), 2000)  # touching when the centres are 3000 apart: x = 8000
    assert first_contact(mover, (10000, 0), fixed) == 800_000


def test_first_contact_with_a_rectangle_and_with_a_polygon():
    mover = Circle((0, 0), 1000)
    wall = OrientedRect(Pose(9000, 0, 0), 2000, 20000)  # left face at x = 8000
    assert first_contact(mover, (10000, 0), wall) == 700_000
    notch = Polygon(((5000, -100), (6000, 0), (5000, 100)))
    assert first_contact(mover, (10000, 0), notch) == 400_000
    assert first_contact((0, 0), (10000, 0), notch) == 500_000  # a point mover: no radius


def test_a_rectangular_base_sliding_sideways_touches_a_marker():
    base = OrientedRect(Pose(0, 0, 0), 2000, 2000)  # right side at x = 1000
    assert first_contact(base, (10000, 0), Circle((5000, 0), 1000)) == 300_000


def test_first_contacts_orders_obstacles_by_time_then_index():
    mover = Circle((0, 0), 100)
    obstacles = [
        Circle((5000, 0), 100),
        Circle((3000, 0), 100),
        Circle((0, 5000), 100),
        Circle((3000, 0), 100),
    ]
    assert first_contacts(mover, (10000, 0), obstacles) == ((280_000, 1), (280_000, 3), (480_000, 0))


def test_first_contact_on_a_path_reports_the_leg():
    """BFG: a move is advance, turn, advance; the base meets the marker on the second leg."""
    ship = Circle((0, 0), 500)
    path = [(0, 0), (0, 10000), (10000, 10000)]
    assert first_contact_on_path(ship, path, Circle((6000, 10000), 500)) == (1, 500_000)
    assert first_contact_on_path(ship, path, Circle((6000, 0), 500)) is None


def test_point_along_and_scatter():
    assert point_along((0, 0), (10000, 0), 357_500) == (3575, 0)
    assert point_along((0, 0), (3, 0), 500_000) == (2, 0)  # 1.5 rounds to even
    assert scatter((0, 0), 9000, cm(10)) == (cm(10), 0)
    assert scatter((100, 100), 18000, 50) == (100, 50)


def test_swept_circle_and_path_are_capsules():
    assert swept_circle((0, 0), (100, 0), 5) == Capsule(((0, 0), (100, 0)), 5)
    sweep = swept_circle_path([(0, 0), (0, 100), (100, 100)], 10)
    assert contains(sweep, (50, 108)) and not contains(sweep, (50, 80))
    assert path_length([(0, 0), (0, 100), (100, 100)]) == 200
    assert path_points([Pose(1, 2, 0), Pose(3, 4, 9000)]) == ((1, 2), (3, 4))


def test_swept_rect_of_a_straight_move_is_the_hull_of_both_bases():
    sweep = swept_rect(Pose(0, 0, 0), Pose(0, 1000, 0), 200, 400)
    assert sweep.points == ((-100, -200), (-100, 1200), (100, 1200), (100, -200))
    assert len(swept_rect_path([Pose(0, 0, 0), Pose(0, 1000, 0), Pose(500, 1500, 4500)], 200, 400)) == 2


def test_line_of_fire_lists_blast_markers_crossed_but_not_the_firer_and_target():
    """BFG: the line of fire through blast markers shifts the column; own bases are left out."""
    firer, target = (0, 0), (cm(40), 0)
    obstacles = [
        Circle(firer, SMALL_BASE),
        Circle((cm(20), mm(10)), BLAST),  # the line passes 10 mm from its centre: crossed
        Circle((cm(25), mm(13)), BLAST),  # 13 mm from the line, radius 12.5: missed
        Circle(target, SMALL_BASE),
        Circle((cm(30), -BLAST), BLAST),  # touching the line exactly: crossed (closed shapes)
    ]
    assert crossed_obstacles(firer, target, obstacles, ignore=(0, 3)) == (1, 4)
    assert line_blocked(firer, target, obstacles, ignore=(0, 3))
    assert not line_blocked(firer, target, obstacles[2:4], ignore=(1,))


def test_a_polygon_mover_with_no_single_point_is_refused():
    with pytest.raises(TypeError):
        first_contact(Segment((0, 0), (1, 1)), (5, 5), (10, 10))


def _scaled(shape, factor):
    if isinstance(shape, tuple):
        return (shape[0] * factor, shape[1] * factor)
    if isinstance(shape, Circle):
        return Circle(_scaled(shape.centre, factor), shape.radius * factor)
    if isinstance(shape, OrientedRect):
        return Polygon(tuple(_scaled(p, factor) for p in shape.corners()))
    if isinstance(shape, Polygon):
        return Polygon(tuple(_scaled(p, factor) for p in shape.points))
    raise TypeError(shape)


def _mover_at(mover, delta, fraction):
    """The mover shifted ``fraction`` millionths of ``delta``, in a picture scaled by CONTACT_SCALE."""
    shift = (delta[0] * fraction, delta[1] * fraction)
    scaled = _scaled(mover, CONTACT_SCALE)
    if isinstance(scaled, Circle):
        return Circle((scaled.centre[0] + shift[0], scaled.centre[1] + shift[1]), scaled.radius)
    return Polygon(tuple((x + shift[0], y + shift[1]) for x, y in scaled.points))


small = st.integers(1, 3000)
movers = st.one_of(
    st.builds(Circle, st.tuples(near, near), small),
    st.builds(OrientedRect, st.builds(Pose, near, near, headings), small, small),
)
obstacles_ = st.one_of(
    st.builds(Circle, st.tuples(near, near), small),
    st.builds(OrientedRect, st.builds(Pose, near, near, headings), small, small),
)


@settings(max_examples=60)
@given(
    movers,
    st.tuples(st.integers(-40_000, 40_000), st.integers(-40_000, 40_000)),
    obstacles_,
    st.lists(st.integers(0, CONTACT_SCALE), max_size=12),
)
def test_first_contact_is_the_smallest_touching_fraction(mover, delta, obstacle, samples):
    """At the answer the shapes touch (exactly); one millionth earlier, and at every sample before, not."""
    fraction = first_contact(mover, delta, obstacle)
    target = _scaled(obstacle, CONTACT_SCALE)
    if fraction is None:
        for t in [*samples, 0, CONTACT_SCALE]:
            assert not overlaps(_mover_at(mover, delta, t), target)
        return
    assert overlaps(_mover_at(mover, delta, fraction), target)
    if fraction > 0:
        assert not overlaps(_mover_at(mover, delta, fraction - 1), target)
    for t in samples:
        if t < fraction:
            assert not overlaps(_mover_at(mover, delta, t), target)


round_movers = st.one_of(
    st.builds(Circle, st.tuples(near, near), st.integers(0, 3000)), st.tuples(near, near)
)
any_obstacle = st.one_of(
    st.builds(Circle, st.tuples(near, near), small),
    st.builds(OrientedRect, st.builds(Pose, near, near, headings), small, small),
    st.builds(Segment, st.tuples(near, near), st.tuples(near, near)),
    st.builds(Capsule, st.lists(st.tuples(near, near), min_size=1, max_size=4).map(tuple), small),
    st.lists(st.tuples(near, near), min_size=3, max_size=6)
    .map(convex_hull)
    .filter(lambda hull: len(hull) >= 3)
    .map(Polygon),
)


@st.composite
def aimed_moves(draw):
    """A round mover and any obstacle, or a rectangle and a round marker, and a move roughly towards it."""
    if draw(st.booleans()):
        mover = draw(round_movers)
        obstacle = draw(any_obstacle)
    else:
        mover = draw(st.builds(OrientedRect, st.builds(Pose, near, near, headings), small, small))
        obstacle = draw(round_movers)
    start, target = centre(mover), centre(obstacle)
    factor = draw(st.integers(1, 12))
    jitter = st.integers(-3000, 3000)
    delta = (
        (target[0] - start[0]) * factor // 6 + draw(jitter),
        (target[1] - start[1]) * factor // 6 + draw(jitter),
    )
    return mover, delta, obstacle


@settings(max_examples=200)
@given(aimed_moves())
def test_round_movers_in_closed_form_match_the_exact_bisection(case):
    """The closed forms (corner discs and edge bands, square roots compared exactly; a rectangle onto a
    round marker solved as the marker moving back) give the same millionth as bisection on the exact
    "touched by then" test."""
    mover, delta, obstacle = case
    from aero_events.table.motion import _mover_core, _touched_by
    from aero_events.table.shapes import core

    fraction = first_contact(mover, delta, obstacle)
    mover_core, obstacle_core = _mover_core(mover), core(obstacle)
    if fraction is None:
        assert not _touched_by(mover_core, obstacle_core, delta, CONTACT_SCALE)
    else:
        assert _touched_by(mover_core, obstacle_core, delta, fraction)
        assert fraction == 0 or not _touched_by(mover_core, obstacle_core, delta, fraction - 1)


@given(st.builds(Circle, st.tuples(near, near), small), st.tuples(near, near))
def test_a_swept_circle_contains_the_base_at_start_end_and_between(circle, end):
    sweep = swept_circle(circle.centre, end, circle.radius)
    delta = (2 * (end[0] - circle.centre[0]), 2 * (end[1] - circle.centre[1]))
    sweep = swept_circle(
        circle.centre, (circle.centre[0] + delta[0], circle.centre[1] + delta[1]), circle.radius
    )
    for t in (0, 500_000, CONTACT_SCALE):  # the half-way point of an even move is exact
        centre = point_along(circle.centre, delta, t)
        assert contains(sweep, centre)
        assert contains(sweep, (centre[0] + circle.radius, centre[1]))
        assert contains(sweep, (centre[0], centre[1] - circle.radius))


@given(st.builds(Pose, near, near, headings), st.tuples(near, near), small, small, headings)
def test_a_swept_rect_contains_the_start_and_end_bases(start, shift, width, length, turn):
    end = Pose(start.x + shift[0], start.y + shift[1], (start.heading + turn) % 36000)
    sweep = swept_rect(start, end, width, length)
    for pose in (start, end):
        assert all(contains(sweep, p) for p in OrientedRect(pose, width, length).corners())
    straight_end = Pose(start.x + 2 * shift[0], start.y + 2 * shift[1], start.heading)
    straight = swept_rect(start, straight_end, width, length)
    half_way = Pose(start.x + shift[0], start.y + shift[1], start.heading)  # a pure translation: exact
    assert all(contains(straight, p) for p in OrientedRect(half_way, width, length).corners())


def test_a_bfg_move_is_a_trace_of_advances_and_turns_whose_sweep_is_a_capsule():
    """BFG Movement: advance, turn 45 degrees, advance; the base sweeps the capsule of the path."""
    poses = trace(Pose(0, 0, 0), [Transform(0, cm(10)), Transform.of(0, 0, 4500), Transform(0, cm(10))])
    assert poses == (
        Pose(0, 0, 0),
        Pose(0, cm(10), 0),
        Pose(0, cm(10), 4500),
        Pose(7071, cm(10) + 7071, 4500),
    )
    sweep = swept_circle_path(path_points(poses), SMALL_BASE)
    assert overlaps(sweep, Circle((cm(3), cm(15)), BLAST))
    assert not overlaps(sweep, Circle((cm(3), cm(5)), BLAST))
