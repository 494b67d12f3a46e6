"""Seeing games from the command line: ``aero replay`` (an animated HTML replay) and ``aero report``.

Both write a standalone HTML page with plotly.js embedded, so the file opens offline in
any browser, and print its path.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from aero_events.core.errors import AeroError

from .common import db_option, open_store


def register(subparsers: argparse._SubParsersAction) -> None:
    db = db_option()

    replay = subparsers.add_parser("replay", parents=[db],
                                   help="write a game's animated replay (or two branches side by side) as HTML")
    replay.add_argument("game", metavar="GAME", help="game id (or its first characters)")
    replay.add_argument("--branch", default="main", help="the branch to replay (default: main)")
    replay.add_argument("--compare", metavar="BRANCH",
                        help="show BRANCH beside --branch, from the event where they part")
    replay.add_argument("--focus", metavar="PIECE",
                        help="a piece (aircraft) whose Fire Arcs and ranges are shaded, where the ruleset has them")
    replay.add_argument("--out", type=Path, metavar="FILE.html",
                        help="where to write it (default: GAME-BRANCH-replay.html here)")
    replay.set_defaults(handler=run_replay)

    report = subparsers.add_parser("report", parents=[db],
                                   help="write a game's one-page post-match report (replay, statistics, charts)")
    report.add_argument("game", metavar="GAME", help="game id (or its first characters)")
    report.add_argument("--branch", default="main", help="the branch to report on (default: main)")
    report.add_argument("--out", type=Path, required=True, metavar="FILE.html", help="where to write it")
    report.set_defaults(handler=run_report)


def out_folder_exists(out: Path | None) -> None:
    """An ``--out`` file goes into a folder that exists: a mistyped folder is said, not silently created."""
    if out is not None and not out.parent.is_dir():
        raise AeroError(f"--out {out}: the folder {out.parent} does not exist (create it first, or choose another)")


def run_replay(args: argparse.Namespace) -> int:
    from aero_events.analysis.timeline import load_timeline
    from aero_events.viz import compare_spec_from_store, replay_spec, write_html

    out_folder_exists(args.out)
    store = open_store(args, must_exist=True)
    game_id = store.resolve_game_id(args.game)
    if args.compare:
        figure = compare_spec_from_store(store, game_id, args.branch, args.compare)
        default = f"{game_id}-{args.branch}-vs-{args.compare}.html"
        title = f"{game_id}: {args.branch} vs {args.compare}"
    else:
        timeline = load_timeline(store, game_id, args.branch)
        pieces = sorted({piece.id for seq in (0, timeline.head_seq)
                         for piece in timeline.ruleset.scene(timeline.state_at(seq)).pieces})
        if args.focus and args.focus not in pieces:
            raise ValueError(f"game {game_id} has no piece {args.focus!r}; its pieces: " + ", ".join(pieces))
        figure = replay_spec(timeline, focus=args.focus)
        default = f"{game_id}-{args.branch}-replay.html"
        title = f"{game_id} ({args.branch}) replay"
    path = write_html(figure, args.out or Path(default.replace("/", "_")), title=title)
    print(path.resolve())
    return 0


def run_report(args: argparse.Namespace) -> int:
    from aero_events.analysis.report import write_report

    out_folder_exists(args.out)
    store = open_store(args, must_exist=True)
    path = write_report(store, store.resolve_game_id(args.game), args.out, branch=args.branch)
    print(path.resolve())
    return 0
