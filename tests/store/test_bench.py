"""The store benchmark runs end to end (at a small size) and prints its three lines."""

from __future__ import annotations

import re

from benchmarks import bench_store


def test_the_benchmark_prints_ratios_against_limits_measured_in_the_same_run(capsys):
    results = bench_store.main(["--append-events", "3000", "--read-events", "2000"])
    out = capsys.readouterr().out
    assert re.search(r"^store append: [\d,]+ ev/s; limit \(raw Arrow insert\) [\d,]+ ev/s; ratio [\d.]+ "
                     r"\(goal >= 0\.5\)$", out, re.MULTILINE)
    assert re.search(r"^store read\+fold: [\d,]+ ev/s; .* ratio [\d.]+ \(goal >= 0\.5\)$", out, re.MULTILINE)
    assert re.search(r"^store size: [\d.]+ bytes per event on disk", out, re.MULTILINE)
    assert results["append"]["events"] == 3000 and results["read"]["events"] == 2000
    assert 0 < results["append"]["ratio"] and 0 < results["read"]["ratio"]
    assert results["append"]["bytes_per_event"] > 0
