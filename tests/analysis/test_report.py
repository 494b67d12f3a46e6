"""The one-page report: every section, plotly.js once, offline."""

from __future__ import annotations

from aero_events.analysis import report_html
from aero_events.analysis.timeline import timeline_from_session
from tests.viz.games import eventful_session


def test_the_report_has_every_section_and_plotly_once():
    timeline = timeline_from_session(eventful_session())
    page = report_html(timeline)
    assert page.startswith("<!DOCTYPE html>")
    assert page.count("plotly.js v") == 1 and '<script src="http' not in page
    for heading in ("Replay", "Per side", "Per aircraft", "Luck", "Luck by player and kind of roll",
                    "Damage over turns", "Altitude and Speed", "Hexes used"):
        assert heading in page
    assert page.count('class="plotly-graph-div"') == 5
    assert "wins" in page or "draw" in page
