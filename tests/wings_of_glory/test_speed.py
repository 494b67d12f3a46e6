"""Speed work (issue 18) that must not change a rule: the fold routes each event type straight to its part,
and a reveal is checked against its commitment every time it is folded (Secret planning)."""

from __future__ import annotations

import msgspec
import pytest

from aero_events.bots import make_bot, play
from aero_events.core import GameSession, SecretMismatch, SeededDice
from aero_events.core.decider import state_hash
from aero_events.core.orders import OrdersRevealed
from aero_events.rulesets.wings_of_glory.movement import resolve_movement
from aero_events.rulesets.wings_of_glory.state import PLAN
from tests.wings_of_glory.helpers import RULES, console, in_phase, plane, situation, step, tampered

STRAIGHT, BANK_R = 1, 3


def two_planes():
    state = situation(plane("spit", "RAF", "spit1", 300, 300, 0, 5), plane("bf", "Luftwaffe", "bf109e3", 600, 700, 180))
    state = console(console(state, "spit", STRAIGHT, 2), "bf", STRAIGHT, 2)
    return in_phase(state, PLAN, turn=1)


def test_a_forged_card_is_refused_even_after_the_true_card_was_checked():
    """Secret planning: "the card revealed is the one committed to". The true reveal is checked and
    accepted; the same commitment opened on another card is refused."""
    state = two_planes()
    events, _ = step(RULES, state, resolve_movement)
    reveal = next(e for e in events if isinstance(e, OrdersRevealed))
    RULES.evolve(state, reveal)  # checked once more
    with pytest.raises(SecretMismatch):
        step(RULES, tampered(state, "spit", BANK_R), resolve_movement)
    forged = msgspec.structs.replace(reveal, orders=tuple(
        msgspec.structs.replace(shown, order=BANK_R) if shown.slot == "spit" else shown for shown in reveal.orders))
    with pytest.raises(SecretMismatch):
        RULES.evolve(state, forged)


def test_a_reveal_with_another_salt_is_refused():
    """Secret planning: a reveal opens its commitment with the salt it was sealed with, no other."""
    state = two_planes()
    events, _ = step(RULES, state, resolve_movement)
    reveal = next(e for e in events if isinstance(e, OrdersRevealed))
    RULES.evolve(state, reveal)
    salted = msgspec.structs.replace(reveal, orders=tuple(
        msgspec.structs.replace(shown, salt=shown.salt[::-1]) for shown in reveal.orders))
    with pytest.raises(SecretMismatch):
        RULES.evolve(state, salted)


def test_fold_gives_the_same_states_as_evolving_event_by_event():
    """GAME TURN: a whole bot game folded at once ends in the state its events reach one by one (the session's
    checkpoints and issued commands included, which change nothing)."""
    rules = RULES
    build = rules.scenarios()["dogfight"].build
    session = GameSession(rules, build({}, 3), dice=SeededDice(3), metadata={"reproducible_salts": True})
    play(session, {p: make_bot(rules, "hunter", f"3:{p}") for p in rules.players(session.state)})
    events = [env.event for env in session.events()]
    assert any(type(e).core_event for e in events)
    state = session.game.initial_state
    for event in events:
        state = rules.evolve(state, event)
    assert state_hash(rules.fold(session.game.initial_state, events)) == state_hash(state) == session.state_hash()


def test_a_fire_step_ends_exactly_when_nobody_has_a_command_left():
    """GAME TURN, fire sub-phases: whether a player still has something to do is answered without listing every
    shot, and agrees with the commands listed, in every fire sub-phase of a bot game."""
    from aero_events.rulesets.wings_of_glory import firing
    from aero_events.rulesets.wings_of_glory.state import FIRE

    rules = RULES
    build = rules.scenarios()["dogfight"].build
    session = GameSession(rules, build({}, 5), dice=SeededDice(5), metadata={"reproducible_salts": True})
    play(session, {p: make_bot(rules, "hunter", f"5:{p}") for p in rules.players(session.state)})
    state = session.game.initial_state
    asked = answered = 0
    for env in session.events():
        state = rules.evolve(state, env.event)
        if state.phase == FIRE:
            for player in state.players:
                has = firing.has_commands(rules, state, player)
                assert has == bool(firing.legal_commands(rules, state, player))
                asked += 1
                answered += has
    assert answered and asked > answered
