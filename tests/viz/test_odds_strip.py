"""The win-probability strip on the replay page (issue 18 item 3; the lichess evaluation graph as the model):
each side's chance of winning at every turn's start with its 95% interval, under the board, a cursor at the
frame shown, and the chances told in the frame's panel. Drawn for a ruleset that lives under tests/ (Pawns):
only the core interface is used."""

from __future__ import annotations

import functools

from aero_events.analysis.timeline import Timeline, timeline_from_session
from aero_events.odds import strip_of_timeline
from aero_events.viz import replay_spec
from aero_events.viz.odds_strip import odds_line, point_label, strip_figure
from aero_events.viz.replay import STRIP_X, STRIP_Y
from tests.viz.test_plugin_ruleset import pawns_session


@functools.cache
def pawns() -> tuple[Timeline, tuple]:
    timeline = timeline_from_session(pawns_session())
    return timeline, tuple(strip_of_timeline(timeline, playouts=3, seed=2))


def strip_data(spec: dict) -> list[dict]:
    return [trace for trace in spec["data"] if trace.get("xaxis") == STRIP_X]


def test_the_strip_is_drawn_under_the_board_one_band_and_one_line_per_side():
    timeline, strip = pawns()
    spec = replay_spec(timeline, strip=strip)
    layout = spec["layout"]
    board_bottom = layout["yaxis"]["domain"][0]
    assert layout[f"yaxis{STRIP_Y[1:]}"]["domain"][1] < board_bottom  # under the board, not over it
    sides = timeline.ruleset.sides(timeline.final)
    lines = [trace for trace in strip_data(spec) if trace["name"].endswith(" wins")]
    bands = [trace for trace in strip_data(spec) if trace["name"].endswith("95% interval")]
    assert [trace["name"] for trace in lines] == [f"{side} wins" for side in sides] and len(bands) == len(sides)
    for side, line, band in zip(sides, lines, bands, strict=True):
        assert line["x"] == [point.seq for point in strip]
        assert line["y"] == [point.probability(side) for point in strip]
        highs = band["y"][:len(strip)]
        lows = band["y"][len(strip):][::-1]
        for point, low, high in zip(strip, lows, highs, strict=True):
            entry = next(e for e in point.sides if e.side == side)
            assert (low, high) == entry.interval and low <= entry.win_probability <= high
    ticks = layout[f"xaxis{STRIP_X[1:]}"]["ticktext"]
    assert ticks == [point_label(point) for point in strip] and ticks[0] == "T1"


def test_each_frame_moves_the_cursor_to_its_last_event_and_tells_the_chances():
    timeline, strip = pawns()
    spec = replay_spec(timeline, strip=strip)
    for frame in spec["frames"]:
        cursor = frame["data"][-1]
        seq = int(frame["name"].rsplit("#", 1)[1])
        assert cursor["xaxis"] == STRIP_X and cursor["x"] == [seq, seq]
        told = odds_line(strip, seq)
        assert (told in frame["layout"]["annotations"][0]["text"]) if told else True
    assert len({tuple(frame["traces"]) for frame in spec["frames"]}) == 1


def test_the_chances_told_are_those_of_the_last_point_reached():
    _, strip = pawns()
    first, second = strip[0], strip[1]
    told = odds_line(strip, second.seq - 1)
    assert told.startswith(f"Chances at the start of T{first.turn}:")
    assert all(f"{e.side} {e.win_probability:.0%}" in told for e in first.sides)
    assert odds_line(strip, second.seq).startswith(f"Chances at the start of T{second.turn}:")
    assert odds_line(strip, -1) == ""


def test_a_finished_games_strip_ends_on_its_result():
    timeline, strip = pawns()
    outcome = timeline.ruleset.outcome(timeline.final)
    assert outcome.finished and strip[-1].final and point_label(strip[-1]) == "end"
    for entry in strip[-1].sides:
        won = 1.0 if entry.side == outcome.winner else 0.0
        assert entry.win_probability == won and entry.interval == (won, won)


def test_without_a_strip_the_replay_draws_none():
    timeline, _ = pawns()
    spec = replay_spec(timeline)
    assert strip_data(spec) == [] and f"xaxis{STRIP_X[1:]}" not in spec["layout"]
    assert "Chances" not in spec["layout"]["annotations"][0]["text"]


def test_the_reports_strip_figure_has_the_same_lines_and_a_legend_per_side():
    timeline, strip = pawns()
    colours = {"red": "#d62728", "blue": "#1f77b4"}
    figure = strip_figure(strip, colours, timeline.head_seq, score_name="points")
    named = [trace["name"] for trace in figure["data"]]
    assert "red wins" in named and "blue wins" in named
    assert [trace["name"] for trace in figure["data"] if trace.get("showlegend")] == ["red", "blue"]
