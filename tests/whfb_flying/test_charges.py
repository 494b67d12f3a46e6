"""Intercept and Swoop (Movement, Shooting and Combat headings), Combat, Take Off/Land (Combat), Fly (Combat),
Soar (Combat), Fly High (Combat)."""

from __future__ import annotations

import pytest

from aero_events.core import DiceCup, RuleError, TapeDice
from aero_events.core.orders import ReactionWindowOpened
from aero_events.rulesets.whfb_flying import commands as cmd
from aero_events.rulesets.whfb_flying import events as ev
from aero_events.rulesets.whfb_flying.combat import initiative, resolve
from aero_events.rulesets.whfb_flying.events import (
    AttackResolved,
    ChargeDeclared,
    ChargeResolved,
    CombatResolved,
    FlewHigh,
    UnitFled,
    UnitMoved,
)
from aero_events.rulesets.whfb_flying.fleeing import flee
from aero_events.rulesets.whfb_flying.geometry import footprint
from aero_events.rulesets.whfb_flying.state import Combat
from aero_events.rulesets.whfb_flying.turn import Emitter

from .helpers import IN, RULES, battle, decide, of_type, options, replace, terrain, unit, with_unit

IDLE = unit("n-idle", "spearmen", 10, 44, 2)
SPEARS = unit("s-sp", "spearmen", 20, 24, 18)  # facing north; left flank at x = 22.03", y 14.85" to 18"


def swoop_state(x=14.0, y=16.0, flyer=("pegasus_knights", 3), target=SPEARS, extra_south=(), extra_north=(),
                terrain=()):
    return battle([unit("n-fly", flyer[0], flyer[1], x, y, 90), IDLE, *extra_north], [target, *extra_south],
                  air=("n-fly",), terrain=terrain)


def swoop(state, d6, reaction="hold", flank="left", rules=RULES, declare_faces=()):
    """Declare a Swoop on s-sp and answer the reaction window; ``d6`` is the Swoop's roll."""
    events, state = decide(state, cmd.Swoop(player="north", unit="n-fly", target="s-sp", flank=flank),
                           declare_faces, rules=rules)
    more, after = decide(state, cmd.React(player="south", choice=reaction), [d6], rules=rules)
    return events + more, after


def fight(state, faces=(), rules=RULES):
    """North ends its Movement phase: Magic and Shooting pass, the Close Combat phase is fought."""
    return decide(state, cmd.EndPhase(player="north"), faces, rules=rules)


# ---------------------------------------------------------------- Swoop


def test_swoop_is_m_plus_d6_to_the_target_flank():
    """Swoop: "M + D6 to the target flank": 8" + 4 falls short of 12.03", 8" + 5 reaches it."""
    events, after = swoop(swoop_state(x=10), 4)
    assert not of_type(events, ChargeResolved)[0].reached and not after.combats
    events, after = swoop(swoop_state(x=10), 5)
    resolved = of_type(events, ChargeResolved)[0]
    assert resolved.reached and resolved.side == "left" and after.combats[0].kind == "swoop"


def test_swoop_must_attack_an_open_flank():
    """Swoop (Combat): "They must attack on an open flank of the ground unit"."""
    blocker = replace(unit("n-block", "spearmen", 10, 0, 16.5, 90), x=24 * IN - 5000)  # front on s-sp's left flank
    state = swoop_state(extra_north=(blocker,))
    with pytest.raises(RuleError, match="open flank"):
        decide(state, cmd.Swoop(player="north", unit="n-fly", target="s-sp", flank="left"))
    events, _ = decide(state, cmd.Swoop(player="north", unit="n-fly", target="s-sp", flank="right"))
    assert of_type(events, ChargeDeclared)


def test_swoop_is_an_air_to_ground_charge():
    """Swoop: "An Air to Ground Charge": not on a unit in the air, not from the ground."""
    state = swoop_state()
    with pytest.raises(RuleError, match="Air to Ground"):
        decide(with_unit(state, "s-sp", in_air=True), cmd.Swoop(player="north", unit="n-fly", target="s-sp",
                                                                 flank="left"))
    with pytest.raises(RuleError, match="Air to Ground"):
        decide(with_unit(state, "n-fly", in_air=False), cmd.Swoop(player="north", unit="n-fly", target="s-sp",
                                                                   flank="left"))


def test_swoop_flyers_bunch_and_only_models_in_base_contact_attack():
    """Swoop (Combat): "Flying models bunch together ... can only attack enemy models they are in base contact
    with. (The whole unit of Flying models does not attack like in the Intercept maneuver.)": 3 of 5 harpies
    fit the 80 mm flank."""
    events, state = swoop(swoop_state(flyer=("harpies", 5)), 6)
    assert of_type(events, ChargeResolved)[0].contacts == 3
    events, _ = fight(state)
    blows = [e for e in of_type(events, AttackResolved) if e.attacker == "n-fly"]
    assert blows[0].dice == 3


def test_swoop_plus_one_initiative_target_strikes_back_with_supporting_attacks():
    """Swoop (Combat): "Flying units gain +1 Initiative"; "The target unit may strike back, like normal";
    "Supporting Attacks rules still apply": 4 spearmen on the flank and 4 supporting."""
    _, state = swoop(swoop_state(), 6)
    events, _ = fight(state)
    blows = [e for e in of_type(events, AttackResolved) if e.attack.startswith("close combat")]
    assert [b.attacker for b in blows] == ["n-fly", "s-sp"]
    assert "Initiative 4" in blows[0].modifiers and "Initiative 3" in blows[1].modifiers
    assert blows[1].dice == 8


def test_swoop_adds_one_to_combat_resolution():
    """Swoop (Combat): "Add +1 to Combat Resolution for the Flying units"."""
    _, state = swoop(swoop_state(), 6)
    events, after = fight(state)
    caused = {e.attacker: e.unsaved for e in of_type(events, AttackResolved) if e.attack.startswith("close")}
    resolved = of_type(events, CombatResolved)[0]
    assert resolved.scores["north"] == caused["n-fly"] + 1
    ranks = min(3, after.units["s-sp"].models // 5 - 1)  # the host's rank bonus of the unit on the ground
    assert resolved.scores["south"] == caused["s-sp"] + ranks and "n-fly +1 Swoop" in resolved.details


def test_swoop_flyers_continue_beyond_the_opposite_flank_and_do_not_stay_in_combat():
    """Swoop: "M + D6 beyond the unit on the opposite flank"; Swoop (Combat): "After the blows, the Flying units
    continue to Swoop back up into the air beyond the flank of the target ... Flying units must land on the
    ground and then charge on the ground if they wish to engage in multiple rounds"."""
    _, state = swoop(swoop_state(), 6)
    rules = RULES
    events, after = fight(state)
    exits = [e for e in of_type(events, UnitMoved) if e.how == "swoop exit"]
    assert after.units["n-fly"].in_play and not after.units["n-fly"].fleeing
    assert exits, "the flyers swoop out"
    far_flank = 24 * IN + footprint(state.units["s-sp"], rules.profile(state.units["s-sp"])).width // 2
    roll = next(e for e in events if getattr(e, "purpose", "").startswith("swoop exit")).faces[0]
    flyer_length = footprint(state.units["n-fly"], rules.profile(state.units["n-fly"])).length
    assert exits[0].pose.x == far_flank + flyer_length + (8 + roll) * IN
    assert after.units["n-fly"].in_air and not any("n-fly" in (c.charger, c.target) for c in after.combats)


def test_a_blocked_swoop_exit_is_shortened_to_the_last_clear_place():
    """Spec gap (a blocked Swoop): the exit leg is shortened 1" at a time until the flyers are clear of units in
    the air."""
    harpies = unit("s-harp", "harpies", 5, 40, 17, 0)
    _, state = swoop(swoop_state(extra_south=(harpies,)), 6)
    state = with_unit(state, "s-harp", in_air=True)
    events, after = fight(state)
    exits = [e for e in of_type(events, UnitMoved) if e.how == "swoop exit"]
    assert exits
    flyer = footprint(after.units["n-fly"], RULES.profile(after.units["n-fly"]))
    harp = footprint(after.units["s-harp"], RULES.profile(after.units["s-harp"]))
    assert flyer.pose.x + flyer.length // 2 <= harp.pose.x - harp.width // 2 + 1
    far_flank = 24 * IN + 5000
    roll = next(e for e in events if getattr(e, "purpose", "").startswith("swoop exit")).faces[0]
    assert exits[0].pose.x < far_flank + flyer.length + (8 + roll) * IN


def test_swoop_into_a_forest_takes_a_dangerous_terrain_test_rooftops_do_not():
    """Swoop (Combat): "They must take a Dangerous Terrain test if they Swoop into forests or other terrain with
    tall features ... They may Swoop onto rooftops without penalty"."""
    wood = terrain("wood", "forest", 24, 16, 6, 6, cover=-1, dangerous=True)
    events, _ = swoop(swoop_state(terrain=(wood,)), 6)
    assert [t for t in of_type(events, ev.TestTaken) if t.test == "dangerous terrain" and t.unit == "n-fly"]
    roof = terrain("roof", "building", 24, 16, 6, 6, cover=-2, dangerous=True)
    events, _ = swoop(swoop_state(terrain=(roof,)), 6)
    assert not [t for t in of_type(events, ev.TestTaken) if t.test == "dangerous terrain"]


def test_swoop_fear_and_terror_apply_in_both_directions():
    """Swoop (Combat): "Fear/Terror rules apply in both directions": the ground unit tests against a
    Terror-causing flyer, and flyers test against a Fear-causing unit on the ground."""
    events, state = swoop(swoop_state(flyer=("wyvern_lord", 1)), 6, declare_faces=[1, 1])  # Terror: passed
    assert [t for t in of_type(events, ev.TestTaken) if t.unit == "s-sp" and t.test == "panic (Terror)"]
    events, _ = fight(state)
    assert [t for t in of_type(events, ev.TestTaken) if t.unit == "s-sp" and t.test == "fear"]
    wyvern = unit("s-sp", "wyvern_lord", 1, 24, 18)
    _, state = swoop(swoop_state(target=wyvern), 6)
    events, _ = fight(state)
    assert [t for t in of_type(events, ev.TestTaken) if t.unit == "n-fly" and t.test == "fear"]


def test_swoop_stand_and_shoot_at_minus_one_and_the_flyers_shoot_at_plus_one():
    """Swoop (Shooting): "A ground unit being charged from an aerial unit can do a type of Stand and Shoot if
    available (with -1 To Hit). The charging unit may also shoot ... with a +1 To Hit Modifier"."""
    archers = unit("s-sp", "archers", 10, 24, 18)  # the flyers start in the archers' front arc
    misses = [1] * 10  # the archers' ten Stand and Shoot dice, then the Swoop's D6
    for rules, needed in ((RULES, 5), (options(swoop_stand_and_shoot_modifier=-2), 6)):
        state = swoop_state(x=21, y=24, target=archers)
        _, state = decide(state, cmd.Swoop(player="north", unit="n-fly", target="s-sp", flank="left"), rules=rules)
        events, _ = decide(state, cmd.React(player="south", choice="stand and shoot"), [*misses, 6], rules=rules)
        shots = {e.attack: e for e in of_type(events, AttackResolved)}
        assert shots["stand and shoot"].to_hit == needed
        assert shots["stand and shoot"].modifiers[0].startswith("Stand and Shoot (Swoop)")
        assert shots["swoop shot"].modifiers == ("Swoop: shooting the ground unit +1",)
        assert shots["swoop shot"].to_hit == 3  # BS3 needs 4+, +1


# ---------------------------------------------------------------- Intercept


def intercept_state(gap_inches=18.5, target=("harpies", 5), target_heading=0, flight=""):
    # n-fly's front at x; the target's footprint starts gap_inches beyond it
    north = [unit("n-fly", "pegasus_knights", 3, 10, 16, 90), IDLE]
    south = [unit("s-air", target[0], target[1], 0, 16, target_heading)]
    state = battle(north, south, air=("n-fly", "s-air"))
    rect = footprint(state.units["s-air"], RULES.profile(state.units["s-air"]))
    near_edge = rect.width // 2 if target_heading in (0, 180) else rect.length // 2
    x = 10 * IN + round(gap_inches * IN) + near_edge
    pose = replace(state.units["s-air"].pose, x=x - (rect.pose.x - state.units["s-air"].pose.x))
    return with_unit(state, "s-air", pose=pose, flight=flight)


def intercept(state, d6, reaction="hold", faces=()):
    _, state = decide(state, cmd.Intercept(player="north", unit="n-fly", target="s-air"))
    return decide(state, cmd.React(player="south", choice=reaction), [d6, *faces])


def test_intercept_is_an_air_to_air_charge_of_2m_plus_d6():
    """Intercept: "An Air to Air Charge. 2M + D6": 16" + 2 is short of 18.5", 16" + 3 reaches."""
    events, _ = intercept(intercept_state(), 2)
    assert not of_type(events, ChargeResolved)[0].reached
    events, after = intercept(intercept_state(), 3)
    assert of_type(events, ChargeResolved)[0].reached and after.combats[0].kind == "intercept"
    state = with_unit(intercept_state(), "s-air", in_air=False)
    with pytest.raises(RuleError, match="Air to Air"):
        decide(state, cmd.Intercept(player="north", unit="n-fly", target="s-air"))


def test_intercept_shots_in_initiative_order_at_minus_one_both_ways():
    """Intercept (Shooting): "A model that hasn't already shot this phase can shoot ... immediately before an
    air-to-air attack. Follow Initiative Order, including Charge bonuses for Initiative ... -1 to Hit Modifier
    in either direction"."""
    events, _ = intercept(intercept_state(target=("pegasus_knights", 3)), 6, reaction="stand and shoot")
    shots = [e for e in of_type(events, AttackResolved) if e.attack == "intercept shot"]
    assert [s.attacker for s in shots] == ["n-fly", "s-air"]
    assert all(s.modifiers == ("Intercept -1",) and s.to_hit == 5 for s in shots)


def test_aerial_units_cannot_stand_and_shoot_after_taking_off():
    """Intercept (Shooting): "Aerial units can Stand and Shoot per se, unless they did a Take off on their last
    Movement turn"."""
    events, _ = decide(intercept_state(target=("pegasus_knights", 3)),
                       cmd.Intercept(player="north", unit="n-fly", target="s-air"))
    assert "stand and shoot" in of_type(events, ReactionWindowOpened)[0].decision.choices
    events, _ = decide(intercept_state(target=("pegasus_knights", 3), flight="take off"),
                       cmd.Intercept(player="north", unit="n-fly", target="s-air"))
    assert "stand and shoot" not in of_type(events, ReactionWindowOpened)[0].decision.choices


def test_intercept_all_models_strike_with_plus_one_initiative_for_the_charger():
    """Intercept (Combat): "The entire unit(s) may engage ... (all models are allowed to strike.) +1 Initiative
    for Charging units"."""
    _, state = intercept(intercept_state(), 6)
    events, _ = fight(state)
    blows = {}
    for blow in of_type(events, AttackResolved):
        if blow.attack.startswith("close combat"):
            blows.setdefault(blow.attacker, blow)  # the first round
    assert blows["s-air"].dice == state.units["s-air"].models > 3 and blows["n-fly"].dice == 3
    assert "Initiative 4" in blows["n-fly"].modifiers  # I3 + 1


def test_intercept_flank_bonus_applies():
    """Intercept (Combat): "Flank bonuses still apply": an Intercept into the target's flank adds +1."""
    _, state = intercept(intercept_state(target_heading=0), 6)
    assert state.combats[0].side == "left"
    events, _ = fight(state)
    assert "n-fly +1 left" in of_type(events, CombatResolved)[0].details


def test_intercept_gives_no_extra_ranks_for_combat_resolution():
    """Intercept (Combat): "No Extra Ranks for Combat Resolution" (the host's rank bonus counts on the ground).
    """
    state = battle([unit("n-a", "spearmen", 20, 10, 10)], [unit("s-b", "spearmen", 20, 30, 30)])
    for kind, expected in (("ground", ("n-a +3 ranks", "s-b +3 ranks")), ("intercept", ())):
        state_k = replace(state, combats=(Combat(charger="n-a", target="s-b", kind=kind, side="front"),))
        out = Emitter(state_k, RULES.evolve)
        resolve(RULES, out, DiceCup(TapeDice([6] * 10)), state_k.combats, {"north": 0, "south": 0})
        assert of_type(out.events, CombatResolved)[0].details == expected


# ---------------------------------------------------------------- Combat, Take Off/Land, Fly, Soar, Fly High


@pytest.mark.parametrize("flight, rule", [("take off", "Take Off/Land (Combat)"), ("fly", "Fly (Combat)"),
                                          ("soar", "Fly (Combat)")])
def test_ground_units_cannot_charge_units_in_the_air(flight, rule):
    """Combat: "Ground units cannot attack Flying units except with ranged attacks, or during the Swoop"; Take
    Off/Land (Combat): "Units that have Taken Off during their last Movement turn cannot be charged by ground
    units"; Fly, Soar (Combat): "A unit on the ground cannot engage in Close Combat with a unit in the air".
    """
    state = battle([unit("n-sp", "spearmen", 20, 20, 10), IDLE], [unit("s-peg", "pegasus_knights", 3, 20, 16, 180)],
                   air=("s-peg",))
    state = with_unit(state, "s-peg", flight=flight)
    with pytest.raises(RuleError) as refused:
        decide(state, cmd.Charge(player="north", unit="n-sp", target="s-peg"))
    assert refused.value.rule == rule


def test_units_that_landed_may_be_charged_on_the_ground():
    """Take Off/Land (Combat): "Units that have recently landed are eligible for a ground charge"."""
    state = battle([unit("n-sp", "spearmen", 20, 20, 10), IDLE], [unit("s-peg", "pegasus_knights", 3, 20, 16, 180)])
    state = with_unit(state, "s-peg", flight="land")
    events, _ = decide(state, cmd.Charge(player="north", unit="n-sp", target="s-peg"))
    assert of_type(events, ChargeDeclared)


def test_take_off_or_land_gives_minus_one_initiative():
    """Take Off/Land (Combat): "A model who made such moves on its previous Movement turn has -1 Initiative".
    """
    state = battle([unit("n-peg", "pegasus_knights", 3, 20, 10)], [unit("s-sp", "spearmen", 20, 30, 30)])
    for flight, expected in (("take off", 2), ("land", 2), ("fly", 3), ("", 3)):
        assert initiative(RULES, state, with_unit(state, "n-peg", flight=flight).units["n-peg"]) == expected


def test_a_flyer_fleeing_in_the_air_takes_the_fly_high_test():
    """Fly High (Combat): "Roll a D6. On a 4+ they Fly High and are immediately out of the game ... If they fail
    the Fly High test, they Flee horizontally ... using the normal Swiftstride Rules"."""
    state = battle([unit("n-peg", "pegasus_knights", 3, 24, 10)], [unit("s-sp", "spearmen", 20, 40, 30)],
                   air=("n-peg",))
    out = Emitter(state, RULES.evolve)
    flee(RULES, out, DiceCup(TapeDice([4])), "n-peg", (24 * IN, 0), reason="test")
    assert of_type(out.events, FlewHigh) and out.state.units["n-peg"].status == "flown high"
    out = Emitter(state, RULES.evolve)
    flee(RULES, out, DiceCup(TapeDice([3, 2, 3, 4])), "n-peg", (24 * IN, 0), reason="test")
    fled = of_type(out.events, UnitFled)[0]
    assert fled.distance == 7 * IN and out.state.units["n-peg"].in_air and out.state.units["n-peg"].fleeing
