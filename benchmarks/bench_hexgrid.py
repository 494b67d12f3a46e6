"""How fast the Fire Arc and range-band tests run, against bare hex distance as the limit.

Targeting (p.21-22) and Tailing (p.30) ask "which arcs, what range" for every
firer/target pair, many times per simulated turn, so ``arcs_containing`` plus a
range band must stay close to the cost of a plain ``Hex.distance`` call. Prints
one line; the ratio is arcs calls/s divided by distance calls/s (1.0 would mean
the arc and range test costs no more than a bare distance call).

Run alone with ``python benchmarks/bench_hexgrid.py`` or import ``main``.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from aero_events.hexgrid import Facing, Hex, Pose, arcs_containing, range_between

PAIRS = 200_000
REPEATS = 5


@dataclass(frozen=True)
class HexgridBenchmark:
    """Calls per second for the arc + range test and for the bare-distance limit."""

    pairs: int
    arcs_per_second: float
    distance_per_second: float

    @property
    def ratio(self) -> float:
        """Arc + range throughput as a fraction of bare distance throughput."""
        return self.arcs_per_second / self.distance_per_second

    def line(self) -> str:
        """The one-line report printed by ``main``."""
        return (
            f"hexgrid arcs: {self.arcs_per_second:,.0f} calls/s; "
            f"limit (bare distance calls) {self.distance_per_second:,.0f} calls/s; ratio {self.ratio:.2f}"
        )


def random_pairs(count: int, seed: int = 20240601) -> list[tuple[Pose, Hex]]:
    """``count`` firer poses with a target hex up to 12 hexes away in any direction."""
    rng = random.Random(seed)
    facings = list(Facing)
    pairs = []
    for _ in range(count):
        firer = Pose(Hex(rng.randint(0, 54), rng.randint(-27, 24)), rng.choice(facings))
        dq = rng.randint(-12, 12)
        dr = rng.randint(max(-12, -12 - dq), min(12, 12 - dq))
        pairs.append((firer, Hex(firer.hex.q + dq, firer.hex.r + dr)))
    return pairs


def _best_seconds(run, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def measure(pairs: int = PAIRS, repeats: int = REPEATS) -> HexgridBenchmark:
    """Time both loops over the same random pairs, best of ``repeats`` runs each."""
    pose_pairs = random_pairs(pairs)
    hex_pairs = [(firer.hex, target) for firer, target in pose_pairs]

    def arcs_and_ranges() -> None:
        for firer, target in pose_pairs:
            arcs_containing(firer, target)
            range_between(firer.hex, target)

    def bare_distances() -> None:
        for a, b in hex_pairs:
            a.distance(b)

    arcs_seconds = _best_seconds(arcs_and_ranges, repeats)
    distance_seconds = _best_seconds(bare_distances, repeats)
    return HexgridBenchmark(pairs, pairs / arcs_seconds, pairs / distance_seconds)


def main() -> None:
    """Run the benchmark and print its one-line report."""
    print(measure().line())


if __name__ == "__main__":
    main()
