"""Table geometry for Wings of Glory: bases, cards laid in front of them, cones, rulers over bases.

Most of it is the shared, deterministic :mod:`aero_events.table` (lengths in 1/100 mm, angles in 1/100
degree clockwise from north, sine from a committed integer table), re-exported here under the names the
ruleset uses: ``Pose`` and ``Transform`` (a card's move is ``pose.then(card.move)``), ``convex_hull``,
``orient`` (``orientation``), ``distance2`` (``distance_squared``), ``segments_touch``
(``segments_intersect``), ``contains`` (``point_in_polygon``), ``touches`` (``overlaps`` of a segment and a
polygon) and ``within`` (``gap_at_most``). Firing cones are the table's closed ``Sector``s
(``catalogue.arc_sectors``; ``any_point_in_sector``, ``visible_point`` in firing.py); the table edge is
``TableArea`` (movement.py).

Kept here, because the table package has no equivalent that gives the same answers:

* :func:`rectangle` with a forward/right offset: a card laid in front of a base, each corner rotated once
  from the base's pose (an ``OrientedRect`` would round the card's centre first, one unit apart);
* :func:`overlap` and :func:`crosses`: the *interiors* meet (the table's shapes are closed, so touching
  bases overlap there); the text's bases that merely touch do not overlap, a ruler grazing a corner is not
  blocked (TARGETING);
* :func:`clip_to_piece` with :func:`arc_pieces` and :func:`closest_point`: the nearest point of a base
  inside a cone (RANGE); the table measures gaps but gives no nearest point nor a clipped region.

Boundary rules (documented choices):

* a point on the edge of a firing cone is inside it; a point on the edge of a base is on the base;
* two bases *overlap* only when their interiors meet (touching edges do not overlap);
* a ruler *crosses* a base only when it passes through the base's interior (grazing a corner or running
  along an edge does not block: TARGETING);
* the ruler *touches* a card (BLIND SPOTS FOR REAR GUNS) when it meets any point of it, edge included.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from fractions import Fraction

from aero_events.table.measure import distance_squared as distance2
from aero_events.table.measure import gap_at_most, overlaps, point_in_polygon
from aero_events.table.measure import orientation as orient
from aero_events.table.measure import segments_intersect as segments_touch
from aero_events.table.pose import Pose, Transform
from aero_events.table.shapes import Polygon as TablePolygon
from aero_events.table.shapes import Segment, convex_hull
from aero_events.table.trig import direction
from aero_events.table.units import FULL_TURN

Point = tuple[int, int]
Polygon = tuple[Point, ...]

__all__ = ["Point", "Polygon", "Pose", "Transform", "arc_pieces", "clip_to_piece", "closest_point", "contains",
           "convex_hull", "crosses", "distance2", "front_edge", "orient", "overlap", "rear_edge",
           "rectangle", "segments_touch", "touches", "within"]


@functools.lru_cache(maxsize=1 << 14)
def rectangle(pose: Pose, width: int, length: int, forward_offset: int = 0, right_offset: int = 0) -> Polygon:
    """An oriented rectangle ``width`` x ``length`` centred ``forward_offset`` ahead of ``pose`` (clockwise:
    rear-left, front-left, front-right, rear-right). Cached: a base stays where it is for many questions."""
    half_w, half_l = width // 2, length // 2
    local = ((-half_w, -half_l), (-half_w, half_l), (half_w, half_l), (half_w, -half_l))
    return tuple(pose.to_world((right_offset + x, forward_offset + y)) for x, y in local)


def front_edge(base: Polygon) -> tuple[Point, Point]:
    """The front side of a base built by :func:`rectangle`."""
    return base[1], base[2]


def rear_edge(base: Polygon) -> tuple[Point, Point]:
    """The rear side of a base built by :func:`rectangle`."""
    return base[3], base[0]


def cross(ax: int, ay: int, bx: int, by: int) -> int:
    return ax * by - ay * bx


def contains(polygon: Polygon, point: Point) -> bool:
    """Whether a polygon holds ``point``, its edge included (:func:`aero_events.table.measure.point_in_polygon`)."""
    return point_in_polygon(point, polygon) >= 0


def overlap(a: Polygon, b: Polygon) -> bool:
    """Whether the interiors of two convex polygons meet (separating axis test, exact)."""
    for poly in (a, b):
        n = len(poly)
        for i in range(n):
            (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % n]
            axis = (y1 - y2, x2 - x1)
            pa = [axis[0] * x + axis[1] * y for x, y in a]
            pb = [axis[0] * x + axis[1] * y for x, y in b]
            if max(pa) <= min(pb) or max(pb) <= min(pa):
                return False
    return True


def _interior_interval(p: Point, q: Point, polygon: Polygon) -> tuple[Fraction, Fraction] | None:
    """The parameters t in [0, 1] where p + t(q - p) lies in the closed polygon (None: nowhere, or only on
    its boundary line)."""
    lo, hi = Fraction(0), Fraction(1)
    dx, dy = q[0] - p[0], q[1] - p[1]
    n = len(polygon)
    for i in range(n):
        a, b = polygon[i], polygon[(i + 1) % n]
        ex, ey = b[0] - a[0], b[1] - a[1]
        start = cross(ex, ey, p[0] - a[0], p[1] - a[1])
        slope = cross(ex, ey, dx, dy)
        if slope == 0:
            if start >= 0:  # outside this edge's half-plane, or running along the edge's line
                return None
            continue
        t = Fraction(-start, slope)
        if slope > 0:
            hi = min(hi, t)
        else:
            lo = max(lo, t)
        if lo > hi:
            return None
    return lo, hi


def crosses(p: Point, q: Point, polygon: Polygon) -> bool:
    """Whether the segment p-q passes through the interior of a convex polygon (a ruler over a base)."""
    interval = _interior_interval(p, q, polygon)
    return interval is not None and interval[0] < interval[1]


def touches(p: Point, q: Point, polygon: Polygon) -> bool:
    """Whether the closed segment p-q meets the closed polygon anywhere (the shared table's ``overlaps``)."""
    return overlaps(Segment(p, q), TablePolygon(polygon))


def closest_on_segment(p: Point, a: Point, b: Point) -> Point:
    """The point of segment a-b nearest p, rounded to the unit."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    if length2 == 0:
        return a
    t = (p[0] - a[0]) * dx + (p[1] - a[1]) * dy
    if t <= 0:
        return a
    if t >= length2:
        return b
    return a[0] + _div_round(t * dx, length2), a[1] + _div_round(t * dy, length2)


def _div_round(n: int, d: int) -> int:
    """n / d rounded half away from zero (d > 0)."""
    q, r = divmod(abs(n), d)
    if 2 * r >= d:
        q += 1
    return q if n >= 0 else -q


def closest_point(polygon: Polygon, p: Point) -> Point:
    """The point of a convex polygon nearest ``p`` (``p`` itself when inside)."""
    if contains(polygon, p):
        return p
    n = len(polygon)
    candidates = (closest_on_segment(p, polygon[i], polygon[(i + 1) % n]) for i in range(n))
    return min(candidates, key=lambda c: (distance2(p, c), c))


def within(a: Point, b: Point, length: int) -> bool:
    """Whether b is within ``length`` of a (exact: the shared table's ``gap_at_most``)."""
    return gap_at_most(a, b, length)


# ---------------------------------------------------------------- sectors (firing cones)


def arc_pieces(sectors: Sequence[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """Sectors given as (start, end) centidegrees clockwise from the nose, split into pieces of at most
    180 degrees (each the intersection of two half-planes). A full circle is ``(0, 36000)``."""
    pieces = []
    for start, end in sectors:
        span = end - start
        if span >= FULL_TURN:
            pieces.append((0, 18000))
            pieces.append((18000, 36000))
            continue
        while span > 18000:
            pieces.append((start, start + 18000))
            start += 18000
            span -= 18000
        pieces.append((start, end))
    return tuple(pieces)


def _clip(polygon: Sequence[Point], apex: Point, dx: int, dy: int, keep_sign: int) -> list[Point]:
    """Sutherland-Hodgman: keep the points whose cross(d, p - apex) has sign ``keep_sign`` (or is 0)."""
    out: list[Point] = []
    n = len(polygon)
    if n == 0:
        return out

    def side(p: Point) -> int:
        return keep_sign * cross(dx, dy, p[0] - apex[0], p[1] - apex[1])

    for i in range(n):
        current, following = polygon[i], polygon[(i + 1) % n]
        sc, sf = side(current), side(following)
        if sc >= 0:
            out.append(current)
        if (sc > 0 > sf) or (sc < 0 < sf):
            t_num, t_den = sc, sc - sf
            x = current[0] + _div_round((following[0] - current[0]) * t_num, t_den)
            y = current[1] + _div_round((following[1] - current[1]) * t_num, t_den)
            out.append((x, y))
    deduped: list[Point] = []
    for p in out:
        if not deduped or deduped[-1] != p:
            deduped.append(p)
    if len(deduped) > 1 and deduped[0] == deduped[-1]:
        deduped.pop()
    return deduped


def clip_to_piece(polygon: Polygon, apex: Point, heading: int, piece: tuple[int, int]) -> list[Point]:
    """The part of a convex polygon inside one sector piece (a convex polygon, possibly empty)."""
    sx, sy = direction(heading + piece[0])
    ex, ey = direction(heading + piece[1])
    part = _clip(polygon, apex, sx, sy, -1)
    return _clip(part, apex, ex, ey, 1)
