"""Wings of Glory (``wings-of-glory/bob-2017``): deciding, folding and the bots, each as a ratio against a limit
measured in the same run.

* decide: whole dogfights per second between random bots; limit: folding the same games' recorded events
  (replay never decides, so deciding, legal-command listing and geometry are what the ratio prices);
* fold: events folded per second; limit: a bare loop handing each event to a function that returns the
  state unchanged (the ratio prices the reducers);
* bot: the hunter bot's choices per second; limit: listing the legal commands in the same states (the
  ratio prices the hunter's look-ahead beyond the listing it must do anyway).
"""

from __future__ import annotations

import time

from aero_events.bots.runner import play
from aero_events.core import GameSession, SeededDice, TapeDice
from aero_events.rulesets.wings_of_glory import WingsOfGloryRules
from aero_events.rulesets.wings_of_glory.bots import HunterBot, LegalRandomBot

RULES = WingsOfGloryRules()


def play_games(games: int) -> list[GameSession]:
    sessions = []
    for seed in range(games):
        setup = RULES.scenarios()["dogfight"].build({}, seed)
        session = GameSession(RULES, setup, dice=SeededDice(seed), game_id=f"bench-{seed}")
        play(session, {"RAF": LegalRandomBot(seed), "Luftwaffe": LegalRandomBot(seed + 1)})
        sessions.append(session)
    return sessions


def main() -> None:
    games = 8
    started = time.perf_counter()
    sessions = play_games(games)
    deciding = games / (time.perf_counter() - started)
    events = [env.event for s in sessions for env in s.events()]

    started = time.perf_counter()
    for session in sessions:
        replay = GameSession(RULES, session.game.setup, dice=TapeDice([]), game_id=session.game_id)
        replay.record(session.events())
    folding_games = games / (time.perf_counter() - started)
    print(f"wings-of-glory decide: {deciding:,.2f} dogfights/s between random bots "
          f"({len(events) / games:,.0f} events a game); limit (folding the same events) {folding_games:,.2f}/s; "
          f"ratio {deciding / folding_games:.3f}")

    per_game = [(s.game.initial_state, [env.event for env in s.events()]) for s in sessions]
    started = time.perf_counter()
    for initial, game_events in per_game:
        RULES.fold(initial, game_events)
    fold_rate = len(events) / (time.perf_counter() - started)

    def unchanged(state, event):
        return state

    started = time.perf_counter()
    for initial, game_events in per_game:
        state = initial
        for event in game_events:
            state = unchanged(state, event)
    bare_rate = len(events) / (time.perf_counter() - started)
    print(f"wings-of-glory fold: {fold_rate:,.0f} events/s; limit (a bare loop over the events) {bare_rate:,.0f}/s; "
          f"ratio {fold_rate / bare_rate:.4f}")

    states = []
    for session in sessions[:3]:
        for env in session.events()[::3]:
            state = session.state_at(env.seq)
            states.extend((state, player) for player in state.players if RULES.legal_commands(state, player))
    states = states[:200]
    hunter = HunterBot(RULES, 0)

    class _Session:
        def __init__(self, state):
            self.state = state

    started = time.perf_counter()
    for state, player in states:
        RULES.legal_commands(state, player)
    listing = len(states) / (time.perf_counter() - started)
    started = time.perf_counter()
    for state, player in states:
        hunter.choose(_Session(state), player, RULES.legal_commands(state, player))
    choosing = len(states) / (time.perf_counter() - started)
    print(f"wings-of-glory bot: hunter {choosing:,.1f} choices/s over {len(states)} decision points; limit (listing "
          f"the legal commands) {listing:,.1f}/s; ratio {choosing / listing:.3f}")


if __name__ == "__main__":
    main()
