"""The fold's own volley (issue 18, replay): in a fold, the volley being resolved (p.20-23) is thawed into a
draft the first time a reducer changes one of its shots, its shots change in place as the Firing sequence goes
(WeaponFired, HitsScored, DamageRolled), and the fold freezes it back into a :class:`Volley`. Checked against
``evolve`` (new Structs at every event) over the volleys of seeded games."""

from __future__ import annotations

import msgspec
import pytest

from aero_events.bots import play
from aero_events.core import GameSession, SeededDice
from aero_events.rulesets.aeronautica import AeronauticaRules
from aero_events.rulesets.aeronautica.bots import BaselineBot, GreedyBot
from aero_events.rulesets.aeronautica.events import DamageRolled, HitsScored, VolleyDeclared, WeaponFired
from aero_events.rulesets.aeronautica.state import (
    ShotDraft,
    ShotProgress,
    Volley,
    VolleyDraft,
    freeze,
    freeze_volley,
    thaw,
    thaw_volley,
)
from tests.support.dogfights import played_dogfight

RULES = AeronauticaRules()
encode = msgspec.json.encode
SHOT_EVENTS = (WeaponFired, HitsScored, DamageRolled)


def demo_dogfight(seed: int) -> GameSession:
    """The demo Dogfight (its Fighta Bommer's weapons have limited ammunition, p.26) played by greedy bots."""
    scenario = RULES.scenarios()["dogfight"]
    session = GameSession(RULES, scenario.build(scenario.default_options, seed), dice=SeededDice(seed),
                          game_id=f"volley-demo-{seed}")
    play(session, {"imperium": GreedyBot(seed), "orks": GreedyBot(seed + 1)})
    return session


@pytest.fixture(scope="module")
def sessions() -> list[GameSession]:
    return [played_dogfight(2, seed, (GreedyBot, GreedyBot), f"volley-{seed}", RULES) for seed in range(2)] + [
        played_dogfight(4, 7, (GreedyBot, BaselineBot), "volley-4", RULES), demo_dogfight(0)]


def volley_states(session: GameSession):
    """(seq, state) of every state of the game with a volley being resolved that has shots."""
    for seq in range(session.seq + 1):
        state = session.state_at(seq)
        if state.volley is not None and state.volley.shots:
            yield seq, state


def test_the_volley_drafts_have_every_field_of_their_structs_in_order():
    assert VolleyDraft.__slots__ == (*Volley.__struct_fields__, "_thawed_from")
    assert ShotDraft.__slots__ == (*ShotProgress.__struct_fields__, "_thawed_from")


def test_a_volley_thawed_and_frozen_unchanged_is_the_volley_it_was(sessions):
    seen = 0
    for session in sessions:
        for _, state in volley_states(session):
            volley = state.volley
            draft = thaw_volley(volley)
            assert type(draft.shots) is list and all(type(shot) is ShotDraft for shot in draft.shots)
            assert freeze_volley(draft) is volley
            seen += 1
    assert seen > 50


def test_a_shot_changed_in_the_draft_freezes_to_the_volley_with_that_shot_replaced_and_the_others_kept(sessions):
    for session in sessions:
        for _, state in volley_states(session):
            volley = state.volley
            draft = thaw_volley(volley)
            draft.shots[-1].hits += 2
            draft.shots[-1].done = True
            frozen = freeze_volley(draft)
            last = volley.shots[-1]
            assert frozen == msgspec.structs.replace(
                volley, shots=(*volley.shots[:-1], msgspec.structs.replace(last, hits=last.hits + 2, done=True)))
            assert all(a is b for a, b in zip(frozen.shots[:-1], volley.shots[:-1]))
            assert volley.shots[-1] is last and last.hits + 2 == frozen.shots[-1].hits  # the Struct is untouched


def test_a_fold_that_ends_inside_a_volley_returns_a_volley_of_shots_as_evolve_does(sessions):
    """Folds from the start to every shot event (the fold's volley draft is frozen at the end) and from the
    middle of each volley (the volley the fold starts from is a Struct, thawed at the first shot it changes)."""
    ended_inside = limited = 0
    for session in sessions:
        events = [envelope.event for envelope in session.events()]
        declared_at = None
        for index, event in enumerate(events):
            if type(event) is VolleyDeclared:
                declared_at = index
            if type(event) not in SHOT_EVENTS:
                continue
            expected = session.state_at(index + 1)
            limited += type(event) is WeaponFired and event.ammo_left is not None
            for start in (0, declared_at, index) if declared_at is not None else (0, index):
                start_state = session.state_at(start)
                before = encode(start_state)
                folded = RULES.fold(start_state, events[start:index + 1])
                assert encode(folded) == encode(expected), (index, start)
                assert encode(start_state) == before  # the volley it started from is not changed
                if folded.volley is not None:
                    assert type(folded.volley) is Volley and type(folded.volley.shots) is tuple
                    assert all(type(shot) is ShotProgress for shot in folded.volley.shots)
                    ended_inside += 1
    assert ended_inside > 100
    assert limited >= 5  # shots of weapons with limited ammunition, whose count the fold changes in place


def test_a_state_draft_with_its_volley_thawed_freezes_to_a_game_state_with_a_volley(sessions):
    for session in sessions[:1]:
        for _, state in volley_states(session):
            draft = thaw(state)
            draft.volley = thaw_volley(state.volley)
            assert freeze(draft) == state and type(freeze(draft).volley) is Volley
            draft.volley.shots[0].rolled = not state.volley.shots[0].rolled
            assert freeze(draft).volley.shots[0].rolled is not state.volley.shots[0].rolled
