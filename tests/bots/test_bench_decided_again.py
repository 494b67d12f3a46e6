"""The benchmark's ``decided again`` line (issue 18): the same games' commands given again with no legal
commands asked and no bot choosing. It prices the rules' ``decide`` and the session alone, so it must decide the
very games the bots played, and refuse to print a figure for other games."""

from __future__ import annotations

import re

import pytest

from aero_events.rulesets import get_ruleset, known_families
from benchmarks import bench_dogfight
from benchmarks.rulesets import (
    bench_bots,
    demo_scenario,
    fold_seconds,
    play_games,
    redecide_seconds,
    redecided_line,
)


@pytest.fixture(scope="module")
def played():
    rules = get_ruleset("aeronautica/wov-2019")
    scenario, options = demo_scenario(rules)
    return play_games(rules, scenario, options, "baseline", seconds=0.0, min_games=2, max_games=2)


def test_the_commands_of_every_game_are_kept_in_the_order_given(played):
    assert played.commands is not None and len(played.commands) == played.games
    for session, commands in zip(played.sessions, played.commands):
        recorded = [env for env in session.events() if type(env.event).__name__.endswith("CommandIssued")]
        assert len(commands) == len(recorded) > 0
        assert [command.player for command in commands] == [env.actor for env in recorded]


def test_deciding_the_commands_again_takes_time_and_gives_the_games_played(played):
    assert redecide_seconds(played, runs=1) > 0


def test_a_game_that_does_not_come_back_from_its_commands_is_refused(played):
    first = played.commands[0]
    shortened = type(played)(ruleset=played.ruleset, scenario=played.scenario, bot=played.bot,
                             sessions=played.sessions, seconds=played.seconds,
                             commands=[first[: len(first) // 2], *played.commands[1:]])
    with pytest.raises(RuntimeError, match="decided again from its commands is not the game played"):
        redecide_seconds(shortened, runs=1)


def test_games_played_without_their_commands_cannot_be_decided_again(played):
    bare = type(played)(ruleset=played.ruleset, scenario=played.scenario, bot=played.bot,
                        sessions=played.sessions, seconds=played.seconds)
    with pytest.raises(ValueError, match="without keeping their commands"):
        redecide_seconds(bare)


def test_the_line_gives_the_rate_its_ratio_to_the_fold_and_the_share_of_legal_commands_and_bots(played):
    folded = played.events / fold_seconds(played, runs=1)
    line = redecided_line(played, folded)
    found = re.fullmatch(r"   the same commands decided again \(no legal commands asked, no bot choosing\): "
                         r"([\d,]+) events/s; ratio to the fold ([\d.]+) \(the most faster bots or legal commands "
                         r"could reach\); legal commands and the bot: (\d+)% of the decided time", line)
    assert found, line
    rate = float(found[1].replace(",", ""))
    assert rate > played.events / played.seconds  # no bot and no legal commands: cheaper than the games were
    assert float(found[2]) == pytest.approx(rate / folded, abs=0.001)
    assert 0 <= int(found[3]) <= 100


def test_the_dogfight_benchmark_keeps_the_commands_of_its_games():
    played = bench_dogfight.play_games(1, bench_dogfight.BaselineBot, seconds=0.0, min_games=1, max_games=1)
    assert played.commands is not None and len(played.commands[0]) > 0
    assert redecide_seconds(played, runs=1) > 0


def test_a_game_given_another_command_is_refused_though_its_events_are_of_the_same_kinds(played):
    """The same number and kinds of events are not enough: a manoeuvre swapped for another is another game."""
    first = list(played.commands[0])
    index, swapped = next((i, c) for i, c in enumerate(first) if type(c).__name__ == "ChooseManoeuvre"
                          and any(type(o) is type(c) and o != c for o in first))
    other = next(o for o in first if type(o) is type(swapped) and o.aircraft == swapped.aircraft and o != swapped)
    first[index] = other
    changed = type(played)(ruleset=played.ruleset, scenario=played.scenario, bot=played.bot,
                           sessions=played.sessions, seconds=played.seconds, commands=[first, *played.commands[1:]])
    with pytest.raises(RuntimeError, match="is not the game played"):
        redecide_seconds(changed, runs=1)


@pytest.mark.parametrize("name", sorted(known_families().values()))
def test_every_rulesets_bench_games_come_back_whole_from_their_commands(name):
    """Every ruleset ``make bench`` measures, every bot: its games decided again are the games played, event
    for event, secrets and checkpoints included. Wings of Glory keeps its planned cards' commitments in the
    state, so a salt drawn afresh changed its state hashes and stopped ``make bench`` (session 12): the games are
    bot simulations, as ``aero simulate`` plays them, with salts derived from their seeds."""
    rules = get_ruleset(name)
    scenario, options = demo_scenario(rules)
    for bot in bench_bots(rules):
        played = play_games(rules, scenario, options, bot, seconds=0.0, min_games=1, max_games=1)
        assert all(session.salts.reproducible for session in played.sessions)
        assert redecide_seconds(played, runs=1) > 0
