"""Simulation at scale: many bot games of a matchup, their win rates, and ruleset versions compared.

* :mod:`.matchup`: a matchup file (a ruleset's scenario and its options) and bots by name;
* :mod:`.games`: one seeded game, and a chunk of games as a worker plays them;
* :mod:`.runner`: :func:`simulate` in this process, across local processes or with Dask, with a progress bar;
* :mod:`.storage`: games into DuckDB in batches, or Parquet shards per worker;
* :mod:`.stats`: Wilson intervals, the two-proportion z-test, the paired t-test;
* :mod:`.compare`: the same matchup and seeds under two versions, differences tested (Holm-adjusted);
* :mod:`.sweep`: several matchups (or each entry of a list against each) as one run, by piece type.

``aero simulate`` and ``aero compare`` (:mod:`aero_events.cli.rules_commands`) drive them.
"""

from typing import TYPE_CHECKING

from aero_events import exports_of, lazy_exports

#: Each name this package re-exports, by its module: imported when first asked for (aero_events.lazy_exports).
_EXPORTS = exports_of({
    ".compare": ("Comparison", "MetricComparison", "compare_runs"),
    ".games": ("GameResult", "game_seed"),
    ".matchup": ("Matchup", "load_matchup", "make_matchup", "parse_matchup"),
    ".runner": ("SimulationError", "SimulationInterrupted", "SimulationRun", "process_pool", "simulate"),
    ".stats": ("holm_adjusted", "paired_t_test", "two_proportion_z_test", "wilson_interval"),
    ".sweep": ("Sweep", "SweepRun", "load_sweep", "simulate_sweep", "sweep_of"),
})
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

if TYPE_CHECKING:
    from .compare import Comparison, MetricComparison, compare_runs
    from .games import GameResult, game_seed
    from .matchup import Matchup, load_matchup, make_matchup, parse_matchup
    from .runner import SimulationError, SimulationInterrupted, SimulationRun, process_pool, simulate
    from .stats import holm_adjusted, paired_t_test, two_proportion_z_test, wilson_interval
    from .sweep import Sweep, SweepRun, load_sweep, simulate_sweep, sweep_of

__all__ = [
    "Comparison", "GameResult", "Matchup", "MetricComparison", "SimulationError", "SimulationInterrupted",
    "SimulationRun", "Sweep", "SweepRun", "compare_runs", "game_seed", "holm_adjusted", "load_matchup",
    "load_sweep", "make_matchup", "paired_t_test", "parse_matchup", "process_pool", "simulate", "simulate_sweep",
    "sweep_of", "two_proportion_z_test", "wilson_interval",
]
