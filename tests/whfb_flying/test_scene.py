"""The scene a player sees: each unit's ranked footprint from its models' bases (units.json, mm), behind its
front-centre and facing its heading; units in the air marked; the lone model counted as one."""

import pytest

from aero_events.rulesets.whfb_flying import commands as cmd

from .helpers import IN, RULES, battle, decide, unit


def _pieces(state):
    return {p.id: p for p in RULES.scene(state).pieces}


def test_a_unit_is_drawn_as_its_files_and_ranks_of_bases_behind_its_front():
    """Spearmen on 20 mm bases, 5 files: 12 models make 3 ranks, 100 x 60 mm; facing east (90 degrees), the
    footprint lies west of the front-centre, half its depth behind it."""
    pieces = _pieces(battle([unit("n-sp", "spearmen", 12, 20, 10, 90)], [unit("s-sp", "spearmen", 10, 20, 30, 180)]))
    spears = pieces["n-sp"]
    assert (spears.footprint.width, spears.footprint.length) == (100.0, 60.0)
    assert spears.heading == 90.0
    assert spears.x == pytest.approx(20 * 25.4 - 30.0, abs=0.02) and spears.y == pytest.approx(10 * 25.4, abs=0.02)
    assert spears.detail == "12 models, 5x3"


def test_a_single_model_is_counted_as_one_model_on_its_own_base():
    """Lord on Wyvern: one model on its 50 x 100 mm monster base."""
    wyvern = _pieces(battle([unit("n-wyv", "wyvern_lord", 1, 20, 10)], [unit("s-sp", "spearmen", 10, 20, 30, 180)]))
    lord = wyvern["n-wyv"]
    assert (lord.footprint.width, lord.footprint.length) == (50.0, 100.0)
    assert lord.detail == "1 model, 1x1" and "1 model" in lord.hover and "1 models" not in lord.hover


def test_a_unit_in_the_air_is_marked_and_levelled():
    """Units in the air (10" up, the Fly rules) carry the AIR flag and level 1; units on the ground level 0."""
    state = battle([unit("n-peg", "pegasus_knights", 3, 20, 10)], [unit("s-sp", "spearmen", 10, 20, 30, 180)],
                   air=("n-peg",))
    pieces = _pieces(state)
    assert "AIR" in pieces["n-peg"].tags and pieces["n-peg"].level == 1 and "in the air" in pieces["n-peg"].hover
    assert "AIR" not in pieces["s-sp"].tags and pieces["s-sp"].level == 0


def test_a_character_that_joined_a_unit_says_so_in_its_line_not_in_a_ring():
    """Fly: "Unit joining is allowed": the joined unit is named in the character's line and hover; rings are
    kept for the few states that change how a unit is fought."""
    state = battle([unit("n-sp", "spearmen", 10, 10, 30, 180)],
                   [unit("s-wyv", "wyvern_lord", 1, 30, 10), unit("s-harp", "harpies", 5, 36, 10)],
                   air=("s-wyv", "s-harp"), active="south")
    _, after = decide(state, cmd.Fly(player="south", unit="s-wyv", heading=0, distance=6 * IN, join="s-harp"))
    wyvern = _pieces(after)["s-wyv"]
    assert wyvern.detail == "1 model, 1x1 · with s-harp" and "joined to s-harp" in wyvern.hover
    assert not any(tag.startswith("WITH") for tag in wyvern.tags)
