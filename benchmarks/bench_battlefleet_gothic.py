"""Battlefleet Gothic (issue 13): Cruiser Clash games by bots, each figure beside a limit measured in this run.

* decide: commands applied per second while bots play (deciding, folding, listing legal commands), against
  the limit of folding the same recorded events (replay never decides);
* fold: events folded per second, against one ``msgspec.structs.replace`` of the state per event (the least an
  immutable fold can do);
* bots: the broadside bot's choices per second, against the random bot choosing from the same options.
"""

from __future__ import annotations

import time

import msgspec

from aero_events.bots import RandomBot
from aero_events.core import GameSession, TapeDice
from aero_events.rulesets.battlefleet_gothic import BattlefleetGothicRules
from aero_events.rulesets.battlefleet_gothic.bots import BroadsideBot
from aero_events.rulesets.battlefleet_gothic.play import play_seeded_game

RULES = BattlefleetGothicRules()
GAMES = 6


def main() -> None:
    started = time.perf_counter()
    sessions = [play_seeded_game(seed, rules=RULES) for seed in range(GAMES)]
    played = time.perf_counter() - started
    events = sum(s.seq for s in sessions)

    started = time.perf_counter()
    for session in sessions:
        replay = GameSession(RULES, session.game.setup, dice=TapeDice([]), game_id=session.game_id)
        replay.record(session.events())
    folding = time.perf_counter() - started
    print(f"battlefleet gothic: {GAMES / played:,.2f} cruiser clashes/s played by bots ({events / GAMES:,.0f} "
          f"events a game); limit (folding the same events) {GAMES / folding:,.2f} games/s; "
          f"ratio {folding / played:.3f}")

    envelopes = [env.event for s in sessions for env in s.events()]
    initial = [s.game.initial_state for s in sessions]
    started = time.perf_counter()
    for state, session in zip(initial, sessions, strict=True):
        RULES.fold(state, (env.event for env in session.events() if type(env.event).__name__ != "StateCheckpoint"))
    fold_time = time.perf_counter() - started
    started = time.perf_counter()
    for state, session in zip(initial, sessions, strict=True):
        for _ in session.events():
            state = msgspec.structs.replace(state, next_id=state.next_id)
    bare = max(time.perf_counter() - started, 1e-9)
    print(f"battlefleet gothic fold: {len(envelopes) / fold_time:,.0f} events/s; limit (one state replace per "
          f"event) {len(envelopes) / bare:,.0f} events/s; ratio {bare / fold_time:.3f}")

    session = sessions[0]
    points = [(session.state_at(seq), player) for seq in range(0, session.seq, 7)
              for player in session.state_at(seq).players]
    points = [(state, player, RULES.legal_commands(state, player)) for state, player in points]
    points = [(state, player, options) for state, player, options in points if options]

    class Frozen:
        ruleset = RULES

        def __init__(self, state):
            self.state = state

    broadside, random_bot = BroadsideBot(0), RandomBot(0)
    started = time.perf_counter()
    for state, player, options in points:
        broadside.choose(Frozen(state), player, options)
    smart = time.perf_counter() - started
    started = time.perf_counter()
    for state, player, options in points:
        random_bot.choose(Frozen(state), player, options)
    baseline = max(time.perf_counter() - started, 1e-9)
    print(f"battlefleet gothic bots: broadside bot {len(points) / smart:,.0f} choices/s; limit (random bot on the "
          f"same options) {len(points) / baseline:,.0f} choices/s; ratio {baseline / smart:.4f}")


if __name__ == "__main__":
    main()
