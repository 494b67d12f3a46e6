"""The table benchmark runs and reports in the agreed one-line-per-rate format."""

import re

from benchmarks.bench_table import measure, random_cases


def test_benchmark_lines_report_each_rate_its_limit_and_their_ratio():
    """A tiny run prints "table NAME: N calls/s; limit (BARE) M calls/s; ratio R" three times."""
    result = measure(cases=300, repeats=1)
    lines = result.lines()
    assert [rate.name for rate in result.rates] == [
        "point-in-sector",
        "circle-rect gap",
        "circle first contact",
    ]
    pattern = r"table [a-z -]+: [\d,]+ calls/s; limit \([a-z -]+\) [\d,]+ calls/s; ratio \d+\.\d\d"
    assert all(re.fullmatch(pattern, line) for line in lines)
    assert all(rate.calls_per_second > 0 and rate.limit_per_second > 0 for rate in result.rates)


def test_benchmark_cases_are_reproducible_and_within_30_cm():
    cases = random_cases(200)
    assert cases == random_cases(200)
    assert all(abs(base.centre[0] - firer.x) <= 30_000 for firer, base, _ in cases)
