"""Rule changes: regression re-runs over the golden corpus, and simulated games across processes.

Two lines, each with a limit measured in the same run:

* ``regress re-runs``: every game of ``replays/`` re-run under its own ruleset (commands recovered and
  proven against the record, then decided again with the recorded dice, then compared event by event),
  in games and events per second. Limit: plain folding (``evolve`` only) of the same decoded events, the
  least work a replay needs; the ratio says what recovering and re-deciding cost over it.
* ``simulate``: random-bot games of a small matchup, in this process (1 worker) and in 2 worker
  processes (a pool started and warmed up before the clock starts), in games per second overall and per
  process. The ratio is the 2-process rate over the 1-process rate (2.0 would be perfect on 2 free cores).

Before them, for every registered ruleset, the lines of :mod:`benchmarks.rulesets` (decide against fold, replay
against msgspec decode, games per second with their average length).

Run: ``python -m benchmarks rules``.
"""

from __future__ import annotations

import time
from pathlib import Path

from aero_events.core import StateCheckpoint
from aero_events.regress import from_folder, rerun
from aero_events.rulesets.aeronautica.forces import AircraftEntry, ForceList
from aero_events.sim import Matchup, make_matchup, process_pool, simulate

REPLAYS = Path(__file__).resolve().parents[1] / "replays"
SIM_GAMES = 240


def best_of(runs: int, fn) -> float:
    best = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - started)
    return best


def measure_regress(runs: int = 3) -> str:
    games = list(from_folder(REPLAYS))
    own = [(game, game.own_rules()) for game in games]
    plain = [(rules, game.setup(rules), [env.event for env in game.envelopes if type(env.event) is not StateCheckpoint])
             for game, rules in own]
    events = sum(len(events) for _, _, events in plain)

    def rerun_all() -> None:
        for game, rules in own:
            report = rerun(game, rules, own_rules=rules)
            assert report.identical, report.game_id

    def fold_all() -> None:
        for rules, setup, recorded in plain:
            rules.fold(rules.initial_state(setup), recorded)

    rerun_seconds = best_of(runs, rerun_all)
    fold_seconds = best_of(runs, fold_all)
    return (f"regress re-runs: {len(games) / rerun_seconds:,.1f} games/s ({events / rerun_seconds:,.0f} events/s) "
            f"over the {len(games)}-game corpus ({events} events); limit (plain fold of the same events) "
            f"{events / fold_seconds:,.0f} events/s; ratio {fold_seconds / rerun_seconds:.3f}")


def bench_matchup() -> Matchup:
    bolts = ForceList(name="Bolts", faction="imperial_navy", aircraft=(AircraftEntry(aircraft="thunderbolt"),) * 3)
    dakkas = ForceList(name="Dakkas", faction="ork_air_waaagh", aircraft=(AircraftEntry(aircraft="dakkajet"),) * 4)
    return make_matchup("bench", "aeronautica/wov-2019", scenario="face-off", forces=[bolts, dakkas], board="4x4")


def measure_simulate(games: int = SIM_GAMES) -> str:
    from aero_events.rulesets import get_ruleset

    matchup, rules = bench_matchup(), get_ruleset("aeronautica/wov-2019")
    simulate(matchup, rules, games=4, seed=99)  # imports and caches warm
    started = time.perf_counter()
    single = simulate(matchup, rules, games=games, seed=1)
    one = games / (time.perf_counter() - started)
    with process_pool(2) as pool:
        simulate(matchup, rules, games=4, seed=98, executor=pool, chunk=2)  # both workers started and warm
        started = time.perf_counter()
        pooled = simulate(matchup, rules, games=games, seed=1, executor=pool)
        two = games / (time.perf_counter() - started)
    assert pooled.results == single.results
    return (f"simulate: 2 processes {two:,.1f} games/s ({two / 2:,.1f} per process); limit (1 process) "
            f"{one:,.1f} games/s; ratio {two / one:.2f} ({games} random-bot games, 3 Thunderbolts v 4 Dakkajets)")


def main() -> None:
    from benchmarks import rulesets

    rulesets.main(seconds=2.0)  # the same deciding, folding and replay lines for every registered ruleset
    print(measure_regress(), flush=True)
    print(measure_simulate(), flush=True)


if __name__ == "__main__":
    main()
