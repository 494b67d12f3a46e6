"""Fire arcs: exact sector tests, the documented boundary rule, shapes in arcs, rigid-motion invariance."""

import math
from fractions import Fraction
from itertools import pairwise

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from aero_events.table import (
    Capsule,
    Circle,
    OrientedRect,
    Polygon,
    Pose,
    Sector,
    Segment,
    any_point_in_sector,
    centre_in_sector,
    contains,
    convex_hull,
    direction,
    mm,
    point_in_sector,
    wholly_in_sector,
)
from aero_events.table.shapes import corners
from tests.table.strategies import (
    areas,
    convex_polygons,
    headings,
    moved,
    near,
    points,
    poses,
    rects,
    right_angle_motions,
    sectors,
)

polygons = convex_polygons()

NORTH = Pose(0, 0, 0)
WOG_FRONT = Sector(NORTH, 3500, mm(200))  # +-35 degrees, one ruler (WINGS-OF-GLORY-DATA section 1)
BFG_QUADRANTS = {  # the bearing compass: four 90-degree quadrants about the ship's axis
    "front": Sector.about(NORTH, 0, 4500),
    "right": Sector.about(NORTH, 9000, 4500),
    "rear": Sector.about(NORTH, 18000, 4500),
    "left": Sector.about(NORTH, 27000, 4500),
}


def float_bearing(apex: Pose, point) -> float:
    b = math.degrees(math.atan2(point[0] - apex.x, point[1] - apex.y)) - apex.heading / 100
    return (b + 180) % 360 - 180


def test_wog_front_cone_is_plus_minus_35_degrees_out_to_one_ruler():
    assert point_in_sector((0, mm(100)), WOG_FRONT)
    assert point_in_sector((mm(50), mm(100)), WOG_FRONT)  # 26.6 degrees right
    assert not point_in_sector((mm(80), mm(100)), WOG_FRONT)  # 38.7 degrees right
    assert not point_in_sector((0, mm(201)), WOG_FRONT)  # beyond the ruler
    assert point_in_sector((0, mm(200)), WOG_FRONT)  # exactly one ruler: inside
    assert not point_in_sector((0, mm(200)), WOG_FRONT, inclusive=False)
    assert not point_in_sector((0, -100), WOG_FRONT)


def test_a_point_on_the_line_between_two_quadrants_is_in_both_unless_strict():
    """Boundary rule: on a boundary ray counts as inside both neighbouring arcs (inclusive)."""
    diagonal = (1000, 1000)
    inside = {name for name, arc in BFG_QUADRANTS.items() if point_in_sector(diagonal, arc)}
    assert inside == {"front", "right"}
    assert not any(point_in_sector(diagonal, arc, inclusive=False) for arc in BFG_QUADRANTS.values())
    assert {name for name, arc in BFG_QUADRANTS.items() if point_in_sector((1000, 999), arc)} == {"right"}


def test_the_apex_is_inside_only_when_inclusive():
    assert point_in_sector((0, 0), WOG_FRONT)
    assert not point_in_sector((0, 0), WOG_FRONT, inclusive=False)


def test_half_angle_zero_is_the_ray_ahead_and_180_is_all_round():
    ray = Sector(NORTH, 0)
    assert point_in_sector((0, 5), ray) and not point_in_sector((0, -5), ray)
    assert not point_in_sector((1, 5), ray) and not point_in_sector((0, 5), ray, inclusive=False)
    everywhere = Sector(NORTH, 18000)
    assert point_in_sector((0, -5), everywhere) and point_in_sector((0, -5), everywhere, inclusive=False)


def test_a_turret_covers_all_round_except_the_front_cone():
    """WINGS-OF-GLORY-DATA: turret = 360 minus the front cone: half-angle 145 about the tail."""
    turret = Sector.about(NORTH, 18000, 14500)
    assert point_in_sector((0, -100), turret)
    assert point_in_sector((100, 0), turret)
    assert not point_in_sector((0, 100), turret)
    boundary = direction(3500)  # exactly on the front cone's right edge
    assert point_in_sector(boundary, turret)
    assert point_in_sector(boundary, Sector(NORTH, 3500))


def test_any_point_of_the_target_base_counts_for_wog_fire():
    """WoG Firing: the ruler reaches any point of the enemy base inside the cone."""
    beside = OrientedRect(Pose(mm(75), mm(100), 0), mm(44), mm(67))  # centre at 36.9 deg, near corner in
    assert not centre_in_sector(beside, WOG_FRONT)
    assert any_point_in_sector(beside, WOG_FRONT)
    assert not wholly_in_sector(beside, WOG_FRONT)
    far_side = OrientedRect(Pose(mm(150), mm(100), 0), mm(44), mm(67))
    assert not any_point_in_sector(far_side, WOG_FRONT)
    out_of_range = OrientedRect(Pose(0, mm(240), 0), mm(44), mm(67))  # rear edge at 206.5 mm
    assert not any_point_in_sector(out_of_range, WOG_FRONT)
    in_range = OrientedRect(Pose(0, mm(230), 0), mm(44), mm(67))  # rear edge at 196.5 mm
    assert any_point_in_sector(in_range, WOG_FRONT)


def test_a_base_straddling_the_cone_with_no_corner_inside_is_still_hit():
    """A long target across both cone edges, all corners outside: the edges cross the cone."""
    across = OrientedRect(Pose(0, mm(100), 9000), mm(10), mm(400))
    assert all(not point_in_sector(p, WOG_FRONT) for p in across.corners())
    assert any_point_in_sector(across, WOG_FRONT)


def test_a_target_enclosing_the_firer_is_in_every_arc():
    big = Circle((0, 0), mm(100))
    assert any_point_in_sector(big, BFG_QUADRANTS["rear"])
    assert any_point_in_sector(OrientedRect(Pose(0, 0, 0), 100, 100), BFG_QUADRANTS["rear"])


def test_round_bases_in_an_arc():
    assert any_point_in_sector(Circle((3000, 0), 2500), WOG_FRONT)  # crosses the right edge (24.6 mm away)
    assert not any_point_in_sector(Circle((3000, 0), 2400), WOG_FRONT)
    assert any_point_in_sector(Circle((0, mm(210)), mm(10)), WOG_FRONT)  # touches the range arc
    assert not any_point_in_sector(Circle((0, mm(211)), mm(10)), WOG_FRONT)
    assert wholly_in_sector(Circle((0, mm(100)), mm(10)), WOG_FRONT)
    assert not wholly_in_sector(Circle((0, mm(195)), mm(10)), WOG_FRONT)
    assert any_point_in_sector(Segment((-5000, 5000), (5000, 5000)), WOG_FRONT)


def test_a_swept_base_crossing_the_arc_is_in_it():
    """A round base swept across the front of the cone meets it though both ends are outside."""
    across = Capsule(((-mm(100), mm(100)), (mm(100), mm(100))), mm(5))
    assert any_point_in_sector(across, WOG_FRONT)
    beyond = Capsule(((-mm(100), mm(250)), (mm(100), mm(250))), mm(5))
    assert not any_point_in_sector(beyond, WOG_FRONT)
    grazing_the_arc_end = Capsule(
        ((mm(115), mm(150)), (mm(115), mm(180))), mm(2)
    )  # arc end at (114.7, 163.8)
    assert any_point_in_sector(grazing_the_arc_end, WOG_FRONT)
    assert not any_point_in_sector(Capsule(((mm(118), mm(150)), (mm(118), mm(180))), mm(2)), WOG_FRONT)


def test_wholly_in_sector_refuses_capsules_and_wide_arcs():
    with pytest.raises(TypeError):
        wholly_in_sector(Capsule(((0, 0), (10, 10)), 5), WOG_FRONT)
    with pytest.raises(ValueError):
        wholly_in_sector((0, 5), Sector(NORTH, 9100))


@given(poses, headings, st.integers(1, 10_000))
def test_a_point_exactly_on_a_boundary_ray_is_inside_only_when_inclusive(apex, half, scale):
    """The boundary rays are the table directions; the lattice point apex + direction lies on one."""
    half = half % 18_000
    assume(0 < half)
    sector = Sector(apex, half)
    dx, dy = direction(apex.heading + half)
    on_edge = (apex.x + dx, apex.y + dy)
    assert point_in_sector(on_edge, sector)
    assert not point_in_sector(on_edge, sector, inclusive=False)
    neighbour = Sector(apex.turned(2 * half % 36000), half)  # shares that boundary ray
    assert point_in_sector(on_edge, neighbour)


@given(points)
def test_the_four_quadrants_cover_the_compass_once_each_off_the_diagonals(p):
    assume(p != (0, 0))
    inclusive = [name for name, arc in BFG_QUADRANTS.items() if point_in_sector(p, arc)]
    strict = [name for name, arc in BFG_QUADRANTS.items() if point_in_sector(p, arc, inclusive=False)]
    on_diagonal = abs(p[0]) == abs(p[1])
    assert len(inclusive) == (2 if on_diagonal else 1)
    assert len(strict) == (0 if on_diagonal else 1)


@given(poses, st.integers(0, 18_000), points)
def test_point_in_sector_agrees_with_the_float_bearing_away_from_the_boundary(apex, half, p):
    assume(p != (apex.x, apex.y))
    b = abs(float_bearing(apex, p))
    assume(abs(b - half / 100) > 1e-4)
    assert point_in_sector(p, Sector(apex, half)) == (b < half / 100)


@given(sectors, points, right_angle_motions)
def test_right_angle_motions_keep_point_in_sector_exactly(sector, p, motion):
    moved_sector = moved(sector, motion)
    for inclusive in (True, False):
        assert point_in_sector(motion.apply(p), moved_sector, inclusive) == point_in_sector(
            p, sector, inclusive
        )


@given(sectors, areas, right_angle_motions)
def test_right_angle_motions_keep_shapes_in_sectors_exactly(sector, shape, motion):
    assert any_point_in_sector(moved(shape, motion), moved(sector, motion)) == any_point_in_sector(
        shape, sector
    )


@given(sectors, areas, st.lists(st.tuples(st.integers(0, 100), st.integers(0, 100)), min_size=1, max_size=30))
def test_any_point_agrees_with_sampled_points_of_the_shape(sector, shape, weights):
    """Sample points inside the shape: one in the sector means any_point is True; wholly means all are."""
    samples = _samples(shape, weights)
    hit = any(point_in_sector(s, sector) for s in samples)
    if hit:
        assert any_point_in_sector(shape, sector)
    if sector.half_angle <= 9000 and wholly_in_sector(shape, sector):
        assert all(point_in_sector(s, sector) for s in samples)


def _samples(shape, weights):
    """Integer points of ``shape``: corners, centre-ward blends, and for circles points on radii."""
    if isinstance(shape, Circle):
        (cx, cy), r = shape.centre, shape.radius
        found = []
        for a, b in weights:
            dx, dy = direction(a * 360)
            found.append((cx + dx * r * b // (100 << 30), cy + dy * r * b // (100 << 30)))
        return [p for p in found if contains(shape, p)]
    pts = corners(shape)
    found = list(pts)
    for a, b in weights:
        p = pts[a % len(pts)]
        q = pts[b % len(pts)]
        found.append(((p[0] + q[0]) // 2, (p[1] + q[1]) // 2))
    return [p for p in found if contains(shape, p)]


def _clip(polygon, a, b, c):
    """Sutherland-Hodgman: keep the part of ``polygon`` (Fraction points) where a x + b y + c <= 0."""
    kept = []
    for i, p in enumerate(polygon):
        q = polygon[(i + 1) % len(polygon)]
        fp = a * p[0] + b * p[1] + c
        fq = a * q[0] + b * q[1] + c
        if fp <= 0:
            kept.append(p)
        if (fp < 0 < fq) or (fq < 0 < fp):
            t = Fraction(fp, fp - fq)
            kept.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return kept


def _reference_any_point(polygon_points, sector):
    """Independent exact answer for a convex polygon and a convex sector, by clipping with Fractions."""
    apex = sector.apex
    pts = [(Fraction(x - apex.x), Fraction(y - apex.y)) for x, y in polygon_points]
    half = sector.half_angle
    lx, ly = direction(apex.heading - half)
    rx, ry = direction(apex.heading + half)
    pts = _clip(pts, -ly, lx, 0)  # cross(left, v) = lx vy - ly vx <= 0
    if pts:
        pts = _clip(pts, ry, -rx, 0)  # cross(right, v) >= 0
    if pts and half == 0:
        ux, uy = direction(apex.heading)
        pts = _clip(pts, -ux, -uy, 0)  # ahead of the apex
    if not pts:
        return False
    if sector.radius is None:
        return True
    nearest = _squared_distance_to_origin(pts)
    return nearest <= sector.radius**2


def _squared_distance_to_origin(pts):
    best = min(x * x + y * y for x, y in pts)
    n = len(pts)
    if n >= 3:
        signs = set()
        for i in range(n):
            (ax, ay), (bx, by) = pts[i], pts[(i + 1) % n]
            cross = ax * by - ay * bx
            if cross:
                signs.add(cross > 0)
        if len(signs) <= 1:
            return Fraction(0)  # the origin is inside or on the boundary
    for i in range(n):
        (ax, ay), (bx, by) = pts[i], pts[(i + 1) % n]
        ex, ey = bx - ax, by - ay
        length2 = ex * ex + ey * ey
        if length2 == 0:
            continue
        t = -(ax * ex + ay * ey) / length2
        if 0 < t < 1:
            fx, fy = ax + t * ex, ay + t * ey
            best = min(best, fx * fx + fy * fy)
    return best


@given(poses, st.integers(0, 9000), st.one_of(st.none(), st.integers(0, 300_000)), st.one_of(rects, polygons))
def test_any_point_in_sector_matches_exact_clipping_for_convex_sectors(apex, half, radius, shape):
    sector = Sector(apex, half, radius)
    assert any_point_in_sector(shape, sector) == _reference_any_point(corners(shape), sector)


@st.composite
def _close_polygons(draw):
    pts = draw(st.lists(st.tuples(near, near), min_size=3, max_size=6))
    hull = convex_hull(pts)
    assume(len(hull) >= 3)
    return hull


@settings(max_examples=120)
@given(
    st.builds(Pose, near, near, headings),
    st.integers(0, 9000),
    st.one_of(st.none(), st.integers(0, 30_000)),
    _close_polygons(),
)
def test_any_point_in_sector_matches_clipping_for_shapes_around_the_apex(apex, half, radius, points_):
    sector = Sector(apex, half, radius)
    assert any_point_in_sector(Polygon(points_), sector) == _reference_any_point(points_, sector)


def _float_distance_to_sector(p, sector):
    """Float distance from ``p`` to a closed convex sector (half-angle <= 90 degrees)."""
    apex = sector.apex
    vx, vy = p[0] - apex.x, p[1] - apex.y
    length = math.hypot(vx, vy)
    reach = math.inf if sector.radius is None else sector.radius
    bearing = abs(float_bearing(apex, p)) if length else 0.0
    if bearing <= sector.half_angle / 100:
        return max(0.0, length - reach)
    best = math.inf
    for edge in (apex.heading - sector.half_angle, apex.heading + sector.half_angle):
        ux, uy = math.sin(math.radians(edge / 100)), math.cos(math.radians(edge / 100))
        s = min(max(vx * ux + vy * uy, 0.0), reach)
        best = min(best, math.hypot(vx - s * ux, vy - s * uy))
    return best


@settings(max_examples=200)
@given(
    st.builds(Pose, near, near, headings),
    st.integers(0, 9000),
    st.one_of(st.none(), st.integers(0, 30_000)),
    st.builds(Circle, st.tuples(near, near), st.integers(0, 10_000)),
)
def test_round_bases_in_arcs_match_the_float_distance_away_from_ties(apex, half, radius, circle):
    sector = Sector(apex, half, radius)
    gap_ = _float_distance_to_sector(circle.centre, sector) - circle.radius
    assume(abs(gap_) > 1e-3)
    assert any_point_in_sector(circle, sector) == (gap_ < 0)


@settings(max_examples=120)
@given(st.builds(Pose, near, near, headings), st.integers(9001, 18_000), _close_polygons())
def test_wide_arcs_miss_a_polygon_only_when_it_lies_strictly_inside_the_opposite_narrow_arc(
    apex, half, points_
):
    """A half-angle above 90 degrees is the complement of the open opposite arc of half 180 - half."""
    opposite = Sector(apex.turned(18_000), 18_000 - half)
    hidden = all(point_in_sector(p, opposite, inclusive=False) for p in points_)
    assert any_point_in_sector(Polygon(points_), Sector(apex, half)) == (not hidden)


@settings(max_examples=120)
@given(
    st.builds(Pose, near, near, headings),
    st.integers(0, 18_000),
    st.one_of(st.none(), st.integers(0, 30_000)),
    st.lists(st.tuples(near, near), min_size=2, max_size=3),
    st.integers(0, 8000),
)
def test_swept_bases_in_arcs_match_the_sampled_float_distance_away_from_ties(apex, half, radius, path, rho):
    """Distance from the path to the sector, sampled densely along each leg, against the base's radius."""
    sector = Sector(apex, half, radius)
    samples = 500
    nearest = math.inf
    slack = 0.0
    for (px, py), (qx, qy) in pairwise(path):
        slack = max(slack, math.hypot(qx - px, qy - py) / (2 * samples))
        for k in range(samples + 1):
            point = (px + (qx - px) * k / samples, py + (qy - py) * k / samples)
            nearest = min(nearest, _float_distance_to_sector(point, sector))
    assume(abs(nearest - rho) > slack + 1e-3)
    assert any_point_in_sector(Capsule(tuple(path), rho), sector) == (nearest < rho)
