"""Aeronautica answers the tools through the interface (rulesets/aeronautica/tools.py; issue 11, item 3)."""

from __future__ import annotations

import msgspec
import pytest

from aero_events.bots import bots_for, make_bot, play
from aero_events.core import GameSession, RedactedEvent, SecretCommandIssued, SeededDice
from aero_events.demo import demo_session
from aero_events.rulesets import get_ruleset
from aero_events.rulesets.aeronautica.bots import GreedyBot
from aero_events.rulesets.aeronautica.commands import ChooseManoeuvre, SetThrottle
from aero_events.rulesets.aeronautica.deployment import face_off
from aero_events.rulesets.aeronautica.forces import ForceList
from aero_events.rulesets.aeronautica.narrate import describe
from aero_events.rulesets.aeronautica.scenarios.dogfight import dogfight_setup
from aero_events.rulesets.aeronautica.tools import demo_forces


@pytest.fixture(scope="module")
def finished():
    """The demo Dogfight, greedy against random, played to its end."""
    rules = get_ruleset("aeronautica")
    session = demo_session(7, ruleset=rules)
    play(session, {player: make_bot(rules, bot, f"7:{player}")
                   for player, bot in zip(("imperium", "orks"), ("greedy", "random"), strict=True)})
    return session


def test_the_demo_scenario_is_the_100_point_dogfight_on_a_4x4_board():
    rules = get_ruleset("aeronautica")
    name, options, bots = rules.demo_scenario()
    assert (name, options, bots) == ("dogfight", {}, ("greedy", "random"))  # the scenario's own defaults
    imperium, orks = demo_forces()
    expected = dogfight_setup(("imperium", imperium), ("orks", orks), 100, board="4x4", catalogue=rules.catalogue)
    assert demo_session(22, ruleset=rules).game.setup == expected


def test_the_face_off_scenario_builds_the_deployment_face_off():
    rules = get_ruleset("aeronautica/faq-2020")
    imperium, orks = demo_forces()
    options = {"forces": [msgspec.to_builtins(imperium), msgspec.to_builtins(orks)], "players": ["a", "b"],
               "board": "3x3", "last_turn": 8}
    built = rules.scenarios()["face-off"].build(options, 0)
    assert built == face_off(("a", imperium), ("b", orks), rules.catalogue, board="3x3", last_turn=8)
    assert isinstance(msgspec.convert(options["forces"][0], ForceList), ForceList)


def test_the_outcome_is_the_winner_and_victory_points_of_p32(finished):
    rules, state = finished.ruleset, finished.state
    outcome = rules.outcome(state)
    assert outcome.finished and outcome.winner == state.winner and outcome.reason == state.end_reason
    assert outcome.scores == {player: float(state.victory_points.get(player, 0)) for player in state.players}
    assert outcome.draw == (state.winner is None)
    lost = rules.statistics(state)["aircraft lost"]
    assert lost == {player: sum(1 for a in state.side(player) if a.status == "destroyed") for player in state.players}
    assert rules.score_name() == "VP" and "VP" in rules.summary_line(state)


def test_an_unfinished_game_stands_without_a_winner():
    rules = get_ruleset("aeronautica")
    outcome = rules.outcome(demo_session(1, ruleset=rules).state)
    assert not outcome.finished and outcome.winner is None and not outcome.draw


def test_a_manoeuvre_token_command_is_sealed_and_the_other_side_never_reads_it(finished):
    tokens = [env for env in finished.events() if isinstance(env.event, SecretCommandIssued)]
    assert tokens and all(env.event.command["command"] == "ChooseManoeuvre" for env in tokens)
    assert finished.ruleset.is_secret_command(ChooseManoeuvre(player="orks", aircraft="orks-1", manoeuvre=3))
    assert not finished.ruleset.is_secret_command(SetThrottle(player="orks", aircraft="orks-1", change=1))
    for env in finished.events_for("orks"):
        if env.actor == "imperium" and env.type == "SecretCommandIssued":
            raise AssertionError(f"orks read imperium's Manoeuvre token command at seq {env.seq}")
    hidden = [env for env in finished.events_for("orks") if isinstance(env.event, RedactedEvent)
              and env.event.secret_type == "SecretCommandIssued"]
    assert {env.event.owner for env in hidden} == {"imperium"}


def test_events_are_told_in_the_demo_s_words_and_core_events_not_at_all(finished):
    rules = finished.ruleset
    for env in finished.events()[:200]:
        told = rules.describe_event(env.event)
        assert told == ("" if env.event.core_event else describe(env.event) or "")
    lines = list(rules.narrate(finished.events()))
    assert lines[0].strip().startswith(("imperium", "orks")) and any("=== Game over" in line for line in lines)


def test_commands_are_described_in_english():
    rules = get_ruleset("aeronautica")
    assert rules.describe_command(SetThrottle(player="orks", aircraft="orks-2", change=-1)) == "orks-2: Throttle -1"
    assert rules.describe_command(ChooseManoeuvre(player="orks", aircraft="orks-2", manoeuvre=4)) == (
        "orks-2: Manoeuvre token 4 face down")


def test_its_bots_include_the_greedy_and_the_random_bot():
    rules = get_ruleset("aeronautica")
    assert {"greedy", "random"} <= set(bots_for(rules))
    assert isinstance(make_bot(rules, "greedy", 3), GreedyBot)
    session = GameSession(rules, demo_session(5, ruleset=rules).game.setup, dice=SeededDice(5))
    assert session.ruleset.piece_ids(session.state) == tuple(session.state.aircraft)
