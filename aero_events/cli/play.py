"""``aero play``: a person plays one or both sides of the demo Dogfight at the terminal.

At each of the person's decision points the legal commands are listed, numbered; the
person types a number, or words to narrow a long list down (set-up placements run to
thousands), ``s`` for the state of every aircraft, or ``q`` to stop (what was played is
stored). The other side is played by a bot. Every command goes through the rules, so
nothing illegal can be entered.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from aero_events.cli.common import db_option

PAGE = 30


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("play", parents=[db_option()],
                                   help="play the demo Dogfight at the terminal against a bot (or both sides)")
    parser.add_argument("--as", dest="side", default="imperium", choices=("imperium", "orks", "both"),
                        help="the side you play (default imperium)")
    parser.add_argument("--bot", default="greedy", choices=("greedy", "random"), help="the bot you play against")
    parser.add_argument("--seed", type=int, default=2019, help="the seed of the dice (default 2019)")
    parser.set_defaults(handler=run)


def describe_command(command: Any) -> str:
    """A command in one line: its name and its fields, without the player."""
    fields = msgspec.to_builtins(command)
    fields.pop("player", None)
    name = fields.pop("command", type(command).__name__).removeprefix("ai.")
    return name + (" " + " ".join(f"{key}={value}" for key, value in fields.items()) if fields else "")


def describe_state(state: Any) -> list[str]:
    lines = [f"turn {state.turn}, {state.phase.replace('_', ' ')}"]
    for a in state.aircraft.values():
        marks = "".join(m for m, on in (("S", a.stalled), ("X", a.spinning)) if on)
        lines.append(f"  {a.id:12} {a.status:10} hex ({a.hex[0]},{a.hex[1]}) facing {a.facing} "
                     f"speed {a.speed} alt {a.altitude} structure {a.structure} {marks}")
    return lines


class TerminalPlayer:
    """A person at the terminal, answering through ``ask`` (input) and ``say`` (print)."""

    name = "person"

    def __init__(self, ask: Callable[[str], str], say: Callable[[str], None]):
        self.ask = ask
        self.say = say

    def choose(self, session: Any, player: str, options: Sequence[Any]) -> Any:
        shown = list(options)
        while True:
            self.say(f"\n{player}: {len(shown)} choice(s) at turn {session.state.turn}, "
                     f"{session.state.phase.replace('_', ' ')}")
            for number, option in enumerate(shown[:PAGE], start=1):
                self.say(f"  {number:3}. {describe_command(option)}")
            if len(shown) > PAGE:
                self.say(f"  ... {len(shown) - PAGE} more: type words to narrow the list down")
            answer = self.ask("> ").strip()
            if answer == "q":
                raise KeyboardInterrupt
            if answer == "s":
                for line in describe_state(session.state):
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
    from aero_events.bots import play
    from aero_events.demo import BOTS, DEMO_PLAYERS, demo_session
    from aero_events.rulesets.aeronautica.narrate import describe
    from aero_events.store import EventStore

    ask = ask or _read_line
    with EventStore(args.db) as store:
        game_id = store.unused_game_id(f"play-{args.seed}-1", f"play-{args.seed}-{{}}")
    session = demo_session(args.seed, game_id=game_id)
    person = TerminalPlayer(ask, say)
    players = {p: person if args.side in (p, "both") else BOTS[args.bot](f"{args.seed}:{p}") for p in DEMO_PLAYERS}
    told = 0

    def tell(command: Any, envelopes: list[Any]) -> None:
        nonlocal told
        for env in envelopes:
            line = describe(env.event)
            if line:
                say(line)
        told += 1

    try:
        play(session, players, on_command=tell)
        say(f"\nThe game is over: {session.state.end_reason}; winner: {session.state.winner or 'none (a draw)'}")
    except (KeyboardInterrupt, EOFError):
        say("\nStopped.")
    with EventStore(args.db) as store:
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
