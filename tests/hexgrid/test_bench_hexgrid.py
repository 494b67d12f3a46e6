"""The hexgrid benchmark runs and reports in its agreed one-line format."""

import re

from benchmarks.bench_hexgrid import measure, random_pairs


def test_benchmark_line_reports_both_rates_and_their_ratio():
    """A tiny run prints "hexgrid arcs: N calls/s; limit (bare distance calls) M calls/s; ratio R"."""
    result = measure(pairs=2_000, repeats=1)
    assert result.arcs_per_second > 0 and result.distance_per_second > 0
    pattern = r"hexgrid arcs: [\d,]+ calls/s; limit \(bare distance calls\) [\d,]+ calls/s; ratio \d+\.\d\d"
    assert re.fullmatch(pattern, result.line())


def test_benchmark_pairs_are_reproducible_and_nearby():
    """Pairs come from a fixed seed and stay within 12 hexes, covering every range band."""
    pairs = random_pairs(500)
    assert pairs == random_pairs(500)
    assert all(firer.hex.distance(target) <= 12 for firer, target in pairs)
