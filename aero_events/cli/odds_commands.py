"""``aero odds GAME [--branch B] [--at SEQ] [--playouts N] [--bot NAME] [--workers|--processes K]
[--dask ADDRESS|local]``: each side's chances from a position of a stored game, by playing it on many times in
memory (:mod:`aero_events.odds`). The stored game is read, never written."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from .common import console, db_option, open_store

if TYPE_CHECKING:  # the handler imports what it uses: building the parser imports none of it
    from aero_events.odds import Odds


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "odds", parents=[db_option()],
        help="each side's win probability from a position of a game, by bots playing it on (never stored)")
    parser.add_argument("game", metavar="GAME", help="game id (or its first characters)")
    parser.add_argument("--branch", help="the branch (default: the main line, the game that was played)")
    parser.add_argument("--at", type=int, metavar="SEQ",
                        help="the position after this event (default: the branch's last event); secret orders "
                             "sealed in its turn are given again in every playout, and an event inside a command "
                             "is played on from where that command was given")
    parser.add_argument("--playouts", type=int, default=1000, metavar="N", help="games played on (default 1000)")
    parser.add_argument("--bot", metavar="NAME", help="the bot playing every side (default: the ruleset's default)")
    parser.add_argument("--seed", type=int, default=0, metavar="S",
                        help="the run's seed; playout i uses a seed derived from (S, i) (default 0)")
    parser.add_argument("--workers", "--processes", dest="workers", type=int, default=2, metavar="K",
                        help="local processes to play in (default 2; 1: this process)")
    parser.add_argument("--dask", metavar="ADDRESS|local",
                        help="spread the playouts with Dask: a scheduler address, or 'local' for a local cluster")
    parser.add_argument("--json", action="store_true", help="print the odds as JSON")
    parser.set_defaults(handler=run_odds)


def run_odds(args: argparse.Namespace) -> int:
    import msgspec

    from aero_events.odds import odds

    with open_store(args, must_exist=True, read_only=True) as store:
        game_id = store.resolve_game_id(args.game)
        branch = store.resolve_branch(game_id, args.branch)  # None: the main line
        game = store.load_game(game_id)
    found = odds(game, branch=branch, seq=args.at, playouts=args.playouts, bot=args.bot, seed=args.seed,
                 workers=args.workers, dask=args.dask)
    if args.json:
        print(msgspec.json.encode(found).decode())
        return 0
    print_odds(found)
    return 0


def print_odds(found: Odds) -> None:
    from rich.table import Table

    out = console()
    if found.start_seq == found.seq:
        start = ""
    elif found.before_sealed_orders:
        start = (f" (played on from event {found.start_seq}, before the turn's first sealed order: each playout "
                 "gives the turn's secret orders afresh)")
    else:
        start = f" (played on from event {found.start_seq}, where a player decides: event {found.seq} is part way " \
                "through a command)"
    out.print(f"game {found.game_id}, branch {found.branch}, after event {found.seq}, turn {found.turn}{start}: "
              f"{found.playouts} playouts by the {found.bot} bot in {found.seconds:.1f}s "
              f"(average end in turn {found.mean_turns:.1f})")
    table = Table()
    for column in ("side", "wins", "win probability", "95% interval", f"expected {found.score_name}"):
        table.add_column(column, justify="left" if column == "side" else "right")
    for side in found.sides:
        low, high = side.interval
        table.add_row(side.side, str(side.wins), f"{side.win_probability:.1%}", f"{low:.1%} - {high:.1%}",
                      f"{side.expected_score:.1f}")
    out.print(table)
    if found.draws or found.unfinished:
        out.print(f"draws {found.draws}, unfinished {found.unfinished}")
