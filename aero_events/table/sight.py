"""Can a ruler laid from a point reach some point of a target without touching an obstacle?

Wings of Glory, Firing/Targeting (spec: "from the peg the ruler reaches any point of the enemy base
inside the firing cone ... other bases block if no point of the target base can be reached without
the ruler's edge crossing another base"). The ruler is a line (width 0, WINGS-OF-GLORY-DATA: engine
default). :func:`visible_point` answers exactly for polygonal shapes (rectangles, polygons, segments,
points); round shapes are refused.

Method (exact integer and rational arithmetic): every direction from the origin in which the
answer can change is *critical*: towards a corner of the target or of an obstacle, towards a point
where a target edge meets an obstacle edge, along the sector's two boundary rays, and the four axes.
Between two neighbouring critical directions the nearest target edge and the nearest obstacle edge
along the ray do not change, so one ray strictly between them (their integer vector sum) decides
the whole open interval; each critical direction is also tried on its own. Along a ray the target
is reached if its first point comes strictly before the first point of every obstacle (an obstacle
touching the ruler blocks: shapes are closed). With a range, the interval's nearest target point is
used (the distance to the reached edge is convex along it): a point strictly inside the interval
within range is returned, so the answer is exact at the range too.

Obstacles that overlap the firer or the target ("overlapping planes don't block") are the caller's
to leave out.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cmp_to_key
from itertools import pairwise

from aero_events.table.measure import point_in_polygon, segments_intersect
from aero_events.table.pose import Point
from aero_events.table.sectors import _in_cone as cone_test
from aero_events.table.shapes import Sector, Shape, core
from aero_events.table.trig import COS, SIN
from aero_events.table.units import FULL_TURN, HALF_TURN

RationalPoint = tuple[Fraction, Fraction]
_Ratio = tuple[int, int]  # numerator, denominator > 0: a distance along a ray in units of the ray vector


def _polygonal(shape: Shape | Point) -> tuple[bool, tuple[Point, ...]]:
    filled, points, radius = core(shape)
    if radius:
        raise TypeError(
            "visible_point handles polygonal shapes only (rectangles, polygons, segments, points)"
        )
    return filled, points


def _edges(filled: bool, points: tuple[Point, ...]) -> list[tuple[Point, Point]]:
    if filled:
        return list(zip(points, points[1:] + points[:1], strict=True))
    if len(points) == 1:
        return [(points[0], points[0])]
    return list(pairwise(points))


def _first_hit(origin: Point, d: Point, filled: bool, points: tuple[Point, ...]) -> tuple[_Ratio, int] | None:
    """The smallest ``s >= 0`` with ``origin + s d`` in the shape, as ``((num, den), edge index)``."""
    ox, oy = origin
    dx, dy = d
    if filled and point_in_polygon(origin, points) >= 0:
        return (0, 1), -1
    best: tuple[_Ratio, int] | None = None
    for index, (p, q) in enumerate(_edges(filled, points)):
        ex = q[0] - p[0]
        ey = q[1] - p[1]
        wx = p[0] - ox
        wy = p[1] - oy
        denominator = dx * ey - dy * ex
        if denominator == 0:
            if wx * dy - wy * dx != 0:
                continue  # parallel, off the ray's line
            d2 = dx * dx + dy * dy
            along = sorted((wx * dx + wy * dy, (q[0] - ox) * dx + (q[1] - oy) * dy))
            if along[1] < 0:
                continue
            hit = (max(along[0], 0), d2)
        else:
            s_num = wx * ey - wy * ex
            t_num = wx * dy - wy * dx
            if denominator < 0:
                denominator, s_num, t_num = -denominator, -s_num, -t_num
            if s_num < 0 or t_num < 0 or t_num > denominator:
                continue
            hit = (s_num, denominator)
        if best is None or hit[0] * best[0][1] < best[0][0] * hit[1]:
            best = (hit, index)
    return best


def _half(v: Point) -> int:
    return 0 if v[1] > 0 or (v[1] == 0 and v[0] > 0) else 1


def _angle_order(a: Point, b: Point) -> int:
    """Anticlockwise order of directions starting from east, exact."""
    ha, hb = _half(a), _half(b)
    if ha != hb:
        return ha - hb
    cross = a[0] * b[1] - a[1] * b[0]
    return -1 if cross > 0 else (1 if cross < 0 else 0)


def _in_cone(v: Point, sector: Sector | None) -> bool:
    if sector is None:
        return True
    return cone_test(v[0], v[1], sector.apex.heading, sector.half_angle, False)


def _segment_crossings(first: list[tuple[Point, Point]], second: list[tuple[Point, Point]], origin: Point):
    """Direction vectors from ``origin`` to every point where an edge of ``first`` meets one of ``second``."""
    for p, q in first:
        for r, s in second:
            if not segments_intersect(p, q, r, s):
                continue
            ex, ey = q[0] - p[0], q[1] - p[1]
            fx, fy = s[0] - r[0], s[1] - r[1]
            denominator = ex * fy - ey * fx
            if denominator == 0:
                continue  # collinear overlap: its ends are corners, already critical
            t_num = (r[0] - p[0]) * fy - (r[1] - p[1]) * fx
            if denominator < 0:
                denominator, t_num = -denominator, -t_num
            yield (
                p[0] * denominator + t_num * ex - origin[0] * denominator,
                p[1] * denominator + t_num * ey - origin[1] * denominator,
            )


def visible_point(
    origin: Point,
    target: Shape | Point,
    obstacles: list[Shape | Point] | tuple[Shape | Point, ...] = (),
    sector: Sector | None = None,
) -> RationalPoint | None:
    """A point of ``target`` a ruler from ``origin`` reaches without touching an obstacle, or None.

    ``sector`` (whose apex must be at ``origin``) limits the directions and, with a radius, the reach.
    The point is exact (Fractions); draw it with ``float``.
    """
    if sector is not None and (sector.apex.x, sector.apex.y) != origin:
        raise ValueError("the sector's apex must be the ruler's origin")
    t_filled, t_points = _polygonal(target)
    blockers = [_polygonal(obstacle) for obstacle in obstacles]
    if (
        t_filled
        and point_in_polygon(origin, t_points) >= 0
        or (
            not t_filled and any(segments_intersect(p, q, origin, origin) for p, q in _edges(False, t_points))
        )
    ):
        blocked = any(_touches_origin(origin, f, pts) for f, pts in blockers)
        return None if blocked else (Fraction(origin[0]), Fraction(origin[1]))
    reach2 = None if sector is None or sector.radius is None else sector.radius * sector.radius

    directions: list[Point] = [(1, 0), (0, 1), (-1, 0), (0, -1)]
    target_edges = _edges(t_filled, t_points)
    for p in t_points:
        directions.append((p[0] - origin[0], p[1] - origin[1]))
    for filled, pts in blockers:
        directions.extend((p[0] - origin[0], p[1] - origin[1]) for p in pts)
        directions.extend(_segment_crossings(target_edges, _edges(filled, pts), origin))
    if sector is not None and sector.half_angle < HALF_TURN:
        for bearing in (sector.apex.heading - sector.half_angle, sector.apex.heading + sector.half_angle):
            bearing %= FULL_TURN
            directions.append((SIN[bearing], COS[bearing]))
    unique = sorted({d for d in directions if d != (0, 0)}, key=cmp_to_key(_angle_order))
    distinct: list[Point] = []
    for d in unique:
        if not distinct or _angle_order(distinct[-1], d) != 0:
            distinct.append(d)

    candidates: list[tuple[Point, Point | None, Point | None]] = []
    for index, d in enumerate(distinct):
        candidates.append((d, None, None))
        following = distinct[(index + 1) % len(distinct)]
        candidates.append(((d[0] + following[0], d[1] + following[1]), d, following))
    for d, left, right in candidates:
        if d == (0, 0) or not _in_cone(d, sector):
            continue
        hit = _first_hit(origin, d, t_filled, t_points)
        if hit is None:
            continue
        (s_num, s_den), edge = hit
        if any(_blocks(origin, d, s_num, s_den, filled, pts) for filled, pts in blockers):
            continue
        point = (
            Fraction(origin[0] * s_den + s_num * d[0], s_den),
            Fraction(origin[1] * s_den + s_num * d[1], s_den),
        )
        if reach2 is None or _squared_from(origin, point) <= reach2:
            return point
        if left is None or edge < 0:
            continue
        witness = _interval_witness(origin, target_edges[edge], left, right, reach2)
        if witness is not None:
            return witness
    return None


def _touches_origin(origin: Point, filled: bool, points: tuple[Point, ...]) -> bool:
    if filled:
        return point_in_polygon(origin, points) >= 0
    return any(segments_intersect(p, q, origin, origin) for p, q in _edges(False, points))


def _blocks(origin: Point, d: Point, s_num: int, s_den: int, filled: bool, points: tuple[Point, ...]) -> bool:
    """Whether the obstacle touches the ruler from ``origin`` to ``origin + (s_num / s_den) d``."""
    hit = _first_hit(origin, d, filled, points)
    if hit is None:
        return False
    (o_num, o_den), _ = hit
    return o_num * s_den <= s_num * o_den


def _squared_from(origin: Point, point: RationalPoint) -> Fraction:
    dx = point[0] - origin[0]
    dy = point[1] - origin[1]
    return dx * dx + dy * dy


def _interval_witness(origin: Point, edge: tuple[Point, Point], left: Point, right: Point, reach2: int):
    """A point of ``edge`` strictly between directions ``left`` and ``right`` within the reach, or None.

    The distance from the origin is convex along the edge: its minimum over the open interval is at
    the foot of the perpendicular (attained) or approached at one end, in which case the end must
    be strictly within reach and a point found by halving towards the other end is returned.
    """
    p, q = edge
    ends = []
    for d in (left, right):
        hit = _first_hit(origin, d, False, (p, q))
        if hit is None:
            return None
        (num, den), _ = hit
        ends.append(
            (Fraction(origin[0] * den + num * d[0], den), Fraction(origin[1] * den + num * d[1], den))
        )
    (ax, ay), (bx, by) = ends
    ex, ey = bx - ax, by - ay
    length2 = ex * ex + ey * ey
    if length2 == 0:
        return None
    t = ((origin[0] - ax) * ex + (origin[1] - ay) * ey) / length2
    if 0 < t < 1:
        foot = (ax + t * ex, ay + t * ey)
        return foot if _squared_from(origin, foot) <= reach2 else None
    near, far = (ends[0], ends[1]) if t <= 0 else (ends[1], ends[0])
    if _squared_from(origin, near) >= reach2:
        return None
    step = Fraction(1, 2)
    while True:
        point = (near[0] + step * (far[0] - near[0]), near[1] + step * (far[1] - near[1]))
        if _squared_from(origin, point) <= reach2:
            return point
        step /= 2


def can_see(
    origin: Point,
    target: Shape | Point,
    obstacles: list[Shape | Point] | tuple[Shape | Point, ...] = (),
    sector: Sector | None = None,
) -> bool:
    """Whether :func:`visible_point` finds a point: some line of fire to the target is clear."""
    return visible_point(origin, target, obstacles, sector) is not None
