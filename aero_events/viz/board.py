"""The board figure of any scene: the table, its pieces, and what happened on it (Plotly).

A figure is made of *static* traces, drawn once (the table's edge, its hexes as ONE scatter of every
outline separated by None, the hexes' labels), and *dynamic* traces: templates, paths flown, links,
lines of fire, markers, pieces out of play, tags, pieces per side, and their labels. The dynamic traces
come in fixed *slots* (:class:`Layers`: one per template kind, side, outcome, status, tag...) gathered
over every scene a figure shows, so that a replay's frames always carry the same traces in the same
order and Plotly updates them by index (see :mod:`.replay`). Every slot has a legend entry, so every
symbol on the board is explained.

Pieces are arrows pointing along their heading (``marker.angle`` is degrees clockwise from north, as
scene headings are), in their side's colour, filled while in play and hollow when landed or otherwise
reduced; a destroyed piece is a cross where it fell and a disengaged one an open bar-arrow, never a
piece still in play. Pieces sharing a place are spread around it so that each can be seen and pointed
at. Labels (name, type, and the numbers that matter) are placed beside their piece where they overlap
no other label or piece.

Traces are plain dicts (Plotly validates them once, when the figure is built).
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from math import cos, radians, sin
from typing import Any

import msgspec
import plotly.graph_objects as go

from aero_events.core.scene import OUT_OF_PLAY, Circle, Piece, Scene, make_scene

from . import style
from .geometry import (
    along,
    extent,
    inner_radius,
    polygons,
    polyline,
    segments,
    shape_outline,
    table_edge,
    table_hexes,
)

#: Height in pixels of the board's drawing area in a stand-alone board figure.
BOARD_HEIGHT = 640
LABEL_FONT = 10
#: Labels are set this far (in pixels, as a marker's diameter) from their piece's centre: clear of its arrow.
LABEL_OFFSET_PX = style.PIECE_SIZE + 10
#: Average width of a character of the label font, and a line's height, in pixels (for placing labels).
CHAR_PX = 6.0
LINE_PX = 13.0
#: How far ahead of a marker (in pixels) the pointer showing its heading is drawn.
MARKER_POINTER_PX = 11.0
#: The ring of a piece's first tag, and how much wider each further tag's ring is (several tags stay apart).
TAG_RING_PX = 30
TAG_RING_STEP_PX = 8


def _ordered(values: Iterable[str | None]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(value for value in values if value is not None))


@dataclass(frozen=True)
class Layers:
    """The trace slots of a figure: what kinds of things its scenes hold, in a stable order."""

    sides: tuple[str, ...]
    template_kinds: tuple[str, ...] = ()
    link_kinds: tuple[str, ...] = ()
    outcomes: tuple[str, ...] = ()
    marker_kinds: tuple[str, ...] = ()
    statuses: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    #: Every piece type drawn, so that each is printed short yet told apart from the others (:func:`short_model`).
    models: tuple[str, ...] = ()
    template_colours: dict[str, str] = field(default_factory=dict)
    #: Marker kinds whose markers point somewhere (a torpedo salvo, an autonomous weapon): drawn with a pointer.
    headed_markers: frozenset[str] = frozenset()

    @classmethod
    def of(cls, scenes: Sequence[Scene]) -> Layers:
        """The slots needed to draw every one of ``scenes`` (the scenes of one replay, say)."""
        sides = _ordered([side for scene in scenes for side in scene.sides]
                         + [piece.side for scene in scenes for piece in scene.pieces])
        outcomes = _ordered(line.outcome if line.outcome in style.FIRE_STYLES else "declared"
                            for scene in scenes for line in scene.lines_of_fire)
        colours: dict[str, str] = {}
        for scene in scenes:
            for template in scene.templates:
                colours.setdefault(template.kind, template.colour or style.TEMPLATE_PALETTE[
                    len(colours) % len(style.TEMPLATE_PALETTE)])
        return cls(
            sides=sides,
            template_kinds=tuple(colours),
            link_kinds=_ordered(link.kind for scene in scenes for link in scene.links),
            outcomes=tuple(o for o in style.FIRE_STYLES if o in outcomes),
            marker_kinds=_ordered(marker.kind for scene in scenes for marker in scene.markers),
            statuses=_ordered(piece.status for scene in scenes for piece in scene.pieces
                              if piece.status in OUT_OF_PLAY),
            tags=_ordered(tag for scene in scenes for piece in scene.pieces for tag in piece.tags),
            models=_ordered(piece.model or None for scene in scenes for piece in scene.pieces),
            template_colours=colours,
            headed_markers=frozenset(marker.kind for scene in scenes for marker in scene.markers if marker.heading),
        )


@dataclass(frozen=True)
class BoardView:
    """How one board of a figure is drawn: its slots, side colours, axes, and its scale in pixels per mm."""

    layers: Layers
    colours: dict[str, str]
    px_per_mm: float
    xaxis: str = "x"
    yaxis: str = "y"
    legend: bool = True

    @classmethod
    def of(cls, scenes: Sequence[Scene], *, height_px: int = BOARD_HEIGHT, **options: Any) -> BoardView:
        layers = Layers.of(scenes)
        table = scenes[0].table
        (_, _), (y_min, y_max) = extent(table)
        return cls(layers=layers, colours=style.side_colours(layers.sides), px_per_mm=height_px / (y_max - y_min),
                   **options)

    def colour(self, side: str | None) -> str:
        return self.colours.get(side, style.NEUTRAL) if side is not None else style.NEUTRAL

    def trace(self, name: str, legend: bool = False, **spec: Any) -> dict[str, Any]:
        """A scatter trace dict on this board's axes (a legend entry only when asked, and on the first board)."""
        base = {"type": "scatter", "name": name, "xaxis": self.xaxis, "yaxis": self.yaxis,
                "showlegend": legend and self.legend, "legendgroup": name, "hoverinfo": "skip"}
        base.update(spec)
        return base


# ---------------------------------------------------------------- static traces


def static_traces(view: BoardView, scene: Scene) -> list[dict[str, Any]]:
    """The traces no event changes: the table's edge, its hexes, and the hexes' labels."""
    table = scene.table
    edge_x, edge_y = table_edge(table)
    hex_x, hex_y = table_hexes(table) if table.hex_size else ([], [])
    hex_px = 2 * inner_radius(table) * view.px_per_mm
    size = min(9.0, hex_px * 0.24)
    lift = inner_radius(table) * 0.62
    cells = table.cells if table.hex_size else ()
    labels = view.trace(
        "hex coordinates", x=[c.x for c in cells], y=[c.y + lift for c in cells],
        mode="text" if size >= 7 else "markers", text=[c.label for c in cells],
        textfont={"size": max(size, 6.0), "color": style.HEX_LABEL_COLOUR},
        marker={"size": 4, "color": "rgba(0,0,0,0)"}, hovertext=[c.hover or c.label for c in cells],
        hoverinfo="text")
    return [
        view.trace(table.name or "table", x=edge_x, y=edge_y, mode="lines",
                   line={"color": style.TABLE_EDGE, "width": 2}),
        view.trace("hexes", x=hex_x, y=hex_y, mode="lines", line={"color": style.BOARD_LINE, "width": 1}),
        labels,
    ]


# ---------------------------------------------------------------- where pieces are drawn


def spread(pieces: Sequence[Piece], radius: float) -> dict[str, tuple[float, float]]:
    """Where each piece is drawn: its place, or, when several share a place, around it at ``radius``."""
    places: dict[tuple[int, int], list[Piece]] = {}
    for piece in pieces:
        places.setdefault((round(piece.x), round(piece.y)), []).append(piece)
    drawn = {}
    for group in places.values():
        if len(group) == 1:
            drawn[group[0].id] = (group[0].x, group[0].y)
            continue
        for index, piece in enumerate(group):
            angle = radians(360 * index / len(group) - 45)
            drawn[piece.id] = (piece.x + radius * cos(angle), piece.y + radius * sin(angle))
    return drawn


_POSITIONS = ("middle right", "middle left", "top center", "bottom center", "top right", "bottom right",
              "top left", "bottom left")


def _box(position: str, width: float, height: float, gap: float) -> tuple[float, float, float, float]:
    """A label's box (x0, y0, x1, y1) in pixels relative to its point, y up, for a Plotly textposition."""
    vertical, horizontal = position.split()
    if horizontal == "right":
        x0, x1 = gap, gap + width
    elif horizontal == "left":
        x0, x1 = -gap - width, -gap
    else:
        x0, x1 = -width / 2, width / 2
    lift = gap if horizontal == "center" else gap * 0.5
    if vertical == "top":
        y0, y1 = lift, lift + height
    elif vertical == "bottom":
        y0, y1 = -lift - height, -lift
    else:
        y0, y1 = -height / 2, height / 2
    return x0, y0, x1, y1


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    width = min(a[2], b[2]) - max(a[0], b[0])
    height = min(a[3], b[3]) - max(a[1], b[1])
    return width * height if width > 0 and height > 0 else 0.0


def place_labels(points: Sequence[tuple[float, float]], texts: Sequence[str], px_per_mm: float,
                 marker_px: float = LABEL_OFFSET_PX,
                 bounds: tuple[tuple[float, float], tuple[float, float]] | None = None,
                 optional: Sequence[bool] | None = None) -> list[str | None]:
    """A Plotly ``textposition`` for each label so that labels overlap neither each other nor the pieces,
    and stay within ``bounds`` (``((x_min, x_max), (y_min, y_max))`` in mm: the board drawn).

    Greedy, in order: each label takes the first position (right, left, above, below, then the corners)
    whose box meets no label already placed and no piece; failing that, the one that overlaps least. An
    ``optional`` label (a piece out of play: its hover still names it) that finds no free place gets None:
    it is left off rather than printed over another.
    """
    gap = marker_px / 2
    if bounds is not None:
        (bx0, bx1), (by0, by1) = bounds
        inside = (bx0 * px_per_mm, by0 * px_per_mm, bx1 * px_per_mm, by1 * px_per_mm)
    half = style.PIECE_SIZE / 2
    pieces = [(x * px_per_mm - half, y * px_per_mm - half, x * px_per_mm + half, y * px_per_mm + half)
              for x, y in points]
    placed: list[tuple[float, float, float, float]] = []
    chosen: list[str | None] = []
    optional = optional if optional is not None else [False] * len(points)
    for (x, y), text, droppable in zip(points, texts, optional, strict=True):
        lines = text.split("<br>")
        width = max(len(_plain(line)) for line in lines) * CHAR_PX
        height = len(lines) * LINE_PX
        cx, cy = x * px_per_mm, y * px_per_mm
        best, best_cost = _POSITIONS[0], None
        for position in _POSITIONS:
            x0, y0, x1, y1 = _box(position, width, height, gap)
            box = (cx + x0, cy + y0, cx + x1, cy + y1)
            cost = sum(_overlap(box, other) for other in placed) + sum(_overlap(box, piece) for piece in pieces)
            if bounds is not None:  # what sticks out of the board is hidden: as bad as covering a piece
                area = (box[2] - box[0]) * (box[3] - box[1])
                cost += 4 * (area - _overlap(box, inside))
            if best_cost is None or cost < best_cost:
                best, best_cost = position, cost
            if cost == 0:
                break
        if droppable and best_cost:
            chosen.append(None)
            continue
        x0, y0, x1, y1 = _box(best, width, height, gap)
        placed.append((cx + x0, cy + y0, cx + x1, cy + y1))
        chosen.append(best)
    return chosen


def _plain(text: str) -> str:
    for tag in ("<b>", "</b>", "<i>", "</i>"):
        text = text.replace(tag, "")
    return text


def short_model(model: str, others: Iterable[str] = ()) -> str:
    """A piece's type short enough to print on the board ("Thunderbolt Heavy Fighter" -> "Thunderbolt"), yet
    told apart from the other types drawn (``others``): its first words, as many as it takes for no other type
    to begin with them ("Messerschmitt Bf 109 E-3" beside "Messerschmitt Bf 110 C-4" is "Messerschmitt Bf 109",
    not "Messerschmitt" for both)."""
    if len(model) <= 14:
        return model
    words = model.split()
    rivals = [other.split() for other in others if other != model]
    for count in range(1, len(words)):
        if not any(rival[:count] == words[:count] for rival in rivals):
            return " ".join(words[:count])
    return model


def piece_label(piece: Piece, models: Iterable[str] = ()) -> str:
    """What is printed beside a piece: its name and type (told apart from the other ``models`` drawn), then its
    numbers (or its status)."""
    shown = short_model(piece.model, models) if piece.model else ""
    first = f"<b>{_text(piece.label)}</b>" + (f" {_text(shown)}" if shown else "")
    tags = " ".join(piece.tags)
    second = _text(" · ".join(part for part in (piece.detail, tags) if part))
    return first + (f"<br>{second}" if second else "")


def _text(value: str) -> str:
    """Plain text for a Plotly label: <, > and & escaped (quotes are shown as they are)."""
    return html.escape(value, quote=False)


# ---------------------------------------------------------------- dynamic traces


def template_traces(view: BoardView, scene: Scene) -> list[dict[str, Any]]:
    traces = []
    for kind in view.layers.template_kinds:
        mine = [t for t in scene.templates if t.kind == kind]
        xs, ys = polygons(t.points for t in mine)
        fill = view.layers.template_colours[kind]
        traces.append(view.trace(kind, legend=True, x=xs, y=ys, mode="lines", fill="toself", fillcolor=fill,
                                 line={"color": fill, "width": 0.5}, hoveron="fills",
                                 hoverinfo="name" if mine else "skip",
                                 text=mine[0].hover if mine else ""))
    return traces


def path_traces(view: BoardView, scene: Scene) -> list[dict[str, Any]]:
    traces = []
    for side in view.layers.sides:
        xs: list[float | None] = []
        ys: list[float | None] = []
        hovers: list[str] = []
        for path in scene.paths:
            if path.side == side or (path.side is None and _side_of(scene, path.piece) == side):
                line_x, line_y = polyline(path.points)
                xs.extend(line_x)
                ys.extend(line_y)
                hovers.extend([_path_hover(scene, path)] * len(line_x))
        colour = view.colour(side)
        traces.append(view.trace(f"paths flown ({side})", legend=True, x=xs, y=ys, mode="lines+markers",
                                 line={"color": colour, "width": 2, "dash": "dot"}, hovertext=hovers,
                                 hoverinfo="text", marker={"size": 4, "color": colour}, opacity=0.7))
    return traces


def _path_hover(scene: Scene, path: Any) -> str:
    """What a path's hover says: whose path it is (the piece's label and type), and the path's own words."""
    piece = next((p for p in scene.pieces if p.id == path.piece), None)
    name = piece.label if piece is not None else path.piece
    model = f" ({piece.model})" if piece is not None and piece.model else ""
    return _text(f"{name}{model}: path flown" + (f" — {path.label}" if path.label else ""))


def _side_of(scene: Scene, piece_id: str) -> str | None:
    return next((piece.side for piece in scene.pieces if piece.id == piece_id), None)


def link_traces(view: BoardView, scene: Scene) -> list[dict[str, Any]]:
    traces = []
    for kind in view.layers.link_kinds:
        mine = [link for link in scene.links if link.kind == kind]
        xs, ys = segments((link.start, link.end) for link in mine)
        hovers = [text for link in mine for text in (link.hover, link.hover, "")]
        traces.append(view.trace(kind, legend=True, x=xs, y=ys, mode="lines+markers", hovertext=hovers,
                                 hoverinfo="text", line={"color": style.TAILING_COLOUR, "width": 2, "dash": "dash"},
                                 marker={"size": 5, "color": style.TAILING_COLOUR}))
    return traces


def fire_traces(view: BoardView, scene: Scene) -> list[dict[str, Any]]:
    """Lines of fire, one trace per outcome, and a marker near each target whose hover tells the shot."""
    traces = []
    lines = scene.lines_of_fire
    for outcome in view.layers.outcomes:
        legend, colour, width, dash = style.FIRE_STYLES[outcome]
        mine = [line for line in lines if (line.outcome if line.outcome in style.FIRE_STYLES else "declared")
                == outcome]
        xs, ys = segments((line.start, line.end) for line in mine)
        traces.append(view.trace(legend, legend=True, x=xs, y=ys, mode="lines",
                                 line={"color": colour, "width": width, "dash": dash}))
    marks = [along(line.start, line.end, 0.8) for line in lines]
    styles = [style.FIRE_STYLES.get(line.outcome, style.FIRE_STYLES["declared"]) for line in lines]
    traces.append(view.trace(
        "shot results", x=[m[0] for m in marks], y=[m[1] for m in marks], mode="markers",
        hovertext=[line.hover or f"{line.shooter} → {line.target}: {line.outcome}" for line in lines],
        hoverinfo="text",
        marker={"symbol": ["x" if line.outcome == "destroyed" else "circle" for line in lines], "size": 9,
                "color": [s[1] for s in styles], "line": {"color": "white", "width": 1}}))
    return traces


def marker_traces(view: BoardView, scene: Scene) -> list[dict[str, Any]]:
    traces = []
    for index, kind in enumerate(view.layers.marker_kinds):
        mine = [m for m in scene.markers if m.kind == kind]
        symbol = style.MARKER_SYMBOLS[index % len(style.MARKER_SYMBOLS)]
        if "destroyed" in kind:
            symbol = "square-x-open"
        areas = [m for m in mine if _area_worth_drawing(m.shape)]
        xs, ys = polygons(shape_outline(m.shape, m.x, m.y, m.heading) for m in areas)
        fill = style.rgba(view.colour(areas[0].side) if areas and areas[0].side else style.NEUTRAL, 0.12)
        traces.append(view.trace(f"{kind} (area)", x=xs, y=ys, mode="lines", fill="toself", fillcolor=fill,
                                 line={"color": style.rgba(style.NEUTRAL, 0.6), "width": 1, "dash": "dash"}))
        xs, ys = [m.x for m in mine], [m.y for m in mine]
        symbols, sizes = [symbol] * len(mine), [12] * len(mine)
        angles = [m.heading for m in mine]
        hovers = [m.hover or m.label or kind for m in mine]
        colours = [m.colour or view.colour(m.side) for m in mine]
        if kind in view.layers.headed_markers:
            # A symbol turned to a heading does not show it (a square looks the same every way): a pointer
            # ahead of each marker, along its heading, says where it goes.
            reach = MARKER_POINTER_PX / view.px_per_mm
            for m in mine:
                xs.append(m.x + reach * sin(radians(m.heading)))
                ys.append(m.y + reach * cos(radians(m.heading)))
                symbols.append("triangle-up")
                sizes.append(8)
                angles.append(m.heading)
                hovers.append(m.hover or m.label or kind)
                colours.append(m.colour or view.colour(m.side))
        traces.append(view.trace(
            kind, legend=True, x=xs, y=ys, mode="markers", hovertext=hovers, hoverinfo="text",
            marker={"symbol": symbols, "angle": angles, "size": sizes, "color": colours,
                    "line": {"color": "#000", "width": 1}}))
    return traces


def _area_worth_drawing(shape: Any) -> bool:
    """Markers bigger than a symbol (an objective's circle, a cloud, a blast marker) are drawn to scale too."""
    if isinstance(shape, Circle):
        return shape.radius > 12
    return True


def status_traces(view: BoardView, scene: Scene, drawn: dict[str, tuple[float, float]]) -> list[dict[str, Any]]:
    """Pieces out of play, one trace per status: where they fell or left, never as pieces in play."""
    traces = []
    for status in view.layers.statuses:
        mine = [p for p in scene.pieces if p.status == status]
        symbol = style.STATUS_SYMBOLS.get(status, "circle-x-open")
        colours = [style.WRECK_COLOUR if status in ("destroyed", "crashed") else style.rgba(view.colour(p.side), 0.7)
                   for p in mine]
        traces.append(view.trace(
            style.STATUS_LEGEND.get(status, status), legend=True, x=[drawn[p.id][0] for p in mine],
            y=[drawn[p.id][1] for p in mine], ids=[p.id for p in mine], mode="markers",
            hovertext=[p.hover or f"{p.label} ({p.side}) {status}" for p in mine], hoverinfo="text",
            marker={"symbol": symbol, "size": 16, "color": colours, "angle": [p.heading for p in mine]
                    if status == "disengaged" else 0, "line": {"width": 3, "color": colours}}))
    return traces


def tag_traces(view: BoardView, scene: Scene, drawn: dict[str, tuple[float, float]]) -> list[dict[str, Any]]:
    """A ring per tag around each piece that has it, one style per tag of the figure (never two tags alike);
    a piece's second tag rings it wider than its first, and so on, so that no ring hides another."""
    traces = []
    for index, tag in enumerate(view.layers.tags):
        symbol, colour = style.tag_style(index)
        mine = [p for p in scene.pieces if tag in p.tags and p.status not in OUT_OF_PLAY]
        traces.append(view.trace(
            tag, legend=True, x=[drawn[p.id][0] for p in mine], y=[drawn[p.id][1] for p in mine], mode="markers",
            hovertext=[_text(f"{p.label}: {tag}") for p in mine], hoverinfo="text",
            marker={"symbol": symbol, "color": colour,
                    "size": [TAG_RING_PX + TAG_RING_STEP_PX * p.tags.index(tag) for p in mine],
                    "line": {"width": 3, "color": colour}}))
    return traces


def footprint_traces(view: BoardView, scene: Scene, drawn: dict[str, tuple[float, float]]) -> list[dict[str, Any]]:
    """The bases of pieces on an open table (on a hex table the hex is the base: nothing drawn)."""
    traces = []
    for side in view.layers.sides:
        mine = [p for p in scene.pieces if p.side == side and p.status not in OUT_OF_PLAY]
        if scene.table.hex_size:
            mine = []
        xs, ys = polygons(shape_outline(p.footprint, *drawn[p.id], p.heading) for p in mine)
        colour = view.colour(side)
        traces.append(view.trace(f"bases ({side})", x=xs, y=ys, mode="lines", fill="toself",
                                 fillcolor=style.rgba(colour, 0.15), line={"color": colour, "width": 1}))
    return traces


def piece_traces(view: BoardView, scene: Scene, drawn: dict[str, tuple[float, float]]) -> list[dict[str, Any]]:
    """Pieces in play, one trace per side: arrows along their heading, filled when active, hollow otherwise."""
    traces = []
    for side in view.layers.sides:
        mine = [p for p in scene.pieces if p.side == side and p.status not in OUT_OF_PLAY]
        colour = view.colour(side)
        traces.append(view.trace(
            side, x=[drawn[p.id][0] for p in mine], y=[drawn[p.id][1] for p in mine],
            ids=[p.id for p in mine], mode="markers", hovertext=[p.hover or p.label for p in mine], hoverinfo="text",
            customdata=[[p.level] for p in mine],
            marker={"symbol": ["arrow" if p.status in style.ACTIVE_STATUSES else "arrow-open" for p in mine],
                    "angle": [p.heading for p in mine], "size": style.PIECE_SIZE, "color": colour,
                    "line": {"color": "#111", "width": 1}}))
    return traces


def legend_traces(view: BoardView) -> list[dict[str, Any]]:
    """One legend entry per side: its colour on an upright arrow (the pieces' own arrows point every way)."""
    return [view.trace(f"{side}", legend=True, x=[None], y=[None], mode="markers",
                       marker={"symbol": "arrow", "size": 14, "color": view.colour(side),
                               "line": {"color": "#111", "width": 1}}) for side in view.layers.sides]


def label_trace(view: BoardView, scene: Scene, drawn: dict[str, tuple[float, float]]) -> dict[str, Any]:
    """Every piece's label in one text trace, each placed where it overlaps nothing (see :func:`place_labels`)."""
    pieces = list(scene.pieces)
    points = [drawn[p.id] for p in pieces]
    texts = [piece_label(p, view.layers.models) if p.status not in OUT_OF_PLAY else _text(f"{p.label} ({p.status})") for p in pieces]
    # Pieces in play are labelled first; a piece out of play is labelled only where its label fits.
    order = sorted(range(len(pieces)), key=lambda i: pieces[i].status in OUT_OF_PLAY)
    placed = place_labels([points[i] for i in order], [texts[i] for i in order], view.px_per_mm,
                          bounds=extent(scene.table), optional=[pieces[i].status in OUT_OF_PLAY for i in order])
    positions: list[str | None] = [None] * len(pieces)
    for i, position in zip(order, placed, strict=True):
        positions[i] = position
    return view.trace(
        # Invisible markers the size of a piece, so that Plotly sets each label off beside its piece.
        "labels", x=[x for x, _ in points], y=[y for _, y in points], mode="markers+text",
        text=[text if position is not None else "" for text, position in zip(texts, positions, strict=True)],
        marker={"size": LABEL_OFFSET_PX, "color": "rgba(0,0,0,0)"},
        textposition=[position or "middle right" for position in positions], hoverinfo="skip",
        textfont={"size": LABEL_FONT, "color": ["#222" if p.status not in OUT_OF_PLAY else "#777" for p in pieces]})


def dynamic_traces(view: BoardView, scene: Scene) -> list[dict[str, Any]]:
    """Every trace a step may change, always the same slots in the same order (empty when unused).

    Order, bottom to top: templates (per kind), paths (per side), links (per kind), lines of fire (per
    outcome) and their results, markers (per kind: their area to scale, then their symbol), pieces out of play (per status), tags (per tag),
    bases (per side), pieces (per side), labels, and each side's legend entry.
    """
    radius = inner_radius(scene.table) * 0.5 if scene.table.hex_size else 8.0
    table = scene.table
    # A piece that left the table is shown at the edge it crossed; pieces that end up sharing a place there
    # are spread like any others, so that neither they nor their labels lie on top of each other.
    placed = [msgspec.structs.replace(p, x=min(max(p.x, 0.0), table.width), y=min(max(p.y, 0.0), table.height))
              if p.status in OUT_OF_PLAY else p for p in scene.pieces]
    drawn = spread(placed, radius)
    return [*template_traces(view, scene), *path_traces(view, scene), *link_traces(view, scene),
            *fire_traces(view, scene), *marker_traces(view, scene), *status_traces(view, scene, drawn),
            *tag_traces(view, scene, drawn), *footprint_traces(view, scene, drawn),
            *piece_traces(view, scene, drawn), label_trace(view, scene, drawn), *legend_traces(view)]


# ---------------------------------------------------------------- layout and the figure


def board_axes(view: BoardView, scene: Scene, domain: tuple[float, float] | None = None) -> dict[str, Any]:
    """Layout entries for the board's axes: equal scaling, fixed ranges, no grid, ticks or zero lines."""
    (x_min, x_max), (y_min, y_max) = extent(scene.table)
    hidden = {"showgrid": False, "zeroline": False, "showticklabels": False, "ticks": "", "showline": False}
    xaxis = {"range": [x_min, x_max], "constrain": "domain", **hidden}
    if domain is not None:
        xaxis["domain"] = list(domain)
    yaxis = {"range": [y_min, y_max], "scaleanchor": view.xaxis, "scaleratio": 1, "constrain": "domain", **hidden}
    if view.yaxis != "y":
        yaxis["anchor"] = view.xaxis
    if view.xaxis != "x":
        xaxis["anchor"] = view.yaxis
    return {_layout_key(view.xaxis): xaxis, _layout_key(view.yaxis): yaxis}


def _layout_key(axis: str) -> str:
    """``x`` -> ``xaxis``, ``y2`` -> ``yaxis2``."""
    return f"{axis[0]}axis{axis[1:]}"


LEGEND = {"orientation": "h", "x": 0.0, "xanchor": "left", "y": 1.0, "yanchor": "bottom",
          "font": {"size": 11}, "itemsizing": "constant", "bgcolor": "rgba(255,255,255,0)"}


def board_layout(view: BoardView, scene: Scene, title: str | None = None) -> dict[str, Any]:
    """A figure layout for one board: equal axes, the mat's colour, a legend of every symbol above it."""
    layout: dict[str, Any] = {
        "plot_bgcolor": style.BOARD_BACKGROUND, "paper_bgcolor": "white", "showlegend": True, "legend": LEGEND,
        "hovermode": "closest", "margin": {"l": 10, "r": 10, "t": 90, "b": 10},
        "font": {"family": "Helvetica, Arial, sans-serif", "size": 12},
        **board_axes(view, scene),
    }
    if title:
        layout["title"] = {"text": title, "x": 0.01, "xanchor": "left", "y": 0.985, "yanchor": "top"}
    return layout


def scene_title(scene: Scene, colours: dict[str, str]) -> str:
    """"Turn 3, movement — imperium vs orks" with each side in its colour."""
    sides = style.players_title(scene.sides, colours) if scene.sides else ""
    return " — ".join(part for part in (scene.caption, sides) if part)


def board_figure(subject: Any, ruleset: Any = None, *, events: Sequence[Any] = (), focus: str | None = None,
                 viewer: str | None = None, title: str | None = None) -> go.Figure:
    """The board of a :class:`Scene`, or of a state (then ``ruleset`` makes its scene, with the ``events``
    since the previous scene for paths and lines of fire, and ``focus``'s arcs where the ruleset has them)."""
    if isinstance(subject, Scene):
        scene = subject
    else:
        if ruleset is None:
            raise TypeError("board_figure needs the ruleset to draw a state (or give it a Scene)")
        scene = make_scene(ruleset, subject, viewer, events, focus)
    view = BoardView.of([scene])
    traces = static_traces(view, scene) + dynamic_traces(view, scene)
    (x_min, x_max), (y_min, y_max) = extent(scene.table)
    layout = board_layout(view, scene, title if title is not None else scene_title(scene, view.colours))
    width = round(BOARD_HEIGHT * (x_max - x_min) / (y_max - y_min))
    layout.update(width=width + 20, height=BOARD_HEIGHT + 120, autosize=False)
    return go.Figure(data=traces, layout=layout)
