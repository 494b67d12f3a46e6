"""Which hexside an aircraft's nose points through.

An aircraft on its base always faces one of the six hexsides of its hex, and
its Fire Arcs are marked on the base relative to that facing (rulebook p.5,
p.21). Manoeuvres turn it one hexside at a time (p.16). Facings are numbered
clockwise like a compass, so a right turn adds one and a left turn takes one
away, modulo six.
"""

from __future__ import annotations

from enum import IntEnum

# Axial (dq, dr) step through each hexside, indexed by facing (flat-top hexes).
_DELTAS: tuple[tuple[int, int], ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))


class Facing(IntEnum):
    """A hexside an aircraft can face, clockwise from north (bearing = 60 * facing degrees)."""

    N = 0
    NE = 1
    SE = 2
    S = 3
    SW = 4
    NW = 5

    def turned(self, steps: int) -> Facing:
        """The facing after turning ``steps`` hexsides; positive is clockwise (right), negative left."""
        return _FACINGS[(self + steps) % 6]

    def right(self, n: int = 1) -> Facing:
        """The facing after turning ``n`` hexsides to the right (clockwise)."""
        return _FACINGS[(self + n) % 6]

    def left(self, n: int = 1) -> Facing:
        """The facing after turning ``n`` hexsides to the left (anticlockwise)."""
        return _FACINGS[(self - n) % 6]

    @property
    def opposite(self) -> Facing:
        """The facing directly behind: the hexside the Rear Arc looks through (p.5)."""
        return _FACINGS[(self + 3) % 6]

    @property
    def bearing(self) -> int:
        """Degrees clockwise from north (0, 60, ..., 300)."""
        return 60 * self

    @property
    def delta(self) -> tuple[int, int]:
        """The axial step ``(dq, dr)`` taken when moving one hex through this hexside."""
        return _DELTAS[self]


_FACINGS: tuple[Facing, ...] = tuple(Facing)
