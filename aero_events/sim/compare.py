"""Comparing ruleset versions on the same matchup and the same seeds (``aero compare``).

Both runs play games 0..N-1 with the same per-game seeds (:func:`~aero_events.sim.games.game_seed`), so
game ``i`` under version A and game ``i`` under version B start alike; from the first roll the rules
treat differently they go their own ways. Each difference is tested (:mod:`.stats`):

* win rates and the draw rate: the pooled two-proportion z-test;
* mean Victory points, aircraft lost and game length per player: Student's paired t-test on the
  per-seed differences (B - A).

Several differences are tested at once (eight for two players and Aeronautica's two statistics), so a
difference is called significant when its **Holm-adjusted** p-value (:func:`~.stats.holm_adjusted`) is
under 0.05, not its raw one: with eight raw tests at 0.05 and no change at all, about one run in three
would report a "significant" difference.

**Bots that do not play the game.** A comparison measures the rules only if the bots play them: bots that
end games long before the scenario's last turn, whose pieces mostly leave the table, or that draw every game
without destroying a piece, measure the bots. :func:`bot_warnings` says so (from the games themselves: their
length against the initial state's ``last_turn`` where the ruleset's state has one, their winners, and the
pieces of their final scenes) and names the bot to use instead (the ruleset's default bot, else another of
its bots).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .games import GameResult
from .runner import SimulationRun
from .stats import (
    ALPHA,
    HOLM,
    TestResult,
    holm_adjusted,
    paired_t_test,
    two_proportion_z_test,
    wilson_interval,
)


@dataclass(frozen=True)
class MetricComparison:
    """One metric under two versions: values (rates or means), the difference B - A, the test."""

    metric: str
    kind: str  # "rate" | "mean"
    value_a: float
    value_b: float
    interval_a: tuple[float, float] | None
    interval_b: tuple[float, float] | None
    test: TestResult
    test_name: str
    #: The p-value after the correction for the comparison's several tests (None: the raw one).
    adjusted: float | None = None

    @property
    def difference(self) -> float:
        return self.value_b - self.value_a

    @property
    def adjusted_p_value(self) -> float:
        return self.test.p_value if self.adjusted is None else self.adjusted

    @property
    def significant(self) -> bool:
        """Significant at :data:`ALPHA` after the correction for multiple comparisons."""
        return self.adjusted_p_value < ALPHA


@dataclass(frozen=True)
class Comparison:
    """Two runs of one matchup under two versions, metric by metric."""

    run_a: SimulationRun
    run_b: SimulationRun
    metrics: tuple[MetricComparison, ...]
    #: Why the comparison may measure the bots rather than the rules (see the module docstring).
    warnings: tuple[str, ...] = ()
    correction: str = HOLM
    alpha: float = ALPHA

    @property
    def significant(self) -> list[MetricComparison]:
        return [metric for metric in self.metrics if metric.significant]


def _rate(name: str, hits_a: int, hits_b: int, n_a: int, n_b: int) -> MetricComparison:
    return MetricComparison(metric=name, kind="rate", value_a=hits_a / n_a, value_b=hits_b / n_b,
                            interval_a=wilson_interval(hits_a, n_a), interval_b=wilson_interval(hits_b, n_b),
                            test=two_proportion_z_test(hits_b, n_b, hits_a, n_a), test_name="two-proportion z")


def _paired(name: str, a: Sequence[GameResult], b: Sequence[GameResult],
            value: Callable[[GameResult], float]) -> MetricComparison:
    values_a = [value(r) for r in a]
    values_b = [value(r) for r in b]
    return MetricComparison(metric=name, kind="mean", value_a=sum(values_a) / len(values_a),
                            value_b=sum(values_b) / len(values_b), interval_a=None, interval_b=None,
                            test=paired_t_test([y - x for x, y in zip(values_a, values_b, strict=True)]),
                            test_name="paired t")


def compare_runs(run_a: SimulationRun, run_b: SimulationRun, rules: Any = None) -> Comparison:
    """The metrics of two runs of the same matchup and seeds, their p-values Holm-adjusted, and warnings
    about the bots (``rules``: run A's ruleset, to name the bot to use instead)."""
    a, b = run_a.results, run_b.results
    if [r.seed for r in a] != [r.seed for r in b]:
        raise ValueError("the two runs must play the same games (same seed and number of games)")
    n = len(a)
    players = run_a.matchup.players
    metrics = [_rate(f"{player} win rate", sum(r.winner == player for r in a), sum(r.winner == player for r in b),
                     n, n) for player in players]
    metrics.append(_rate("draw rate", sum(r.winner is None for r in a), sum(r.winner is None for r in b), n, n))
    for player in players:
        metrics.append(_paired(f"{player} mean {run_a.score_name}", a, b, lambda r, p=player: r.scores.get(p, 0)))
    for name in run_a.statistics:
        for player in players:
            metrics.append(_paired(f"{player} {name}", a, b,
                                   lambda r, p=player, n=name: r.statistics.get(n, {}).get(p, 0)))
    metrics.append(_paired("game length (turns)", a, b, lambda r: r.turns))
    adjusted = holm_adjusted([metric.test.p_value for metric in metrics])
    metrics = [replace(metric, adjusted=value) for metric, value in zip(metrics, adjusted, strict=True)]
    return Comparison(run_a=run_a, run_b=run_b, metrics=tuple(metrics),
                      warnings=tuple(bot_warnings([run_a, run_b], rules)))


#: Games shorter than this share of the scenario's last turn, on average, end long before the scenario does.
SHORT_GAME_SHARE = 0.5
#: Pieces that left the table (not destroyed) at the end, as a share of those fielded, above which the bots
#: are taken to fly their pieces away rather than fight.
LEFT_TABLE_SHARE = 0.5
LEFT_TABLE = frozenset({"disengaged", "off-table"})
#: Statuses of a piece the game took out (a run where no game has a winner and no piece ends so has measured
#: nothing: random Battlefleet Gothic fleets drift for eight turns without a shot that tells).
DESTROYED = frozenset({"destroyed", "crashed"})


def bot_warnings(runs: Sequence[SimulationRun], rules: Any = None) -> list[str]:
    """Why the games of ``runs`` (one matchup, played under one or more versions) may not measure the rules:
    games much shorter than the scenario's turn limit, most pieces leaving the table, or every game drawn with
    no piece destroyed; each warning gives the figure under each version and says what to use instead
    (``rules``: to name the bot)."""
    runs = [run for run in runs if run.results]
    if not runs:
        return []
    bots = ", ".join(dict.fromkeys(name for run in runs for name in run.bots))
    instead = _instead(runs[0], rules)
    found = []
    lengths = [(run, sum(r.turns for r in run.results) / len(run.results)) for run in runs]
    short = [(run, turns) for run, turns in lengths if run.turn_limit and turns < SHORT_GAME_SHARE * run.turn_limit]
    if short:
        figures = "; ".join(f"{turns:.1f} under {run.ruleset}" for run, turns in short)
        found.append(f"the bots ({bots}) end games after few turns on average ({figures}) where the scenario lasts "
                     f"up to {short[0][0].turn_limit}: the differences measure the bots more than the rules; "
                     f"{instead}")
    away = []
    for run in runs:
        fielded = sum(len(r.pieces) for r in run.results)
        left = sum(1 for r in run.results for piece in r.pieces if piece.status in LEFT_TABLE)
        if fielded and left > LEFT_TABLE_SHARE * fielded:
            away.append(f"{100 * left / fielded:.0f}% under {run.ruleset}")
    if away:
        found.append(f"most pieces ended off the table, having left it rather than being destroyed "
                     f"({'; '.join(away)}): the bots ({bots}) fly away more than they fight; {instead}")
    idle = [run for run in runs if all(result.winner is None for result in run.results)
            and not any(piece.status in DESTROYED for result in run.results for piece in result.pieces)]
    if idle:
        under = "; ".join(f"{len(run.results)} games under {run.ruleset}" for run in idle)
        found.append(f"every game was drawn and no piece was destroyed ({under}): the bots ({bots}) do not fight, "
                     f"so no difference can show; {instead}")
    return found


def _instead(run: SimulationRun, rules: Any) -> str:
    if rules is None:
        return "use bots that play the game (--bots; aero rulesets lists each ruleset's)"
    from aero_events.bots import bots_for, default_bot

    default = default_bot(rules)
    if default not in run.bots:
        return f"use --bots {default} (the ruleset's default bot, which plays the game)"
    others = sorted(name for name in bots_for(rules) if name not in run.bots and name != "random")
    if others:
        return f"try --bots {others[0]} (aero rulesets lists each ruleset's bots)"
    return "this ruleset has no better bot yet: read the result as the bots', not the rules'"


__all__ = ["ALPHA", "HOLM", "Comparison", "MetricComparison", "bot_warnings", "compare_runs"]
