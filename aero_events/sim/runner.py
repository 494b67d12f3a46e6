"""Running N games of a matchup: in this process, across local processes, or fanned out with Dask.

:func:`simulate` cuts the run into chunks of games (:class:`~aero_events.sim.games.SimTask`) and hands
them to

* this process (``workers=1``),
* a :class:`concurrent.futures.ProcessPoolExecutor` of ``workers`` processes (started with ``spawn``, so
  nothing of the parent, its DuckDB connection or its progress thread, is inherited), or
* a Dask cluster (``dask="tcp://host:port"``, or ``"local"`` for a
  ``LocalCluster(processes=True, n_workers=2)``),

with a rich progress bar as chunks complete. Each game's seed derives from (run seed, game index), so a
run gives the same results whatever runs it. Games go to the DuckDB store (encoded by the workers,
written by the parent every :data:`WRITE_BATCH` games in one transaction) or to Parquet shards (written
by the workers), or nowhere (results only).
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import dataclass, field

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from aero_events.core import AeroError, Ruleset

from .games import GameResult, SimTask, TaskResult, rules_spec, run_id, run_task
from .matchup import Matchup
from .stats import wilson_interval
from .storage import stored_ids, write_games

#: Games per task handed to a worker.
CHUNK = 10
#: Games the parent writes to DuckDB in one transaction.
WRITE_BATCH = 200


class SimulationError(AeroError):
    """A simulation that cannot start or finish (its games are already stored, a worker failed...)."""


@dataclass(frozen=True)
class PlayerSummary:
    """A player's wins, win rate with its 95% Wilson interval, mean score and mean of each statistic."""

    player: str
    wins: int
    win_rate: float
    interval: tuple[float, float]
    mean_score: float
    mean_statistics: dict[str, float]


@dataclass
class SimulationRun:
    """A finished run: its settings, every game's result (by index) and where the games went."""

    matchup: Matchup
    ruleset: str
    data_version: str
    bots: tuple[str, ...]
    seed: int
    workers: int
    backend: str
    results: list[GameResult]
    seconds: float
    run_id: str
    stored: str | None = None
    shards: list[str] = field(default_factory=list)
    #: What the ruleset calls its scores ("VP"), and its statistics' names, in order.
    score_name: str = "score"
    statistics: tuple[str, ...] = ()

    @property
    def games(self) -> int:
        return len(self.results)

    @property
    def draws(self) -> int:
        return sum(1 for r in self.results if r.winner is None)

    def player_summaries(self) -> list[PlayerSummary]:
        """Per player: wins, win rate with its 95% Wilson interval, mean score, mean of each statistic."""
        n = len(self.results)
        summaries = []
        for player in self.matchup.players:
            wins = sum(1 for r in self.results if r.winner == player)
            means = {name: sum(r.statistics.get(name, {}).get(player, 0) for r in self.results) / n if n else 0.0
                     for name in self.statistics}
            summaries.append(PlayerSummary(
                player=player, wins=wins, win_rate=wins / n if n else 0.0, interval=wilson_interval(wins, n),
                mean_score=sum(r.scores.get(player, 0) for r in self.results) / n if n else 0.0,
                mean_statistics=means))
        return summaries


def tasks_for(matchup: Matchup, rules: Ruleset, bots: tuple[str, ...], games: int, seed: int, *,
              output: str = "none", parquet_dir: str | None = None, chunk: int = CHUNK) -> list[SimTask]:
    """The run cut into chunks of ``chunk`` games."""
    spec = rules_spec(rules)
    prefix = run_id(matchup, rules.name, seed)
    return [SimTask(matchup=matchup, rules=spec, bots=bots, run_seed=seed, run_id=prefix, start=start,
                    stop=min(start + chunk, games), output=output, parquet_dir=parquet_dir)
            for start in range(0, games, chunk)]


@contextmanager
def _dask_client(address: str) -> Iterator[object]:
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError as err:
        raise SimulationError("the Dask path needs dask.distributed: pip install 'aero_events[dask]'") from err

    if address == "local":
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                               silence_logs=logging.ERROR)
        client = Client(cluster)
        try:
            yield client
        finally:
            client.close()
            cluster.close()
    else:
        client = Client(address)
        try:
            yield client
        finally:
            client.close()


def _run_dask(tasks: Sequence[SimTask], address: str, info: dict[str, int]) -> Iterator[TaskResult]:
    """The tasks on a Dask cluster; ``info["workers"]`` is set to the number of its workers."""
    with _dask_client(address) as client:
        from dask.distributed import as_completed as dask_completed

        info["workers"] = len(client.scheduler_info().get("workers", {}))  # type: ignore[attr-defined]
        futures = client.map(run_task, tasks, pure=False)  # type: ignore[attr-defined]
        for future in dask_completed(futures):
            yield future.result()


def process_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes started with ``spawn`` (see the module docstring)."""
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))


def _run_processes(tasks: Sequence[SimTask], workers: int, executor: Executor | None) -> Iterator[TaskResult]:
    pool = executor or process_pool(workers)
    try:
        futures = [pool.submit(run_task, task) for task in tasks]
        for future in as_completed(futures):
            yield future.result()
    finally:
        if executor is None:
            pool.shutdown(cancel_futures=True)


def _progress(console: Console | None) -> Progress:
    """A progress bar of games played on ``console`` (None: disabled)."""
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    TimeRemainingColumn(), console=console, disable=console is None, transient=False)


def simulate(matchup: Matchup, rules: Ruleset, *, games: int, seed: int = 0,
             bots: tuple[str, ...] | None = None, workers: int = 1, db: str | os.PathLike | None = None,
             parquet: str | os.PathLike | None = None, dask: str | None = None, chunk: int = CHUNK,
             console: Console | None = None, on_chunk: Callable[[TaskResult], None] | None = None,
             executor: Executor | None = None) -> SimulationRun:
    """Play ``games`` games of ``matchup`` under ``rules``; see the module docstring.

    ``console``: where the progress bar goes (None: no bar). ``db`` and ``parquet`` are exclusive.
    ``executor``: a process pool to reuse (e.g. one :func:`process_pool` for several runs) instead of
    starting ``workers`` processes for this run.
    """
    if games < 1:
        raise ValueError("a simulation plays at least one game")
    if db is not None and parquet is not None:
        raise ValueError("store the games in DuckDB (db) or in Parquet shards (parquet), not both")
    if workers < 1:
        raise ValueError("workers is 1 or more")
    if bots is None:
        bots = ("random",) * len(matchup.players)
    if len(bots) != len(matchup.players):
        raise ValueError(f"{len(matchup.players)} players need {len(matchup.players)} bots, not {len(bots)}")
    from aero_events.bots import bots_for

    known = bots_for(rules)
    for name in bots:
        if name not in known:
            raise KeyError(f"unknown bot {name!r}; known bots for {rules.name}: {', '.join(sorted(known))}")
    sample = rules.initial_state(matchup.setup(rules))  # a matchup the rules refuse fails here, once
    statistics = tuple(rules.statistics(sample))
    output = "db" if db is not None else "parquet" if parquet is not None else "none"
    tasks = tasks_for(matchup, rules, bots, games, seed, output=output,
                      parquet_dir=os.fspath(parquet) if parquet is not None else None, chunk=chunk)
    prefix = tasks[0].run_id
    if db is not None:
        taken = stored_ids(db, prefix + "-")
        if taken:
            raise SimulationError(f"{len(taken)} games of run {prefix} are already in {db} (e.g. {taken[0]}); "
                                  "use another --seed or --db")
    backend = "dask" if dask else "processes" if workers > 1 or executor is not None else "local"
    cluster: dict[str, int] = {}
    if dask:
        completed = _run_dask(tasks, dask, cluster)
    elif workers > 1 or executor is not None:
        completed = _run_processes(tasks, workers, executor)
    else:
        completed = map(run_task, tasks)
    results: list[GameResult] = []
    shards: list[str] = []
    pending = []
    started = time.perf_counter()
    with _progress(console) as progress:
        bar = progress.add_task(f"{matchup.name} under {rules.name}", total=games)
        for answer in completed:
            results.extend(answer.results)
            shards.extend(answer.shards)
            pending.extend(answer.games)
            if db is not None and len(pending) >= WRITE_BATCH:
                write_games(db, pending)
                pending = []
            if on_chunk is not None:
                on_chunk(answer)
            progress.advance(bar, len(answer.results))
        if db is not None and pending:
            write_games(db, pending)
    seconds = time.perf_counter() - started
    results.sort(key=lambda r: r.index)
    return SimulationRun(matchup=matchup, ruleset=rules.name, data_version=str(rules.data_version), bots=bots,
                         seed=seed, workers=cluster.get("workers", workers), backend=backend, results=results,
                         seconds=seconds, run_id=prefix,
                         stored=os.fspath(db) if db is not None else os.fspath(parquet) if parquet is not None
                         else None, shards=sorted(shards), score_name=rules.score_name(), statistics=statistics)
