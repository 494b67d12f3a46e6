"""``python -m aero_events.core.shape_history --write | --check [RULESET ...]``: record each ruleset's current
state shape in its history (``data/state_shapes.json`` beside its module), or fail, naming this command, while
one is missing (:mod:`aero_events.core.state_shape`). Run ``--write`` after adding, removing or renaming a field
of any Struct a ruleset's state holds, and commit the file: old entries stay, so old games keep replaying.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .state_shape import (
    current_fingerprint,
    missing_from_history,
    shape_history,
    state_type_of,
    write_history,
)


def _rulesets(names: list[str]) -> list[Any]:
    from .registry import get_ruleset, known_rulesets

    found, seen = [], set()
    for name in names or known_rulesets():
        ruleset = get_ruleset(name)
        key = (type(ruleset), state_type_of(ruleset))
        if key not in seen:
            seen.add(key)
            found.append(ruleset)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m aero_events.core.shape_history",
                                     description="Record (--write) or check (--check) each ruleset's current "
                                                 "state shape in its history, data/state_shapes.json.")
    parser.add_argument("--write", action="store_true", help="append each missing current shape")
    parser.add_argument("--check", action="store_true", help="fail when a current shape is missing (default)")
    parser.add_argument("rulesets", nargs="*", help="ruleset names (default: every known ruleset)")
    args = parser.parse_args(argv)
    missing = 0
    for ruleset in _rulesets(args.rulesets):
        current = current_fingerprint(ruleset)
        if args.write:
            added = write_history(ruleset)
            print(f"{ruleset.name}: {current} " + ("added to" if added else "already in")
                  + f" {shape_history(ruleset).source}")
        elif (problem := missing_from_history(ruleset)) is not None:
            print(problem)
            missing += 1
        else:
            print(f"{ruleset.name}: {current} is in its history")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
