"""Integer units on the table: lengths in 1/100 mm, angles in 1/100 degree.

Every length the geometry stores or returns is an ``int`` of hundredths of a millimetre ("centi-mm"),
every angle an ``int`` of hundredths of a degree ("centidegrees"). The helpers below turn rulebook
measures into those units exactly: ``inches(1) == 2540`` (1 inch is 25.4 mm by definition),
``cm(30) == 3000``. A measure that is not a whole number of centi-mm (a third of an inch) is rounded
half-to-even; floats are read exactly (``Fraction(0.1)``), so prefer ints, ``Fraction`` or decimal
strings such as ``"12.5"`` in data files.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from functools import lru_cache

CENTI_MM = 1
"""The unit of length: one hundredth of a millimetre."""
MM = 100
CM = 1_000
INCH = 2_540

CENTIDEGREE = 1
"""The unit of angle: one hundredth of a degree."""
DEGREE = 100
FULL_TURN = 36_000
HALF_TURN = 18_000
QUARTER_TURN = 9_000

Measure = int | Fraction | Decimal | float | str


def _exact(value: Measure) -> Fraction:
    if isinstance(value, bool):
        raise TypeError("a measure cannot be a bool")
    if isinstance(value, str):
        return Fraction(Decimal(value))
    return Fraction(value)


def _scaled(value: Measure, unit: int) -> int:
    """``value * unit`` rounded half-to-even to an int (Python's ``round`` on a Fraction is exact)."""
    if type(value) is int:
        return value * unit
    return _scaled_exactly(value, unit)


@lru_cache(maxsize=4096, typed=True)
def _scaled_exactly(value: Measure, unit: int) -> int:
    """:func:`_scaled` of a non-int measure, once per measure (rulebook measures recur on hot paths)."""
    return round(_exact(value) * unit)


def mm(value: Measure) -> int:
    """``value`` millimetres in centi-mm."""
    return _scaled(value, MM)


def cm(value: Measure) -> int:
    """``value`` centimetres in centi-mm."""
    return _scaled(value, CM)


def inches(value: Measure) -> int:
    """``value`` inches in centi-mm (1 inch = 25.4 mm exactly)."""
    return _scaled(value, INCH)


def degrees(value: Measure) -> int:
    """``value`` degrees in centidegrees, not normalised (a half-angle of 35 degrees is ``3500``)."""
    return _scaled(value, DEGREE)


def heading(value: Measure) -> int:
    """A compass heading of ``value`` degrees clockwise from north, normalised to ``[0, 36000)``."""
    return _scaled(value, DEGREE) % FULL_TURN


def normalise(angle: int) -> int:
    """An angle in centidegrees brought into ``[0, 36000)``."""
    return angle % FULL_TURN


def signed_angle(angle: int) -> int:
    """An angle in centidegrees brought into ``(-18000, 18000]`` (positive is clockwise, to the right)."""
    angle %= FULL_TURN
    return angle - FULL_TURN if angle > HALF_TURN else angle


def to_mm(length: int) -> float:
    """A length in millimetres as a float, for drawing only (``Scene`` uses mm floats)."""
    return length / MM


def to_degrees(angle: int) -> float:
    """An angle in degrees as a float, for drawing only."""
    return angle / DEGREE
