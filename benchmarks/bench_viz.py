"""Building a game's replay, beside folding its events (the limit: a replay must at least fold them).

The game: four Thunderbolts against four Dakkajets set up by ``face_off`` for 12 turns
on an 8'x4' Area of Engagement, played by random bots. Random bots fly off the board
by accident and the game ends early (Insurmountable Losses, p.31), so the longest of
the first 24 seeds is taken and its length printed. Timed, best of three:

* fold: ``ruleset.evolve`` over the game's events once (what any replay must do);
* build: fold, group into steps, and build the ``go.Figure`` with its frames
  (``replay_figure``: Plotly validates every trace, which is most of the time);
* spec: the same as a plain figure dict (``replay_spec``: what ``aero replay`` writes);
* html: the size of the standalone page, plotly.js included.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import plotly.io as pio

from aero_events.analysis.timeline import fold_states, fold_timeline
from aero_events.bots import RandomBot, play
from aero_events.core import GameSession, SeededDice
from aero_events.rulesets.aeronautica import AeronauticaRules
from aero_events.rulesets.aeronautica.deployment import face_off
from aero_events.rulesets.aeronautica.forces import AircraftEntry, ForceList
from aero_events.viz import replay_figure, replay_spec

SEEDS = range(24)


def four_against_four(rules: AeronauticaRules, seed: int) -> GameSession:
    imperial = ForceList(name="Thunderbolts", faction="imperial_navy",
                         aircraft=(AircraftEntry(aircraft="thunderbolt"),) * 4)
    orks = ForceList(name="Dakkajets", faction="ork_air_waaagh", aircraft=(AircraftEntry(aircraft="dakkajet"),) * 4)
    setup = face_off(("imperium", imperial), ("orks", orks), rules.catalogue, board="8x4", last_turn=12,
                     check_points=False)
    session = GameSession(rules, setup, dice=SeededDice(seed), game_id=f"bench-{seed}")
    play(session, {"imperium": RandomBot(seed), "orks": RandomBot(seed + 1000)})
    return session


def longest_game(rules: AeronauticaRules) -> GameSession:
    return max((four_against_four(rules, seed) for seed in SEEDS), key=lambda s: (s.state.turn, s.seq))


def best_of(runs: int, fn) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(runs):
        started = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - started)
    return best, result


def main() -> None:
    rules = AeronauticaRules()
    session = longest_game(rules)
    initial, envelopes = session.branch.state_at(0), session.events()

    fold, _ = best_of(3, lambda: fold_states(rules, initial, envelopes))
    build, figure = best_of(3, lambda: replay_figure(fold_timeline(rules, initial, envelopes)))
    spec_time, spec = best_of(3, lambda: replay_spec(fold_timeline(rules, initial, envelopes)))
    html = pio.to_html(spec, include_plotlyjs=True, full_html=True, auto_play=False, validate=False)
    size = len(html.encode())
    print(f"viz replay: {build:.3f} s to build ({len(figure.frames)} frames); fold {fold:.4f} s; "
          f"ratio {build / fold:.0f}; html {size} bytes")
    print(f"   game: {len(envelopes)} events, {session.state.turn} of 12 turns "
          f"({session.state.end_reason or 'not over'}); as a figure dict (aero replay): {spec_time:.3f} s, "
          f"ratio {spec_time / fold:.0f}")


if __name__ == "__main__":
    main()
