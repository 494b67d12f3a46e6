"""The odds from the middle of a game (issue 18): playouts per second over 2 processes, and the time 1,000
playouts take, beside a limit measured in the same run.

The game: the demo Dogfight (four Thunderbolts against four Dakkajets and a Fighta Bommer), played by the
baseline bot; the position: its middle event. Playouts are the default bot's (the baseline), each played
from the position's folded state with the ruleset's pure functions (no session, no envelopes).

Printed: the 2-process rate; the limit, the same playouts in this one process (the ratio is the 2-process
rate over it: 2.0 would be perfect on 2 free cores); the CPU time of one playout in this process and the
events it decides (what the rules cost, shared with ``bench_rules``); and the time 1,000 playouts take at
the 2-process rate. Issue 18's target: 1,000 playouts in seconds, not minutes (printed as ``reached``,
1.0 meaning 10 s). On a machine others share, the wall-clock figures move with their load; the CPU time per
playout does not.
"""

from __future__ import annotations

import time

from aero_events.bots import play
from aero_events.core import GameSession, SeededDice
from aero_events.odds import odds
from aero_events.odds.playouts import play_out, position_of
from aero_events.rulesets import get_ruleset
from aero_events.rulesets.aeronautica.bots import BaselineBot
from aero_events.sim import process_pool

PLAYOUTS = 40
ALONE = 12
TARGET_SECONDS = 10.0


def middle_game() -> GameSession:
    rules = get_ruleset("aeronautica/wov-2019")
    scenario = rules.scenarios()["dogfight"]
    session = GameSession(rules, scenario.build(scenario.default_options, 1), dice=SeededDice(1), game_id="odds-bench")
    play(session, {"imperium": BaselineBot(1), "orks": BaselineBot(2)})
    return session


def main() -> None:
    session = middle_game()
    rules, middle = session.ruleset, session.seq // 2
    position = position_of(rules, session.events(), session.state_at, middle)
    for index in range(ALONE, ALONE + 2):  # warm the ruleset's caches, as the workers' first chunks do
        play_out(rules, position.state, position.rolls, "default", 1, index)
    cpu, wall = time.process_time(), time.perf_counter()
    alone = [play_out(rules, position.state, position.rolls, "default", 1, index) for index in range(ALONE)]
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    one = ALONE / wall
    events = sum(result.events for result in alone) / ALONE
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
    print(f"   one playout: {1000 * cpu / ALONE:,.0f} ms of CPU, {events:,.0f} events decided "
          f"({events * ALONE / cpu:,.0f} events/s); 1,000 playouts on 2 free cores: "
          f"{1000 * cpu / ALONE / 2:,.0f}s", flush=True)


if __name__ == "__main__":
    main()
