"""Two branches side by side from their fork point."""

from __future__ import annotations

import pytest

from aero_events.analysis.timeline import timeline_from_session
from aero_events.bots import RandomBot, play
from aero_events.store import EventStore
from aero_events.viz import compare_figure, compare_from_store, fork_point, recorded_fork, replay_steps
from tests.viz.games import bot_session

FORK = 60


@pytest.fixture(scope="module")
def forked():
    main = bot_session(5)
    alt = main.fork(FORK, "what-if")
    play(alt, {"imperium": RandomBot(55), "orks": RandomBot(56)})
    return main, alt


def test_the_fork_point_is_the_last_shared_event(forked):
    main, alt = forked
    a, b = timeline_from_session(main), timeline_from_session(alt)
    parted = fork_point(a, b)  # the bots may happen to repeat a few events after the fork
    assert parted >= FORK
    assert a.envelopes[parted].event != b.envelopes[parted].event
    assert fork_point(a, a) == a.head_seq


def test_the_recorded_fork_comes_from_the_branch_tree(forked, tmp_path):
    main, _ = forked
    store = EventStore(tmp_path / "aero.duckdb")
    store.save_session(main)
    tree = store.branch_tree(main.game_id)
    assert recorded_fork(tree, "main", "what-if") == recorded_fork(tree, "what-if", "main") == FORK
    assert recorded_fork(tree, "main", "main") is None


def test_the_comparison_puts_each_branch_on_its_own_board(forked):
    main, alt = forked
    a, b = timeline_from_session(main), timeline_from_session(alt)
    figure = compare_figure(a, b, fork_seq=FORK)
    boards = [t for t in figure.data if t.name == "hexes"]
    assert [(t.xaxis, t.yaxis) for t in boards] == [("x", "y"), ("x2", "y2")]
    assert figure.layout.yaxis2.scaleanchor == "x2"
    steps_a, steps_b = replay_steps(a, FORK), replay_steps(b, FORK)
    assert len(figure.frames) == max(len(steps_a), len(steps_b))
    first = figure.frames[0]
    left = [t for t in first.data if t.name == "imperium" and t.xaxis == "x" and not t.showlegend]
    right = [t for t in first.data if t.name == "imperium" and t.xaxis == "x2"]
    assert left[0].x == right[0].x and left[0].ids == right[0].ids  # both start from the same state
    assert not any(t.showlegend for t in figure.data if t.xaxis == "x2")  # one legend, for both boards
    last = figure.frames[-1]
    panels = [annotation.text for annotation in last.layout.annotations]
    assert "branch main" in panels[0] and "branch what-if" in panels[1]
    assert steps_a[-1].label in panels[0] and steps_b[-1].label in panels[1]


def test_compare_from_the_store(forked, tmp_path):
    main, _ = forked
    store = EventStore(tmp_path / "aero.duckdb")
    store.save_session(main)
    figure = compare_from_store(store, main.game_id, "main", "what-if")
    assert "from event #60" in figure.layout.title.text
