"""Fire arcs: is a point, a piece's centre, or any point of a base within a sector?

A :class:`~aero_events.table.shapes.Sector` with apex pose ``P``, ``half_angle`` ``a`` and optional
``radius`` ``R`` holds the points whose bearing from ``P`` is within ``a`` of ``P.heading`` (and
whose distance from ``P`` is at most ``R``). The two boundary rays point along the table directions
``heading - a`` and ``heading + a`` (``trig.direction``), and every test is an exact sign of integer
cross and dot products against those integer direction vectors.

**Boundary rule.** With ``inclusive=True`` (the default) a point exactly on a boundary ray or at
exactly range ``R`` is inside, so a point on the line between two adjacent arcs is in both (as on
the hex grid, ``hexgrid.arcs``); the apex itself is inside. With ``inclusive=False`` only points
strictly inside count: boundary rays, the arc at range ``R`` and the apex are outside. ``half_angle``
18000 is all round (every point, except the apex when not inclusive); ``half_angle`` 0 is the ray
straight ahead (empty when not inclusive). Half-angles above 90 degrees (a turret's 360 minus the
front cone) are the complement of the opposite, narrower sector with the boundary rule mirrored.

"Any point of a shape" (WoG: the ruler may reach any point of the enemy base within the cone,
WINGS-OF-GLORY spec, Firing) is the closed test: a base touching the cone's edge is in the arc.
"""

from __future__ import annotations

from itertools import pairwise

from aero_events.table.measure import point_in_polygon, point_segment_squared, segments_intersect, surd_sign
from aero_events.table.pose import Point
from aero_events.table.shapes import Circle, Sector, Shape, centre, core
from aero_events.table.trig import COS, SIN
from aero_events.table.units import FULL_TURN, HALF_TURN, QUARTER_TURN


def _in_cone(vx: int, vy: int, heading: int, half: int, strict: bool) -> bool:
    """Whether vector ``(vx, vy)`` lies in the cone of ``half`` about ``heading`` (exact)."""
    if half >= HALF_TURN:
        return not strict or vx != 0 or vy != 0
    if half > QUARTER_TURN:
        return not _in_cone(vx, vy, (heading + HALF_TURN) % FULL_TURN, HALF_TURN - half, not strict)
    left = (heading - half) % FULL_TURN
    right = (heading + half) % FULL_TURN
    left_side = SIN[left] * vy - COS[left] * vx  # cross(left ray, v): <= 0 when v is clockwise of it
    right_side = SIN[right] * vy - COS[right] * vx  # cross(right ray, v): >= 0 when anticlockwise of it
    if strict:
        return left_side < 0 < right_side
    if left_side > 0 or right_side < 0:
        return False
    if half == 0:
        return SIN[heading] * vx + COS[heading] * vy >= 0
    return True


def point_in_sector(point: Point, sector: Sector, inclusive: bool = True) -> bool:
    """Whether ``point`` is in ``sector`` under the boundary rule above."""
    apex = sector.apex
    vx = point[0] - apex.x
    vy = point[1] - apex.y
    radius = sector.radius
    if radius is not None:
        d2 = vx * vx + vy * vy
        r2 = radius * radius
        if d2 > r2 or (not inclusive and d2 == r2):
            return False
    half = sector.half_angle
    if half == 0 or half > QUARTER_TURN:
        return _in_cone(vx, vy, apex.heading, half, not inclusive)
    heading = apex.heading  # inlined _in_cone for the common narrow arcs: this is the hot path
    left = heading - half
    if left < 0:
        left += FULL_TURN
    right = heading + half
    if right >= FULL_TURN:
        right -= FULL_TURN
    left_side = SIN[left] * vy - COS[left] * vx
    right_side = SIN[right] * vy - COS[right] * vx
    if inclusive:
        return left_side <= 0 <= right_side
    return left_side < 0 < right_side


def centre_in_sector(shape: Shape | Point, sector: Sector, inclusive: bool = True) -> bool:
    """Whether ``shape``'s centre (``shapes.centre``) is in ``sector``: BFG measures arcs from the stem."""
    return point_in_sector(centre(shape), sector, inclusive)


def _boundary_rays(sector: Sector) -> tuple[tuple[int, int], ...]:
    heading = sector.apex.heading
    half = sector.half_angle
    left = (heading - half) % FULL_TURN
    right = (heading + half) % FULL_TURN
    if left == right:
        return ((SIN[left], COS[left]),)
    return (SIN[left], COS[left]), (SIN[right], COS[right])


def _circle_meets_sector(circle: Circle, sector: Sector) -> bool:
    """Some point of the closed disc lies in the closed sector.

    If the centre is in the cone, the segment from the apex to the centre stays in the cone, so the
    disc meets the sector exactly when it reaches within ``R`` of the apex. Otherwise the lens (disc
    within ``R`` of the apex) is connected and starts outside the cone, so it meets the sector
    exactly when it meets one of the two boundary rays, which is solved exactly below.
    """
    apex = sector.apex
    cx, cy = circle.centre
    rho = circle.radius
    vx = cx - apex.x
    vy = cy - apex.y
    reach = sector.radius
    v2 = vx * vx + vy * vy
    if _in_cone(vx, vy, apex.heading, sector.half_angle, False):
        return reach is None or v2 <= (reach + rho) * (reach + rho)
    rho2 = rho * rho
    for ux, uy in _boundary_rays(sector):
        n = ux * ux + uy * uy
        along = vx * ux + vy * uy  # |u| times the centre's projection on the ray
        across = ux * vy - uy * vx  # |u| times its distance from the ray's line
        if across * across > rho2 * n:
            continue  # the disc misses the whole line
        if along < 0 and v2 > rho2:
            continue  # the chord lies behind the apex
        if reach is None or along <= 0 or along * along <= reach * reach * n:
            return True  # the projection is within reach (or the apex is in the disc)
        excess = v2 + reach * reach - rho2
        if excess <= 0 or 4 * reach * reach * along * along >= excess * excess * n:
            return True  # the near end of the chord is within reach
    return False


def any_point_in_sector(shape: Shape | Point, sector: Sector) -> bool:
    """Whether some point of ``shape`` (edge included) lies in the closed ``sector``.

    WoG Firing: "from the peg the ruler reaches any point of the enemy base inside the firing cone".
    Exact for every shape: points, circles, rectangles, polygons, segments and swept capsules.
    """
    if type(shape) is Circle:
        return _circle_meets_sector(shape, sector)
    filled, points, radius = core(shape)
    if radius:
        if len(points) == 1:
            return _circle_meets_sector(Circle(points[0], radius), sector)
        return _capsule_meets_sector(points, radius, sector)
    return _polygonal_meets_sector(filled, points, sector, sector.radius)


def _capsule_meets_sector(path: tuple[Point, ...], rho: int, sector: Sector) -> bool:
    """A round base swept along ``path`` meets the sector: the closest pair of points is a path point
    and the sector (its disc), a leg point in the cone within range + rho, the apex, or an arc end."""
    if any(_circle_meets_sector(Circle(p, rho), sector) for p in path):
        return True
    reach = None if sector.radius is None else sector.radius + rho
    if _polygonal_meets_sector(False, path, sector, reach):
        return True
    apex = sector.apex
    a = (apex.x, apex.y)
    legs = _chain(path)
    rho2 = rho * rho
    for p, q in legs:
        n, d = point_segment_squared(a, p, q)
        if n <= rho2 * d:
            return True
    if sector.radius is None or sector.half_angle >= HALF_TURN:
        return False
    return any(_arc_end_near(a, u, sector.radius, p, q, rho) for u in _boundary_rays(sector) for p, q in legs)


def _arc_end_near(a: Point, u: tuple[int, int], reach: int, p: Point, q: Point, rho: int) -> bool:
    """Whether ``E = a + reach * u / |u|`` (irrational) lies within ``rho`` of segment ``p-q``, exactly."""
    n = u[0] * u[0] + u[1] * u[1]
    rho2 = rho * rho
    for end in (p, q):
        wx, wy = a[0] - end[0], a[1] - end[1]
        if (
            surd_sign(n * (rho2 - wx * wx - wy * wy - reach * reach), -2 * reach * (wx * u[0] + wy * u[1]), n)
            >= 0
        ):
            return True
    ex, ey = q[0] - p[0], q[1] - p[1]
    length2 = ex * ex + ey * ey
    if length2 == 0:
        return False
    wx, wy = a[0] - p[0], a[1] - p[1]
    along_w = ex * wx + ey * wy
    along_u = reach * (ex * u[0] + ey * u[1])
    if surd_sign(along_u, along_w, n) < 0 or surd_sign(-along_u, length2 - along_w, n) < 0:
        return False
    across_w = ex * wy - ey * wx
    across_u = reach * (ex * u[1] - ey * u[0])
    return (
        surd_sign(
            across_w * across_w * n + across_u * across_u - rho2 * length2 * n, 2 * across_w * across_u, n
        )
        <= 0
    )


def _polygonal_meets_sector(
    filled: bool, points: tuple[Point, ...], sector: Sector, reach: int | None
) -> bool:
    """Some point of the polygon (or polyline) lies in the sector's cone within ``reach`` of the apex."""
    apex = sector.apex
    a = (apex.x, apex.y)
    heading = apex.heading
    half = sector.half_angle
    reach2 = None if reach is None else reach * reach
    # the apex in the shape: distance 0
    if filled:
        if point_in_polygon(a, points) >= 0:
            return True
    elif any(segments_intersect(p, q, a, a) for p, q in _chain(points)):
        return True
    for p in points:  # a corner in the cone
        vx = p[0] - a[0]
        vy = p[1] - a[1]
        if _in_cone(vx, vy, heading, half, False) and (reach2 is None or vx * vx + vy * vy <= reach2):
            return True
    edges = _ring(points) if filled else _chain(points)
    rays = _boundary_rays(sector) if half < HALF_TURN else ()
    for p, q in edges:
        ex = q[0] - p[0]
        ey = q[1] - p[1]
        wx = a[0] - p[0]
        wy = a[1] - p[1]
        length2 = ex * ex + ey * ey
        along = wx * ex + wy * ey
        if 0 < along < length2:  # the foot of the perpendicular from the apex, if it lies in the cone
            fx = -wx * length2 + along * ex
            fy = -wy * length2 + along * ey
            across = wx * ey - wy * ex
            if _in_cone(fx, fy, heading, half, False) and (
                reach2 is None or across * across <= reach2 * length2
            ):
                return True
        for ux, uy in rays:  # where the edge crosses a boundary ray
            denominator = ux * ey - uy * ex
            if denominator == 0:
                continue  # parallel; a collinear edge has a corner on the ray, tested above
            s_num = -wx * ey + wy * ex  # cross(p - a, e)
            t_num = -wx * uy + wy * ux  # cross(p - a, u)
            if denominator < 0:
                denominator, s_num, t_num = -denominator, -s_num, -t_num
            if s_num < 0 or t_num < 0 or t_num > denominator:
                continue
            if reach2 is None or s_num * s_num * (ux * ux + uy * uy) <= reach2 * denominator * denominator:
                return True
    return False


def wholly_in_sector(shape: Shape | Point, sector: Sector) -> bool:
    """Whether every point of ``shape`` lies in the closed ``sector`` (half-angle at most 90 degrees).

    Such a sector is convex, so a polygon is inside when all its corners are; a circle when its
    centre is and it clears both boundary lines and the range.
    """
    if sector.half_angle > QUARTER_TURN:
        raise ValueError("wholly_in_sector needs a convex sector: half-angle at most 9000 centidegrees")
    _, points, radius = core(shape)
    if radius == 0:
        return all(point_in_sector(p, sector) for p in points)
    if len(points) != 1:
        raise TypeError("a swept capsule in a sector is not supported; test its end circles and legs")
    apex = sector.apex
    vx = points[0][0] - apex.x
    vy = points[0][1] - apex.y
    if not _in_cone(vx, vy, apex.heading, sector.half_angle, False):
        return False
    if sector.radius is not None:
        if radius > sector.radius:
            return False
        limit = sector.radius - radius
        if vx * vx + vy * vy > limit * limit:
            return False
    heading = apex.heading
    half = sector.half_angle
    for bearing, sign in (((heading - half) % FULL_TURN, -1), ((heading + half) % FULL_TURN, 1)):
        ux, uy = SIN[bearing], COS[bearing]
        across = sign * (ux * vy - uy * vx)  # >= 0 on the inner side of this boundary line
        if across < 0 or across * across < radius * radius * (ux * ux + uy * uy):
            return False
    return True


def _ring(points: tuple[Point, ...]) -> list[tuple[Point, Point]]:
    return list(zip(points, points[1:] + points[:1], strict=True))


def _chain(points: tuple[Point, ...]) -> list[tuple[Point, Point]]:
    if len(points) == 1:
        return [(points[0], points[0])]
    return list(pairwise(points))
