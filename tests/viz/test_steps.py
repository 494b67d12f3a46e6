"""Replay steps: events grouped into moves, volleys and End phases, from ONE fold of the events."""

from __future__ import annotations

import re

import pytest

from aero_events.analysis.timeline import fold_timeline, timeline_from_session
from aero_events.core import StateCheckpoint
from aero_events.rulesets.aeronautica.scene import to_mm
from aero_events.rulesets.aeronautica.statistics import shot_records
from aero_events.viz import replay_figure, replay_steps
from aero_events.viz.steps import GAME_OVER, START
from tests.viz.games import eventful_session, rules

MOVEMENT, FIRING, END = "movement", "firing", "end"  # Aeronautica's step kinds (rulesets/aeronautica/scene.py)


@pytest.fixture(scope="module")
def timeline():
    return timeline_from_session(eventful_session())


@pytest.fixture(scope="module")
def steps(timeline):
    return replay_steps(timeline)


def _types(timeline, step):
    return [env.event.type_name() for env in timeline.envelopes
            if step.first_seq <= env.seq <= step.last_seq]


def test_the_first_step_is_the_initial_state_and_the_last_ends_the_game(timeline, steps):
    assert steps[0].kind == START and steps[0].last_seq == 0 and steps[0].state is timeline.initial
    assert steps[-1].last_seq == timeline.head_seq
    assert steps[-1].kind == GAME_OVER
    ended = timeline.envelopes[-1]
    assert ended.event.type_name() == "ai.GameEnded"
    told = timeline.ruleset.describe_event(ended.event, timeline.state_before(len(timeline) - 1))
    assert steps[-1].lines[-1].text == told.strip()  # the ruleset's own words for the game's end


def test_steps_follow_each_other_and_hold_the_state_after_their_last_event(timeline, steps):
    seqs = [step.last_seq for step in steps]
    assert seqs == sorted(set(seqs))
    for step in steps[1:]:
        assert step.first_seq <= step.last_seq
        assert step.state is timeline.state_at(step.last_seq)
    assert [step.index for step in steps] == list(range(len(steps)))


def test_one_step_per_aircraft_movement(timeline, steps):
    moves = [step for step in steps[1:] if _types(timeline, step)[0] == "ai.AircraftActivated"]
    assert all(step.kind in (MOVEMENT, GAME_OVER) for step in moves)
    activations = [env for env in timeline.envelopes if env.event.type_name() == "ai.AircraftActivated"]
    assert len(moves) == len(activations)
    for step in moves:
        types = _types(timeline, step)
        assert types[0] == "ai.AircraftActivated" and types[-1] == "ai.MovementEnded"
        assert step.title.startswith(f"{step.actor} moves")
        path = next(p for p in step.scene.paths if p.piece == step.actor)
        height = rules().board(step.state).height_inches
        assert path.points[0] == pytest.approx(to_mm(timeline.state_at(step.first_seq - 1).aircraft[step.actor].hex,
                                                     height))


def test_one_step_per_volley_that_fired_and_one_per_end_phase(timeline, steps):
    volleys, current = [], None
    for env in timeline.envelopes:
        name = env.event.type_name()
        if name == "ai.VolleyDeclared":
            current = []
        if current is not None:
            current.append(name)
        if name == "ai.VolleyEnded":
            volleys.append(current)
            current = None
    fired = [v for v in volleys if "ai.WeaponFired" in v]
    firing_steps = [step for step in steps if step.kind == FIRING]
    assert fired, "the eventful game fires"
    assert len(firing_steps) == len(fired)
    for step in firing_steps:
        types = _types(timeline, step)
        assert types[-1] == "ai.VolleyEnded" and "ai.WeaponFired" in types
        first = timeline.index_of(step.first_seq)
        shots = [shot for shot in shot_records(timeline.pairs(first, timeline.index_of(step.last_seq) + 1))
                 if shot.from_hex and shot.to_hex]
        assert shots and all(shot.firer == step.actor for shot in shots)
        assert [(line.shooter, line.target) for line in step.scene.lines_of_fire] == [
            (shot.firer, shot.target) for shot in shots]
        volley = next(env for env in timeline.envelopes[first:] if env.event.type_name() == "ai.VolleyDeclared")
        told = timeline.ruleset.describe_event(volley.event, timeline.state_at(volley.seq - 1)).strip()
        assert told in [line.text for line in step.lines]  # the volley told in the ruleset's words
    turns_ended = sum(1 for env in timeline.envelopes if env.event.type_name() == "ai.TurnEnded")
    assert sum(1 for step in steps[1:] if "ai.TurnEnded" in _types(timeline, step)) == turns_ended
    assert all(step.kind in (END, GAME_OVER) for step in steps[1:] if "ai.TurnEnded" in _types(timeline, step))


def test_slider_labels_say_turn_phase_and_seq(timeline, steps):
    by_seq = {env.seq: env for env in timeline.envelopes}
    for step in steps[1:]:
        assert re.fullmatch(r"T\d+ [a-z ]+ #\d+", step.label)
        last = by_seq[step.last_seq]
        assert step.label == f"T{last.turn} {last.phase.replace('_', ' ')} #{last.seq}"
    assert len({step.label for step in steps}) == len(steps)


def test_every_told_event_is_told_once(timeline, steps):
    from aero_events.viz.words import describe_event

    told = [line.text for step in steps for line in step.lines]
    expected = [line.text for line in (describe_event(env.event, timeline.ruleset, before)
                                       for env, before, _ in timeline.pairs()) if line is not None]
    assert told == expected


def test_the_replay_folds_the_events_exactly_once():
    session = eventful_session()
    ruleset = type(rules())()
    calls = 0
    evolve = ruleset.evolve

    def counting(state, event):
        nonlocal calls
        calls += 1
        return evolve(state, event)

    ruleset.evolve = counting
    timeline = fold_timeline(ruleset, session.branch.state_at(0), session.events())
    figure = replay_figure(timeline)
    folded = sum(1 for env in session.events() if type(env.event) is not StateCheckpoint)
    assert calls == folded
    assert len(figure.frames) == len(replay_steps(timeline))
    assert calls == folded  # building the steps again folded nothing


def test_a_replay_can_start_after_any_event(timeline):
    middle = timeline.head_seq // 2
    steps = replay_steps(timeline, middle)
    assert steps[0].last_seq == middle and steps[0].state is timeline.state_at(middle)
    assert all(step.first_seq > middle for step in steps[1:])
    assert steps[-1].last_seq == timeline.head_seq
