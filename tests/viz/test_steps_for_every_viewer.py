"""A replay cuts a game into the same frames on every page (the organiser's, a spectator's, each player's):
only what the frames tell differs. Wings of Glory seals every planned card (a ``SecretCommandIssued``), which
a spectator's timeline holds redacted. A frame made by one event is titled in words, not by the event's
type; and a frame showing a shot that waited for the target's reaction names the shot."""

from __future__ import annotations

import functools
import re

import pytest

from aero_events.analysis.report import seen_by
from aero_events.analysis.timeline import timeline_from_session
from aero_events.bots import make_bot, play
from aero_events.demo import demo_plan, demo_session
from aero_events.rulesets import get_ruleset
from aero_events.viz import replay_steps
from aero_events.viz.steps import EVENT

SHIPPED = ("aeronautica/wov-2019", "battlefleet-gothic/core", "million-colored-sun/2018", "whfb-flying/alternate",
           "wings-of-glory/bob-2017")


@functools.cache
def _demo_timeline(name: str):
    rules = get_ruleset(name)
    session = demo_session(ruleset=rules)
    bots = demo_plan(rules)[2]
    play(session, {player: make_bot(rules, bot, f"22:{player}")
                   for player, bot in zip(rules.players(session.state), bots, strict=True)}, max_commands=400)
    return timeline_from_session(session)


def _cuts(steps) -> list[tuple[int, int]]:
    return [(step.first_seq, step.last_seq) for step in steps]


def test_sealed_orders_cut_a_spectators_replay_where_they_cut_the_organisers():
    timeline = _demo_timeline("wings-of-glory/bob-2017")
    assert _cuts(replay_steps(seen_by(timeline, None))) == _cuts(replay_steps(timeline))


@pytest.mark.parametrize("viewer", [None, "RAF", "Luftwaffe"])
def test_every_turns_moves_make_a_frame_of_their_own_on_every_page(viewer):
    """A frame is kept when what its viewer sees changed (a player sees their own damage tokens), so pages may
    keep different frames; but each frame tells one turn's reveal at most, and every turn's is told."""
    timeline = _demo_timeline("wings-of-glory/bob-2017")
    seen = replay_steps(seen_by(timeline, viewer), viewer=viewer)
    reveals = [sum(line.text.startswith("The cards are turned face up") for line in step.lines) for step in seen]
    assert sum(reveals) == timeline.ruleset.clock(timeline.state_at(timeline.head_seq))[0], "every turn is told"
    assert max(reveals) == 1, "no frame runs over two turns' moves"


@pytest.mark.parametrize("name", SHIPPED)
def test_a_frame_made_by_one_event_is_titled_by_what_happened(name):
    """Told in the ruleset's words where it tells the event ("orks-3 placed at (9,-4) ..."), else its type's
    name as words ("Effects expired"), never the type's own name ("AircraftPlaced")."""
    steps = replay_steps(seen_by(_demo_timeline(name), None))
    single = [step for step in steps if step.kind == EVENT]
    for step in single:
        assert not re.search(r"[a-z][A-Z]", step.title), (step.label, step.title)
    if name.startswith("aeronautica"):
        assert single, "the Dogfight's placements are frames of one event each"
        assert all(" placed at (" in step.title and step.title == step.lines[-1].text for step in single)


@pytest.mark.parametrize("name", SHIPPED)
def test_no_frame_runs_over_into_the_next_turn(name):
    """A command whose events end one turn and begin the next made one frame labelled with the next turn
    (Wings of Glory's "T2 plan #49" showed turn 1's moves): a frame's events now share one turn."""
    timeline = _demo_timeline(name)
    turn_of = {envelope.seq: envelope.turn for envelope in timeline.envelopes}
    for step in replay_steps(seen_by(timeline, None))[1:]:
        turns = {turn_of[seq] for seq in range(step.first_seq, step.last_seq + 1)}
        assert turns == {step.turn}, (step.label, step.title, sorted(turns))


def test_a_shot_waiting_for_its_targets_reaction_is_named_in_the_frame_that_shows_it():
    """A Battlefleet Gothic ship fires, the target's player reacts (brace or not), and only then do the dice
    fall: the frame showing the shot was titled by the reaction alone ("Incendrius: no brace, hold
    turrets"). It names the shot first."""
    timeline = _demo_timeline("battlefleet-gothic/core")
    steps = replay_steps(seen_by(timeline, None))
    told = [step for step in steps if any(" fires " in line.text for line in step.lines)]
    assert len(told) > 10
    for step in told:
        assert "fire" in step.title, (step.label, step.title)
    assert any("; then " in step.title and "brace" in step.title for step in told)
