"""``aero record``: record a game played on a real table (aero_events/record/recorder.py).

``aero record --forces A.json B.json --points 100 --board 4x4`` starts a Dogfight (p.34-35) between two
force files; without ``--forces`` the forces are typed in from the catalogue's choices. ``aero record
--resume GAME [--branch B]`` goes on with a stored game (on its current branch: the last undo's).
``--digital-dice [--seed S]`` rolls every die on screen instead of asking for the faces rolled.

Exporting and importing records: ``aero export GAME FILE --format record`` (or a ``.aero`` FILE) and
``aero import FILE`` (store_commands.py hands record files to aero_events/record/transfer.py).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from aero_events.cli.common import db_option
from aero_events.core.errors import AeroError

BOARDS = ("3x3", "4x4", "8x4")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("record", parents=[db_option()],
                                   help="record a game played on a real table, answer by answer")
    parser.add_argument("--forces", nargs=2, type=Path, metavar=("FIRST.json", "SECOND.json"),
                        help="the two force lists (JSON); without it they are typed in")
    parser.add_argument("--players", nargs=2, metavar=("FIRST", "SECOND"),
                        help="the players' names (default: the force files' names); the first sets up south")
    parser.add_argument("--points", type=int, help="the agreed points value, 25-250 (p.34)")
    parser.add_argument("--board", choices=BOARDS, help="the Area of Engagement (p.9)")
    parser.add_argument("--game", metavar="ID", help="the new game's id (default: table-YYYYMMDD-N)")
    parser.add_argument("--event", help="what the game is played for (the record's [Event])")
    parser.add_argument("--resume", metavar="GAME", help="go on with a stored game")
    parser.add_argument("--branch", help="with --resume: the branch to go on with (default: the current one)")
    parser.add_argument("--digital-dice", action="store_true", help="roll every die on screen")
    parser.add_argument("--seed", help="the seed of the digital dice")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace, ask: Callable[[str], str] | None = None,
        say: Callable[[str], None] | None = None) -> int:
    from aero_events.record.recorder import TableRecorder
    from aero_events.store import EventStore

    ask = ask or read_line
    say = say or _print
    store = EventStore(args.db)
    seed = _seed(args.seed)
    if args.resume:
        recorder = TableRecorder.resume(store, args.resume, args.branch, ask=ask, say=say,
                                        digital=args.digital_dice, seed=seed)
        return recorder.run()
    if args.branch:
        raise AeroError("--branch goes with --resume GAME")
    if args.game and any(summary.id == args.game for summary in store.games()):
        raise AeroError(f"game {args.game} is already in the store: go on with it with --resume {args.game}")
    rules, setup = _new_setup(args, ask, say)
    game_id = args.game or _new_game_id(store)
    metadata = {"event": args.event} if args.event else {}
    metadata["recorder"] = "aero record"
    recorder = TableRecorder.new_game(store, rules, setup, game_id=game_id, metadata=metadata, ask=ask, say=say,
                                      digital=args.digital_dice, seed=seed)
    return recorder.run()


def _new_setup(args: argparse.Namespace, ask: Callable[[str], str], say: Callable[[str], None]):
    from aero_events.record.force_builder import build_force
    from aero_events.rulesets.aeronautica import AeronauticaRules
    from aero_events.rulesets.aeronautica.forces import force_points, load_force
    from aero_events.rulesets.aeronautica.scenarios.dogfight import dogfight_setup

    rules = AeronauticaRules()
    forces = [load_force(path) for path in args.forces] if args.forces else None
    defaults = [path.stem for path in args.forces] if args.forces else ["first", "second"]
    names = list(args.players) if args.players else [
        _ask_default(ask, f"name of the {which} player{where}", default)
        for which, where, default in zip(("first", "second"), (" (sets up on the south edge)", ""), defaults,
                                         strict=True)]
    if names[0] == names[1]:
        raise AeroError("the two players need different names")
    points = args.points
    if points is None:
        default = max(25, *(f.points_limit or force_points(f, rules.catalogue).total for f in forces)) if forces \
            else 100
        points = _ask_number(ask, say, "the agreed points value (25-250, p.34)", default)
    if forces is None:
        forces = [build_force(name, points, rules.catalogue, ask, say) for name in names]
    board = args.board or _ask_choice(ask, say, "the Area of Engagement (p.9)", BOARDS, "3x3")
    setup = dogfight_setup((names[0], forces[0]), (names[1], forces[1]), points, board=board,
                           catalogue=rules.catalogue)
    return rules, setup


def _new_game_id(store) -> str:
    day = datetime.now(UTC).strftime("%Y%m%d")
    return store.unused_game_id(f"table-{day}-1", f"table-{day}-{{}}")


def _seed(text: str | None) -> int | str | None:
    if text is None:
        return None
    return int(text) if text.lstrip("-").isdigit() else text


def _ask_default(ask: Callable[[str], str], question: str, default: str) -> str:
    return ask(f"{question} [{default}]? ").strip() or default


def _ask_number(ask: Callable[[str], str], say: Callable[[str], None], question: str, default: int) -> int:
    while True:
        answer = ask(f"{question} [{default}]? ").strip()
        if not answer:
            return default
        if answer.isdigit():
            return int(answer)
        say("  a number, please")


def _ask_choice(ask: Callable[[str], str], say: Callable[[str], None], question: str, choices: tuple[str, ...],
                default: str) -> str:
    while True:
        answer = ask(f"{question}, {' / '.join(choices)} [{default}]? ").strip() or default
        if answer in choices:
            return answer
        say(f"  one of {', '.join(choices)}")


def read_line(prompt: str) -> str:
    """A line from standard input after ``prompt``; EOFError when input ends."""
    sys.stdout.write(prompt)
    sys.stdout.flush()
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line.rstrip("\n")


def _print(line: str) -> None:
    print(line, flush=True)
