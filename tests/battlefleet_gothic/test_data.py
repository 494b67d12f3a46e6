"""Data files: profiles as the text prints them (p.9), the tables (p.10, p.20, p.24, p.26), validation errors."""

import json

import pytest

from aero_events.core import DataError
from aero_events.rulesets.battlefleet_gothic.data import data_path, load_data

from .helpers import RULES


def test_lunar_profile_matches_the_text_p9():
    lunar = RULES.data.classes["lunar"]
    assert (lunar.type, lunar.hits, lunar.speed_cm, lunar.turn_degrees) == ("cruiser", 8, 20, 45)
    assert (lunar.shields, lunar.armour_front, lunar.armour, lunar.turrets) == (2, 6, 5, 2)
    assert [(w.id, w.kind, w.range_cm, w.value, w.arcs) for w in lunar.weapons] == [
        ("port_lance", "lance", 30, 2, ("left",)), ("starboard_lance", "lance", 30, 2, ("right",)),
        ("port_battery", "battery", 30, 6, ("left",)), ("starboard_battery", "battery", 30, 6, ("right",)),
        ("prow_torpedoes", "torpedoes", 30, 6, ("front",))]


def test_murder_profile_matches_the_text_p9():
    murder = RULES.data.classes["murder"]
    assert (murder.speed_cm, murder.shields, murder.armour_front, murder.armour, murder.turrets) == (25, 2, 5, 5, 2)
    assert [(w.kind, w.range_cm, w.value, w.arcs) for w in murder.weapons] == [
        ("battery", 45, 10, ("left",)), ("battery", 45, 10, ("right",)), ("lance", 60, 2, ("front",))]


def test_twenty_classes_each_cited_with_confidence():
    assert len(RULES.data.classes) == 20
    for cls in RULES.data.classes.values():
        assert cls.cite and cls.confidence in ("sourced", "derived", "reconstruction")


def test_carnage_broadside_is_firepower_16_per_ship_p20():
    """p.20: a squadron of two Carnage cruisers can put firepower 32 into one broadside."""
    carnage = RULES.data.classes["carnage"]
    right = sum(w.value for w in carnage.weapons if w.kind == "battery" and "right" in w.arcs)
    assert 2 * right == 32


def test_starting_leadership_table_p10():
    assert [RULES.data.tables.leadership.by_d6[str(n)] for n in range(1, 7)] == [6, 7, 7, 8, 8, 9]


def test_reconstructed_sizes_keep_their_mark():
    assert RULES.data.geometry["blast_marker_radius_cm"].confidence == "reconstruction"
    assert RULES.data.geometry["turn_distance_cm"].confidence == "sourced"


def _broken_copy(tmp_path, name, edit):
    with open(data_path(name)) as handle:
        document = json.load(handle)
    edit(document)
    path = tmp_path / name
    path.write_text(json.dumps(document))
    return str(path)


def test_a_bad_field_names_file_entry_and_field(tmp_path):
    path = _broken_copy(tmp_path, "ships.json", lambda d: d["classes"][1].update(hits="eight"))
    with pytest.raises(DataError) as caught:
        load_data(ships=path)
    assert caught.value.source == path and caught.value.location == "lunar" and caught.value.field == "hits"


def test_a_weapon_without_an_arc_is_refused(tmp_path):
    path = _broken_copy(tmp_path, "ships.json", lambda d: d["classes"][1]["weapons"][0].update(arcs=[]))
    with pytest.raises(DataError) as caught:
        load_data(ships=path)
    assert caught.value.location == "lunar" and caught.value.field == "weapons[0].arcs"


def test_gunnery_rows_must_fall_from_easiest_to_hardest(tmp_path):
    path = _broken_copy(tmp_path, "tables.json", lambda d: d["gunnery"]["rows"].__setitem__(9, [9, 7, 5, 4, 6]))
    with pytest.raises(DataError) as caught:
        load_data(tables=path)
    assert caught.value.location == "gunnery" and caught.value.field == "rows[9]"


def test_a_missing_file_is_a_data_error(tmp_path):
    with pytest.raises(DataError):
        load_data(geometry=str(tmp_path / "nope.json"))


def test_torpedo_kinds_and_the_raid_reading_are_checked(tmp_path):
    """The boarding torpedo kind (p.28) and the hit-and-run reconstruction are data: a bad field is named."""
    kinds = RULES.data.ordnance["torpedo_kinds"].value
    assert kinds["boarding"]["steer_degrees"] == 45 and kinds["boarding"]["hit_and_run"]
    assert RULES.data.ordnance["hit_and_run_raid"].confidence == "reconstruction"
    path = _broken_copy(tmp_path, "ordnance.json",
                        lambda d: d["entries"]["torpedo_kinds"]["value"]["boarding"].update(steer_degrees="45"))
    with pytest.raises(DataError) as caught:
        load_data(ordnance=path)
    assert caught.value.location == "torpedo_kinds.boarding" and caught.value.field == "steer_degrees"
    path = _broken_copy(tmp_path, "ordnance.json",
                        lambda d: d["entries"]["hit_and_run_raid"]["value"].update(success_on=7))
    with pytest.raises(DataError) as caught:
        load_data(ordnance=path)
    assert caught.value.location == "hit_and_run_raid" and caught.value.field == "success_on"
