"""``python -m benchmarks viz`` prints its one line: build time and frames, fold time, ratio, HTML size."""

from __future__ import annotations

import re

from benchmarks import bench_viz


def test_the_benchmark_prints_its_line(capsys):
    bench_viz.main()
    first = capsys.readouterr().out.splitlines()[0]
    match = re.fullmatch(r"viz replay: ([\d.]+) s to build \((\d+) frames\); fold ([\d.]+) s; ratio (\d+); "
                         r"html (\d+) bytes", first)
    assert match, first
    build, frames, fold, ratio, size = match.groups()
    assert int(frames) > 10 and float(fold) > 0 and float(build) > float(fold)
    assert int(ratio) >= 1  # nothing builds a replay without folding its events
    assert int(size) > 3_000_000
