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
written by the parent every :data:`WRITE_BATCH` games or :data:`WRITE_SECONDS` seconds, whichever comes
first, in one transaction) or to Parquet shards (written by the workers), or nowhere (results only).

**Interrupted and resumed runs** (issue 16, item 11). A game is stored whole or not at all (one
transaction per batch). Ctrl-C stores the games already played and raises :class:`SimulationInterrupted`
(the workers ignore SIGINT, so only the parent reacts); a kill loses at most the games not yet written. A
run whose games are partly in the store is refused unless ``resume=True`` (``aero simulate ... --resume``):
then only the missing game indices are played, the stored games' results are read back from
``simulation_results``, and the run ends with exactly the games asked for, none doubled. Re-running
the same command without ``--resume`` is refused with a message that says so (the choice: finishing a
run is asked for, never implied, so two runs with the same seed are never mixed by mistake).
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import re
import signal
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

#: Games per task handed to a worker.
CHUNK = 10
#: Games the parent writes to DuckDB in one transaction, at most.
WRITE_BATCH = 200
#: Seconds at most between two writes to DuckDB (so a killed run loses little); the environment variable
#: ``AERO_SIM_WRITE_SECONDS`` sets another interval (the kill tests use a short one).
WRITE_SECONDS = 5.0


def write_interval() -> float:
    """:data:`WRITE_SECONDS`, or ``AERO_SIM_WRITE_SECONDS`` when it is a number of seconds (0 to 3600)."""
    text = os.environ.get("AERO_SIM_WRITE_SECONDS", "")
    try:
        value = float(text)
    except ValueError:
        return WRITE_SECONDS
    return value if 0 <= value <= 3600 else WRITE_SECONDS


class SimulationError(AeroError):
    """A simulation that cannot start or finish (its games are already stored, a worker failed...)."""


class SimulationInterrupted(SimulationError):
    """Ctrl-C during a run: the games played so far are stored (with a store), and the message says how to
    finish the run."""

    def __init__(self, message: str, stored: int = 0):
        super().__init__(message)
        self.stored = stored


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
    #: Games of a resumed run that were already stored (read back, not played again).
    resumed: int = 0
    #: The scenario's last turn (the initial state's ``last_turn``, where the ruleset's state has one).
    turn_limit: int | None = None

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
              output: str = "none", parquet_dir: str | None = None, chunk: int = CHUNK,
              prefix: str | None = None, indices: Sequence[int] | None = None) -> list[SimTask]:
    """The run cut into chunks of ``chunk`` games (only ``indices``, when given: a resumed run)."""
    spec = rules_spec(rules)
    prefix = prefix or run_id(matchup, rules.name, seed)
    wanted = list(range(games)) if indices is None else sorted(indices)
    return [SimTask(matchup=matchup, rules=spec, bots=bots, run_seed=seed, run_id=prefix, start=part[0],
                    stop=part[-1] + 1, output=output, parquet_dir=parquet_dir,
                    indices=None if part == list(range(part[0], part[-1] + 1)) else tuple(part))
            for part in (wanted[at:at + chunk] for at in range(0, len(wanted), chunk))]


def run_game_indices(ids: Sequence[str], prefix: str) -> dict[int, str]:
    """The games of run ``prefix`` among ``ids``, by index (``<prefix>-000012`` is game 12; a longer id that
    merely starts with the prefix, such as another matchup's, is not one of them)."""
    pattern = re.compile(re.escape(prefix) + r"-(\d{6,})")
    return {int(match.group(1)): game for game in ids if (match := pattern.fullmatch(game))}


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


def _ignore_interrupts() -> None:
    """A worker's initializer: Ctrl-C is the parent's to handle (it stores what was played and stops the
    pool); a worker that saw it too would die with a traceback of its own."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def process_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes started with ``spawn`` (see the module docstring), ignoring SIGINT."""
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_ignore_interrupts)


def _run_processes(tasks: Sequence[SimTask], workers: int, executor: Executor | None) -> Iterator[TaskResult]:
    pool = executor or process_pool(workers)
    futures = [pool.submit(run_task, task) for task in tasks]
    try:
        for future in as_completed(futures):
            yield future.result()
    finally:
        for future in futures:
            future.cancel()
        if executor is None:
            pool.shutdown(wait=False, cancel_futures=True)


def _progress(console: Console | None) -> Progress:
    """A progress bar of games played on ``console`` (None: disabled)."""
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    TimeRemainingColumn(), console=console, disable=console is None, transient=False)


def simulate(matchup: Matchup, rules: Ruleset, *, games: int, seed: int = 0,
             bots: tuple[str, ...] | None = None, workers: int = 1, db: str | os.PathLike | None = None,
             parquet: str | os.PathLike | None = None, dask: str | None = None, chunk: int = CHUNK,
             console: Console | None = None, on_chunk: Callable[[TaskResult], None] | None = None,
             executor: Executor | None = None, resume: bool = False, prefix: str | None = None,
             resume_hint: str = "--resume") -> SimulationRun:
    """Play ``games`` games of ``matchup`` under ``rules``; see the module docstring.

    ``console``: where the progress bar goes (None: no bar). ``db`` and ``parquet`` are exclusive.
    ``executor``: a process pool to reuse (e.g. one :func:`process_pool` for several runs) instead of
    starting ``workers`` processes for this run. ``resume``: finish a run whose games are partly in ``db``.
    ``prefix``: the run's game-id prefix (default :func:`~aero_events.sim.games.run_id`; a sweep gives each
    matchup its own under the sweep's). ``resume_hint``: how the refusal tells the user to resume.
    """
    if games < 1:
        raise ValueError("a simulation plays at least one game")
    if db is not None and parquet is not None:
        raise ValueError("store the games in DuckDB (db) or in Parquet shards (parquet), not both")
    if resume and db is None:
        raise ValueError("only a run stored in a DuckDB file (--db) can be resumed")
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
    prefix = prefix or run_id(matchup, rules.name, seed)
    kept: list[GameResult] = []
    missing: list[int] | None = None
    if db is not None:
        kept, missing = _stored_part(db, prefix, games, resume, bots, rules, resume_hint)
    tasks = tasks_for(matchup, rules, bots, games, seed, output=output, chunk=chunk, prefix=prefix, indices=missing,
                      parquet_dir=os.fspath(parquet) if parquet is not None else None)
    backend = "dask" if dask else "processes" if workers > 1 or executor is not None else "local"
    cluster: dict[str, int] = {}
    results: list[GameResult] = list(kept)
    shards: list[str] = []
    started = time.perf_counter()
    if tasks:
        _play(tasks, results, shards, games=games, db=db, dask=dask, workers=workers, executor=executor,
              cluster=cluster, console=console, on_chunk=on_chunk, title=f"{matchup.name} under {rules.name}",
              prefix=prefix, resume_hint=resume_hint)
    seconds = time.perf_counter() - started
    results.sort(key=lambda r: r.index)
    return SimulationRun(matchup=matchup, ruleset=rules.name, data_version=str(rules.data_version), bots=bots,
                         seed=seed, workers=cluster.get("workers", workers), backend=backend, results=results,
                         seconds=seconds, run_id=prefix,
                         stored=os.fspath(db) if db is not None else os.fspath(parquet) if parquet is not None
                         else None, shards=sorted(shards), score_name=rules.score_name(), statistics=statistics,
                         resumed=len(kept), turn_limit=_turn_limit(sample))


def _turn_limit(state: object) -> int | None:
    """The last turn of a game from ``state``, where the ruleset's state says it (``last_turn``)."""
    limit = getattr(state, "last_turn", None)
    return limit if isinstance(limit, int) and not isinstance(limit, bool) and limit > 0 else None


def _stored_part(db: str | os.PathLike, prefix: str, games: int, resume: bool, bots: tuple[str, ...],
                 rules: Ruleset, resume_hint: str) -> tuple[list[GameResult], list[int] | None]:
    """The results of the run's games already in ``db`` and the indices still to play (None: all of them);
    refused unless resuming, or when the stored games are not of this run (other bots, ruleset or size)."""
    from .storage import stored_results, stored_settings  # DuckDB and pyarrow: only for a run kept in a store

    ids, results = stored_results(db, prefix + "-")
    stored = run_game_indices(ids, prefix)
    if not stored:
        return [], None
    where = f"{db}"
    if not resume:
        raise SimulationError(
            f"{len(stored)} games of run {prefix} are already in {where}: add {resume_hint} to play only the "
            f"missing games of the {games} asked for, or remove them with: aero games --delete {prefix} --db {where}")
    beyond = sorted(index for index in stored if index >= games)
    if beyond:
        raise SimulationError(f"run {prefix} in {where} already has game {beyond[-1]}, beyond the {games} games asked "
                              f"for: ask for at least {beyond[-1] + 1} games, or remove the run with "
                              f"aero games --delete {prefix} --db {where}")
    for ruleset, data_version, stored_bots in stored_settings(db, [stored[i] for i in sorted(stored)]):
        if ruleset != rules.name or data_version != str(rules.data_version) or tuple(stored_bots) != bots:
            raise SimulationError(
                f"run {prefix} in {where} was played by {', '.join(stored_bots)} under {ruleset} (data "
                f"{data_version}), not {', '.join(bots)} under {rules.name} (data {rules.data_version}): resume it "
                f"with the same settings, or remove it with aero games --delete {prefix} --db {where}")
    lacking = [game for game in stored.values() if game not in results]
    if lacking:
        raise SimulationError(f"{len(lacking)} stored games of run {prefix} (e.g. {lacking[0]}) have no recorded "
                              f"result (stored by an older version): remove the run with "
                              f"aero games --delete {prefix} --db {where} and run it again")
    return [results[stored[i]] for i in sorted(stored)], [i for i in range(games) if i not in stored]


def _play(tasks: Sequence[SimTask], results: list[GameResult], shards: list[str], *, games: int,
          db: str | os.PathLike | None, dask: str | None, workers: int, executor: Executor | None,
          cluster: dict[str, int], console: Console | None, on_chunk: Callable[[TaskResult], None] | None,
          title: str, prefix: str, resume_hint: str) -> None:
    """Play ``tasks``, adding to ``results`` and ``shards`` and writing to ``db`` as they come."""
    if dask:
        completed: Iterator[TaskResult] = _run_dask(tasks, dask, cluster)
    elif workers > 1 or executor is not None:
        completed = _run_processes(tasks, workers, executor)
    else:
        completed = map(run_task, tasks)
    pending: list = []
    pending_results: list[GameResult] = []
    written = 0
    last_write = time.monotonic()
    interval = write_interval()

    def flush() -> None:
        nonlocal pending, pending_results, written, last_write
        if db is not None and pending:
            from .storage import write_games  # DuckDB and pyarrow: only for a run kept in a store

            write_games(db, pending, pending_results)
            written += len(pending)
        pending, pending_results, last_write = [], [], time.monotonic()

    try:
        with _progress(console) as progress:
            bar = progress.add_task(title, total=games, completed=len(results))
            for answer in completed:
                results.extend(answer.results)
                shards.extend(answer.shards)
                pending.extend(answer.games)
                pending_results.extend(answer.results)
                if len(pending) >= WRITE_BATCH or time.monotonic() - last_write >= interval:
                    flush()
                if on_chunk is not None:
                    on_chunk(answer)
                progress.advance(bar, len(answer.results))
            flush()
    except KeyboardInterrupt:
        flush()  # the games played whole are kept; a second Ctrl-C here leaves the batch out, never half of it
        if hasattr(completed, "close"):
            completed.close()
        have = len(results)
        if have == games and db is not None:
            raise SimulationInterrupted(f"interrupted, but all {games} games of run {prefix} were played and are "
                                        f"stored in {db}", stored=written) from None
        if db is None:
            raise SimulationInterrupted(f"interrupted after {have} of {games} games of {prefix}; nothing was "
                                        "stored (without --db a run cannot be resumed)") from None
        raise SimulationInterrupted(f"interrupted: {have} of the {games} games of run {prefix} are stored in {db}; "
                                    f"run the same command with {resume_hint} to play the other {games - have}",
                                    stored=written) from None
