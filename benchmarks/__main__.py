"""Run every benchmark module (benchmarks/bench_*.py) in name order: `python -m benchmarks [name ...]`."""

from __future__ import annotations

import importlib
import pkgutil
import sys
import time

import benchmarks


def main(argv: list[str]) -> int:
    names = sorted(m.name for m in pkgutil.iter_modules(benchmarks.__path__) if m.name.startswith("bench_"))
    if argv:
        names = [n for n in names if any(arg in n for arg in argv)]
    for name in names:
        started = time.perf_counter()
        print(f"== {name}", flush=True)
        importlib.import_module(f"benchmarks.{name}").main()
        print(f"   ({time.perf_counter() - started:.1f}s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
