"""The same benchmark for every registered ruleset: deciding, folding and replaying, each beside a limit.

For each ruleset family (``aero_events.rulesets.known_families``) that has a scenario and bots, seeded bot
games of its demo scenario (``ruleset.demo_scenario()``, else its first scenario with default options) are
played in memory, one line per bot, then the same games are folded and replayed:

* ``decide``: events decided per second by whole bot games (legal commands, the bot's choice, ``decide``
  and the session's fold), with games per second and the average game length in turns and events;
  limit: ``fold``, the same games' events folded (``ruleset.fold``), the least any game costs;
* ``decided again``: the same games' commands given again to new sessions with the same dice
  (:func:`redecide_seconds`): ``decide``, the session's fold and its records with no legal commands asked and
  no bot choosing, against the same fold. It is the most that faster bots or faster legal commands could
  bring the decide ratio to, and it splits the decided time between them and the rules' ``decide``;
* ``replay``: the games' events read back from JSON lines (msgspec) and folded; limit: the same lines
  decoded and handed to a fold that does nothing (``msgspec decode + trivial fold``), the least a replay
  from storage costs.

Times are the CPU seconds of this process (``time.process_time``): figures per core, and a ratio's two
sides measured alike however busy the machine is. A new ruleset gets these lines as soon as it registers
with scenarios and bots. Each game is seeded (the
dice and every bot), so a run measures the same games every time. ``measure`` plays games until
``seconds`` are spent (at least ``min_games``), so that a slow bot does not stall ``make bench``.

Run: ``python -m benchmarks.rulesets [FAMILY ...]`` (also part of ``python -m benchmarks rules``).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from aero_events.bots import bots_for, make_bot, play
from aero_events.core import GameSession, SeededDice
from aero_events.core.errors import AeroError
from aero_events.core.events import EVENT_TYPES
from aero_events.core.secrets import REPRODUCIBLE_SALTS

#: The metadata of every benchmark game: a bot simulation's, as ``aero simulate`` plays them (its salts
#: derived from its seed, so a game decided again from its commands is the same game, byte for byte).
BENCH_METADATA = {REPRODUCIBLE_SALTS: True}


@dataclass
class GamesPlayed:
    """Seeded bot games of one ruleset, scenario and bot, with what they cost."""

    ruleset: Any
    scenario: str
    bot: str
    sessions: list[GameSession]
    seconds: float
    #: Each game's commands in the order given (for :func:`redecide_seconds`), when they were kept.
    commands: list[list[Any]] | None = None

    @property
    def games(self) -> int:
        return len(self.sessions)

    @property
    def events(self) -> int:
        return sum(session.seq for session in self.sessions)

    @property
    def mean_turns(self) -> float:
        return sum(self.ruleset.clock(s.state)[0] for s in self.sessions) / max(self.games, 1)


def demo_scenario(rules: Any) -> tuple[str, dict[str, Any]] | None:
    """The scenario a ruleset's benchmark plays and its options: its demo's, else its first scenario's."""
    scenarios = dict(rules.scenarios())
    if not scenarios:
        return None
    demo = rules.demo_scenario()
    name, options = (demo[0], dict(demo[1])) if demo else (next(iter(scenarios)), {})
    return name, {**scenarios[name].default_options, **options}


def bench_bots(rules: Any) -> list[str]:
    """The bots a ruleset's benchmark plays: each bot it offers (the random bot last), once per bot (an
    alias such as ``default`` is left out when it names a bot already listed)."""
    known = bots_for(rules)
    names, seen = [], set()
    for name, info in sorted(known.items(), key=lambda item: (item[0] == "random", item[0] == "default")):
        if info.make in seen:
            continue
        seen.add(info.make)
        names.append(name)
    return names


def play_games(rules: Any, scenario: str, options: Mapping[str, Any], bot: str, *, seconds: float = 3.0,
               min_games: int = 2, max_games: int = 200, seed: int = 0) -> GamesPlayed:
    """Seeded games of ``bot`` against itself until ``seconds`` are spent (``min_games`` at least)."""
    build = rules.scenarios()[scenario].build
    sessions: list[GameSession] = []
    commands: list[list[Any]] = []
    spent = 0.0
    while len(sessions) < max_games and (len(sessions) < min_games or spent < seconds):
        game_seed = seed + len(sessions)
        given: list[Any] = []
        started = time.process_time()
        session = GameSession(rules, build(options, game_seed), dice=SeededDice(game_seed),
                              game_id=f"bench-{bot}-{game_seed}", metadata=dict(BENCH_METADATA))
        players = list(rules.players(session.state))
        play(session, {player: make_bot(rules, bot, f"{game_seed}:{player}") for player in players},
             max_commands=100_000, on_command=lambda command, _envelopes, kept=given: kept.append(command))
        spent += time.process_time() - started
        sessions.append(session)
        commands.append(given)
    return GamesPlayed(ruleset=rules, scenario=scenario, bot=bot, sessions=sessions, seconds=spent,
                       commands=commands)


def best_of(runs: int, work) -> float:
    """The shortest of ``runs`` timings of ``work()`` in seconds (the least disturbed by other processes)."""
    return best_of_each(runs, work)[0]


def best_of_each(runs: int, *works) -> tuple[float, ...]:
    """The shortest of ``runs`` timings of each of ``works``, timed in turns (the first, the second, ..., then
    the first again), so that a figure and its limit see the same machine: a load that comes and goes
    between two blocks of runs would otherwise move their ratio."""
    best = [float("inf")] * len(works)
    for _ in range(runs):
        for index, work in enumerate(works):
            started = time.process_time()
            work()
            best[index] = min(best[index], time.process_time() - started)
    return tuple(best)


def fold_seconds(played: GamesPlayed, runs: int = 3) -> float:
    """Seconds to fold every event of the games (``ruleset.fold`` from each initial state)."""
    rules = played.ruleset
    games = [(s.game.initial_state, [env.event for env in s.events()]) for s in played.sessions]

    def fold_all() -> None:
        for initial, events in games:
            rules.fold(initial, events)

    return best_of(runs, fold_all)


def redecide_seconds(played: GamesPlayed, runs: int = 3) -> float:
    """Seconds to give each game's commands again, in order, to a new session of the same setup and seeded
    dice (``GameSession.apply``: ``decide``, the session's fold, the command records and checkpoints), with no
    legal commands asked and no bot choosing: the games' decide cost less everything a bot adds.

    Raises ``RuntimeError`` when a game decided again is not the game played (a command refused, another
    number of events, or another event at any place): the figure would then price other games. The new
    sessions get each played game's metadata, so salts derived from the seed (:data:`BENCH_METADATA`) come back
    the same, and so do the commitments and the state hashes of rulesets whose state holds them (Wings of
    Glory's planned cards)."""
    if played.commands is None:
        raise ValueError("these games were played without keeping their commands")
    rules = played.ruleset
    games = [(s.game.setup, s.dice.seed, s.game.metadata, commands, s)
             for s, commands in zip(played.sessions, played.commands)]

    def decide_all() -> list[GameSession]:
        again = []
        for setup, seed, metadata, commands, _ in games:
            session = GameSession(rules, setup, dice=SeededDice(seed), game_id="decided-again",
                                  metadata=dict(metadata))
            apply = session.apply
            for command in commands:
                apply(command)
            again.append(session)
        return again

    try:
        decided = decide_all()
    except AeroError as refused:
        raise RuntimeError(f"{rules.name}: a game decided again from its commands is not the game played: "
                           f"{refused}") from refused
    for (_, seed, _, _, played_session), session in zip(games, decided):
        if _events(played_session) != _events(session):
            raise RuntimeError(f"{rules.name}: the game of seed {seed} decided again from its commands is not the "
                               f"game played ({session.seq} events against {played_session.seq})")
    return best_of(runs, decide_all)


def replay_seconds(played: GamesPlayed, runs: int = 5) -> tuple[float, float]:
    """(decode + fold, decode + trivial fold) seconds over the games' events as JSON lines, the shortest of
    ``runs`` timings of each, timed in turns (:func:`best_of_each`)."""
    rules = played.ruleset
    decoder = EVENT_TYPES.union_decoder()
    games = [(s.game.initial_state, [msgspec.json.encode(env.event) for env in s.events()])
             for s in played.sessions]

    def replay_all() -> None:
        decode = decoder.decode
        for initial, lines in games:
            rules.fold(initial, [decode(line) for line in lines])

    def unchanged(state: Any, event: Any) -> Any:
        return state

    def trivial_all() -> None:
        decode = decoder.decode
        for initial, lines in games:
            state = initial
            for event in [decode(line) for line in lines]:
                state = unchanged(state, event)

    return best_of_each(runs, replay_all, trivial_all)


def figures(played: GamesPlayed) -> list[str]:
    """The lines printed for one ruleset and bot (see the module docstring)."""
    name = played.ruleset.name
    events = played.events
    decided = events / played.seconds
    folded = events / fold_seconds(played)
    replay, trivial = replay_seconds(played)
    return [
        (f"{name} {played.scenario}, {played.bot} v {played.bot}: {played.games / played.seconds:,.1f} games/s, "
        f"average {played.mean_turns:.1f} turns and {events / played.games:,.0f} events a game; "
        f"decided {decided:,.0f} events/s; limit (fold of the same games) {folded:,.0f} events/s; "
        f"ratio {decided / folded:.3f}"),
        redecided_line(played, folded),
        (f"{name} replay ({played.bot} games): decode + fold {events / replay:,.0f} events/s; limit (msgspec decode "
        f"+ trivial fold of the same lines) {events / trivial:,.0f} events/s; ratio {trivial / replay:.3f}"),
    ]


def _events(session: GameSession) -> list[Any]:
    """The session's events, without their envelopes (the game id differs)."""
    return [env.event for env in session.events()]


def redecided_line(played: GamesPlayed, folded: float) -> str:
    """The ``decided again`` line: the games' commands decided again (:func:`redecide_seconds`) in events/s,
    their ratio to the fold rate ``folded``, and the share of the decided time legal commands and bots took."""
    again = redecide_seconds(played)
    rate = played.events / again
    return (f"   the same commands decided again (no legal commands asked, no bot choosing): {rate:,.0f} events/s; "
            f"ratio to the fold {rate / folded:.3f} (the most faster bots or legal commands could reach); legal "
            f"commands and the bot: {max(0.0, 1 - again / played.seconds):.0%} of the decided time")


def measure_ruleset(rules: Any, *, seconds: float = 3.0, bots: Sequence[str] | None = None) -> list[str]:
    """Every line for one ruleset: one decide line and one replay line per bot."""
    chosen = demo_scenario(rules)
    if chosen is None:
        return [f"{rules.name}: no scenario, nothing to play"]
    scenario, options = chosen
    lines = []
    for bot in bots or bench_bots(rules):
        lines.extend(figures(play_games(rules, scenario, options, bot, seconds=seconds)))
    return lines


def main(families: Sequence[str] = (), seconds: float = 3.0) -> None:
    from aero_events.rulesets import get_ruleset, known_families

    for family, name in sorted(known_families().items()):
        if families and family not in families:
            continue
        for line in measure_ruleset(get_ruleset(name), seconds=seconds):
            print(line, flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
