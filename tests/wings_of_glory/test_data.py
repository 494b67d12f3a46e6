"""Data as data: component files, validated loaders, card geometry as transforms (WINGS-OF-GLORY-DATA.md)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from aero_events.core.errors import DataError
from aero_events.rulesets.wings_of_glory.data import DATA, load_catalogue
from aero_events.rulesets.wings_of_glory.setup import SCENARIOS, load_scenario

CATALOGUE = load_catalogue()


def _copy(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    shutil.copytree(DATA, folder)
    return folder


def _edit(folder: Path, name: str, change) -> None:
    path = folder / name
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


# The data page's precomputed high-speed (dx/dy) table, section 3: deck -> template -> (dx, dy) in mm.
PRECOMPUTED = {
    "B": {"straight": (0, 127), "bank": (34, 112), "turn": (40, 95), "sideslip": (33, 126),
          "steep_sideslip": (24, 116), "steep_turn": (68, 94), "immelmann": (0, 59), "dive": (0, 126),
          "stall": (0, 72), "climb": (0, 72)},
    "SPIT": {"straight": (0, 127), "bank": (33, 107), "turn": (39, 91), "steep_sideslip": (22, 111),
             "steep_turn": (65, 88), "immelmann": (0, 59)},
    "HURR": {"straight": (0, 122), "bank": (32, 105), "turn": (38, 90), "sideslip": (30, 121),
             "steep_turn": (63, 85), "immelmann": (0, 55), "dive": (0, 122)},
    "I": {"straight": (0, 110), "bank": (32, 105), "sideslip": (24, 109), "immelmann": (0, 43),
          "dive_bomb": (0, 73)},
    "BHVY": {"straight": (0, 110), "bank": (34, 112), "turn": (40, 95), "sideslip": (24, 109)},
}


@pytest.mark.parametrize("deck", sorted(PRECOMPUTED))
def test_card_moves_match_the_data_page_table(deck):
    """Section 2-3: dx = s*ex + (L/2) sin(theta), dy = L/2 + s*ey + (L/2) cos(theta), per deck factor."""
    cards = {c.template: c for c in CATALOGUE.decks[deck].cards if c.direction != "L"}
    for template, (dx, dy) in PRECOMPUTED[deck].items():
        card = cards[template]
        assert (round(card.dx / 100), round(card.dy / 100)) == (dx, dy), template


def test_left_cards_mirror_right_cards():
    """Section 2: left cards mirror ex and theta."""
    deck = CATALOGUE.decks["B"]
    right, left = deck.card(3), deck.card(4)
    assert (left.dx, left.dy, left.dtheta) == (-right.dx, right.dy, (36000 - right.dtheta) % 36000)
    assert right.dtheta == 3300 and left.direction == "L"


def test_low_speed_variant_flies_the_white_endpoint():
    """Section 2, Speed: option speed_variant low; the low-speed straight is 0/93.8 mm."""
    low = load_catalogue(speed="low")
    assert low.decks["B"].card(1).dy == 9380
    assert CATALOGUE.decks["B"].card(1).dy == 12660


def test_deck_contents_and_sequencing_tags():
    """Section 3: F18 has 18 cards (steep: stall, steep sideslips and turns, dive, climb); I15 ends with the two
    bomb dive cards; M13 has no Immelmann."""
    b = CATALOGUE.decks["B"]
    assert len(b.cards) == 18
    assert [c.number for c in b.cards if c.steep] == [11, 13, 14, 15, 16, 17, 18]
    assert [c.kind for c in CATALOGUE.decks["I"].cards[-2:]] == ["dive_bomb", "dive_bomb"]
    assert not any(c.kind == "immelmann" for c in CATALOGUE.decks["BMED"].cards)


def test_token_pools_have_the_data_page_sums():
    """Section 5: A 40 tokens summing 58, B 40 / 73, C 40 / 92, D 20 / 65."""
    for letter, (count, total) in {"A": (40, 58), "B": (40, 73), "C": (40, 92), "D": (20, 65)}.items():
        counts = CATALOGUE.pools[letter]
        assert sum(counts.values()) == count
        assert sum(CATALOGUE.tokens[name].points * n for name, n in counts.items()) == total


def test_plane_profiles_keep_their_confidence_marks():
    """Section 4: the Bf 109 E-3's 17 damage points and guns are sourced (S); the Spitfire's are reconstructions."""
    bf109 = CATALOGUE.planes["bf109e3"]
    assert bf109.damage_points == 17 and bf109.conf["damage_points"] == "S"
    assert (bf109.guns[0].short, bf109.guns[0].long) == ("ACC", "C")
    assert CATALOGUE.planes["spit1"].conf["damage_points"] == "R"
    assert CATALOGUE.figure_conf["ruler_width"] == "R" and CATALOGUE.figure_conf["aa_range"] == "S"


def test_components_sizes_in_hundredths_of_a_mm():
    """Section 1: card 44 x 67 mm, ruler 200 mm, front cone +-35 degrees."""
    figures = CATALOGUE.figures
    assert (figures["card_width"], figures["card_length"], figures["ruler_length"]) == (4400, 6700, 20000)
    assert CATALOGUE.arcs["front"] == ((-3500, 3500),)


def test_a_missing_field_names_file_entry_and_field(tmp_path):
    folder = _copy(tmp_path)
    _edit(folder, "planes.json", lambda d: d["planes"]["spit1"].pop("climb_rate"))
    with pytest.raises(DataError) as error:
        load_catalogue(folder)
    assert "planes.json" in str(error.value) and "'spit1'" in str(error.value) and "'climb_rate'" in str(error.value)


def test_an_unknown_deck_is_refused(tmp_path):
    folder = _copy(tmp_path)
    _edit(folder, "planes.json", lambda d: d["planes"]["hurr1"].update(deck="ZZ"))
    with pytest.raises(DataError, match="entry 'hurr1', field 'deck'"):
        load_catalogue(folder)


def test_a_reconstruction_must_say_so(tmp_path):
    """Keep the sourced/derived/reconstruction marks: an R figure without "reconstruction": true is refused."""
    folder = _copy(tmp_path)
    _edit(folder, "components.json", lambda d: d["figures"]["ruler_width"].pop("reconstruction"))
    with pytest.raises(DataError, match="field 'reconstruction'"):
        load_catalogue(folder)


def test_a_bad_token_row_is_refused(tmp_path):
    folder = _copy(tmp_path)
    _edit(folder, "damage_tokens.json", lambda d: d["letters"]["B"]["tokens"].append([1, 2, "explosion"]))
    with pytest.raises(DataError, match="entry 'B', field 'tokens'"):
        load_catalogue(folder)


def test_a_deck_card_with_a_wrong_direction_is_refused(tmp_path):
    folder = _copy(tmp_path)
    _edit(folder, "decks.json", lambda d: d["compositions"]["M13"]["cards"].__setitem__(0, ["straight", "L"]))
    with pytest.raises(DataError, match="entry 'M13', field 'cards'"):
        load_catalogue(folder)


def test_gun_tokens_must_be_pool_letters(tmp_path):
    folder = _copy(tmp_path)
    _edit(folder, "planes.json", lambda d: d["planes"]["spit1"]["guns"][0].update(short="AAZ"))
    with pytest.raises(DataError, match=r"spit1.guns\[0\]', field 'short'"):
        load_catalogue(folder)


def test_scenarios_load_and_bad_scenarios_are_refused(tmp_path):
    setup = load_scenario(SCENARIOS / "dogfight.json", CATALOGUE)
    assert [p.profile for p in setup.planes] == ["spit1", "spit1", "hurr1", "bf109e3", "bf109e3", "bf110c"]
    data = json.loads((SCENARIOS / "bombing.json").read_text())
    data["planes"][0]["level"] = 12
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(DataError, match="entry 'dornier-1', field 'level'"):
        load_scenario(path, CATALOGUE)


def test_only_a_line_ruler_is_supported(tmp_path):
    """TARGETING: the ruler is laid as a line (ruler width 0); another width is refused, not silently ignored."""
    folder = _copy(tmp_path)
    _edit(folder, "components.json", lambda d: d["figures"]["ruler_width"].update(value=15))
    with pytest.raises(DataError, match="entry 'ruler_width', field 'value'"):
        load_catalogue(folder)
