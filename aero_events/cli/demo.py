"""``aero demo``: play, store and narrate a seeded game between bots, under any registered ruleset."""

from __future__ import annotations

import argparse

from aero_events.cli.common import db_option, ruleset_named


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("demo", parents=[db_option()],
                                   help="play a seeded bot game into the store and tell it turn by turn")
    parser.add_argument("--ruleset", metavar="NAME|FILE",
                        help="the ruleset: a full name (aeronautica/faq-2020), a family (aeronautica) "
                             "for its default version, or a variant file (.toml/.json: a base ruleset and "
                             "the rule options it changes, stored with the game; see docs/rule-changes.md) "
                             "(default: the default ruleset; aero rulesets lists them)")
    parser.add_argument("--seed", type=int, default=22,
                        help="the seed of the dice and the bots (default 22: an Aeronautica game that shows most "
                             "of the rules)")
    parser.add_argument("--bots", default=None,
                        help="a bot per player, e.g. greedy,random (default: the ruleset's demo bots; "
                             "aero rulesets lists each ruleset's bots)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from aero_events.bots import bots_for
    from aero_events.demo import run_demo

    ruleset = ruleset_named(getattr(args, "ruleset", None))
    bots = None
    if args.bots is not None:
        bots = tuple(name.strip() for name in args.bots.split(","))
        known = bots_for(ruleset)
        unknown = [name for name in bots if name not in known]
        if unknown:
            raise ValueError(f"--bots takes bots of {', '.join(known)} (one per player), not {unknown[0]!r}")
    run_demo(args.db, seed=args.seed, bots=bots, ruleset=ruleset)
    return 0
