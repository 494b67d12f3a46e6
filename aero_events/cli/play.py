"""``aero play``: a person plays one or more sides of a ruleset's demo scenario at the terminal.

At each of the person's decision points the legal commands are listed, numbered (each in the ruleset's
words, ``describe_command``); the person types a number, or words to narrow a long list down (set-up
placements run to thousands), ``s`` for the state (``describe_state``), or ``q`` to stop (what was
played is stored). The other sides are played by a bot. Every command goes through the rules, so nothing
illegal can be entered. ``--ruleset`` chooses the ruleset (default: the default ruleset, Aeronautica's
demo Dogfight).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from aero_events.cli.common import db_option, ruleset_named, store_wait

PAGE = 30


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("play", parents=[db_option()],
                                   help="play a ruleset's demo scenario at the terminal against a bot (or all sides)")
    parser.add_argument("--ruleset", metavar="NAME", help="the ruleset (default: the default ruleset)")
    parser.add_argument("--as", dest="side", default=None,
                        help="the side you play, or 'both' (every side); default: the first player")
    parser.add_argument("--bot", default=None,
                        help="the bot you play against (default: the ruleset's first demo bot)")
    parser.add_argument("--seed", type=int, default=2019, help="the seed of the dice (default 2019)")
    parser.set_defaults(handler=run)


def describe_command(command: Any) -> str:
    """A command in one line: its name and its fields, without the player (the words typed to narrow a list
    match these)."""
    fields = msgspec.to_builtins(command)
    fields.pop("player", None)
    name = fields.pop("command", type(command).__name__).removeprefix("ai.")
    return name + (" " + " ".join(f"{key}={value}" for key, value in fields.items()) if fields else "")


class TerminalPlayer:
    """A person at the terminal, answering through ``ask`` (input) and ``say`` (print)."""

    name = "person"

    def __init__(self, ask: Callable[[str], str], say: Callable[[str], None]):
        self.ask = ask
        self.say = say

    def choose(self, session: Any, player: str, options: Sequence[Any]) -> Any:
        shown = list(options)
        while True:
            turn, phase = session.ruleset.clock(session.state)
            self.say(f"\n{player}: {len(shown)} choice(s) at turn {turn}, {phase.replace('_', ' ')}")
            for number, option in enumerate(shown[:PAGE], start=1):
                self.say(f"  {number:3}. {describe_command(option)}")
            if len(shown) > PAGE:
                self.say(f"  ... {len(shown) - PAGE} more: type words to narrow the list down")
            answer = self.ask("> ").strip()
            if answer == "q":
                raise KeyboardInterrupt
            if answer == "s":
                for line in session.ruleset.describe_state(session.state):
                    self.say(line)
                continue
            if answer.isdigit() and 1 <= int(answer) <= min(len(shown), PAGE):
                return shown[int(answer) - 1]
            if answer == "":
                shown = list(options)
                continue
            words = answer.lower().split()
            narrowed = [o for o in options if all(w in describe_command(o).lower() for w in words)]
            if narrowed:
                shown = narrowed
            else:
                self.say(f"nothing matches {answer!r}; an empty line shows every choice again")


def run(args: argparse.Namespace, ask: Callable[[str], str] | None = None,
        say: Callable[[str], None] = print) -> int:
    from aero_events.bots import make_bot, play
    from aero_events.demo import demo_plan, demo_session
    from aero_events.store import EventStore

    ruleset = ruleset_named(getattr(args, "ruleset", None))
    ask = ask or _read_line
    with EventStore(args.db, lock_timeout=store_wait(args)) as store:  # the file is ours for the block:
        game_id = store.unused_game_id(f"play-{args.seed}-1", f"play-{args.seed}-{{}}")
        session = demo_session(args.seed, game_id=game_id, ruleset=ruleset)
        store.create_game(session.game)  # the id reserved now: a second play of the seed gets the next one
    sides = tuple(ruleset.players(session.state))
    side = args.side or sides[0]
    if side not in (*sides, "both"):
        raise ValueError(f"--as names one of {', '.join(sides)} or both, not {side!r}")
    bot = args.bot or demo_plan(ruleset)[2][0]
    person = TerminalPlayer(ask, say)
    players = {p: person if side in (p, "both") else make_bot(ruleset, bot, f"{args.seed}:{p}") for p in sides}

    def tell(command: Any, envelopes: list[Any]) -> None:
        for line in ruleset.narrate(envelopes):
            say(line)

    try:
        play(session, players, on_command=tell)
        say(f"\nThe game is over: {ruleset.summary_line(session.state)}")
    except (KeyboardInterrupt, EOFError):
        say("\nStopped.")
    with EventStore(args.db, lock_timeout=store_wait(args)) as store:
        store.save_session(session)
    say(f"Stored {session.seq} events as game {session.game_id} in {args.db}")
    return 0


def _read_line(prompt: str) -> str:
    sys.stdout.write(prompt)
    sys.stdout.flush()
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line
