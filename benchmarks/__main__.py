"""Run every benchmark module (benchmarks/bench_*.py) in name order: `python -m benchmarks [name ...]`.

A module that fails is named with its error on one line and the others still run; the exit status is 1 when
any failed, so ``make bench`` reports every figure it could measure and still says that one is missing."""

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
    failed = []
    for name in names:
        started = time.perf_counter()
        print(f"== {name}", flush=True)
        try:
            importlib.import_module(f"benchmarks.{name}").main()
        except Exception as error:  # noqa: BLE001 -- one benchmark's failure must not hide the others' figures
            failed.append(name)
            print(f"   {name} FAILED: {type(error).__name__}: {error}", flush=True)
        print(f"   ({time.perf_counter() - started:.1f}s)", flush=True)
    if failed:
        print(f"{len(failed)} of {len(names)} benchmarks failed: {', '.join(failed)}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
