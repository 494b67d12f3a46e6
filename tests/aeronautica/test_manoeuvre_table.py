"""The Ace Manoeuvre table (rulebook p.16-17, diagrams p.88) as data.

The shipped table is a reconstruction (the p.88 diagrams are not in the text); it keeps what the text
fixes: eight manoeuvres, 1 simplest (p.16), manoeuvre 1 for landing and take-off (p.19), manoeuvre 7 in two
stages whose first move goes forward and to the left (p.16). A user table is validated like any data file.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aero_events.core.errors import DataError
from aero_events.rulesets.aeronautica.manoeuvres import (
    Manoeuvre,
    ManoeuvreTable,
    Stage,
    facing_change,
    load_manoeuvres,
    move_direction,
    parse_manoeuvres,
    slip_direction,
    turn,
)
from aero_events.rulesets.aeronautica.profiles import data_path, load_catalogue

N, NE, SE, S, SW, NW = range(6)


@pytest.fixture(scope="module")
def table() -> ManoeuvreTable:
    return load_manoeuvres()


def _original() -> dict:
    return json.loads(data_path("manoeuvres.json").read_text())


# number, name, sided, [(move, facings)]  -- AERONAUTICA-DATA.md's table
TABLE = [
    (1, "Straight", False, [("forward", (0,))]),
    (2, "Bank", True, [("forward", (1,))]),
    (3, "Sideslip", True, [("slip", (0,))]),
    (4, "Turn", True, [("forward", (1, 2))]),
    (5, "Roll", True, [("slip", (0, 1))]),
    (6, "Reverse", False, [("forward", (3,))]),
    (7, "Wingover", True, [("slip", (1,)), ("forward", (0, 1, 2))]),
    (8, "Hammerhead", True, [("forward", (2,)), ("forward", (-2, -1, 0, 1, 2, 3))]),
]


@pytest.mark.parametrize("number,name,sided,stages", TABLE, ids=[r[1] for r in TABLE])
def test_default_table_rows(table, number, name, sided, stages):
    m = table.get(number)
    assert isinstance(m, Manoeuvre)
    assert (m.number, m.name, m.sided) == (number, name, sided)
    assert [(s.move, s.facings) for s in m.stages] == stages


def test_default_table_is_marked_a_reconstruction_p88(table):
    assert table.reconstruction is True
    assert "RECONSTRUCTION" in table.note
    assert "p.88" in table.source
    assert table.data_version == "wov-2019.1"


def test_eight_manoeuvres_numbered_1_to_8_p16(table):
    assert table.numbers == tuple(range(1, 9))
    assert 1 in table and 9 not in table
    with pytest.raises(KeyError):
        table.get(9)


def test_every_aircraft_manoeuvre_is_in_the_table_p10(table):
    for aircraft in load_catalogue().aircraft.values():
        assert all(n in table for n in aircraft.ace_manoeuvres), aircraft.id


def test_manoeuvre_7_has_two_stages_first_forward_and_left_p16(table):
    wingover = table.get(7)
    assert wingover.min_hexes == 2
    first = wingover.stages[0]
    # facing N, side left: the first hex is through the front-left hexside (NW), "forward and to the left"
    assert first.move_direction(N, "left") == NW
    assert wingover.sides == ("left", "right")


def test_default_table_is_cached():
    assert load_manoeuvres() is load_manoeuvres()


# ---- facing arithmetic: clockwise N=0..NW=5, turning right = +1 ----------------------------------------


def test_turn_wraps_round():
    assert turn(N, -1) == NW
    assert turn(NW, 1) == N
    assert turn(SE, 3) == NW


def test_facing_change_left_is_anticlockwise_right_is_clockwise():
    assert facing_change(1, "left") == -1
    assert facing_change(1, "right") == 1
    assert facing_change(-2, "left") == 2
    assert facing_change(3, None) == 3


def test_slip_goes_through_the_front_left_or_front_right_hexside():
    assert slip_direction(N, "left") == NW
    assert slip_direction(N, "right") == NE
    assert slip_direction(NW, "right") == N
    assert move_direction("forward", SE, "left") == SE
    assert move_direction("slip", SE, "left") == NE
    with pytest.raises(ValueError):
        move_direction("slip", N, None)


def test_bank_left_ends_facing_nw_and_right_ends_facing_ne(table):
    bank = table.get(2).stages[0]
    assert bank.final_facings(N, "left") == (NW,)
    assert bank.final_facings(N, "right") == (NE,)


def test_stage_facing_changes_mirror_between_left_and_right(table):
    for m in table.manoeuvres:
        for stage in m.stages:
            left, right = stage.facing_changes("left"), stage.facing_changes("right")
            assert left == tuple(-s for s in right)
            assert right == stage.facings


def test_unsided_manoeuvres_need_no_side(table):
    assert table.get(1).sides == (None,)
    assert table.get(6).stages[0].final_facings(N, None) == (S,)
    with pytest.raises(ValueError):
        table.get(4).stages[0].facing_changes(None)


@given(
    move=st.sampled_from(["forward", "slip"]),
    facings=st.lists(st.integers(-3, 3), min_size=1, max_size=4, unique=True),
    facing=st.integers(0, 5),
)
def test_mirror_property_any_stage(move, facings, facing):
    stage = Stage(move=move, facings=tuple(facings))
    left = stage.final_facings(facing, "left")
    right = stage.final_facings(facing, "right")
    # Reflecting the board through the aircraft's axis maps a facing f to 2*facing - f.
    assert tuple((2 * facing - f) % 6 for f in left) == right
    assert (2 * facing - stage.move_direction(facing, "left")) % 6 == stage.move_direction(facing, "right")


# ---- a user's own table -------------------------------------------------------------------------------


def test_user_table_replaces_the_default(tmp_path):
    data = _original()
    data["reconstruction"] = False
    data["source"] = "my own reading of the p.88 diagrams"
    data["manoeuvres"][3]["stages"][0]["facings"] = [1]
    path = tmp_path / "my_manoeuvres.json"
    path.write_text(json.dumps(data))
    mine = load_manoeuvres(path)
    assert mine.get(4).stages[0].facings == (1,)
    assert mine.reconstruction is False


def _refused(data: dict, tmp_path) -> DataError:
    path = tmp_path / "my_manoeuvres.json"
    path.write_text(json.dumps(data, indent=2))
    with pytest.raises(DataError) as info:
        load_manoeuvres(path)
    assert info.value.source == str(path)
    return info.value


def test_user_table_with_a_bad_facing_is_refused(tmp_path):
    data = _original()
    data["manoeuvres"][7]["stages"][1]["facings"] = [0, 4]
    err = _refused(data, tmp_path)
    assert (err.location, err.field) == ("manoeuvre 8", "stages[1].facings[1]")
    assert "-3 to 3" in str(err)
    assert err.line is not None


def test_user_table_with_a_facing_that_is_not_a_number_is_refused(tmp_path):
    data = _original()
    data["manoeuvres"][1]["stages"][0]["facings"] = ["left"]
    err = _refused(data, tmp_path)
    assert (err.location, err.field) == ("manoeuvre 2", "stages[0].facings[0]")


def test_user_table_with_an_unknown_move_is_refused(tmp_path):
    data = _original()
    data["manoeuvres"][2]["stages"][0]["move"] = "barrel_roll"
    err = _refused(data, tmp_path)
    assert (err.location, err.field) == ("manoeuvre 3", "stages[0].move")


def test_user_table_without_manoeuvre_1_is_refused_p19(tmp_path):
    data = _original()
    data["manoeuvres"] = data["manoeuvres"][1:]
    err = _refused(data, tmp_path)
    assert "p.19" in str(err)
    assert err.field == "manoeuvres"


def test_user_table_with_a_repeated_number_is_refused(tmp_path):
    data = _original()
    data["manoeuvres"][2]["number"] = 2
    err = _refused(data, tmp_path)
    assert (err.location, err.field) == ("manoeuvre 2", "number")


def test_user_table_with_number_9_is_refused_p16(tmp_path):
    data = _original()
    data["manoeuvres"][7]["number"] = 9
    err = _refused(data, tmp_path)
    assert (err.location, err.field) == ("manoeuvre 9", "number")


@pytest.mark.parametrize("count", [0, 3])
def test_user_table_stage_count_must_be_1_or_2_p16(tmp_path, count):
    data = _original()
    data["manoeuvres"][0]["stages"] = [{"move": "forward", "facings": [0]}] * count
    err = _refused(data, tmp_path)
    assert (err.location, err.field) == ("manoeuvre 1", "stages")


def test_user_table_unsided_slip_is_refused(tmp_path):
    data = _original()
    data["manoeuvres"][5]["stages"][0] = {"move": "slip", "facings": [3]}
    err = _refused(data, tmp_path)
    assert (err.location, err.field) == ("manoeuvre 6", "stages[0].move")


def test_user_table_unsided_with_one_sided_facings_is_refused(tmp_path):
    data = _original()
    data["manoeuvres"][0]["stages"][0]["facings"] = [0, 1]
    err = _refused(data, tmp_path)
    assert (err.location, err.field) == ("manoeuvre 1", "stages[0].facings")


def test_user_table_unknown_field_is_refused(tmp_path):
    data = _original()
    data["manoeuvres"][4]["difficulty"] = "hard"
    err = _refused(data, tmp_path)
    assert (err.location, err.field) == ("manoeuvre 5", "difficulty")


def test_user_table_same_facing_twice_is_refused(tmp_path):
    data = _original()
    data["manoeuvres"][7]["stages"][1]["facings"] = [3, -3]
    err = _refused(data, tmp_path)
    assert (err.location, err.field) == ("manoeuvre 8", "stages[1].facings")


def test_parse_from_text_names_string_source():
    with pytest.raises(DataError) as info:
        parse_manoeuvres('{"source": "x", "data_version": "v", "manoeuvres": []}')
    assert info.value.source == "<string>"
