"""SETUP, PLANNING, Steep Manoeuvres, SPECIAL MANOEUVRES, FULL LOAD, NOVICE OR WOUNDED PILOT, Rudder jammed,
Engine Damage, DIVE BOMBING sequencing, ALTITUDE (the floor)."""

from __future__ import annotations

import pytest

from aero_events.core import RuleError
from aero_events.rulesets.wings_of_glory import RuleOptions, WingsOfGloryRules
from aero_events.rulesets.wings_of_glory.commands import ChangeFloor, PlanCard
from aero_events.rulesets.wings_of_glory.events import CardPlanned
from aero_events.rulesets.wings_of_glory.planning import legal_cards
from aero_events.rulesets.wings_of_glory.state import PLAN, Crewman
from tests.wings_of_glory.helpers import RULES, at, console, console_of, in_phase, plane, run, situation

STRAIGHT, BANK_R, STALL, IMMELMANN, STEEP_TURN_R, DIVE, CLIMB = 1, 3, 11, 12, 15, 17, 18


def spitfire_state(**changes):
    state = situation(plane("spit", "RAF", "spit1", 450, 450, 0, 5), plane("bf", "Luftwaffe", "bf109e3", 450, 800, 180))
    return at(state, "spit", **changes) if changes else state


def planning(flown=(), slot1=STRAIGHT, **changes):
    """Turn 2's plan phase, ``slot1`` face down in the Spitfire's first slot."""
    return in_phase(console(spitfire_state(flown=tuple(flown), **changes), "spit", slot1), PLAN, turn=2)


def can_plan(state, card: int) -> bool:
    return card in legal_cards(RULES, state, state.planes["spit"])


def test_setup_forbids_steep_cards():
    """SETUP: steep manoeuvres may not be chosen during setup."""
    state = spitfire_state()
    assert not can_plan(state, STALL) and not can_plan(state, DIVE) and can_plan(state, BANK_R)
    with pytest.raises(RuleError, match="SETUP"):
        run(RULES, state, PlanCard(player="RAF", plane="spit", card=STEEP_TURN_R))


def test_setup_card_goes_face_down_in_the_first_slot():
    """SETUP: the card goes face down on the first space of the console; others see only a commitment."""
    events, state = run(RULES, spitfire_state(), PlanCard(player="RAF", plane="spit", card=BANK_R))
    planned = next(e for e in events if isinstance(e, CardPlanned))
    assert (planned.step, planned.slot) == ("setup", "spit") and console_of(state, "spit") == (BANK_R,)
    theirs = next(s for s in RULES.view(state, "Luftwaffe")["orders"][0]["slots"] if s["slot"] == "spit")
    assert theirs["committed"] and theirs["order"] is None and not theirs["visible"]
    mine = next(s for s in RULES.view(state, "RAF")["orders"][0]["slots"] if s["slot"] == "spit")
    assert mine["order"] == BANK_R
    assert RULES.is_secret_command(PlanCard(player="RAF", plane="spit", card=BANK_R))


def test_planning_goes_into_the_second_slot_and_needs_an_unused_card():
    """PLANNING: choose an unused card; it goes face down in the second space."""
    state = planning(slot1=BANK_R)
    assert not can_plan(state, BANK_R)
    with pytest.raises(RuleError, match="unused card"):
        run(RULES, state, PlanCard(player="RAF", plane="spit", card=BANK_R))
    _, after = run(RULES, state, PlanCard(player="RAF", plane="spit", card=5))
    assert console_of(after, "spit") == (BANK_R, 5)


def test_no_two_steep_cards_in_a_row():
    """Steep Manoeuvres: at least one non-steep card must be played before another steep manoeuvre."""
    assert not can_plan(planning(slot1=STALL), CLIMB)
    assert can_plan(planning(flown=[STALL], slot1=BANK_R), CLIMB)


def test_loaded_or_novice_planes_need_two_non_steep_cards_between_steep_ones():
    """FULL LOAD and NOVICE OR WOUNDED PILOT: an additional non-steep manoeuvre between steep ones."""
    for changes in ({"loaded": True}, {"novice": True}, {"crew": (Crewman(role="pilot", wounds=1),)}):
        assert not can_plan(planning(flown=[STALL], slot1=BANK_R, **changes), DIVE)
        assert can_plan(planning(flown=[STALL, 4], slot1=BANK_R, **changes), DIVE)


def test_immelmann_needs_a_straight_before_it():
    """Immelmann turn: play a straight just before planning the Immelmann; a dive is not a straight."""
    assert can_plan(planning(slot1=STRAIGHT), IMMELMANN)
    assert not can_plan(planning(slot1=BANK_R), IMMELMANN)
    assert not can_plan(planning(flown=[STRAIGHT], slot1=DIVE), IMMELMANN)


def test_a_straight_must_follow_the_immelmann():
    """Immelmann turn: another straight just after the Immelmann."""
    state = planning(flown=[STRAIGHT], slot1=IMMELMANN)
    assert legal_cards(RULES, state, state.planes["spit"]) == [1, 2]


def test_two_immelmanns_are_separated_by_two_straights():
    """Immelmann turn: the straight after an Immelmann may not also be the straight before a second one."""
    assert not can_plan(planning(flown=[STRAIGHT, IMMELMANN], slot1=STRAIGHT), IMMELMANN)
    assert can_plan(planning(flown=[STRAIGHT, IMMELMANN, 2], slot1=STRAIGHT), IMMELMANN)


def test_split_s_is_the_immelmann_card_after_a_stall():
    """Split-S: the Immelmann card with a stall before it and a straight after it."""
    assert can_plan(planning(flown=[BANK_R], slot1=STALL), IMMELMANN)
    state = planning(flown=[STALL], slot1=IMMELMANN)
    assert not can_plan(state, BANK_R) and can_plan(state, STRAIGHT)


def test_novice_or_wounded_pilots_and_loaded_planes_may_not_use_the_immelmann_card():
    """Immelmann turn / Split-S / NOVICE OR WOUNDED PILOT / FULL LOAD."""
    assert not can_plan(planning(novice=True), IMMELMANN)
    assert not can_plan(planning(loaded=True), IMMELMANN)
    assert not can_plan(planning(flown=[BANK_R], slot1=STALL, novice=True), IMMELMANN)


def test_acrobatic_pilot_may_plan_a_non_straight_after_an_immelmann():
    """Acrobatic Pilot: a non-straight manoeuvre after an Immelmann or a Split-S."""
    ace = (Crewman(role="pilot", skills=("acrobatic",)),)
    assert can_plan(planning(flown=[STRAIGHT], slot1=IMMELMANN, crew=ace), BANK_R)


def test_rudder_jam_forbids_turning_that_way_for_two_plans():
    """Rudder jammed: the next two cards planned cannot be manoeuvres in the direction of the jammed rudder."""
    state = planning(slot1=STRAIGHT, rudder="right", rudder_plans=2)
    assert not can_plan(state, BANK_R) and not can_plan(state, STEEP_TURN_R) and can_plan(state, 4)
    _, after = run(RULES, state, PlanCard(player="RAF", plane="spit", card=4))
    assert after.planes["spit"].rudder_plans == 1


def test_engine_damage_forbids_climb_and_immelmann():
    """Engine Damage, one engine, one damage: may not plan a climb or an Immelmann."""
    state = planning(flown=[BANK_R], slot1=STRAIGHT, engine=1)
    assert not can_plan(state, CLIMB) and not can_plan(state, IMMELMANN)


def test_after_a_bomb_dive_card_the_other_a_non_steep_or_a_climb():
    """DIVE BOMBING: the next card after a bomb dive card is the other one, a non-steep card or a climb."""
    state = situation(plane("stuka", "Luftwaffe", "ju87b2", 450, 450, 0, 4), plane("s", "RAF", "spit1", 100, 100, 0))
    state = in_phase(console(at(state, "stuka", flown=(2,)), "stuka", 14), PLAN, turn=2)
    cards = legal_cards(RULES, state, state.planes["stuka"])
    assert 15 in cards and 13 in cards and 2 in cards
    assert 12 not in cards and 10 not in cards and 8 not in cards


def test_illegal_plans_may_be_penalised_instead_of_refused():
    """ILLEGAL MANOEUVRES (option illegal_plans=penalise, recording a real table's error)."""
    lenient = WingsOfGloryRules(options=RuleOptions(illegal_plans="penalise"))
    state = planning(slot1=STALL)
    _, after = run(lenient, state, PlanCard(player="RAF", plane="spit", card=CLIMB))
    assert console_of(after, "spit") == (STALL, CLIMB)


def test_the_floor_is_bookkeeping():
    """ALTITUDE: before a move any player may change the floor; altitudes stay, pegs change."""
    state = planning()
    _, after = run(RULES, state, ChangeFloor(player="Luftwaffe", floor=2))
    assert after.floor == 2 and after.planes["spit"].level == 5
    assert "(3 pegs)" in next(p for p in RULES.scene(after).pieces if p.id == "spit").level_label
    with pytest.raises(RuleError, match="ALTITUDE"):
        run(RULES, state, ChangeFloor(player="RAF", floor=4))


def test_a_climb_is_not_a_stall_and_a_dive_is_not_a_straight():
    """Climb / Dive: the climb card is not a stall (no Split-S after it); the dive card is not a straight."""
    assert not can_plan(planning(flown=[BANK_R], slot1=CLIMB), IMMELMANN)
    assert not can_plan(planning(flown=[BANK_R], slot1=DIVE), IMMELMANN)
