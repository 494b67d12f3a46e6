"""Magic Phase: "Follow any rules that would apply to Shooting Attacks or Close Combat, depending upon the spell
type", on the minimal host's magic (README, "Magic"): a tiny lore as data, magic missiles, direct damage
templates and close combat spells."""

from __future__ import annotations

import json

import pytest

from aero_events.core import DataError, RuleError
from aero_events.rulesets.whfb_flying import commands as cmd
from aero_events.rulesets.whfb_flying import events as ev
from aero_events.rulesets.whfb_flying.data import default_data, load_data, parse_lore
from aero_events.rulesets.whfb_flying.geometry import footprint
from aero_events.rulesets.whfb_flying.state import MAGIC, Combat
from aero_events.table import centre

from .helpers import IN, RULES, battle, decide, of_type, replace, rolls, unit, with_unit


def cast(state, caster, target, spell, faces=()):
    return decide(state, cmd.CastSpell(player="north", unit=caster, target=target, spell=spell), faces)


def test_the_lore_is_data_with_one_spell_of_each_type():
    """Host magic: a tiny lore of generic spells (data/lore.json): a magic missile, a direct damage template and a
    close combat spell; wizards name the spells they know."""
    data = default_data()
    assert {s.kind for s in data.lore.values()} == {"magic missile", "direct damage", "close combat"}
    assert set(data.units["battle_wizard"].spells) == set(data.lore)
    assert data.lore["burning_orb"].radius == round(1.5 * IN)


def test_a_malformed_lore_or_an_unknown_spell_is_a_data_error(tmp_path):
    with pytest.raises(DataError) as err:
        parse_lore(b'{"spells": [{"id": "x", "name": "X", "mark": "reconstruction", "kind": "magic missile",'
                   b' "casting_value": 5, "range": 12, "strength": 3, "hits": "2D6"}]}', "lore.json")
    assert (err.value.location, err.value.field) == ("x", "hits")
    with pytest.raises(DataError) as err:
        parse_lore(b'{"spells": [{"id": "orb", "name": "O", "mark": "reconstruction", "kind": "direct damage",'
                   b' "casting_value": 5, "range": 12, "strength": 3, "hits": "1"}]}', "lore.json")
    assert (err.value.location, err.value.field) == ("orb", "radius")
    wizard = {"id": "w", "name": "W", "troop_type": "infantry", "character": True,
              "profile": {"M": 4, "WS": 3, "BS": 3, "S": 3, "T": 3, "W": 2, "I": 3, "A": 1, "Ld": 7},
              "save": 7, "base": [20, 20], "files": 1, "points": 50, "spells": ["no_such_spell"]}
    units = {"units": [wizard]}
    path = tmp_path / "units.json"
    path.write_text(json.dumps(units))
    scenarios = tmp_path / "scenarios.json"
    scenarios.write_text('{"scenarios": []}')
    with pytest.raises(DataError) as err:
        load_data(path, scenarios)
    assert (err.value.location, err.value.field) == ("w", "spells")


def test_magic_missiles_follow_the_shooting_rules_for_range_and_sight():
    """Magic Phase: "Follow any rules that would apply to Shooting Attacks": a 24" Arcane Dart at a flyer 22.5"
    away on the ground reaches by the Basic method and not by the Advanced one (24.6")."""
    north = [unit("n-wiz", "battle_wizard", 1, 24, 4)]
    south = [unit("s-peg", "pegasus_knights", 3, 24, 4 + 22.5 + 0.7874, 180)]  # the wizard's base is 20 mm deep
    state = battle(north, south, phase=MAGIC, air=("s-peg",), range_method="advanced")
    with pytest.raises(RuleError, match="out of range"):
        cast(state, "n-wiz", "s-peg", "arcane_dart")
    state = battle(north, south, phase=MAGIC, air=("s-peg",), range_method="basic")
    events, _after = cast(state, "n-wiz", "s-peg", "arcane_dart", [6, 6, 3])
    missile = of_type(events, ev.AttackResolved)[0]
    assert missile.attack == "Arcane Dart" and missile.hits == 3 and missile.spell


@pytest.mark.parametrize("method, reaches", [("basic", True), ("intermediate", False), ("advanced", False)])
def test_a_direct_damage_spell_measures_range_by_the_games_method(method, reaches):
    """Shooting Phase, for spells: an 18" Burning Orb at a flyer 17.5" away on the ground: Basic 17.5", Intermediate
    27.5", Advanced 20.2"."""
    state = battle([unit("n-wiz", "battle_wizard", 1, 24, 4)], [unit("s-peg", "pegasus_knights", 3, 24, 21.5, 180)],
                   phase=MAGIC, air=("s-peg",), range_method=method)
    if reaches:
        events, _ = cast(state, "n-wiz", "s-peg", "burning_orb", [6, 6, 6])
        assert of_type(events, ev.TemplatePlaced)
    else:
        with pytest.raises(RuleError, match=f"out of range \\({method} range method\\)"):
            cast(state, "n-wiz", "s-peg", "burning_orb")


def test_a_spell_is_cast_on_2d6_at_least_its_casting_value_and_a_wizard_casts_once_a_phase():
    """Host magic: cast on 2D6 >= the casting value (Arcane Dart 5); one spell a wizard a Magic phase."""
    state = battle([unit("n-wiz", "battle_wizard", 1, 24, 4), unit("n-wiz2", "battle_wizard", 1, 30, 4)],
                   [unit("s-sp", "spearmen", 10, 24, 14, 180)], phase=MAGIC)
    events, after = cast(state, "n-wiz", "s-sp", "arcane_dart", [2, 2])
    assert of_type(events, ev.AttackResolved)[0].attack == "Arcane Dart (not cast)"
    assert after.units["s-sp"].models == 10
    with pytest.raises(RuleError, match="has cast a spell"):
        cast(after, "n-wiz", "s-sp", "burning_orb")
    with pytest.raises(RuleError, match="does not know"):
        cast(state, "n-wiz", "s-sp", "fireball")


def _aim_state(flight):
    state = battle([unit("n-wiz", "battle_wizard", 1, 24, 4)], [unit("s-peg", "pegasus_knights", 3, 24, 12, 180)],
                   phase=MAGIC, air=("s-peg",))
    return with_unit(state, "s-peg", flight=flight)


@pytest.mark.parametrize("flight, score", [("take off", 3), ("fly", 4), ("soar", 5)])
def test_a_direct_damage_spell_is_aimed_with_the_shooting_to_hit_modifiers_of_flyers(flight, score):
    """Magic Phase, by the shooting rules: Take Off/Land "+1 To Hit"; Soar "-1 To Hit Soaring models" (host: a
    direct damage spell is aimed with the caster's BS 3, 4+ unmodified)."""
    events, _ = cast(_aim_state(flight), "n-wiz", "s-peg", "burning_orb", [6, 6, 6])
    aimed = of_type(events, ev.AttackResolved)[0]
    assert aimed.to_hit == score and rolls(events, "aim Burning Orb")[0].target == score


def test_a_direct_damage_template_hits_the_models_under_it_at_the_level_aimed_at():
    """Host: the round template (3" across) is at the level of the unit aimed at: Harpies 10" up are hit, the
    Spearmen on the ground below are not, and the other way round ("Flying units Fly at a standard 10 inches
    above the ground")."""
    north = [unit("n-wiz", "battle_wizard", 1, 24, 4), unit("n-arch", "archers", 10, 34, 4)]  # shoot next
    south = [unit("s-harp", "harpies", 5, 24, 12, 180), unit("s-sp", "spearmen", 20, 24, 12, 180)]
    state = battle(north, south, phase=MAGIC, air=("s-harp",))
    events, after = cast(state, "n-wiz", "s-harp", "burning_orb", [6, 6, 6, 6, 6, 6])
    placed = of_type(events, ev.TemplatePlaced)[0]
    assert placed.in_air and placed.hits == {"s-harp": 3}  # the middle three of five 25 mm bases in a line
    assert after.units["s-harp"].models == 2 and after.units["s-sp"].models == 20
    drawn = [m for m in RULES.scene(after).markers if m.kind == "spell template"]  # this turn's template
    assert len(drawn) == 1 and drawn[0].shape.radius == pytest.approx(38.1)  # 1.5" in mm
    events, _ = cast(state, "n-wiz", "s-sp", "burning_orb", [6, 6, 6])
    placed = of_type(events, ev.TemplatePlaced)[0]
    assert not placed.in_air and placed.hits == {"s-sp": 12}  # 3 x 4 of the 20 mm bases around the centre


def test_a_direct_damage_spell_that_misses_scatters_by_the_scatter_die():
    """Host: a miss scatters the template by the scatter die and D6" (here 6" east: it hits nothing)."""
    state = _aim_state("fly")
    events, _ = cast(state, "n-wiz", "s-peg", "burning_orb", [6, 6, 1, 3, 9001, 6])
    target = state.units["s-peg"]
    middle = centre(footprint(target, RULES.profile(target)))
    placed = of_type(events, ev.TemplatePlaced)[0]
    assert placed.centre == (middle[0] + 6 * IN, middle[1]) and placed.hits == {}


def test_a_flyer_that_took_off_or_soared_cannot_cast_a_shooting_spell():
    """Magic Phase by the shooting rules: Take Off/Land "The Flying units themselves cannot shoot this turn";
    "Soaring models cannot shoot"; a Fly move allows it with the movement penalty; a flyer that marched cannot."""
    state = battle([unit("n-mage", "pegasus_mage", 1, 24, 4)], [unit("s-sp", "spearmen", 10, 24, 12, 180)],
                   phase=MAGIC, air=("n-mage",))
    for flight, why in (("take off", "Take Off/Land"), ("soar", "Soar")):
        with pytest.raises(RuleError, match=f"cannot shoot this turn \\({why}\\)") as refused:
            cast(with_unit(state, "n-mage", flight=flight, moved=True), "n-mage", "s-sp", "arcane_dart")
        assert refused.value.rule == "Magic Phase"
    events, _ = cast(with_unit(state, "n-mage", flight="fly", moved=True), "n-mage", "s-sp", "burning_orb",
                     [6, 6, 6])
    assert "moved (movement penalty) -1" in of_type(events, ev.AttackResolved)[0].modifiers
    grounded = with_unit(state, "n-mage", in_air=False, moved=True, marched=True)
    with pytest.raises(RuleError, match="Shoot on the March"):
        cast(grounded, "n-mage", "s-sp", "arcane_dart")  # Special Rules: flyers "cannot Shoot on the March"
    on_foot = battle([unit("n-wiz", "battle_wizard", 1, 24, 4)], [unit("s-sp", "spearmen", 10, 24, 12, 180)],
                     phase=MAGIC)
    events, _ = cast(with_unit(on_foot, "n-wiz", moved=True, marched=True), "n-wiz", "s-sp", "arcane_dart", [6, 6])
    assert of_type(events, ev.AttackResolved)  # the host: a wizard on foot casts after marching


def test_a_close_combat_spell_needs_base_contact_and_flying_above_a_unit_is_not_contact():
    """Magic Phase: a close combat spell follows the rules for close combat; Movement Phase: "Flying units may Fly
    directly above a ground unit, but not be engaged with them"; the spell's attacks hit by WS against WS."""
    state = battle([unit("n-mage", "pegasus_mage", 1, 24, 10)], [unit("s-sp", "spearmen", 10, 24, 10.5, 180)],
                   phase=MAGIC, air=("n-mage",))
    with pytest.raises(RuleError, match="not in close combat .*flying above"):
        cast(state, "n-mage", "s-sp", "withering_touch")
    swooped = replace(state, combats=(Combat(charger="n-mage", target="s-sp", kind="swoop", side="left",
                                             contacts=1),))
    events, _ = cast(swooped, "n-mage", "s-sp", "withering_touch", [6, 6, 3, 4, 4, 3, 6, 6, 1, 1])
    touch = of_type(events, ev.AttackResolved)[0]
    assert (touch.attack, touch.dice, touch.to_hit, touch.hits, touch.wounds) == ("Withering Touch", 3, 4, 2, 2)
    assert touch.unsaved == 2  # spearmen save 5+ and S4 makes it 6+: two 1s fail
