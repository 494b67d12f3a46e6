"""This project's own minimal skirmish host: the turn's phases, the attack sequence, mortal wounds, ground moves,
runs, charges, combat, battleshock and the battleplan (README of the ruleset, "the host")."""

from __future__ import annotations

import pytest

from aero_events.core import DiceCup, RuleError, SeededDice, TapeDice
from aero_events.rulesets.million_colored_sun import damage
from aero_events.rulesets.million_colored_sun import events as ev
from aero_events.rulesets.million_colored_sun.commands import DeclareCharge, EndPhase, Fight, MoveModel, Shoot
from aero_events.rulesets.million_colored_sun.state import BATTLESHOCK, CHARGE, COMBAT, MOVEMENT, SHOOTING
from aero_events.rulesets.million_colored_sun.turn import Emitter, battleshock, end_of_turn
from aero_events.table import inches

from .helpers import RULES, decide, model, of_type, replace, state_with, terrain, with_model


def test_a_turn_is_hero_movement_shooting_charge_combat_battleshock():
    """Host: each player's turn has a Hero, Movement, Shooting, Charge, Combat and Battleshock phase."""
    state = state_with(model("azure-trooper", "infantry", 10, 10), model("azure-fighter", "fighter", 36, 10),
                       model("crimson-trooper", "infantry", 60, 40), model("crimson-fighter", "fighter", 36, 40, 180))
    events, after = decide(state, EndPhase(player="azure"))
    assert [e.phase for e in of_type(events, ev.PhaseBegan)] == ["movement"] and after.phase == MOVEMENT
    phases = []
    state = after
    while state.active == "azure":
        events, state = decide(state, _first_end_or_flight(state))
        phases += [e.phase for e in of_type(events, ev.PhaseBegan)]
    assert phases[:4] == ["shooting", "charge", "combat", "battleshock"]
    assert state.active == "crimson" and state.phase == "hero"


def _first_end_or_flight(state):
    from aero_events.rulesets.million_colored_sun.commands import FlyManoeuvre
    from aero_events.rulesets.million_colored_sun.turn import decider

    player = decider(state)
    options = RULES.legal_commands(state, player)
    for option in options:
        if isinstance(option, FlyManoeuvre) and option.manoeuvre == "barrel-roll-left" and option.pilot_heading is None:
            return option
    return next(o for o in options if isinstance(o, EndPhase))


def test_attack_sequence_hit_wound_save_with_rend_and_damage():
    """Host: hit (To Hit), wound (To Wound), save (Save, less Rend), then Damage per unsaved attack."""
    state = state_with(model("azure-gun", "flak-gun", 10, 10), model("azure-other", "flak-gun", 4, 4),
                       model("crimson-gun", "flak-gun", 10, 30), phase=SHOOTING)
    # Flak Battery: 3 attacks, 4+ to hit, 3+ to wound, Rend 1, Damage D3 (a D6 halved, rounded up)
    # hits 4,3,6 -> 2; wounds 3,2 -> 1; save 4 - 1 = 3 < 4 -> unsaved; damage D6 5 -> D3 3
    events, after = decide(state, Shoot(player="azure", model="azure-gun", weapon="Flak Battery", target="crimson-gun"),
                           [4, 3, 6, 3, 2, 4, 5])
    made = of_type(events, ev.AttacksMade)[0]
    assert (made.attacks, made.hits, made.wounds, made.unsaved, made.inflicted) == (3, 2, 1, 1, 3)
    assert after.models["crimson-gun"].wounds_taken == 3
    _, saved = decide(state, Shoot(player="azure", model="azure-gun", weapon="Flak Battery", target="crimson-gun"),
                      [4, 3, 6, 3, 2, 5])
    assert saved.models["crimson-gun"].wounds_taken == 0


def test_shooting_needs_range_and_sight_and_a_model_that_did_not_run():
    """Host: range base to base; terrain too tall blocks sight between models on the ground; running forbids
    shooting."""
    state = state_with(model("azure-trooper", "infantry", 10, 10), model("azure-gun", "flak-gun", 4, 4),
                       model("crimson-trooper", "infantry", 10, 30), model("crimson-near", "infantry", 20, 10),
                       terrain=[terrain("wall", 15, 10, 1, 10)], phase=SHOOTING)
    with pytest.raises(RuleError, match="beyond"):
        decide(state, Shoot(player="azure", model="azure-trooper", weapon="Long Rifle", target="crimson-trooper"))
    with pytest.raises(RuleError, match="hidden"):
        decide(state, Shoot(player="azure", model="azure-trooper", weapon="Long Rifle", target="crimson-near"))
    with pytest.raises(RuleError, match="ran"):
        decide(with_model(state, "azure-trooper", ran=True),
               Shoot(player="azure", model="azure-trooper", weapon="Long Rifle", target="crimson-trooper"))


def test_mortal_wounds_ignore_saves_and_slay():
    """Host: mortal wounds are allocated with no save; a model whose wounds are used up is slain."""
    state = state_with(model("azure-trooper", "infantry", 10, 10))
    out = Emitter(state, RULES.evolve)
    damage.mortal_wounds(RULES, out, DiceCup(SeededDice(2)), "azure-trooper", "test", "crimson")
    assert [type(e).__name__ for e in out.events] == ["DiceRolled", "WoundsAllocated", "ModelSlain"]


def test_ground_movement_up_to_move_not_within_3_inches_of_enemies_and_not_through_terrain():
    """Host: a move of up to Move inches; never within 3" of an enemy; only FLY models pass over terrain."""
    state = state_with(model("azure-trooper", "infantry", 10, 10), model("azure-wyvern", "wyvern", 30, 10),
                       model("crimson-trooper", "infantry", 10, 18), terrain=[terrain("wood", 30, 15, 1, 3, False)],
                       phase=MOVEMENT)
    state = with_model(state, "azure-wyvern", mode="fly", moved=False)
    _, after = decide(state, MoveModel(player="azure", model="azure-trooper", heading=27000, distance=inches(5)))
    assert (after.models["azure-trooper"].x, after.models["azure-trooper"].heading) == (inches(5), 27000)
    with pytest.raises(RuleError, match="at most 5"):
        decide(state, MoveModel(player="azure", model="azure-trooper", heading=27000, distance=inches(6)))
    with pytest.raises(RuleError, match="within 3\" of crimson-trooper"):
        decide(state, MoveModel(player="azure", model="azure-trooper", heading=0, distance=inches(4)))
    flat = with_model(state, "azure-wyvern", warscroll="infantry", mode="ground")
    with pytest.raises(RuleError, match="cross wood"):
        decide(flat, MoveModel(player="azure", model="azure-wyvern", heading=0, distance=inches(5)))
    _, over = decide(state, MoveModel(player="azure", model="azure-wyvern", heading=0, distance=inches(10)))
    assert over.models["azure-wyvern"].y == inches(20)


def test_a_run_adds_a_d6_to_the_move():
    """Host: running moves up to Move + D6."""
    state = state_with(model("azure-trooper", "infantry", 10, 10), model("azure-other", "infantry", 60, 10),
                       model("crimson-trooper", "infantry", 60, 40), phase=MOVEMENT)
    _, after = decide(state, MoveModel(player="azure", model="azure-trooper", heading=9000, distance=inches(11),
                                       run=True), [2])
    assert after.models["azure-trooper"].x == inches(17) and after.models["azure-trooper"].ran


def test_a_charge_rolls_2d6_against_the_gap_and_ends_half_an_inch_away():
    """Host: a charge within 12"; 2D6 in inches must reach the gap less 1/2"; the charger ends 1/2" away."""
    state = state_with(model("azure-trooper", "infantry", 10, 10), model("azure-other", "infantry", 60, 10),
                       model("crimson-trooper", "infantry", 10, 18), phase=CHARGE)
    events, after = decide(state, DeclareCharge(player="azure", model="azure-trooper", target="crimson-trooper"),
                           [3, 4])
    assert of_type(events, ev.ChargeRolled)[0].success
    gap = after.models["crimson-trooper"].y - after.models["azure-trooper"].y - 2 * 1600
    assert abs(gap - inches("0.5")) <= 1
    events, after = decide(state, DeclareCharge(player="azure", model="azure-trooper", target="crimson-trooper"),
                           [1, 2])
    assert not of_type(events, ev.ChargeRolled)[0].success and after.models["azure-trooper"].y == inches(10)
    with pytest.raises(RuleError, match="more than 12"):
        decide(state, DeclareCharge(player="azure", model="azure-other", target="crimson-trooper"))


def test_combat_alternates_picks_between_the_players():
    """Host: in the combat phase the player whose turn it is picks first, then the players alternate."""
    state = state_with(model("azure-a", "infantry", 10, 10), model("azure-b", "infantry", 20, 10),
                       model("crimson-a", "infantry", 10, "11.5"), model("crimson-b", "infantry", 20, "11.5"),
                       phase=COMBAT, combat_player="azure")
    _, after = decide(state, Fight(player="azure", model="azure-a", target="crimson-a"), [1])
    assert after.combat_player == "crimson"
    with pytest.raises(RuleError, match="not your pick"):
        decide(after, Fight(player="azure", model="azure-b", target="crimson-b"))


def test_battleshock_makes_models_flee_by_the_roll_plus_losses_above_bravery():
    """Host: a unit that lost models this turn rolls D6 + losses; each point above Bravery, one more model flees."""
    units = [model(f"azure-{n}", "infantry", 10 + 2 * n, 10, unit="azure-line") for n in range(4)]
    state = state_with(*units, model("crimson-gun", "flak-gun", 60, 40), phase=BATTLESHOCK)
    state = with_model(state, "azure-0", status="slain", slain_turn=state.turn_number)
    state = with_model(state, "azure-1", status="slain", slain_turn=state.turn_number)
    out = Emitter(state, RULES.evolve)
    battleshock(RULES, out, DiceCup(TapeDice([6])))
    test = of_type(out.events, ev.BattleshockTested)[0]
    assert (test.roll, test.slain, test.bravery, test.flee) == (6, 2, 6, 2)
    assert [e.model for e in of_type(out.events, ev.ModelFled)] == ["azure-3", "azure-2"]


def test_the_battleplan_scores_the_objective_and_slain_models_and_ends_after_the_last_round():
    """Host battleplan: the objective's points at the end of each round; slain enemy models' points; the end."""
    state = state_with(model("azure-trooper", "infantry", 36, 24), model("crimson-trooper", "infantry", 60, 40),
                       model("crimson-gun", "flak-gun", 60, 10), phase=BATTLESHOCK, active="crimson")
    state = replace(state, first="azure", round=5)
    state = with_model(state, "crimson-gun", status="slain")
    out = Emitter(state, RULES.evolve)
    end_of_turn(RULES, out, DiceCup(SeededDice(1)))
    assert of_type(out.events, ev.ObjectiveScored)[0].player == "azure"
    ended = of_type(out.events, ev.GameEnded)[0]
    assert ended.winner == "azure" and ended.scores == {"azure": 3 + 10, "crimson": 0}
    assert RULES.outcome(out.state).finished and RULES.outcome(out.state).winner == "azure"


def test_only_fly_models_fight_airborne_models():
    """MAY NOT RUN OR DECLARE CHARGES (reading for combat): AIRBORNE models fight no one, and only models with FLY
    fight them."""
    state = state_with(model("azure-trooper", "infantry", "14.5", 10), model("azure-wyvern", "wyvern", 20, 10),
                       model("azure-fighter", "fighter", 40, 10),
                       model("crimson-fighter", "fighter", "16.5", 10), model("crimson-trooper", "infantry", 42, 10),
                       phase=COMBAT, combat_player="azure")
    state = with_model(state, "azure-wyvern", mode="fly")
    with pytest.raises(RuleError, match="FLY"):
        decide(state, Fight(player="azure", model="azure-trooper", target="crimson-fighter"))
    with pytest.raises(RuleError):
        decide(state, Fight(player="azure", model="azure-fighter", target="crimson-trooper"))
    fights = {(c.model, c.target) for c in RULES.legal_commands(state, "azure") if isinstance(c, Fight)}
    assert fights == {("azure-wyvern", "crimson-fighter")}
    events, _ = decide(state, Fight(player="azure", model="azure-wyvern", target="crimson-fighter"))
    assert [e.weapon for e in of_type(events, ev.AttacksMade)] == ["Talons"]
