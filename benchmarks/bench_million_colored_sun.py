"""Million-Colored Sun (``million-colored-sun/2018``): deciding, folding and the ace bot, each against a limit measured
in the same run (as bench_dogfight.py does).

* **decide**: commands per second of whole bot games played in memory (``decide`` with the legal-command listing the
  bots read); limit: replaying the same games' recorded events (replay never decides), per command.
* **fold**: events per second folded by the ruleset's ``evolve``; limit: one ``msgspec.structs.replace`` of the state
  per event (the least an immutable fold does for each event).
* **bot**: the ace bot's choices per second at the recorded decision points; limit: listing the legal commands at the
  same points (a bot cannot choose with less).

Run alone with ``python benchmarks/bench_million_colored_sun.py`` or import ``main``.
"""

from __future__ import annotations

import time

import msgspec

from aero_events.bots import RandomBot, play
from aero_events.core import GameSession, SeededDice, TapeDice
from aero_events.rulesets.million_colored_sun import MillionColoredSunRules
from aero_events.rulesets.million_colored_sun.bots import AceBot
from aero_events.rulesets.million_colored_sun.setup import GameSetup

RULES = MillionColoredSunRules()
GAMES = 6


def play_games() -> tuple[list[GameSession], int]:
    sessions, commands = [], 0
    for seed in range(GAMES):
        session = GameSession(RULES, GameSetup(), dice=SeededDice(seed), game_id=f"bench-mcs-{seed}")
        commands += play(session, {"azure": RandomBot(seed), "crimson": RandomBot(seed + 1)})
        sessions.append(session)
    return sessions, commands


def main() -> None:
    started = time.perf_counter()
    sessions, commands = play_games()
    deciding = commands / (time.perf_counter() - started)

    started = time.perf_counter()
    for session in sessions:
        replay = GameSession(RULES, session.game.setup, dice=TapeDice([]), game_id=session.game_id)
        replay.record(session.events())
    replaying = commands / (time.perf_counter() - started)
    print(f"mcs decide: {deciding:,.0f} commands/s in bot games ({commands / GAMES:,.0f} commands a game); "
          f"limit (replaying their events) {replaying:,.0f} commands/s; ratio {deciding / replaying:.3f}")

    events = [(RULES.initial_state(s.game.setup), [e.event for e in s.events()]) for s in sessions]
    count = sum(len(each) for _, each in events)
    started = time.perf_counter()
    for initial, each in events:
        RULES.fold(initial, each)
    folding = count / (time.perf_counter() - started)
    started = time.perf_counter()
    for initial, each in events:
        state = initial
        for _ in each:
            state = msgspec.structs.replace(state)
    copying = count / (time.perf_counter() - started)
    print(f"mcs fold: {folding:,.0f} events/s; limit (one state copy per event) {copying:,.0f} events/s; "
          f"ratio {folding / copying:.3f}")

    points = []
    for session in sessions[:2]:
        for seq in range(0, session.seq + 1, 3):
            state = session.state_at(seq)
            player = next((p for p in state.players if RULES.legal_commands(state, p)), None)
            if player is not None:
                points.append((state, player))
    started = time.perf_counter()
    for state, player in points:
        RULES.legal_commands(state, player)
    listing = len(points) / (time.perf_counter() - started)

    class Seat:  # what a bot reads of a session
        ruleset = RULES
        state = None

    bot = AceBot(0)
    started = time.perf_counter()
    for state, player in points:
        Seat.state = state
        bot.choose(Seat, player, RULES.legal_commands(state, player))
    choosing = len(points) / (time.perf_counter() - started)
    print(f"mcs ace bot: {choosing:,.0f} choices/s; limit (listing the legal commands) {listing:,.0f}/s; "
          f"ratio {choosing / listing:.3f}")


if __name__ == "__main__":
    main()
