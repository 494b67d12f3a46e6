"""Lines of fire past bases: can the ruler reach some point of the target without touching another base?"""

from math import lcm

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aero_events.table import (
    Circle,
    OrientedRect,
    Polygon,
    Pose,
    Sector,
    Segment,
    can_see,
    contains,
    mm,
    overlaps,
    point_in_sector,
    visible_point,
)
from tests.table.strategies import headings

PEG = (0, 0)
TARGET = OrientedRect(Pose(0, mm(100), 0), mm(44), mm(67))  # x in [-22, 22] mm, y in [66.5, 133.5] mm
CONE = Sector(Pose(0, 0, 0), 3500, mm(200))


def test_an_open_line_reaches_the_nearest_point_of_the_base():
    assert visible_point(PEG, TARGET) == (mm(22), mm("66.5"))  # the first point found, a corner
    assert can_see(PEG, TARGET, sector=CONE)


def test_a_wide_base_in_between_blocks_every_line():
    """WoG Targeting: no target if every line crosses a base."""
    blocker = OrientedRect(Pose(0, mm(50), 9000), mm(10), mm(100))
    assert not can_see(PEG, TARGET, [blocker])


def test_a_base_covering_half_the_target_leaves_the_other_half_visible():
    left_half = OrientedRect(Pose(-mm(20), mm(50), 0), mm(40), mm(1))  # x in [-40, 0] mm
    seen = visible_point(PEG, TARGET, [left_half])
    assert seen is not None and seen[0] > 0


def test_a_ruler_grazing_a_base_corner_is_blocked():
    """Shapes are closed: a ruler touching another base's corner counts as crossing it."""
    target = Segment((mm(10), mm(100)), (mm(10), mm(100)))  # a single point
    corner = Polygon(((mm(5), mm(50)), (mm(5), mm(40)), (mm(20), mm(40))))  # corner (5, 50) on the line
    assert not can_see(PEG, target, [corner])
    assert can_see(PEG, target, [Polygon(((mm(5) + 1, mm(50)), (mm(5) + 1, mm(40)), (mm(20), mm(40))))])


def test_the_cone_and_the_range_limit_the_points_that_count():
    """WoG Firing: only points of the base inside the cone and within range count."""
    left_half = OrientedRect(Pose(-mm(20), mm(50), 0), mm(40), mm(1))
    assert visible_point(PEG, TARGET, [left_half], Sector(Pose(0, 0, 0), 3500, mm(70))) is not None
    assert visible_point(PEG, TARGET, [left_half], Sector(Pose(0, 0, 0), 3500, mm("66.5"))) is None
    assert visible_point(PEG, TARGET, [], Sector(Pose(0, 0, 0), 3500, mm("66.5"))) is not None
    behind = Sector(Pose(0, 0, 18000), 3500, mm(200))
    assert not can_see(PEG, TARGET, [], behind)


def test_a_firer_inside_the_target_sees_it_unless_it_stands_in_an_obstacle():
    assert visible_point((0, mm(100)), TARGET) == (0, mm(100))
    assert not can_see((0, mm(100)), TARGET, [Polygon(((0, mm(100)), (mm(1), mm(101)), (0, mm(102))))])


def test_round_shapes_and_a_misplaced_arc_are_refused():
    with pytest.raises(TypeError):
        visible_point(PEG, Circle((0, 100), 10))
    with pytest.raises(ValueError):
        visible_point(PEG, TARGET, [], Sector(Pose(1, 0, 0), 3500))


def _check_witness(origin, target, obstacles, sector, witness):
    """Scale the picture by the witness's denominator and check it exactly with the integer predicates."""
    scale = lcm(witness[0].denominator, witness[1].denominator)
    q = (int(witness[0] * scale), int(witness[1] * scale))
    o = (origin[0] * scale, origin[1] * scale)
    assert contains(_scaled(target, scale), q)
    ruler = Segment(o, q)
    assert not any(overlaps(ruler, _scaled(obstacle, scale)) for obstacle in obstacles)
    if sector is not None:
        apex = sector.apex
        scaled_sector = Sector(
            Pose(apex.x * scale, apex.y * scale, apex.heading),
            sector.half_angle,
            None if sector.radius is None else sector.radius * scale,
        )
        assert point_in_sector(q, scaled_sector)


def _scaled(shape, factor):
    return Polygon(tuple((x * factor, y * factor) for x, y in shape.corners()))


coordinate = st.integers(-15_000, 15_000)
bases = st.builds(
    OrientedRect,
    st.builds(Pose, coordinate, coordinate, headings),
    st.integers(200, 6000),
    st.integers(200, 6000),
)


@settings(max_examples=80)
@given(
    bases,
    st.lists(bases, max_size=4),
    headings,
    st.integers(0, 9000),
    st.one_of(st.none(), st.integers(0, 25_000)),
    st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), max_size=20),
)
def test_visible_point_is_sound_and_finds_any_sampled_clear_line(
    target, obstacles, heading, half, reach, weights
):
    """A returned point is in the target, in the arc, with a clear ruler (checked exactly); and if any
    sampled point of the target has a clear ruler in the arc, a point is returned."""
    origin = (0, 0)
    obstacles = [o for o in obstacles if not contains(o, origin) and not overlaps(o, target)]
    sector = Sector(Pose(0, 0, heading), half, reach)
    witness = visible_point(origin, target, obstacles, sector)
    if witness is not None:
        _check_witness(origin, target, obstacles, sector, witness)
        return
    corners = target.corners()
    samples = list(corners)
    for a, b in weights:
        p, q = corners[a % 4], corners[b % 4]
        samples.append(((p[0] + q[0]) // 2, (p[1] + q[1]) // 2))
    for sample in samples:
        if not contains(target, sample) or not point_in_sector(sample, sector):
            continue
        assert any(overlaps(Segment(origin, sample), o) for o in obstacles), sample


@settings(max_examples=80)
@given(
    bases,
    st.lists(bases, min_size=1, max_size=3),
    st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), max_size=20),
)
def test_obstacles_overlapping_the_target_still_leave_their_uncovered_part_visible(
    target, obstacles, weights
):
    """Obstacles may cover part of the target (its edges cross theirs): crossing points are critical too."""
    origin = (0, 0)
    obstacles = [o for o in obstacles if not contains(o, origin)]
    witness = visible_point(origin, target, obstacles)
    if witness is not None:
        _check_witness(origin, target, obstacles, None, witness)
        return
    corners = target.corners()
    for a, b in [*weights, (0, 0), (1, 1), (2, 2), (3, 3)]:
        p, q = corners[a % 4], corners[b % 4]
        sample = ((p[0] + q[0]) // 2, (p[1] + q[1]) // 2)
        if contains(target, sample):
            assert any(overlaps(Segment(origin, sample), o) for o in obstacles), sample
