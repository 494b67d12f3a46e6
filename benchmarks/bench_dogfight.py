"""Complete Dogfights per second between random bots, 1 against 1 and 4 against 4 (issue 5).

Each line prints games per second beside a limit measured in the same run:
in memory, the limit is folding the same games' recorded events (replay never decides,
so deciding and legal-command listing are what the ratio prices); into DuckDB, the
limit is the same games played in memory (so the ratio prices the store's batched writes).
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from aero_events.bots import RandomBot, play
from aero_events.core import GameSession, SeededDice, TapeDice
from aero_events.rulesets.aeronautica import AeronauticaRules
from aero_events.rulesets.aeronautica.forces import AircraftEntry, ForceList
from aero_events.rulesets.aeronautica.scenarios.dogfight import dogfight_setup
from aero_events.store import EventStore

RULES = AeronauticaRules()


def setup(size: int):
    imperium = ForceList(name="i", faction="imperial_navy", aircraft=(AircraftEntry(aircraft="thunderbolt"),) * size)
    orks = ForceList(name="o", faction="ork_air_waaagh", aircraft=(AircraftEntry(aircraft="dakkajet"),) * size)
    return dogfight_setup(("imperium", imperium), ("orks", orks), 25 * size, board="4x4",
                          catalogue=RULES.catalogue, check_points=False)


def play_games(size: int, games: int) -> list[GameSession]:
    sessions = []
    for seed in range(games):
        session = GameSession(RULES, setup(size), dice=SeededDice(seed), game_id=f"bench-{size}-{seed}")
        play(session, {"imperium": RandomBot(seed), "orks": RandomBot(seed + 1)})
        sessions.append(session)
    return sessions


def main() -> None:
    for size, games in ((1, 40), (4, 15)):
        started = time.perf_counter()
        sessions = play_games(size, games)
        memory = games / (time.perf_counter() - started)
        events = sum(s.seq for s in sessions)

        started = time.perf_counter()
        for session in sessions:
            replay = GameSession(RULES, session.game.setup, dice=TapeDice([]), game_id=session.game_id)
            replay.record(session.events())
        folding = games / (time.perf_counter() - started)

        with tempfile.TemporaryDirectory() as folder:
            started = time.perf_counter()
            sessions = play_games(size, games)
            with EventStore(Path(folder) / "bench.duckdb") as store:
                for session in sessions:
                    store.save_session(session)
            stored = games / (time.perf_counter() - started)
        label = f"{size} against {size}"
        print(f"dogfights {label}: {memory:,.1f} games/s in memory ({events / games:,.0f} events a game); "
              f"limit (folding the same events) {folding:,.1f} games/s; ratio {memory / folding:.3f}")
        print(f"dogfights {label} into DuckDB: {stored:,.1f} games/s; limit (in memory) {memory:,.1f} games/s; "
              f"ratio {stored / memory:.2f}")


if __name__ == "__main__":
    main()
