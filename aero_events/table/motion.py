"""Moves: swept regions, first contact along a move, lines of fire past obstacles, scatter.

* A round base moving straight from ``a`` to ``b`` covers exactly the capsule ``swept_circle(a, b,
  r)``; along a polyline path, ``swept_circle_path``. A rectangle moving without turning covers
  exactly the convex hull of its start and end footprints (``swept_rect``); when it turns on the
  way (a manoeuvre card), ``swept_rect`` is that hull, the Wings of Glory default ("convex hull of
  start base, card and end base": add the card with ``shapes.hull``), not the curved sweep.
* **First contact** times are integers in millionths of the move (``CONTACT_SCALE``): the answer
  ``m`` is the smallest integer such that the mover, moved ``m / 1_000_000`` of the way, touches the
  obstacle (edges touching count); so at ``m - 1`` it did not yet touch. It is exact (integer
  arithmetic on the picture scaled by a million). A round mover (or a point) is solved in closed
  form: the first entry of its centre into a corner disc or an edge band of the obstacle grown by
  both radii, with square roots compared exactly (a rectangle meeting a round marker is the marker
  moving back onto the rectangle); two straight-sided shapes by bisection on the exact "touched by
  then" test.
* A **line of fire** is the closed segment between two points; it is blocked by every obstacle it
  touches, the firer's and target's own shapes being left out by the caller (``ignore``).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from math import isqrt

from aero_events.table.measure import core_squared, distance, point_in_polygon
from aero_events.table.measure import surd_sign as _surd_sign
from aero_events.table.pose import Point, Pose, Transform
from aero_events.table.shapes import Capsule, Circle, Core, OrientedRect, Polygon, Shape, convex_hull, core
from aero_events.table.shapes import centre as centre_of
from aero_events.table.trig import rotate

CONTACT_SCALE = 1_000_000
"""First-contact fractions are integers in millionths of the move."""


def swept_circle(start: Point, end: Point, radius: int) -> Capsule:
    """The region a round base of ``radius`` covers moving straight from ``start`` to ``end``."""
    return Capsule((start, end), radius)


def swept_circle_path(points: Sequence[Point], radius: int) -> Capsule:
    """The region a round base covers following the polyline ``points`` (BFG: advance, turn, advance)."""
    return Capsule(tuple(points), radius)


def trace(start: Pose, moves: Sequence[Transform]) -> tuple[Pose, ...]:
    """The poses of a move made of local steps: ``start``, then each ``pose.then(step)`` in turn.

    BFG: a ship advances, turns, advances (``Transform(0, d)``, ``Transform.of(0, 0, 4500)``, ...);
    WoG: each manoeuvre card is one step.
    """
    poses = [start]
    for move in moves:
        poses.append(poses[-1].then(move))
    return tuple(poses)


def path_points(poses: Sequence[Pose]) -> tuple[Point, ...]:
    """The positions of a move given as successive poses."""
    return tuple((pose.x, pose.y) for pose in poses)


def path_length(points: Sequence[Point]) -> int:
    """The length of a polyline: the sum of its legs, each rounded to the nearest centi-mm."""
    return sum(distance(a, b) for a, b in pairwise(points))


def swept_rect(start: Pose, end: Pose, width: int, length: int) -> Polygon:
    """The convex hull of a ``width`` x ``length`` base at ``start`` and at ``end`` (see module notes)."""
    first = OrientedRect(start, width, length).corners()
    last = OrientedRect(end, width, length).corners()
    outline = convex_hull(first + last)
    # bases thinner than a centi-mm can round to a line or a point: keep them as a flat polygon
    return Polygon(outline + (outline[-1],) * (3 - len(outline)))


def swept_rect_path(poses: Sequence[Pose], width: int, length: int) -> tuple[Polygon, ...]:
    """One ``swept_rect`` per leg of a move given as successive poses."""
    return tuple(swept_rect(a, b, width, length) for a, b in pairwise(poses))


def point_along(start: Point, delta: Point, fraction: int) -> Point:
    """``start + delta * fraction / CONTACT_SCALE``, each coordinate rounded half-to-even."""
    return (
        start[0] + _round_div(delta[0] * fraction, CONTACT_SCALE),
        start[1] + _round_div(delta[1] * fraction, CONTACT_SCALE),
    )


def _round_div(numerator: int, denominator: int) -> int:
    quotient, remainder = divmod(numerator, denominator)
    if 2 * remainder > denominator or (2 * remainder == denominator and quotient & 1):
        quotient += 1
    return quotient


def scatter(point: Point, heading: int, length: int) -> Point:
    """The point ``length`` centi-mm from ``point`` along ``heading`` (scatter dice, drift, a nova miss)."""
    dx, dy = rotate(0, length, heading)
    return (point[0] + dx, point[1] + dy)


def _mover_core(mover: Shape | Point) -> Core:
    filled, points, radius = core(mover)
    if filled:
        return True, convex_hull(points), radius
    if len(points) != 1:
        raise TypeError("a mover must be a point, a circle, a rectangle or a polygon (moved by translation)")
    return filled, points, radius


def _touched_by(mover: Core, obstacle: Core, delta: Point, fraction: int) -> bool:
    """Whether the mover, swept ``fraction`` millionths along ``delta``, touches the obstacle (exact)."""
    filled, points, radius = mover
    scale = CONTACT_SCALE
    shift_x = delta[0] * fraction
    shift_y = delta[1] * fraction
    scaled = [(x * scale, y * scale) for x, y in points]
    moved = [(x + shift_x, y + shift_y) for x, y in scaled]
    if filled:
        swept: Core = (True, convex_hull(scaled + moved), 0)
    else:
        swept = (False, (scaled[0], moved[0]), 0)
    o_filled, o_points, o_radius = obstacle
    target: Core = (o_filled, tuple((x * scale, y * scale) for x, y in o_points), 0)
    n, d = core_squared(swept, target)
    reach = (radius + o_radius) * scale
    return n <= reach * reach * d


def _circles_first_contact(
    centre: Point, radius: int, delta: Point, other: Point, other_radius: int
) -> int | None:
    """Closed form for two circles: the smallest ``m`` with ``|w + delta m / S| <= r1 + r2``."""
    wx = centre[0] - other[0]
    wy = centre[1] - other[1]
    reach = radius + other_radius
    c = wx * wx + wy * wy - reach * reach
    if c <= 0:
        return 0
    a = delta[0] * delta[0] + delta[1] * delta[1]
    b = wx * delta[0] + wy * delta[1]
    if a == 0 or b >= 0:
        return None
    discriminant = b * b - a * c
    if discriminant < 0:
        return None
    scale = CONTACT_SCALE
    scaled2 = scale * scale * discriminant
    root = isqrt(scaled2)
    # contact at t = (-b - sqrt(disc)) / a; the answer is the smallest m with m a >= -S b - S sqrt(disc)
    m = -((scale * b + root + 1) // a)  # ceil((-S b - root - 1) / a) <= answer
    while True:
        rest = -scale * b - m * a
        if rest <= 0 or scaled2 >= rest * rest:
            break
        m += 1
    return m if m <= scale else None


Surd = tuple[int, int, int]
"""``(a, b, d)``, d > 0: the number ``(a + b sqrt(E)) / d`` for the E of the edge at hand."""


def _surd_compare(first: Surd, second: Surd, root_of: int) -> int:
    a1, b1, d1 = first
    a2, b2, d2 = second
    return _surd_sign(a1 * d2 - a2 * d1, b1 * d2 - b2 * d1, root_of)


def _surd_ceiling(value: Surd, root_of: int, scale: int) -> int:
    """The smallest integer ``m`` with ``m >= scale * value`` (exact)."""
    a, b, d = value
    estimate = scale * a + (
        isqrt(scale * scale * b * b * root_of) if b >= 0 else -isqrt(scale * scale * b * b * root_of)
    )
    m = estimate // d - 2
    while _surd_sign(m * d - scale * a, -scale * b, root_of) < 0:
        m += 1
    return m


def _interval(offset: int, rate: int, low: Surd, high: Surd) -> tuple[Surd, Surd] | None:
    """The times ``t`` with ``low <= offset + t * rate <= high`` (``low``/``high`` as surds over 1)."""
    if rate == 0:
        return None  # handled by the caller: the condition holds always or never
    (la, lb, _), (ha, hb, _) = low, high
    start = (la - offset, lb, rate)
    end = (ha - offset, hb, rate)
    if rate < 0:
        start, end = (-end[0], -end[1], -rate), (-start[0], -start[1], -rate)
    return start, end


def _strip_first_contact(start: Point, delta: Point, p: Point, q: Point, reach: int) -> int | None:
    """First millionth at which a point moving from ``start`` by ``delta`` is within ``reach`` of the
    inside of edge ``p-q`` (the band over the edge, its ends excluded: those are the corner discs)."""
    ex = q[0] - p[0]
    ey = q[1] - p[1]
    length2 = ex * ex + ey * ey
    if length2 == 0:
        return None
    wx = start[0] - p[0]
    wy = start[1] - p[1]
    across0 = ex * wy - ey * wx
    across_rate = ex * delta[1] - ey * delta[0]
    along0 = ex * wx + ey * wy
    along_rate = ex * delta[0] + ey * delta[1]
    zero: Surd = (0, 0, 1)
    one: Surd = (1, 0, 1)
    lows: list[Surd] = [zero]
    highs: list[Surd] = [one]
    if across_rate == 0:
        if across0 * across0 > reach * reach * length2:
            return None
    else:
        low, high = _interval(across0, across_rate, (0, -reach, 1), (0, reach, 1))
        lows.append(low)
        highs.append(high)
    if along_rate == 0:
        if not 0 <= along0 <= length2:
            return None
    else:
        low, high = _interval(along0, along_rate, (0, 0, 1), (length2, 0, 1))
        lows.append(low)
        highs.append(high)
    entry = lows[0]
    for candidate in lows[1:]:
        if _surd_compare(candidate, entry, length2) > 0:
            entry = candidate
    for limit in highs:
        if _surd_compare(entry, limit, length2) > 0:
            return None
    return _surd_ceiling(entry, length2, CONTACT_SCALE)


def _point_first_contact(start: Point, delta: Point, reach: int, obstacle: Core) -> int | None:
    """Closed form for a round mover: the earliest entry into a corner disc or an edge band."""
    filled, points, _ = obstacle
    if filled and point_in_polygon(start, points) >= 0:
        return 0
    best: int | None = None
    for vertex in points:
        found = _circles_first_contact(start, 0, delta, vertex, reach)
        if found is not None and (best is None or found < best):
            best = found
    if len(points) > 1:
        edges = zip(points, points[1:] + points[:1], strict=True) if filled else pairwise(points)
        for p, q in edges:
            found = _strip_first_contact(start, delta, p, q, reach)
            if found is not None and (best is None or found < best):
                best = found
    return best


def first_contact(mover: Shape | Point, delta: Point, obstacle: Shape | Point) -> int | None:
    """When ``mover``, shifted by ``delta``, first touches ``obstacle``: millionths of the move, or None.

    0 means touching at the start; None means no contact along the whole move. The mover keeps its
    heading (a circle, a rectangle or a convex polygon; a non-convex polygon moves as its hull).
    """
    mover_core = _mover_core(mover)
    obstacle_core = core(obstacle)
    if not mover_core[0]:
        reach = mover_core[2] + obstacle_core[2]
        if not obstacle_core[0] and len(obstacle_core[1]) == 1:
            return _circles_first_contact(mover_core[1][0], 0, delta, obstacle_core[1][0], reach)
        return _point_first_contact(mover_core[1][0], delta, reach, obstacle_core)
    if not obstacle_core[0] and len(obstacle_core[1]) == 1:
        # a rectangle sliding onto a round marker == the marker sliding back onto the rectangle
        reach = mover_core[2] + obstacle_core[2]
        return _point_first_contact(obstacle_core[1][0], (-delta[0], -delta[1]), reach, mover_core)
    if _touched_by(mover_core, obstacle_core, delta, 0):
        return 0
    if not _touched_by(mover_core, obstacle_core, delta, CONTACT_SCALE):
        return None
    low, high = 0, CONTACT_SCALE  # not touched by low, touched by high
    while high - low > 1:
        middle = (low + high) // 2
        if _touched_by(mover_core, obstacle_core, delta, middle):
            high = middle
        else:
            low = middle
    return high


def first_contacts(
    mover: Shape | Point, delta: Point, obstacles: Sequence[Shape | Point]
) -> tuple[tuple[int, int], ...]:
    """``(fraction, index)`` for every obstacle the move touches, earliest first (ties by index)."""
    hits = []
    for index, obstacle in enumerate(obstacles):
        fraction = first_contact(mover, delta, obstacle)
        if fraction is not None:
            hits.append((fraction, index))
    return tuple(sorted(hits))


def first_contact_on_path(
    mover: Circle | OrientedRect | Polygon | Point, path: Sequence[Point], obstacle: Shape | Point
) -> tuple[int, int] | None:
    """``(leg, fraction)`` of the first touch along a polyline move, or None.

    The mover is placed with its centre (``shapes.centre``) on ``path[0]`` and translated leg by leg;
    ``leg`` indexes ``path`` legs from 0 and ``fraction`` is in millionths of that leg.
    """
    start = centre_of(mover)
    for leg, (a, b) in enumerate(pairwise(path)):
        placed = _shifted(mover, a[0] - start[0], a[1] - start[1])
        fraction = first_contact(placed, (b[0] - a[0], b[1] - a[1]), obstacle)
        if fraction is not None:
            return leg, fraction
    return None


def _shifted(shape: Circle | OrientedRect | Polygon | Point, dx: int, dy: int) -> Shape | Point:
    kind = type(shape)
    if kind is tuple:
        return (shape[0] + dx, shape[1] + dy)
    if kind is Circle:
        return Circle((shape.centre[0] + dx, shape.centre[1] + dy), shape.radius)
    if kind is OrientedRect:
        pose = shape.pose
        return OrientedRect(Pose(pose.x + dx, pose.y + dy, pose.heading), shape.width, shape.length)
    if kind is Polygon:
        return Polygon(tuple((x + dx, y + dy) for x, y in shape.points))
    raise TypeError(f"cannot move a {kind.__name__} along a path")


def crossed_obstacles(
    start: Point, end: Point, obstacles: Sequence[Shape | Point], ignore: Sequence[int] = ()
) -> tuple[int, ...]:
    """Indices of the obstacles the line of fire from ``start`` to ``end`` touches, in list order.

    ``ignore`` lists indices left out (the firer's and the target's own bases). BFG: blast markers
    crossed by the line of fire shift the gunnery column (spec, Shooting).
    """
    line: Core = (False, (start, end), 0)
    skipped = set(ignore)
    crossed = []
    for index, obstacle in enumerate(obstacles):
        if index in skipped:
            continue
        obstacle_core = core(obstacle)
        n, d = core_squared(line, obstacle_core)
        radius = obstacle_core[2]
        if n <= radius * radius * d:
            crossed.append(index)
    return tuple(crossed)


def line_blocked(
    start: Point, end: Point, obstacles: Sequence[Shape | Point], ignore: Sequence[int] = ()
) -> bool:
    """Whether any obstacle (other than those in ``ignore``) touches the line from ``start`` to ``end``."""
    return bool(crossed_obstacles(start, end, obstacles, ignore))
