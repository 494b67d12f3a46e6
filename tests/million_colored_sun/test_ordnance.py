"""MISSILES, BOMBS and BOMBING RUN (Million-Colored Sun: Combined Flight Rules, 7 April 2018)."""

from __future__ import annotations

import pytest

from aero_events.core import DiceCup, RuleError, TapeDice
from aero_events.rulesets.million_colored_sun import actions
from aero_events.rulesets.million_colored_sun import events as ev
from aero_events.rulesets.million_colored_sun.commands import FlyManoeuvre, Shoot
from aero_events.rulesets.million_colored_sun.state import MOVEMENT, SHOOTING
from aero_events.rulesets.million_colored_sun.turn import Emitter
from aero_events.table import inches

from .helpers import RULES, decide, model, of_type, replace, state_with, with_model


def missile_flight(*others, launched_turn=0):
    state = state_with(model("azure-missile", "missile", 36, 10), model("azure-wing", "fighter", 66, 44),
                       *others, phase=MOVEMENT)
    state = with_model(state, "azure-wing", moved=True)
    return with_model(state, "azure-missile", launched_turn=launched_turn)


def fly_missile(state, manoeuvre="cruise-20", faces=()):
    return decide(state, FlyManoeuvre(player="azure", model="azure-missile", manoeuvre=manoeuvre), faces)


def test_missiles_have_1_wound_a_5_plus_save_and_initiative_2_plus():
    """MISSILES: "Missiles have 1W, a 5+ save and Initiative 2+"; Cruise (20" only), Bank and Hard Turn."""
    missile = RULES.data.warscrolls["missile"]
    assert (missile.wounds, missile.save, missile.initiative) == (1, 5, 2)
    assert set(missile.manoeuvres) == {"cruise-20", "bank-left", "bank-right", "hard-left", "hard-right"}
    with pytest.raises(RuleError, match="cannot perform 'cruise-30'"):
        fly_missile(missile_flight(), "cruise-30")


def test_missiles_behave_as_airborne_models_moving_after_the_others():
    """MISSILES: "behave exactly as though they were an AIRBORNE model"; they move in their controller's movement
    phase (after its other AIRBORNE models: a choice) and must fly."""
    state = with_model(missile_flight(), "azure-wing", moved=False)
    with pytest.raises(RuleError, match="missiles move after"):
        fly_missile(state)
    _, after = fly_missile(missile_flight())
    missile = after.models["azure-missile"]
    assert (missile.x, missile.y) == (inches(36), inches(30))


def test_a_missile_passing_within_1_inch_makes_the_model_test_at_minus_one():
    """MISSILES: "If a missile's flight path takes it within 1" of an enemy model ... That model must take an
    initiative test (subtract one ...)"; a pass lets it continue "possibly passing within 1" of other models"."""
    state = missile_flight(model("crimson-a", "infantry", "37.5", 15), model("crimson-b", "infantry", "34.5", 25),
                           model("crimson-far", "infantry", 40, 25), model("azure-friend", "infantry", "37.5", 20))
    events, after = fly_missile(state, faces=[6, 6])
    assert [e.target for e in of_type(events, ev.MissileTriggered)] == ["crimson-a", "crimson-b"]  # enemies only
    tests = [(t.model, t.roll, t.modifier, t.passed) for t in of_type(events, ev.InitiativeTested)]
    assert tests == [("crimson-a", 6, -1, True), ("crimson-b", 6, -1, True)]
    assert after.models["azure-missile"].y == inches(30) and after.models["azure-missile"].status == "active"


def test_a_failed_test_explodes_the_missile_d6_mortal_wounds_and_a_3_inch_blast():
    """MISSILES: "If the test is failed, the missile explodes and the model suffers D6 mortal wounds. All other
    models within 3" of the explosion must also take an initiative test (subtract one) or suffer D6 mortal
    wounds"."""
    state = missile_flight(model("crimson-gun", "flak-gun", "37.5", 18), model("crimson-trooper", "infantry", "38.5", 17),
                           model("crimson-far", "infantry", 40, 28))
    # the gun tests (6+ at -1): 2, fails: D6 = 4 mortal wounds; the blast: the trooper (5+ at -1): 1, fails, D6 = 1
    events, after = fly_missile(state, faces=[2, 4, 1, 1])
    (exploded,) = of_type(events, ev.MissileExploded)
    assert exploded.reason == "target" and after.models["azure-missile"].status == "exploded"
    assert after.models["azure-missile"].y < inches(18)
    assert after.models["crimson-gun"].wounds_taken == 4
    assert after.models["crimson-trooper"].status == "slain"
    assert after.models["crimson-far"].wounds_taken == 0
    assert [t.model for t in of_type(events, ev.InitiativeTested)] == ["crimson-gun", "crimson-trooper"]


def test_behemoths_always_fail_the_missile_test():
    """MISSILES: "Behemoths always fail this test"."""
    state = missile_flight(model("crimson-wyvern", "wyvern", 38, 20))
    events, after = fly_missile(state, faces=[3])
    tested = of_type(events, ev.InitiativeTested)[0]
    assert tested.model == "crimson-wyvern" and not tested.passed and tested.roll == 0
    assert of_type(events, ev.MissileExploded) and after.models["crimson-wyvern"].wounds_taken == 3


def test_missiles_run_out_of_fuel_on_a_3_plus():
    """MISSILES: "During your Hero phase, you must roll for each missile you control which started the turn on the
    board: on a 3+, the missile runs out of fuel and explodes"."""
    def hero_start(launched_turn, faces):
        state = state_with(model("azure-missile", "missile", 36, 10), model("crimson-trooper", "infantry", 37, 12))
        state = replace(with_model(state, "azure-missile", launched_turn=launched_turn), turn_number=3)
        out = Emitter(state, RULES.evolve)
        actions.start_of_hero_phase(RULES, out, DiceCup(TapeDice(faces)))
        return out
    stays = hero_start(1, [2])
    assert stays.state.models["azure-missile"].status == "active"
    boom = hero_start(1, [3, 1, 5])  # fuel 3; the trooper's test (5+, -1): 1 fails; D6 mortal wounds 5
    assert of_type(boom.events, ev.MissileExploded)[0].reason == "fuel"
    assert boom.state.models["crimson-trooper"].status == "slain"
    fresh = hero_start(3, [])  # launched this turn: it did not start the turn on the board
    assert not any(e.purpose.startswith("fuel") for e in fresh.events if hasattr(e, "purpose"))


def test_a_destroyed_missile_explodes():
    """MISSILES: "A missile which is destroyed (through shooting, for example) explodes as described below"."""
    state = state_with(model("azure-trooper", "infantry", 30, 10), model("azure-gun", "flak-gun", 4, 4),
                       model("crimson-missile", "missile", 40, 10, 0), model("crimson-trooper", "infantry", 41, 11),
                       phase=SHOOTING)
    # hit 6, wound 6, save 1, Difficult to Hit 1 (2+): the missile is slain; the blast: trooper 6-1 passes
    events, after = decide(state, Shoot(player="azure", model="azure-trooper", weapon="Long Rifle",
                                        target="crimson-missile"), [6, 6, 1, 1, 6])
    assert of_type(events, ev.MissileExploded)[0].reason == "destroyed"
    assert after.models["crimson-missile"].status == "exploded"
    assert [t.model for t in of_type(events, ev.InitiativeTested)] == ["crimson-missile", "crimson-trooper"]


def test_a_missile_flying_off_the_board_is_lost():
    """MOVING OFF THE BOARD / MISSILES: a missile has no way back (a choice)."""
    state = with_model(missile_flight(), "azure-missile", y=inches(40))
    events, after = fly_missile(state)
    assert of_type(events, ev.MissileLost) and after.models["azure-missile"].status == "lost"


# ---------------------------------------------------------------- bombs


def bombing(*others, bombing_run=True):
    state = state_with(model("azure-bomber", "bomber", 36, 4), model("azure-wing", "fighter", 66, 44), *others,
                       phase=MOVEMENT)
    return with_model(state, "azure-bomber", bombing_run=bombing_run)


def bomb(state, manoeuvre="cruise-20", at=5, faces=()):
    return decide(state, FlyManoeuvre(player="azure", model="azure-bomber", manoeuvre=manoeuvre,
                                      bomb_at=inches(at)), faces)


def test_the_bomb_is_placed_on_the_flight_path_and_drifts_d6_inches_along_it():
    """BOMBS: "Choose any point during the model's movement and place a bomb counter. Then move that counter forward
    D6" along the AIRBORNE model's flight path"."""
    events, _ = bomb(bombing(), at=5, faces=[3])
    dropped = of_type(events, ev.BombDropped)[0]
    assert dropped.drop == (inches(36), inches(9)) and dropped.drift == 3 and (dropped.x, dropped.y) == \
        (inches(36), inches(12))
    events, _ = bomb(bombing(), "bank-right", at=18, faces=[4])  # 2" to the corner, then 2" of the lateral leg
    dropped = of_type(events, ev.BombDropped)[0]
    assert (dropped.x, dropped.y) == (inches(38), inches(24))
    events, _ = bomb(bombing(), at=20, faces=[4])  # past the end, straight on (a choice)
    assert of_type(events, ev.BombDropped)[0].y == inches(28)


def test_bombs_inflict_d6_mortal_wounds_on_models_without_airborne_or_fly_with_no_initiative_save():
    """BOMBS: "All models within 3" of the final point which do not have the AIRBORNE or FLY special rules suffer D6
    mortal wounds. Initiative saves may not be taken against bombs"."""
    state = bombing(model("crimson-gun", "flak-gun", 37, 13), model("azure-trooper", "infantry", 34, 12),
                    model("crimson-fighter", "fighter", 36, 12, 90), model("crimson-wyvern", "wyvern", 38, 11),
                    model("crimson-far", "infantry", 36, 20))
    state = with_model(state, "crimson-wyvern", mode="fly")
    events, after = bomb(state, at=5, faces=[3, 4, 2])  # drift 3; then D6 mortal wounds: trooper 4, gun 2
    assert not of_type(events, ev.InitiativeTested)
    assert after.models["azure-trooper"].status == "slain" and after.models["crimson-gun"].wounds_taken == 2
    for spared in ("crimson-fighter", "crimson-wyvern", "crimson-far"):
        assert after.models[spared].wounds_taken == 0


def test_bombs_destroy_all_terrain_within_3_inches():
    """BOMBS: "All terrain within 3" of the bomb is also destroyed"."""
    from .helpers import terrain

    state = state_with(model("azure-bomber", "bomber", 36, 4), model("azure-wing", "fighter", 66, 44),
                       terrain=[terrain("hut", 38, 14, 1, 2, False), terrain("barn", 46, 12, 2, 2, False)],
                       phase=MOVEMENT)
    events, after = bomb(with_model(state, "azure-bomber", bombing_run=True), at=5, faces=[3])
    assert [e.terrain for e in of_type(events, ev.TerrainDestroyed)] == ["hut"]
    assert after.terrain["hut"].destroyed and not after.terrain["barn"].destroyed


def test_bombing_run_drops_one_bomb_only_with_the_action():
    """BOMBING RUN: a bomb only if the model selected the BOMBING RUN action; one bomb per run; on the path."""
    with pytest.raises(RuleError, match="BOMBING RUN"):
        bomb(bombing(bombing_run=False))
    with pytest.raises(RuleError, match="point of the model's movement"):
        bomb(bombing(), at=21)
    _, after = bomb(bombing(), at=5, faces=[1])
    assert after.models["azure-bomber"].bombs_dropped == 1
    offered = [c for c in RULES.legal_commands(bombing(), "azure") if isinstance(c, FlyManoeuvre) and c.bomb_at]
    assert offered and all(c.model == "azure-bomber" for c in offered)
