"""A piece's type is printed short beside it, yet two types on one board never print alike: Wings of Glory's
Bf 109 and Bf 110 are both "Messerschmitt ..." and were both printed "Messerschmitt"."""

from __future__ import annotations

from aero_events.demo import demo_session
from aero_events.rulesets import get_ruleset
from aero_events.viz.board import BoardView, label_trace, short_model


def test_a_long_type_keeps_the_words_that_tell_it_apart():
    types = ("Messerschmitt Bf 109 E-3", "Messerschmitt Bf 110 C-4", "Thunderbolt Heavy Fighter", "Dakkajet")
    assert short_model("Messerschmitt Bf 109 E-3", types) == "Messerschmitt Bf 109"
    assert short_model("Messerschmitt Bf 110 C-4", types) == "Messerschmitt Bf 110"
    assert short_model("Thunderbolt Heavy Fighter", types) == "Thunderbolt"
    assert short_model("Dakkajet", types) == "Dakkajet"
    assert short_model("Thunderbolt Heavy Fighter", ("Thunderbolt Heavy Fighter", "Thunderbolt Heavy Bomber")) \
        == "Thunderbolt Heavy Fighter"


def test_wings_of_glorys_board_prints_each_plane_type_apart():
    rules = get_ruleset("wings-of-glory/bob-2017")
    scene = rules.scene(demo_session(ruleset=rules).state)
    view = BoardView.of([scene])
    printed = {}
    for piece, text in zip(scene.pieces, label_trace(view, scene, {p.id: (0.0, 0.0) for p in scene.pieces})["text"],
                           strict=True):
        printed.setdefault(piece.model, set()).add(text.split("</b> ", 1)[1].split("<br>")[0])
    names = [next(iter(shown)) for shown in printed.values()]
    assert len(printed) >= 3 and len(set(names)) == len(names), printed
