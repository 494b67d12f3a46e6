"""The end phase (p.31): damage control, fires, Blast marker removal, Brace for Impact ending."""

import pytest

from aero_events.core import DiceCup, RuleError, TapeDice
from aero_events.rulesets.battlefleet_gothic import end_phase
from aero_events.rulesets.battlefleet_gothic import events as ev
from aero_events.rulesets.battlefleet_gothic.commands import RemoveBlastMarkers
from aero_events.rulesets.battlefleet_gothic.state import BRACE_FOR_IMPACT, ORDNANCE, BlastMarker
from aero_events.rulesets.battlefleet_gothic.turn import Emitter

from .helpers import RULES, decide, of_type, replace, ship, state_with, with_ship

AGRIPPA = ship("agrippa", "imperial", "lunar", 90, 20, 0)
UNCLEAN = ship("unclean", "chaos", "murder", 90, 100, 180)


def run_end_phase(state, faces):
    out = Emitter(state, RULES.evolve)
    end_phase.begin(RULES, out, DiceCup(TapeDice(list(faces))))
    return out.events, out.state


def test_damage_control_d6_per_remaining_hit_6_repairs_p31():
    state = with_ship(state_with(AGRIPPA, UNCLEAN, phase=ORDNANCE), "agrippa", damage=5,
                      criticals=("port_armament", "fire"))
    events, after = run_end_phase(state, [6, 1, 1, 4])  # 3 dice (8 - 5), one 6: the fire first; removal roll 4
    assert of_type(events, ev.CriticalRepaired)[0].critical == "fire"
    assert after.ships["agrippa"].criticals == ("port_armament",) and after.ships["agrippa"].damage == 5


def test_unrepaired_fire_burns_one_damage_p24():
    state = with_ship(state_with(AGRIPPA, UNCLEAN, phase=ORDNANCE), "agrippa", damage=2, criticals=("fire",))
    _, after = run_end_phase(state, [1] * 6 + [3])
    assert after.ships["agrippa"].damage == 3 and after.ships["agrippa"].criticals == ("fire",)


def test_blast_markers_in_contact_halve_damage_control_p31():
    state = with_ship(state_with(AGRIPPA, UNCLEAN, phase=ORDNANCE), "agrippa", damage=3, criticals=("thrusters",))
    state = replace(state, blast_markers={"1": BlastMarker(90_000, 22_850)})
    events, _ = run_end_phase(state, [1, 1, 1, 6, 2])
    assert not of_type(events, ev.CriticalRepaired)  # 3 dice of 5 would have reached the 6


def test_unrepairable_criticals_stay_p24():
    state = with_ship(state_with(AGRIPPA, UNCLEAN, phase=ORDNANCE), "agrippa", criticals=("bridge",))
    events, _ = run_end_phase(state, [3])
    assert not of_type(events, ev.CriticalRepaired)


def test_phasing_player_removes_d6_markers_not_touching_bases_p31():
    markers = {"1": BlastMarker(90_000, 22_850), "2": BlastMarker(50_000, 50_000), "3": BlastMarker(60_000, 60_000),
               "4": BlastMarker(70_000, 70_000)}
    state = replace(state_with(AGRIPPA, UNCLEAN, phase=ORDNANCE), blast_markers=markers)
    _events, after = run_end_phase(state, [2])
    assert after.pending.count == 2
    with pytest.raises(RuleError, match="touching"):
        decide(after, RemoveBlastMarkers(player="imperial", markers=(1, 2)))
    with pytest.raises(RuleError, match="exactly 2"):
        decide(after, RemoveBlastMarkers(player="imperial", markers=(2,)))
    assert RULES.legal_commands(after, "imperial")
    _, done = decide(after, RemoveBlastMarkers(player="imperial", markers=(2, 4)))
    assert set(done.blast_markers) == {"1", "3"}


def test_brace_for_impact_comes_off_at_the_end_of_the_ships_next_turn_p12():
    state = with_ship(state_with(AGRIPPA, UNCLEAN, phase=ORDNANCE), "agrippa", order=BRACE_FOR_IMPACT,
                      brace_ends_turn=2)
    _, after = run_end_phase(state, [1])
    assert after.ships["agrippa"].order == BRACE_FOR_IMPACT
    _, after = run_end_phase(replace(state, player_turn=2), [1])
    assert after.ships["agrippa"].order is None


def test_brace_any_time_option_lets_a_ship_brace_in_its_own_turn_p12():
    from aero_events.rulesets.battlefleet_gothic import BattlefleetGothicRules, RuleOptions
    from aero_events.rulesets.battlefleet_gothic.commands import BraceForImpact

    any_time = BattlefleetGothicRules(options=RuleOptions(brace_timing="any_time"))
    state = state_with(AGRIPPA, UNCLEAN, rules=any_time)
    assert BraceForImpact(player="imperial", ship="agrippa") in any_time.legal_commands(state, "imperial")
    _, after = decide(state, BraceForImpact(player="imperial", ship="agrippa"), [3, 3], rules=any_time)
    assert after.ships["agrippa"].order == BRACE_FOR_IMPACT and after.ships["agrippa"].brace_ends_turn == 3
    with pytest.raises(RuleError, match="brace_timing"):
        decide(state, BraceForImpact(player="imperial", ship="agrippa"), [3, 3])


def test_brace_as_a_command_check_option_p11():
    from aero_events.rulesets.battlefleet_gothic import BattlefleetGothicRules, RuleOptions
    from aero_events.rulesets.battlefleet_gothic.commands import FireWeapons, React
    from aero_events.rulesets.battlefleet_gothic.state import SHOOTING

    strict = BattlefleetGothicRules(options=RuleOptions(brace_test="command_check"))
    agrippa = ship("agrippa", "imperial", "lunar", 90, 20, 0)
    unclean = ship("unclean", "chaos", "murder", 90, 45, 90)
    state = with_ship(state_with(agrippa, unclean, phase=SHOOTING, active="chaos", rules=strict), "unclean",
                      order="lock on")
    _, state = decide(state, FireWeapons(player="chaos", ship="unclean", target="agrippa",
                                         weapons=("starboard_battery",)), rules=strict)
    events, _ = decide(state, React(player="imperial", ship="agrippa", brace=True), [4, 4], rules=strict)
    check = of_type(events, ev.CommandCheckTaken)[0]
    assert check.leadership == 8 and check.passed  # Ld 7 +1 Enemy Contacts (the Unclean is on Lock On)
