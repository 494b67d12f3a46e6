"""The outside comparison (``benchmarks/bench_outside.py``): its counting and arithmetic on a tiny game of its
own, its lines end to end at a small size, and its skip lines when python-chess and OpenSpiel are missing."""

from __future__ import annotations

import random
import re
import sys

import pytest

from aero_events.bots import play
from aero_events.core import GameSession, SeededDice
from aero_events.rulesets.aeronautica.bots import BaselineBot
from benchmarks import bench_outside
from benchmarks.bench_dogfight import RULES, setup
from benchmarks.bench_outside import (
    OUTSIDE,
    OursPlay,
    RandomPlay,
    TurnGame,
    alternated_best,
    apply_again,
    closing_line,
    measure_ours,
    measure_random_play,
    play_randomly,
    random_play_line,
)

CHESS = OUTSIDE[0]


class Nim:
    """A pile of ``pile`` stones, 1 to 3 taken a move, as a :class:`TurnGame` that counts its calls."""

    def __init__(self, pile: int = 10):
        self.pile = pile
        self.new_calls = 0
        self.apply_calls = 0

    def game(self) -> TurnGame:
        return TurnGame(name="nim", new=self.new, legal=lambda pile: list(range(1, min(pile, 3) + 1)),
                        apply=self.apply, is_over=lambda pile: pile == 0)

    def new(self) -> int:
        self.new_calls += 1
        return self.pile

    def apply(self, pile: int, take: int) -> int:
        self.apply_calls += 1
        return pile - take


def test_random_play_takes_seeded_legal_moves_until_the_game_ends():
    game = Nim(10).game()
    moves = play_randomly(game, seed=7)
    chooser = random.Random(7)
    expected, pile = [], 10
    while pile:
        take = chooser.choice(list(range(1, min(pile, 3) + 1)))
        expected.append(take)
        pile -= take
    assert moves == expected and sum(moves) == 10
    assert play_randomly(game, seed=7) == moves
    assert apply_again(game, moves) == 0


def test_random_play_stops_at_the_move_cap():
    assert len(play_randomly(Nim(10).game(), seed=0, max_moves=2)) == 2


def test_measuring_counts_every_game_and_replays_the_same_moves_for_the_limit():
    nim = Nim(10)
    measured = measure_random_play(nim.game(), seconds=0.0, runs=2, min_games=3)
    moves = sum(len(play_randomly(Nim(10).game(), seed)) for seed in range(3))
    assert (measured.games, measured.moves, measured.cut_at_cap) == (3, moves, 0)
    # the first pass, one decided again, two limit passes: every game four times, every move applied four times
    assert nim.new_calls == 3 * 4 and nim.apply_calls == moves * 4
    assert measured.decided_seconds > 0 and measured.limit_seconds > 0


def test_measuring_counts_the_games_cut_at_the_cap():
    measured = measure_random_play(Nim(10).game(), seconds=0.0, runs=1, min_games=3, max_moves=2)
    assert (measured.games, measured.moves, measured.cut_at_cap) == (3, 6, 3)


def test_figure_and_limit_are_timed_in_turns_and_the_shortest_of_each_kept():
    calls = []
    decided_times = iter([0.5, 0.25])
    limit_times = iter([0.2, 0.1, 0.3])

    def decide_again() -> float:
        calls.append("decide")
        return next(decided_times)

    def limit() -> float:
        calls.append("limit")
        return next(limit_times)

    assert alternated_best(1.0, 3, decide_again, limit) == (0.25, 0.1)
    assert calls == ["limit", "decide", "limit", "decide", "limit"]
    assert alternated_best(1.0, 1, lambda: pytest.fail("no second pass"), lambda: 0.4) == (1.0, 0.4)


def test_rates_and_ratio_of_random_play_and_its_line():
    measured = RandomPlay(games=4, moves=100, cut_at_cap=1, decided_seconds=2.0, limit_seconds=0.5)
    assert (measured.decided_rate, measured.limit_rate, measured.ratio, measured.mean_moves) == (50, 200, 0.25, 25)
    line = random_play_line(TurnGame("python-chess", int, list, max, bool), CHESS, measured, max_moves=1000)
    assert line == ("python-chess random play (seeded, to the game's end, at most 1,000 plies): 50 moves/s decided "
                    "(legal moves, a seeded choice, push, is_game_over; 4 games, average 25 plies, 1 cut at 1,000); "
                    "limit (pushing the same moves on a fresh board) 200 moves/s; ratio 0.250")


def test_our_lines_count_per_event_and_per_command_and_the_closing_line_compares():
    ours = OursPlay(size=1, games=2, events=1000, commands=250, mean_turns=10.0, decided_seconds=0.5,
                    fold_seconds=0.01)
    events_line, commands_line = ours.lines()
    assert "2,000 events/s decided (2 games, average 10.0 turns, 500 events a game)" in events_line
    assert events_line.endswith("limit (fold of the same games) 100,000 events/s; ratio 0.020")
    assert commands_line == ("   per decision: 500 commands/s decided (125 commands a game, 4.0 events a command); "
                             "limit (fold) 25,000 commands/s; ratio 0.020")
    chess = RandomPlay(games=1, moves=300, cut_at_cap=0, decided_seconds=0.01, limit_seconds=0.001)
    assert closing_line(ours, [(TurnGame("python-chess", int, list, max, bool), CHESS, chess)]) == (
        "compared: ours (baseline, 1 against 1) decides 500 commands/s against python-chess's 30,000 moves/s; "
        "decided/limit ratio ours 0.020, python-chess 0.100; issue 18's target ratio 0.3")
    assert closing_line(ours, []) == ("compared: ours (baseline, 1 against 1) decides 500 commands/s; decided/limit "
                                      "ratio ours 0.020; issue 18's target ratio 0.3")


def test_our_commands_are_the_commands_the_bots_played():
    ours = measure_ours(1, seconds=0.0, runs=1, min_games=2)
    played = 0
    for seed in range(2):
        session = GameSession(RULES, setup(1), dice=SeededDice(seed), game_id=f"check-{seed}")
        played += play(session, {"imperium": BaselineBot(seed), "orks": BaselineBot(seed + 1)})
    assert ours.games == 2 and ours.commands == played and 0 < ours.commands < ours.events


def test_without_the_outside_libraries_it_says_how_to_install_them_and_still_measures_ours(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "chess", None)
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    results = bench_outside.main(["--seconds", "0", "--runs", "1", "--sizes", "1"])
    lines = capsys.readouterr().out.splitlines()
    install = "not installed, skipped (`make bench-outside` installs it and runs this benchmark)"
    assert lines[:2] == [f"python-chess (import chess): {install}", f"OpenSpiel (import pyspiel): {install}"]
    assert re.fullmatch(r"ours, aeronautica dogfight 1 against 1, baseline v baseline: [\d,]+ events/s decided "
                        r"\(2 games, .*\); limit \(fold of the same games\) [\d,]+ events/s; ratio \d\.\d{3}", lines[2])
    assert re.fullmatch(r"   per decision: [\d,]+ commands/s decided .*; ratio \d\.\d{3}", lines[3])
    assert re.fullmatch(r"compared: ours \(baseline, 1 against 1\) decides [\d,]+ commands/s; decided/limit ratio "
                        r"ours \d\.\d{3}; issue 18's target ratio 0\.3", lines[4])
    assert len(lines) == 5 and set(results) == {"ours 1"}


@pytest.mark.parametrize("outside", OUTSIDE, ids=lambda outside: outside.module)
def test_an_installed_library_plays_to_the_end_and_its_limit_reaches_the_same_position(outside):
    module = pytest.importorskip(outside.module)
    game = outside.game(module)
    moves = play_randomly(game, seed=0)
    assert 0 < len(moves) < bench_outside.MAX_PLIES
    assert game.is_over(apply_again(game, moves))
    measured = measure_random_play(game, seconds=0.0, runs=1)
    assert measured.games == 1 and measured.moves == len(moves)
    assert re.fullmatch(rf"{game.name} random play .*: [\d,]+ {outside.move}/s decided .*; limit .* "
                        rf"[\d,]+ {outside.move}/s; ratio \d\.\d{{3}}", random_play_line(game, outside, measured))
