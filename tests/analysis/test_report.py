"""The one-page report: the generic sections for any ruleset, the ruleset's own after them, plotly.js once,
offline, with column headings a player reads."""

from __future__ import annotations

import re

import pytest

from aero_events.analysis import report_html
from aero_events.analysis.report import check_viewer
from aero_events.analysis.timeline import timeline_from_session
from tests.viz.games import eventful_session


def test_the_report_has_every_section_and_plotly_once():
    timeline = timeline_from_session(eventful_session())
    page = report_html(timeline, odds_playouts=2)
    assert page.startswith("<!DOCTYPE html>")
    assert page.count("plotly.js v") == 1 and '<script src="http' not in page
    headings = re.findall(r"<h2>([^<]+)</h2>", page)
    assert headings == ["Replay", "Chances of winning", "Per side", "Altitude over turns", "Hexes used",
                        "Dice",  # any ruleset
                        "Per aircraft", "Damage over turns", "Luck"]  # Aeronautica's own sections
    assert page.count('class="plotly-graph-div"') == 6
    outcome = timeline.ruleset.outcome(timeline.final)
    assert "<b>Result:</b>" in page and (outcome.reason in page if outcome.reason else True)
    assert "shown_frame" in page  # the replay plays on from the frame it opens on


def test_column_headings_are_words_not_identifiers():
    """Issue 17: "raw column names (damage_dealt, won True)"."""
    page = report_html(timeline_from_session(eventful_session()), replay=False, odds_playouts=0)
    cells = re.findall(r"<th>([^<]+)</th>", page)
    assert cells and not [cell for cell in cells if "_" in cell]
    assert "Damage dealt" in cells and "Result" in cells
    assert not re.search(r"<td[^>]*>(True|False)</td>", page)


def test_the_chances_of_winning_are_drawn_from_the_playouts_asked_for():
    """Issue 18 item 3: the report's strip gives each side's chance at every turn's start; 0 playouts leave
    it out."""
    timeline = timeline_from_session(eventful_session())
    page = report_html(timeline, replay=False, odds_playouts=2)
    assert "<h2>Chances of winning</h2>" in page and "Each point: 2 games played on" in page
    assert "from 2 playouts" in page
    assert "Chances of winning" not in report_html(timeline, replay=False, odds_playouts=0)


def test_a_report_for_a_player_is_titled_so_and_refuses_a_stranger():
    timeline = timeline_from_session(eventful_session())
    assert "as orks sees it" in report_html(timeline, replay=False, odds_playouts=0, viewer="orks")
    with pytest.raises(ValueError, match="has no player 'nobody'"):
        check_viewer(timeline, "nobody")
