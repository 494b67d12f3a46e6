"""AIRBORNE ACTIONS and each action: EVADE, LOCK-ON, RECOVER, SHIFT MOVEMENT MODE, PERFORM RED MANUEVER, LAUNCH
ORDNANCE, BOMBING RUN (Million-Colored Sun: Combined Flight Rules, 7 April 2018)."""

from __future__ import annotations

import pytest

from aero_events.core import DiceCup, RuleError, SeededDice
from aero_events.rulesets.million_colored_sun import actions
from aero_events.rulesets.million_colored_sun import events as ev
from aero_events.rulesets.million_colored_sun.commands import ChooseAction, FlyManoeuvre, Shoot
from aero_events.rulesets.million_colored_sun.state import MOVEMENT, SHOOTING
from aero_events.rulesets.million_colored_sun.turn import Emitter

from .helpers import RULES, decide, model, of_type, options, replace, state_with, with_model


def hero(*extra, rules=RULES):
    return state_with(model("azure-fighter", "fighter", 36, 10), model("azure-wing", "fighter", 60, 10),
                      model("crimson-trooper", "infantry", 36, 40), *extra, rules=rules)


def act(state, action, model_id="azure-fighter", mode=None, rules=RULES):
    return decide(state, ChooseAction(player="azure", model=model_id, action=action, mode=mode), rules=rules)


def test_one_action_per_hero_phase():
    """AIRBORNE ACTIONS: "During an AIRBORNE model's Hero phase, it may perform one of the following actions"."""
    _, after = act(hero(), "evade")
    with pytest.raises(RuleError, match="has taken its action"):
        act(after, "lock-on")
    assert not any(c.model == "azure-fighter" for c in RULES.legal_commands(after, "azure")
                   if isinstance(c, ChooseAction))


def test_with_blast_markers_only_recover_may_be_selected():
    """AIRBORNE ACTIONS: "If the model has any Blast Markers, the only action which may be selected is RECOVER"."""
    state = with_model(hero(), "azure-fighter", blast_markers=1)
    with pytest.raises(RuleError, match="only action it may select is RECOVER"):
        act(state, "evade")
    mine = [c.action for c in RULES.legal_commands(state, "azure")
            if isinstance(c, ChooseAction) and c.model == "azure-fighter"]
    assert mine == ["recover"]


def test_evade_lasts_until_your_next_hero_phase():
    """EVADE: "Until your next Hero phase, you may add one to any initiative rolls made for this model"."""
    _, after = act(hero(), "evade")
    assert after.models["azure-fighter"].evade
    out = Emitter(replace(after, turn_number=after.turn_number + 2), RULES.evolve)
    actions.start_of_hero_phase(RULES, out, DiceCup(SeededDice(1)))
    assert not out.state.models["azure-fighter"].evade and out.state.models["azure-fighter"].action is None


def test_lock_on_is_remembered_until_your_next_hero_phase():
    """LOCK-ON: "Until your next Hero phase, any models fired upon must subtract one" (its effect: test_defence)."""
    _, after = act(hero(), "lock-on")
    assert after.models["azure-fighter"].lock_on and not after.models["azure-fighter"].evade


def test_recover_removes_one_blast_marker_and_unjams_weapons():
    """RECOVER: "Remove one Blast Marker from the model; if any weapons were Jammed, they are no longer Jammed"."""
    state = with_model(hero(), "azure-fighter", blast_markers=2, jammed=("Twin Autocannon",))
    shooting = replace(state, phase=SHOOTING, models={**state.models, "crimson-trooper": replace(
        state.models["crimson-trooper"], y=25 * 2540)})
    with pytest.raises(RuleError, match="Jammed"):
        decide(shooting, Shoot(player="azure", model="azure-fighter", weapon="Twin Autocannon",
                               target="crimson-trooper"))
    events, after = act(state, "recover")
    assert of_type(events, ev.Recovered)[0].unjammed == ("Twin Autocannon",)
    assert after.models["azure-fighter"].blast_markers == 1 and after.models["azure-fighter"].jammed == ()


def test_shift_movement_mode_between_airborne_and_the_warscroll_modes():
    """SHIFT MOVEMENT MODE: AIRBORNE to another mode of the warscroll; back to AIRBORNE; nothing else when not
    AIRBORNE."""
    state = hero(model("azure-wyvern", "wyvern", 20, 20))
    with pytest.raises(RuleError, match="cannot shift to 'ground'"):
        act(state, "shift-mode", "azure-wyvern", "ground")
    _, after = act(state, "shift-mode", "azure-wyvern", "fly")
    assert after.models["azure-wyvern"].mode == "fly"
    grounded = with_model(state, "azure-wyvern", mode="fly")
    with pytest.raises(RuleError, match="may only shift to AIRBORNE"):
        act(grounded, "evade", "azure-wyvern")
    _, back = act(grounded, "shift-mode", "azure-wyvern", "airborne")
    assert back.models["azure-wyvern"].mode == "airborne"
    with pytest.raises(RuleError, match="not AIRBORNE"):
        act(hero(model("azure-trooper", "infantry", 10, 10)), "shift-mode", "azure-trooper", "airborne")


def test_perform_red_manoeuvre_gains_a_blast_marker():
    """PERFORM RED MANUEVER: a Red manoeuvre may be selected this movement phase; "The model gains a Blast Marker"
    (when declared; option ``red_marker="flown"``: when flown)."""
    events, after = act(hero(), "red-manoeuvre")
    assert of_type(events, ev.BlastMarkerGained) and after.models["azure-fighter"].blast_markers == 1
    assert after.models["azure-fighter"].red_ready
    flown = options(red_marker="flown")
    _, declared = act(hero(rules=flown), "red-manoeuvre", rules=flown)
    assert declared.models["azure-fighter"].blast_markers == 0
    events, moved = decide(replace(declared, phase=MOVEMENT),
                           FlyManoeuvre(player="azure", model="azure-fighter", manoeuvre="loop"), rules=flown)
    assert moved.models["azure-fighter"].blast_markers == 1


def test_launch_ordnance_places_a_missile_next_to_the_aircraft():
    """LAUNCH ORDNANCE: "place the relevant marker next to the aircraft as described by the model's Warscroll"
    (the fighter: 1" ahead of its base, facing its way)."""
    events, after = act(hero(), "launch-ordnance")
    launched = of_type(events, ev.MissileLaunched)[0]
    missile = after.models[launched.missile]
    fighter = RULES.warscroll(after.models["azure-fighter"])
    assert (missile.x, missile.y, missile.heading) == (36 * 2540, 10 * 2540 + fighter.base_radius + 2540 + 1250, 0)
    assert missile.mode == "airborne" and missile.side == "azure" and missile.warscroll == "missile"
    spent = with_model(hero(), "azure-fighter", missiles_launched=fighter.ordnance.missiles)
    with pytest.raises(RuleError, match="no missile left"):
        act(spent, "launch-ordnance")
    with pytest.raises(RuleError, match="may not perform actions"):
        act(after, "evade", launched.missile)


def test_bombing_run_action_allows_a_bomb_this_movement_phase():
    """BOMBING RUN (action): "During the model's movement phase, you may drop a bomb"."""
    state = hero(model("azure-bomber", "bomber", 20, 10))
    _, after = act(state, "bombing-run", "azure-bomber")
    assert after.models["azure-bomber"].bombing_run
    with pytest.raises(RuleError, match="no bomb left"):
        act(with_model(state, "azure-bomber", bombs_dropped=3), "bombing-run", "azure-bomber")
    with pytest.raises(RuleError, match="no bomb left"):
        act(state, "bombing-run")  # the fighter carries none
