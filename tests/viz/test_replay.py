"""The replay figure: a frame per step carrying only the changing traces, a labelled slider, Play/Pause,
a text panel, and an HTML page that embeds plotly.js."""

from __future__ import annotations

import plotly.graph_objects as go
import pytest

from aero_events.analysis.timeline import timeline_from_session
from aero_events.rulesets.aeronautica.scene import to_mm
from aero_events.viz import replay_figure, replay_spec, replay_steps, write_html
from aero_events.viz.replay import START_FROM_SHOWN
from tests.viz.games import eventful_session

STATIC = 3  # the table's edge, the hexes, their labels


@pytest.fixture(scope="module")
def timeline():
    return timeline_from_session(eventful_session())


@pytest.fixture(scope="module")
def steps(timeline):
    return replay_steps(timeline)


@pytest.fixture(scope="module")
def figure(timeline, steps):
    return replay_figure(timeline, steps=steps)


def test_the_replay_is_a_plotly_figure_with_one_frame_per_step(figure, steps):
    assert isinstance(figure, go.Figure)
    assert len(figure.frames) == len(steps)
    assert len({frame.name for frame in figure.frames}) == len(steps)


def test_the_slider_has_a_step_per_frame_labelled_turn_phase_seq(figure, steps):
    (slider,) = figure.layout.sliders
    assert [s.label for s in slider.steps] == [step.label for step in steps]
    assert [s.args[0][0] for s in slider.steps] == [frame.name for frame in figure.frames]
    assert all(s.method == "animate" for s in slider.steps)
    labels = [button.label for button in figure.layout.updatemenus[0].buttons]
    assert any("Play" in label for label in labels) and any("Pause" in label for label in labels)


def test_frames_carry_only_the_dynamic_traces_never_the_board(figure):
    total = len(figure.data)
    for frame in figure.frames:
        assert list(frame.traces) == list(range(STATIC, total))
        assert len(frame.data) == total - STATIC
        assert all(trace.name not in ("hexes", "hex coordinates") for trace in frame.data)
    assert [trace.name for trace in figure.data[:STATIC]] == ["3x3", "hexes", "hex coordinates"]


def test_each_frame_draws_its_steps_state_and_tells_it(figure, steps, timeline):
    height = timeline.ruleset.board(timeline.initial).height_inches
    for frame, step in zip(figure.frames, steps, strict=True):
        for side in ("imperium", "orks"):
            pieces = next(t for t in frame.data if t.name == side and not t.showlegend)  # not its legend entry
            in_play = sorted((a for a in step.state.aircraft.values() if a.in_play and a.owner == side),
                             key=lambda a: a.id)
            assert list(pieces.ids or ()) == [a.id for a in in_play]
            shared = {tuple(a.hex) for a in in_play if sum(1 for b in in_play if b.hex == a.hex) > 1}
            for x, y, plane in zip(pieces.x or (), pieces.y or (), in_play, strict=True):
                if tuple(plane.hex) not in shared:  # pieces sharing a hex are spread around its centre
                    assert (x, y) == pytest.approx(to_mm(plane.hex, height))
        (panel,) = frame.layout.annotations
        assert step.label in panel.text and step.title.split(" (")[0] in panel.text


def test_firing_frames_draw_their_shots(figure, steps):
    firing = [(frame, step) for frame, step in zip(figure.frames, steps, strict=True) if step.kind == "firing"]
    assert firing
    for frame, step in firing:
        results = next(t for t in frame.data if t.name == "shot results")
        assert len(results.x) == len(step.scene.lines_of_fire) > 0
        assert all(line.shooter == step.actor for line in step.scene.lines_of_fire)


def test_the_figure_can_open_on_any_frame(timeline, steps):
    spec = replay_spec(timeline, steps=steps, show_step=-1)
    assert spec["layout"]["sliders"][0]["active"] == len(steps) - 1
    assert spec["data"][STATIC:] == spec["frames"][-1]["data"]


def test_play_goes_on_from_the_frame_the_page_opens_on(timeline, steps, tmp_path):
    """Issue 17: "Play restarting from frame 0 when the page opens at frame 10". The page makes the frame it
    shows Plotly's current frame as soon as it is drawn, and Play animates from the current frame."""
    spec = replay_spec(timeline, steps=steps, show_step=10)
    assert spec["layout"]["meta"]["shown_frame"] == steps[10].name
    play = spec["layout"]["updatemenus"][0]["buttons"][0]
    assert play["args"][0] is None and play["args"][1]["fromcurrent"] is True
    text = write_html(spec, tmp_path / "replay.html").read_text(encoding="utf-8")
    assert "gd.layout.meta.shown_frame" in text and "Plotly.animate(gd, [shown]" in text
    assert "{plot_id}" in START_FROM_SHOWN and "{plot_id}" not in text


def test_the_html_page_embeds_plotly_and_needs_no_network(figure, tmp_path):
    path = write_html(figure, tmp_path / "replay.html", title="a replay")
    text = path.read_text(encoding="utf-8")
    assert text.count("plotly.js v") == 1  # the library itself, inlined
    assert "<script src=\"http" not in text
    assert "<title>a replay</title>" in text
    assert path.stat().st_size > 3_000_000
