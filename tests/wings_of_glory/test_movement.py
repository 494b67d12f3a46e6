"""MOVEMENT, ALTITUDE, Dive, Climb, Immelmann turn, Split-S, ILLEGAL MANOEUVRES, LEAVING THE PLAYING AREA,
OVERLAPPING DURING MOVEMENT, Collisions, FUEL, BARRAGE BALLOONS, PARACHUTE AND CABLE (PAC)."""

from __future__ import annotations

import msgspec
import pytest

from aero_events.core import SecretMismatch
from aero_events.core.orders import OrdersDiscarded, OrdersRevealed
from aero_events.rulesets.wings_of_glory import RuleOptions, WingsOfGloryRules
from aero_events.rulesets.wings_of_glory.events import (
    IllegalManoeuvre,
    PlaneMoved,
    PlaneOut,
    PlanesOverlap,
    TokensTaken,
)
from aero_events.rulesets.wings_of_glory.movement import resolve_movement
from aero_events.rulesets.wings_of_glory.setup import TargetSetup
from aero_events.rulesets.wings_of_glory.state import CRASHED, OUT, PLAN, RETURNED, SHOT_DOWN, Crewman
from tests.wings_of_glory.helpers import (
    RULES,
    at,
    console,
    console_of,
    cup,
    in_phase,
    plane,
    situation,
    step,
    tampered,
)

STRAIGHT, BANK_R, BANK_L, STALL, IMMELMANN, DIVE, CLIMB = 1, 3, 4, 11, 12, 17, 18


def two_planes(spit_card, bf_card=STRAIGHT, level=5, **spit):
    state = situation(plane("spit", "RAF", "spit1", 300, 300, 0, level), plane("bf", "Luftwaffe", "bf109e3", 600, 700, 180))
    state = console(console(state, "spit", spit_card, 2), "bf", bf_card, 2)
    state = at(state, "spit", **spit) if spit else state
    return in_phase(state, PLAN, turn=1)


def moved(events, pid):
    return next(e for e in events if isinstance(e, PlaneMoved) and e.plane == pid)


def test_the_card_moves_the_base_as_a_rigid_transform():
    """MOVEMENT: the card's arrow on the front blue line, the base's rear arrowhead on the card's arrowhead:
    the Spitfire's straight takes the peg 126.6 mm forward; a bank turns it 33 degrees."""
    _, state = step(RULES, two_planes(STRAIGHT), resolve_movement)
    assert (state.planes["spit"].pose.x, state.planes["spit"].pose.y) == (30000, 30000 + 12660)
    _, state = step(RULES, two_planes(BANK_R), resolve_movement)
    pose = state.planes["spit"].pose
    card = RULES.catalogue.decks["SPIT"].card(BANK_R)
    assert pose.heading == 3300 and (pose.x, pose.y) == (30000 + card.dx, 30000 + card.dy)


def test_all_planes_move_at_once_and_the_second_slot_moves_up():
    """GAME TURN (simultaneous) and MOVEMENT: the card in the second space moves to the first."""
    _events, state = step(RULES, two_planes(STRAIGHT), resolve_movement)
    bf = state.planes["bf"]
    assert (bf.pose.x, bf.pose.y, bf.pose.heading) == (60000, 70000 - 12660, 18000)
    assert console_of(state, "spit") == (2,)
    assert state.planes["spit"].flown == (STRAIGHT,)


def test_a_revealed_card_must_match_its_commitment():
    """Secret planning: the card revealed is the one committed to."""
    state = tampered(two_planes(STRAIGHT), "spit", BANK_R)
    with pytest.raises(SecretMismatch):
        step(RULES, state, resolve_movement)


def test_climb_counters_and_a_new_level():
    """Climb: a counter per climb; at the climb rate (3) the plane gains a level and the counters go."""
    _, state = step(RULES, two_planes(CLIMB, climb=1, flown=(BANK_R,)), resolve_movement)
    assert (state.planes["spit"].level, state.planes["spit"].climb) == (5, 2)
    _, state = step(RULES, two_planes(CLIMB, climb=2, flown=(BANK_R,)), resolve_movement)
    assert (state.planes["spit"].level, state.planes["spit"].climb) == (6, 0)


def test_loaded_planes_climb_slower():
    """FULL LOAD: the Climb Rate is increased by one."""
    _, state = step(RULES, two_planes(CLIMB, climb=2, loaded=True, flown=(BANK_R,)), resolve_movement)
    assert (state.planes["spit"].level, state.planes["spit"].climb) == (5, 3)


def test_no_climbing_above_the_ceiling():
    """Climb: no plane can climb above its maximum altitude (ceiling 10)."""
    _, state = step(RULES, two_planes(CLIMB, level=10, climb=2, flown=(BANK_R,)), resolve_movement)
    assert state.planes["spit"].level == 10


def test_dive_loses_a_level_and_keeps_or_removes_counters():
    """Dive: one level down; climb counters: all or none (option dive_climb_counters)."""
    _, state = step(RULES, two_planes(DIVE, climb=2, flown=(BANK_R,)), resolve_movement)
    assert (state.planes["spit"].level, state.planes["spit"].climb) == (4, 2)
    remover = WingsOfGloryRules(options=RuleOptions(dive_climb_counters="remove"))
    _, state = step(remover, two_planes(DIVE, climb=2, flown=(BANK_R,)), resolve_movement)
    assert (state.planes["spit"].level, state.planes["spit"].climb) == (4, 0)


def test_diving_below_level_one_crashes():
    """Dive: a plane that dives below level 1 crashes into the ground and is eliminated."""
    events, state = step(RULES, two_planes(DIVE, level=1, flown=(BANK_R,)), resolve_movement)
    assert state.planes["spit"].status == CRASHED
    assert any(isinstance(e, PlaneOut) and e.plane == "spit" for e in events)


def test_immelmann_reverses_and_gives_a_climb_counter():
    """Immelmann turn: the plane receives a climb counter as soon as the Immelmann is executed."""
    _, state = step(RULES, two_planes(IMMELMANN, flown=(STRAIGHT,)), resolve_movement)
    spit = state.planes["spit"]
    assert spit.pose.heading == 18000 and spit.climb == 1 and spit.executed == "immelmann"


def test_split_s_loses_a_counter_or_a_level():
    """Split-S: loses a climb counter; with none, loses a level and takes climb rate - 1 counters."""
    _, state = step(RULES, two_planes(IMMELMANN, flown=(STALL,), climb=1), resolve_movement)
    assert (state.planes["spit"].level, state.planes["spit"].climb, state.planes["spit"].executed) == (5, 0, "split_s")
    _, state = step(RULES, two_planes(IMMELMANN, flown=(STALL,)), resolve_movement)
    assert (state.planes["spit"].level, state.planes["spit"].climb) == (4, 2)


def test_an_illegal_card_becomes_a_straight_with_an_a_token_and_no_pilot_fire():
    """ILLEGAL MANOEUVRES: replaced by a straight, an A token for the stress, the pilot may not fire. A pilot
    wounded after planning an Immelmann flies it illegally (NOVICE OR WOUNDED PILOT)."""
    state = two_planes(IMMELMANN, flown=(STRAIGHT,), crew=(Crewman(role="pilot", wounds=1),))
    events, state = step(RULES, state, resolve_movement, cup(items=["A-1-plain"]))
    assert any(isinstance(e, IllegalManoeuvre) for e in events)
    spit = state.planes["spit"]
    assert spit.pose.heading == 0 and spit.pose.y == 30000 + 12660 and spit.illegal and spit.damage == 1
    taken = next(e for e in events if isinstance(e, TokensTaken))
    assert taken.letters == "A" and taken.plane == "spit"


def test_leaving_the_table_at_the_end_of_a_manoeuvre():
    """LEAVING THE PLAYING AREA: out of the game if the manoeuvre ends outside; passing outside is allowed."""
    _events, state = step(RULES, at(two_planes(STRAIGHT), "spit", pose=(300, 880, 0)), resolve_movement)
    assert state.planes["spit"].status == OUT
    state = at(two_planes(STALL), "spit", pose=(90, 300, 270))
    _, after = step(RULES, state, resolve_movement)
    spit = after.planes["spit"]
    assert min(x for x, _ in spit.swept) < 0  # the card reached past the west edge
    assert spit.status == "flying" and spit.pose.x == 9000 - 7200


def test_fuel_use_and_running_dry():
    """FUEL: one point a manoeuvre, none for a dive, two for a climb or an Immelmann; zero on the table is
    eliminated (scored as shot down); leaving by another edge than its own likewise."""
    state = msgspec.structs.replace(two_planes(CLIMB, fuel=5, own_edge="south", flown=(BANK_R,)), fuel_rule=True)
    _, after = step(RULES, state, resolve_movement)
    assert after.planes["spit"].fuel == 3
    _, after = step(RULES, at(state, "spit", fuel=2), resolve_movement)
    assert after.planes["spit"].status == SHOT_DOWN
    exit_north = at(console(state, "spit", STRAIGHT, 2), "spit", pose=(300, 880, 0))
    _, after = step(RULES, exit_north, resolve_movement)
    assert after.planes["spit"].status == SHOT_DOWN
    exit_south = at(console(state, "spit", STRAIGHT, 2), "spit", pose=(300, 20, 180))
    _, after = step(RULES, exit_south, resolve_movement)
    assert after.planes["spit"].status == RETURNED


def test_overlap_replaced_by_card_and_collision():
    """OVERLAPPING DURING MOVEMENT and Collisions: models too close to stand overlapping collide when at the same
    level with climb counters alike; each draws a B token, face up; without a 0 both count points only."""
    state = situation(plane("spit", "RAF", "spit1", 300, 300, 0, 5), plane("bf", "Luftwaffe", "bf109e3", 300, 300 + 126.6 + 126.6 - 5, 180, 5))
    state = in_phase(console(console(state, "spit", STRAIGHT, 2), "bf", STRAIGHT, 2), PLAN, turn=1)
    events, after = step(RULES, state, resolve_movement, cup(items=["B-3-crew_hit", "B-2-plain"]))
    overlap = next(e for e in events if isinstance(e, PlanesOverlap))
    assert overlap.replaced
    assert (after.planes["bf"].damage, after.planes["spit"].damage) == (3, 2)
    assert after.planes["bf"].crew[0].wounds == 0  # special damage ignored


def test_a_zero_cancels_both_collision_tokens():
    """Collisions: if either token is a 0, both are discarded."""
    state = situation(plane("spit", "RAF", "spit1", 300, 300, 0, 5), plane("bf", "Luftwaffe", "bf109e3", 300, 548, 180, 5))
    state = in_phase(console(console(state, "spit", STRAIGHT, 2), "bf", STRAIGHT, 2), PLAN, turn=1)
    _, after = step(RULES, state, resolve_movement, cup(items=["B-4-plain", "B-0-plain"]))
    assert after.planes["spit"].damage == 0 and after.planes["bf"].damage == 0
    assert after.pools["B"].size == 40


def test_no_collision_at_different_levels_or_climb_counters():
    """Collisions, conditions 2 and 3: same altitude, and both or neither with climb counters."""
    state = situation(plane("spit", "RAF", "spit1", 300, 300, 0, 5), plane("bf", "Luftwaffe", "bf109e3", 300, 548, 180, 5))
    state = in_phase(console(console(state, "spit", STRAIGHT, 2), "bf", STRAIGHT, 2), PLAN, turn=1)
    events, after = step(RULES, at(state, "spit", climb=1), resolve_movement)
    assert after.pools["B"].size == 40 and any(isinstance(e, PlanesOverlap) for e in events)


def test_crossing_a_barrage_balloon_low_costs_four_c_tokens():
    """BARRAGE BALLOONS: crossing the card at altitude 1 or 2 takes four C tokens; higher planes fly over."""
    balloon = (TargetSetup(id="balloon", kind="balloon", side="RAF", x="600", y="500"),)
    state = situation(plane("spit", "RAF", "spit1", 100, 100, 0, 5),
                      plane("bf", "Luftwaffe", "bf109e3", 600, 420, 0, 2), targets=balloon)
    state = in_phase(console(console(state, "spit", STRAIGHT, 2), "bf", STRAIGHT, 2), PLAN, turn=1)
    events, _after = step(RULES, state, resolve_movement)
    taken = [e for e in events if isinstance(e, TokensTaken) and e.plane == "bf"]
    assert taken and taken[0].letters == "CCCC"
    _, high = step(RULES, at(state, "bf", level=3), resolve_movement)
    assert high.pools["C"].size == 40


def test_acrobatic_pilot_takes_recovery_counters_when_flying_the_card():
    """Acrobatic Pilot: recovery counters are placed when the non-straight card is carried out; flown while
    counters remain it is an illegal manoeuvre."""
    ace = (Crewman(role="pilot", skills=("acrobatic",)),)
    events, after = step(RULES, two_planes(BANK_R, flown=(STRAIGHT, IMMELMANN), crew=ace), resolve_movement)
    assert after.planes["spit"].crew[0].recovery == 3 and after.planes["spit"].executed == "bank"
    tired = (Crewman(role="pilot", skills=("acrobatic",), recovery=2),)
    events, after = step(RULES, two_planes(BANK_R, flown=(STRAIGHT, IMMELMANN), crew=tired), resolve_movement)
    assert any(isinstance(e, IllegalManoeuvre) for e in events)


def test_crossing_a_launched_pac_costs_four_c_tokens():
    """PARACHUTE AND CABLE (PAC): crossing it at altitude 1 or 2 while it remains takes four C tokens."""
    pac = (TargetSetup(id="pac", kind="pac", side="RAF", x="600", y="500"),)
    state = situation(plane("spit", "RAF", "spit1", 100, 100, 0, 5),
                      plane("bf", "Luftwaffe", "bf109e3", 600, 420, 0, 1), targets=pac)
    state = in_phase(console(console(state, "spit", STRAIGHT, 2), "bf", STRAIGHT, 2), PLAN, turn=1)
    _, unlaunched = step(RULES, state, resolve_movement)
    assert unlaunched.pools["C"].size == 40
    launched = msgspec.structs.replace(state, targets={"pac": msgspec.structs.replace(state.targets["pac"],
                                                                                       launched=True, phases_left=6)})
    _, after = step(RULES, launched, resolve_movement)
    assert after.pools["C"].size == 36 and after.targets["pac"].phases_left == 5


def test_the_card_of_a_plane_out_of_play_is_put_aside_unseen():
    """MOVEMENT reveals the cards of the planes in play; a plane shot down with a card planned never shows it
    (the card is put aside face down), and the set-up step's orders are then settled."""
    state = at(two_planes(STRAIGHT, bf_card=BANK_R), "bf", status=SHOT_DOWN)
    events, after = step(RULES, state, resolve_movement)
    revealed = next(e for e in events if isinstance(e, OrdersRevealed))
    assert [order.slot for order in revealed.orders] == ["spit"]
    put_aside = next(e for e in events if isinstance(e, OrdersDiscarded))
    assert put_aside.slots == ("bf",) and put_aside.step == "setup"
    assert [orders.step for orders in after.orders] == ["turn 1"]
    assert console_of(after, "spit") == (2,)
