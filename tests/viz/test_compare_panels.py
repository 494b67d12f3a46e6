"""Each branch's text panel reads under its own board, from the board's left edge: the right branch's panel
was anchored to the page's right edge, so that it stood apart from the board it tells."""

from __future__ import annotations

from aero_events.analysis.timeline import timeline_from_session
from aero_events.bots import RandomBot, play
from aero_events.viz import compare_spec
from tests.viz.games import bot_session


def test_each_panel_starts_under_its_own_boards_left_edge():
    main = bot_session(5)
    alt = main.fork(60, "what-if")
    play(alt, {"imperium": RandomBot(55), "orks": RandomBot(56)})
    spec = compare_spec(timeline_from_session(main), timeline_from_session(alt), fork_seq=60)
    for frame in (spec["frames"][0], spec["frames"][-1]):
        left, right = frame["layout"]["annotations"]
        assert (left["x"], left["xanchor"]) == (spec["layout"]["xaxis"]["domain"][0], "left")
        assert (right["x"], right["xanchor"]) == (spec["layout"]["xaxis2"]["domain"][0], "left")
