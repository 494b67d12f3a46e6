"""What the scenes of a game tell whatever its ruleset: levels over time, cells used, each side's summary;
and the charts drawn from them (whole-number axes, no level below the table, few lines per panel)."""

from __future__ import annotations

import pytest

from aero_events.analysis import cell_usage, charts, game_steps, level_traces, side_summary
from aero_events.analysis.timeline import timeline_from_session
from aero_events.core import DiceRolled
from tests.viz.games import eventful_session, rules


@pytest.fixture(scope="module")
def timeline():
    return timeline_from_session(eventful_session())


@pytest.fixture(scope="module")
def steps(timeline):
    return game_steps(timeline)


def test_level_traces_follow_each_aircrafts_altitude_and_never_go_below_the_table(timeline, steps):
    levels = level_traces(steps).to_pylist()
    for aircraft_id, aircraft in timeline.final.aircraft.items():
        last = [row for row in levels if row["piece"] == aircraft_id][-1]
        assert last["status"] == {"flying": "active"}.get(aircraft.status, aircraft.status)
        if aircraft.in_play:
            assert last["level"] == aircraft.altitude
        else:
            assert last["level"] is None  # a crash or a departure is a status, never a level
    assert all(row["level"] is None or row["level"] >= 0 for row in levels)
    first = {row["piece"]: row["level"] for row in levels if row["step"] == 0}
    assert first == {a.id: a.altitude for a in timeline.initial.aircraft.values() if a.in_play}
    assert {row["level_name"] for row in levels} == {"Altitude"}


def test_the_level_chart_has_a_panel_per_side_distinct_colours_whole_ticks_and_status_markers(timeline, steps):
    levels = level_traces(steps)
    figure = charts.level_figure(levels, None, charts.turn_starts(timeline), timeline.head_seq)
    lines = [t for t in figure.data if t.mode == "lines"]
    for axis in {t.yaxis for t in lines}:
        panel = [t for t in lines if t.yaxis == axis]
        assert len(panel) <= 4 and len({t.line.color for t in panel}) == len(panel)
    assert all(level >= 0 for t in lines for level in t.customdata)  # the true levels, in the hover
    assert all(abs(y - level) < 0.5 for t in lines for y, level in zip(t.y, t.customdata, strict=True))
    assert figure.layout.yaxis.dtick == 1 and figure.layout.yaxis.tickformat == "d"
    out = {row["piece"] for row in levels.to_pylist() if row["level"] is None}
    markers = [t for t in figure.data if t.mode == "markers"]
    assert len(markers) == len(out) and all(t.name in ("destroyed", "disengaged") for t in markers)


def test_cells_used_count_the_hexes_entered_on_the_board(timeline, steps):
    """Every hex a manoeuvre, a taxi or a placement entered, and every hex an aircraft started in, once per
    entry (checked against the events, as the old hex count did)."""
    usage = cell_usage(steps).to_pylist()
    board = rules().board(timeline.initial)
    labels = {f"{q},{r}" for q, r in board.hexes}
    assert all(row["label"] in labels for row in usage)
    entered = 0
    for env in timeline.envelopes:
        if env.event.type_name() in ("ai.ManoeuvreFlown", "ai.Taxied"):
            entered += sum(1 for hex in (*env.event.path, *getattr(env.event, "pushed", ())) if board.contains(hex))
        elif env.event.type_name() in ("ai.AircraftPlaced", "ai.ReservePlaced"):
            entered += 1
    starts = sum(1 for a in timeline.initial.aircraft.values() if a.in_play)
    total = sum(row["visits"] for row in usage)
    # A path that returns to a hex within one move counts it again; the scenes see moves, not hexes twice
    # in a row, so the counts agree to within the hexes re-entered in the same move.
    assert starts < total <= entered + starts
    assert total >= 0.9 * (entered + starts)
    assert {row["side"] for row in usage} == set(timeline.players)


def test_the_side_summary_counts_pieces_outcome_and_dice(timeline, steps):
    rows = {row["side"]: row for row in side_summary(timeline, steps).to_pylist()}
    outcome = timeline.ruleset.outcome(timeline.final)
    for side, row in rows.items():
        planes = [a for a in timeline.final.aircraft.values() if a.owner == side]
        assert row["pieces"] == len(planes)
        assert row["destroyed"] == sum(1 for a in planes if a.status == "destroyed")
        assert row["disengaged"] == sum(1 for a in planes if a.status == "disengaged")
        assert row["in_play_at_end"] == sum(1 for a in planes if a.in_play)
        faces = [f for env in timeline.envelopes if type(env.event) is DiceRolled and env.event.roller == side
                 for f in env.event.faces]
        assert row["dice_rolled"] == len(faces)
        assert row["mean_roll"] == pytest.approx(round(sum(faces) / len(faces), 2))
        assert row["fair_mean"] == 3.5
        if outcome.finished and outcome.winner:
            assert row["result"] == ("won" if outcome.winner == side else "lost")


def test_whole_axes_have_whole_ticks():
    """Issue 17: "a chart whose right axis reads 3.04, 6.09, 9.13"."""
    for largest, step in ((3, 1), (8, 1), (9, 2), (14, 2), (30, 5), (70, 10)):
        axis = charts.whole_axis(largest)
        assert axis["dtick"] == step and axis["tickformat"] == "d" and axis["tick0"] == 0
