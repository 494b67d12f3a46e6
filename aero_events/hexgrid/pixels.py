"""Where a hex is drawn: flat-top hex centres and corners in a y-up plane.

Only for drawing (Plotly's y axis points up) and for geometric cross-checks in
tests; game rules never use floats. On the table a hex is 2 inches across the
flats (p.9), so its circumradius, the ``size`` used here, is 2/sqrt(3) inches
and neighbouring centres are exactly 2 inches apart.
"""

from __future__ import annotations

from math import sqrt

from aero_events.hexgrid.hexes import Hex

SQRT3 = sqrt(3.0)

HEX_ACROSS_FLATS_INCHES = 2
"""A hex measures 2 inches between opposite sides (p.9)."""

HEX_SIZE_INCHES = 2 / SQRT3
"""Circumradius (centre to corner) of a 2-inch hex, in inches."""


def pixel_centre(hex: Hex, size: float = HEX_SIZE_INCHES) -> tuple[float, float]:
    """The centre of ``hex`` with y up: ``x = 1.5*size*q``, ``y = -sqrt(3)*size*(r + q/2)``."""
    q, r = hex
    return 1.5 * size * q, -SQRT3 * size * (r + q / 2)


# Flat-top corners sit at 0, 60, ..., 300 degrees anticlockwise from the +x axis.
_CORNER_UNITS = ((1.0, 0.0), (0.5, SQRT3 / 2), (-0.5, SQRT3 / 2), (-1.0, 0.0), (-0.5, -SQRT3 / 2),
                 (0.5, -SQRT3 / 2))


def pixel_corners(hex: Hex, size: float = HEX_SIZE_INCHES) -> tuple[tuple[float, float], ...]:
    """The six corners of ``hex`` with y up, anticlockwise starting from the east corner."""
    x, y = pixel_centre(hex, size)
    return tuple((x + size * ux, y + size * uy) for ux, uy in _CORNER_UNITS)
