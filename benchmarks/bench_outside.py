"""Deciding against its limit, measured alike beside two game engines from outside the project (issue 18).

Issue 18's baseline target asks the baseline bot to decide events at 0.3 of the rate at which the same
events fold. Whether any engine reaches such a ratio is measured here, in one run, the same way for each:

* python-chess (``import chess``): random play from the start position to the game's end (``is_game_over()``,
  as its users write it; at most :data:`MAX_PLIES` plies), seeded: list the legal moves, pick one with a
  seeded ``random.Random``, push. Figure: moves decided per second; limit: pushing the same moves again on a
  fresh board (the fold: no move is looked for, none is checked).
* OpenSpiel (``import pyspiel``, game ``chess``): the same with ``legal_actions()``, a seeded choice and
  ``apply_action``, ending at ``is_terminal()``; limit: applying the same actions to a fresh
  ``new_initial_state()``.
* ours: seeded Aeronautica Dogfights between baseline bots (``aero simulate``'s default), 1 against 1 and
  4 against 4 (``benchmarks.bench_dogfight``); figure: events decided per second, and commands (decisions:
  one command is what one chess move is; our events are finer) per second; limit: folding the same games'
  events (``benchmarks.rulesets.fold_seconds``).

A library that is not installed is skipped with one line naming the command that installs it
(``make bench-outside``); ours is always measured. Times are this process's CPU seconds
(``time.process_time``); every figure and its limit are timed in turns, the best of :data:`RUNS` each (as
``benchmarks.rulesets.best_of_each`` does), so a load that comes and goes moves both alike.

Run: ``python -m benchmarks outside`` (also part of ``make bench``), or ``make bench-outside``, which installs
both libraries first.
"""

from __future__ import annotations

import argparse
import importlib
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from aero_events.core.session import issued_command
from aero_events.rulesets.aeronautica.bots import BaselineBot
from benchmarks.bench_dogfight import BASELINE_TARGET, play_games
from benchmarks.rulesets import fold_seconds

#: The command that installs the outside libraries (the ``outside`` extra) and runs this module.
INSTALL_COMMAND = "make bench-outside"
#: A random game of chess longer than this is cut here (the line says how many were; seeded random games
#: end by mate, stalemate or a draw rule, most within 650 plies).
MAX_PLIES = 1000
#: CPU seconds of deciding the first pass of each figure plays; the passes after it replay the same games.
SECONDS = 0.6
#: Timed passes of each figure and of its limit, alternated; the shortest of each is kept.
RUNS = 3


@dataclass(frozen=True)
class TurnGame:
    """A game one player at a time, given as callables, so that one measurement serves any engine.

    ``apply`` returns the state after the move (an engine that changes its state in place returns that
    same object)."""

    name: str
    new: Callable[[], Any]
    legal: Callable[[Any], Sequence[Any]]
    apply: Callable[[Any, Any], Any]
    is_over: Callable[[Any], bool]


@dataclass(frozen=True)
class RandomPlay:
    """Seeded random games of one :class:`TurnGame` and what deciding and re-applying their moves cost."""

    games: int
    moves: int
    cut_at_cap: int
    decided_seconds: float
    limit_seconds: float

    @property
    def decided_rate(self) -> float:
        return self.moves / self.decided_seconds

    @property
    def limit_rate(self) -> float:
        return self.moves / self.limit_seconds

    @property
    def ratio(self) -> float:
        return self.limit_seconds / self.decided_seconds

    @property
    def mean_moves(self) -> float:
        return self.moves / self.games


def play_randomly(game: TurnGame, seed: int, max_moves: int = MAX_PLIES) -> list[Any]:
    """The moves of one game from ``game.new()``: each a ``random.Random(seed)`` choice among the legal
    moves, applied at once, until the game is over or ``max_moves`` are played."""
    legal, apply, is_over = game.legal, game.apply, game.is_over
    choose = random.Random(seed).choice
    state = game.new()
    moves: list[Any] = []
    while len(moves) < max_moves and not is_over(state):
        move = choose(legal(state))
        state = apply(state, move)
        moves.append(move)
    return moves


def apply_again(game: TurnGame, moves: Sequence[Any]) -> Any:
    """The state after ``moves`` applied to a fresh ``game.new()``, nothing looked for or checked: the limit
    (the fold) of the random play that chose them."""
    apply = game.apply
    state = game.new()
    for move in moves:
        state = apply(state, move)
    return state


def alternated_best(first_decided: float, runs: int, decide_again: Callable[[], float],
                    limit: Callable[[], float]) -> tuple[float, float]:
    """(decided, limit): the shortest of ``runs`` timings of each, the first decided one ``first_decided``
    (the pass that chose how many games to play), then the limit and deciding again in turns, so that a
    figure and its limit see the same machine. ``decide_again`` and ``limit`` return the CPU seconds they
    took."""
    decided = first_decided
    limit_best = float("inf")
    for run in range(runs):
        limit_best = min(limit_best, limit())
        if run < runs - 1:
            decided = min(decided, decide_again())
    return decided, limit_best


def measure_random_play(game: TurnGame, *, seconds: float = SECONDS, runs: int = RUNS, min_games: int = 1,
                        max_games: int = 10_000, max_moves: int = MAX_PLIES) -> RandomPlay:
    """Seeded random games of ``game`` (seeds 0, 1, ...) until ``seconds`` of CPU are spent (``min_games`` at
    least, ``max_games`` at most), then the same games decided again and their moves re-applied, in turns
    (:func:`alternated_best`)."""
    played: list[list[Any]] = []
    spent = 0.0
    while len(played) < max_games and (len(played) < min_games or spent < seconds):
        started = time.process_time()
        played.append(play_randomly(game, len(played), max_moves))
        spent += time.process_time() - started

    def decide_all() -> float:
        started = time.process_time()
        for seed in range(len(played)):
            play_randomly(game, seed, max_moves)
        return time.process_time() - started

    def apply_all() -> float:
        started = time.process_time()
        for moves in played:
            apply_again(game, moves)
        return time.process_time() - started

    decided, limit = alternated_best(spent, runs, decide_all, apply_all)
    return RandomPlay(games=len(played), moves=sum(map(len, played)),
                      cut_at_cap=sum(len(moves) >= max_moves for moves in played),
                      decided_seconds=decided, limit_seconds=limit)


def chess_game(chess: ModuleType) -> TurnGame:
    """python-chess as a :class:`TurnGame`: ``chess.Board`` from the start position."""

    def push(board: Any, move: Any) -> Any:
        board.push(move)
        return board

    return TurnGame(name="python-chess", new=chess.Board, legal=lambda board: list(board.legal_moves),
                    apply=push, is_over=lambda board: board.is_game_over())


def spiel_game(pyspiel: ModuleType) -> TurnGame:
    """OpenSpiel's ``chess`` as a :class:`TurnGame`."""
    chess = pyspiel.load_game("chess")

    def apply_action(state: Any, action: int) -> Any:
        state.apply_action(action)
        return state

    return TurnGame(name="OpenSpiel", new=chess.new_initial_state, legal=lambda state: state.legal_actions(),
                    apply=apply_action, is_over=lambda state: state.is_terminal())


@dataclass(frozen=True)
class Outside:
    """A library measured from outside: its import name, how to build its game, and the words of its line."""

    library: str
    module: str
    game: Callable[[ModuleType], TurnGame]
    move: str  # what one decision is called in the library
    decide: str  # what deciding a move does
    limit: str  # what the limit does


OUTSIDE = (
    Outside(library="python-chess", module="chess", game=chess_game, move="moves",
            decide="legal moves, a seeded choice, push, is_game_over", limit="pushing the same moves on a fresh board"),
    Outside(library="OpenSpiel", module="pyspiel", game=spiel_game, move="actions",
            decide="legal_actions, a seeded choice, apply_action, is_terminal",
            limit="applying the same actions to a fresh new_initial_state"),
)


def optional_module(name: str) -> ModuleType | None:
    """The module ``name`` if it imports, else None (an outside library this project does not depend on)."""
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def random_play_line(game: TurnGame, outside: Outside, play: RandomPlay, max_moves: int = MAX_PLIES) -> str:
    """The line of one library's random play (see the module docstring)."""
    cut = f", {play.cut_at_cap} cut at {max_moves:,}" if play.cut_at_cap else ""
    return (f"{game.name} random play (seeded, to the game's end, at most {max_moves:,} plies): "
            f"{play.decided_rate:,.0f} {outside.move}/s decided ({outside.decide}; {play.games} games, average "
            f"{play.mean_moves:,.0f} plies{cut}); limit ({outside.limit}) {play.limit_rate:,.0f} {outside.move}/s; "
            f"ratio {play.ratio:.3f}")


def skipped_line(outside: Outside) -> str:
    """The line printed instead of a library's figure when it is not installed."""
    return f"{outside.library} (import {outside.module}): not installed, skipped (`{INSTALL_COMMAND}` installs it and runs this benchmark)"


@dataclass(frozen=True)
class OursPlay:
    """Seeded baseline Dogfights of one size and what deciding and folding them cost."""

    size: int
    games: int
    events: int
    commands: int
    mean_turns: float
    decided_seconds: float
    fold_seconds: float

    @property
    def ratio(self) -> float:
        return self.fold_seconds / self.decided_seconds

    def lines(self) -> list[str]:
        """The events line and, under it, the same figures per decision (command)."""
        label = f"{self.size} against {self.size}"
        return [
            (f"ours, aeronautica dogfight {label}, baseline v baseline: {self.events / self.decided_seconds:,.0f} "
             f"events/s decided ({self.games} games, average {self.mean_turns:.1f} turns, "
             f"{self.events / self.games:,.0f} events a game); limit (fold of the same games) "
             f"{self.events / self.fold_seconds:,.0f} events/s; ratio {self.ratio:.3f}"),
            (f"   per decision: {self.commands / self.decided_seconds:,.0f} commands/s decided "
             f"({self.commands / self.games:,.0f} commands a game, {self.events / self.commands:.1f} events a "
             f"command); limit (fold) {self.commands / self.fold_seconds:,.0f} commands/s; ratio {self.ratio:.3f}"),
        ]


def measure_ours(size: int, *, seconds: float = SECONDS, runs: int = RUNS, min_games: int = 2) -> OursPlay:
    """Seeded baseline Dogfights of ``size`` against ``size`` until ``seconds`` are spent (``min_games`` at
    least), then the same games played again and folded, in turns (:func:`alternated_best`)."""
    first = play_games(size, BaselineBot, seconds=seconds, min_games=min_games)

    def play_again() -> float:
        return play_games(size, BaselineBot, seconds=0.0, min_games=first.games, max_games=first.games).seconds

    decided, folded = alternated_best(first.seconds, runs, play_again, lambda: fold_seconds(first, runs=1))
    commands = sum(issued_command(env.event) is not None for session in first.sessions for env in session.events())
    return OursPlay(size=size, games=first.games, events=first.events, commands=commands,
                    mean_turns=first.mean_turns, decided_seconds=decided, fold_seconds=folded)


def closing_line(ours: OursPlay, outside: Sequence[tuple[TurnGame, Outside, RandomPlay]]) -> str:
    """The comparison in one line: decisions per second and decided/limit ratios side by side."""
    rate = f"{ours.commands / ours.decided_seconds:,.0f} commands/s"
    ratios = [f"ours {ours.ratio:.3f}"]
    if outside:
        against = " and ".join(f"{game.name}'s {play.decided_rate:,.0f} {spec.move}/s" for game, spec, play in outside)
        rate += f" against {against}"
        ratios += [f"{game.name} {play.ratio:.3f}" for game, _, play in outside]
    return (f"compared: ours (baseline, {ours.size} against {ours.size}) decides {rate}; decided/limit ratio "
            f"{', '.join(ratios)}; issue 18's target ratio {BASELINE_TARGET}")


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    """Measure and print every line; ``argv`` (default: none, whatever the caller's command line) may make the
    run smaller. Returns the measurements by name (``python-chess``, ``OpenSpiel``, ``ours 1``, ...); a
    library not installed is absent."""
    parser = argparse.ArgumentParser(prog="bench_outside", description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=SECONDS, help="CPU seconds of each figure's first pass")
    parser.add_argument("--runs", type=int, default=RUNS, help="timed passes of each figure and its limit")
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 4], help="aircraft a side in our games")
    args = parser.parse_args([] if argv is None else argv)
    runs = max(args.runs, 1)

    results: dict[str, Any] = {}
    measured: list[tuple[TurnGame, Outside, RandomPlay]] = []
    for outside in OUTSIDE:
        module = optional_module(outside.module)
        if module is None:
            print(skipped_line(outside), flush=True)
            continue
        game = outside.game(module)
        play = measure_random_play(game, seconds=args.seconds, runs=runs)
        print(random_play_line(game, outside, play), flush=True)
        results[game.name] = play
        measured.append((game, outside, play))

    ours_by_size = []
    for size in args.sizes:
        ours = measure_ours(size, seconds=args.seconds, runs=runs)
        for line in ours.lines():
            print(line, flush=True)
        results[f"ours {size}"] = ours
        ours_by_size.append(ours)
    if ours_by_size:
        print(closing_line(ours_by_size[0], measured), flush=True)
    return results


if __name__ == "__main__":
    main(sys.argv[1:])
