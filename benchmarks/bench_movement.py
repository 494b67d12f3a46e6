"""Movement (rulebook p.15-19): enumerating legal plans, and playing whole Movement phases.

Two lines, each with a limit measured in the same run:

* ``movement plans``: ``movement.flights`` for every Ace Manoeuvre 1-8 at Speeds 1-6 (every distinct way to
  fly it), counted in plans and in path hexes per second. Limit: the same number of bare path steps (one
  axial ``Hex`` step per hex, the least work a path of that many hexes needs).
* ``movement phases``: full Movement phases with 12 Thunderbolts against 12 Dakkajets on the 8'x4' board,
  each command chosen at random (seeded) among ``legal_commands``: activation, Throttle, plan, Altitude.
  Limit: folding (``evolve`` only) the same phase's recorded events, so the ratio says how much deciding
  (legal commands, checks, dice, envelopes) costs over folding.

Run: ``python -m benchmarks movement``.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from aero_events.core import GameSession, SeededDice, StateCheckpoint
from aero_events.hexgrid import DIRECTIONS, Hex
from aero_events.rulesets.aeronautica import AeronauticaRules, movement
from aero_events.rulesets.aeronautica.commands import ChooseFirstMover, ChooseManoeuvre
from aero_events.rulesets.aeronautica.forces import AircraftEntry, ForceList
from aero_events.rulesets.aeronautica.manoeuvres import load_manoeuvres
from aero_events.rulesets.aeronautica.setup import GameSetup, Placement, SideSetup, board_for
from aero_events.rulesets.aeronautica.state import MOVEMENT

SPEEDS = range(1, 7)
SIDE = 12


def best_of(runs: int, fn) -> float:
    best = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - started)
    return best


# ---------------------------------------------------------------- (a) plan enumeration


@dataclass
class PlanResult:
    plans_per_second: float
    hexes_per_second: float
    steps_per_second: float

    def line(self) -> str:
        return (f"movement plans: {self.plans_per_second:,.0f} plans/s ({self.hexes_per_second:,.0f} path hexes/s) "
                f"for manoeuvres 1-8 at Speeds 1-6; limit (bare path steps) {self.steps_per_second:,.0f} steps/s; "
                f"ratio {self.hexes_per_second / self.steps_per_second:.2f}")


def measure_plans(repeats: int = 100, runs: int = 3) -> PlanResult:
    table = load_manoeuvres()
    cases = [(table.get(n), s) for n in table.numbers for s in SPEEDS]
    start = Hex(0, 0)
    counted = [movement.flights(start, 0, m, s) for m, s in cases]
    plans = sum(len(f) for f in counted)
    hexes = sum(len(flight.path) for found in counted for flight in found)

    def enumerate_all() -> None:
        flights = movement.flights
        for _ in range(repeats):
            for m, s in cases:
                flights(start, 0, m, s)

    # The limit: as many single-hex steps as the plans' paths hold, through the six hexsides in turn.
    directions = [DIRECTIONS[i % 6] for i in range(hexes)]

    def bare_steps() -> None:
        for _ in range(repeats):
            q, r = 0, 0
            for dq, dr in directions:
                hex = Hex(q + dq, r + dr)
                q, r = hex
    enumerate_seconds = best_of(runs, enumerate_all)
    steps_seconds = best_of(runs, bare_steps)
    return PlanResult(plans * repeats / enumerate_seconds, hexes * repeats / enumerate_seconds,
                      hexes * repeats / steps_seconds)


# ---------------------------------------------------------------- (b) whole Movement phases


def big_setup() -> GameSetup:
    """12 Thunderbolts (south, facing north) against 12 Dakkajets (north, facing south) on the 8'x4' board."""
    board = board_for("8x4")

    def placements(rows: tuple[int, int], facing: int, speed: int) -> tuple[Placement, ...]:
        return tuple(Placement(hex=board.from_offset(4 + 4 * i, rows[i % 2]), facing=facing, speed=speed,
                               altitude=1 + i % 4) for i in range(SIDE))

    imperium = SideSetup(player="imperium", force=ForceList(name="Thunderbolts", faction="imperial_navy",
                         aircraft=(AircraftEntry(aircraft="thunderbolt"),) * SIDE),
                         placements=placements((19, 21), 0, 4))
    orks = SideSetup(player="orks", force=ForceList(name="Dakkajets", faction="ork_air_waaagh",
                     aircraft=(AircraftEntry(aircraft="dakkajet"),) * SIDE),
                     placements=placements((2, 4), 3, 5))
    return GameSetup(sides=(imperium, orks), board="8x4", check_points=False)


@dataclass
class PhaseResult:
    phases: int
    commands: int
    events: int
    decide_seconds: float
    fold_seconds: float

    def line(self) -> str:
        decided = self.phases / self.decide_seconds
        folded = self.phases / self.fold_seconds
        return (f"movement phases: {decided:,.1f} phases/s ({2 * SIDE} aircraft, "
                f"{self.commands / self.decide_seconds:,.0f} commands/s, {self.events / self.phases:,.0f} "
                f"events a phase); limit (folding the same events) {folded:,.1f} phases/s; "
                f"ratio {decided / folded:.3f}")


def play_movement_phase(rules: AeronauticaRules, setup: GameSetup, seed: int) -> tuple[float, int, list, object]:
    """One seeded game up to its first Movement phase, then that phase played at random and timed.

    Returns (seconds deciding, commands, the phase's events, the state before them).
    """
    rng = random.Random(seed)
    session = GameSession(rules, setup, dice=SeededDice(seed), game_id=f"bench-{seed}")
    players = session.state.players
    for player in players:
        for aircraft in session.state.side(player):
            choices = rules.manoeuvres_for(aircraft)
            session.apply(ChooseManoeuvre(player=player, aircraft=aircraft.id, manoeuvre=rng.choice(choices)))
    winner = session.state.initiative
    session.apply(ChooseFirstMover(player=winner, first=rng.choice(players)))
    start_seq = session.seq
    before = session.state
    commands = 0
    started = time.perf_counter()
    while session.state.phase == MOVEMENT:
        options = session.legal_commands(players[0]) + session.legal_commands(players[1])
        session.apply(rng.choice(options))
        commands += 1
    seconds = time.perf_counter() - started
    events = [env.event for env in session.events(start_seq + 1) if not isinstance(env.event, StateCheckpoint)]
    return seconds, commands, events, before


def measure_phases(games: int = 60) -> PhaseResult:
    rules = AeronauticaRules()
    setup = big_setup()
    play_movement_phase(rules, setup, seed=10_000)  # warm the caches (boards, profiles)
    decide_seconds = fold_seconds = 0.0
    commands = events_total = 0
    for seed in range(games):
        seconds, count, events, before = play_movement_phase(rules, setup, seed)
        decide_seconds += seconds
        commands += count
        events_total += len(events)
        fold_seconds += best_of(3, lambda events=events, before=before: rules.fold(before, events))
    return PhaseResult(games, commands, events_total, decide_seconds, fold_seconds)


def main() -> None:
    print(measure_plans().line(), flush=True)
    print(measure_phases().line(), flush=True)


if __name__ == "__main__":
    main()
