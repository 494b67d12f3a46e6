"""Build the committed sine table ``_sine_quadrant.py`` from exact decimal arithmetic.

``SINE_QUADRANT[k]`` is ``round(sin(k/100 degrees) * 2**30)`` for ``k`` in ``0..9000``, rounded
half-to-even. The value is computed with :mod:`decimal` at 80 significant digits (pi by Machin's
formula, sine by its Taylor series), so the result does not depend on the platform's libm or on the
Python version: rerunning this script anywhere gives the same bytes. ``tests/table/test_trig.py``
recomputes the table, compares it with the committed file and with ``math.sin`` (within one unit),
and checks its SHA-256.

Run ``python -m aero_events.table.make_sine_table`` to rewrite the module (never needed unless the
scale changes).
"""

from __future__ import annotations

import hashlib
from decimal import ROUND_HALF_EVEN, Context, Decimal, localcontext
from pathlib import Path

SCALE_BITS = 30
STEPS_PER_QUADRANT = 9_000
PRECISION = 80
MODULE = Path(__file__).with_name("_sine_quadrant.py")


def _arctan_inverse(n: int) -> Decimal:
    """``atan(1/n)`` by its series, in the current decimal context."""
    x = Decimal(1) / n
    x_squared = x * x
    term = x
    total = x
    k = 1
    sign = -1
    eps = Decimal(10) ** -(PRECISION + 5)
    while abs(term) > eps:
        term *= x_squared
        total += sign * term / (2 * k + 1)
        sign = -sign
        k += 1
    return total


def _pi() -> Decimal:
    """Pi by Machin's formula ``16 atan(1/5) - 4 atan(1/239)``."""
    return 16 * _arctan_inverse(5) - 4 * _arctan_inverse(239)


def _sine(x: Decimal) -> Decimal:
    """``sin(x)`` for ``0 <= x <= pi/2`` by its Taylor series."""
    term = x
    total = x
    x_squared = x * x
    n = 1
    eps = Decimal(10) ** -(PRECISION + 5)
    while abs(term) > eps:
        term = -term * x_squared / ((2 * n) * (2 * n + 1))
        total += term
        n += 1
    return total


def compute_quadrant() -> tuple[int, ...]:
    """The scaled sines of ``0, 0.01, ..., 90.00`` degrees, exactly rounded half-to-even."""
    with localcontext(Context(prec=PRECISION + 10, rounding=ROUND_HALF_EVEN)):
        step = _pi() / (2 * STEPS_PER_QUADRANT)
        scale = Decimal(1 << SCALE_BITS)
        values = [int((_sine(step * k) * scale).to_integral_value()) for k in range(STEPS_PER_QUADRANT + 1)]
    values[-1] = 1 << SCALE_BITS  # sin 90 degrees; the series gives 2**30 within 1e-70 anyway
    return tuple(values)


def digest(values: tuple[int, ...]) -> str:
    """SHA-256 of the table as 4-byte little-endian integers."""
    return hashlib.sha256(b"".join(v.to_bytes(4, "little") for v in values)).hexdigest()


def module_text(values: tuple[int, ...]) -> str:
    """The source of ``_sine_quadrant.py``."""
    lines = [
        '"""Committed sine table: ``round(sin(k/100 deg) * 2**30)`` for k = 0..9000 (see make_sine_table)."""',
        "",
        f'SHA256 = "{digest(values)}"',
        "",
        "# fmt: off",
        "SINE_QUADRANT = (",
    ]
    for start in range(0, len(values), 8):
        lines.append("    " + ", ".join(str(v) for v in values[start : start + 8]) + ",")
    lines.append(")")
    lines.append("# fmt: on")
    return "\n".join(lines) + "\n"


def main() -> None:
    """Rewrite ``_sine_quadrant.py`` next to this file."""
    MODULE.write_text(module_text(compute_quadrant()))


if __name__ == "__main__":
    main()
