"""The odds from any position of a game: bots play it on many times in memory, and the results are counted.

:func:`odds` takes a game (any ruleset: only ``legal_commands``, ``decide``/``evolve`` through the session,
``outcome``, ``sides`` and ``bots`` are used), a branch and an event number, and plays ``playouts`` games on
from there. Each playout is a fork of the position held in memory (the stored game is never written) with
its own seeded dice and bots: playout ``i`` of a run seeded ``S`` uses :func:`playout_seed` ``(S, i)``, so a
run gives the same odds whatever process plays it.

Hidden choices are not read from the future. A secret order (a command the session recorded sealed, a
:class:`~aero_events.core.session.SecretCommandIssued`: a face-down Manoeuvre token, a planned card) is what
the other players cannot see until the rules reveal it, and no ruleset-agnostic reading can tell when that
happens. So when the position comes after a secret order given in its own turn, the playouts start just
before the first such order of that turn (:func:`start_point`): every playout has each player's bot give
the turn's orders afresh, and the odds are those of the position before the orders were sealed, as any
player sees it. Positions with no sealed order this turn (a turn's start, say) are played on as they stand.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import Executor, as_completed
from typing import Any

import msgspec

from aero_events.bots import default_bot, make_bot, play
from aero_events.core import Envelope, Game, GameSession, SeededDice
from aero_events.core.errors import AeroError
from aero_events.core.events import EVENT_TYPES
from aero_events.core.session import SecretCommandIssued
from aero_events.sim.games import RulesSpec, rules_from_spec, rules_spec
from aero_events.sim.stats import wilson_interval

#: Playouts handed to a worker at a time, at most.
CHUNK = 25
#: A playout that has not ended after this many commands is counted unfinished (a ruleset that loops).
MAX_COMMANDS = 100_000


class OddsError(AeroError):
    """Odds that cannot be worked out (no such event, a game already over, an unknown bot...)."""


class SideOdds(msgspec.Struct, frozen=True, kw_only=True):
    """One side's chances: wins out of the playouts, the win rate with its 95% Wilson interval, and the
    mean of its score at the end (the ruleset's ``outcome`` scores: Aeronautica's Victory points)."""

    side: str
    wins: int
    win_probability: float
    interval: tuple[float, float]
    expected_score: float


class Odds(msgspec.Struct, frozen=True, kw_only=True):
    """The odds at event ``seq`` of a game: played on from ``start_seq`` (``seq``, or the point before the
    turn's sealed orders, :func:`start_point`), ``playouts`` times by ``bot``."""

    game_id: str
    branch: str
    seq: int
    start_seq: int
    turn: int
    playouts: int
    draws: int
    unfinished: int
    sides: tuple[SideOdds, ...]
    bot: str
    seed: int
    score_name: str = "score"
    seconds: float = 0.0
    mean_turns: float = 0.0


class PlayoutResult(msgspec.Struct, frozen=True, kw_only=True):
    """One playout: who won (None: a draw or unfinished), each side's score, the turn it ended in."""

    index: int
    finished: bool
    winner: str | None
    scores: dict[str, float]
    turns: int
    events: int


class PlayoutTask(msgspec.Struct, frozen=True, kw_only=True):
    """Playouts ``start`` to ``stop - 1`` from a position: the game's setup and events as JSON (plain data
    that pickles, for a process or a Dask worker)."""

    rules: RulesSpec
    game_id: str
    setup: bytes
    envelopes: tuple[tuple[int, int, str, str | None, bytes], ...]
    bot: str
    seed: int
    start: int
    stop: int


def playout_seed(run_seed: int, index: int) -> int:
    """The seed of playout ``index`` of a run seeded ``run_seed``: 63 bits of SHA-256("aero-odds:S:i")."""
    digest = hashlib.sha256(f"aero-odds:{run_seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def start_point(envelopes: Sequence[Envelope], seq: int, turn: int) -> int:
    """Where playouts of the position after event ``seq`` start (see the module docstring): ``seq``, or the
    event before the first secret order given in ``turn``, the position's turn (``ruleset.clock`` of the
    state after event ``seq``; an envelope is stamped with the turn in which its event happened)."""
    start = seq
    for index in range(seq - 1, -1, -1):
        envelope = envelopes[index]
        if envelope.turn != turn:
            break
        if type(envelope.event) is SecretCommandIssued:
            start = index  # the events before this envelope: 1..index
    return start


def _task_envelopes(envelopes: Sequence[Envelope]) -> tuple[tuple[int, int, str, str | None, bytes], ...]:
    return tuple((env.seq, env.turn, env.phase, env.actor, msgspec.json.encode(env.event)) for env in envelopes)


def _position(rules: Any, task: PlayoutTask) -> GameSession:
    """The position of a task rebuilt in memory: its events folded (their checkpoints checked)."""
    setup = msgspec.json.decode(task.setup, type=rules.setup_type)
    game = Game(rules, setup, task.game_id)
    # Playouts are counted, never stored: no checkpoints or command records in their forks (the recorded
    # checkpoints of the position itself are still checked as it is folded).
    session = GameSession(rules, dice=SeededDice(task.seed), game=game, checkpoints=False, record_commands=False)
    decode = EVENT_TYPES.union_decoder().decode
    session.record(Envelope(game_id=task.game_id, branch_id="main", seq=seq, turn=turn, phase=phase, actor=actor,
                            event=decode(event)) for seq, turn, phase, actor, event in task.envelopes)
    return session


def play_out(rules: Any, position: GameSession, bot: str, run_seed: int, index: int) -> PlayoutResult:
    """Playout ``index``: a fork of ``position`` played to its end by ``bot`` for every player, in memory."""
    seed = playout_seed(run_seed, index)
    name = f"playout-{index}"
    session = position.fork(position.seq, name, dice=SeededDice(seed))
    try:
        players = list(rules.players(session.state))
        play(session, {player: make_bot(rules, bot, f"{seed}:{player}") for player in players},
             max_commands=MAX_COMMANDS)
        state = session.state
        outcome = rules.outcome(state)
        return PlayoutResult(index=index, finished=outcome.finished,
                             winner=outcome.winner if outcome.finished else None,
                             scores={side: float(outcome.scores.get(side, 0.0)) for side in rules.sides(state)},
                             turns=rules.clock(state)[0], events=session.seq - position.seq)
    finally:
        del position.game.branches[name]  # the fork's events go with it


def run_playouts(task: PlayoutTask, rules: Any = None) -> list[PlayoutResult]:
    """A chunk of playouts, in whatever process runs it (``rules``: the game's own ruleset, in this process;
    another process rebuilds it from the task)."""
    rules = rules if rules is not None else rules_from_spec(task.rules)
    position = _position(rules, task)
    return [play_out(rules, position, task.bot, task.seed, index) for index in range(task.start, task.stop)]


def _tasks(rules: Any, game: Game, envelopes: Sequence[Envelope], bot: str, playouts: int, seed: int,
           chunk: int) -> list[PlayoutTask]:
    spec = rules_spec(rules)
    setup = msgspec.json.encode(game.setup)
    encoded = _task_envelopes(envelopes)
    return [PlayoutTask(rules=spec, game_id=game.id, setup=setup, envelopes=encoded, bot=bot, seed=seed,
                        start=start, stop=min(start + chunk, playouts))
            for start in range(0, playouts, chunk)]


def _completed(rules: Any, tasks: Sequence[PlayoutTask], workers: int, executor: Executor | None,
               dask: str | None) -> Iterator[list[PlayoutResult]]:
    if dask:
        from aero_events.sim.runner import _dask_client

        with _dask_client(dask) as client:
            from dask.distributed import as_completed as dask_completed

            futures = client.map(run_playouts, tasks, pure=False)  # type: ignore[attr-defined]
            for future in dask_completed(futures):
                yield future.result()
        return
    if workers <= 1 and executor is None:
        for task in tasks:
            yield run_playouts(task, rules)
        return
    from aero_events.sim.runner import process_pool

    pool = executor or process_pool(workers)
    try:
        futures = [pool.submit(run_playouts, task) for task in tasks]
        for future in as_completed(futures):
            yield future.result()
    finally:
        if executor is None:
            pool.shutdown(cancel_futures=True)


def odds(game: Game, *, branch: str = "main", seq: int | None = None, playouts: int = 1000,
         bot: str | None = None, seed: int = 0, workers: int = 1, dask: str | None = None,
         executor: Executor | None = None, chunk: int | None = None) -> Odds:
    """Each side's chances from the position after event ``seq`` (default: the branch's head); see the
    module docstring. ``bot`` plays every side (default: the ruleset's default bot, :func:`default_bot`);
    ``workers`` local processes (or a Dask cluster: ``dask="local"`` or a scheduler address, or a reusable
    ``executor``) share the playouts."""
    rules = game.ruleset
    if branch not in game.branches:
        raise OddsError(f"game {game.id} has no branch {branch!r}; its branches: {', '.join(game.branches)}")
    line = game.branches[branch]
    seq = line.head_seq if seq is None else seq
    if not 0 <= seq <= line.head_seq:
        raise OddsError(f"branch {branch!r} of game {game.id} has events 1..{line.head_seq}; no event {seq}")
    if playouts < 1:
        raise OddsError("odds need at least one playout")
    from aero_events.bots import bots_for

    bot = bot or default_bot(rules)
    if bot not in bots_for(rules):
        raise OddsError(f"unknown bot {bot!r}; known bots for {rules.name}: {', '.join(sorted(bots_for(rules)))}")
    if rules.is_over(line.state_at(seq)):
        raise OddsError(f"the game is over at event {seq}: {rules.summary_line(line.state_at(seq))}")
    envelopes = list(line.envelopes(1, seq))
    start = start_point(envelopes, seq, rules.clock(line.state_at(seq))[0])
    position_state = line.state_at(start)
    sides = tuple(rules.sides(position_state))
    if chunk is None:  # enough tasks for every worker to stay busy, at most CHUNK playouts each
        chunk = max(1, min(CHUNK, -(-playouts // (4 * max(workers, 2)))))
    started = time.perf_counter()
    results: list[PlayoutResult] = []
    for answer in _completed(rules, _tasks(rules, game, envelopes[:start], bot, playouts, seed, chunk), workers,
                             executor, dask):
        results.extend(answer)
    seconds = time.perf_counter() - started
    results.sort(key=lambda result: result.index)
    return summarise(results, sides, game_id=game.id, branch=branch, seq=seq, start_seq=start,
                     turn=rules.clock(position_state)[0], bot=bot, seed=seed, score_name=rules.score_name(),
                     seconds=seconds)


def summarise(results: Sequence[PlayoutResult], sides: Sequence[str], **fields: Any) -> Odds:
    """The playouts counted: wins per side with Wilson intervals, draws, unfinished games, mean scores."""
    n = len(results)
    counted = []
    for side in sides:
        wins = sum(1 for result in results if result.winner == side)
        counted.append(SideOdds(side=side, wins=wins, win_probability=wins / n if n else 0.0,
                                interval=wilson_interval(wins, n),
                                expected_score=sum(result.scores.get(side, 0.0) for result in results) / n if n
                                else 0.0))
    return Odds(playouts=n, draws=sum(1 for result in results if result.finished and result.winner is None),
                unfinished=sum(1 for result in results if not result.finished), sides=tuple(counted),
                mean_turns=sum(result.turns for result in results) / n if n else 0.0, **fields)
