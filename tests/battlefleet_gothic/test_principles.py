"""First principles (p.6-7), the turn (p.13-14) and the geometry behind them."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aero_events.core import DiceCup, DiceRolled, RuleError, TapeDice
from aero_events.rulesets.battlefleet_gothic import events as ev
from aero_events.rulesets.battlefleet_gothic import geometry
from aero_events.rulesets.battlefleet_gothic.commands import (
    ChooseTurnOrder,
    EndShooting,
    FireWeapons,
    MoveShip,
    RollOff,
)
from aero_events.rulesets.battlefleet_gothic.rerolls import reroll_misses
from aero_events.rulesets.battlefleet_gothic.state import GAME_OVER, LOCK_ON, MOVEMENT, SETUP, SHOOTING
from aero_events.rulesets.battlefleet_gothic.turn import Emitter

from .helpers import QUIET, RULES, decide, of_type, replace, ship, state_with, with_ship


def test_ships_move_and_fire_past_each_other_p6():
    """3D or not 3D?: no collisions; a ship may move straight through another's base."""
    agrippa = ship("agrippa", "imperial", "lunar", 90, 20, 0)
    unclean = ship("unclean", "chaos", "murder", 90, 30, 90)
    _, after = decide(state_with(agrippa, unclean), MoveShip(player="imperial", ship="agrippa", legs=(20_000,)))
    assert after.ships["agrippa"].position == (90_000, 40_000)


def test_d3_is_a_d6_halved_rounding_up_p7():
    """Hull Breach (+D3): a D6 of 5 gives 3 extra damage points."""
    from aero_events.core import DiceCup, TapeDice
    from aero_events.rulesets.battlefleet_gothic import damage
    from aero_events.rulesets.battlefleet_gothic.turn import Emitter

    state = state_with(ship("agrippa", "imperial", "lunar", 90, 20, 0), ship("unclean", "chaos", "murder", 90, 99))
    out = Emitter(state, RULES.evolve)
    damage.critical_hit(RULES, out, DiceCup(TapeDice([5, 6, 5])), "agrippa")
    assert of_type(out.events, ev.CriticalHit)[0].extra == 3 and out.state.ships["agrippa"].damage == 3


def test_bearing_compass_quadrants_and_the_boundary_rule_p7():
    assert geometry.quadrants((0, 0), 0, (0, 100)) == {"front"}
    assert geometry.quadrants((0, 0), 0, (100, 0)) == {"right"}
    assert geometry.quadrants((0, 0), 0, (100, 100)) == {"front", "right"}  # on the 45-degree line: both arcs
    assert geometry.aspect_quadrant((0, 0), 0, (100, 100)) == "front"  # aspect: front/rear win the boundary
    assert geometry.quadrants((0, 0), 9000, (0, -100)) == {"right"}


@settings(max_examples=60, deadline=None)
@given(st.integers(-50_000, 50_000), st.integers(-50_000, 50_000), st.integers(0, 35_999),
       st.integers(-20_000, 20_000), st.integers(-20_000, 20_000))
def test_quadrants_survive_a_quarter_turn_of_the_whole_table(x, y, heading, dx, dy):
    """A rigid motion by a multiple of 90 degrees (exact on the integer grid) keeps every arc answer."""
    before = geometry.quadrants((x, y), heading, (x + dx, y + dy))
    turned = geometry.quadrants((y, -x), heading + 9000, (y + dy, -(x + dx)))
    assert before == turned


@settings(max_examples=60, deadline=None)
@given(st.integers(-50_000, 50_000), st.integers(-50_000, 50_000), st.integers(-50_000, 50_000),
       st.integers(-50_000, 50_000))
def test_bearing_points_at_the_target(x, y, dx, dy):
    if dx == 0 and dy == 0:
        return
    heading = geometry.bearing((x, y), (x + dx, y + dy))
    assert "front" in geometry.quadrants((x, y), heading, (x + dx, y + dy))


def test_leadership_tests_allowed_after_a_failed_command_check_p12():
    agrippa = ship("agrippa", "imperial", "lunar", 90, 20, 0)
    duke = ship("duke", "imperial", "gothic", 100, 20, 0)
    unclean = ship("unclean", "chaos", "murder", 90, 45, 90)
    state = state_with(agrippa, duke, unclean, phase=SHOOTING, active="chaos", checks_failed=True)
    events, _ = decide(state, FireWeapons(player="chaos", ship="unclean", target="duke",
                                          weapons=("starboard_battery",)), [2, 2, 1, 1, 1, 1], rules=QUIET)
    assert of_type(events, ev.LeadershipTestTaken)[0].passed and of_type(events, ev.GunneryResolved)


def test_turn_sequence_and_first_turn_p13_p14():
    agrippa = ship("agrippa", "imperial", "lunar", 90, 20, 0, leadership=0)
    unclean = ship("unclean", "chaos", "murder", 90, 100, 180, leadership=0)
    state = replace(state_with(agrippa, unclean), phase=SETUP, active=None, round=0, player_turn=0)
    _, state = decide(state, RollOff(player="imperial"), [3, 3, 2, 5])
    assert state.chooser == "chaos"
    events, state = decide(state, ChooseTurnOrder(player="chaos", go_first=False))
    assert state.active == "imperial" and state.phase == MOVEMENT and state.round == 1
    events, state = decide(state, MoveShip(player="imperial", ship="agrippa", legs=(15_000,)))
    assert [e.phase for e in of_type(events, ev.PhaseBegan)] == ["shooting"]  # torpedoes could be launched
    events, state = decide(state, EndShooting(player="imperial"), [1])
    phases = [e.phase for e in of_type(events, ev.PhaseBegan)]
    assert phases[:3] == ["ordnance", "end", "movement"] and state.active == "chaos"


def test_battle_ends_after_the_last_turn_with_cruiser_clash_points():
    agrippa = ship("agrippa", "imperial", "lunar", 90, 20, 0)
    unclean = ship("unclean", "chaos", "murder", 90, 100, 180)
    state = with_ship(state_with(agrippa, unclean, active="chaos"), "agrippa", damage=5)
    state = replace(state, round=8, first_player="imperial")
    _, after = decide(state, MoveShip(player="chaos", ship="unclean", legs=(15_000,)), [1])
    assert after.phase == GAME_OVER and after.winner == "chaos"
    assert RULES.outcome(after).scores == {"imperial": 0.0, "chaos": 6.0}  # 5 damage + crippled


def test_a_rerolled_die_is_never_rerolled_again_p7():
    """Re-rolls (p.7): "The second score counts ... No single Special Order or other leadership test can be
    re-rolled more than once, regardless of the source of the re-roll." Lock On's re-roll of seven misses
    misses again: those dice stay missed; re-rolling the re-roll, or the first roll a second time, is refused."""
    agrippa = ship("agrippa", "imperial", "lunar", 90, 20, 0)
    unclean = ship("unclean", "chaos", "murder", 90, 45, 90)
    state = with_ship(state_with(agrippa, unclean, phase=SHOOTING, active="chaos"), "unclean", order=LOCK_ON)
    events, _ = decide(state, FireWeapons(player="chaos", ship="unclean", target="agrippa",
                                          weapons=("starboard_battery",)), [1] * 14, rules=QUIET)
    rolls = [e for e in events if isinstance(e, DiceRolled) and e.purpose.startswith("weapons batteries")]
    assert [len(r.faces) for r in rolls] == [7, 7] and rolls[1].replaces == rolls[0].roll_index
    assert of_type(events, ev.GunneryResolved)[0].hits == 0
    out = Emitter(state, QUIET.evolve)
    dice = DiceCup(TapeDice([1] * 20))
    first = dice.roll(3, purpose="lances", roller="chaos", target=4)
    out.emit(first)
    reroll_misses(out, dice, first, 4, purpose="lances", roller="chaos", sources=("lock on",))
    again = out.events[-1]
    with pytest.raises(RuleError, match="only be re-rolled once"):
        reroll_misses(out, dice, again, 4, purpose="lances", roller="chaos", sources=("lock on",))
    with pytest.raises(RuleError, match="only be re-rolled once"):
        reroll_misses(out, dice, first, 4, purpose="lances", roller="chaos", sources=("another source",))
    assert sum(1 for e in out.events if isinstance(e, DiceRolled) and e.replaces is not None) == 1
