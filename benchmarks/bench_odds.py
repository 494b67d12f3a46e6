"""The odds from the middle of a game (issue 18): playouts per second over 2 processes, and the time 1,000
playouts would take, beside a limit measured in the same run.

The game: the demo Dogfight (four Thunderbolts against four Dakkajets and a Fighta Bommer), played by the
baseline bot; the position: its middle event. Playouts are the default bot's (the baseline). The limit is
the same playouts in this one process: the ratio is the 2-process rate over it (2.0 would be perfect on 2
free cores). Issue 18's target: 1,000 playouts in seconds, not minutes.
"""

from __future__ import annotations

import time

from aero_events.bots import play
from aero_events.core import GameSession, SeededDice
from aero_events.odds import odds
from aero_events.rulesets import get_ruleset
from aero_events.rulesets.aeronautica.bots import BaselineBot
from aero_events.sim import process_pool

PLAYOUTS = 40
TARGET_SECONDS = 10.0


def middle_game() -> GameSession:
    rules = get_ruleset("aeronautica/wov-2019")
    scenario = rules.scenarios()["dogfight"]
    session = GameSession(rules, scenario.build(scenario.default_options, 1), dice=SeededDice(1), game_id="odds-bench")
    play(session, {"imperium": BaselineBot(1), "orks": BaselineBot(2)})
    return session


def main() -> None:
    session = middle_game()
    middle = session.seq // 2
    started = time.perf_counter()
    alone = odds(session.game, seq=middle, playouts=PLAYOUTS // 4, seed=1)
    one = alone.playouts / (time.perf_counter() - started)
    with process_pool(2) as pool:
        odds(session.game, seq=middle, playouts=4, seed=2, executor=pool, chunk=2)  # both workers started
        started = time.perf_counter()
        found = odds(session.game, seq=middle, playouts=PLAYOUTS, seed=1, executor=pool, chunk=5)
        two = found.playouts / (time.perf_counter() - started)
    thousand = 1000 / two
    print(f"odds from the middle of a 4 v 5 Dogfight (event {middle} of {session.seq}, turn {found.turn}): "
          f"{two:,.2f} playouts/s over 2 processes (average end in turn {found.mean_turns:.1f}); limit (1 process) "
          f"{one:,.2f} playouts/s; ratio {two / one:.2f}; 1,000 playouts would take {thousand:,.0f}s; target "
          f"{TARGET_SECONDS:g}s, reached {TARGET_SECONDS / thousand:.3f}", flush=True)


if __name__ == "__main__":
    main()
