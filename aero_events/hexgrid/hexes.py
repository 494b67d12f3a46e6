"""A hex of the Area of Engagement in axial coordinates.

Everything in the game is counted in hexes: movement (p.16), range (p.22) and
deployment distances (p.34). ``Hex`` is a plain ``(q, r)`` named tuple so it is
cheap, hashable, ordered and encoded by msgspec as a two-element array. All
arithmetic is exact integer cube-coordinate arithmetic (s = -q - r).
"""

from __future__ import annotations

from typing import NamedTuple

from aero_events.hexgrid.facing import _DELTAS, Facing


class Hex(NamedTuple):
    """An axial hex coordinate ``(q, r)`` on a flat-top grid; ``s = -q - r``.

    ``+``, ``-``, unary ``-`` and ``*`` by an int are vector operations here
    (not tuple concatenation or repetition), so ``a + b`` is a translation.
    """

    q: int
    r: int

    @property
    def s(self) -> int:
        """The third cube coordinate, ``-q - r``."""
        return -self[0] - self[1]

    def add(self, other: tuple[int, int]) -> Hex:
        """This hex translated by the axial offset ``other``."""
        return Hex(self[0] + other[0], self[1] + other[1])

    def sub(self, other: tuple[int, int]) -> Hex:
        """The axial offset from ``other`` to this hex."""
        return Hex(self[0] - other[0], self[1] - other[1])

    def scaled(self, factor: int) -> Hex:
        """This offset repeated ``factor`` times (``factor`` may be negative)."""
        return Hex(self[0] * factor, self[1] * factor)

    def __add__(self, other: tuple[int, int]) -> Hex:  # type: ignore[override]
        return Hex(self[0] + other[0], self[1] + other[1])

    def __sub__(self, other: tuple[int, int]) -> Hex:
        return Hex(self[0] - other[0], self[1] - other[1])

    def __neg__(self) -> Hex:
        return Hex(-self[0], -self[1])

    def __mul__(self, factor: int) -> Hex:  # type: ignore[override]
        return Hex(self[0] * factor, self[1] * factor)

    __rmul__ = __mul__

    def neighbour(self, facing: Facing | int) -> Hex:
        """The adjacent hex through the hexside ``facing`` (one hex of movement, p.16)."""
        dq, dr = _DELTAS[facing]
        return Hex(self[0] + dq, self[1] + dr)

    def neighbours(self) -> tuple[Hex, ...]:
        """The six adjacent hexes, in ``Facing`` order N, NE, SE, S, SW, NW."""
        q, r = self
        return tuple(Hex(q + dq, r + dr) for dq, dr in _DELTAS)

    def distance(self, other: tuple[int, int]) -> int:
        """Hex distance: the number of hexes counted from here to ``other`` (range, p.22)."""
        dq = self[0] - other[0]
        dr = self[1] - other[1]
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def rotate(self, about: tuple[int, int], steps: int) -> Hex:
        """This hex after turning the whole picture ``steps`` x 60 degrees clockwise around ``about``."""
        cq, cr = about
        dq = self[0] - cq
        dr = self[1] - cr
        k = steps % 6
        if k == 0:
            return Hex(cq + dq, cr + dr)
        if k == 1:
            return Hex(cq - dr, cr + dq + dr)
        if k == 2:
            return Hex(cq - dq - dr, cr + dq)
        if k == 3:
            return Hex(cq - dq, cr - dr)
        if k == 4:
            return Hex(cq + dr, cr - dq - dr)
        return Hex(cq + dq + dr, cr - dq)


ORIGIN = Hex(0, 0)
"""The hex at axial (0, 0)."""

#: Per number of 60-degree steps clockwise (0-5): hex -> :meth:`Hex.rotate` of it about :data:`ORIGIN`, filled as
#: hexes are asked (:func:`turned_about_origin`), emptied when one holds :data:`_TURNED_KEPT`.
_TURNED: tuple[dict[tuple[int, int], Hex], ...] = ({}, {}, {}, {}, {}, {})
_TURNED_KEPT = 1 << 14


def turned_about_origin(hexes: tuple[Hex, ...], steps: int) -> tuple[Hex, ...]:
    """``tuple(hex.rotate(ORIGIN, steps) for hex in hexes)``: the whole picture turned ``steps`` x 60 degrees
    clockwise about the origin, each hex's turn looked up (:data:`_TURNED`) once worked out, so a path is turned
    without a Python call per hex. For hexes of whole numbers (a key is found by value: ``(1.0, 0)`` finds the
    entry of ``Hex(1, 0)``)."""
    table = _TURNED[steps % 6]
    try:
        return tuple(map(table.__getitem__, hexes))
    except KeyError:
        if len(table) >= _TURNED_KEPT:
            table.clear()
        for hex in hexes:
            if hex not in table:
                table[hex] = Hex(*hex).rotate(ORIGIN, steps)
        return tuple(map(table.__getitem__, hexes))

DIRECTIONS: tuple[Hex, ...] = tuple(Hex(dq, dr) for dq, dr in _DELTAS)
"""The unit step through each hexside, indexed by ``Facing``."""
