"""Boards: the complete hexes of the Area of Engagement (p.9, p.17), its edges (p.34) and graphs."""

from fractions import Fraction

import msgspec
import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aero_events.hexgrid import HEX_SIZE_INCHES, Board, Edge, Facing, Hex, Pose, pixel_corners
from tests.hexgrid.strategies import hexes

EPSILON = 1e-9


def is_complete_by_geometry(board: Board, h: Hex) -> bool:
    """Float cross-check: do all six corners of ``h`` lie on the mat?

    Table inches run east from the west edge and south from the north edge;
    the grid puts column 0's west corner on the west edge and the flat top of
    even-column row 0 on the north edge, so table x = pixel x + size and table
    y = 1 - pixel y.
    """
    return all(
        -EPSILON <= x + HEX_SIZE_INCHES <= board.width_inches + EPSILON
        and -EPSILON <= 1 - y <= board.height_inches + EPSILON
        for x, y in pixel_corners(h)
    )


def hexes_around(board: Board, margin: int = 3) -> list[Hex]:
    """Every hex of the offset grid over the mat plus a margin of partial and outside hexes."""
    return [
        board.from_offset(column, row)
        for column in range(-margin, board.columns + margin)
        for row in range(-margin, board.rows + margin)
    ]


@pytest.mark.parametrize(
    ("name", "columns", "rows", "odd_column_rows", "count"),
    [("3x3", 20, 18, 17, 350), ("4x4", 27, 24, 23, 635), ("8x4", 55, 24, 23, 1293)],
)
def test_preset_boards_count_only_complete_hexes(name, columns, rows, odd_column_rows, count):
    """Rulebook mats (p.9) hold these many complete 2-inch hexes.

    Column c's east corner is (4 + 3c)/sqrt(3) inches from the west edge.
    36 in: 4 + 3c <= 36*sqrt(3) = 62.35 gives c <= 19, so 20 columns (column 19
    reaches 35.22 in, column 20 would reach 36.95 in). 48 in: 4 + 3c <= 83.14,
    27 columns. 96 in: 4 + 3c <= 166.28, 55 columns.
    Even columns have centres at 1, 3, ..., H-1 inches: H/2 rows (18 or 24).
    Odd columns sit 1 inch lower, centres 2, 4, ..., H-2: one row fewer (17, 23),
    because the next one would overhang the south edge.
    3x3: 10 even x 18 + 10 odd x 17 = 350. 4x4: 14 x 24 + 13 x 23 = 635.
    8x4: 28 x 24 + 27 x 23 = 1293.
    """
    board = Board.preset(name)
    assert (board.columns, board.rows, board.odd_column_rows) == (columns, rows, odd_column_rows)
    assert len(board.hexes) == count
    assert board.name == name


def test_preset_sizes_are_the_rulebook_mats():
    """3'x3', 4'x4' and 8'x4' (p.9), width first, in inches."""
    assert (Board.preset("3x3").width_inches, Board.preset("3x3").height_inches) == (36, 36)
    assert (Board.preset("4x4").width_inches, Board.preset("4x4").height_inches) == (48, 48)
    assert (Board.preset("8x4").width_inches, Board.preset("8x4").height_inches) == (96, 48)
    with pytest.raises(ValueError, match="unknown board preset"):
        Board.preset("6x4")


def test_partial_edge_hexes_are_not_on_the_board():
    """Entering an incomplete hex at the edge is leaving the Area of Engagement (p.17)."""
    board = Board.preset("3x3")
    assert board.contains(board.from_offset(19, 0))  # east corner at 35.22 in
    assert not board.contains(board.from_offset(20, 0))  # east corner at 36.95 in
    assert board.contains(board.from_offset(0, 17))  # spans 34-36 in: touches the south edge
    assert not board.contains(board.from_offset(1, 17))  # odd column: spans 35-37 in
    assert not board.contains(board.from_offset(1, -1))  # odd column: spans -1 to 1 in
    assert not board.contains(board.from_offset(-1, 0))
    for h in hexes_around(board):
        assert board.contains(h) == is_complete_by_geometry(board, h)


@settings(max_examples=40, deadline=None)
@given(st.integers(5, 80).map(lambda half_inches: Fraction(half_inches, 2)),
       st.integers(5, 80).map(lambda half_inches: Fraction(half_inches, 2)))
def test_exact_completeness_agrees_with_corner_geometry(width, height):
    """The integer completeness rule matches a float check of every hex's corners on any mat."""
    board = Board.from_inches(width, height)
    inside = [h for h in hexes_around(board) if is_complete_by_geometry(board, h)]
    assert frozenset(inside) == board.hexes
    assert all(board.contains(h) == (h in board.hexes) for h in hexes_around(board))


@given(hexes)
def test_contains_is_membership_of_hexes(h):
    """``contains`` (and ``in``) agree with the set of complete hexes."""
    board = Board.preset("4x4")
    assert board.contains(h) == (h in board.hexes) == (h in board)


@given(hexes)
def test_offset_coordinates_round_trip(h):
    """Axial and odd-q offset coordinates convert both ways without loss."""
    board = Board.preset("3x3")
    column, row = board.to_offset(h)
    assert column == h.q
    assert board.from_offset(column, row) == h


def test_odd_columns_sit_half_a_hex_lower():
    """Odd-q layout: south-east of an even-column hex is the same offset row."""
    board = Board.rectangle(4, 4)
    assert board.to_offset(board.from_offset(0, 1).neighbour(Facing.SE)) == (1, 1)
    assert board.to_offset(board.from_offset(0, 1).neighbour(Facing.NE)) == (1, 0)
    assert board.to_offset(board.from_offset(1, 1).neighbour(Facing.NE)) == (2, 1)


@pytest.mark.parametrize(("columns", "rows"), [(1, 1), (2, 1), (5, 4), (12, 9)])
def test_rectangle_boards_have_every_hex_complete(columns, rows):
    """``rectangle`` sizes the mat to hold exactly columns x rows complete hexes."""
    board = Board.rectangle(columns, rows)
    assert len(board.hexes) == columns * rows
    assert board.name == f"{columns}x{rows} hexes"
    assert all(is_complete_by_geometry(board, h) for h in board.hexes)
    assert {h for h in hexes_around(board) if is_complete_by_geometry(board, h)} == board.hexes


def test_boards_without_complete_hexes_are_refused():
    """A mat smaller than one hex has no Area of Engagement."""
    with pytest.raises(ValueError):
        Board.from_inches(2, 1)
    with pytest.raises(ValueError):
        Board.rectangle(0, 3)
    with pytest.raises(ValueError):
        Board.from_inches(-36, 36)


def test_edge_distance_counts_complete_hexes_to_each_edge():
    """Rows to north/south and columns to east/west, 0 for a hex on the edge."""
    board = Board.rectangle(5, 4)
    h = board.from_offset(2, 1)
    assert [board.edge_distance(h, e) for e in ("north", "south", "west", "east")] == [1, 2, 2, 2]
    assert board.edge_distance(h, Edge.NORTH) == 1
    preset = Board.preset("3x3")
    assert preset.edge_distance(preset.from_offset(1, 16), "south") == 0  # odd columns are shorter
    assert preset.edge_distance(preset.from_offset(0, 16), "south") == 1
    with pytest.raises(ValueError):
        board.edge_distance(board.from_offset(9, 9), "north")
    with pytest.raises(ValueError):
        board.edge_distance(h, "up")


def test_within_three_hexes_of_an_edge_means_the_three_nearest_rows():
    """Deployment "within three hexes of the edge" (p.34): rows or columns 0, 1 and 2 from it."""
    board = Board.preset("3x3")
    assert board.is_within(board.from_offset(4, 2), "north", 3)
    assert not board.is_within(board.from_offset(4, 3), "north", 3)
    assert board.is_within(board.from_offset(17, 9), "east", 3)
    assert not board.is_within(board.from_offset(16, 9), "east", 3)
    assert not board.is_within(board.from_offset(4, -1), "north", 3)  # off the board
    assert len(board.hexes_within("north", 3)) == 20 * 3
    assert len(board.hexes_within(Edge.WEST, 3)) == 18 + 17 + 18
    assert board.hexes_within("south", 0) == frozenset()


def test_boards_compare_and_hash_by_value():
    """Equal boards are interchangeable, so their cached graphs can be shared."""
    assert Board.preset("3x3") == Board.preset("3x3")
    assert hash(Board.preset("3x3")) == hash(Board.from_inches(36, 36, name="3x3"))
    assert Board.preset("3x3") != Board.from_inches(36, 36)  # the name differs
    assert Board.rectangle(5, 4) != Board.rectangle(4, 5)


def test_boards_encode_as_their_dimensions():
    """A board travels in a game's setup event as its name and sizes; cached hexes are not sent."""
    board = Board.preset("3x3")
    assert len(board.hexes) == 350
    encoded = msgspec.json.encode(board)
    assert b"hexes" not in encoded
    assert msgspec.json.decode(encoded, type=Board) == board


def test_graph_is_built_once_per_board():
    """``graph()`` returns the same cached, read-only object every time."""
    board = Board.preset("3x3")
    graph = board.graph()
    assert board.graph() is graph
    assert Board.preset("3x3").graph() is graph
    assert set(graph.nodes) == board.hexes
    assert all(a.distance(b) == 1 for a, b in graph.edges)
    with pytest.raises(nx.NetworkXError):
        graph.add_node(Hex(99, 99))


def test_graph_joins_every_on_board_neighbour():
    """Interior hexes have six neighbours; the board is connected."""
    board = Board.rectangle(6, 5)
    graph = board.graph()
    for h in board.hexes:
        assert set(graph.neighbors(h)) == {n for n in h.neighbours() if board.contains(n)}
    assert nx.is_connected(graph)


def test_pose_graph_has_six_facings_per_hex_and_labelled_moves():
    """Every (hex, facing) is a state; moves go one hex forward or one hexside round (p.16)."""
    board = Board.preset("3x3")
    poses = board.pose_graph()
    assert board.pose_graph() is poses
    assert poses.number_of_nodes() == 6 * len(board.hexes)
    moves = [move for _, _, move in poses.edges(data="move")]
    assert moves.count("turn_left") == moves.count("turn_right") == 6 * len(board.hexes)
    assert moves.count("forward") == 2 * board.graph().number_of_edges()
    assert set(moves) == {"forward", "turn_left", "turn_right"}
    for start, end, move in poses.edges(data="move"):
        if move == "forward":
            assert end == start.forward()
        else:
            assert end == start.turned(1 if move == "turn_right" else -1)


def test_pose_graph_answers_reachability():
    """An aircraft in a corner facing off the board must turn before it can fly on."""
    board = Board.rectangle(4, 4)
    corner = Pose(board.from_offset(0, 0), Facing.N)
    poses = board.pose_graph()
    assert not any(move == "forward" for _, _, move in poses.out_edges(corner, data="move"))
    far = Pose(board.from_offset(3, 3), Facing.S)
    assert nx.has_path(poses, corner, far)
