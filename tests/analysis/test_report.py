"""The one-page report: the generic sections for any ruleset, the ruleset's own after them, plotly.js once,
offline, with column headings a player reads."""

from __future__ import annotations

import re

from aero_events.analysis import report_html
from aero_events.analysis.timeline import timeline_from_session
from tests.viz.games import eventful_session


def test_the_report_has_every_section_and_plotly_once():
    timeline = timeline_from_session(eventful_session())
    page = report_html(timeline)
    assert page.startswith("<!DOCTYPE html>")
    assert page.count("plotly.js v") == 1 and '<script src="http' not in page
    headings = re.findall(r"<h2>([^<]+)</h2>", page)
    assert headings == ["Replay", "Per side", "Altitude over turns", "Hexes used", "Dice",  # any ruleset
                        "Per aircraft", "Damage over turns", "Luck"]  # Aeronautica's own sections
    assert page.count('class="plotly-graph-div"') == 5
    outcome = timeline.ruleset.outcome(timeline.final)
    assert "<b>Result:</b>" in page and (outcome.reason in page if outcome.reason else True)
    assert "shown_frame" in page  # the replay plays on from the frame it opens on


def test_column_headings_are_words_not_identifiers():
    """Issue 17: "raw column names (damage_dealt, won True)"."""
    page = report_html(timeline_from_session(eventful_session()), replay=False)
    cells = re.findall(r"<th>([^<]+)</th>", page)
    assert cells and not [cell for cell in cells if "_" in cell]
    assert "Damage dealt" in cells and "Result" in cells
    assert not re.search(r"<td[^>]*>(True|False)</td>", page)
