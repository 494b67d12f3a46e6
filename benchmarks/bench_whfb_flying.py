"""Alternate flying rules on the minimal host: bot battles, deciding and folding (whfb-flying/alternate).

Each line prints a figure beside a limit measured in the same run: playing a battle (deciding, listing legal
commands and the bots' choices) against folding the same battle's recorded events (replay never decides), and
deciding the recorded commands alone (no bot, no legal-command listing) against the same fold.
"""

from __future__ import annotations

import time

from aero_events.core import DiceCup, TapeDice
from aero_events.core.session import issued_command
from aero_events.rulesets.whfb_flying import WhfbFlyingRules
from aero_events.rulesets.whfb_flying.play import play_seeded_game

RULES = WhfbFlyingRules()


def fold_all(sessions) -> None:
    for session in sessions:
        RULES.fold(session.state_at(0), [e.event for e in session.events()])


def decide_all(sessions) -> int:
    """Re-decide every recorded command from its recorded state with the recorded dice."""
    decided = 0
    for session in sessions:
        envelopes = session.events()
        dice = DiceCup(TapeDice.from_events(envelopes))
        state = session.state_at(0)
        for envelope in envelopes:
            data = issued_command(envelope.event)
            if data is not None:
                command = RULES.decode_command(data)
                events = RULES.decide(state, command, dice)
                state = RULES.fold(state, events)
                decided += 1
    return decided


def main() -> None:
    for bots, games in ((("random", "random"), 6), (("general", "general"), 4)):
        started = time.perf_counter()
        sessions = [play_seeded_game(seed, bots_by_side=dict(zip(("north", "south"), bots, strict=True)))
                    for seed in range(games)]
        played = games / (time.perf_counter() - started)
        events = sum(s.seq for s in sessions)
        started = time.perf_counter()
        fold_all(sessions)
        folding = games / (time.perf_counter() - started)
        started = time.perf_counter()
        commands = decide_all(sessions)
        deciding = games / (time.perf_counter() - started)
        label = f"{bots[0]} v {bots[1]}"
        print(f"whfb-flying battles, {label} bots: {played:,.2f} games/s ({events / games:,.0f} events, "
              f"{commands / games:,.0f} commands a game); limit (folding the same events) {folding:,.1f} games/s; "
              f"ratio {played / folding:.4f}")
        print(f"whfb-flying decide, {label}: {deciding:,.2f} games/s re-deciding the recorded commands; limit "
              f"(folding) {folding:,.1f} games/s; ratio {deciding / folding:.3f}; the bots and legal commands "
              f"take {1 - played / deciding:.0%} of play")


if __name__ == "__main__":
    main()
