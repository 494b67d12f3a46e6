"""How fast the table geometry runs, against the bare integer arithmetic it is built on as the limit.

Open-table rulesets ask "is it in my arc", "how far is that base" and "when does this move touch
that marker" for every pair of pieces many times per simulated turn. Three lines, each the calls per
second of a ``aero_events.table`` function and of the bare arithmetic for the same question written
inline on the same inputs (the limit: what the question costs with no checks, no dispatch, no
boundary rules), and their ratio (1.0 would mean the library costs nothing over the bare sums):

* point-in-sector vs two bare integer cross products against precomputed ray vectors;
* circle-to-rectangle ``gap`` vs the bare point-to-four-sides squared distance (corners precomputed);
* circle ``first_contact`` vs the bare quadratic with ``isqrt`` (no exact ceiling, no checks).

Run alone with ``python benchmarks/bench_table.py`` or import ``main``.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from math import isqrt

from aero_events.table import (
    COS,
    SIN,
    Circle,
    OrientedRect,
    Pose,
    Sector,
    first_contact,
    gap,
    mm,
    point_in_sector,
)

CASES = 50_000
REPEATS = 3


@dataclass(frozen=True)
class Rate:
    """Calls per second of one library function and of its bare-arithmetic limit."""

    name: str
    limit_name: str
    calls_per_second: float
    limit_per_second: float

    @property
    def ratio(self) -> float:
        """Library throughput as a fraction of the bare arithmetic's."""
        return self.calls_per_second / self.limit_per_second

    def line(self) -> str:
        """One line of the report."""
        return (
            f"table {self.name}: {self.calls_per_second:,.0f} calls/s; "
            f"limit ({self.limit_name}) {self.limit_per_second:,.0f} calls/s; ratio {self.ratio:.2f}"
        )


@dataclass(frozen=True)
class TableBenchmark:
    """The three rates measured in one run."""

    cases: int
    rates: tuple[Rate, ...]

    def lines(self) -> list[str]:
        """The report printed by ``main``, one line per rate."""
        return [rate.line() for rate in self.rates]


def random_cases(count: int, seed: int = 20261123) -> list[tuple[Pose, Circle, OrientedRect]]:
    """``count`` (firer pose, round target base, rectangular target base) triples on a 180 x 120 cm table."""
    rng = random.Random(seed)
    cases = []
    for _ in range(count):
        firer = Pose(rng.randint(0, 180_000), rng.randint(0, 120_000), rng.randrange(36_000))
        x, y = firer.x + rng.randint(-30_000, 30_000), firer.y + rng.randint(-30_000, 30_000)
        cases.append(
            (firer, Circle((x, y), mm(16)), OrientedRect(Pose(x, y, rng.randrange(36_000)), 4400, 6700))
        )
    return cases


def _best_seconds(run, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def measure(cases: int = CASES, repeats: int = REPEATS) -> TableBenchmark:
    """Time each library loop and its bare loop over the same random cases, best of ``repeats``."""
    triples = random_cases(cases)
    sectors = [(Sector(firer, 3500, mm(200)), base.centre) for firer, base, _ in triples]
    rays = []
    for sector, target in sectors:
        apex = sector.apex
        left = (apex.heading - 3500) % 36_000
        right = (apex.heading + 3500) % 36_000
        rays.append((apex.x, apex.y, SIN[left], COS[left], SIN[right], COS[right], target))
    pairs = [(base, rect) for _, base, rect in triples]
    corner_pairs = [(base.centre, rect.corners()) for base, rect in pairs]
    moves = [
        (Circle((firer.x, firer.y), mm(16)), (base.centre[0] - firer.x, base.centre[1] - firer.y), base)
        for firer, base, _ in triples
    ]
    bare_moves = [
        (mover.centre, delta, base.centre, mover.radius + base.radius) for mover, delta, base in moves
    ]

    def sectors_loop() -> None:
        for sector, target in sectors:
            point_in_sector(target, sector)

    def bare_crosses() -> None:
        for ax, ay, lx, ly, rx, ry, (tx, ty) in rays:
            vx = tx - ax
            vy = ty - ay
            _ = lx * vy - ly * vx <= 0 and rx * vy - ry * vx >= 0

    def gaps_loop() -> None:
        for base, rect in pairs:
            gap(base, rect)

    def bare_distances() -> None:
        for (px, py), corners in corner_pairs:  # squared distance to the four sides, no inside test
            best_n, best_d = -1, 1
            ax, ay = corners[3]
            for bx, by in corners:
                ex, ey, wx, wy = bx - ax, by - ay, px - ax, py - ay
                dot = wx * ex + wy * ey
                length2 = ex * ex + ey * ey
                if dot <= 0:
                    n, d = wx * wx + wy * wy, 1
                elif dot >= length2:
                    n, d = (px - bx) ** 2 + (py - by) ** 2, 1
                else:
                    n, d = (wx * ey - wy * ex) ** 2, length2
                if best_n < 0 or n * best_d < best_n * d:
                    best_n, best_d = n, d
                ax, ay = bx, by
            isqrt(best_n // best_d)

    def contacts_loop() -> None:
        for mover, delta, base in moves:
            first_contact(mover, delta, base)

    def bare_quadratics() -> None:
        for (cx, cy), (dx, dy), (ox, oy), reach in bare_moves:
            wx = cx - ox
            wy = cy - oy
            a = dx * dx + dy * dy
            b = wx * dx + wy * dy
            c = wx * wx + wy * wy - reach * reach
            disc = b * b - a * c
            if a and disc >= 0:
                (-b - isqrt(disc)) * 1_000_000 // a

    rates = []
    for name, limit_name, library, bare in (
        ("point-in-sector", "bare integer cross products", sectors_loop, bare_crosses),
        ("circle-rect gap", "bare point-to-sides arithmetic", gaps_loop, bare_distances),
        ("circle first contact", "bare quadratic with isqrt", contacts_loop, bare_quadratics),
    ):
        library_seconds = _best_seconds(library, repeats)
        bare_seconds = _best_seconds(bare, repeats)
        rates.append(Rate(name, limit_name, cases / library_seconds, cases / bare_seconds))
    return TableBenchmark(cases, tuple(rates))


def main() -> None:
    """Run the benchmark and print its report."""
    for line in measure().lines():
        print(line)


if __name__ == "__main__":
    main()
