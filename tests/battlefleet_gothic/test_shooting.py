"""The shooting phase (p.18-22) and the worked examples of the text."""

import pytest

from aero_events.core import RuleError
from aero_events.rulesets.battlefleet_gothic import events as ev
from aero_events.rulesets.battlefleet_gothic import ships as sh
from aero_events.rulesets.battlefleet_gothic.commands import EndShooting, FireNovaCannon, FireWeapons, React
from aero_events.rulesets.battlefleet_gothic.shooting import gunnery_column, gunnery_dice
from aero_events.rulesets.battlefleet_gothic.state import (
    ALL_AHEAD_FULL,
    BRACE_FOR_IMPACT,
    LOCK_ON,
    SHOOTING,
    BlastMarker,
    OrdnanceMarker,
)

from .helpers import QUIET, RULES, decide, of_type, replace, ship, state_with, with_ship


def broadside(distance_cm, **changes):
    """The Agrippa heading north; the Unclean ``distance_cm`` ahead of it, heading east (Agrippa on its right)."""
    agrippa = ship("agrippa", "imperial", "lunar", 90, 20, 0, name="Agrippa")
    unclean = ship("unclean", "chaos", "murder", 90, 20 + distance_cm, 90, name="Unclean")
    return state_with(agrippa, unclean, phase=SHOOTING, active="chaos", **changes)


def fire(state, faces, weapons=("starboard_battery",), target="agrippa", shooter="unclean", rules=QUIET, **kw):
    player = state.ships[shooter].side
    return decide(state, FireWeapons(player=player, ship=shooter, target=target, weapons=weapons, **kw), faces,
                  rules=rules)


def test_unclean_broadside_at_agrippa_rolls_7d6_needing_6s_p20():
    """FP 10 against a closing capital ship: 7D6; the Agrippa's front armour is 6+."""
    events, after = fire(broadside(25), [6, 6, 5, 4, 3, 2, 1])
    gunnery = of_type(events, ev.GunneryResolved)[0]
    assert (gunnery.firepower, gunnery.column, gunnery.dice, gunnery.needed, gunnery.hits) == (10, "B", 7, 6, 2)
    assert of_type(events, ev.HitsAbsorbed)[0].hits == 2  # both on the Agrippa's two shields
    assert len(after.blast_markers) == 2 and after.ships["agrippa"].damage == 0


def test_unclean_within_15cm_shifts_left_to_9d6_p20():
    state = broadside(14)
    column, shifts = gunnery_column(RULES, state, state.ships["unclean"], "agrippa")
    assert gunnery_dice(RULES, 10, column) == 9 and "within 15 cm: one column left" in shifts


def test_unclean_beyond_30cm_shifts_right_to_5d6_p20():
    state = broadside(34)
    column, _ = gunnery_column(RULES, state, state.ships["unclean"], "agrippa")
    assert gunnery_dice(RULES, 10, column) == 5


def test_range_is_stem_to_stem_p19():
    """The Unclean at 34 cm has the Agrippa within its 45 cm batteries' range."""
    events, _ = fire(broadside(34), [1] * 5)
    assert of_type(events, ev.GunneryResolved)[0].dice == 5
    with pytest.raises(RuleError, match="range and fire arc"):
        fire(broadside(46), [])


def test_carnage_squadron_firepower_32_looks_up_20_and_12_p20():
    assert gunnery_dice(RULES, 32, 1) == 14 + 8


def test_line_of_fire_through_blast_markers_shifts_right_p25():
    state = replace(broadside(25), blast_markers={"9": BlastMarker(90_000, 32_000)})
    column, shifts = gunnery_column(RULES, state, state.ships["unclean"], "agrippa")
    assert column == 2 and "through Blast markers: one column right" in shifts


def test_shifts_never_pass_the_outer_columns_p20():
    sword = ship("sword", "imperial", "sword", 90, 20, 90)
    unclean = ship("unclean", "chaos", "murder", 90, 55, 90)
    state = state_with(sword, unclean, phase=SHOOTING, active="chaos")
    column, _ = gunnery_column(RULES, state, state.ships["unclean"], "sword")
    assert column == 4  # abeam escort (E), beyond 30 cm: still E


def test_a_ship_that_moved_under_5cm_counts_as_defences_p20():
    state = with_ship(broadside(25), "agrippa", last_move=4000)
    column, shifts = gunnery_column(RULES, state, state.ships["unclean"], "agrippa")
    assert column == 0 and shifts[0] == "defences"


def test_target_aspect_from_the_targets_arcs_p19():
    state = with_ship(broadside(25), "agrippa", heading=9000)  # the Unclean now on its left: abeam
    column, shifts = gunnery_column(RULES, state, state.ships["unclean"], "agrippa")
    assert shifts[0] == "capital_abeam" and column == 3
    state = with_ship(broadside(25), "agrippa", heading=18000)  # facing away: moving away, armour 5+
    events, _ = fire(state, [5] * 5)
    gunnery = of_type(events, ev.GunneryResolved)[0]
    assert (gunnery.column, gunnery.needed, gunnery.hits) == ("C", 5, 5)


def test_fire_arcs_p19():
    with pytest.raises(RuleError, match="fire arc"):
        fire(broadside(25), [], weapons=("port_battery",))


def test_lances_hit_on_4_regardless_of_armour_p19():
    agrippa = ship("agrippa", "imperial", "lunar", 90, 20, 90)
    unclean = ship("unclean", "chaos", "murder", 90, 40, 0)
    state = state_with(agrippa, unclean, phase=SHOOTING, active="imperial")
    events, _ = fire(state, [4, 3], weapons=("port_lance",), target="unclean", shooter="agrippa")
    lances = of_type(events, ev.LancesResolved)[0]
    assert (lances.strength, lances.needed, lances.hits) == (2, 4, 1)


def test_lock_on_rerolls_misses_p21():
    state = with_ship(broadside(25), "unclean", order=LOCK_ON)
    events, _ = fire(state, [6, 1, 1, 1, 1, 1, 1, 6, 6, 1, 1, 1, 1])
    assert of_type(events, ev.GunneryResolved)[0].hits == 3


def test_orders_halve_firepower_rounding_up_p21():
    state = with_ship(broadside(25), "unclean", order=ALL_AHEAD_FULL)
    cls = RULES.data.classes["murder"]
    assert sh.weapon_value(cls, state.ships["unclean"], cls.weapons[1]) == 5
    events, _ = fire(state, [1] * 4)
    assert of_type(events, ev.GunneryResolved)[0].firepower == 5


def test_crippled_and_braced_is_halved_again_p23():
    state = with_ship(broadside(25), "unclean", order=BRACE_FOR_IMPACT, damage=4)
    cls = RULES.data.classes["murder"]
    assert sh.weapon_value(cls, state.ships["unclean"], cls.weapons[1]) == 3


def test_splitting_fire_after_halving_p21():
    events, after = fire(broadside(25), [1] * 5, amounts=(6,))
    assert of_type(events, ev.GunneryResolved)[0].firepower == 6
    assert after.ships["unclean"].weapons_used["starboard_battery"] == 6
    with pytest.raises(RuleError, match="4 left"):
        fire(after, [], amounts=(5,))


def test_target_priority_needs_a_leadership_test_p19():
    agrippa = ship("agrippa", "imperial", "lunar", 90, 20, 0)
    duke = ship("duke", "imperial", "gothic", 100, 20, 0)
    unclean = ship("unclean", "chaos", "murder", 90, 45, 90)  # Agrippa is the closest; both in the right arc
    state = state_with(agrippa, duke, unclean, phase=SHOOTING, active="chaos")
    events, after = fire(state, [6, 5], target="duke")
    test = of_type(events, ev.LeadershipTestTaken)[0]
    assert test.purpose == "target priority" and not test.passed
    assert not of_type(events, ev.GunneryResolved) and "duke" in after.ships["unclean"].leadership_failed


def test_the_nearest_squadron_may_be_shot_at_freely_p19():
    agrippa = replace(ship("agrippa", "imperial", "lunar", 90, 20, 0), squadron="alpha")
    duke = replace(ship("duke", "imperial", "gothic", 100, 20, 0), squadron="alpha")
    unclean = ship("unclean", "chaos", "murder", 90, 45, 90)
    state = state_with(agrippa, duke, unclean, phase=SHOOTING, active="chaos")
    events, _ = fire(state, [1] * 7, target="duke")
    assert not of_type(events, ev.LeadershipTestTaken) and of_type(events, ev.GunneryResolved)


def test_brace_for_impact_window_before_the_dice_p23():
    state = broadside(25)
    events, after = fire(state, [], rules=RULES)
    assert of_type(events, ev.ReactionOffered) and not of_type(events, ev.GunneryResolved)
    assert after.pending.player == "imperial"
    # The Agrippa braces (Ld test 3+3 passes); hits past the shields are saved on 4+.
    events, after = decide(after, React(player="imperial", ship="agrippa", brace=True),
                           [3, 3, 6, 6, 6, 6, 1, 1, 1, 4, 1, 6, 6])
    assert after.ships["agrippa"].order == BRACE_FOR_IMPACT
    saved = of_type(events, ev.HitsSaved)[0]
    assert (saved.hits, saved.saved) == (2, 1)
    assert after.ships["agrippa"].damage == 1


def test_the_attack_waits_for_the_reaction_p13():
    """Exceptions (p.13): the other player's decision interrupts the turn; nothing else goes on meanwhile."""
    _, after = fire(broadside(25), [], rules=RULES)
    assert after.reactions.pending[0].decider == "imperial"
    assert set(after.reactions.pending[0].choices) == {"brace", "no brace"}
    with pytest.raises(RuleError, match="waiting for imperial"):
        decide(after, EndShooting(player="chaos"), rules=RULES)
    events, after = decide(after, React(player="imperial", ship="agrippa", brace=False), [1] * 7)
    assert [e.choice for e in events if type(e).__name__ == "ReactionChosen"] == ["no brace"]
    assert not after.reactions.pending and after.pending is None


def test_failed_brace_cannot_be_retried_against_the_same_attacker_p23():
    state = broadside(25)
    _, after = fire(state, [], rules=RULES, amounts=(5,))
    _, after = decide(after, React(player="imperial", ship="agrippa", brace=True), [6, 6, 1, 1, 1, 1])
    assert after.ships["agrippa"].brace_failed_against == "unclean"
    events, _ = fire(after, [1, 1, 1, 1], rules=RULES, amounts=(5,))
    assert not of_type(events, ev.ReactionOffered)


def test_shooting_at_ordnance_needs_6s_on_the_ordnance_column_p28():
    state = broadside(25)
    salvo = OrdnanceMarker(id="torpedoes-5", side="imperial", kind="torpedoes", launcher="agrippa", x=90_000,
                           y=25_000, heading=0, strength=6, speed=30_000, launched_turn=1)
    state = replace(state, ordnance={salvo.id: salvo})
    events, after = fire(state, [6, 1], target="torpedoes-5")
    gunnery = of_type(events, ev.GunneryResolved)[0]
    assert (gunnery.column, gunnery.dice, gunnery.needed) == ("E", 2, 6)
    assert "torpedoes-5" not in after.ordnance


def test_hulks_block_lines_of_fire_p26():
    hulk = ship("hulk", "imperial", "gothic", 90, 32, 0)
    state = with_ship(state_with(ship("agrippa", "imperial", "lunar", 90, 20, 0),
                                 ship("unclean", "chaos", "murder", 90, 45, 90), hulk,
                                 phase=SHOOTING, active="chaos"), "hulk", status="drifting hulk", damage=8)
    with pytest.raises(RuleError):
        fire(state, [], target="agrippa")


def test_end_shooting():
    _, after = decide(broadside(25), EndShooting(player="chaos"), [1, 1])
    assert after.phase != SHOOTING or after.shooting_done


# ---------------------------------------------------------------- nova cannon (p.21)

def nova_state(target_cm=60):
    steadfast = ship("steadfast", "imperial", "dominator", 90, 10, 0, name="Steadfast")
    abominator = ship("abominator", "chaos", "murder", 90, 10 + target_cm, 90, name="Abominator")
    doombringer = ship("doombringer", "chaos", "murder", 93.5, 10 + target_cm, 90, name="Doombringer")
    return state_with(steadfast, abominator, doombringer, phase=SHOOTING, active="imperial")


def test_nova_cannon_hole_d6_hits_and_touching_one_hit_p21():
    """The Steadfast's shell lands on the Abominator: D6 hits under the hole; the Doombringer touched: 1 hit."""
    state = nova_state()
    command = FireNovaCannon(player="imperial", ship="steadfast", x=90_000, y=70_000)
    events, _after = decide(state, command, [1, 5, 1, 1, 1, 1, 1, 1], rules=QUIET)
    assert of_type(events, ev.NovaCannonFired)[0].landed == (90_000, 70_000)
    damage = {e.ship: e.amount for e in of_type(events, ev.DamageTaken)}
    absorbed = {e.ship: e.hits for e in of_type(events, ev.HitsAbsorbed)}
    assert absorbed["abominator"] + damage.get("abominator", 0) == 5
    assert absorbed["doombringer"] == 1


def test_nova_cannon_scatters_xd6_by_range_p21():
    state = nova_state(100)
    command = FireNovaCannon(player="imperial", ship="steadfast", x=90_000, y=110_000)
    events, _ = decide(state, command, [3, 9001, 2, 2, 2], rules=QUIET)  # an arrow to 90 degrees; 3D6 = 6 cm
    fired = of_type(events, ev.NovaCannonFired)[0]
    assert fired.scatter == 6000 and fired.landed == (96_000, 110_000)


def test_nova_cannon_placement_limits_p21():
    state = nova_state()
    with pytest.raises(RuleError, match="30-150"):
        decide(state, FireNovaCannon(player="imperial", ship="steadfast", x=90_000, y=41_000), rules=QUIET)
    with pytest.raises(RuleError, match="forward arc"):
        decide(state, FireNovaCannon(player="imperial", ship="steadfast", x=150_000, y=12_000), rules=QUIET)
    crippled = with_ship(state, "steadfast", damage=4)
    with pytest.raises(RuleError):
        decide(crippled, FireNovaCannon(player="imperial", ship="steadfast", x=90_000, y=70_000), rules=QUIET)


def test_nova_cannon_miss_leaves_a_blast_marker_p21():
    state = nova_state()
    events, _after = decide(state, FireNovaCannon(player="imperial", ship="steadfast", x=60_000, y=90_000),
                           [1, 1, 1], rules=QUIET)
    placed = of_type(events, ev.BlastMarkerPlaced)
    assert (placed[0].x, placed[0].y, placed[0].reason) == (60_000, 90_000, "nova cannon miss")


def test_dorsal_mounts_fire_left_front_and_right_but_not_rear_p19():
    emperor = ship("emperor", "imperial", "emperor", 90, 60, 0)
    ahead = ship("ahead", "chaos", "murder", 90, 100, 90)
    behind = ship("behind", "chaos", "murder", 90, 20, 90)
    state = state_with(emperor, ahead, behind, phase=SHOOTING, active="imperial")
    from aero_events.rulesets.battlefleet_gothic.shooting import bears

    cls = RULES.data.classes["emperor"]
    dorsal = cls.weapon("dorsal_battery")
    assert bears(RULES, state, state.ships["emperor"], dorsal, state.ships["ahead"].position, "ahead")
    assert not bears(RULES, state, state.ships["emperor"], dorsal, state.ships["behind"].position, "behind")


def carnage_squadron():
    agrippa = ship("agrippa", "imperial", "lunar", 90, 20, 0, name="Agrippa")
    first = replace(ship("carnage1", "chaos", "carnage", 85, 45, 90), squadron="raiders")
    second = replace(ship("carnage2", "chaos", "carnage", 95, 45, 90), squadron="raiders")
    loner = ship("loner", "chaos", "carnage", 100, 45, 90)
    return state_with(agrippa, first, second, loner, phase=SHOOTING, active="chaos")


def test_a_carnage_squadron_fires_one_broadside_of_firepower_32_p20():
    """p.20: "a squadron of two Carnage cruisers can have up to firepower 32 in one broadside, or firepower
    (20+12)": both ships' starboard and prow batteries in one roll, 14 + 8 dice against the closing Agrippa."""
    state = carnage_squadron()
    mates = (("carnage2", "starboard_battery"), ("carnage2", "starboard_long_battery"), ("carnage2", "prow_battery"))
    command = FireWeapons(player="chaos", ship="carnage1", target="agrippa",
                          weapons=("starboard_battery", "starboard_long_battery", "prow_battery"), squadron=mates)
    assert command in QUIET.legal_commands(state, "chaos")
    events, after = decide(state, command, [1] * 22, rules=QUIET)
    gunnery = of_type(events, ev.GunneryResolved)[0]
    assert (gunnery.firepower, gunnery.column, gunnery.dice) == (32, "B", 22)
    assert after.ships["carnage2"].weapons_used == {"starboard_battery": 6, "starboard_long_battery": 4,
                                                    "prow_battery": 6}
    assert {shot.shooter for shot in after.shots} == {"carnage1", "carnage2"}
    with pytest.raises(RuleError, match="squadron"):
        decide(state, replace(command, squadron=(("loner", "starboard_battery"),)), rules=QUIET)


def test_squadron_fire_waits_for_the_targets_brace_decision_p23():
    state = carnage_squadron()
    command = FireWeapons(player="chaos", ship="carnage1", target="agrippa", weapons=("starboard_battery",),
                          squadron=(("carnage2", "starboard_battery"),))
    _, waiting = decide(state, command)
    assert waiting.pending.joined == (("carnage2", "starboard_battery", 6),)
    events, _ = decide(waiting, React(player="imperial", ship="agrippa", brace=False), [1] * 10)
    assert of_type(events, ev.GunneryResolved)[0].firepower == 12
