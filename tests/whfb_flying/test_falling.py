"""Wounds (falling models) and Characters (flying characters that land uncontrollably)."""

from __future__ import annotations

from aero_events.core import DiceCup, SeededDice, TapeDice
from aero_events.rulesets.whfb_flying import events as ev
from aero_events.rulesets.whfb_flying.combat import initiative, resolve
from aero_events.rulesets.whfb_flying.falling import apply_wounds, fall
from aero_events.rulesets.whfb_flying.geometry import footprint
from aero_events.rulesets.whfb_flying.shooting import target_modifiers
from aero_events.rulesets.whfb_flying.turn import Emitter
from aero_events.table import centre, gap

from .helpers import IN, RULES, battle, of_type, options, terrain, unit


def test_the_falling_table_by_troop_type():
    """Wounds: "D6 S10 Hits from Monsters; D3 S6 Hits from Monstrous Beasts, Monstrous Cavalry, Monstrous
    Infantry, Cavalry and Chariots; 1 S4 Hit from Infantry, and War Beasts"."""
    table = {kind: (entry.hits, entry.strength) for kind, entry in RULES.data.falling.items()}
    assert table == {"monster": ("D6", 10), "monstrous beast": ("D3", 6), "monstrous cavalry": ("D3", 6),
                            "monstrous infantry": ("D3", 6), "cavalry": ("D3", 6), "chariot": ("D3", 6),
                            "infantry": ("1", 4), "war beast": ("1", 4)}


def _fall_on_spearmen(profile, models, faces, rules=RULES):
    state = battle([unit("n-fly", profile, models, 24, 20)], [unit("s-sp", "spearmen", 20, 24, 20)], air=("n-fly",))
    out = Emitter(state, rules.evolve)
    start = centre(footprint(state.units["s-sp"], rules.profile(state.units["s-sp"])))
    fall(rules, out, DiceCup(TapeDice(faces)), "n-fly", start)
    return out


def test_a_falling_monster_hits_the_unit_below_with_d6_strength_10_hits_normal_saves_apply():
    """Wounds: a model's final wound in the air: it "will hit the ground per the scatter dice" (a HIT: below).
    """
    out = _fall_on_spearmen("wyvern_lord", 1, [1, 4, 1, 1, 1, 2])  # HIT; 4 hits; to wound 1,1,1,2
    fell = of_type(out.events, ev.ModelFell)[0]
    assert fell.struck == "s-sp" and fell.landing == fell.start
    hit = next(e for e in of_type(out.events, ev.AttackResolved) if e.attack == "falling model")
    assert hit.hits == 4 and hit.wounds == 1 and hit.unsaved == 1  # S10 v T3 wounds on 2+; save 5+ at S10: none
    assert out.state.units["s-sp"].models == 19


def test_falling_cavalry_d3_strength_6_and_war_beasts_one_strength_4_hit():
    """Wounds: D3 S6 hits from Cavalry, 1 S4 hit from War Beasts; "Normal saves apply" (a 5+ save is 6+ at S4).
    """
    out = _fall_on_spearmen("pegasus_knights", 3, [1, 5, 6, 6, 6])  # HIT; D3 of a 5 is 3; three wounds
    hit = next(e for e in of_type(out.events, ev.AttackResolved) if e.attack == "falling model")
    assert (hit.hits, hit.wounds) == (3, 3)
    out = _fall_on_spearmen("harpies", 5, [1, 3, 6])  # HIT; one hit wounds on 3+; save 6+ rolled 6
    hit = next(e for e in of_type(out.events, ev.AttackResolved) if e.attack == "falling model")
    assert (hit.hits, hit.wounds, hit.unsaved) == (1, 1, 0)


def test_scatter_distance_is_d6_inches_or_the_artillery_die():
    """Spec gap "scatter distance": an arrow scatters D6" (option: the artillery die's 2-10")."""
    for rules, expected in ((RULES, 4), (options(scatter_distance="artillery"), 8)):
        out = _fall_on_spearmen("harpies", 5, [3, 1, 4], rules=rules)  # arrow, heading 0 (north), a 4
        fell = of_type(out.events, ev.ModelFell)[0]
        assert fell.landing == (fell.start[0], fell.start[1] + expected * IN)


def test_each_model_killed_in_the_air_falls_models_on_the_ground_do_not():
    """Wounds: "A Flying model suffering its final Wound" while in the air falls."""
    state = battle([unit("n-harp", "harpies", 5, 10, 10)], [unit("s-sp", "spearmen", 20, 30, 30)], air=("n-harp",))
    out = Emitter(state, RULES.evolve)
    apply_wounds(RULES, out, DiceCup(TapeDice([1, 1])), "n-harp", 2, "test")
    assert len(of_type(out.events, ev.ModelFell)) == 2
    grounded = battle([unit("n-harp", "harpies", 5, 10, 10)], [unit("s-sp", "spearmen", 20, 30, 30)])
    out = Emitter(grounded, RULES.evolve)
    apply_wounds(RULES, out, DiceCup(TapeDice([])), "n-harp", 2, "test")
    assert not of_type(out.events, ev.ModelFell)


def character_state(under=None, in_terrain=(), active="south"):
    south = [unit("s-arch", "archers", 10, 40, 32, 180)]
    north = [unit("n-wyv", "wyvern_lord", 1, 20, 20)]
    if under == "friend":
        north.append(unit("n-sp", "spearmen", 20, 20, 18.5))
    elif under == "enemy":
        south.append(unit("s-sp", "spearmen", 20, 20, 18.5))
    return battle(north, south, air=("n-wyv",), terrain=in_terrain, active=active)


def test_a_wounded_flying_character_stays_up_on_3_or_more_once_per_attack():
    """Characters: "may need to land ... after a Wound, per a D6 roll, but not for each wound if it took more
    than one. On a 3+ it stays in the air"."""
    out = Emitter(character_state(), RULES.evolve)
    apply_wounds(RULES, out, DiceCup(TapeDice([3])), "n-wyv", 2, "s-arch")
    tests = [t for t in of_type(out.events, ev.TestTaken) if t.test == "stay aloft"]
    assert len(tests) == 1 and tests[0].passed and out.state.units["n-wyv"].in_air


def test_a_character_failing_lands_uncontrollably_and_panics():
    """Characters: "It fails on a 1 or 2 ... the landing location is determined with the scatter dice ... It must
    take an immediate Panic Test. If it Fails, it must Flee on the ground from the source of the Wound"."""
    out = Emitter(character_state(), RULES.evolve)
    apply_wounds(RULES, out, DiceCup(TapeDice([2, 1, 6, 6, 3, 3, 3])), "n-wyv", 1, "s-arch")
    grounded = of_type(out.events, ev.CharacterGrounded)[0]
    assert grounded.placement == "open ground"
    assert [t.passed for t in of_type(out.events, ev.TestTaken) if t.test == "panic"] == [False]
    fled = of_type(out.events, ev.UnitFled)[0]
    wyvern = out.state.units["n-wyv"]
    assert not wyvern.in_air and wyvern.fell and wyvern.fleeing and fled.path[1][1] < fled.path[0][1]  # away south


def test_a_character_falling_on_a_friendly_unit_is_placed_1_inch_from_its_nearest_flank():
    """Characters: "If it would fall on a friendly unit, place it at the nearest flank plus a 1 inch gap"."""
    out = Emitter(character_state(under="friend"), RULES.evolve)
    apply_wounds(RULES, out, DiceCup(TapeDice([2, 1, 1, 1])), "n-wyv", 1, "s-arch")
    assert of_type(out.events, ev.CharacterGrounded)[0].placement == "beside n-sp"
    wyvern, friends = out.state.units["n-wyv"], out.state.units["n-sp"]
    assert gap(footprint(wyvern, RULES.profile(wyvern)), footprint(friends, RULES.profile(friends))) == IN


def test_a_character_falling_on_an_enemy_is_in_base_contact_cannot_flee_and_fights_at_minus_one():
    """Characters: "If it falls on an enemy unit, place the model on the nearest open flank in base contact. The
    fallen model cannot Flee in this case. It has -1 Initiative and -1 Combat Resolution ... If it is the
    enemy's turn and the unit in base contact has not fought ... it may engage in Close Combat with the fallen
    model"."""
    out = Emitter(character_state(under="enemy"), RULES.evolve)
    apply_wounds(RULES, out, DiceCup(TapeDice([2, 1])), "n-wyv", 1, "s-arch")
    grounded = of_type(out.events, ev.CharacterGrounded)[0]
    assert grounded.engaged_with == "s-sp" and grounded.side in ("left", "right")
    assert not [t for t in of_type(out.events, ev.TestTaken) if t.test == "panic"]
    state = out.state
    combat = state.combats[0]
    assert combat.kind == "fallen" and combat.fought_turn == 0  # the enemy's turn: it fights this phase
    wyvern = state.units["n-wyv"]
    assert gap(footprint(wyvern, RULES.profile(wyvern)), footprint(state.units["s-sp"], RULES.profile(
        state.units["s-sp"]))) == 0
    assert initiative(RULES, state, wyvern) == RULES.profile(wyvern).profile.I - 1
    after = Emitter(state, RULES.evolve)
    resolve(RULES, after, DiceCup(TapeDice([6] * 6, fallback=SeededDice(1))), (combat,), {"north": 0, "south": 0})
    assert "n-wyv -1 fell from the air" in of_type(after.events, ev.CombatResolved)[0].details


def test_a_character_landing_off_open_ground_takes_a_dangerous_terrain_test():
    """Characters: "It must take a Dangerous Terrain check if it lands on anything besides Open Terrain"."""
    wood = terrain("wood", "forest", 20, 18, 6, 6, cover=-1)
    out = Emitter(character_state(in_terrain=(wood,)), RULES.evolve)
    apply_wounds(RULES, out, DiceCup(TapeDice([2, 1, 4, 1, 1])), "n-wyv", 1, "s-arch")
    assert [t for t in of_type(out.events, ev.TestTaken) if t.test == "dangerous terrain"]


def test_a_fallen_character_is_not_plus_one_to_hit():
    """Characters: "The +1 To Hit modifier when shooting at the Landed/Fallen model does not apply"."""
    out = Emitter(character_state(), RULES.evolve)
    apply_wounds(RULES, out, DiceCup(TapeDice([2, 1, 1, 1])), "n-wyv", 1, "s-arch")
    wyvern = out.state.units["n-wyv"]
    assert wyvern.fell and target_modifiers(wyvern) == []
