"""TERMINOLOGY, SPECIAL RULES, MAY NOT RUN OR DECLARE CHARGES, DIFFICULT TO HIT, STRAFING RUN, VULNERABLE TO TAIL
ATTACKS, and the Initiative effects of EVADE and LOCK-ON (Million-Colored Sun: Combined Flight Rules, 2018)."""

from __future__ import annotations

import pytest

from aero_events.core import DiceCup, RuleError, SeededDice
from aero_events.rulesets.million_colored_sun import damage
from aero_events.rulesets.million_colored_sun import events as ev
from aero_events.rulesets.million_colored_sun.commands import DeclareCharge, MoveModel, Shoot
from aero_events.rulesets.million_colored_sun.state import CHARGE, MOVEMENT, SHOOTING
from aero_events.rulesets.million_colored_sun.turn import Emitter

from .helpers import RULES, decide, model, of_type, options, state_with, with_model

RIFLE = "Long Rifle"


def shooting(*models, rules=RULES):
    # an azure gun with a target in range keeps the shooting phase open after the shot tested
    return state_with(model("azure-gun", "flak-gun", 4, 4), model("crimson-decoy", "infantry", 4, 30), *models,
                      phase=SHOOTING, rules=rules)


def rifle_at(state, target, faces, shooter="azure-trooper", rules=RULES):
    return decide(state, Shoot(player="azure", model=shooter, weapon=RIFLE, target=target), faces, rules)


def initiative_tests(events):
    return [(t.reason, t.roll, t.modifier, t.passed) for t in of_type(events, ev.InitiativeTested)]


def test_terminology_airborne_models_may_have_other_movement_modes():
    """TERMINOLOGY: AIRBORNE models may also have other modes (walking, FLY) given on the warscroll."""
    wyvern = RULES.data.warscrolls["wyvern"]
    assert wyvern.modes == ("fly", "airborne") and wyvern.start_mode == "airborne"
    assert RULES.data.warscrolls["fighter"].modes == ("airborne",)


def test_special_rules_apply_only_in_the_airborne_mode():
    """SPECIAL RULES: "These rules only apply when the model is using its AIRBORNE movement mode"."""
    state = shooting(model("azure-trooper", "infantry", 30, 10), model("crimson-wyvern", "wyvern", 30, 20, 90))
    # hit 6, wound 6, save 1 (fails the wyvern's 4+), then its Difficult to Hit test: 6
    events, after = rifle_at(state, "crimson-wyvern", [6, 6, 1, 6])
    assert initiative_tests(events) == [("Difficult to Hit", 6, 0, True)] and after.models["crimson-wyvern"].wounds_taken == 0
    flying_low = with_model(state, "crimson-wyvern", mode="fly")
    events, after = rifle_at(flying_low, "crimson-wyvern", [6, 6, 1])
    assert initiative_tests(events) == [] and after.models["crimson-wyvern"].wounds_taken == 1


def test_difficult_to_hit_uses_the_aircraft_initiative_not_the_pilots():
    """DIFFICULT TO HIT: an Initiative test per wound; a pass ignores it; "use the AIRBORNE model's Initiative, not
    the pilots" (the fighter 4+, its pilot 3+)."""
    state = shooting(model("azure-trooper", "infantry", 30, 10), model("crimson-fighter", "fighter", 30, 20, 90))
    events, after = rifle_at(state, "crimson-fighter", [6, 6, 1, 4])
    assert initiative_tests(events) == [("Difficult to Hit", 4, 0, True)] and after.models["crimson-fighter"].wounds_taken == 0
    events, after = rifle_at(state, "crimson-fighter", [6, 6, 1, 3])
    assert initiative_tests(events) == [("Difficult to Hit", 3, 0, False)]
    assert after.models["crimson-fighter"].wounds_taken == 1


def test_difficult_to_hit_does_not_apply_to_mortal_wounds():
    """DIFFICULT TO HIT: "This rule does not apply for mortal wounds"."""
    state = shooting(model("crimson-fighter", "fighter", 30, 20))
    out = Emitter(state, RULES.evolve)
    damage.mortal_wounds(RULES, out, DiceCup(SeededDice(3)), "crimson-fighter", "test", None)
    assert not of_type(out.events, ev.InitiativeTested)
    assert out.state.models["crimson-fighter"].wounds_taken == of_type(out.events, ev.WoundsAllocated)[0].wounds > 0


def test_strafing_run_lets_the_ground_target_test_each_wound():
    """STRAFING RUN: "When an AIRBORNE model shoots at a model which is not AIRBORNE, that model may take an
    Initiative test for each wound inflicted"."""
    state = shooting(model("azure-fighter", "fighter", 30, 10), model("crimson-gun", "flak-gun", 30, 25))
    # 4 attacks: hits 6,6,1,1; wounds 6,6; saves 1,1 (4+ with Rend 1); Initiative 6+: 6 passes, 5 fails
    events, after = decide(state, Shoot(player="azure", model="azure-fighter", weapon="Twin Autocannon",
                                        target="crimson-gun"), [6, 6, 1, 1, 6, 6, 1, 1, 6, 5])
    assert initiative_tests(events) == [("Strafing Run", 6, 0, True), ("Strafing Run", 5, 0, False)]
    assert after.models["crimson-gun"].wounds_taken == 1
    # a ground shooter gives no such test
    state = shooting(model("azure-trooper", "infantry", 30, 10), model("crimson-gun", "flak-gun", 30, 25))
    events, _ = rifle_at(state, "crimson-gun", [6, 6, 1])
    assert initiative_tests(events) == []


def test_strafing_run_does_not_protect_behemoths_that_are_not_airborne():
    """STRAFING RUN: "Behemoths which are not AIRBORNE do not benefit from this rule"."""
    state = shooting(model("azure-fighter", "fighter", 30, 10), model("crimson-wyvern", "wyvern", 30, 25))
    state = with_model(state, "crimson-wyvern", mode="fly")
    events, after = decide(state, Shoot(player="azure", model="azure-fighter", weapon="Twin Autocannon",
                                        target="crimson-wyvern"), [6, 1, 1, 1, 6, 1])
    assert initiative_tests(events) == [] and after.models["crimson-wyvern"].wounds_taken == 1


def test_vulnerable_to_tail_attacks_doubles_wounds_from_the_rear_arc():
    """VULNERABLE TO TAIL ATTACKS: "AIRBORNE models which take damage from shooting directed at their rear arc double
    the amount of wounds inflicted" (rear arc: 90 degrees behind; doubled before Difficult to Hit)."""
    behind = shooting(model("azure-trooper", "infantry", 36, 14), model("crimson-fighter", "fighter", 36, 24, 0))
    events, after = rifle_at(behind, "crimson-fighter", [6, 6, 1, 1, 1])
    made = of_type(events, ev.AttacksMade)[0]
    assert made.doubled and made.inflicted == 2 and len(initiative_tests(events)) == 2
    assert after.models["crimson-fighter"].wounds_taken == 2
    beside = shooting(model("azure-trooper", "infantry", 46, 24), model("crimson-fighter", "fighter", 36, 24, 0))
    events, _ = rifle_at(beside, "crimson-fighter", [6, 6, 1, 1])
    assert not of_type(events, ev.AttacksMade)[0].doubled


def test_rear_arc_of_180_degrees_as_an_option():
    """VULNERABLE TO TAIL ATTACKS, option ``rear_arc_degrees=180``: the rear arc is undefined in the text."""
    wide = options(rear_arc_degrees=180)
    quarter = [model("azure-trooper", "infantry", 44, 18), model("crimson-fighter", "fighter", 36, 24, 0)]
    events, _ = rifle_at(shooting(*quarter), "crimson-fighter", [6, 6, 1, 1])
    assert not of_type(events, ev.AttacksMade)[0].doubled
    events, _ = rifle_at(shooting(*quarter, rules=wide), "crimson-fighter", [6, 6, 1, 1, 1], rules=wide)
    assert of_type(events, ev.AttacksMade)[0].doubled


def test_evade_adds_one_to_the_models_initiative_rolls():
    """EVADE: "add one to any initiative rolls made for this model when rolling to avoid damage"."""
    state = shooting(model("azure-trooper", "infantry", 30, 10), model("crimson-fighter", "fighter", 30, 20, 90))
    state = with_model(state, "crimson-fighter", evade=True)
    events, after = rifle_at(state, "crimson-fighter", [6, 6, 1, 3])
    assert initiative_tests(events) == [("Difficult to Hit", 3, 1, True)] and after.models["crimson-fighter"].wounds_taken == 0


def test_lock_on_makes_the_models_fired_upon_subtract_one():
    """LOCK-ON: "any models fired upon must subtract one from their initiative roll when rolling to avoid damage"."""
    state = shooting(model("azure-fighter", "fighter", 30, 10), model("crimson-trooper", "infantry", 30, 25))
    state = with_model(state, "azure-fighter", lock_on=True)
    events, after = decide(state, Shoot(player="azure", model="azure-fighter", weapon="Twin Autocannon",
                                        target="crimson-trooper"), [6, 1, 1, 1, 6, 1, 5])
    assert initiative_tests(events) == [("Strafing Run", 5, -1, False)]
    assert after.models["crimson-trooper"].status == "slain"


def test_a_natural_one_fails_as_an_option():
    """Initiative (gap: "Initiative 2+" read as a target number): a natural 1 fails only with the option."""
    def missile_under_fire(rules):
        state = shooting(model("azure-trooper", "infantry", 30, 10), model("crimson-missile", "missile", 30, 20, 90),
                         rules=rules)
        return with_model(state, "crimson-missile", evade=True)  # 1 + 1 reaches the missile's 2+

    events, _ = rifle_at(missile_under_fire(RULES), "crimson-missile", [6, 6, 1, 1])
    assert initiative_tests(events) == [("Difficult to Hit", 1, 1, True)]
    strict = options(natural_one_fails=True)
    events, after = rifle_at(missile_under_fire(strict), "crimson-missile", [6, 6, 1, 1], rules=strict)
    assert initiative_tests(events) == [("Difficult to Hit", 1, 1, False)]
    assert after.models["crimson-missile"].status == "exploded"


def test_airborne_models_may_not_run_or_declare_charges():
    """MAY NOT RUN OR DECLARE CHARGES: "AIRBORNE models may not run or declare charges"."""
    moving = state_with(model("azure-fighter", "fighter", 30, 10), model("azure-wing", "fighter", 60, 10),
                        model("crimson-trooper", "infantry", 30, 14), phase=MOVEMENT)
    with pytest.raises(RuleError, match="may not run"):
        decide(moving, MoveModel(player="azure", model="azure-fighter", heading=0, distance=2540, run=True))
    charging = state_with(model("azure-fighter", "fighter", 30, 10), model("azure-trooper", "infantry", 10, 10),
                          model("crimson-trooper", "infantry", 30, 14), phase=CHARGE)
    with pytest.raises(RuleError, match="may not declare charges"):
        decide(charging, DeclareCharge(player="azure", model="azure-fighter", target="crimson-trooper"))
    assert not any(getattr(c, "model", "") == "azure-fighter" for c in RULES.legal_commands(charging, "azure"))


def test_airborne_models_may_only_be_charged_by_fly_models():
    """MAY NOT RUN OR DECLARE CHARGES: "They may only be charged by models with the FLY special rule"."""
    state = state_with(model("azure-trooper", "infantry", 30, 10), model("azure-wyvern", "wyvern", 40, 10),
                       model("crimson-fighter", "fighter", 35, 16), phase=CHARGE)
    state = with_model(state, "azure-wyvern", mode="fly")
    with pytest.raises(RuleError, match="only be charged by models with the FLY"):
        decide(state, DeclareCharge(player="azure", model="azure-trooper", target="crimson-fighter"))
    events, _ = decide(state, DeclareCharge(player="azure", model="azure-wyvern", target="crimson-fighter"), [6, 6])
    assert of_type(events, ev.ChargeRolled)[0].success
