"""``aero demo``: play, store and narrate a seeded game between two bots."""

from __future__ import annotations

import argparse

from aero_events.cli.common import db_option


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("demo", parents=[db_option()],
                                   help="play a seeded bot game into the store and tell it turn by turn")
    parser.add_argument("--seed", type=int, default=22,
                        help="the seed of the dice and the bots (default 22: a game that shows most of the rules)")
    parser.add_argument("--bots", default="greedy,random",
                        help="the bots of the two players, from greedy and random (default greedy,random)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from aero_events.demo import BOTS, run_demo

    bots = tuple(name.strip() for name in args.bots.split(","))
    if len(bots) != 2 or any(name not in BOTS for name in bots):
        raise ValueError(f"--bots takes two of {', '.join(BOTS)}, e.g. greedy,random")
    run_demo(args.db, seed=args.seed, bots=bots)  # type: ignore[arg-type]
    return 0
