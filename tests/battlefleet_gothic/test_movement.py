"""The movement phase (p.14-17) and Blast markers in movement (p.25)."""

import pytest

from aero_events.core import RuleError
from aero_events.rulesets.battlefleet_gothic import events as ev
from aero_events.rulesets.battlefleet_gothic.commands import MoveShip
from aero_events.rulesets.battlefleet_gothic.movement import grid
from aero_events.rulesets.battlefleet_gothic.state import (
    ALL_AHEAD_FULL,
    BURN_RETROS,
    COME_TO_NEW_HEADING,
    DISENGAGED,
    LOCK_ON,
    BlastMarker,
)

from .helpers import RULES, decide, of_type, replace, ship, state_with, with_ship

CM = 1000
LUNAR = ship("agrippa", "imperial", "lunar", 90, 20, 0)
ENEMY = ship("unclean", "chaos", "murder", 30, 110, 180)


def move(legs, turns=(), ship_id="agrippa"):
    return MoveShip(player="imperial", ship=ship_id, legs=tuple(int(x * CM) for x in legs),
                    turns=tuple(int(t * 100) for t in turns))


def test_moves_straight_ahead_up_to_speed_p15():
    _, after = decide(state_with(LUNAR, ENEMY), move([20]))
    assert after.ships["agrippa"].position == (90_000, 40_000)
    with pytest.raises(RuleError, match="at most 20 cm"):
        decide(state_with(LUNAR, ENEMY), move([20.5]))


def test_continuous_distances_are_accepted():
    _, after = decide(state_with(LUNAR, ENEMY), move([13.37]))
    assert after.ships["agrippa"].y == 33_370


def test_minimum_move_is_half_speed_p16():
    with pytest.raises(RuleError, match="at least 10 cm"):
        decide(state_with(LUNAR, ENEMY), move([9.9]))


def test_burn_retros_may_stay_still_but_not_exceed_half_speed_p16():
    state = with_ship(state_with(LUNAR, ENEMY), "agrippa", order=BURN_RETROS)
    _, after = decide(state, move([0]))
    assert after.ships["agrippa"].position == (90_000, 20_000)
    with pytest.raises(RuleError):
        decide(state, move([10.1]))


def test_burn_retros_turns_without_moving_first_p17():
    state = with_ship(state_with(LUNAR, ENEMY), "agrippa", order=BURN_RETROS)
    _, after = decide(state, move([0, 5], [45]))
    assert after.ships["agrippa"].heading == 4500


def test_cruiser_turns_once_after_10cm_up_to_45_degrees_p16():
    _, after = decide(state_with(LUNAR, ENEMY), move([10, 10], [45]))
    assert after.ships["agrippa"].heading == 4500
    with pytest.raises(RuleError, match="10 cm before turning"):
        decide(state_with(LUNAR, ENEMY), move([9, 11], [45]))
    with pytest.raises(RuleError, match="at most 45"):
        decide(state_with(LUNAR, ENEMY), move([10, 10], [46]))
    with pytest.raises(RuleError, match="one turn"):
        decide(state_with(LUNAR, ENEMY), move([10, 0, 10], [20, 20]))


def test_escorts_turn_90_at_any_point_p16():
    sword = ship("sword", "imperial", "sword", 90, 20, 0)
    _, after = decide(state_with(sword, ENEMY), move([0, 15], [-90], ship_id="sword"))
    assert after.ships["sword"].heading == 27000


def test_battleship_needs_15cm_before_turning_p16():
    emperor = ship("emperor", "imperial", "emperor", 90, 20, 0)
    with pytest.raises(RuleError, match="15 cm"):
        decide(state_with(emperor, ENEMY), move([10, 5], [45], ship_id="emperor"))


def test_come_to_new_heading_second_turn_with_same_spacing_p17():
    state = with_ship(state_with(LUNAR, ENEMY), "agrippa", order=COME_TO_NEW_HEADING)
    _, after = decide(state, move([10, 10, 0], [45, 45]))
    assert after.ships["agrippa"].heading == 9000
    with pytest.raises(RuleError, match="10 cm before turning"):
        decide(state, move([10, 5, 5], [45, 45]))


def test_all_ahead_full_must_move_full_distance_and_not_turn_p16():
    state = with_ship(state_with(LUNAR, ENEMY), "agrippa", order=ALL_AHEAD_FULL, extra_move=14 * CM)
    with pytest.raises(RuleError, match="full 34 cm"):
        decide(state, move([30]))
    with pytest.raises(RuleError, match="no turns"):
        decide(state, move([20, 14], [10]))
    _, after = decide(state, move([34]))
    assert after.ships["agrippa"].y == 54_000


def test_lock_on_may_not_turn_p21():
    state = with_ship(state_with(LUNAR, ENEMY), "agrippa", order=LOCK_ON)
    with pytest.raises(RuleError, match="no turns"):
        decide(state, move([10, 10], [45]))


def test_crippled_ships_move_5cm_less_p23():
    state = with_ship(state_with(LUNAR, ENEMY), "agrippa", damage=4)
    with pytest.raises(RuleError, match="at most 15 cm"):
        decide(state, move([16]))


def test_engine_room_damaged_no_turns_p24():
    state = with_ship(state_with(LUNAR, ENEMY), "agrippa", criticals=("engine_room",))
    with pytest.raises(RuleError, match="no turns"):
        decide(state, move([10, 10], [45]))


def test_moving_through_blast_markers_costs_5cm_p25():
    state = replace(state_with(LUNAR, ENEMY), blast_markers={"1": BlastMarker(90_000, 30_000)})
    with pytest.raises(RuleError, match="at most 15 cm"):
        decide(state, move([20]))
    events, _ = decide(state, move([15]))
    assert of_type(events, ev.ShipMoved)[-1].through_blast_markers


def test_moving_away_from_a_touching_marker_counts_p25():
    state = replace(state_with(LUNAR, ENEMY), blast_markers={"1": BlastMarker(90_000, 17_500)})
    with pytest.raises(RuleError, match="at most 15 cm"):
        decide(state, move([16]))


def test_shieldless_ship_through_blast_markers_damaged_on_a_6_p25():
    state = replace(with_ship(state_with(LUNAR, ENEMY), "agrippa", criticals=("shields_collapse",)),
                    blast_markers={"1": BlastMarker(90_000, 30_000)})
    _events, after = decide(state, move([15]), [6, 1])
    assert after.ships["agrippa"].damage == 1


def test_leaving_the_table_disengages():
    edge = ship("agrippa", "imperial", "lunar", 90, 110, 0)
    _events, after = decide(state_with(edge, ENEMY), move([20]))
    assert after.ships["agrippa"].status == DISENGAGED


def test_moving_under_5cm_counts_as_defences_p15():
    state = with_ship(state_with(LUNAR, ENEMY), "agrippa", order=BURN_RETROS)
    _, after = decide(state, move([4]))
    assert after.ships["agrippa"].last_move == 4000


def test_legal_grid_is_legal_and_covers_turns():
    state = state_with(LUNAR, ENEMY)
    options = grid(RULES, state, state.ships["agrippa"])
    assert {sum(o.legs) for o in options} >= {10 * CM, 15 * CM, 20 * CM}
    assert {o.turns for o in options} >= {(), (4500,), (-4500,), (1500,)}
    for option in options[::5]:
        decide(state, option)


def test_legal_grid_respects_blast_markers_and_orders():
    state = replace(state_with(LUNAR, ENEMY), blast_markers={"1": BlastMarker(90_000, 30_000)})
    state = with_ship(state, "agrippa", order=COME_TO_NEW_HEADING)
    options = grid(RULES, state, state.ships["agrippa"])
    assert max(sum(o.legs) for o in options if not o.turns) == 15 * CM
    clear = with_ship(state_with(LUNAR, ENEMY), "agrippa", order=COME_TO_NEW_HEADING)
    turning = grid(RULES, clear, clear.ships["agrippa"])
    assert any(len(o.turns) == 2 for o in turning)
    for option in options + turning:
        passes_check(state if option in options else clear, option)


def passes_check(state, option):  # every offered move passes the rules' own check
    from aero_events.rulesets.battlefleet_gothic.movement import check_move

    check_move(RULES, state, state.ships[option.ship], option.legs, option.turns)


def test_drifting_hulk_moves_4d6_and_leaves_a_marker_p26():
    from aero_events.core import DiceCup, TapeDice
    from aero_events.rulesets.battlefleet_gothic.turn import Emitter, begin_player_turn

    state = with_ship(state_with(LUNAR, ENEMY), "agrippa", status="drifting hulk", damage=8)
    out = Emitter(state, RULES.evolve)
    begin_player_turn(RULES, out, DiceCup(TapeDice([1, 2, 3, 4])), "imperial", 2)
    assert out.state.ships["agrippa"].position == (90_000, 30_000)
    assert len(out.state.blast_markers) == 1


def test_slowed_to_nothing_by_markers_it_must_move_the_maximum_possible_p16():
    """Crippled (-5) with Thrusters Damaged (-10): 5 cm; touching a Blast marker takes 5 more: it stays put."""
    state = with_ship(state_with(LUNAR, ENEMY), "agrippa", damage=4, criticals=("thrusters",))
    state = replace(state, blast_markers={"1": BlastMarker(90_000, 17_500)})
    options = grid(RULES, state, state.ships["agrippa"])
    assert [o.legs for o in options] == [(0,)]
    _, after = decide(state, move([0]))
    assert after.ships["agrippa"].position == (90_000, 20_000)
