"""Seeing games from the command line: ``aero replay`` (an animated HTML replay) and ``aero report``.

Both write a standalone HTML page with plotly.js embedded, so the file opens offline in
any browser, and print its path.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .common import db_option, open_store, refuse_overwriting_a_store

#: Games bots play on from each turn's start for the win-probability strip, unless ``--odds-playouts`` says
#: (:data:`aero_events.odds.strip.DEFAULT_STRIP_PLAYOUTS`, the same number: tests/cli/test_startup.py).
DEFAULT_STRIP_PLAYOUTS = 8


def register(subparsers: argparse._SubParsersAction) -> None:
    db = db_option()

    replay = subparsers.add_parser("replay", parents=[db],
                                   help="write a game's animated replay (or two branches side by side) as HTML")
    replay.add_argument("game", metavar="GAME", help="game id (or its first characters)")
    replay.add_argument("--branch", help="the branch to replay (default: the main line, the game that was played)")
    replay.add_argument("--compare", metavar="BRANCH",
                        help="show BRANCH beside --branch, from the event where they part")
    replay.add_argument("--focus", metavar="PIECE",
                        help="a piece (aircraft) whose Fire Arcs and ranges are shaded, where the ruleset has them")
    replay.add_argument("--out", type=Path, metavar="FILE.html",
                        help="where to write it (default: GAME-BRANCH-replay.html here)")
    page_options(replay)
    replay.set_defaults(handler=run_replay)

    report = subparsers.add_parser("report", parents=[db],
                                   help="write a game's one-page post-match report (replay, statistics, charts)")
    report.add_argument("game", metavar="GAME", help="game id (or its first characters)")
    report.add_argument("--branch", help="the branch to report on (default: the main line)")
    report.add_argument("--out", type=Path, required=True, metavar="FILE.html", help="where to write it")
    page_options(report)
    report.set_defaults(handler=run_report)


def page_options(parser: argparse.ArgumentParser) -> None:
    """``--player`` and ``--odds-playouts``, shared by ``aero replay`` and ``aero report``."""
    parser.add_argument("--player", metavar="PLAYER",
                        help="draw the game as this player may see it: no other side's unrevealed choice is in "
                             "the page (default: as a spectator, who sees no secret)")
    parser.add_argument("--odds-playouts", type=int, default=DEFAULT_STRIP_PLAYOUTS, metavar="N",
                        help=f"games bots play on from each turn's start for the win-probability strip (default "
                             f"{DEFAULT_STRIP_PLAYOUTS}; 0 leaves the strip out; `aero odds` plays more from one "
                             "position)")


def out_folder_exists(out: Path | None) -> None:
    """An ``--out`` file goes into a folder that exists: a mistyped folder is said, not silently created; and it
    is never a DuckDB database (a store of games), which the page would overwrite."""
    from aero_events.core.errors import AeroError

    if out is not None and not out.parent.is_dir():
        raise AeroError(f"--out {out}: the folder {out.parent} does not exist (create it first, or choose another)")
    if out is not None:
        refuse_overwriting_a_store(out, "--out")


def checked_page_options(store: object, game_id: str, args: argparse.Namespace) -> None:
    """A player the game does not have is refused (as ``aero show --player``), and so is a negative count."""
    from aero_events.core.errors import AeroError

    if args.odds_playouts < 0:
        raise AeroError(f"--odds-playouts {args.odds_playouts}: a number of playouts (0 leaves the strip out)")
    if args.player is not None:
        players = store.game(game_id).players  # type: ignore[attr-defined]
        if args.player not in players:
            raise ValueError(f"--player: game {game_id} has no player {args.player!r}; its players are "
                             f"{', '.join(players)}")


def run_replay(args: argparse.Namespace) -> int:
    from aero_events.analysis.report import seen_by
    from aero_events.analysis.timeline import load_timeline
    from aero_events.viz import compare_spec_from_store, replay_spec, write_html

    out_folder_exists(args.out)
    store = open_store(args, must_exist=True, read_only=True)
    game_id = store.resolve_game_id(args.game)
    checked_page_options(store, game_id, args)
    args.branch = store.resolve_branch(game_id, args.branch)  # None: the main line
    seen = f", as {args.player} sees it" if args.player else ""
    if args.compare:
        figure = compare_spec_from_store(store, game_id, args.branch, args.compare, viewer=args.player)
        default = f"{game_id}-{args.branch}-vs-{args.compare}.html"
        title = f"{game_id}: {args.branch} vs {args.compare}{seen}"
    else:
        timeline = load_timeline(store, game_id, args.branch)
        pieces = sorted({piece.id for seq in (0, timeline.head_seq)
                         for piece in timeline.ruleset.scene(timeline.state_at(seq)).pieces})
        if args.focus and args.focus not in pieces:
            raise ValueError(f"game {game_id} has no piece {args.focus!r}; its pieces: " + ", ".join(pieces))
        strip = None
        if args.odds_playouts:
            from aero_events.odds import left_out_note, strip_of_timeline

            # as the page's viewer may see it: no point played on from a state hiding something from them
            strip = strip_of_timeline(timeline, playouts=args.odds_playouts, viewer=args.player)
            note = left_out_note(strip, args.player, timeline.ruleset)
            if note:
                print(note, file=sys.stderr)
            if not any(point.playouts for point in strip):
                strip = None  # nothing but the result is left: no strip
        timeline = seen_by(timeline, args.player)  # a spectator's (None) or a player's: no secret of anyone else
        figure = replay_spec(timeline, focus=args.focus, viewer=args.player, strip=strip)
        default = f"{game_id}-{args.branch}-replay.html"
        title = f"{game_id} ({args.branch}) replay{seen}"
    if args.player is not None and isinstance(figure["layout"].get("title"), dict):
        figure["layout"]["title"]["text"] += f" <i>(as {args.player} sees it)</i>"
    out = args.out or Path(default.replace("/", "_"))
    refuse_overwriting_a_store(out, "--out")
    path = write_html(figure, out, title=title)
    print(path.resolve())
    return 0


def run_report(args: argparse.Namespace) -> int:
    from aero_events.analysis.report import write_report

    out_folder_exists(args.out)
    store = open_store(args, must_exist=True, read_only=True)
    game_id = store.resolve_game_id(args.game)
    checked_page_options(store, game_id, args)
    path = write_report(store, game_id, args.out, branch=store.resolve_branch(game_id, args.branch),
                        viewer=args.player, odds_playouts=args.odds_playouts)
    print(path.resolve())
    return 0
