"""The board figure: one hex-outline trace, aircraft where their hexes are, overlays where they belong."""

from __future__ import annotations

import msgspec
import plotly.graph_objects as go
import pytest

from aero_events.analysis.shots import ShotRecord
from aero_events.hexgrid import Arc, Hex, Pose, RangeBand, arcs_containing, pixel_centre, range_between
from aero_events.rulesets.aeronautica.scenarios.format import GroundTarget, TerrainFeature
from aero_events.rulesets.aeronautica.state import AutonomousWeapon
from aero_events.viz import BoardScene, board_figure, dynamic_traces, static_traces
from aero_events.viz.board import ARC_ORDER, BAND_ORDER
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


def test_the_board_is_one_trace_of_every_hex_outline(start):
    figure = board_figure(start, rules())
    board = rules().board(start)
    outlines = [t for t in figure.data if t.name == "Area of Engagement"]
    assert len(outlines) == 1
    outline = outlines[0]
    assert outline.mode == "lines"
    assert _polygons(outline) == len(board.hexes)
    assert len(outline.x) == 8 * len(board.hexes)  # six corners, the first again, then None
    assert not figure.layout.shapes  # no shape per hex


def test_aircraft_markers_sit_on_the_pixel_centres_of_their_hexes(start):
    figure = board_figure(start, rules())
    aircraft = _by_name(figure, "aircraft")
    flying = sorted(start.aircraft.values(), key=lambda a: a.id)
    assert list(aircraft.ids) == [a.id for a in flying]
    for x, y, plane in zip(aircraft.x, aircraft.y, flying, strict=True):
        assert (x, y) == pytest.approx(pixel_centre(plane.hex))
    assert [angle % 360 for angle in aircraft.marker.angle] == [60 * a.facing for a in flying]
    assert list(aircraft.marker.color) == [("#1f77b4" if a.owner == "imperium" else "#d62728") for a in flying]
    assert list(aircraft.text) == [f"A{a.altitude} S{a.speed}" for a in flying]


def test_aircraft_hover_tells_id_profile_speed_altitude_structure_status(start):
    figure = board_figure(start, rules())
    hover = _by_name(figure, "aircraft").hovertext[0]
    plane = min(start.aircraft.values(), key=lambda a: a.id)
    profile_name = rules().catalogue.aircraft[plane.profile].name
    for part in (plane.id, profile_name, f"Speed {plane.speed}", f"Altitude {plane.altitude}",
                 f"Structure {plane.structure}/{plane.starting_structure}", f"status: {plane.status}"):
        assert part in hover


def test_axes_have_equal_scales_and_no_grid(start):
    layout = board_figure(start, rules()).layout
    assert layout.yaxis.scaleanchor == "x" and layout.yaxis.scaleratio == 1
    assert layout.xaxis.showgrid is False and layout.yaxis.showgrid is False
    assert layout.xaxis.zeroline is False and layout.yaxis.zeroline is False


def test_stall_and_spin_tokens_mark_the_aircraft_that_have_them(start):
    first, second, *_ = sorted(start.aircraft)
    state = _with(start, first, stalled=True)
    state = _with(state, second, spinning=True)
    tokens = _by_name(board_figure(state, rules()), "Stall and Spin tokens")
    assert [(x, y) for x, y in zip(tokens.x, tokens.y, strict=True)] == [
        pytest.approx(pixel_centre(state.aircraft[first].hex)), pytest.approx(pixel_centre(state.aircraft[second].hex))]
    assert list(tokens.marker.symbol) == ["circle-open", "star-open"]
    hover = _by_name(board_figure(state, rules()), "aircraft").hovertext
    assert "STALLED" in hover[0] and "SPINNING" in hover[1]


def test_fire_arcs_and_range_bands_shade_the_right_hexes(start):
    plane = min(start.aircraft.values(), key=lambda a: a.id)
    scene = BoardScene.for_state(start, rules())
    traces = dynamic_traces(scene, start, focus=plane.id, arcs=True)[:12]
    pose = Pose(Hex(*plane.hex), plane.facing)
    board = rules().board(start)
    expected_total = sum(1 for hex in board.hexes if hex != plane.hex and range_between(plane.hex, hex) is not None)
    assert sum(_polygons(t) for t in traces) == expected_total
    front_short = traces[ARC_ORDER.index("front") * len(BAND_ORDER) + BAND_ORDER.index("short")]
    centres = _polygon_centres(front_short)
    assert centres, "a plane on its own edge still has hexes ahead of it"
    for hex in board.hexes:
        x, y = pixel_centre(hex)
        drawn = any(abs(x - cx) < 0.01 and abs(y - cy) < 0.01 for cx, cy in centres)
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


def test_shots_are_lines_from_firer_to_target_with_results_in_the_hover(start):
    imperial = start.aircraft["imperium-1"]
    ork = start.aircraft["orks-1"]
    shot = ShotRecord(seq=5, turn=1, phase="firing", kind="firing", firer=imperial.id, firer_owner="imperium",
                      weapon="twin_lascannons", weapon_index=0, target=ork.id, target_owner="orks", attack="air",
                      band="long", dice=2, from_hex=tuple(imperial.hex), to_hex=tuple(ork.hex), hits=1, damaging=1,
                      structure_lost=1)
    miss = ShotRecord(seq=6, turn=1, phase="firing", kind="firing", firer=ork.id, firer_owner="orks",
                      weapon="big_shoota", weapon_index=0, target=imperial.id, target_owner="imperium", attack="air",
                      band="long", dice=1, from_hex=tuple(ork.hex), to_hex=tuple(imperial.hex))
    figure = board_figure(start, rules(), shots=[shot, miss])
    hit_line = _by_name(figure, "shots that hit")
    assert [(hit_line.x[0], hit_line.y[0]), (hit_line.x[1], hit_line.y[1])] == [
        pytest.approx(pixel_centre(imperial.hex)), pytest.approx(pixel_centre(ork.hex))]
    assert _polygons(_by_name(figure, "shots that missed")) == 1
    results = _by_name(figure, "shot results").hovertext
    assert "1 hit(s)" in results[0] and "1 Structure lost" in results[0] and "0 hit(s)" in results[1]


def test_tailing_links_paths_and_wrecks(start):
    state = _with(start, "imperium-1", tailing="orks-2", path=(Hex(4, 13), Hex(4, 12)), moved=True)
    state = _with(state, "orks-3", status="destroyed")
    scene = BoardScene.for_state(state, rules())
    traces = {t["name"]: t for t in dynamic_traces(scene, state, path_starts={"imperium-1": (4, 14)})}
    tailing = traces["Tailing"]
    assert (tailing["x"][0], tailing["y"][0]) == pytest.approx(pixel_centre(state.aircraft["imperium-1"].hex))
    assert (tailing["x"][1], tailing["y"][1]) == pytest.approx(pixel_centre(state.aircraft["orks-2"].hex))
    path = traces["paths flown (imperium)"]
    assert [(x, y) for x, y in zip(path["x"], path["y"], strict=True) if x is not None] == [
        pytest.approx(pixel_centre(Hex(4, 14))), pytest.approx(pixel_centre(Hex(4, 13))),
        pytest.approx(pixel_centre(Hex(4, 12)))]
    assert traces["paths flown (orks)"]["x"] == []
    assert traces["destroyed"]["x"] == [pixel_centre(state.aircraft["orks-3"].hex)[0]]
    assert "orks-3" not in traces["aircraft"]["ids"]


def test_autonomous_weapons_ground_targets_and_terrain_are_drawn_from_the_state(start):
    weapon = AutonomousWeapon(id="aw-1", owner="orks", firer="orks-1", weapon="grot_bomb", weapon_index=2,
                              hex=Hex(5, 5), facing=3, launched_turn=1, moved_turn=1)
    bunker = GroundTarget(id="bunker", name="Bunker", hex=Hex(6, 6), owner="imperium", structure=3,
                          victory_points=10)
    hill = TerrainFeature(name="Hill", level=2, hexes=(Hex(2, 2), Hex(2, 3)))
    state = msgspec.structs.replace(start, autonomous={"aw-1": weapon}, ground_targets=(bunker,), terrain=(hill,))
    figure = board_figure(state, rules())
    autonomous = _by_name(figure, "Autonomous weapons")
    assert (autonomous.x[0], autonomous.y[0]) == pytest.approx(pixel_centre(Hex(5, 5)))
    assert [angle % 360 for angle in autonomous.marker.angle] == [180]
    ground = _by_name(figure, "ground targets")
    assert (ground.x[0], ground.y[0]) == pytest.approx(pixel_centre(Hex(6, 6)))
    assert "Bunker" in ground.hovertext[0]
    terrain = next(t for t in figure.data if t.name.startswith("terrain"))
    assert _polygons(terrain) == 2 and "Hill (Altitude 2)" in terrain.name


def test_static_and_dynamic_traces_keep_their_count_whatever_the_state(start):
    scene = BoardScene.for_state(start, rules())
    empty = msgspec.structs.replace(start, aircraft={})
    assert len(static_traces(scene, start)) == len(static_traces(scene, empty)) == 3
    assert len(dynamic_traces(scene, start)) == len(dynamic_traces(scene, empty))
    assert len(dynamic_traces(scene, start, focus="imperium-1", arcs=True)) == len(dynamic_traces(scene, start)) + 12


def _with(state, aircraft_id: str, **changes):
    plane = msgspec.structs.replace(state.aircraft[aircraft_id], **changes)
    return msgspec.structs.replace(state, aircraft={**state.aircraft, aircraft_id: plane})
