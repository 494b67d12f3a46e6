"""What Wings of Glory says to players: narration, command descriptions, rule errors and scene labels in words a
player uses (no 0-based indexes, no class names, no headings cited as pages, planes named by model)."""

from __future__ import annotations

import pytest

from aero_events.core import RuleError
from aero_events.rulesets.wings_of_glory import events as e
from aero_events.rulesets.wings_of_glory.commands import (
    ChangeFloor,
    Fire,
    JettisonLoad,
    LaunchPac,
    LaunchTorpedo,
    SniperPick,
    UseLuck,
)
from aero_events.rulesets.wings_of_glory.ruleset import model_name
from aero_events.rulesets.wings_of_glory.state import PLAN

from .helpers import RULES, in_phase, plane, run, situation


def _mixed():
    """A Spitfire (one gun, a pilot) against a Bf 110 (front and rear guns, pilot and gunner), firing 3b."""
    return in_phase(situation(plane("spit", "RAF", "spit1", 450, 250, 0, 5),
                              plane("bf", "Luftwaffe", "bf110c", 450, 400, 180, 5)), "fire", "3b")


def test_the_end_of_the_game_says_who_wins():
    won = e.GameEnded(winner="RAF", reason="the last turn (14) is over", scores={"Luftwaffe": 0, "RAF": 17})
    assert RULES.describe_event(won) == "The game ends (the last turn (14) is over): RAF wins; Luftwaffe 0, RAF 17."
    drawn = e.GameEnded(winner=None, reason="the last turn (14) is over", scores={"Luftwaffe": 3, "RAF": 3})
    assert ": a draw;" in RULES.describe_event(drawn)


def test_guns_are_named_and_numbered_as_the_notation_types_them():
    """The number is the notation's (``bf110-1 fires gun 1 at ...``: the first gun is gun 0, left unsaid), and the
    name says which gun it is; a plane with one gun is not told which."""
    state = _mixed()
    fired = e.Fired(plane="bf", gun=1, target="spit", band="long", letters="A")
    assert RULES.describe_event(fired, state).startswith("bf fires gun 1 (rear MG 15) at spit:")
    assert RULES.describe_event(fired).startswith("bf fires gun 1 at spit:")
    single = e.Fired(plane="spit", gun=0, target="bf", band="long", letters="AA")
    assert RULES.describe_event(single, state).startswith("spit fires at bf:")
    assert RULES.describe_command(Fire(player="Luftwaffe", plane="bf", gun=0, target="spit"), state) == \
        "bf: fire gun 0 (4 MG 17, 2 MG FF) at spit"
    notation = RULES.notation()
    assert notation.parse(state, "Luftwaffe", "bf fires gun 1 at spit").gun == 1


def test_wounded_crewmen_are_named_by_role_or_counted_from_one():
    state = _mixed()
    assert RULES.describe_event(e.CrewWounded(plane="bf", crewmen=(1,)), state) == "Crew hit on bf: the gunner wounded."
    assert RULES.describe_event(e.CrewWounded(plane="spit", crewmen=(0,)), state) == \
        "Crew hit on spit: the pilot wounded."
    assert RULES.describe_event(e.CrewWounded(plane="spit", crewmen=(0,))) == "Crew hit on spit: crewman 1 wounded."


@pytest.mark.parametrize("command, words", [
    (UseLuck(player="RAF", plane="spit", index=0), "spit: use Luck of the Devil to ignore damage token 1 just drawn"),
    (SniperPick(player="RAF", choice=1), "RAF: give the opponent Sniper token 2 of the two drawn"),
    (ChangeFloor(player="RAF", floor=2), "RAF: move the altitude floor to 2"),
    (LaunchPac(player="RAF", pac="pac-1"), "RAF: launch the parachute and cable pac-1"),
    (JettisonLoad(player="RAF", plane="spit"), "spit: jettison its load"),
    (LaunchTorpedo(player="RAF", plane="spit"), "spit: launch its torpedo"),
])
def test_every_command_is_said_in_words(command, words):
    assert RULES.describe_command(command) == words


def test_rule_errors_cite_the_rule_without_a_heading_posing_as_a_page():
    """The rulebook has no page numbers: a rule error names its section once ("GAME TURN: ...")."""
    state = in_phase(_mixed(), PLAN)
    with pytest.raises(RuleError) as refused:
        run(RULES, state, Fire(player="RAF", plane="spit", gun=0, target="bf"))
    assert refused.value.page is None
    assert str(refused.value) == "GAME TURN: planes fire in the fire phase"


def test_scenes_name_planes_by_model_not_maker():
    models = {piece.id: piece.model for piece in RULES.scene(_mixed()).pieces if piece.id in ("spit", "bf")}
    assert models == {"spit": "Spitfire Mk.I", "bf": "Bf 110 C-4"}
    assert model_name("Boulton Paul Defiant Mk.I") == "Defiant Mk.I"
    assert model_name("Sopwith Camel") == "Sopwith Camel"
