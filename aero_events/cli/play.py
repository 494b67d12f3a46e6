"""``aero play``: a person plays one side (or every side) of a ruleset's demo scenario at the terminal, against
a bot; ``aero play --resume GAME`` goes on with a stored game.

It speaks like the table recorder (:mod:`aero_events.record.recorder`), through the ruleset's interface only
(``core/interface.py``): the intro names the ruleset, the scenario, each side's forces
(``describe_setup``) and the side the person plays; each decision is the recorder guide's (whose, its
title, its hints); each command reads as the ruleset's notation (``notation().format``) where the ruleset
has one written for people, else as its description (``describe_command``); what happens is narrated
(``narrate``), the bot's secrets hidden from the person (:func:`aero_events.core.secrets.redact`).

A long list of commands (Aeronautica's set-up places each aircraft on any hex, at any facing, Speed and
Altitude: tens of thousands) is never printed whole. It is a staged choice: the commands are grouped by
their next word (the aircraft first, then where...), and the person picks a group by its number or types
the beginning of what they want; each answer narrows what the last left (cumulative), ``back`` undoes one
narrowing and an empty line starts again. ``auto`` lets the bot choose this one for the person (a quick
set-up). Typing a whole command in the notation works at any time.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from collections.abc import Callable, Sequence
from typing import Any

from aero_events.cli.common import db_option, ruleset_named, store_wait

PAGE = 30
#: At most this many groups are listed when there are too many to number: the rest are summed up.
SHOWN_GROUPS = 60

HELP = """Answer with a number from the list, a command in the notation, or the beginning of one.
  (number)   choose that command, or that group of commands
  TEXT       narrow the list to what starts with TEXT (each answer narrows further; words anywhere also work)
  back       undo the last narrowing                  (empty)    show every choice again
  auto       let the bot choose this one for you      board      the table and every piece
  log        what happened lately                     help       this text
  quit       stop (the game is stored; aero play --resume GAME goes on with it)"""


class Stop(Exception):
    """The person asked to stop."""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("play", parents=[db_option()],
                                   help="play a ruleset's demo scenario at the terminal against a bot (or all sides)")
    parser.add_argument("--ruleset", metavar="NAME", help="the ruleset (default: the default ruleset)")
    parser.add_argument("--as", dest="side", default=None,
                        help="the side you play, or 'both' (every side); default: the first player "
                             "(with --resume: the side played before)")
    parser.add_argument("--bot", default=None,
                        help="the bot you play against (default: the ruleset's first demo bot; with --resume: the "
                             "bot played before)")
    parser.add_argument("--seed", type=int, default=2019, help="the seed of the dice (default 2019)")
    parser.add_argument("--resume", metavar="GAME",
                        help="go on with a stored game (its main line) instead of starting one")
    parser.set_defaults(handler=run)


# ---------------------------------------------------------------- commands as the person reads them


def uses_json_notation(notation: Any, state: Any, command: Any) -> bool:
    """Whether the ruleset writes its commands as the default JSON (then its descriptions read better)."""
    return notation.format(state, command).lstrip().startswith("{")


class Listing:
    """The commands of one decision as text: the label the person types and narrows by, and a longer
    description shown beside it where it says more."""

    def __init__(self, ruleset: Any, state: Any, options: Sequence[Any], hint: Callable[[Any], str]):
        notation = ruleset.notation()
        self.options = list(options)
        json_notation = bool(self.options) and uses_json_notation(notation, state, self.options[0])
        if json_notation:
            self.labels = [ruleset.describe_command(command, state) for command in self.options]
        else:
            self.labels = [notation.format(state, command) for command in self.options]
        self.lowered = [label.lower() for label in self.labels]
        self._describe = (lambda command: "") if json_notation else (
            lambda command: ruleset.describe_command(command, state))
        self.hint = hint

    def detail(self, index: int) -> str:
        command = self.options[index]
        extra = self.hint(command)
        if extra:
            return extra
        description = self._describe(command)
        return "" if description.lower() == self.lowered[index] else description


class Narrowing:
    """What the person's answers have left of a decision's commands: a typed beginning (``prefix``) and
    words anywhere (``words``), both cumulative; ``history`` lets ``back`` undo the last answer."""

    def __init__(self, listing: Listing):
        self.listing = listing
        self.prefix = ""
        self.words: tuple[str, ...] = ()
        self.history: list[tuple[str, tuple[str, ...]]] = []

    def matching(self, prefix: str, words: Sequence[str]) -> list[int]:
        return [index for index, text in enumerate(self.listing.lowered)
                if text.startswith(prefix) and all(word in text for word in words)]

    def shown(self) -> list[int]:
        return self.matching(self.prefix, self.words)

    def narrow(self, answer: str) -> list[int]:
        """Narrow by a typed answer: as the continuation of the beginning so far (with or without a space),
        else as words anywhere. Returns what is left (empty: nothing matched, nothing changed)."""
        typed = answer.lower()
        candidates = [self.prefix + typed]
        if self.prefix and not self.prefix.endswith(" "):
            candidates.append(f"{self.prefix} {typed}")
        for prefix in candidates:
            found = self.matching(prefix, self.words)
            if found:
                self._push(prefix, self.words)
                return found
        words = (*self.words, *typed.split())
        found = self.matching(self.prefix, words)
        if found:
            self._push(self.prefix, words)
        return found

    def choose_group(self, group: str) -> None:
        self._push(self.prefix + group + " ", self.words)

    def _push(self, prefix: str, words: tuple[str, ...]) -> None:
        self.history.append((self.prefix, self.words))
        self.prefix, self.words = prefix, words

    def back(self) -> bool:
        if not self.history:
            return False
        self.prefix, self.words = self.history.pop()
        return True

    def reset(self) -> None:
        self.prefix, self.words, self.history = "", (), []

    def groups(self, shown: Sequence[int]) -> list[tuple[str, list[int]]]:
        """The shown commands grouped by their next word after the typed beginning (in first-seen order;
        the word in lower case, as the beginning is matched)."""
        start = len(self.prefix)
        groups: dict[str, list[int]] = {}
        for index in shown:
            rest = self.listing.lowered[index][start:]
            word = rest.split(" ", 1)[0] if rest.strip() else rest
            groups.setdefault(word, []).append(index)
        return list(groups.items())

    def group_label(self, word: str, members: Sequence[int]) -> str:
        """How a group reads: its first command's words up to the group's word (the whole command for one)."""
        label = self.listing.labels[members[0]]
        if len(members) == 1:
            return label
        return label[:len(self.prefix) + len(word)] + " ..."


class TerminalPlayer:
    """A person at the terminal, answering through ``ask`` (input) and ``say`` (print)."""

    name = "person"

    def __init__(self, ask: Callable[[str], str], say: Callable[[str], None], *,
                 log: list[str] | None = None, helper: Any = None):
        self.ask = ask
        self.say = say
        self.log = log if log is not None else []
        self.helper = helper  # the bot ``auto`` asks

    def choose(self, session: Any, player: str, options: Sequence[Any], decision: Any = None) -> Any:
        """The command the person picks among ``options`` (the legal commands of ``player`` now)."""
        ruleset = session.ruleset
        state = session.state
        guide = ruleset.recorder_guide()
        decision = decision or guide.decision(state)
        hint = guide.hints(state, decision) if decision is not None else (lambda command: "")
        listing = Listing(ruleset, state, options, hint)
        narrowing = Narrowing(listing)
        turn, phase = ruleset.clock(state)
        title = decision.title if decision is not None and decision.player == player else \
            f"Turn {turn}, {str(phase).replace('_', ' ')}: {player} to choose"
        keys = dict(decision.keys) if decision is not None and decision.player == player else {}
        picks = self._show(title, listing, narrowing, keys)
        while True:
            answer = self.ask(f"{player}> ").strip()
            head = answer.split()[0].lower() if answer else ""
            if not answer:
                narrowing.reset()
            elif head in ("help", "?"):
                self.say(HELP)
                continue
            elif head in ("quit", "q", "stop"):
                raise Stop
            elif head in ("board", "b"):
                self.say(guide.board(state))
                continue
            elif head == "log":
                self.say("\n".join(self.log[-20:]) or "nothing has happened yet")
                continue
            elif head == "auto" and self.helper is not None:
                command = self.helper.choose(session, player, options)
                self.say(f"  the bot chooses: {listing.labels[listing.options.index(command)]}")
                return command
            elif head == "back":
                if not narrowing.back():
                    self.say("  nothing to undo: this is every choice")
                    continue
            elif answer in keys:
                return options[keys[answer]]
            elif answer.isdigit() and int(answer) in picks:
                chosen = picks[int(answer)]
                if isinstance(chosen, int):
                    return options[chosen]
                word, members = chosen
                if len(members) == 1:
                    return options[members[0]]
                narrowing.choose_group(word)
            else:
                command, problem = self._typed(ruleset, state, player, answer, listing)
                if command is not None:
                    return command
                if not narrowing.narrow(answer):
                    why = f"{problem}; " if problem else ""
                    self.say(f"  {why}nothing left starts with or contains {answer!r}: `back` undoes the last "
                             "narrowing, an empty line shows every choice, `help` says more")
                    continue
            picks = self._show(title, listing, narrowing, keys)

    @staticmethod
    def _typed(ruleset: Any, state: Any, player: str, answer: str, listing: Listing) -> tuple[Any | None, str]:
        """A whole command typed (one label exactly, or what the notation reads from the text), or what the
        rules say is wrong with it ('' when it does not read as a command at all)."""
        from aero_events.core.errors import AeroError, RuleError

        exact = [index for index, text in enumerate(listing.lowered) if text == answer.lower()]
        if len(exact) == 1:
            return listing.options[exact[0]], ""
        try:
            command = ruleset.notation().parse(state, player, answer)
        except RuleError as err:
            return None, str(err) if " is not a legal command" not in str(err) else ""
        except (AeroError, ValueError, KeyError, TypeError):  # not the notation: narrowed by instead
            return None, ""
        if command in listing.options:
            return command, ""
        return None, f"{answer!r} is not among the choices now{_rules_refusal(ruleset, state, command)}"

    def _show(self, title: str, listing: Listing, narrowing: Narrowing, keys: dict[str, int]) -> dict[int, Any]:
        """Show what is left (commands, or groups of them); returns number -> command index or group."""
        shown = narrowing.shown()
        groups = narrowing.groups(shown) if len(shown) > PAGE else []
        while len(groups) == 1 and groups[0][0].strip():  # every choice left begins so: take that word as typed
            narrowing.choose_group(groups[0][0])
            if narrowing.shown() != shown:  # the word ended some labels: keep them
                narrowing.back()
                break
            groups = narrowing.groups(shown)
        narrowed = narrowing.prefix or narrowing.words
        where = ""
        if narrowed:
            typed = " ".join(part for part in (narrowing.prefix.strip(), *narrowing.words) if part)
            where = f" matching {typed!r}"
        self.say(f"\n{title}: {len(shown):,} choice{'s' if len(shown) != 1 else ''}{where}")
        numbered = {index: key for key, index in keys.items()}
        if len(shown) <= PAGE:
            picks: dict[int, Any] = {}
            for position, index in enumerate(shown, start=1):
                key = numbered.get(index, str(position))
                if key.isdigit():
                    picks[int(key)] = index
                detail = listing.detail(index)
                self.say(f"  {key:>3}. {listing.labels[index]}" + (f"   ({detail})" if detail else ""))
            return picks
        if len(groups) <= PAGE:
            for number, (word, members) in enumerate(groups, start=1):
                count = f"   ({len(members):,} choices)" if len(members) > 1 else ""
                self.say(f"  {number:>3}. {narrowing.group_label(word, members)}{count}")
            self.say("  choose a group by its number, or type the beginning of a command")
            return {number: group for number, group in enumerate(groups, start=1)}
        start = len(narrowing.prefix)
        listed = ", ".join(listing.labels[members[0]][start:start + len(word)] for word, members in groups[:SHOWN_GROUPS])
        more = f", ... ({len(groups) - SHOWN_GROUPS} more)" if len(groups) > SHOWN_GROUPS else ""
        self.say(f"  next: one of {len(groups):,}: {listed}{more}")
        self.say("  type the beginning of one (each answer narrows further), or `auto` to let the bot choose")
        return {}


# ---------------------------------------------------------------- the game


def _rules_refusal(ruleset: Any, state: Any, command: Any) -> str:
    """Why the rules refuse a typed command that is not among the choices, as ``: Rule (p.N): reason``: the
    ruleset decides it on throwaway dice (``decide`` is pure: nothing is rolled in the game, nothing appended).
    Empty when they would take it (a listing that offers a sample of a measured table) or say nothing useful."""
    from aero_events.core.dice import DiceCup, SeededDice
    from aero_events.core.errors import RuleError
    from aero_events.core.secrets import SaltSource

    try:
        ruleset.decide(state, command, DiceCup(SeededDice(0), 0, SaltSource(0)))
    except RuleError as err:
        return f": {err}"
    except Exception:  # noqa: BLE001 -- a ruleset's other failure on a command it was never offered: say no more
        return ""
    return ""


def _intro(ruleset: Any, session: Any, side: str, bot: str, players: Sequence[str], say: Callable[[str], None],
           resumed: bool) -> None:
    metadata = session.game.metadata
    scenario = ruleset.scenarios().get(str(metadata.get("scenario", "")))
    what = f"scenario {scenario.name}: {scenario.description}" if scenario is not None else "its demo scenario"
    say(f"{'Going on with' if resumed else 'Playing'} game {session.game_id}: {ruleset.name}, {what}")
    bots = {player: ("you" if side in (player, "both") else bot) for player in players}
    for line in ruleset.describe_setup(session.game.setup, bots):
        say("  " + line.replace("(you bot)", "(you)"))
    others = [player for player in players if side not in (player, "both")]
    if side == "both":
        say("You play every side.")
    else:
        say(f"You play {side}; {', '.join(others)} {'is' if len(others) == 1 else 'are'} played by the {bot} bot.")
    if resumed:
        turn, phase = ruleset.clock(session.state)
        say(f"The game stands after event {session.seq}, turn {turn}, {str(phase).replace('_', ' ')}: "
            f"{ruleset.summary_line(session.state)}")
    say("At each prompt type a number, the beginning of a command, help, board, log, auto or quit.")


def _viewer(side: str) -> str | None:
    """Whose eyes the narration is for: the person's side (the bot's secrets hidden), or all (None)."""
    return None if side == "both" else side


def _narrated(ruleset: Any, envelopes: Sequence[Any], viewer: str | None) -> list[str]:
    import msgspec

    from aero_events.core.secrets import redact

    if viewer is not None:
        envelopes = [msgspec.structs.replace(env, event=redact(env.event, viewer)) for env in envelopes]
    try:
        return list(ruleset.narrate(envelopes))
    except Exception:  # noqa: BLE001 -- a ruleset that cannot word a sealed event: narrate the person's own
        return [line for env in envelopes if not getattr(env.event, "core_event", False)
                for line in [ruleset.describe_event(env.event)] if line]


def _start(args: argparse.Namespace, ruleset: Any, store_path: str) -> tuple[Any, dict[str, Any]]:
    from aero_events.demo import demo_session
    from aero_events.store import EventStore

    with EventStore(store_path, lock_timeout=store_wait(args)) as store:  # the file is ours for the block:
        game_id = store.unused_game_id(f"play-{args.seed}-1", f"play-{args.seed}-{{}}")
        session = demo_session(args.seed, game_id=game_id, ruleset=ruleset)
        chosen = {"as": args.side, "bot": args.bot}
        session.game.metadata["play"] = chosen
        store.create_game(session.game)  # the id reserved now: a second play of the seed gets the next one
    return session, chosen


def _resume(args: argparse.Namespace, store_path: str) -> tuple[Any, dict[str, Any]]:
    from aero_events.core.dice import SeededDice
    from aero_events.store import EventStore

    with EventStore(store_path, lock_timeout=store_wait(args)) as store:
        game_id = store.resolve_game_id(args.resume)
        head = store.head(game_id)  # the main line's
        # The dice go on from a seed of their own: the same seed again would roll the game's first dice again.
        session = store.session(game_id, dice=SeededDice(f"{args.seed}:{game_id}:{head}"))
    played = session.game.metadata.get("play")
    return session, dict(played) if isinstance(played, dict) else {}


def run(args: argparse.Namespace, ask: Callable[[str], str] | None = None,
        say: Callable[[str], None] = print) -> int:
    from aero_events.bots import make_bot
    from aero_events.demo import demo_plan
    from aero_events.store import EventStore

    ask = ask or _read_line
    resume = getattr(args, "resume", None)
    if resume:
        session, before = _resume(args, args.db)
        ruleset = session.ruleset
    else:
        ruleset = ruleset_named(getattr(args, "ruleset", None))
        session, before = _start(args, ruleset, args.db)
    players = tuple(ruleset.players(session.state))
    side = args.side or before.get("as") or players[0]
    if side not in (*players, "both"):
        raise ValueError(f"--as names one of {', '.join(players)} or both, not {side!r}")
    bot = args.bot or before.get("bot") or demo_plan(ruleset)[2][0]
    bots = {player: make_bot(ruleset, bot, f"{args.seed}:{player}:{session.seq}") for player in players}
    log: list[str] = []
    person = TerminalPlayer(ask, say, log=log)
    viewer = _viewer(side)
    _intro(ruleset, session, side, bot, players, say, bool(resume))
    guide = ruleset.recorder_guide()
    try:
        while not session.is_over():
            decision = guide.decision(session.state)
            if decision is None:
                turn, phase = ruleset.clock(session.state)
                raise RuntimeError(f"no player has a legal command at turn {turn}, {phase}: the game is stuck")
            player, options = decision.player, decision.options
            if side in (player, "both"):
                person.helper = bots[player]
                command = person.choose(session, player, options, decision)
            else:
                command = bots[player].choose(session, player, options)
            envelopes = session.apply(command)
            for line in _narrated(ruleset, envelopes, viewer):
                log.append(line)
                say(line)
        say(f"\nThe game is over: {ruleset.summary_line(session.state)}")
    except (Stop, KeyboardInterrupt, EOFError):
        from aero_events.cli.common import aero_command  # the hint as the user can type it

        say(f"\nStopped after event {session.seq}. Go on with: {aero_command()} play --resume "
            f"{shlex.quote(session.game_id)} --db {shlex.quote(os.fspath(args.db))}")
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
