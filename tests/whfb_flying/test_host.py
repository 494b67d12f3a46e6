"""The host (this project's minimal rank-and-file host, README): profiles, to-hit, to-wound and saves, wheels and
charges, combat resolution, break tests, pursuit, rallying, the end of the battle, data files."""

from __future__ import annotations

import pytest

from aero_events.core import DataError, DiceCup, RuleError, SeededDice, TapeDice
from aero_events.rulesets.whfb_flying import attacks
from aero_events.rulesets.whfb_flying import commands as cmd
from aero_events.rulesets.whfb_flying import events as ev
from aero_events.rulesets.whfb_flying.data import default_data, parse_units
from aero_events.rulesets.whfb_flying.geometry import footprint, wheel
from aero_events.rulesets.whfb_flying.state import COMBAT, SHOOTING
from aero_events.rulesets.whfb_flying.turn import Emitter
from aero_events.table import Pose, gap

from .helpers import IN, RULES, battle, decide, of_type, unit, with_unit

IDLE = unit("n-idle", "spearmen", 10, 44, 2)


def test_profiles_are_data_with_the_8th_edition_characteristics():
    """Host: unit profiles are data files: a flying monster, flying cavalry, infantry, archers."""
    units = default_data().units
    assert {u.troop_type for u in units.values() if u.flyer} >= {"monster", "cavalry"}
    assert units["archers"].weapons[0].range == 30 * IN
    assert (units["spearmen"].profile.M, units["spearmen"].profile.Ld) == (4, 7)


def test_a_malformed_profile_is_a_data_error_naming_the_field():
    raw = b'{"units": [{"id": "x", "name": "X", "troop_type": "infantry", "profile": {"M": 4}, "save": 5,' \
          b' "base": [20, 20], "files": 5, "points": 5}]}'
    with pytest.raises(DataError) as err:
        parse_units(raw, "units.json")
    assert err.value.field == "profile" and err.value.location == "x"


@pytest.mark.parametrize("bs, modifier, score", [(3, 0, 4), (4, 0, 3), (1, 0, 6), (5, 1, 2), (3, -3, 7), (3, -5, 9)])
def test_to_hit_by_ballistic_skill(bs, modifier, score):
    assert attacks.shooting_score(bs, modifier) == score


def test_a_score_of_7_needs_a_6_then_a_4():
    out = Emitter(None, lambda state, event: state)
    assert attacks.roll_hits(out, DiceCup(TapeDice([6, 6, 5, 4, 3])), 3, 7, purpose="t", roller="n") == 1


@pytest.mark.parametrize("ws, enemy, score", [(4, 3, 3), (3, 3, 4), (3, 7, 5), (3, 6, 4)])
def test_to_hit_in_close_combat_by_weapon_skill(ws, enemy, score):
    assert attacks.combat_score(ws, enemy) == score


@pytest.mark.parametrize("s, t, score", [(3, 3, 4), (4, 3, 3), (5, 3, 2), (3, 4, 5), (3, 5, 6), (3, 8, 6), (3, 9, None)])
def test_to_wound_by_strength_against_toughness(s, t, score):
    assert attacks.wound_score(s, t) == score


def test_armour_saves_worsen_with_strength():
    assert attacks.save_score(4, 3) == 4 and attacks.save_score(4, 5) == 6 and attacks.save_score(5, 6) is None


def test_a_wheel_costs_the_outer_corners_travel():
    """Host: a ranked unit wheels about its inner front corner; 90 degrees costs width x pi / 2."""
    pose, cost = wheel(Pose(0, 0, 0), 10000, 9000)
    assert cost == 15708 and pose == Pose(5000, 5000, 9000)  # the left end swings forward


def test_marching_is_blocked_near_the_enemy_and_units_keep_an_inch_apart():
    """Host: no march with an enemy within 8"; no unit ends within 1" of an enemy unless it charges."""
    state = battle([unit("n-sp", "spearmen", 20, 24, 12), IDLE], [unit("s-sp", "spearmen", 20, 24, 16.5, 180)])
    with pytest.raises(RuleError, match="march"):
        decide(state, cmd.Move(player="north", unit="n-sp", heading=18000, distance=8 * IN, march=True))
    with pytest.raises(RuleError, match="within 1"):
        decide(state, cmd.Move(player="north", unit="n-sp", heading=0, distance=4 * IN))  # 0.5" short of them
    decide(state, cmd.Move(player="north", unit="n-sp", heading=0, distance=3 * IN))


def test_a_ground_charge_is_m_plus_2d6_and_closes_to_the_side_charged():
    state = battle([unit("n-sp", "spearmen", 20, 24, 10), IDLE], [unit("s-arch", "archers", 10, 24, 20)])
    _, state = decide(state, cmd.Charge(player="north", unit="n-sp", target="s-arch"))
    events, after = decide(state, cmd.React(player="south", choice="hold"), [3, 2])
    resolved = of_type(events, ev.ChargeResolved)[0]
    assert resolved.reached and resolved.side == "rear" and resolved.distance == 9 * IN
    charger, target = after.units["n-sp"], after.units["s-arch"]
    assert gap(footprint(charger, RULES.profile(charger)), footprint(target, RULES.profile(target))) == 0


def test_a_failed_charge_moves_the_highest_die():
    state = battle([unit("n-sp", "spearmen", 20, 24, 4), IDLE], [unit("s-arch", "archers", 10, 24, 20)])
    _, state = decide(state, cmd.Charge(player="north", unit="n-sp", target="s-arch"))
    events, after = decide(state, cmd.React(player="south", choice="hold"), [1, 2])
    assert not of_type(events, ev.ChargeResolved)[0].reached
    assert after.units["n-sp"].pose.y == 6 * IN


def test_a_broken_unit_flees_and_is_caught_by_a_pursuit_that_rolls_its_flight():
    """Host: the loser tests 2D6 against Ld less the difference; a broken unit flees 2D6 from the winner, which
    pursues 2D6 and destroys it when it rolls at least the distance fled."""
    from aero_events.rulesets.whfb_flying.combat import break_test, pursue
    from aero_events.rulesets.whfb_flying.state import Combat

    state = battle([unit("n-sp", "spearmen", 20, 24, 10)], [unit("s-arch", "archers", 5, 24, 10.01, 180)],
                   phase=COMBAT)
    combat = Combat(charger="n-sp", target="s-arch", kind="ground", side="front")
    state = battle.__globals__["replace"](state, combats=(combat,))
    for flight, chase, caught in (((3, 3), (4, 4), True), ((5, 5), (2, 3), False)):
        out = Emitter(state, RULES.evolve)
        dice = DiceCup(TapeDice([6, 6, *flight, *chase]))
        fled = break_test(RULES, out, dice, "s-arch", ["n-sp"], 2)
        pursue(RULES, out, dice, "n-sp", [("s-arch", fled)])
        test = of_type(out.events, ev.TestTaken)[0]
        assert (test.target, test.passed) == (5, False)
        assert of_type(out.events, ev.UnitFled)[0].distance == sum(flight) * IN
        assert (out.state.units["s-arch"].status == "destroyed") is caught
        assert not out.state.combats


def test_steadfast_tests_on_unmodified_leadership():
    """Host Steadfast: a losing unit with more ranks than the winner keeps its Leadership."""
    state = battle([unit("n-wyv", "wyvern_lord", 1, 24, 10)], [unit("s-sp", "spearmen", 20, 24, 20)], phase=COMBAT)
    from aero_events.rulesets.whfb_flying.combat import break_test

    out = Emitter(state, RULES.evolve)
    break_test(RULES, out, DiceCup(TapeDice([4, 3])), "s-sp", ["n-wyv"], 5)
    test = of_type(out.events, ev.TestTaken)[0]
    assert test.target == 7 and test.passed


def test_every_combat_fights_once_each_close_combat_phase():
    state = battle([unit("n-sp", "spearmen", 20, 24, 10), IDLE], [unit("s-sp", "spearmen", 20, 24, 20)])
    _, state = decide(state, cmd.Charge(player="north", unit="n-sp", target="s-sp"))
    _, state = decide(state, cmd.React(player="south", choice="hold"), [6, 6])
    events, _ = decide(state, cmd.EndPhase(player="north"), [], )
    assert len(of_type(events, ev.CombatResolved)) >= 1


def test_the_battle_ends_after_the_last_turn_with_victory_points():
    state = battle([unit("n-sp", "spearmen", 20, 24, 10)], [unit("s-sp", "spearmen", 20, 24, 30, 180)],
                   active="south", phase=SHOOTING, last_turn=1)
    state = with_unit(state, "n-sp", status="destroyed")
    events, after = decide(state, cmd.EndPhase(player="south"), [])
    end = of_type(events, ev.GameEnded)[0]
    assert end.winner == "south" and end.scores == {"north": 0, "south": 120} and RULES.is_over(after)


def test_commands_out_of_turn_are_refused():
    state = battle([unit("n-sp", "spearmen", 20, 24, 10)], [unit("s-sp", "spearmen", 20, 24, 30, 180)])
    with pytest.raises(RuleError):
        RULES.decide(state, cmd.Move(player="south", unit="s-sp", heading=0, distance=IN), DiceCup(SeededDice(1)))


def test_a_unit_fleeing_from_a_charge_is_destroyed_if_the_charge_reaches_it():
    """Host: the flee reaction; a charge that reaches the fled unit destroys it."""
    state = battle([unit("n-sp", "spearmen", 20, 24, 10), IDLE], [unit("s-arch", "archers", 10, 24, 16)])
    _, declared = decide(state, cmd.Charge(player="north", unit="n-sp", target="s-arch"))
    events, after = decide(declared, cmd.React(player="south", choice="flee"), [1, 1, 6, 6])
    assert of_type(events, ev.UnitFled)[0].distance == 2 * IN
    assert of_type(events, ev.ChargeResolved)[0].reason == "caught fleeing"
    assert after.units["s-arch"].status == "destroyed" and not after.combats
    events, after = decide(declared, cmd.React(player="south", choice="flee"), [6, 6, 1, 1])
    assert after.units["s-arch"].in_play and after.units["s-arch"].fleeing
    assert not of_type(events, ev.ChargeResolved)[0].reached


def test_a_malformed_falling_table_is_a_data_error():
    from aero_events.rulesets.whfb_flying.data import parse_falling

    with pytest.raises(DataError) as err:
        parse_falling(b'{"hits": {"monster": {"hits": "2D6", "strength": 10}}}', "falling.json")
    assert (err.value.location, err.value.field) == ("monster", "hits")


def test_a_scenario_missing_a_field_is_a_data_error_naming_it():
    from aero_events.rulesets.whfb_flying.data import parse_scenarios

    raw = b'{"scenarios": [{"id": "s", "name": "S", "description": "", "height": 36, "last_turn": 6,' \
          b' "first": "north", "forces": {}}]}'
    with pytest.raises(DataError) as err:
        parse_scenarios(raw, "scenarios.json", default_data().units)
    assert (err.value.location, err.value.field) == ("s", "width")
