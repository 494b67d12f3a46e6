"""AIRBORNE MOVEMENT and its manoeuvres, PILOT INPUT, IGNORE OTHER MODELS, the stand-height option, COLLISION and
MOVING OFF THE BOARD (Million-Colored Sun: Combined Flight Rules, 7 April 2018)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aero_events.core import DiceCup, RuleError, SeededDice, TapeDice
from aero_events.rulesets.million_colored_sun import actions
from aero_events.rulesets.million_colored_sun import events as ev
from aero_events.rulesets.million_colored_sun.commands import (
    ChooseAction,
    EndPhase,
    FlyManoeuvre,
    PlaceReturning,
)
from aero_events.rulesets.million_colored_sun.geometry import manoeuvre_path
from aero_events.rulesets.million_colored_sun.state import MOVEMENT, OFF_TABLE
from aero_events.rulesets.million_colored_sun.turn import Emitter, scores
from aero_events.table import Circle, Pose, Transform, distance, inches, overlaps

from .helpers import IN, RULES, decide, model, of_type, options, replace, state_with, terrain, with_model


def flying(x=36, y=10, heading=0, *others, terrain_pieces=(), rules=RULES):
    """An azure fighter in the movement phase, another azure fighter still to fly, a crimson trooper far away."""
    return state_with(model("azure-fighter", "fighter", x, y, heading), model("azure-wing", "fighter", 66, 44, 0),
                      model("crimson-trooper", "infantry", 4, 44), *others, terrain=terrain_pieces, phase=MOVEMENT,
                      rules=rules)


def fly(state, manoeuvre, faces=(), rules=RULES, **extra):
    events, after = decide(state, FlyManoeuvre(player="azure", model="azure-fighter", manoeuvre=manoeuvre, **extra),
                           faces, rules)
    return events, after, after.models["azure-fighter"]


def at(m):
    return (m.x / IN, m.y / IN, m.heading / 100)


def test_cruise_moves_directly_forward_exactly_20_or_30_inches():
    """CRUISE: "Move the model directly forward 20" or exactly 30"."""
    _, _, m = fly(flying(), "cruise-20")
    assert at(m) == (36, 30, 0)
    _, _, m = fly(flying(), "cruise-30")
    assert at(m) == (36, 40, 0)


def test_bank_moves_forward_20_then_laterally_10_and_pivots_45_degrees_the_same_way():
    """LEFT BANK or RIGHT BANK: forward 20", laterally 10", pivot 45 degrees in the lateral direction."""
    _, _, m = fly(flying(), "bank-right")
    assert at(m) == (46, 30, 45)
    _, _, m = fly(flying(), "bank-left")
    assert at(m) == (26, 30, 315)
    # facing east, "right" is south
    _, _, m = fly(flying(10, 24, 90), "bank-right")
    assert at(m) == (30, 14, 135)


def test_hard_turn_moves_forward_10_then_laterally_10_and_pivots_90_degrees():
    """HARD LEFT TURN or HARD RIGHT TURN (Red for the fighter: declared first)."""
    state = with_model(flying(), "azure-fighter", red_ready=True)
    _, _, m = fly(state, "hard-right")
    assert at(m) == (46, 20, 90)
    _, _, m = fly(state, "hard-left")
    assert at(m) == (26, 20, 270)


def test_boost_moves_forward_exactly_40_or_50_inches():
    """BOOST: "Move the model directly forward exactly 40" or 50"."""
    _, _, m = fly(flying(4, 4, 90), "boost-40")
    assert at(m) == (44, 4, 90)
    _, _, m = fly(flying(4, 4, 90), "boost-50")
    assert at(m) == (54, 4, 90)


def test_afterburner_moves_forward_exactly_60_or_70_inches():
    """AFTERBURNER: forward exactly 60" or 70" (70" from 4" leaves a 72" table)."""
    state = with_model(flying(4, 24, 90), "azure-fighter", red_ready=True)
    _, _, m = fly(state, "afterburner-60")
    assert at(m) == (64, 24, 90)
    events, _, m = fly(state, "afterburner-70")
    assert m.status == OFF_TABLE and of_type(events, ev.ModelLeftBoard)


def test_loop_moves_forward_10_then_faces_the_opposite_direction():
    """LOOP: forward 10", then rotate 180 degrees."""
    _, _, m = fly(with_model(flying(), "azure-fighter", red_ready=True), "loop")
    assert at(m) == (36, 20, 180)


def test_barrel_roll_moves_forward_10_and_laterally_10_without_pivoting():
    """BARREL ROLL: forward 10", laterally 10", keep facing the same direction."""
    _, _, m = fly(flying(), "barrel-roll-right")
    assert at(m) == (46, 20, 0)
    _, _, m = fly(flying(), "barrel-roll-left")
    assert at(m) == (26, 20, 0)


def test_the_flight_path_is_forward_then_lateral():
    """AIRBORNE MOVEMENT: the flight path follows the manoeuvre as described (forward, then lateral)."""
    events, _, _ = fly(flying(), "bank-right")
    (flew,) = of_type(events, ev.ModelFlew)
    assert flew.path == ((inches(36), inches(10)), (inches(36), inches(30)), (inches(46), inches(30)))


def test_each_airborne_model_must_perform_one_manoeuvre_before_the_phase_ends():
    """AIRBORNE MOVEMENT: "each AIRBORNE model selects one Manuever to perform"."""
    state = flying()
    with pytest.raises(RuleError, match="must fly"):
        decide(state, EndPhase(player="azure"))
    _, after, _ = fly(state, "cruise-20")
    with pytest.raises(RuleError, match="has flown"):
        fly(after, "cruise-20")


def test_only_the_manoeuvres_on_the_warscroll_and_no_free_pivots():
    """AIRBORNE MOVEMENT: the warscroll lists the manoeuvres; models "may only pivot as indicated"."""
    state = state_with(model("azure-bomber", "bomber", 36, 10), model("crimson-trooper", "infantry", 4, 44),
                       phase=MOVEMENT)
    with pytest.raises(RuleError, match="cannot perform 'loop'"):
        decide(state, FlyManoeuvre(player="azure", model="azure-bomber", manoeuvre="loop"))
    pivots = {RULES.data.manoeuvres[name].pivot % 36000 for name in RULES.warscroll(state.models["azure-bomber"])
              .manoeuvres if name not in RULES.warscroll(state.models["azure-bomber"]).red}
    for command in RULES.legal_commands(state, "azure"):
        if isinstance(command, FlyManoeuvre):
            _, after = decide(state, command)
            assert after.models["azure-bomber"].heading in pivots


def test_red_manoeuvres_need_the_perform_red_manoeuvre_action():
    """AIRBORNE MOVEMENT / PERFORM RED MANUEVER: a Red manoeuvre only after declaring the action."""
    with pytest.raises(RuleError, match="Red manoeuvre"):
        fly(flying(), "loop")
    assert not any(isinstance(c, FlyManoeuvre) and c.manoeuvre == "loop" for c in RULES.legal_commands(flying(), "azure"))
    hero = state_with(model("azure-fighter", "fighter", 36, 10), model("azure-wing", "fighter", 66, 44),
                      model("crimson-trooper", "infantry", 4, 44))
    _, after = decide(hero, ChooseAction(player="azure", model="azure-fighter", action="red-manoeuvre"))
    moving = with_model(hero, "azure-fighter", **{k: getattr(after.models["azure-fighter"], k)
                                                  for k in ("red_ready", "blast_markers", "action")})
    _, _, m = fly(replace(moving, phase=MOVEMENT), "loop")
    assert m.heading == 18000 and m.blast_markers == 1


def test_pilot_input_repositions_up_to_3_inches_any_direction_keeping_orientation():
    """PILOT INPUT: "reposition the model 3" in any direction. The model's orientation must remain the same"."""
    events, _, m = fly(flying(), "bank-right", pilot_heading=27000, pilot_distance=inches(3))
    assert at(m) == (43, 30, 45)
    assert of_type(events, ev.ModelFlew)[0].path[-1] == (inches(43), inches(30))
    _, _, m = fly(flying(), "cruise-20", pilot_heading=0, pilot_distance=inches("1.5"))
    assert at(m) == (36, 31.5, 0)
    with pytest.raises(RuleError, match="up to 3"):
        fly(flying(), "cruise-20", pilot_heading=0, pilot_distance=inches(4))


def test_pilot_input_exactly_3_inches_as_an_option():
    """PILOT INPUT, option ``pilot_input="exact"``."""
    exact = options(pilot_input="exact")
    with pytest.raises(RuleError, match="exactly 3"):
        fly(flying(rules=exact), "cruise-20", rules=exact, pilot_heading=0, pilot_distance=inches(2))
    _, _, m = fly(flying(rules=exact), "cruise-20", rules=exact, pilot_heading=0, pilot_distance=inches(3))
    assert at(m) == (36, 33, 0)


def test_airborne_models_pass_over_models_and_terrain_and_within_3_inches_of_enemies():
    """IGNORE OTHER MODELS: pass within 3" of enemies, ignore terrain, move over models."""
    state = flying(36, 10, 0, model("crimson-gun", "flak-gun", 36, 20),
                   terrain_pieces=[terrain("wood", 36, 15, 2, 3, too_tall=False)])
    events, after, m = fly(state, "cruise-20")
    assert at(m) == (36, 30, 0)
    assert not of_type(events, ev.WoundsAllocated) and after.models["crimson-gun"].wounds_taken == 0


def test_ending_atop_a_model_repositions_the_minimum_distance():
    """IGNORE OTHER MODELS: "If an AIRBORNE model ends its move atop a friendly or enemy model, reposition that
    model the minimum distance needed"."""
    state = flying(36, 10, 0, model("crimson-gun", "flak-gun", 36, 30))
    events, _, m = fly(state, "cruise-20")
    flew = of_type(events, ev.ModelFlew)[0]
    assert flew.placed_from == (inches(36), inches(30))
    base = Circle((m.x, m.y), RULES.warscroll(m).base_radius)
    assert not overlaps(base, Circle((inches(36), inches(30)), 3000))
    assert distance((m.x, m.y), (inches(36), inches(30))) <= 3000 + 3000 + 100  # the bases' radii and one ring


def test_ending_atop_terrain_places_the_model_as_closely_as_possible():
    """IGNORE OTHER MODELS: "AIRBORNE models which end their movement atop terrain must be placed as closely as
    possible to their final position"."""
    state = flying(36, 10, 0, terrain_pieces=[terrain("chapel", 36, 30, 4, 6, too_tall=False)])
    _, _, m = fly(state, "cruise-20")
    assert not overlaps(Circle((m.x, m.y), 3000), Circle((inches(36), inches(30)), inches(4)))
    assert distance((m.x, m.y), (inches(36), inches(30))) <= inches(4) + 3000 + 100
    assert m.heading == 0


def test_collision_with_terrain_too_tall_inflicts_d6_mortal_wounds():
    """COLLISION: "passes through a piece of terrain too tall for it to fly over then the model takes D6 mortal
    wounds"; pieces decided before the game."""
    state = flying(36, 10, 0, terrain_pieces=[terrain("spire", 36, 20, 2, 12, too_tall=True)])
    events, _, m = fly(state, "cruise-20", faces=[3])
    assert [e.terrain for e in of_type(events, ev.CollisionWithTerrain)] == ["spire"]
    assert m.wounds_taken == 3 and of_type(events, ev.WoundsAllocated)[0].mortal
    low = flying(36, 10, 0, terrain_pieces=[terrain("hedge", 36, 20, 2, 12, too_tall=False)])
    events, _, m = fly(low, "cruise-20")
    assert not of_type(events, ev.CollisionWithTerrain) and m.wounds_taken == 0


def test_optional_stand_height_rule_decides_what_is_too_tall():
    """IGNORE OTHER MODELS, optional rule: fly over terrain lower than the stand; higher may collide."""
    stands = options(stand_height=True)  # the fighter's stand is 5"
    state = flying(36, 10, 0, terrain_pieces=[terrain("tower", 36, 20, 2, 8, too_tall=False)], rules=stands)
    events, _, _ = fly(state, "cruise-20", faces=[2], rules=stands)
    assert of_type(events, ev.CollisionWithTerrain)
    state = flying(36, 10, 0, terrain_pieces=[terrain("wall", 36, 20, 2, 4, too_tall=True)], rules=stands)
    events, _, _ = fly(state, "cruise-20", rules=stands)
    assert not of_type(events, ev.CollisionWithTerrain)


def test_moving_off_the_board_and_coming_back_on_a_3_plus():
    """MOVING OFF THE BOARD: set aside; off for your whole next turn; then a D6 at the start of your Hero phase,
    3+ placed touching one of your board edges facing any direction."""
    events, after, m = fly(flying(36, 40, 0), "cruise-20")
    left = of_type(events, ev.ModelLeftBoard)[0]
    assert m.status == OFF_TABLE and (left.x, left.y) == (inches(36), inches(48))
    gone = m.left_turn

    def hero_start(turn_number, faces):
        state = replace(after, turn_number=turn_number, phase="hero")
        out = Emitter(state, RULES.evolve)
        actions.start_of_hero_phase(RULES, out, DiceCup(TapeDice(faces, fallback=SeededDice(1))))
        return out

    assert not of_type(hero_start(gone + 2, []).events, ev.ReturnRolled)  # your entire next turn off the board
    assert not of_type(hero_start(gone + 4, [2]).events, ev.ReturnRolled)[0].returns
    back = hero_start(gone + 6, [3]).state
    assert back.models["azure-fighter"].returning
    with pytest.raises(RuleError, match="touching one of azure's board edges"):
        decide(back, PlaceReturning(player="azure", model="azure-fighter", x=inches(36), y=inches(48) - 3000,
                                    heading=0))
    with pytest.raises(RuleError, match="returning models first"):
        decide(back, ChooseAction(player="azure", model="azure-wing", action="evade"))
    _, placed = decide(back, PlaceReturning(player="azure", model="azure-fighter", x=inches(20), y=3000,
                                            heading=13500))
    fighter = placed.models["azure-fighter"]
    assert fighter.status == "active" and (fighter.x, fighter.y, fighter.heading) == (inches(20), 3000, 13500)
    assert any(isinstance(c, ChooseAction) and c.model == "azure-fighter" for c in RULES.legal_commands(placed, "azure"))


def test_a_model_still_off_the_board_at_the_end_counts_as_destroyed_for_the_scenario():
    """MOVING OFF THE BOARD: "If the game ends before the model returns, then the model counts as destroyed"."""
    _, after, _ = fly(flying(36, 40, 0), "cruise-20")
    points = RULES.warscroll(after.models["azure-fighter"]).points // 10
    assert scores(RULES, after, final=True)["crimson"] == points
    assert scores(RULES, after, final=False)["crimson"] == 0


@settings(max_examples=60, deadline=None)
@given(x=st.integers(0, 182880), y=st.integers(0, 121920), heading=st.integers(0, 35999),
       name=st.sampled_from(sorted(RULES.data.manoeuvres)))
def test_every_manoeuvre_is_forward_then_lateral_in_the_models_own_frame(x, y, heading, name):
    """AIRBORNE MOVEMENT: forward along the heading, lateral across it, the pivot at the end, from any pose."""
    manoeuvre = RULES.data.manoeuvres[name]
    start = Pose(x, y, heading)
    points, end = manoeuvre_path(start, manoeuvre)
    expected = start.then(Transform.of(manoeuvre.lateral, manoeuvre.forward, manoeuvre.pivot))
    assert abs(end.x - expected.x) <= 2 and abs(end.y - expected.y) <= 2 and end.heading == expected.heading
    assert abs(distance(points[0], points[1]) - manoeuvre.forward) <= 2
