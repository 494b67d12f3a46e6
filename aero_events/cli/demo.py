"""``aero demo``: play, store and narrate a seeded game between two bots."""

from __future__ import annotations

import argparse

from aero_events.cli.common import db_option


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("demo", parents=[db_option()],
                                   help="play a seeded bot game into the store and tell it turn by turn")
    parser.add_argument("--seed", type=int, default=2019, help="the seed of the dice and the bots (default 2019)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from aero_events.demo import run_demo

    run_demo(args.db, seed=args.seed)
    return 0
