"""Regression re-runs (aero_events/regress/rerun.py): identical under the same rules, the first divergence
under changed data, the illegal-decision policies, extra dice, the report as JSON."""

from __future__ import annotations

import json

import msgspec
import pytest

from aero_events.bots import RandomBot, play
from aero_events.core import GameSession, SeededDice
from aero_events.regress import rerun, to_json
from aero_events.rulesets import get_ruleset
from aero_events.rulesets.aeronautica.deployment import face_off
from aero_events.rulesets.aeronautica.forces import AircraftEntry, ForceList
from aero_events.rulesets.aeronautica.versions import parse_variant, register_variant
from tests.aeronautica.helpers import IMPERIUM, ORKS, Plane, S, Table
from tests.regress.recorded_helpers import recorded

BOLTS = ForceList(name="Bolts", faction="imperial_navy", aircraft=(AircraftEntry(aircraft="thunderbolt"),) * 2)
DAKKAS = ForceList(name="Dakkas", faction="ork_air_waaagh", aircraft=(AircraftEntry(aircraft="dakkajet"),) * 3)


def bot_game(seed: int, rules_name: str = "aeronautica/wov-2019") -> GameSession:
    rules = get_ruleset(rules_name)
    setup = face_off(("imperium", BOLTS), ("orks", DAKKAS), rules.catalogue)
    session = GameSession(rules, setup, dice=SeededDice(seed), game_id=f"rerun-{seed}")
    play(session, {"imperium": RandomBot(seed), "orks": RandomBot(-seed)})
    return session


def dakka_structure_3():
    return register_variant(parse_variant(json.dumps({
        "base": "aeronautica/wov-2019", "name": "test/dakka-structure-3", "aircraft": {"dakkajet": {"structure": 3}}}),
        "test-variant.json"))


@pytest.mark.parametrize("seed", range(1, 6))
def test_a_rerun_under_the_same_rules_is_identical(seed):
    session = bot_game(seed)
    report = rerun(recorded(session), get_ruleset("aeronautica/wov-2019"))
    assert report.identical, report
    assert report.events_replayed == report.events_recorded and report.decisions == report.decisions_applied
    assert report.old_outcome == report.new_outcome and report.outcome_changes == ()


def test_a_variant_changes_nothing_before_the_first_use_of_the_changed_value():
    """Dakkajets with Structure 3: the same events until damage is first dealt to a Dakkajet."""
    variant = dakka_structure_3()
    for seed in range(1, 80):
        session = bot_game(seed)
        if any(env.type == "ai.DamageSuffered" and env.event.aircraft.startswith("orks") for env in session.events()):
            break
    else:
        pytest.fail("no bot game damaged a Dakkajet")
    report = rerun(recorded(session), variant)
    divergence = report.divergence
    assert divergence is not None and divergence.old.type == "ai.DamageSuffered"
    first_damage = next(env for env in session.events()
                        if env.type == "ai.DamageSuffered" and env.event.aircraft.startswith("orks"))
    assert divergence.old.seq == first_damage.seq
    assert divergence.new.type == "ai.DamageSuffered" and divergence.new.text != divergence.old.text
    assert "orks-1.structure 2 -> 3" in report.state_difference
    assert not report.illegal


def throttle_past_min_game() -> GameSession:
    """2019: a Dakkajet at its Min Speed 4 throttles down to 3, and Stalls (allowed then, p.15)."""
    table = Table([Plane("thunderbolt", (2, 8))], [Plane("dakkajet", (9, 1), facing=S, speed=4)], board="12x10h",
                  rules=get_ruleset("aeronautica/wov-2019"))
    table.start_movement({"imperium-1": 1, "orks-1": 1}, first=ORKS)
    table.move("orks-1", throttle=-1, stage_hexes=(1,), facings=(0,))
    table.move("imperium-1", stage_hexes=(1,), facings=(0,))
    return table.session


def test_policy_stop_ends_the_rerun_at_the_first_illegal_decision():
    report = rerun(recorded(throttle_past_min_game()), get_ruleset("aeronautica/faq-2020"), on_illegal="stop")
    assert [i.action for i in report.illegal] == ["stopped"]
    illegal = report.illegal[0]
    assert "SetThrottle" in illegal.command and "change=-1" in illegal.command and "Throttle (p.15)" in illegal.error
    assert (illegal.turn, illegal.phase) == (1, "movement")
    assert report.stopped and report.unused_decisions > 0
    assert report.divergence.old.type == "ai.ThrottleSet" and report.divergence.new is None


def test_policy_bot_lets_a_seeded_bot_decide_and_goes_on():
    game = recorded(throttle_past_min_game())
    report = rerun(game, get_ruleset("aeronautica/faq-2020"), on_illegal="bot", seed=7)
    assert [i.action for i in report.illegal] == ["replaced"]
    assert report.bot_decisions == 1 and report.stopped is None and report.unused_decisions == 0
    assert report.decisions_applied == report.decisions - 1
    assert report.divergence.new.type == "ai.ThrottleSet" and "change=-1" not in report.divergence.new.text
    again = rerun(game, get_ruleset("aeronautica/faq-2020"), on_illegal="bot", seed=7)
    assert msgspec.to_builtins(again) == msgspec.to_builtins(report)  # seeded: the same choices every time


def test_policy_bot_finishes_a_finished_game_the_new_rules_play_differently():
    for seed in range(1, 40):
        session = bot_game(seed)
        report = rerun(recorded(session), get_ruleset("aeronautica/faq-2020"), on_illegal="bot")
        if report.illegal:
            break
    else:
        pytest.fail("no bot game made a decision the 2020 rules refuse")
    assert report.new_outcome.finished and report.stopped is None
    assert report.bot_decisions >= 1
    assert {i.action for i in report.illegal} <= {"replaced", "skipped", "waited"}


def test_the_report_is_json():
    report = rerun(recorded(throttle_past_min_game()), get_ruleset("aeronautica/faq-2020"))
    data = json.loads(to_json([report]))
    assert data[0]["game_id"] == "test" and data[0]["ruleset"] == "aeronautica/faq-2020"
    assert data[0]["illegal"][0]["action"] == "stopped"
    assert data[0]["divergence"]["old"]["type"] == "ai.ThrottleSet"


def test_a_setup_the_new_rules_refuse_is_noted_or_an_error():
    pointed = ForceList(name="Four bolts", faction="imperial_navy", points_limit=84,
                        aircraft=(AircraftEntry(aircraft="thunderbolt"),) * 4)
    rules = get_ruleset("aeronautica/wov-2019")
    session = GameSession(rules, face_off((IMPERIUM, pointed), (ORKS, DAKKAS), rules.catalogue),
                          dice=SeededDice(3), game_id="points")
    play(session, {IMPERIUM: RandomBot(1), ORKS: RandomBot(2)})
    relaxed = rerun(recorded(session), get_ruleset("aeronautica/faq-2020"))
    assert "92 points, more than the agreed limit of 84" in relaxed.setup_note and relaxed.error is None
    strict = rerun(recorded(session), get_ruleset("aeronautica/faq-2020"), strict_setup=True)
    assert strict.error.startswith("the new rules refuse the game's setup")
