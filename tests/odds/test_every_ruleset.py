"""The win-probability strip works for every shipped ruleset through the core interface alone (issue 18 item
3): each ruleset's demo game, played by its demo bots, gets a point at every turn's start, each played on by
the ruleset's default bot from a position where a player decides."""

from __future__ import annotations

import pytest

from aero_events.analysis.timeline import timeline_from_session
from aero_events.bots import make_bot, play
from aero_events.demo import demo_plan, demo_session
from aero_events.odds import strip_of_timeline
from aero_events.rulesets import get_ruleset

SHIPPED = ("aeronautica/wov-2019", "battlefleet-gothic/core", "million-colored-sun/2018", "whfb-flying/alternate",
           "wings-of-glory/bob-2017")


@pytest.mark.parametrize("name", SHIPPED)
def test_every_rulesets_demo_has_a_strip_over_its_turns(name):
    rules = get_ruleset(name)
    session = demo_session(ruleset=rules)
    bots = demo_plan(rules)[2]
    play(session, {player: make_bot(rules, bot, f"22:{player}")
                   for player, bot in zip(rules.players(session.state), bots, strict=True)}, max_commands=400)
    strip = strip_of_timeline(timeline_from_session(session), playouts=1, seed=3)
    turns = [point.turn for point in strip if not point.final]
    assert turns[0] == 1 and turns == sorted(turns)
    assert len(set(turns)) == rules.clock(session.state)[0]  # every turn reached has its point
    for point in strip:
        assert sum(side.win_probability for side in point.sides) <= 1.0
        assert {side.side for side in point.sides} == set(rules.sides(session.state))
