"""Comparing ruleset versions on the same matchup and the same seeds (``aero compare``).

Both runs play games 0..N-1 with the same per-game seeds (:func:`~aero_events.sim.games.game_seed`), so
game ``i`` under version A and game ``i`` under version B start alike; from the first roll the rules
treat differently they go their own ways. Each difference is tested at p < 0.05 (:mod:`.stats`):

* win rates and the draw rate: the pooled two-proportion z-test;
* mean Victory points, aircraft lost and game length per player: Student's paired t-test on the
  per-seed differences (B - A).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .games import GameResult
from .runner import SimulationRun
from .stats import ALPHA, TestResult, paired_t_test, two_proportion_z_test, wilson_interval


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

    @property
    def difference(self) -> float:
        return self.value_b - self.value_a

    @property
    def significant(self) -> bool:
        return self.test.significant


@dataclass(frozen=True)
class Comparison:
    """Two runs of one matchup under two versions, metric by metric."""

    run_a: SimulationRun
    run_b: SimulationRun
    metrics: tuple[MetricComparison, ...]

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


def compare_runs(run_a: SimulationRun, run_b: SimulationRun) -> Comparison:
    """The metrics of two runs of the same matchup and seeds."""
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
    return Comparison(run_a=run_a, run_b=run_b, metrics=tuple(metrics))


__all__ = ["ALPHA", "Comparison", "MetricComparison", "compare_runs"]
