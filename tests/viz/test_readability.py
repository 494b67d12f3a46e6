"""What the screenshot review of the replay found a player would not accept (issue 17 item 4), on scenes of an
open table that any ruleset could draw: labels of pieces out of play printed over others, tag rings that look
alike once a figure has more than five tags, markers whose heading cannot be seen, paths that do not say whose
they are, and "X is LOCK ON" hovers."""

from __future__ import annotations

import plotly.graph_objects as go

from aero_events.core.scene import Marker, PathFlown, Piece, Scene, Table
from aero_events.viz import board_figure, place_labels
from aero_events.viz.style import tag_style

TABLE = Table(width=600.0, height=400.0, name="table")


def _by_name(figure: go.Figure, name: str):
    return next(t for t in figure.data if t.name == name)


def test_no_two_tags_of_a_figure_look_alike_however_many_there_are():
    """Battlefleet Gothic's special orders and critical hits make a figure's tags many (p.14, p.24)."""
    styles = [tag_style(index) for index in range(40)]
    assert len(set(styles)) == 40
    tags = tuple(f"flag {index}" for index in range(7))
    pieces = tuple(Piece(id=f"p{index}", side="a", label=f"P{index}", x=60.0 * index + 40, y=200.0, tags=(tag,))
                   for index, tag in enumerate(tags))
    figure = board_figure(Scene(table=TABLE, pieces=pieces, sides=("a",)))
    drawn = {(_by_name(figure, tag).marker.symbol, _by_name(figure, tag).marker.color) for tag in tags}
    assert len(drawn) == len(tags)


def test_a_pieces_second_tag_rings_it_wider_than_its_first_and_the_hover_names_both():
    ship = Piece(id="s", side="a", label="Iron Duke", x=300.0, y=200.0, tags=("LOCK ON", "Shields Collapsed"))
    figure = board_figure(Scene(table=TABLE, pieces=(ship,), sides=("a",)))
    first, second = _by_name(figure, "LOCK ON"), _by_name(figure, "Shields Collapsed")
    assert second.marker.size[0] > first.marker.size[0]
    assert first.hovertext[0] == "Iron Duke: LOCK ON" and second.hovertext[0] == "Iron Duke: Shields Collapsed"


def test_a_marker_with_a_heading_has_a_pointer_ahead_of_it():
    east = Marker(kind="torpedoes", x=100.0, y=100.0, heading=90.0, side="a")
    still = Marker(kind="blast marker", x=300.0, y=300.0)
    figure = board_figure(Scene(table=TABLE, markers=(east, still), sides=("a",)))
    torpedoes, blast = _by_name(figure, "torpedoes"), _by_name(figure, "blast marker")
    assert len(torpedoes.x) == 2 and torpedoes.x[1] > torpedoes.x[0] and abs(torpedoes.y[1] - 100.0) < 1e-9
    assert torpedoes.marker.symbol[1] == "triangle-up" and torpedoes.marker.angle[1] == 90.0
    assert len(blast.x) == 1  # a marker without a heading gets no pointer


def test_a_path_flown_says_whose_it_is():
    camel = Piece(id="camel-1", side="allies", label="Camel 1", x=200.0, y=100.0, model="Sopwith Camel")
    path = PathFlown(piece="camel-1", points=((100.0, 100.0), (150.0, 100.0), (200.0, 100.0)))
    figure = board_figure(Scene(table=TABLE, pieces=(camel,), paths=(path,), sides=("allies",)))
    trace = _by_name(figure, "paths flown (allies)")
    assert trace.hoverinfo == "text"
    assert {text for x, text in zip(trace.x, trace.hovertext, strict=True) if x is not None} == {
        "Camel 1 (Sopwith Camel): path flown"}


def test_a_label_of_a_piece_out_of_play_is_left_off_rather_than_printed_over_another():
    points = [(100.0, 100.0), (100.0, 100.0)]
    texts = ["<b>alpha</b> Camel<br>Alt 3", "bravo (destroyed)"]
    # With every place around the point taken, the optional label is dropped, the other one kept.
    crowded = [(100.0 + dx, 100.0 + dy) for dx in (-12, 0, 12) for dy in (-12, 0, 12)]
    positions = place_labels(points + crowded, texts + [""] * len(crowded), 2.0,
                             optional=[False, True] + [False] * len(crowded))
    assert positions[0] is not None and positions[1] is None
    assert place_labels(points, texts, 2.0, optional=[False, False])[1] is not None


def test_pieces_in_play_are_labelled_before_pieces_out_of_play():
    """A wreck listed first no longer takes the place beside it that the piece still flying needs."""
    wreck = Piece(id="w", side="b", label="Wreck", x=300.0, y=192.0, status="destroyed")
    flying = Piece(id="f", side="a", label="Flyer", x=300.0, y=200.0, model="Camel", detail="Alt 3")
    figure = board_figure(Scene(table=TABLE, pieces=(wreck, flying), sides=("a", "b")))
    labels = _by_name(figure, "labels")
    assert labels.text[1].startswith("<b>Flyer</b>") and labels.textposition[1] == "middle right"
    assert labels.textposition[0] != "middle right" or labels.text[0] == ""


def test_pieces_that_left_by_the_same_edge_are_drawn_apart():
    gone = tuple(Piece(id=f"g{index}", side="a", label=f"G{index}", x=300.0, y=450.0 + 30 * index,
                       status="disengaged") for index in range(3))
    figure = board_figure(Scene(table=TABLE, pieces=gone, sides=("a",)))
    trace = next(t for t in figure.data if t.name.startswith("disengaged"))
    places = {(round(x, 3), round(y, 3)) for x, y in zip(trace.x, trace.y, strict=True)}
    assert len(places) == 3 and all(y <= TABLE.height + 10 for _, y in places)
