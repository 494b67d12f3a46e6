"""Exact predicates and distances between points and shapes.

Everything here is integer arithmetic on the shapes' cores (see ``shapes``): cross and dot products
of Python ints, squared distances kept as exact fractions ``numerator / denominator``. No floats.

* **Closed shapes.** A shape includes its boundary: a point on a base's edge is on the base, two bases
  whose edges touch *overlap* (``overlaps``) and are at ``gap`` 0. ``contains(..., inclusive=False)``
  asks for strictly inside.
* **Distances** are "edge to edge" (the shortest distance between any point of one and any point of
  the other, 0 when they touch or overlap). ``gap`` returns it in centi-mm rounded to the nearest
  unit (the square root is rounded exactly; an exact half goes to the even neighbour). For rules,
  prefer the exact comparisons ``gap_at_most`` / ``compare_gap``: "within 30 cm" is
  ``gap_at_most(a, b, cm(30))`` with no rounding at all. Centre-to-centre ranges are ``distance``
  between ``centre``s.
* Rounded distances are a metric up to rounding: symmetric, 0 exactly when touching, and
  ``gap(a, c) <= gap(a, b) + gap(b, c) + 1`` for points (each root is within half a unit).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise
from math import isqrt

from aero_events.table.pose import Point
from aero_events.table.shapes import Core, Shape, core

Ratio = tuple[int, int]
"""An exact non-negative fraction ``(numerator, denominator)``, denominator > 0."""


def orientation(a: Point, b: Point, c: Point) -> int:
    """Twice the signed area of ``a, b, c``: > 0 anticlockwise (c left of a->b), < 0 clockwise, 0 collinear."""
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def distance_squared(a: Point, b: Point) -> int:
    """The exact squared distance between two points, in centi-mm squared."""
    dx = a[0] - b[0]
    dy = a[1] - b[1]
    return dx * dx + dy * dy


def round_sqrt(numerator: int, denominator: int = 1) -> int:
    """``sqrt(numerator / denominator)`` rounded to the nearest integer, an exact half to even."""
    root = isqrt(numerator // denominator)  # floor(sqrt(n/d)) == isqrt(floor(n/d))
    twice = 2 * root + 1
    above = 4 * numerator - twice * twice * denominator
    if above > 0 or (above == 0 and root & 1):
        return root + 1
    return root


def surd_sign(rational: int, surd: int, root_of: int) -> int:
    """The sign (-1, 0, 1) of ``rational + surd * sqrt(root_of)``, exactly (``root_of >= 0``)."""
    if surd == 0 or root_of == 0:
        return (rational > 0) - (rational < 0)
    if rational >= 0 and surd >= 0:
        return 1 if rational or surd else 0
    if rational <= 0 and surd <= 0:
        return -1
    difference = rational * rational - surd * surd * root_of
    if rational > 0:  # and surd < 0
        return (difference > 0) - (difference < 0)
    return (difference < 0) - (difference > 0)


def distance(a: Point, b: Point) -> int:
    """The distance between two points in centi-mm, rounded to the nearest unit."""
    return round_sqrt(distance_squared(a, b))


def _on_segment(a: Point, b: Point, p: Point) -> bool:
    """``p``, known to be collinear with ``a``-``b``, lies within the segment's box."""
    return min(a[0], b[0]) <= p[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= p[1] <= max(a[1], b[1])


def segments_intersect(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Whether segments ``a-b`` and ``c-d`` share a point (touching at an end counts)."""
    d1 = orientation(c, d, a)
    d2 = orientation(c, d, b)
    d3 = orientation(a, b, c)
    d4 = orientation(a, b, d)
    if ((d1 > 0 and d2 < 0) or (d1 < 0 and d2 > 0)) and ((d3 > 0 and d4 < 0) or (d3 < 0 and d4 > 0)):
        return True
    return (
        (d1 == 0 and _on_segment(c, d, a))
        or (d2 == 0 and _on_segment(c, d, b))
        or (d3 == 0 and _on_segment(a, b, c))
        or (d4 == 0 and _on_segment(a, b, d))
    )


def segment_crossing(a: Point, b: Point, c: Point, d: Point) -> Fraction | None:
    """The smallest fraction ``t`` in [0, 1] with ``a + t (b - a)`` on segment ``c-d``, or None."""
    if not segments_intersect(a, b, c, d):
        return None
    ex, ey = b[0] - a[0], b[1] - a[1]
    fx, fy = d[0] - c[0], d[1] - c[1]
    wx, wy = c[0] - a[0], c[1] - a[1]
    denominator = ex * fy - ey * fx
    if denominator != 0:
        return Fraction(wx * fy - wy * fx, denominator)
    # collinear (or a point): the first of c, d, or a itself that lies on the other segment
    length2 = ex * ex + ey * ey
    if length2 == 0:
        return Fraction(0)
    if _on_segment(c, d, a):
        return Fraction(0)
    candidates = [Fraction((p[0] - a[0]) * ex + (p[1] - a[1]) * ey, length2) for p in (c, d)]
    return min(t for t in candidates if 0 <= t <= 1)


def point_segment_squared(p: Point, a: Point, b: Point) -> Ratio:
    """The exact squared distance from ``p`` to segment ``a-b`` as ``(numerator, denominator)``."""
    ex = b[0] - a[0]
    ey = b[1] - a[1]
    wx = p[0] - a[0]
    wy = p[1] - a[1]
    dot = wx * ex + wy * ey
    if dot <= 0:
        return wx * wx + wy * wy, 1
    length2 = ex * ex + ey * ey
    if dot >= length2:
        vx = p[0] - b[0]
        vy = p[1] - b[1]
        return vx * vx + vy * vy, 1
    cross = wx * ey - wy * ex
    return cross * cross, length2


def point_in_polygon(p: Point, points: tuple[Point, ...]) -> int:
    """1 if ``p`` is strictly inside the polygon, 0 on its boundary, -1 outside (exact crossing test)."""
    px, py = p
    inside = False
    previous = points[-1]
    for current in points:
        ax, ay = previous
        bx, by = current
        previous = current
        dx = bx - ax
        dy = by - ay
        side = (px - ax) * dy - (py - ay) * dx
        if side == 0 and min(ax, bx) <= px <= max(ax, bx) and min(ay, by) <= py <= max(ay, by):
            return 0
        if (ay > py) != (by > py) and (side < 0) == (dy > 0):
            inside = not inside
    return 1 if inside else -1


def _edges(filled: bool, points: tuple[Point, ...]) -> list[tuple[Point, Point]]:
    if filled:
        return list(zip(points, points[1:] + points[:1], strict=True))
    if len(points) == 1:
        return [(points[0], points[0])]
    return list(pairwise(points))


def _point_polygon_squared(p: Point, points: tuple[Point, ...]) -> Ratio:
    """Squared distance from ``p`` to a filled polygon (0 inside): one pass for parity and distance."""
    px, py = p
    inside = False
    best_n, best_d = -1, 1
    previous = points[-1]
    for current in points:
        ax, ay = previous
        bx, by = current
        previous = current
        ex = bx - ax
        ey = by - ay
        wx = px - ax
        wy = py - ay
        side = wx * ey - wy * ex
        if (ay > py) != (by > py) and (side < 0) == (ey > 0):
            inside = not inside
        dot = wx * ex + wy * ey
        if dot <= 0:
            n, d = wx * wx + wy * wy, 1
        else:
            length2 = ex * ex + ey * ey
            if dot >= length2:
                vx = px - bx
                vy = py - by
                n, d = vx * vx + vy * vy, 1
            else:
                n, d = side * side, length2
        if best_n < 0 or n * best_d < best_n * d:
            best_n, best_d = n, d
    if inside or best_n == 0:
        return 0, 1
    return best_n, best_d


def _point_core_squared(p: Point, filled: bool, points: tuple[Point, ...]) -> Ratio:
    if filled:
        return _point_polygon_squared(p, points)
    best_n, best_d = -1, 1
    for a, b in _edges(False, points):
        n, d = point_segment_squared(p, a, b)
        if best_n < 0 or n * best_d < best_n * d:
            best_n, best_d = n, d
            if n == 0:
                break
    return best_n, best_d


def core_squared(first: Core, second: Core) -> Ratio:
    """The exact squared distance between two cores (their radii ignored), 0 when they meet."""
    filled_a, points_a, _ = first
    filled_b, points_b, _ = second
    if len(points_a) == 1 and not filled_a:
        return _point_core_squared(points_a[0], filled_b, points_b)
    if len(points_b) == 1 and not filled_b:
        return _point_core_squared(points_b[0], filled_a, points_a)
    if filled_a and point_in_polygon(points_b[0], points_a) >= 0:
        return 0, 1
    if filled_b and point_in_polygon(points_a[0], points_b) >= 0:
        return 0, 1
    edges_a = _edges(filled_a, points_a)
    edges_b = _edges(filled_b, points_b)
    # two segments that share a point share it inside both bounding boxes: pairs whose boxes are apart are
    # passed over without the exact test
    boxes_b = [(min(c[0], d[0]), max(c[0], d[0]), min(c[1], d[1]), max(c[1], d[1]), c, d) for c, d in edges_b]
    for a, b in edges_a:
        left, right = (a[0], b[0]) if a[0] <= b[0] else (b[0], a[0])
        bottom, top = (a[1], b[1]) if a[1] <= b[1] else (b[1], a[1])
        for x0, x1, y0, y1, c, d in boxes_b:
            if x0 > right or x1 < left or y0 > top or y1 < bottom:
                continue
            if segments_intersect(a, b, c, d):
                return 0, 1
    best_n, best_d = -1, 1
    for p in points_a:
        for c, d in edges_b:
            n, den = point_segment_squared(p, c, d)
            if best_n < 0 or n * best_d < best_n * den:
                best_n, best_d = n, den
    for p in points_b:
        for a, b in edges_a:
            n, den = point_segment_squared(p, a, b)
            if n * best_d < best_n * den:
                best_n, best_d = n, den
    return best_n, best_d


def gap_squared(first: Shape | Point, second: Shape | Point) -> tuple[Ratio, int]:
    """``((n, d), radii)``: the exact squared core distance and the two radii summed.

    The edge-to-edge distance is ``max(0, sqrt(n / d) - radii)``.
    """
    core_a = core(first)
    core_b = core(second)
    return core_squared(core_a, core_b), core_a[2] + core_b[2]


def gap(first: Shape | Point, second: Shape | Point) -> int:
    """The edge-to-edge distance in centi-mm (0 when touching or overlapping), rounded to nearest."""
    (n, d), radii = gap_squared(first, second)
    if n <= radii * radii * d:
        return 0
    return max(0, round_sqrt(n, d) - radii)


def compare_gap(first: Shape | Point, second: Shape | Point, limit: int) -> int:
    """-1, 0 or 1 as the exact edge-to-edge distance is below, equal to, or above ``limit`` (>= 0)."""
    if limit < 0:
        raise ValueError(f"a distance limit cannot be negative, got {limit}")
    (n, d), radii = gap_squared(first, second)
    if n <= radii * radii * d:
        return -1 if limit > 0 else 0
    reach = limit + radii
    difference = n - reach * reach * d
    return (difference > 0) - (difference < 0)


def gap_at_most(first: Shape | Point, second: Shape | Point, limit: int) -> bool:
    """Whether the exact edge-to-edge distance is at most ``limit`` centi-mm ("within range")."""
    if limit < 0:
        raise ValueError(f"a distance limit cannot be negative, got {limit}")
    (n, d), radii = gap_squared(first, second)
    reach = limit + radii
    return n <= reach * reach * d


def overlaps(first: Shape | Point, second: Shape | Point) -> bool:
    """Whether two shapes share at least one point (touching edges count: base contact)."""
    (n, d), radii = gap_squared(first, second)
    return n <= radii * radii * d


def contains(shape: Shape, point: Point, inclusive: bool = True) -> bool:
    """Whether ``point`` lies in ``shape``; on the boundary counts unless ``inclusive`` is False."""
    filled, points, radius = core(shape)
    if filled and radius == 0:
        return point_in_polygon(point, points) >= (0 if inclusive else 1)
    n, d = _point_core_squared(point, filled, points)
    limit = radius * radius * d
    return n <= limit if inclusive else n < limit
