"""Special Rules, Movement Phase, Take Off/Land, Fly, Soar and Fly High (the supplement's headings)."""

from __future__ import annotations

import pytest

from aero_events.core import DiceCup, RuleError, SeededDice, TapeDice
from aero_events.rulesets.whfb_flying import commands as cmd
from aero_events.rulesets.whfb_flying.combat import steadfast
from aero_events.rulesets.whfb_flying.events import FlightMade, UnitFled, UnitRallied
from aero_events.rulesets.whfb_flying.fleeing import flee
from aero_events.rulesets.whfb_flying.setup import GameSetup
from aero_events.rulesets.whfb_flying.state import FLOWN_HIGH, SHOOTING, VANGUARD
from aero_events.rulesets.whfb_flying.turn import Emitter, begin_turn

from .helpers import IN, RULES, battle, decide, of_type, replace, unit, with_unit

IDLE = unit("n-idle", "spearmen", 10, 44, 2)  # keeps north's Movement phase open


def test_flying_units_start_the_battle_on_the_ground():
    """Movement Phase: "Flying units start the battle at their deployed positions on the ground"."""
    state = RULES.initial_state(GameSetup())
    flyers = [u for u in state.units.values() if RULES.profile(u).flyer]
    assert flyers and not any(u.in_air for u in flyers)


def test_each_flying_unit_performs_one_fly_move_per_movement_phase():
    """Movement Phase: "Each Flying unit may only perform one of the following Fly moves per movement phase".
    """
    state = battle([unit("n-peg", "pegasus_knights", 3, 10, 10), IDLE], [unit("s-sp", "spearmen", 20, 30, 30, 180)],
                   air=("n-peg",))
    _, after = decide(state, cmd.Fly(player="north", unit="n-peg", heading=0, distance=4 * IN))
    with pytest.raises(RuleError, match="one fly move"):
        decide(after, cmd.Fly(player="north", unit="n-peg", heading=0, distance=4 * IN))


def test_flyers_may_fly_directly_above_a_ground_unit_but_are_not_engaged():
    """Movement Phase: "Flying units may Fly directly above a ground unit, but not be engaged with them"."""
    state = battle([unit("n-peg", "pegasus_knights", 3, 20, 12), IDLE], [unit("s-sp", "spearmen", 20, 20, 20)],
                   air=("n-peg",))
    _, after = decide(state, cmd.Fly(player="north", unit="n-peg", heading=0, distance=8 * IN))
    assert after.units["n-peg"].pose.y == 20 * IN
    assert not after.combats


def test_a_token_marks_units_in_the_air():
    """Movement Phase: "use a token to mark any units that are in the air": the scene's level and AIR tag."""
    state = battle([unit("n-peg", "pegasus_knights", 3, 10, 10)], [unit("s-sp", "spearmen", 20, 30, 30, 180)],
                   air=("n-peg",))
    pieces = {p.id: p for p in RULES.scene(state).pieces}
    assert pieces["n-peg"].level == 1 and "AIR" in pieces["n-peg"].tags
    assert pieces["s-sp"].level == 0 and "AIR" not in pieces["s-sp"].tags


def test_take_off_reaches_the_air_and_may_fly_its_normal_move_after():
    """Take Off/Land: "They reach 10 inches above the ground ... They can Fly or move on the ground at their
    normal M value on the same turn, in either order"."""
    state = battle([unit("n-peg", "pegasus_knights", 3, 10, 10), IDLE], [unit("s-sp", "spearmen", 20, 30, 30, 180)])
    _, after = decide(state, cmd.TakeOff(player="north", unit="n-peg", heading=0, distance=8 * IN))
    peg = after.units["n-peg"]
    assert peg.in_air and peg.flight == "take off" and peg.pose.y == 18 * IN


def test_take_off_in_either_order_ground_first_is_blocked_by_a_unit_the_air_move_is_not():
    """Take Off/Land: the move on the ground before taking off cannot pass through a unit; flown after, it can.
    """
    state = battle([unit("n-peg", "pegasus_knights", 3, 10, 10), unit("n-sp", "spearmen", 20, 10, 16), IDLE],
                   [unit("s-sp", "spearmen", 20, 40, 30, 180)])
    with pytest.raises(RuleError):
        decide(state, cmd.TakeOff(player="north", unit="n-peg", heading=0, distance=8 * IN, ground_first=True))
    _, after = decide(state, cmd.TakeOff(player="north", unit="n-peg", heading=0, distance=8 * IN))
    assert after.units["n-peg"].in_air


def test_take_off_cannot_march():
    """Take Off/Land: "They cannot March ... this turn": no more than M."""
    state = battle([unit("n-peg", "pegasus_knights", 3, 10, 10), IDLE], [unit("s-sp", "spearmen", 20, 40, 30, 180)])
    with pytest.raises(RuleError, match="up to 8"):
        decide(state, cmd.TakeOff(player="north", unit="n-peg", heading=0, distance=8 * IN + 1))


def test_take_off_cannot_charge_this_turn():
    """Take Off/Land: "They cannot ... Charge this turn"."""
    state = battle([unit("n-peg", "pegasus_knights", 3, 10, 10), IDLE],
                   [unit("s-harp", "harpies", 5, 10, 24, 180)], air=("s-harp",))
    _, after = decide(state, cmd.TakeOff(player="north", unit="n-peg"))
    with pytest.raises(RuleError):
        decide(after, cmd.Intercept(player="north", unit="n-peg", target="s-harp"))


def test_land_then_move_on_the_ground():
    """Take Off/Land: landing leaves the air; the normal move may follow on the ground."""
    state = battle([unit("n-peg", "pegasus_knights", 3, 10, 10), IDLE], [unit("s-sp", "spearmen", 20, 40, 30, 180)],
                   air=("n-peg",))
    _, after = decide(state, cmd.Land(player="north", unit="n-peg", heading=9000, distance=8 * IN, ground_first=True))
    peg = after.units["n-peg"]
    assert not peg.in_air and peg.flight == "land" and peg.pose.x == 18 * IN


def test_fly_is_a_normal_move_of_m():
    """Fly: "Similar to normal Movements on the ground": up to M."""
    state = battle([unit("n-peg", "pegasus_knights", 3, 10, 10), IDLE], [unit("s-sp", "spearmen", 20, 40, 30, 180)],
                   air=("n-peg",))
    decide(state, cmd.Fly(player="north", unit="n-peg", heading=0, distance=8 * IN))
    with pytest.raises(RuleError, match="Fly"):
        decide(state, cmd.Fly(player="north", unit="n-peg", heading=0, distance=8 * IN + 1))


def test_fly_allows_a_reform():
    """Fly: "Unit reform is allowed"."""
    state = battle([unit("n-peg", "pegasus_knights", 3, 10, 10), IDLE], [unit("s-sp", "spearmen", 20, 40, 30, 180)],
                   air=("n-peg",))
    _, after = decide(state, cmd.Fly(player="north", unit="n-peg", heading=0, distance=2 * IN, files=1))
    assert after.units["n-peg"].files == 1


def test_soar_flies_twice_m():
    """Soar: "Flies at 2M"."""
    state = battle([unit("n-peg", "pegasus_knights", 3, 10, 4), IDLE], [unit("s-sp", "spearmen", 20, 40, 30, 180)],
                   air=("n-peg",))
    _, after = decide(state, cmd.Soar(player="north", unit="n-peg", heading=0, distance=16 * IN))
    assert after.units["n-peg"].pose.y == 20 * IN and after.units["n-peg"].flight == "soar"
    with pytest.raises(RuleError, match="Soar"):
        decide(state, cmd.Soar(player="north", unit="n-peg", heading=0, distance=16 * IN + 1))


def test_soar_allows_no_reform():
    """Soar: "No Unit reforms or joining allowed"."""
    state = battle([unit("n-peg", "pegasus_knights", 3, 10, 4), IDLE], [unit("s-sp", "spearmen", 20, 40, 30, 180)],
                   air=("n-peg",))
    with pytest.raises(RuleError) as refused:
        decide(state, cmd.Soar(player="north", unit="n-peg", heading=0, distance=8 * IN, files=1))
    assert refused.value.rule == "Soar"


def test_fly_high_leaves_the_game_as_if_fled_off_the_table():
    """Fly High: "Similar to Fleeing off the table ... removed from the game": the enemy scores it."""
    state = battle([unit("n-peg", "pegasus_knights", 3, 10, 10), IDLE], [unit("s-sp", "spearmen", 20, 40, 30, 180)],
                   air=("n-peg",))
    _, after = decide(state, cmd.FlyHigh(player="north", unit="n-peg"))
    assert after.units["n-peg"].status == FLOWN_HIGH
    assert RULES.outcome(after).scores["south"] == 3 * 40


def test_fly_high_is_a_move_from_the_air():
    """Fly High: units "climb high out of the battle": a unit on the ground must take off first."""
    state = battle([unit("n-peg", "pegasus_knights", 3, 10, 10), IDLE], [unit("s-sp", "spearmen", 20, 40, 30, 180)])
    with pytest.raises(RuleError):
        decide(state, cmd.FlyHigh(player="north", unit="n-peg"))


def test_flyers_have_swiftstride():
    """Special Rules: "Flying Models have Swiftstride": a flee rolls 3D6 and discards the lowest."""
    state = battle([unit("n-peg", "pegasus_knights", 3, 24, 10), unit("n-sp", "spearmen", 10, 10, 10)],
                   [unit("s-sp", "spearmen", 20, 40, 30, 180)])
    out = Emitter(state, RULES.evolve)
    flee(RULES, out, DiceCup(TapeDice([1, 5, 6, 1, 5])), "n-peg", (24 * IN, 0), reason="test")
    flee(RULES, out, DiceCup(TapeDice([1, 5])), "n-sp", (10 * IN, 0), reason="test")
    fled = {e.unit: e.distance for e in of_type(out.events, UnitFled)}
    assert fled == {"n-peg": 11 * IN, "n-sp": 6 * IN}


def test_flyers_cannot_be_steadfast():
    """Special Rules: "They cannot be Steadfast" (a ground unit with more ranks than the winner is)."""
    state = battle([unit("n-peg", "pegasus_knights", 3, 10, 10), unit("n-sp", "spearmen", 20, 20, 10)],
                   [unit("s-wyv", "wyvern_lord", 1, 40, 30, 180)])
    peg = with_unit(state, "n-peg", files=1).units["n-peg"]
    assert not steadfast(RULES, peg, [state.units["s-wyv"]])
    assert steadfast(RULES, state.units["n-sp"], [state.units["s-wyv"]])


def test_flyers_cannot_shoot_on_the_march():
    """Special Rules: "They have Skirmishers rule, but they cannot Shoot on the March"."""
    state = battle([unit("n-peg", "pegasus_knights", 3, 10, 10)], [unit("s-sp", "spearmen", 20, 10, 18, 180)],
                   phase=SHOOTING)
    state = with_unit(state, "n-peg", moved=True, marched=True)
    with pytest.raises(RuleError) as refused:
        decide(state, cmd.Shoot(player="north", unit="n-peg", target="s-sp"))
    assert refused.value.rule == "Special Rules"


def test_flyers_move_as_skirmishers_turning_freely_ranked_units_pay_for_the_wheel():
    """Special Rules: flyers "have Skirmishers rule": they turn about for nothing; a ranked unit's wheel costs.
    """
    state = battle([unit("n-peg", "pegasus_knights", 3, 10, 20), unit("n-sp", "spearmen", 20, 30, 20), IDLE],
                   [unit("s-sp", "spearmen", 20, 40, 34, 180)])
    _, after = decide(state, cmd.Move(player="north", unit="n-peg", heading=18000, distance=8 * IN))
    assert after.units["n-peg"].pose.heading == 18000
    with pytest.raises(RuleError, match="needs"):
        decide(state, cmd.Move(player="north", unit="n-sp", heading=9000, distance=4 * IN))


def test_flyers_have_fast_cavalry_a_rallied_flyer_may_still_move():
    """Special Rules: flyers have "Fast Cavalry": after rallying they may move (host: Feigned Flight); a rallied
    ranked unit may not."""
    state = battle([unit("n-peg", "pegasus_knights", 3, 10, 10), unit("n-sp", "spearmen", 20, 30, 10)],
                   [unit("s-sp", "spearmen", 20, 40, 30, 180)], active="south")
    state = with_unit(with_unit(state, "n-peg", fleeing=True), "n-sp", fleeing=True)
    out = Emitter(state, RULES.evolve)
    begin_turn(RULES, out, DiceCup(TapeDice([1, 1, 1, 1])), 2, "north")
    assert {e.unit: e.may_move for e in of_type(out.events, UnitRallied)} == {"n-peg": True, "n-sp": False}
    assert not out.state.units["n-peg"].moved and out.state.units["n-sp"].moved


def test_vanguard_is_a_ground_move_or_a_take_off():
    """Special Rules: "Vanguard may be used to make a normal move on the ground, or perform the Take off"."""
    state = battle([unit("n-peg", "pegasus_knights", 3, 10, 10), unit("n-sp", "spearmen", 20, 30, 10)],
                   [unit("s-sp", "spearmen", 20, 40, 30, 180)], phase=VANGUARD, vanguard_done=())
    events, after = decide(state, cmd.VanguardMove(player="north", unit="n-peg", heading=0, distance=0, take_off=True))
    assert after.units["n-peg"].in_air and of_type(events, FlightMade)
    _, after = decide(state, cmd.VanguardMove(player="north", unit="n-peg", heading=0, distance=8 * IN))
    assert after.units["n-peg"].pose.y == 18 * IN and not after.units["n-peg"].in_air
    with pytest.raises(RuleError):
        decide(state, cmd.VanguardMove(player="north", unit="n-peg", heading=0, distance=8 * IN + 1))
    with pytest.raises(RuleError):
        decide(state, cmd.VanguardMove(player="north", unit="n-sp", heading=0, distance=4 * IN))


def test_an_illegal_command_appends_no_event():
    """Bad input: a refused command raises RuleError and changes nothing."""
    state = battle([unit("n-peg", "pegasus_knights", 3, 10, 10), IDLE], [unit("s-sp", "spearmen", 20, 40, 30, 180)])
    dice = DiceCup(SeededDice(1))
    with pytest.raises(RuleError):
        RULES.decide(state, cmd.Fly(player="north", unit="n-peg", heading=0, distance=IN), dice)
    assert dice.rolled == []


def _joining_state():
    north = [unit("n-peg", "pegasus_knights", 3, 10, 30, 180), IDLE]
    south = [unit("s-wyv", "wyvern_lord", 1, 30, 10), unit("s-harp", "harpies", 5, 36, 10)]
    return battle(north, south, air=("s-wyv", "s-harp", "n-peg"), active="south")


def test_fly_allows_a_character_to_join_a_unit_soar_does_not():
    """Fly: "Unit joining is allowed"; Soar: "No Unit reforms or joining allowed"."""
    state = _joining_state()
    _, after = decide(state, cmd.Fly(player="south", unit="s-wyv", heading=0, distance=6 * IN, join="s-harp"))
    wyvern = after.units["s-wyv"]
    assert wyvern.joined == "s-harp" and wyvern.alive and not wyvern.in_play
    assert "s-wyv" not in {u.id for u in after.side("south")}
    pieces = {p.id: p for p in RULES.scene(after).pieces}
    assert pieces["s-wyv"].detail.endswith("with s-harp") and (pieces["s-wyv"].x, pieces["s-wyv"].y) == \
        (pieces["s-harp"].x, pieces["s-harp"].y)
    with pytest.raises(RuleError) as refused:
        decide(state, cmd.Soar(player="south", unit="s-wyv", heading=0, distance=6 * IN, join="s-harp"))
    assert refused.value.rule == "Soar"
    with pytest.raises(RuleError, match="not a character"):
        decide(with_unit(state, "s-harp", side="south"), cmd.Fly(player="south", unit="s-harp", heading=0,
                                                                  distance=4 * IN, join="s-wyv"))
    with pytest.raises(RuleError, match="beyond"):
        decide(state, cmd.Fly(player="south", unit="s-wyv", heading=0, distance=IN, join="s-harp"))


def test_a_joined_character_fights_with_its_unit_lends_its_leadership_and_is_released_when_it_falls():
    """Fly, joining (host): the character strikes beside its unit, the unit tests on the higher Leadership, and when
    the unit is destroyed the character stands alone."""
    from aero_events.rulesets.whfb_flying import events as ev
    from aero_events.rulesets.whfb_flying.combat import break_test, fight_round
    from aero_events.rulesets.whfb_flying.falling import apply_wounds
    from aero_events.rulesets.whfb_flying.state import Combat

    _, state = decide(_joining_state(), cmd.Fly(player="south", unit="s-wyv", heading=0, distance=6 * IN,
                                                 join="s-harp"))
    combat = Combat(charger="n-peg", target="s-harp", kind="intercept", side="front")
    state = replace(state, combats=(combat,))
    out = Emitter(state, RULES.evolve)
    fight_round(RULES, out, DiceCup(SeededDice(3)), (combat,))
    attackers = {e.attacker for e in of_type(out.events, ev.AttackResolved)}
    assert {"s-harp", "s-wyv"} <= attackers
    out = Emitter(state, RULES.evolve)
    break_test(RULES, out, DiceCup(TapeDice([4, 4])), "s-harp", ["n-peg"], 0)
    assert of_type(out.events, ev.TestTaken)[0].target == 8  # the Lord's Ld 8, not the Harpies' 6
    out = Emitter(state, RULES.evolve)
    apply_wounds(RULES, out, DiceCup(TapeDice([1] * 5)), "s-harp", 5, "n-peg")
    assert of_type(out.events, ev.CharacterReleased) and out.state.units["s-wyv"].in_play
