"""The odds from any position of a game: bots play it on many times in memory, and the results are counted.

:func:`odds` takes a game (any ruleset: only ``legal_commands``, ``decide``, ``evolve``, ``outcome``,
``sides`` and ``bots`` are used), a branch and an event number, and plays ``playouts`` games on from there
(:func:`play_positions` plays from several positions in one run, as the win-probability strip does). Each
playout starts from the position's state held in memory (the stored game is never written) with its own
seeded dice and bots: playout ``i`` of a run seeded ``S`` uses :func:`playout_seed` ``(S, i)``, so a
run gives the same odds whatever process plays it.

Hidden choices are not read from the future. A secret order (a command the session recorded sealed, a
:class:`~aero_events.core.session.SecretCommandIssued`: a face-down Manoeuvre token, a planned card) is what
the other players cannot see until the rules reveal it, and no ruleset-agnostic reading can tell when that
happens. So when the position comes after a secret order given in its own turn, the playouts start just
before the first such order of that turn (:func:`start_point`): every playout has each player's bot give
the turn's orders afresh, and the odds are those of the position before the orders were sealed, as any
player sees it. Positions with no sealed order this turn (a turn's start, say) are played on as they stand.
A position inside a command's events (no player decides there: the command's later events, dice included,
are still to come) is played on from where that command was given (:func:`position_of`).

Every side is played by the ruleset's default bot unless told (:func:`~aero_events.bots.default_bot`: the
cheapest bot that plays the game, Aeronautica's baseline; the random bot for a ruleset that names none).

A playout is cheap (:func:`play_out`): it starts from the position's folded state (the state the game's
branch already holds; a worker process gets it pickled once per chunk, never the events to refold), and
plays with the ruleset's pure functions alone: ``legal_commands``, the bot's ``choose``, ``decide`` with a
dice cup and ``evolve``. No session, no envelopes, no recorded commands, no checkpoints, no narration: only
the final state is read (``outcome`` and ``clock``).
"""

from __future__ import annotations

import bisect
import hashlib
import pickle
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, as_completed
from typing import Any

import msgspec

from aero_events.bots import default_bot, make_bot
from aero_events.core import DiceCup, Envelope, Game, SeededDice
from aero_events.core.dice import rolls_after
from aero_events.core.emitter import Decided
from aero_events.core.errors import AeroError, RuleError
from aero_events.core.secrets import SaltSource
from aero_events.core.session import SecretCommandIssued, issued_command
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
    #: True when the playouts start before the turn's first sealed order (:func:`start_point`), not only where
    #: the command under way at ``seq`` was given (:func:`position_of`).
    before_sealed_orders: bool = False


class PlayoutResult(msgspec.Struct, frozen=True, kw_only=True):
    """One playout: who won (None: a draw or unfinished), each side's score, the turn it ended in."""

    index: int
    finished: bool
    winner: str | None
    scores: dict[str, float]
    turns: int
    events: int


class PlayoutTask(msgspec.Struct, frozen=True, kw_only=True):
    """Playouts ``start`` to ``stop - 1`` from a position, as plain data that pickles (for a process or a
    Dask worker): the ruleset's spec, the position's folded state (pickled) and the dice rolled before it."""

    rules: RulesSpec
    state: bytes
    rolls: int
    bot: str
    seed: int
    start: int
    stop: int


class PlayoutView:
    """What a bot is handed as its session in a playout: the ruleset and the state it chooses in (a bot's
    ``choose(session, player, options)`` reads ``session.ruleset`` and ``session.state``)."""

    __slots__ = ("ruleset", "state")

    def __init__(self, ruleset: Any, state: Any):
        self.ruleset = ruleset
        self.state = state

    def legal_commands(self, player: str) -> Sequence[Any]:
        return self.ruleset.legal_commands(self.state, player)

    def is_over(self) -> bool:
        return bool(self.ruleset.is_over(self.state))


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


def play_out(rules: Any, state: Any, rolls: int, bot: str, run_seed: int, index: int) -> PlayoutResult:
    """Playout ``index`` of a run seeded ``run_seed``: ``state`` (after ``rolls`` rolls of the game's dice)
    played to its end by ``bot`` for every player, in memory (see the module docstring).

    As :func:`aero_events.bots.play` does, whenever several players have legal commands the first in the
    game's order of players acts. The dice and the bots are seeded by :func:`playout_seed`; the salts of the
    commitments rulesets seal (a face-down token) are derived from it too, and never leave the playout."""
    seed = playout_seed(run_seed, index)
    dice, salts = SeededDice(seed), SaltSource(f"aero-odds-salts:{seed}")
    players = tuple(rules.players(state))
    bots = {player: make_bot(rules, bot, f"{seed}:{player}") for player in players}
    legal_commands, decide, evolve, is_over = rules.legal_commands, rules.decide, rules.evolve, rules.is_over
    view = PlayoutView(rules, state)
    commands = events = 0
    while not is_over(state) and commands < MAX_COMMANDS:
        for player in players:
            options = legal_commands(state, player)
            if options:
                break
        else:
            turn, phase = rules.clock(state)
            raise OddsError(f"playout {index}: no player has a legal command at turn {turn}, phase {phase}")
        command = bots[player].choose(view, player, options)
        cup = DiceCup(dice, rolls, salts=salts)
        try:
            decided = decide(state, command, cup)
        except RuleError as err:
            raise refused_offer(rules, state, command, bot, index, err) from err
        after_each = decided.states_from(state, evolve) if type(decided) is Decided else None
        if after_each is None:
            for event in decided:
                state = evolve(state, event)
        elif after_each:
            state = after_each[-1]  # decide folded them already (core/emitter.py)
        events += len(decided)
        view.state = state
        rolls = cup.next_index
        commands += 1
    outcome = rules.outcome(state)
    return PlayoutResult(index=index, finished=outcome.finished,
                         winner=outcome.winner if outcome.finished else None,
                         scores={side: float(outcome.scores.get(side, 0.0)) for side in rules.sides(state)},
                         turns=rules.clock(state)[0], events=events)


def refused_offer(rules: Any, state: Any, command: Any, bot: str, index: int, err: RuleError) -> OddsError:
    """The error of a playout whose bot chose a command the ruleset's ``legal_commands`` offered and its
    ``decide`` then refused: a defect of the ruleset, told with where it happened so that it can be
    reproduced, rather than as the bare rule the command broke."""
    turn, phase = rules.clock(state)
    try:
        told = rules.describe_command(command, state)
    except Exception:  # noqa: BLE001 - the command's own repr still says what it was
        told = repr(command)
    return OddsError(f"playout {index} (turn {turn}, {phase}): the {bot} bot chose {told!r}, which "
                     f"{rules.name}'s legal commands offered, and the rules refused it: {err} (a defect of the "
                     f"ruleset's legal commands; {command!r})")


def run_playouts(task: PlayoutTask, rules: Any = None, state: Any = None) -> list[PlayoutResult]:
    """A chunk of playouts, in whatever process runs it (``rules`` and ``state``: the game's own ruleset and
    the position's state, in this process; another process rebuilds the ruleset from its spec and unpickles
    the state once for the chunk)."""
    rules = rules if rules is not None else rules_from_spec(task.rules)
    state = state if state is not None else pickle.loads(task.state)
    return [play_out(rules, state, task.rolls, task.bot, task.seed, index) for index in range(task.start, task.stop)]


def rolls_before(envelopes: Sequence[Envelope]) -> int:
    """The rolls a branch made in these events (the index its next roll takes, as the session counts)."""
    return max((rolls_after(env.event) or 0 for env in envelopes), default=0)


class Position(msgspec.Struct, frozen=True, kw_only=True):
    """A position to play on from: the state (folded already), the rolls made before it, and what the odds
    report about it (``seq``, the event asked about, and ``start_seq``, where the playouts start)."""

    state: Any
    rolls: int
    seq: int
    start_seq: int


def command_ends(envelopes: Sequence[Envelope]) -> list[int] | None:
    """The positions of a line where play can go on: 0, the end of each command's events (the event before
    each recorded command, a ``CommandIssued`` sealed or not) and the line's last event. Between two of them
    the rules are half-way through one command (its later events, dice included, are still to come), so no
    player decides there and no bot can play on. None for a line that records no command (a game stored
    before commands were): then any event is taken as a position."""
    starts = [env.seq for env in envelopes if issued_command(env.event) is not None]
    if not starts:
        return None
    head = envelopes[-1].seq if envelopes else 0
    return sorted({0, head, *(start - 1 for start in starts if start - 1 <= head)})


def command_end_before(ends: Sequence[int] | None, seq: int) -> int:
    """The last position at or before event ``seq`` where a command ends (``seq`` itself when it is one)."""
    if ends is None:
        return seq
    return ends[bisect.bisect_right(ends, seq) - 1]


def command_end_after(ends: Sequence[int] | None, seq: int) -> int:
    """The first position at or after event ``seq`` where a command ends (``seq`` itself when it is one)."""
    if ends is None:
        return seq
    return ends[min(bisect.bisect_left(ends, seq), len(ends) - 1)]


def position_of(rules: Any, envelopes: Sequence[Envelope], state_at: Callable[[int], Any], seq: int,
                ends: Sequence[int] | None = None) -> Position:
    """The position after event ``seq`` of a line whose events are ``envelopes`` (the whole line, so that its
    command ends are known: ``ends``, :func:`command_ends` when not given) and whose states ``state_at(seq)``
    gives. Played on from the end of the last command at or before ``seq`` (inside a command no player
    decides), then from before the turn's first sealed order (:func:`start_point`)."""
    ends = command_ends(envelopes) if ends is None else ends
    boundary = command_end_before(ends, seq)
    start = start_point(envelopes, boundary, rules.clock(state_at(boundary))[0])
    return Position(state=state_at(start), rolls=rolls_before(envelopes[:start]), seq=seq, start_seq=start)


def _tasks(rules: Any, positions: Sequence[Position], bot: str, playouts: int, seed: int, chunk: int,
           local: bool) -> list[tuple[int, PlayoutTask]]:
    """The chunks of a run, each with the index of its position; ``local``: played in this process, so the
    states are not pickled."""
    spec = rules_spec(rules)
    tasks = []
    for number, position in enumerate(positions):
        pickled = b"" if local else pickle.dumps(position.state, protocol=pickle.HIGHEST_PROTOCOL)
        tasks.extend((number, PlayoutTask(rules=spec, state=pickled, rolls=position.rolls, bot=bot, seed=seed,
                                          start=start, stop=min(start + chunk, playouts)))
                     for start in range(0, playouts, chunk))
    return tasks


def is_local(workers: int, executor: Executor | None, dask: str | None) -> bool:
    """Whether a run plays in this process (one worker, no pool, no Dask)."""
    return not dask and workers <= 1 and executor is None


def _completed(rules: Any, positions: Sequence[Position], tasks: Sequence[tuple[int, PlayoutTask]], workers: int,
               executor: Executor | None, dask: str | None) -> Iterator[tuple[int, list[PlayoutResult]]]:
    """(position index, results) of each chunk, as the chunks end."""
    if is_local(workers, executor, dask):
        for number, task in tasks:
            yield number, run_playouts(task, rules, positions[number].state)
        return
    if dask:
        from aero_events.sim.runner import _dask_client

        with _dask_client(dask) as client:
            from dask.distributed import as_completed as dask_completed

            futures = client.map(run_playouts, [task for _, task in tasks], pure=False)  # type: ignore[attr-defined]
            numbers = {future.key: number for future, (number, _) in zip(futures, tasks, strict=True)}
            for future in dask_completed(futures):
                yield numbers[future.key], future.result()
        return
    from aero_events.sim.runner import process_pool

    pool = executor or process_pool(workers)
    try:
        futures = {pool.submit(run_playouts, task): number for number, task in tasks}
        for future in as_completed(futures):
            yield futures[future], future.result()
    finally:
        if executor is None:
            pool.shutdown(cancel_futures=True)


def default_chunk(playouts: int, workers: int) -> int:
    """Enough chunks for every worker to stay busy, at most :data:`CHUNK` playouts each."""
    return max(1, min(CHUNK, -(-playouts // (4 * max(workers, 2)))))


def play_positions(rules: Any, positions: Sequence[Position], *, playouts: int, bot: str, seed: int = 0,
                   workers: int = 1, dask: str | None = None, executor: Executor | None = None,
                   chunk: int | None = None) -> list[list[PlayoutResult]]:
    """``playouts`` playouts from each position (one run: every chunk of every position shares the workers),
    each position's results in playout order. Playout ``i`` of every position uses :func:`playout_seed`
    ``(seed, i)``."""
    chunk = chunk or default_chunk(playouts * len(positions), workers)
    results: list[list[PlayoutResult]] = [[] for _ in positions]
    tasks = _tasks(rules, positions, bot, playouts, seed, chunk, is_local(workers, executor, dask))
    for number, answer in _completed(rules, positions, tasks, workers, executor, dask):
        results[number].extend(answer)
    for found in results:
        found.sort(key=lambda result: result.index)
    return results


def checked_bot(rules: Any, bot: str | None) -> str:
    """``bot``, or the ruleset's default bot; an :class:`OddsError` for a bot the ruleset does not have."""
    from aero_events.bots import bots_for

    bot = bot or default_bot(rules)
    if bot not in bots_for(rules):
        raise OddsError(f"unknown bot {bot!r}; known bots for {rules.name}: {', '.join(sorted(bots_for(rules)))}")
    return bot


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
    bot = checked_bot(rules, bot)
    if rules.is_over(line.state_at(seq)):
        raise OddsError(f"the game is over at event {seq}: {rules.summary_line(line.state_at(seq))}")
    envelopes = list(line.envelopes())
    ends = command_ends(envelopes)
    position = position_of(rules, envelopes, line.state_at, seq, ends)
    started = time.perf_counter()
    (results,) = play_positions(rules, [position], playouts=playouts, bot=bot, seed=seed, workers=workers,
                                dask=dask, executor=executor, chunk=chunk)
    seconds = time.perf_counter() - started
    return summarise(results, tuple(rules.sides(position.state)), game_id=game.id, branch=branch, seq=seq,
                     start_seq=position.start_seq, turn=rules.clock(position.state)[0], bot=bot, seed=seed,
                     score_name=rules.score_name(), seconds=seconds,
                     before_sealed_orders=position.start_seq < command_end_before(ends, seq))


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
