"""``aero record``: record a game played on a real table (aero_events/record/recorder.py), of any ruleset.

``aero record --ruleset NAME`` chooses the ruleset (default ``aeronautica``); the new game's setup is the
ruleset's recorder guide's (``new_setup``), from the options below and answers typed in. For Aeronautica:
``aero record --forces A.json B.json --points 100 --board 4x4`` starts a Dogfight (p.34-35) between two
force files; without ``--forces`` the forces are typed in from the catalogue's choices. Another ruleset
takes ``--scenario`` and ``--option KEY=VALUE`` for its scenario. ``aero record --resume GAME [--branch B]``
goes on with a stored game (on its current branch: the last undo's). ``--digital-dice [--seed S]`` rolls
every die on screen instead of asking for the faces rolled.

Secret orders (face-down tokens, planned cards) are typed unseen: at a terminal through getpass (not
echoed); from a pipe or a file, read as a line like any answer (nothing is echoed there either).

Exporting and importing records: ``aero export GAME FILE --format record`` (or a ``.aero`` FILE) and
``aero import FILE`` (store_commands.py hands record files to aero_events/record/transfer.py).
"""

from __future__ import annotations

import argparse
import getpass
import json
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from aero_events.cli.common import db_option, store_wait


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("record", parents=[db_option()],
                                   help="record a game played on a real table, answer by answer")
    parser.add_argument("--ruleset", default="aeronautica",
                        help="the ruleset of a new game (default: aeronautica, its default version)")
    parser.add_argument("--scenario", help="the scenario of a new game, for a ruleset that has several")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="an option of the new game's scenario (VALUE read as JSON when it is JSON); repeatable")
    parser.add_argument("--forces", nargs=2, type=Path, metavar=("FIRST.json", "SECOND.json"),
                        help="the two force lists (JSON); without it they are typed in")
    parser.add_argument("--players", nargs=2, metavar=("FIRST", "SECOND"),
                        help="the players' names (default: the force files' names); the first sets up south")
    parser.add_argument("--points", type=int, help="the agreed points value, 25-250 (p.34)")
    parser.add_argument("--board", help="the table (Aeronautica: the Area of Engagement, 3x3, 4x4 or 8x4, p.9)")
    parser.add_argument("--game", metavar="ID", help="the new game's id (default: table-YYYYMMDD-N)")
    parser.add_argument("--event", help="what the game is played for (the record's [Event])")
    parser.add_argument("--resume", metavar="GAME", help="go on with a stored game")
    parser.add_argument("--branch", help="with --resume: the branch to go on with (default: the current one)")
    parser.add_argument("--digital-dice", action="store_true", help="roll every die on screen")
    parser.add_argument("--seed", help="the seed of the digital dice")
    parser.set_defaults(handler=run)


#: The exit code of a recording stopped by Ctrl-C (128 + SIGINT, as shells report it).
EXIT_INTERRUPTED = 130


def run(args: argparse.Namespace, ask: Callable[[str], str] | None = None,
        say: Callable[[str], None] | None = None, ask_secret: Callable[[str], str] | None = None) -> int:
    """Record a game. Stopping early (issue 16 item 8):

    * during play, ``quit``, the end of input and Ctrl-C keep every answer recorded so far and print the
      command that goes on with it (``TableRecorder.run``); exit code 0 for ``quit`` and the end of input
      (a script of answers that stops before the game ends is a normal way to record part of a game),
      130 for Ctrl-C;
    * during the set-up questions, before the game is stored, nothing is kept: the end of input is an error
      (exit code 2: the game could not be set up), Ctrl-C exit code 130.
    """
    say = say or _print
    try:
        return _run(args, ask, say, ask_secret)
    except KeyboardInterrupt:
        say("\nStopped (Ctrl-C) before the game was stored: nothing was recorded.")
        return EXIT_INTERRUPTED


def _run(args: argparse.Namespace, ask: Callable[[str], str] | None, say: Callable[[str], None],
         ask_secret: Callable[[str], str] | None) -> int:
    from aero_events.core.errors import AeroError
    from aero_events.core.ids import check_id
    from aero_events.record.recorder import TableRecorder
    from aero_events.store import EventStore

    ask_secret = ask_secret or (ask if ask is not None else read_secret_line)
    ask = ask or read_line
    if args.game is not None:
        check_id(args.game, "game id", source="--game")
    store = EventStore(args.db, lock_timeout=store_wait(args))
    seed = _seed(args.seed)
    if args.resume:
        recorder = TableRecorder.resume(store, args.resume, args.branch, ask=ask, say=say,
                                        digital=args.digital_dice, seed=seed, ask_secret=ask_secret)
        return recorder.run()
    if args.branch:
        raise AeroError("--branch goes with --resume GAME")
    if args.game and any(summary.id == args.game for summary in store.games()):
        raise AeroError(f"game {args.game} is already in the store: go on with it with --resume {args.game}")
    try:
        rules, setup = _new_setup(args, ask, say)
    except EOFError:
        raise AeroError("the input ended during the set-up questions, before the game was stored: nothing was "
                        "recorded (answer every set-up question, or give them as options: aero record --help)") \
            from None
    game_id = args.game or _new_game_id(store)
    metadata = {"event": args.event} if args.event else {}
    metadata["recorder"] = "aero record"
    recorder = TableRecorder.new_game(store, rules, setup, game_id=game_id, metadata=metadata, ask=ask, say=say,
                                      digital=args.digital_dice, seed=seed, ask_secret=ask_secret)
    return recorder.run()


def _new_setup(args: argparse.Namespace, ask: Callable[[str], str], say: Callable[[str], None]):
    """The ruleset and the setup of a new game: the ruleset's recorder guide builds it from the options."""
    from aero_events.core.errors import AeroError
    from aero_events.core.registry import get_ruleset

    try:
        rules = get_ruleset(args.ruleset)
    except KeyError as err:
        raise AeroError(str(err).strip("'\"")) from err
    options: dict[str, Any] = {"forces": list(args.forces) if args.forces else None, "players": args.players,
                               "points": args.points, "board": args.board, "scenario": args.scenario}
    for option in args.option:
        key, equals, value = option.partition("=")
        if not equals or not key:
            raise AeroError(f"--option takes KEY=VALUE, not {option!r}")
        try:
            options[key] = json.loads(value)
        except ValueError:
            options[key] = value
    return rules, rules.recorder_guide().new_setup(options, ask, say)


def _new_game_id(store) -> str:
    day = datetime.now(UTC).strftime("%Y%m%d")
    return store.unused_game_id(f"table-{day}-1", f"table-{day}-{{}}")


def _seed(text: str | None) -> int | str | None:
    if text is None:
        return None
    return int(text) if text.lstrip("-").isdigit() else text


def read_line(prompt: str) -> str:
    """A line from standard input after ``prompt``; EOFError when input ends."""
    sys.stdout.write(prompt)
    sys.stdout.flush()
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line.rstrip("\n")


def read_secret_line(prompt: str) -> str:
    """A secret answer: at a terminal read through getpass (not echoed); from a pipe, a line of standard input
    (which no terminal echoes); EOFError when input ends."""
    if sys.stdin.isatty():
        return getpass.getpass(prompt)
    return read_line(prompt)


def _print(line: str) -> None:
    print(line, flush=True)
