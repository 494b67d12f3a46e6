"""Complete Dogfights per second, 1 against 1 and 4 against 4 (issues 5 and 18), each beside a limit measured
in the same run and the issue 18 target, with the average game length (a figure of games that end at once
measures nothing a user wants).

* greedy play: whole games between greedy bots, in games per second on this one core, in a fresh process
  (its first 200 games at most: the bot builds its kept tables as it meets new positions); limit: folding the
  same games' recorded events (replay never decides, so deciding, legal commands and the bot's scoring are
  what the ratio prices). Target (issue 18): 100 games/s 1 against 1 and 20 games/s 4 against 4. A second
  line plays on in the same process with new seeds, as a rules writer's thousands of games do: the rate once
  the one-time work is mostly done.
* the baseline bot (``aero simulate``'s default): events decided per second against the fold rate of the
  same games. Target: a ratio of 0.3. A second line gives the same games' commands again with no legal
  commands asked and no bot choosing (``benchmarks.rulesets.redecide_seconds``): the most a faster bot or
  faster legal commands could bring that ratio to.
* replay: the games' events read back from JSON lines (msgspec) and folded, against msgspec decode plus a
  fold that does nothing (``benchmarks/rulesets.py``). Target: a ratio of 0.5.
* into DuckDB: the baseline games played and each saved with ``EventStore.save_session`` into an existing
  store (opened once, closed at the end), in CPU time; limit: playing the same games in memory.

Forces: Thunderbolts against Dakkajets on a 4'x4' table, 25 points an aircraft.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from aero_events.bots import play
from aero_events.core import GameSession, SeededDice
from aero_events.rulesets.aeronautica import AeronauticaRules
from aero_events.rulesets.aeronautica.bots import BaselineBot, GreedyBot
from aero_events.rulesets.aeronautica.forces import AircraftEntry, ForceList
from aero_events.rulesets.aeronautica.scenarios.dogfight import dogfight_setup
from benchmarks.rulesets import BENCH_METADATA, GamesPlayed, fold_seconds, redecided_line, replay_seconds

RULES = AeronauticaRules()
#: Issue 18's targets: greedy games per second per core by size; baseline decide/fold; replay/decode.
GREEDY_TARGET = {1: 100.0, 4: 20.0}
BASELINE_TARGET = 0.3
REPLAY_TARGET = 0.5


def setup(size: int):
    imperium = ForceList(name="i", faction="imperial_navy", aircraft=(AircraftEntry(aircraft="thunderbolt"),) * size)
    orks = ForceList(name="o", faction="ork_air_waaagh", aircraft=(AircraftEntry(aircraft="dakkajet"),) * size)
    return dogfight_setup(("imperium", imperium), ("orks", orks), 25 * size, board="4x4",
                          catalogue=RULES.catalogue, check_points=False)


def play_games(size: int, bot: type, seconds: float, min_games: int = 2, max_games: int = 200) -> GamesPlayed:
    """Seeded games of ``bot`` against itself until ``seconds`` of CPU are spent (``min_games`` at least)."""
    sessions, commands = [], []
    spent = 0.0
    while len(sessions) < max_games and (len(sessions) < min_games or spent < seconds):
        given: list = []
        session, seconds_played = _play_one(size, bot, seed=len(sessions), commands=given)
        spent += seconds_played
        sessions.append(session)
        commands.append(given)
    return GamesPlayed(ruleset=RULES, scenario="dogfight", bot=bot.name, sessions=sessions, seconds=spent,
                       commands=commands)


def played_on(size: int, bot: type, first_seed: int, seconds: float) -> tuple[int, float, float, float]:
    """(games, CPU seconds, mean turns, mean events) of seeded games from ``first_seed`` on, in this process
    after :func:`play_games`, until ``seconds`` are spent; the sessions are not kept (thousands would not fit)."""
    games = turns = events = 0
    spent = 0.0
    while games < 2 or spent < seconds:
        session, seconds_played = _play_one(size, bot, seed=first_seed + games)
        spent += seconds_played
        games += 1
        turns += RULES.clock(session.state)[0]
        events += session.seq
    return games, spent, turns / games, events / games


def _play_one(size: int, bot: type, seed: int, commands: list | None = None) -> tuple[GameSession, float]:
    """One seeded game of ``bot`` against itself, and the CPU seconds it took (setting up included); its
    commands are appended to ``commands`` when given."""
    keep = None if commands is None else (lambda command, _envelopes: commands.append(command))
    started = time.process_time()
    session = GameSession(RULES, setup(size), dice=SeededDice(seed), game_id=f"bench-{size}-{seed}",
                          metadata=dict(BENCH_METADATA))
    play(session, {"imperium": bot(seed), "orks": bot(seed + 1)}, on_command=keep)
    return session, time.process_time() - started


def into_duckdb(size: int, games: int) -> str:
    """The line for ``games`` baseline games of ``size`` against ``size`` played and saved into DuckDB."""
    from aero_events.store import EventStore

    label = f"{size} against {size}"
    with tempfile.TemporaryDirectory() as folder:
        again = play_games(size, BaselineBot, seconds=0.0, min_games=games, max_games=games)
        memory = again.seconds
        path = Path(folder) / "bench.duckdb"
        EventStore(path).games()  # the store a user saves into exists: its tables and views are made once
        started = time.process_time()
        with EventStore(path) as store:  # opened, the games saved one at a time, closed (checkpointed)
            for session in again.sessions:
                store.save_session(session)
        saving = time.process_time() - started
    stored = games / (memory + saving)
    return (f"dogfights {label} into DuckDB (baseline): {stored:,.1f} games/s; limit (in memory) "
            f"{games / memory:,.1f} games/s; ratio {stored * memory / games:.2f} ({saving / games * 1000:,.1f} ms "
            f"CPU to save a game of {again.events / games:,.0f} events)")


def main() -> None:
    for size in (1, 4):
        label = f"{size} against {size}"
        greedy = play_games(size, GreedyBot, seconds=6.0)
        rate = greedy.games / greedy.seconds
        folding = greedy.games / fold_seconds(greedy)
        print(f"dogfights {label}, greedy v greedy: {rate:,.2f} games/s per core (average {greedy.mean_turns:.1f} "
              f"turns, {greedy.events / greedy.games:,.0f} events a game); limit (folding the same events) "
              f"{folding:,.1f} games/s; ratio {rate / folding:.4f}; target {GREEDY_TARGET[size]:g} games/s, "
              f"reached {rate / GREEDY_TARGET[size]:.3f}", flush=True)
        games, spent, turns, events = played_on(size, GreedyBot, greedy.games, seconds=6.0)
        print(f"   playing on in the same process (games {greedy.games + 1}-{greedy.games + games}, new seeds): "
              f"{games / spent:,.2f} games/s (average {turns:.1f} turns, {events:,.0f} events a game; "
              f"{games * events / spent:,.0f} events/s decided, against {greedy.events / greedy.seconds:,.0f} in "
              f"the first games); target reached {games / spent / GREEDY_TARGET[size]:.3f}", flush=True)

        baseline = play_games(size, BaselineBot, seconds=4.0)
        decided = baseline.events / baseline.seconds
        folded = baseline.events / fold_seconds(baseline)
        print(f"dogfights {label}, baseline v baseline: {baseline.games / baseline.seconds:,.1f} games/s (average "
              f"{baseline.mean_turns:.1f} turns, {baseline.events / baseline.games:,.0f} events a game), "
              f"{decided:,.0f} events/s decided; limit (fold of the same games) {folded:,.0f} events/s; ratio "
              f"{decided / folded:.3f}; target ratio {BASELINE_TARGET}", flush=True)
        print(redecided_line(baseline, folded), flush=True)

        replay, trivial = replay_seconds(baseline)
        print(f"aeronautica replay ({label} baseline games): decode + fold {baseline.events / replay:,.0f} events/s; "
              f"limit (msgspec decode + trivial fold of the same lines) {baseline.events / trivial:,.0f} events/s; "
              f"ratio {trivial / replay:.3f}; target ratio {REPLAY_TARGET}", flush=True)

        print(into_duckdb(size, min(baseline.games, 10)), flush=True)


if __name__ == "__main__":
    main()
