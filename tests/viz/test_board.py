"""The board figure of a scene: one hex-outline trace, labelled hexes, pieces where their hexes are, every
symbol in the legend, labels that overlap nothing, pieces out of play drawn apart."""

from __future__ import annotations

import math

import msgspec
import plotly.graph_objects as go
import pytest

from aero_events.core.scene import Circle, LineOfFire, Piece, Rect, Scene, Table
from aero_events.hexgrid import Arc, Hex, Pose, RangeBand, arcs_containing, pixel_centre, range_between
from aero_events.rulesets.aeronautica.scenarios.format import GroundTarget, TerrainFeature
from aero_events.rulesets.aeronautica.scene import ARC_ORDER, BAND_ORDER, MM_PER_INCH, to_mm
from aero_events.rulesets.aeronautica.state import AutonomousWeapon
from aero_events.viz import BoardView, board_figure, dynamic_traces, place_labels, static_traces
from aero_events.viz.board import piece_label, spread
from tests.viz.games import bot_session, rules


@pytest.fixture(scope="module")
def start():
    """The initial state of a 4-against-4 game on a 3'x3' board."""
    return bot_session(3, play_out=False).state


def _polygons(trace) -> int:
    """How many None-separated pieces a trace holds."""
    return sum(1 for x in trace["x"] if x is None)


def _by_name(figure: go.Figure, name: str):
    return next(t for t in figure.data if t.name == name)


def _mm(hex) -> tuple[float, float]:
    return to_mm(hex, rules().board(bot_session(3, play_out=False).state).height_inches)


def test_the_hexes_are_one_trace_of_every_hex_outline(start):
    figure = board_figure(start, rules())
    board = rules().board(start)
    outlines = [t for t in figure.data if t.name == "hexes"]
    assert len(outlines) == 1
    assert outlines[0].mode == "lines"
    assert _polygons(outlines[0]) == len(board.hexes)
    assert len(outlines[0].x) == 8 * len(board.hexes)  # six corners, the first again, then None
    assert not figure.layout.shapes  # no shape per hex


def test_every_hex_is_labelled_with_the_coordinates_the_log_names_it_by(start):
    """Issue 17: "no hex coordinates although the log names hexes" (the narration writes (q,r))."""
    board = rules().board(start)
    labels = _by_name(board_figure(start, rules()), "hex coordinates")
    assert sorted(labels.text) == sorted(f"{q},{r}" for q, r in board.hexes)
    column, row = board.to_offset(Hex(3, -1))
    assert f"hex 3,-1 · column {column}, row {row}" in labels.hovertext


def test_hex_centres_are_two_inches_apart_on_the_table(start):
    """A hex is 2 inches across the flats (p.9): neighbouring centres are 50.8 mm apart, on the table."""
    table = rules().scene(start).table
    for hex in (Hex(0, 0), Hex(5, 3), Hex(10, -2)):
        x, y = _mm(hex)
        for neighbour in hex.neighbours():
            nx, ny = _mm(neighbour)
            assert math.hypot(nx - x, ny - y) == pytest.approx(2 * MM_PER_INCH)
    for cell in table.cells:
        assert 0 < cell.x < table.width and 0 < cell.y < table.height
    assert (table.width, table.height) == pytest.approx((36 * MM_PER_INCH, 36 * MM_PER_INCH))


def test_aircraft_sit_on_their_hexes_pointing_along_their_facing(start):
    figure = board_figure(start, rules())
    for side, colour in (("imperium", "#1f77b4"), ("orks", "#d62728")):
        pieces = _by_name(figure, side)
        planes = sorted((a for a in start.aircraft.values() if a.owner == side), key=lambda a: a.id)
        assert list(pieces.ids) == [a.id for a in planes]
        for x, y, plane in zip(pieces.x, pieces.y, planes, strict=True):
            assert (x, y) == pytest.approx(_mm(plane.hex))
        assert [angle % 360 for angle in pieces.marker.angle] == [60 * a.facing for a in planes]
        assert pieces.marker.color == colour


def test_aircraft_labels_give_name_type_altitude_and_speed(start):
    """Issue 17: "no aircraft names or types on the board"."""
    labels = _by_name(board_figure(start, rules()), "labels")
    planes = sorted(start.aircraft.values(), key=lambda a: a.id)
    names = {pid: p.name for pid, p in rules().catalogue.aircraft.items()}
    for text, plane in zip(labels.text, planes, strict=True):
        assert f"<b>{plane.id}</b>" in text and names[plane.profile].split()[0] in text
        assert f"Alt {plane.altitude} · Spd {plane.speed}" in text


def test_aircraft_hover_tells_id_profile_speed_altitude_structure_status(start):
    pieces = _by_name(board_figure(start, rules()), "imperium")
    plane = min((a for a in start.aircraft.values() if a.owner == "imperium"), key=lambda a: a.id)
    profile_name = rules().catalogue.aircraft[plane.profile].name
    for part in (plane.id, profile_name, f"Speed {plane.speed}", f"Altitude {plane.altitude}",
                 f"Structure {plane.structure}/{plane.starting_structure}", f"status: {plane.status}"):
        assert part in pieces.hovertext[0]


def test_axes_have_equal_scales_and_no_grid(start):
    layout = board_figure(start, rules()).layout
    assert layout.yaxis.scaleanchor == "x" and layout.yaxis.scaleratio == 1
    assert layout.xaxis.showgrid is False and layout.yaxis.showgrid is False
    assert layout.xaxis.zeroline is False and layout.yaxis.zeroline is False


def test_stall_and_spin_tokens_ring_the_aircraft_that_have_them(start):
    first, second, *_ = sorted(start.aircraft)
    state = _with(start, first, stalled=True)
    state = _with(state, second, spinning=True)
    figure = board_figure(state, rules())
    stalled, spinning = _by_name(figure, "STALLED"), _by_name(figure, "SPINNING")
    assert (stalled.x[0], stalled.y[0]) == pytest.approx(_mm(state.aircraft[first].hex))
    assert (spinning.x[0], spinning.y[0]) == pytest.approx(_mm(state.aircraft[second].hex))
    assert stalled.marker.symbol != spinning.marker.symbol
    assert stalled.showlegend and spinning.showlegend
    labels = _by_name(figure, "labels").text
    assert "STALLED" in labels[0] and "SPINNING" in labels[1]


def test_fire_arcs_and_range_bands_shade_the_right_hexes(start):
    """p.21-22: the hexes within Long range, by arc (a hex on a boundary takes the first of Front, Left,
    Right, Rear) and band."""
    plane = min(start.aircraft.values(), key=lambda a: a.id)
    scene = rules().scene(start, focus=plane.id)
    pose = Pose(Hex(*plane.hex), plane.facing)
    board = rules().board(start)
    expected_total = sum(1 for hex in board.hexes if hex != plane.hex and range_between(plane.hex, hex) is not None)
    assert len(scene.templates) == expected_total
    assert {t.kind for t in scene.templates} <= {f"{a} arc, {b} range" for a in ARC_ORDER for b in BAND_ORDER}
    figure = board_figure(scene)
    front_short = _by_name(figure, "front arc, short range")
    centres = _polygon_centres(front_short)
    assert centres, "a plane on its own edge still has hexes ahead of it"
    for hex in board.hexes:
        x, y = _mm(hex)
        drawn = any(abs(x - cx) < 0.05 and abs(y - cy) < 0.05 for cx, cy in centres)
        wanted = Arc.FRONT in arcs_containing(pose, hex) and range_between(plane.hex, hex) is RangeBand.SHORT
        assert drawn == wanted, hex


def _polygon_centres(trace) -> list[tuple[float, float]]:
    centres, xs, ys = [], [], []
    for x, y in zip(trace["x"], trace["y"], strict=True):
        if x is None:
            centres.append((sum(xs[:6]) / 6, sum(ys[:6]) / 6))
            xs, ys = [], []
        else:
            xs.append(x)
            ys.append(y)
    return centres


def test_lines_of_fire_are_drawn_by_outcome_with_results_in_the_hover():
    table = Table(width=600.0, height=400.0)
    pieces = (Piece(id="a", side="red", label="a", x=100.0, y=100.0), Piece(id="b", side="blue", label="b", x=400.0,
                                                                            y=300.0))
    hit = LineOfFire(shooter="a", target="b", start=(100.0, 100.0), end=(400.0, 300.0), outcome="hit",
                     hover="a → b: 1 hit(s), 1 Structure lost")
    miss = LineOfFire(shooter="b", target="a", start=(400.0, 300.0), end=(100.0, 100.0), outcome="miss",
                      hover="b → a: 0 hit(s)")
    figure = board_figure(Scene(table=table, pieces=pieces, lines_of_fire=(hit, miss), sides=("red", "blue")))
    hit_line = _by_name(figure, "shots that hit")
    assert list(hit_line.x) == [100.0, 400.0, None] and list(hit_line.y) == [100.0, 300.0, None]
    assert _polygons(_by_name(figure, "shots that missed")) == 1
    assert _by_name(figure, "shots that missed").line.dash == "dot"
    results = _by_name(figure, "shot results")
    assert list(results.hovertext) == [hit.hover, miss.hover]
    assert (results.x[0], results.y[0]) == pytest.approx((340.0, 260.0))  # 80% of the way to the target


def test_tailing_links_paths_and_pieces_out_of_play(start):
    """Destroyed and disengaged aircraft are drawn apart from those in play, and differently (issue 17)."""
    state = _with(start, "imperium-1", tailing="orks-2", path=(Hex(4, 13), Hex(4, 12)), moved=True)
    state = _with(state, "orks-3", status="destroyed")
    state = _with(state, "orks-4", status="disengaged")
    figure = board_figure(state, rules())
    tailing = _by_name(figure, "Tailing")
    assert (tailing.x[0], tailing.y[0]) == pytest.approx(_mm(state.aircraft["imperium-1"].hex))
    assert (tailing.x[1], tailing.y[1]) == pytest.approx(_mm(state.aircraft["orks-2"].hex))
    path = _by_name(figure, "paths flown (imperium)")
    assert [(x, y) for x, y in zip(path.x, path.y, strict=True) if x is not None] == [
        pytest.approx(_mm(Hex(4, 13))), pytest.approx(_mm(Hex(4, 12)))]
    assert list(_by_name(figure, "paths flown (orks)").x) == []
    destroyed = next(t for t in figure.data if t.name.startswith("destroyed"))
    disengaged = next(t for t in figure.data if t.name.startswith("disengaged"))
    assert list(destroyed.ids) == ["orks-3"] and list(disengaged.ids) == ["orks-4"]
    assert destroyed.marker.symbol != disengaged.marker.symbol
    assert destroyed.showlegend and disengaged.showlegend
    assert "orks-3" not in _by_name(figure, "orks").ids and "orks-4" not in _by_name(figure, "orks").ids


def test_a_destroyed_aircraft_has_no_level():
    """A crash is a status, never Altitude -1 (issue 17)."""
    state = bot_session(3, play_out=False).state
    state = _with(state, "orks-3", status="destroyed", altitude=-1)
    piece = next(p for p in rules().scene(state).pieces if p.id == "orks-3")
    assert piece.status == "destroyed" and piece.level is None


def test_the_paths_start_where_the_aircraft_began_its_move_when_the_events_show_it():
    from aero_events.analysis.timeline import timeline_from_session
    from tests.viz.games import eventful_session

    timeline = timeline_from_session(eventful_session())
    index = next(i for i, env in enumerate(timeline.envelopes) if env.event.type_name() == "ai.AircraftActivated")
    ended = next(i for i in range(index, len(timeline.envelopes))
                 if timeline.envelopes[i].event.type_name() == "ai.MovementEnded")
    mover = timeline.envelopes[index].event.aircraft
    before = timeline.state_before(index)
    scene = rules().scene(timeline.states[ended], events=list(timeline.pairs(index, ended + 1)))
    path = next(p for p in scene.paths if p.piece == mover)
    height = rules().board(before).height_inches
    assert path.points[0] == pytest.approx(to_mm(before.aircraft[mover].hex, height))
    assert path.points[-1] == pytest.approx(to_mm(timeline.states[ended].aircraft[mover].hex, height))


def test_autonomous_weapons_ground_targets_and_terrain_are_drawn_from_the_state(start):
    weapon = AutonomousWeapon(id="aw-1", owner="orks", firer="orks-1", weapon="grot_bomb", weapon_index=2,
                              hex=Hex(5, 5), facing=3, launched_turn=1, moved_turn=1)
    bunker = GroundTarget(id="bunker", name="Bunker", hex=Hex(6, 6), owner="imperium", structure=3,
                          victory_points=10)
    hill = TerrainFeature(name="Hill", level=2, hexes=(Hex(2, 2), Hex(2, 3)))
    state = msgspec.structs.replace(start, autonomous={"aw-1": weapon}, ground_targets=(bunker,), terrain=(hill,))
    figure = board_figure(state, rules())
    autonomous = _by_name(figure, "Autonomous weapon")
    assert (autonomous.x[0], autonomous.y[0]) == pytest.approx(_mm(Hex(5, 5)))
    assert [angle % 360 for angle in autonomous.marker.angle] == [180, 180]
    # Its heading shows: a pointer ahead of it along facing 3 (south).
    assert autonomous.marker.symbol[1] == "triangle-up"
    assert autonomous.x[1] == pytest.approx(autonomous.x[0]) and autonomous.y[1] < autonomous.y[0]
    ground = _by_name(figure, "ground target")
    assert (ground.x[0], ground.y[0]) == pytest.approx(_mm(Hex(6, 6)))
    assert "Bunker" in ground.hovertext[0]
    terrain = _by_name(figure, "terrain")
    assert _polygons(terrain) == 2 and terrain.showlegend


def test_the_dynamic_traces_keep_their_slots_whatever_the_scene(start):
    full, empty = rules().scene(start), rules().scene(msgspec.structs.replace(start, aircraft={}))
    view = BoardView.of([full, empty])
    assert len(static_traces(view, full)) == len(static_traces(view, empty)) == 3
    assert [t["name"] for t in dynamic_traces(view, full)] == [t["name"] for t in dynamic_traces(view, empty)]


def test_every_symbol_drawn_has_a_legend_entry(start):
    state = _with(start, "orks-3", status="destroyed")
    state = _with(state, "imperium-1", stalled=True, tailing="orks-2")
    figure = board_figure(state, rules())
    named = {t.name for t in figure.data if t.showlegend}
    drawn = {t.name for t in figure.data if t.x is not None and len([x for x in t.x if x is not None])
             and t.name not in ("labels", "hexes", "hex coordinates", "shot results", "3x3")}
    assert drawn <= named, drawn - named
    assert figure.layout.showlegend


def test_labels_overlap_neither_each_other_nor_the_pieces():
    """Issue 17: "labels that overlap". Four pieces in a row, close together: every label finds room."""
    points = [(100.0, 100.0), (125.0, 100.0), (150.0, 100.0), (100.0, 125.0)]
    texts = ["<b>alpha</b> Camel<br>Alt 3", "<b>bravo</b> Camel<br>Alt 2", "<b>charlie</b> Fokker<br>Alt 1",
             "<b>delta</b> Fokker<br>Alt 4"]
    from aero_events.viz.board import LABEL_OFFSET_PX, _box, _overlap

    px_per_mm = 2.0
    positions = place_labels(points, texts, px_per_mm)
    boxes = []
    for (x, y), text, position in zip(points, texts, positions, strict=True):
        lines = text.split("<br>")
        width = max(len(line.replace("<b>", "").replace("</b>", "")) for line in lines) * 6.0
        x0, y0, x1, y1 = _box(position, width, 13.0 * len(lines), LABEL_OFFSET_PX / 2)
        boxes.append((x * px_per_mm + x0, y * px_per_mm + y0, x * px_per_mm + x1, y * px_per_mm + y1))
    for i, box in enumerate(boxes):
        for j, other in enumerate(boxes):
            assert i == j or _overlap(box, other) == 0, (texts[i], texts[j])
        for x, y in points:
            assert _overlap(box, (x * px_per_mm - 9, y * px_per_mm - 9, x * px_per_mm + 9, y * px_per_mm + 9)) == 0


def test_pieces_sharing_a_hex_are_spread_so_each_can_be_seen():
    pieces = [Piece(id=name, side="s", label=name, x=50.0, y=50.0) for name in ("a", "b", "c")]
    drawn = spread(pieces, 10.0)
    assert len({(round(x, 3), round(y, 3)) for x, y in drawn.values()}) == 3
    assert all(math.hypot(x - 50, y - 50) == pytest.approx(10.0) for x, y in drawn.values())
    alone = Piece(id="d", side="s", label="d", x=80.0, y=50.0)
    assert spread([alone], 10.0) == {"d": (80.0, 50.0)}


def test_an_open_table_draws_its_edge_and_each_piece_base_turned_to_its_heading():
    table = Table(width=900.0, height=600.0, name="open table")
    camel = Piece(id="camel", side="allies", label="Camel", x=300.0, y=200.0, heading=90.0,
                  footprint=Rect(width=40.0, length=60.0), model="Sopwith Camel", detail="peg 2")
    balloon = Piece(id="balloon", side="central", label="Balloon", x=600.0, y=400.0, footprint=Circle(radius=20.0))
    figure = board_figure(Scene(table=table, pieces=(camel, balloon), sides=("allies", "central")))
    assert list(_by_name(figure, "hexes").x) == []
    edge = _by_name(figure, "open table")
    assert max(x for x in edge.x if x is not None) == 900.0 and max(y for y in edge.y if y is not None) == 600.0
    base = _by_name(figure, "bases (allies)")
    corners = [(x, y) for x, y in zip(base.x, base.y, strict=True) if x is not None][:4]
    xs, ys = [x for x, _ in corners], [y for _, y in corners]
    assert max(xs) - min(xs) == pytest.approx(60.0) and max(ys) - min(ys) == pytest.approx(40.0)  # turned east
    assert piece_label(camel) == "<b>Camel</b> Sopwith Camel<br>peg 2"


def _with(state, aircraft_id: str, **changes):
    plane = msgspec.structs.replace(state.aircraft[aircraft_id], **changes)
    return msgspec.structs.replace(state, aircraft={**state.aircraft, aircraft_id: plane})


def test_pixel_centres_and_table_millimetres_agree(start):
    """The scene's hex centres are hexgrid's pixel centres, shifted and scaled to millimetres."""
    x0, y0 = pixel_centre(Hex(0, 0))
    for hex in (Hex(3, 2), Hex(7, -3)):
        x, y = pixel_centre(hex)
        mx, my = _mm(hex)
        ox, oy = _mm(Hex(0, 0))
        assert (mx - ox, my - oy) == pytest.approx(((x - x0) * MM_PER_INCH, (y - y0) * MM_PER_INCH))
