"""Shooting Phase (the three range methods), Take Off/Land, Fly, Soar (Shooting), Fly High (cannot be targeted),
Magic Phase."""

from __future__ import annotations

import pytest

from aero_events.core import RuleError
from aero_events.rulesets.whfb_flying import commands as cmd
from aero_events.rulesets.whfb_flying.events import AttackResolved
from aero_events.rulesets.whfb_flying.geometry import (
    FLIGHT_HEIGHT,
    cover,
    footprint,
    line_of_sight,
    within_range,
)
from aero_events.rulesets.whfb_flying.state import SHOOTING

from .helpers import IN, RULES, battle, decide, of_type, terrain, unit, with_unit

ARCHERS = unit("n-arch", "archers", 10, 24, 4)  # front edge at y = 4", facing north; longbows 30"


def target_at(gap, profile="pegasus_knights", models=3, air=True, **state_changes):
    """An enemy facing the archers, its front edge ``gap`` inches beyond theirs."""
    state = battle([ARCHERS], [unit("s-tgt", profile, models, 24, 4 + gap, 180)], phase=SHOOTING,
                   air=("s-tgt",) if air else (), **state_changes)
    return state


@pytest.mark.parametrize("method, gap, in_range", [
    ("basic", 25, True), ("intermediate", 25, False), ("advanced", 25, True),
    ("basic", 29, True), ("intermediate", 19, True), ("advanced", 29, False),
])
def test_three_range_methods_between_air_and_ground(method, gap, in_range):
    """Shooting Phase: "Basic: Measure the ground distance only. Intermediate: Add 10 inches to the basic ground
    distance ... Advanced: Calculate the triangular distance between air and ground units (a^2 + b^2 = c^2)":
    at 25" on the ground a 30" bow reaches (basic, advanced: 26.9") or not (intermediate: 35"); at 29"
    advanced is 30.7"."""
    state = target_at(gap, range_method=method)
    shooter, target = state.units["n-arch"], state.units["s-tgt"]
    first = footprint(shooter, RULES.profile(shooter))
    second = footprint(target, RULES.profile(target))
    assert within_range(method, first, second, FLIGHT_HEIGHT, 30 * IN) is in_range
    if in_range:
        events, _ = decide(state, cmd.Shoot(player="north", unit="n-arch", target="s-tgt"))
        assert of_type(events, AttackResolved)
    else:
        with pytest.raises(RuleError, match=f"out of range \\({method}"):
            decide(state, cmd.Shoot(player="north", unit="n-arch", target="s-tgt"))


def test_the_range_method_is_agreed_for_the_whole_game():
    """Shooting Phase: "Players agree upon the method ... but be consistent throughout the game": it is part of
    the game's setup, kept in the state."""
    assert target_at(10, range_method="intermediate").range_method == "intermediate"


def test_advanced_range_is_exact_at_its_boundary():
    """Advanced: a^2 + b^2 = c^2 exactly: 24" ground distance and 10" up is 26" (a 26" weapon reaches, 1 less
    not)."""
    state = target_at(24, range_method="advanced")
    first = footprint(state.units["n-arch"], RULES.profile(state.units["n-arch"]))
    second = footprint(state.units["s-tgt"], RULES.profile(state.units["s-tgt"]))
    assert within_range("advanced", first, second, FLIGHT_HEIGHT, 26 * IN)
    assert not within_range("advanced", first, second, FLIGHT_HEIGHT, 26 * IN - 1)


def test_both_in_the_air_measure_the_ground_distance():
    """Spec gap: between two units in the air there is no vertical difference (Intermediate adds nothing)."""
    state = battle([unit("n-peg", "pegasus_knights", 3, 24, 4)], [unit("s-peg", "pegasus_knights", 3, 24, 15, 180)],
                   phase=SHOOTING, air=("n-peg", "s-peg"), range_method="intermediate")
    events, _ = decide(state, cmd.Shoot(player="north", unit="n-peg", target="s-peg"))  # javelins 12", gap 11"
    assert of_type(events, AttackResolved)


def test_line_of_sight_from_the_air_is_blocked_by_large_targets_buildings_and_aerial_models_only():
    """Fly (Shooting): "They have Line of Sight to ground units, unless obstructed by a Large Target, Building,
    or other aerial model. They can see over normal walls and fences" ("Ground unit may target them in return
    using the same principles")."""
    north = [unit("n-peg", "pegasus_knights", 3, 24, 4)]
    target = unit("s-arch", "archers", 10, 24, 20, 180)
    cases = [
        ([unit("s-sp", "spearmen", 20, 24, 12)], (), False, True),  # infantry in between: seen over from the air
        ([unit("s-wyv", "wyvern_lord", 1, 24, 12)], (), False, False),  # a Large Target blocks
        ([unit("s-harp", "harpies", 5, 24, 12)], (), True, False),  # another aerial unit blocks
        ([], (terrain("tower", "building", 24, 12, 4, 4, cover=-2),), False, False),
        ([], (terrain("wall", "obstacle", 24, 12, 8, 1, cover=-2),), False, True),
    ]
    for between, pieces, in_air, seen in cases:
        state = battle(north, [target, *between], air=("n-peg",) + (("s-harp",) if in_air else ()),
                       terrain=pieces, phase=SHOOTING)
        units = state.units
        assert line_of_sight(state, RULES.data.units, units["n-peg"], units["s-arch"]) is seen
        assert line_of_sight(state, RULES.data.units, units["s-arch"], units["n-peg"]) is seen
    grounded = battle(north, [target, unit("s-sp", "spearmen", 20, 24, 12)], phase=SHOOTING)
    assert not line_of_sight(grounded, RULES.data.units, grounded.units["n-peg"], grounded.units["s-arch"])


def test_a_flying_shooter_within_10_inches_ignores_cover_beyond_it_the_target_keeps_it():
    """Fly (Shooting): "the target still gains the cover bonus if the Flying shooter is more than 10 inches away
    (in ground distance)"; Fly Summary Table: "ignores cover from obstacles within 10 inches"; "Ground unit
    may target them in return using the same principles"."""
    wall = terrain("wall", "obstacle", 24, 14.5, 8, 0.5, cover=-2)
    for front, expected in ((8, 0), (4, -2)):  # 8" and 12" of ground between the flyer and the archers
        state = battle([unit("n-peg", "pegasus_knights", 3, 24, front)], [unit("s-arch", "archers", 10, 24, 16, 180)],
                       air=("n-peg",), terrain=(wall,), phase=SHOOTING)
        peg, archers = state.units["n-peg"], state.units["s-arch"]
        assert cover(state, RULES.data.units, peg, archers) == expected
        assert cover(state, RULES.data.units, archers, peg) == expected
    grounded = battle([unit("n-peg", "pegasus_knights", 3, 24, 8)], [unit("s-arch", "archers", 10, 24, 16, 180)],
                      terrain=(wall,), phase=SHOOTING)
    assert cover(grounded, RULES.data.units, grounded.units["n-peg"], grounded.units["s-arch"]) == -2


def test_taking_off_or_landing_is_plus_one_to_hit_and_they_cannot_shoot():
    """Take Off/Land (Shooting): "+1 To Hit ... The Flying units themselves cannot shoot this turn"."""
    state = with_unit(target_at(10), "s-tgt", flight="take off")
    shot = of_type(decide(state, cmd.Shoot(player="north", unit="n-arch", target="s-tgt"))[0], AttackResolved)[0]
    assert "target Took Off/Landed (Take Off/Land) +1" in shot.modifiers and shot.to_hit == 3
    state = battle([unit("n-peg", "pegasus_knights", 3, 24, 4)], [unit("s-sp", "spearmen", 20, 24, 12, 180)],
                   phase=SHOOTING)
    with pytest.raises(RuleError) as refused:
        decide(with_unit(state, "n-peg", flight="land", moved=True),
               cmd.Shoot(player="north", unit="n-peg", target="s-sp"))
    assert refused.value.rule == "Take Off/Land"


def test_fly_can_shoot_with_the_movement_penalty():
    """Fly (Shooting): "models can do a normal Fly move, and can shoot. Movement penalties apply"."""
    state = battle([unit("n-peg", "pegasus_knights", 3, 24, 4)], [unit("s-sp", "spearmen", 20, 24, 9, 180)],
                   phase=SHOOTING, air=("n-peg",))  # 5": short range for 12" javelins
    state = with_unit(state, "n-peg", flight="fly", moved=True)
    shot = of_type(decide(state, cmd.Shoot(player="north", unit="n-peg", target="s-sp"))[0], AttackResolved)[0]
    assert "moved (movement penalty) -1" in shot.modifiers and shot.to_hit == 5


def test_soaring_units_cannot_shoot_and_are_minus_one_to_hit():
    """Soar (Shooting): "Soaring models cannot shoot. They are hard to hit due to high velocity. -1 To Hit".
    """
    state = with_unit(target_at(10), "s-tgt", flight="soar")
    shot = of_type(decide(state, cmd.Shoot(player="north", unit="n-arch", target="s-tgt"))[0], AttackResolved)[0]
    assert "target Soared (Soar) -1" in shot.modifiers and shot.to_hit == 5
    state = battle([unit("n-peg", "pegasus_knights", 3, 24, 4)], [unit("s-sp", "spearmen", 20, 24, 12, 180)],
                   phase=SHOOTING, air=("n-peg",))
    with pytest.raises(RuleError) as refused:
        decide(with_unit(state, "n-peg", flight="soar", moved=True),
               cmd.Shoot(player="north", unit="n-peg", target="s-sp"))
    assert refused.value.rule == "Soar"


def test_units_that_flew_high_cannot_be_targeted():
    """Fly Summary Table, Fly High: "Cannot shoot or be targeted"."""
    state = with_unit(target_at(10), "s-tgt", status="flown high")
    with pytest.raises(RuleError, match="cannot be targeted"):
        decide(state, cmd.Shoot(player="north", unit="n-arch", target="s-tgt"))
