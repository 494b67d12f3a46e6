"""Fire Arcs and range bands: can this aircraft's weapon reach that hex?

Fire Arcs are marked on the base and measured from the centre of the firer's
hex (p.5, p.21): Front is the 60 degrees straight ahead, Rear the 60 degrees
straight behind, Left Side and Right Side the 120 degrees on either side.
Range is counted in hexes and falls in a band: Short 1-4, Medium 5-7,
Long 8-10 (p.22).

The arc test is exact integer arithmetic. Turn the picture so the firer sits
at the origin facing north, and call the target's axial offset (q, r). With
pixel centre x = 1.5q, y = -sqrt(3)(r + q/2), the Front Arc is
|x| <= y*tan(30 deg), which simplifies to ``3|q| <= -(2r + q)``; the Rear Arc
is its mirror, ``3|q| <= 2r + q``. Equality puts the hex centre exactly on the
line between two arcs (the "diagonals", e.g. (1, -2) between Front and Right).
Those lines run along hexsides everywhere else, so the only hexes they cut
are the ones whose centres they pass through. A cut hex is in both arcs for
targeting (p.21: "they may all target the same enemy aircraft") but is not
*wholly* within either, which matters for Tailing (p.30).

The firer's own hex is in no arc here; Directly Overhead ground targets
(p.21) are a rule for callers. No trig and no graphs: these functions sit on
hot paths.
"""

from __future__ import annotations

from enum import Enum

from aero_events.hexgrid.hexes import Hex
from aero_events.hexgrid.pose import Pose


class Arc(Enum):
    """A Fire Arc marked on an aircraft's base (p.5, p.21)."""

    FRONT = "front"
    REAR = "rear"
    LEFT = "left"
    RIGHT = "right"
    ALL_ROUND = "all_round"


class RangeBand(Enum):
    """A weapon range band (p.22); each weapon has a Firepower value per band."""

    SHORT = "short"
    MEDIUM = "medium"
    LONG = "long"

    @property
    def shortest(self) -> int:
        """Nearest range, in hexes, that falls in this band."""
        return _BAND_LIMITS[self][0]

    @property
    def longest(self) -> int:
        """Furthest range, in hexes, that falls in this band."""
        return _BAND_LIMITS[self][1]


_BAND_LIMITS = {RangeBand.SHORT: (1, 4), RangeBand.MEDIUM: (5, 7), RangeBand.LONG: (8, 10)}

MAX_RANGE = 10
"""No weapon reaches beyond Long range, 10 hexes (p.22)."""

_BAND_BY_DISTANCE: tuple[RangeBand | None, ...] = (
    None,
    *(band for band, (shortest, longest) in _BAND_LIMITS.items() for _ in range(shortest, longest + 1)),
)


def range_band(distance: int) -> RangeBand | None:
    """The range band for a target ``distance`` hexes away (p.22); None at 0 or beyond 10."""
    if 0 <= distance <= MAX_RANGE:
        return _BAND_BY_DISTANCE[distance]
    if distance < 0:
        raise ValueError(f"a distance cannot be negative, got {distance}")
    return None


def range_between(a: Hex, b: Hex) -> RangeBand | None:
    """The range band between two hexes, counting hexes from one to the other (p.22)."""
    dq = a[0] - b[0]
    dr = a[1] - b[1]
    distance = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
    return _BAND_BY_DISTANCE[distance] if distance <= MAX_RANGE else None


def _frame_coefficients(facing: int) -> tuple[int, int, int, int]:
    """Coefficients turning an axial offset into (side, ahead) as seen by an aircraft facing ``facing``.

    The offset is rotated anticlockwise by ``facing`` hexsides so the firer
    faces north; then ``side = q`` (positive to the right) and
    ``ahead = -(2r + q)`` (positive forwards, in half-hex-heights).
    """
    origin = Hex(0, 0)
    unit_q = Hex(1, 0).rotate(origin, -facing)
    unit_r = Hex(0, 1).rotate(origin, -facing)
    return unit_q.q, unit_r.q, -(2 * unit_q.r + unit_q.q), -(2 * unit_r.r + unit_r.q)


_FRAMES = tuple(_frame_coefficients(facing) for facing in range(6))

_NONE: frozenset[Arc] = frozenset()
_FRONT = frozenset({Arc.FRONT, Arc.ALL_ROUND})
_REAR = frozenset({Arc.REAR, Arc.ALL_ROUND})
_LEFT = frozenset({Arc.LEFT, Arc.ALL_ROUND})
_RIGHT = frozenset({Arc.RIGHT, Arc.ALL_ROUND})
_FRONT_LEFT = frozenset({Arc.FRONT, Arc.LEFT, Arc.ALL_ROUND})
_FRONT_RIGHT = frozenset({Arc.FRONT, Arc.RIGHT, Arc.ALL_ROUND})
_REAR_LEFT = frozenset({Arc.REAR, Arc.LEFT, Arc.ALL_ROUND})
_REAR_RIGHT = frozenset({Arc.REAR, Arc.RIGHT, Arc.ALL_ROUND})


def _side_and_ahead(firer: Pose, target: Hex) -> tuple[int, int]:
    (fq, fr), facing = firer
    dq = target[0] - fq
    dr = target[1] - fr
    side_q, side_r, ahead_q, ahead_r = _FRAMES[facing]
    return side_q * dq + side_r * dr, ahead_q * dq + ahead_r * dr


def arcs_containing(firer: Pose, target: Hex) -> frozenset[Arc]:
    """Every Fire Arc of ``firer`` that may target ``target`` (p.21).

    A hex cut by the line between two arcs is in both. The firer's own hex is
    in none; every other hex is also in ``ALL_ROUND``.
    """
    (fq, fr), facing = firer
    dq = target[0] - fq
    dr = target[1] - fr
    side_q, side_r, ahead_q, ahead_r = _FRAMES[facing]
    side = side_q * dq + side_r * dr
    ahead = ahead_q * dq + ahead_r * dr
    if side > 0:
        lateral = 3 * side
        if ahead > lateral:
            return _FRONT
        if -ahead > lateral:
            return _REAR
        if ahead == lateral:
            return _FRONT_RIGHT
        if -ahead == lateral:
            return _REAR_RIGHT
        return _RIGHT
    if side < 0:
        lateral = -3 * side
        if ahead > lateral:
            return _FRONT
        if -ahead > lateral:
            return _REAR
        if ahead == lateral:
            return _FRONT_LEFT
        if -ahead == lateral:
            return _REAR_LEFT
        return _LEFT
    if ahead > 0:
        return _FRONT
    if ahead < 0:
        return _REAR
    return _NONE


def in_arc(firer: Pose, target: Hex, arc: Arc) -> bool:
    """Whether ``target`` is in ``firer``'s ``arc`` for targeting, boundary hexes included (p.21)."""
    side, ahead = _side_and_ahead(firer, target)
    lateral = 3 * abs(side)
    if arc is Arc.FRONT:
        return ahead > 0 and ahead >= lateral
    if arc is Arc.REAR:
        return ahead < 0 and -ahead >= lateral
    if arc is Arc.RIGHT:
        return side > 0 and lateral >= abs(ahead)
    if arc is Arc.LEFT:
        return side < 0 and lateral >= abs(ahead)
    return side != 0 or ahead != 0


def wholly_within(firer: Pose, target: Hex, arc: Arc) -> bool:
    """Whether ``target`` is inside ``arc`` and not cut by its boundary (Tailing, p.30)."""
    side, ahead = _side_and_ahead(firer, target)
    lateral = 3 * abs(side)
    if arc is Arc.FRONT:
        return lateral < ahead
    if arc is Arc.REAR:
        return lateral < -ahead
    if arc is Arc.RIGHT:
        return side > 0 and lateral > abs(ahead)
    if arc is Arc.LEFT:
        return side < 0 and lateral > abs(ahead)
    return side != 0 or ahead != 0
