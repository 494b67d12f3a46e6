"""``make bench`` (``python -m benchmarks``): every benchmark module runs, and one that fails is named on one
line with its error while the others' figures are still printed; the exit status says a figure is missing."""

from __future__ import annotations

import types

import benchmarks.__main__ as bench_main


def _modules(monkeypatch, behaviours):
    """Benchmark modules named after ``behaviours`` (name -> main function), found and imported by main."""
    found = [types.SimpleNamespace(name=name) for name in behaviours]
    monkeypatch.setattr(bench_main.pkgutil, "iter_modules", lambda path: found)
    monkeypatch.setattr(bench_main.importlib, "import_module",
                        lambda dotted: types.SimpleNamespace(main=behaviours[dotted.rsplit(".", 1)[1]]))


def test_a_failing_benchmark_is_named_and_the_others_still_run(monkeypatch, capsys):
    ran = []

    def broken():
        raise RuntimeError("the game of seed 0 decided again is not the game played")

    _modules(monkeypatch, {"bench_a": lambda: ran.append("a"), "bench_b": broken,
                           "bench_c": lambda: ran.append("c")})
    assert bench_main.main([]) == 1
    printed = capsys.readouterr().out
    assert ran == ["a", "c"]
    assert "   bench_b FAILED: RuntimeError: the game of seed 0 decided again is not the game played" in printed
    assert printed.rstrip().endswith("1 of 3 benchmarks failed: bench_b")
    assert "Traceback" not in printed


def test_every_benchmark_passing_exits_zero_and_names_each_in_order(monkeypatch, capsys):
    _modules(monkeypatch, {"bench_b": lambda: print("b figure"), "bench_a": lambda: print("a figure"),
                           "helpers": lambda: print("not a benchmark")})
    assert bench_main.main([]) == 0
    printed = capsys.readouterr().out
    assert printed.index("== bench_a") < printed.index("a figure") < printed.index("== bench_b")
    assert "not a benchmark" not in printed and "failed" not in printed


def test_names_on_the_command_line_choose_the_benchmarks(monkeypatch, capsys):
    ran = []
    _modules(monkeypatch, {"bench_dogfight": lambda: ran.append("dogfight"), "bench_odds": lambda: ran.append("odds")})
    assert bench_main.main(["odds"]) == 0
    assert ran == ["odds"]
