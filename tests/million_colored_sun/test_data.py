"""The data files: manoeuvres as data (AIRBORNE MOVEMENT), warscrolls, battleplans, and DataError for bad files."""

from __future__ import annotations

import json
import shutil
from importlib import resources

import pytest

from aero_events.core.errors import DataError
from aero_events.rulesets.million_colored_sun.data import load_data
from aero_events.table import inches

from .helpers import RULES

#: AIRBORNE MOVEMENT, as printed: (forward, lateral, pivot) in inches and degrees
PRINTED = {
    "cruise-20": (20, 0, 0), "cruise-30": (30, 0, 0),
    "bank-left": (20, -10, -45), "bank-right": (20, 10, 45),
    "hard-left": (10, -10, -90), "hard-right": (10, 10, 90),
    "boost-40": (40, 0, 0), "boost-50": (50, 0, 0),
    "afterburner-60": (60, 0, 0), "afterburner-70": (70, 0, 0),
    "loop": (10, 0, 180),
    "barrel-roll-left": (10, -10, 0), "barrel-roll-right": (10, 10, 0),
}


def test_every_manoeuvre_template_is_the_printed_one():
    """AIRBORNE MOVEMENT: CRUISE, BANK, HARD TURN, BOOST, AFTERBURNER, LOOP and BARREL ROLL as data."""
    found = {m.id: (m.forward, m.lateral, m.pivot) for m in RULES.data.manoeuvres.values()}
    assert found == {k: (inches(f), inches(lat), p * 100) for k, (f, lat, p) in PRINTED.items()}


def test_warscrolls_list_their_manoeuvres_and_which_are_red():
    """AIRBORNE MOVEMENT: "Each AIRBORNE model's Warscroll will list which Maneuvers the model can perform. Some
    Maneuvers are listed as Red Maneuvers"."""
    fighter = RULES.data.warscrolls["fighter"]
    assert "loop" in fighter.manoeuvres and "loop" in fighter.red and "cruise-20" not in fighter.red
    for scroll in RULES.data.warscrolls.values():
        assert scroll.red <= set(scroll.manoeuvres)
        if "airborne" in scroll.modes:
            assert scroll.initiative is not None


def test_the_host_profiles_are_data():
    """Host: a fighter, a bomber, a flying monster, ground infantry and a gun, with Move, Wounds, Save, Bravery and
    weapons (Range, Attacks, To Hit, To Wound, Rend, Damage); FLY and BEHEMOTH keywords."""
    scrolls = RULES.data.warscrolls
    assert {"fighter", "bomber", "wyvern", "infantry", "flak-gun", "missile"} <= set(scrolls)
    assert scrolls["wyvern"].has("FLY") and scrolls["wyvern"].has("BEHEMOTH")
    rifle = scrolls["infantry"].weapon("Long Rifle")
    assert (rifle.range, rifle.attacks, rifle.to_hit, rifle.to_wound, rifle.rend, rifle.damage) == \
        (inches(18), "1", 4, 4, 0, "1")


def _copy(tmp_path):
    folder = resources.files("aero_events.rulesets.million_colored_sun") / "data"
    for name in ("manoeuvres.json", "warscrolls.json", "battleplans.json"):
        shutil.copy(str(folder / name), tmp_path / name)
    return tmp_path


def test_a_warscroll_naming_an_unknown_manoeuvre_is_a_data_error(tmp_path):
    folder = _copy(tmp_path)
    data = json.loads((folder / "warscrolls.json").read_text())
    data["warscrolls"][0]["manoeuvres"].append("immelmann")
    (folder / "warscrolls.json").write_text(json.dumps(data))
    with pytest.raises(DataError) as err:
        load_data(folder)
    assert err.value.location == "fighter" and err.value.field == "manoeuvres"


def test_a_bad_length_or_field_is_a_data_error(tmp_path):
    folder = _copy(tmp_path)
    data = json.loads((folder / "manoeuvres.json").read_text())
    data["manoeuvres"][0]["forward"] = "twenty"
    (folder / "manoeuvres.json").write_text(json.dumps(data))
    with pytest.raises(DataError, match="not a length") as err:
        load_data(folder)
    assert err.value.field == "forward"
    data["manoeuvres"][0]["forward"] = "20"
    data["manoeuvres"][0]["speed"] = 3
    (folder / "manoeuvres.json").write_text(json.dumps(data))
    with pytest.raises(DataError):
        load_data(folder)
