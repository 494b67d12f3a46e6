"""The report speaks to a player: its level headings name the level, with a capital, whatever words a ruleset
reads its level in, and the chances of winning name the bot that played them."""

from __future__ import annotations

import functools

from aero_events.analysis.report import GameReport
from aero_events.analysis.scenes import level_name
from aero_events.analysis.timeline import timeline_from_session
from aero_events.bots import make_bot, play
from aero_events.demo import demo_plan, demo_session
from aero_events.rulesets import get_ruleset


@functools.cache
def _report(name: str) -> GameReport:
    rules = get_ruleset(name)
    session = demo_session(ruleset=rules)
    bots = demo_plan(rules)[2]
    play(session, {player: make_bot(rules, bot, f"22:{player}")
                   for player, bot in zip(rules.players(session.state), bots, strict=True)}, max_commands=60)
    return GameReport.of(timeline_from_session(session), odds_playouts=1)


def test_a_level_is_named_as_a_heading_starts():
    assert level_name("altitude 5 (5 pegs) + 0 climb") == "Altitude"
    assert level_name("Altitude 3") == "Altitude"
    assert level_name(None) == "Level" and level_name("") == "Level"


def test_a_level_label_with_no_number_names_no_level():
    """Warhammer's flyers are "on the ground" or "in the air (10\")": the report said "On over turns"."""
    assert level_name("on the ground") == "Level"
    assert level_name('in the air (10")') == "Level"


def test_wings_of_glorys_level_heading_and_chart_start_with_a_capital():
    sections = {section.title: section for section in _report("wings-of-glory/bob-2017").sections(replay=False)}
    assert "Altitude over turns" in sections
    figure = sections["Altitude over turns"].figure
    assert figure.layout.title.text == "Altitude over turns"


def test_the_chances_name_the_bot_that_played_them_on():
    """Battlefleet Gothic names no default bot and hides nothing in its state, so its strip is drawn for a
    spectator (Wings of Glory's is not: tests/odds/test_strip_secrets.py)."""
    sections = {section.title: section for section in _report("battlefleet-gothic/core").sections(replay=False)}
    words = sections["Chances of winning"].html
    assert "played on by the random bot (the ruleset names no default)" in words
