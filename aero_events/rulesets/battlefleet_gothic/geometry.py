"""Exact table geometry for Battlefleet Gothic: integer lengths (1/100 mm) and angles (1/100 degree).

Sine and cosine are those of the shared package ``aero_events.table.trig`` (its committed sine table,
scaled by 2**30) and fire arcs its sectors (``aero_events.table.sectors``), so every open-table ruleset turns
and aims alike. The other predicates the rules need are kept here, in
the exact forms the rules ask for (the shared package was still being written alongside this ruleset);
every function is pure integer arithmetic, so a game gives the same bytes on every platform:

* distances compare squared integers; where a length is needed it is ``math.isqrt`` (floor);
* headings are degrees clockwise from north (``y`` up the table), as in ``core/scene.py``.

The bearing compass (p.7): four 90-degree quadrants centred on the ship's axis. A point exactly on a
boundary (45 degrees off the axis) is in **both** neighbouring fire arcs (the firer may use either), and
for target aspect it counts as the front or rear quadrant (closing / moving away), the firer's benefit of
the doubt. The text gives no boundary rule; this is the documented choice.
"""

from __future__ import annotations

import functools
import math

from aero_events.table import motion, trig
from aero_events.table.pose import Pose
from aero_events.table.sectors import point_in_sector
from aero_events.table.shapes import Circle, Sector, Segment
from aero_events.table.trig import COS, SIN

TRIG_SCALE = trig.SCALE
FULL_TURN = 36000


def sin_cos(angle: int) -> tuple[int, int]:
    """(sin, cos) of ``angle`` (1/100 degree) scaled by ``TRIG_SCALE`` (2**30), from the committed table."""
    return trig.direction(angle)


@functools.lru_cache(maxsize=1 << 14)
def forward(heading: int, length: int) -> tuple[int, int]:
    """The (dx, dy) of moving ``length`` straight ahead on ``heading``, rounded half-to-even to the unit."""
    s, c = sin_cos(heading)
    return trig.round_scaled(s * length), trig.round_scaled(c * length)


def _div_round(a: int, b: int) -> int:
    return (2 * a + b) // (2 * b)


def distance_sq(a: tuple[int, int], b: tuple[int, int]) -> int:
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2


def distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Stem-to-stem distance (p.6), floored to the unit."""
    return math.isqrt(distance_sq(a, b))


def within(a: tuple[int, int], b: tuple[int, int], reach: int) -> bool:
    """True when ``b`` is at most ``reach`` from ``a`` (exact)."""
    return distance_sq(a, b) <= reach * reach


def local(origin: tuple[int, int], heading: int, point: tuple[int, int]) -> tuple[int, int]:
    """``point`` in the frame of a ship at ``origin`` facing ``heading``: (ahead, to the right), both
    scaled by ``TRIG_SCALE`` (exact integers)."""
    dx, dy = point[0] - origin[0], point[1] - origin[1]
    s, c = sin_cos(heading)
    return dx * s + dy * c, dx * c - dy * s


_ARC_BEARINGS = (("front", 0), ("right", 9000), ("rear", 18000), ("left", 27000))


@functools.lru_cache(maxsize=1 << 14)
def quadrants(origin: tuple[int, int], heading: int, point: tuple[int, int]) -> frozenset[str]:
    """The bearing-compass quadrants (p.7) ``point`` lies in, seen from a ship at ``origin``: the shared
    package's 90-degree sectors (``aero_events.table.sectors``, boundaries inclusive).

    One quadrant, or two on a 45-degree boundary; a point on the stem itself is in all four.
    """
    pose = Pose(origin[0], origin[1], heading % FULL_TURN)
    return frozenset(name for name, offset in _ARC_BEARINGS
                     if point_in_sector(point, Sector.about(pose, offset, 4500)))


@functools.lru_cache(maxsize=FULL_TURN)
def quadrant_rays(heading: int) -> tuple[tuple[int, int], ...]:
    """The (sin, cos) of the four boundary rays of the bearing compass (p.7) of a ship facing ``heading`` (0 to
    35999): front-left (45 degrees left of the axis), front-right, rear-right and rear-left."""
    return tuple((SIN[ray % FULL_TURN], COS[ray % FULL_TURN])
                 for ray in (heading - 4500, heading + 4500, heading + 13500, heading + 22500))


def quadrant_flags(origin: tuple[int, int], heading: int, point: tuple[int, int]) -> tuple[bool, bool, bool, bool]:
    """Whether ``point`` is in the front, right, rear and left quadrants of a ship at ``origin``: the same as
    :func:`quadrants` (the same sectors and boundary rule, ``aero_events.table.sectors``: a point is in a quadrant
    when it is clockwise of, or on, its left ray and anticlockwise of, or on, its right ray), each of the four
    boundary rays measured once instead of twice and no sector built, for a bot that weighs many moves."""
    vx, vy = point[0] - origin[0], point[1] - origin[1]
    (s0, c0), (s1, c1), (s2, c2), (s3, c3) = quadrant_rays(heading % FULL_TURN)
    front_left, front_right = s0 * vy - c0 * vx, s1 * vy - c1 * vx
    rear_right, rear_left = s2 * vy - c2 * vx, s3 * vy - c3 * vx
    return (front_left <= 0 <= front_right, front_right <= 0 <= rear_right, rear_right <= 0 <= rear_left,
            rear_left <= 0 <= front_left)


def in_quadrant(origin: tuple[int, int], heading: int, point: tuple[int, int], name: str) -> bool:
    """Whether ``point`` lies in quadrant ``name`` of a ship at ``origin`` (``name in quadrants(...)``, one
    sector tested instead of four)."""
    offset = dict(_ARC_BEARINGS)[name]
    return point_in_sector(point, Sector.about(Pose(origin[0], origin[1], heading % FULL_TURN), offset, 4500))


def aspect_quadrant(origin: tuple[int, int], heading: int, point: tuple[int, int]) -> str:
    """The one quadrant of a target at ``origin`` that faces ``point`` (p.7, p.19): on a boundary the
    front or rear quadrant wins (documented choice, see the module docstring)."""
    found = quadrants(origin, heading, point)
    for name in ("front", "rear", "left", "right"):
        if name in found:
            return name
    raise AssertionError("a point is always in some quadrant")


def bearing(origin: tuple[int, int], point: tuple[int, int]) -> int:
    """The heading (1/100 degree, clockwise from north) from ``origin`` towards ``point``.

    Found by bisection on the exact sine table, so it needs no float ``atan2``.
    """
    dx, dy = point[0] - origin[0], point[1] - origin[1]
    if dx == 0 and dy == 0:
        return 0
    # The first angle whose direction has turned (clockwise) to or past the point, searched in the half
    # turn that holds it: there sin(point - angle) falls monotonically.
    low = 0 if dx > 0 or (dx == 0 and dy > 0) else 18000
    high = low + 18000

    def past(angle: int) -> bool:
        s, c = sin_cos(angle)
        return dx * c - dy * s <= 0  # the direction at ``angle`` is at or clockwise of the point

    while low < high:
        middle = (low + high) // 2
        if past(middle):
            high = middle
        else:
            low = middle + 1
    return low % FULL_TURN


def point_segment_distance_sq_le(point: tuple[int, int], a: tuple[int, int], b: tuple[int, int],
                                 reach: int) -> bool:
    """Exactly: is ``point`` within ``reach`` of the segment ``a``-``b``?"""
    abx, aby = b[0] - a[0], b[1] - a[1]
    apx, apy = point[0] - a[0], point[1] - a[1]
    length_sq = abx * abx + aby * aby
    t = apx * abx + apy * aby
    if length_sq == 0 or t <= 0:
        return apx * apx + apy * apy <= reach * reach
    if t >= length_sq:
        return distance_sq(point, b) <= reach * reach
    # |AP|^2 - t^2/|AB|^2 <= r^2, multiplied through by |AB|^2
    return (apx * apx + apy * apy) * length_sq - t * t <= reach * reach * length_sq


def first_contact_along(a: tuple[int, int], b: tuple[int, int], centre: tuple[int, int], reach: int) -> int | None:
    """How far along ``a``-``b`` a point first comes within ``reach`` of ``centre`` (None if never).

    0 when it starts in contact. The shared package's exact first contact (``aero_events.table.motion``,
    in millionths of the move), turned into units along the move (floored). A centre more than ``reach`` beyond
    the box around ``a`` and ``b`` is more than ``reach`` from every point between them: never in contact, found
    without the exact search (a path is tried against every Blast marker on the table).
    """
    cx, cy = centre
    if cx + reach < min(a[0], b[0]) or cx - reach > max(a[0], b[0]) or \
            cy + reach < min(a[1], b[1]) or cy - reach > max(a[1], b[1]):
        return None
    fraction = motion.first_contact((a[0], a[1]), (b[0] - a[0], b[1] - a[1]), Circle((centre[0], centre[1]), reach))
    if fraction is None:
        return None
    return fraction * distance(a, b) // motion.CONTACT_SCALE


def first_contact_with_segment(a: tuple[int, int], b: tuple[int, int], radius: int,
                               ends: tuple[tuple[int, int], tuple[int, int]]) -> int | None:
    """How far a base of ``radius`` moving along ``a``-``b`` goes before it touches the segment ``ends``
    (a torpedo salvo's front), by the shared package's exact first contact."""
    length = distance(a, b)
    if length == 0:
        return None
    fraction = motion.first_contact(Circle((a[0], a[1]), radius), (b[0] - a[0], b[1] - a[1]),
                                    Segment(ends[0], ends[1]))
    if fraction is None:
        return None
    return fraction * length // motion.CONTACT_SCALE


def point_along(a: tuple[int, int], b: tuple[int, int], travelled: int) -> tuple[int, int]:
    """The point ``travelled`` units from ``a`` towards ``b``."""
    length = distance(a, b)
    if length == 0:
        return a
    return (a[0] + _div_round((b[0] - a[0]) * travelled, length),
            a[1] + _div_round((b[1] - a[1]) * travelled, length))


def segment_ends(centre: tuple[int, int], heading: int, half_width: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """The two ends of a marker ``2 * half_width`` wide across ``heading`` (a torpedo salvo's front)."""
    dx, dy = forward(heading + 9000, half_width)
    return (centre[0] - dx, centre[1] - dy), (centre[0] + dx, centre[1] + dy)


def swept_segment_contact(start: tuple[int, int], heading: int, length: int, half_width: int,
                          centre: tuple[int, int], reach: int) -> int | None:
    """How far a segment ``2 * half_width`` wide across ``heading`` travels from ``start`` before it first
    comes within ``reach`` of ``centre`` (None if not within ``length``)."""
    ahead, right = local(start, heading, centre)
    ahead, right = _div_round(ahead, TRIG_SCALE), _div_round(right, TRIG_SCALE)
    side = max(0, abs(right) - half_width)
    if side > reach:
        return None
    slack = math.isqrt(reach * reach - side * side)
    if ahead + slack < 0 or ahead - slack > length:
        return None
    return max(0, ahead - slack)


def ring_position(centre: tuple[int, int], towards: int, ring_radius: int, offset: int) -> tuple[int, int]:
    """A point ``ring_radius`` from ``centre`` in the direction ``towards + offset`` (1/100 degree)."""
    dx, dy = forward(towards + offset, ring_radius)
    return centre[0] + dx, centre[1] + dy


@functools.cache
def ring_step(ring_radius: int, marker_radius: int) -> int:
    """The smallest angle (1/100 degree) between two markers of ``marker_radius`` on a ring so that they do
    not overlap: 2 * asin(marker_radius / ring_radius), by bisection on the exact sine table."""
    low, high = 0, 18000
    while low < high:
        middle = (low + high) // 2
        s, _ = sin_cos(middle // 2)
        if s * ring_radius >= marker_radius * TRIG_SCALE:
            high = middle
        else:
            low = middle + 1
    return low
