"""The board figure: the Area of Engagement, its aircraft, and what happened on it.

A figure is made of *static* traces, drawn once (the hex grid as ONE scatter of every
hex outline separated by None, then terrain and landing zones), and *dynamic* traces
(aircraft, Stall and Spin tokens, paths flown, Tailing links, shots, Autonomous
weapons, ground targets, and optionally one aircraft's Fire Arcs and range bands).
:func:`dynamic_traces` always returns the same traces in the same order, empty where
there is nothing to draw, so that a replay's frames can carry only those and Plotly
updates them by index (see :mod:`.replay`).

Conventions: flat-top hexes, y up, north at the top (see :mod:`aero_events.hexgrid`);
an aircraft is an arrow pointing along its facing (``marker.angle`` = 60 x facing,
clockwise from north), in its side's colour, with "A<Altitude> S<Speed>" beside it.
State fields the schema is still growing (Autonomous weapons, ground targets, terrain,
landing zones, Tailing) are read with ``getattr`` and defaults.

Traces are plain dicts (Plotly validates them once, when the figure is built).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import plotly.graph_objects as go

from aero_events.analysis.shots import ShotRecord
from aero_events.hexgrid import MAX_RANGE, Board, Hex, Pose, arcs_containing, range_between

from . import style
from .geometry import along, board_extent, board_hexes, centre, hex_polygons, polyline, segments

FACING_NAMES = ("N", "NE", "SE", "S", "SW", "NW")

#: Fire Arcs drawn for a focused aircraft, in the order a hex on a boundary is coloured.
ARC_ORDER = ("front", "left", "right", "rear")
BAND_ORDER = ("short", "medium", "long")


@dataclass(frozen=True)
class BoardScene:
    """What every frame of one board shares: the board, the players and their colours, the axes.

    ``profile_names`` maps profile ids to display names (e.g. ``thunderbolt`` ->
    ``Thunderbolt Heavy Fighter``); ``xaxis``/``yaxis`` name the axes the traces go on
    (``x2``/``y2`` for the second board of a comparison).
    """

    board: Board
    players: tuple[str, ...]
    colours: Mapping[str, str]
    profile_names: Mapping[str, str] = field(default_factory=dict)
    xaxis: str = "x"
    yaxis: str = "y"

    @classmethod
    def for_state(cls, state: Any, ruleset: Any = None, board: Board | None = None, **axes: str) -> BoardScene:
        """The scene of a game state; ``ruleset`` (optional) gives the board and aircraft names."""
        if board is None:
            if ruleset is not None and hasattr(ruleset, "board"):
                board = ruleset.board(state)
            else:
                from aero_events.rulesets.aeronautica.setup import board_for

                board = board_for(state.board)
        players = tuple(state.players)
        names: dict[str, str] = {}
        catalogue = getattr(ruleset, "catalogue", None)
        if catalogue is not None:
            names = {pid: getattr(profile, "name", pid) for pid, profile in catalogue.aircraft.items()}
        return cls(board=board, players=players, colours=style.side_colours(players), profile_names=names, **axes)

    def colour(self, player: str | None) -> str:
        return self.colours.get(player, style.NEUTRAL) if player is not None else style.NEUTRAL

    def trace(self, **spec: Any) -> dict[str, Any]:
        """A scatter trace dict on this scene's axes, without a legend entry or hover by default."""
        base = {"type": "scatter", "xaxis": self.xaxis, "yaxis": self.yaxis, "showlegend": False,
                "hoverinfo": "skip"}
        base.update(spec)
        return base


# ---------------------------------------------------------------- static traces


def board_trace(scene: BoardScene) -> dict[str, Any]:
    """Every hex of the Area of Engagement as one trace of outlines."""
    xs, ys = _board_outline(scene.board)
    return scene.trace(name="Area of Engagement", x=xs, y=ys, mode="lines",
                       line={"color": style.BOARD_LINE, "width": 1})


@functools.lru_cache(maxsize=16)
def _board_outline(board: Board) -> tuple[list, list]:
    return hex_polygons(board_hexes(board))


def terrain_trace(scene: BoardScene, state: Any) -> dict[str, Any]:
    """Terrain with a height (p.33), shaded; one filled trace for every feature."""
    features = tuple(getattr(state, "terrain", ()) or ())
    hexes = [hex for feature in features for hex in feature.hexes]
    xs, ys = hex_polygons(hexes)
    names = ", ".join(f"{f.name} (Altitude {f.level})" for f in features)
    return scene.trace(name=f"terrain: {names}" if names else "terrain", x=xs, y=ys, mode="lines",
                       fill="toself", fillcolor=style.TERRAIN_FILL, line={"color": "rgba(110, 90, 60, 0.8)",
                                                                          "width": 1},
                       hoveron="fills", hoverinfo="name" if features else "skip")


def landing_zone_trace(scene: BoardScene, state: Any) -> dict[str, Any]:
    """Landing zones (p.33): every hex within each zone's radius, shaded."""
    zones = tuple(getattr(state, "landing_zones", ()) or ())
    hexes = [hex for hex in board_hexes(scene.board) for zone in zones if zone.contains(hex)]
    xs, ys = hex_polygons(hexes)
    names = ", ".join(zone.name for zone in zones)
    return scene.trace(name=f"landing zones: {names}" if names else "landing zones", x=xs, y=ys, mode="lines",
                       fill="toself", fillcolor=style.LANDING_ZONE_FILL,
                       line={"color": "rgba(60, 160, 90, 0.6)", "width": 1}, hoveron="fills",
                       hoverinfo="name" if zones else "skip")


def static_traces(scene: BoardScene, state: Any) -> list[dict[str, Any]]:
    """The traces no event changes: the hex grid, terrain, landing zones."""
    return [board_trace(scene), terrain_trace(scene, state), landing_zone_trace(scene, state)]


# ---------------------------------------------------------------- dynamic traces


def aircraft_hover(aircraft: Any, scene: BoardScene) -> str:
    """Hover text for an aircraft: id, profile, Speed, Altitude, Structure, status, Stall/Spin, Tailing."""
    profile = scene.profile_names.get(aircraft.profile, aircraft.profile)
    starting = getattr(aircraft, "starting_structure", 0) or aircraft.structure
    lines = [f"<b>{aircraft.id}</b> ({aircraft.owner})", profile,
             f"Speed {aircraft.speed}, Altitude {aircraft.altitude}, facing {FACING_NAMES[aircraft.facing % 6]}",
             f"Structure {aircraft.structure}/{starting}", f"status: {aircraft.status}"]
    if getattr(aircraft, "stalled", False):
        lines.append("<b>STALLED</b>")
    if getattr(aircraft, "spinning", False):
        lines.append("<b>SPINNING</b>")
    if getattr(aircraft, "tailing", None):
        lines.append(f"Tailing {aircraft.tailing}")
    return "<br>".join(lines)


def aircraft_trace(scene: BoardScene, state: Any) -> dict[str, Any]:
    """Aircraft in play: arrows along their facing, "A<alt> S<speed>" beside them, hover details."""
    xs, ys, angles, colours, symbols, texts, hovers, ids = [], [], [], [], [], [], [], []
    for aircraft in sorted(state.aircraft.values(), key=lambda a: a.id):
        if not aircraft.in_play:
            continue
        x, y = centre(aircraft.hex)
        xs.append(x)
        ys.append(y)
        ids.append(aircraft.id)
        colours.append(scene.colour(aircraft.owner))
        if getattr(aircraft, "ground_defence", False):
            symbols.append("square")
            angles.append(0)
            texts.append("GD")
        else:
            symbols.append("arrow" if aircraft.status == "flying" else "arrow-open")
            angles.append(60 * aircraft.facing)
            texts.append(f"A{aircraft.altitude} S{aircraft.speed}")
        hovers.append(aircraft_hover(aircraft, scene))
    return scene.trace(
        name="aircraft", x=xs, y=ys, ids=ids, mode="markers+text", text=texts, textposition="middle right",
        textfont={"size": 10, "color": "#222"}, hovertext=hovers, hoverinfo="text",
        marker={"symbol": symbols, "angle": angles, "size": style.AIRCRAFT_SIZE, "color": colours,
                "line": {"color": "#111", "width": 1}},
    )


def token_trace(scene: BoardScene, state: Any) -> dict[str, Any]:
    """Stall and Spin tokens (p.17-18, p.29): a ring around a Stalled aircraft, a star around a Spinning one."""
    xs, ys, symbols, colours, hovers = [], [], [], [], []
    for aircraft in sorted(state.aircraft.values(), key=lambda a: a.id):
        if not aircraft.in_play:
            continue
        spinning, stalled = getattr(aircraft, "spinning", False), getattr(aircraft, "stalled", False)
        if not (spinning or stalled):
            continue
        x, y = centre(aircraft.hex)
        xs.append(x)
        ys.append(y)
        symbols.append("star-open" if spinning else "circle-open")
        colours.append(style.SPIN_COLOUR if spinning else style.STALL_COLOUR)
        hovers.append(f"{aircraft.id} is {'SPINNING' if spinning else 'STALLED'}")
    return scene.trace(name="Stall and Spin tokens", x=xs, y=ys, mode="markers", hovertext=hovers,
                       hoverinfo="text", marker={"symbol": symbols, "color": colours, "size": 30,
                                                 "line": {"width": 3, "color": colours}})


def wreck_trace(scene: BoardScene, state: Any) -> dict[str, Any]:
    """Destroyed aircraft: a grey cross where they fell."""
    lost = [a for a in sorted(state.aircraft.values(), key=lambda a: a.id)
            if a.status == "destroyed" and scene.board.contains(a.hex)]
    points = [centre(a.hex) for a in lost]
    return scene.trace(name="destroyed", x=[p[0] for p in points], y=[p[1] for p in points], mode="markers",
                       hovertext=[f"{a.id} ({a.owner}) destroyed" for a in lost], hoverinfo="text",
                       marker={"symbol": "x-thin-open", "size": 16, "color": style.WRECK_COLOUR,
                               "line": {"width": 3, "color": style.WRECK_COLOUR}})


def path_traces(scene: BoardScene, state: Any, path_starts: Mapping[str, Sequence[int]] | None = None
                ) -> list[dict[str, Any]]:
    """The path each aircraft flew this turn (``AircraftState.path``), one trace per side.

    ``path_starts`` gives the hex each aircraft started its move from (the replay knows
    it); without it the line starts at the first hex entered.
    """
    starts = path_starts or {}
    traces = []
    for player in scene.players:
        xs: list[float | None] = []
        ys: list[float | None] = []
        for aircraft in sorted(state.aircraft.values(), key=lambda a: a.id):
            path = tuple(getattr(aircraft, "path", ()) or ())
            if aircraft.owner != player or not path or not getattr(aircraft, "moved", True):
                continue
            start = starts.get(aircraft.id)
            line_x, line_y = polyline(((start,) if start is not None else ()) + path)
            xs.extend(line_x)
            ys.extend(line_y)
        traces.append(scene.trace(name=f"paths flown ({player})", x=xs, y=ys, mode="lines+markers",
                                  line={"color": scene.colour(player), "width": 2, "dash": "dot"},
                                  marker={"size": 4, "color": scene.colour(player)}, opacity=0.7))
    return traces


def tailing_trace(scene: BoardScene, state: Any) -> dict[str, Any]:
    """Tailing links (p.30): a dashed line from each Tailing aircraft to the aircraft it Tails."""
    pairs, hovers = [], []
    for aircraft in sorted(state.aircraft.values(), key=lambda a: a.id):
        target = state.aircraft.get(getattr(aircraft, "tailing", None) or "")
        if target is None or not aircraft.in_play or not target.in_play:
            continue
        pairs.append((aircraft.hex, target.hex))
        hovers.extend((f"{aircraft.id} is Tailing {target.id}",) * 2 + ("",))
    xs, ys = segments(pairs)
    return scene.trace(name="Tailing", x=xs, y=ys, mode="lines+markers", hovertext=hovers, hoverinfo="text",
                       line={"color": style.TAILING_COLOUR, "width": 2, "dash": "dash"},
                       marker={"size": 5, "color": style.TAILING_COLOUR})


def shot_traces(scene: BoardScene, shots: Iterable[ShotRecord]) -> list[dict[str, Any]]:
    """Shots fired: red lines for shots that hit, grey dotted for misses, and a marker near each target
    whose hover tells weapon, range, dice, hits and damage (a cross where the target was destroyed)."""
    drawn = [s for s in shots if s.from_hex is not None and s.to_hex is not None]
    hit = [s for s in drawn if s.hits and not s.negated]
    missed = [s for s in drawn if not s.hits or s.negated]
    hit_x, hit_y = segments((s.from_hex, s.to_hex) for s in hit)
    miss_x, miss_y = segments((s.from_hex, s.to_hex) for s in missed)
    marks = [along(s.from_hex, s.to_hex, 0.8) for s in drawn]
    return [
        scene.trace(name="shots that hit", x=hit_x, y=hit_y, mode="lines",
                    line={"color": style.HIT_COLOUR, "width": 3}),
        scene.trace(name="shots that missed", x=miss_x, y=miss_y, mode="lines",
                    line={"color": style.MISS_COLOUR, "width": 2, "dash": "dot"}),
        scene.trace(name="shot results", x=[m[0] for m in marks], y=[m[1] for m in marks], mode="markers",
                    hovertext=[s.describe() for s in drawn], hoverinfo="text",
                    marker={"symbol": ["x" if s.destroyed else "circle" for s in drawn], "size": 9,
                            "color": [style.HIT_COLOUR if s.hits and not s.negated else style.MISS_COLOUR
                                      for s in drawn], "line": {"color": "white", "width": 1}}),
    ]


def autonomous_trace(scene: BoardScene, state: Any) -> dict[str, Any]:
    """Autonomous weapons in flight (p.25): small diamonds pointing their way, in their side's colour."""
    weapons = sorted((getattr(state, "autonomous", {}) or {}).values(), key=lambda w: w.id)
    points = [centre(w.hex) for w in weapons]
    return scene.trace(
        name="Autonomous weapons", x=[p[0] for p in points], y=[p[1] for p in points], mode="markers",
        hovertext=[f"{w.id}: {w.weapon} of {w.firer} ({w.owner}), facing {FACING_NAMES[w.facing % 6]}"
                   for w in weapons], hoverinfo="text",
        marker={"symbol": "triangle-up", "angle": [60 * w.facing for w in weapons], "size": 10,
                "color": [scene.colour(w.owner) for w in weapons], "line": {"color": "#000", "width": 1}})


def ground_target_trace(scene: BoardScene, state: Any) -> dict[str, Any]:
    """A scenario's ground targets (p.33): squares in their defender's colour, crossed out once destroyed."""
    targets = tuple(getattr(state, "ground_targets", ()) or ())
    destroyed = getattr(state, "ground_targets_destroyed", {}) or {}
    points = [centre(t.hex) for t in targets]
    return scene.trace(
        name="ground targets", x=[p[0] for p in points], y=[p[1] for p in points], mode="markers",
        hovertext=[f"{t.name} ({t.id}), defended by {t.owner or 'nobody'}<br>Structure {t.structure}, "
                   f"{t.victory_points} VP" + (" — DESTROYED" if t.id in destroyed else "") for t in targets],
        hoverinfo="text",
        marker={"symbol": ["square-x-open" if t.id in destroyed else "square" for t in targets], "size": 14,
                "color": [style.NEUTRAL if t.id in destroyed else scene.colour(t.owner) for t in targets],
                "line": {"color": "#000", "width": 1}})


def arc_traces(scene: BoardScene, state: Any, focus: str | None) -> list[dict[str, Any]]:
    """The Fire Arcs and range bands of aircraft ``focus`` (p.21-22): one filled trace per (arc, band).

    Hexes within Long range (10) are shaded by arc (colour) and band (the nearer, the
    stronger); a hex on the line between two arcs is in both (p.21) and is shaded with
    the first of Front, Left, Right, Rear.
    """
    groups: dict[tuple[str, str], list[Hex]] = {(arc, band): [] for arc in ARC_ORDER for band in BAND_ORDER}
    aircraft = state.aircraft.get(focus) if focus else None
    if aircraft is not None and aircraft.in_play:
        pose = Pose(Hex(*aircraft.hex), aircraft.facing)
        q0, r0 = aircraft.hex
        for dq in range(-MAX_RANGE, MAX_RANGE + 1):
            for dr in range(max(-MAX_RANGE, -dq - MAX_RANGE), min(MAX_RANGE, -dq + MAX_RANGE) + 1):
                hex = Hex(q0 + dq, r0 + dr)
                band = range_between(pose.hex, hex)
                if band is None or not scene.board.contains(hex):
                    continue
                arcs = {arc.value for arc in arcs_containing(pose, hex)}
                first = next((arc for arc in ARC_ORDER if arc in arcs), None)
                if first is not None:
                    groups[(first, band.value)].append(hex)
    traces = []
    for (arc, band), hexes in groups.items():
        xs, ys = hex_polygons(hexes)
        fill = f"rgba({style.ARC_COLOURS[arc]}, {style.BAND_OPACITY[band]})"
        traces.append(scene.trace(name=f"{focus}: {arc} arc, {band} range", x=xs, y=ys, mode="lines",
                                  fill="toself", fillcolor=fill, line={"width": 0, "color": fill},
                                  hoveron="fills", hoverinfo="name" if hexes else "skip"))
    return traces


def dynamic_traces(scene: BoardScene, state: Any, *, shots: Iterable[ShotRecord] = (),
                   path_starts: Mapping[str, Sequence[int]] | None = None, focus: str | None = None,
                   arcs: bool = False) -> list[dict[str, Any]]:
    """Every trace an event may change, always the same ones in the same order (empty when unused).

    Order, bottom to top: [Fire Arcs x12 when ``arcs``], paths per side, Tailing links,
    shots (hit, missed, results), ground targets, Autonomous weapons, wrecks, Stall and
    Spin tokens, aircraft.
    """
    traces = arc_traces(scene, state, focus) if arcs else []
    traces.extend(path_traces(scene, state, path_starts))
    traces.append(tailing_trace(scene, state))
    traces.extend(shot_traces(scene, shots))
    traces.append(ground_target_trace(scene, state))
    traces.append(autonomous_trace(scene, state))
    traces.append(wreck_trace(scene, state))
    traces.append(token_trace(scene, state))
    traces.append(aircraft_trace(scene, state))
    return traces


# ---------------------------------------------------------------- layout and the figure


def board_axes(scene: BoardScene, domain: tuple[float, float] | None = None) -> dict[str, Any]:
    """Layout entries for the scene's axes: equal scaling, fixed ranges, no grid, ticks or zero lines."""
    (x_min, x_max), (y_min, y_max) = board_extent(scene.board)
    hidden = {"showgrid": False, "zeroline": False, "showticklabels": False, "ticks": "", "showline": False}
    xaxis = {"range": [x_min, x_max], "constrain": "domain", **hidden}
    if domain is not None:
        xaxis["domain"] = list(domain)
    yaxis = {"range": [y_min, y_max], "scaleanchor": scene.xaxis, "scaleratio": 1, "constrain": "domain",
             **hidden}
    if scene.yaxis != "y":
        yaxis["anchor"] = scene.xaxis
    if scene.xaxis != "x":
        xaxis["anchor"] = scene.yaxis
    return {_layout_key(scene.xaxis): xaxis, _layout_key(scene.yaxis): yaxis}


def _layout_key(axis: str) -> str:
    """``x`` -> ``xaxis``, ``y2`` -> ``yaxis2``."""
    return f"{axis[0]}axis{axis[1:]}"


def board_layout(scene: BoardScene, title: str | None = None) -> dict[str, Any]:
    """A figure layout for one board: equal axes, the mat's colour, room for a text panel on the right."""
    layout: dict[str, Any] = {
        "plot_bgcolor": style.BOARD_BACKGROUND, "paper_bgcolor": "white", "showlegend": False,
        "hovermode": "closest", "margin": {"l": 10, "r": 10, "t": 60, "b": 10},
        "font": {"family": "Helvetica, Arial, sans-serif", "size": 12},
        **board_axes(scene),
    }
    if title:
        layout["title"] = {"text": title, "x": 0.01, "xanchor": "left"}
    return layout


def board_figure(state: Any, ruleset: Any = None, *, shots: Iterable[ShotRecord] = (),
                 path_starts: Mapping[str, Sequence[int]] | None = None, focus: str | None = None,
                 title: str | None = None, board: Board | None = None) -> go.Figure:
    """The board in ``state``: hexes, aircraft, tokens, paths, Tailing, ``shots``; ``focus`` adds the Fire
    Arcs and range bands of that aircraft. ``ruleset`` (optional) names the profiles and gives the board."""
    scene = BoardScene.for_state(state, ruleset, board)
    traces = static_traces(scene, state) + dynamic_traces(scene, state, shots=shots, path_starts=path_starts,
                                                          focus=focus, arcs=focus is not None)
    heading = title if title is not None else (
        f"Turn {state.turn}, {state.phase.replace('_', ' ')} — " + style.players_title(scene.players, scene.colours))
    return go.Figure(data=traces, layout=board_layout(scene, heading))
