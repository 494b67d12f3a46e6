"""Scenes: a ruleset-independent, drawable description of one game state.

A ruleset turns a state into a :class:`Scene` (``Ruleset.scene(state, viewer)``); ``viz/`` draws any
scene with Plotly without knowing which game it shows. A scene is plain data (msgspec Structs), so it
can be encoded to JSON, compared, and drawn in another process.

Conventions, the same for every ruleset:

* lengths are millimetres on the table, as floats (drawing only: rules keep their own exact units);
* ``x`` grows to the right (east), ``y`` grows up the table (north);
* headings are degrees clockwise from north (0 = facing up the table, 90 = facing right);
* a hex table gives its cells' centres in the same millimetres, so pieces on hexes are drawn alike.

A scene never holds what the ``viewer`` may not see: the ruleset builds it from the viewer's view.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec


class Circle(msgspec.Struct, frozen=True, tag="circle"):
    """A round footprint or marker of ``radius`` mm about its anchor."""

    radius: float


class Rect(msgspec.Struct, frozen=True, tag="rect"):
    """An oriented rectangle ``width`` (across) by ``length`` (along the heading), centred on its anchor."""

    width: float
    length: float


class Polygon(msgspec.Struct, frozen=True, tag="polygon"):
    """A polygon given by its corners, in mm relative to the anchor, before rotation by the heading."""

    points: tuple[tuple[float, float], ...]


Shape = Circle | Rect | Polygon


class HexCell(msgspec.Struct, frozen=True):
    """One hex of a hex table: its centre in mm and a label players use (``"0312"``, ``"q,r"``).

    ``label`` is printed in the hex (the coordinates the game's log names hexes by); ``hover`` says more
    when a player points at it (e.g. "hex 3,-1 · column 3, row 0").
    """

    x: float
    y: float
    label: str = ""
    hover: str = ""


class Table(msgspec.Struct, frozen=True, kw_only=True):
    """The playing area: a rectangle of ``width`` by ``height`` mm, optionally laid with hexes.

    ``hex_size`` is the centre-to-corner radius of a hex in mm (0 for an open table); ``flat_top``
    says how hexes are laid. ``cells`` are the hexes on the table (complete ones only).
    """

    width: float
    height: float
    hex_size: float = 0.0
    flat_top: bool = True
    cells: tuple[HexCell, ...] = ()
    name: str = ""


class Piece(msgspec.Struct, frozen=True, kw_only=True):
    """A playing piece: an aircraft, a ship, a unit, a balloon.

    ``level`` is its altitude or height band in the ruleset's terms (``level_label`` says how to read
    it, e.g. "Altitude 3" or "peg 2 + 1 climb"); ``status`` is one of ``active``, ``destroyed``,
    ``disengaged``, ``off-table``, ``landed``, ``crippled`` or a ruleset word (``destroyed``,
    ``disengaged`` and ``off-table`` pieces are out of play and drawn as such, at their last place);
    ``hover`` is the text shown when a player points at it; ``tags`` are short flags drawn beside it
    (smoke, fire, braced, STALLED). ``model`` names what the piece is ("Thunderbolt Heavy Fighter",
    "Sopwith Camel"); ``detail`` is a short line of numbers printed under its label ("Alt 3 · Spd 4").
    ``level`` is None where the piece has no meaningful level (destroyed, crashed, not placed).
    """

    id: str
    side: str
    label: str
    x: float
    y: float
    heading: float = 0.0
    footprint: Shape = Circle(radius=10.0)
    kind: str = "piece"
    level: int | None = None
    level_label: str = ""
    status: str = "active"
    hover: str = ""
    tags: tuple[str, ...] = ()
    model: str = ""
    detail: str = ""


#: Statuses of pieces that are out of play (drawn apart, never as a piece still flying).
OUT_OF_PLAY = ("destroyed", "disengaged", "off-table", "crashed")


class Marker(msgspec.Struct, frozen=True, kw_only=True):
    """A marker on the table: a Blast marker, a torpedo salvo, smoke, a cloud, an objective."""

    kind: str
    x: float
    y: float
    heading: float = 0.0
    shape: Shape = Circle(radius=5.0)
    label: str = ""
    side: str | None = None
    hover: str = ""
    colour: str = ""


class Template(msgspec.Struct, frozen=True, kw_only=True):
    """An area template or zone drawn as a polygon in table mm (a blast template, a deployment zone).

    Templates of one ``kind`` are drawn together, in one colour: ``colour`` (CSS, e.g. ``rgba(...)``) or,
    when empty, one ``viz`` picks for the kind. ``Marker.colour`` likewise overrides the side's colour.
    """

    kind: str
    points: tuple[tuple[float, float], ...]
    label: str = ""
    side: str | None = None
    hover: str = ""
    colour: str = ""


class PathFlown(msgspec.Struct, frozen=True, kw_only=True):
    """The way a piece went since the last scene: its centre's points, in order, in table mm."""

    piece: str
    points: tuple[tuple[float, float], ...]
    label: str = ""
    side: str | None = None


class LineOfFire(msgspec.Struct, frozen=True, kw_only=True):
    """A shot from one point to another and how it went (``hit``, ``miss``, ``blocked``, ``declared``)."""

    shooter: str
    target: str
    start: tuple[float, float]
    end: tuple[float, float]
    outcome: str = "declared"
    label: str = ""
    hover: str = ""
    side: str | None = None


class Link(msgspec.Struct, frozen=True, kw_only=True):
    """A lasting relation between two pieces drawn as a dashed line (Tailing, a tow, a boarding action)."""

    kind: str
    source: str
    target: str
    start: tuple[float, float]
    end: tuple[float, float]
    hover: str = ""


class Scene(msgspec.Struct, frozen=True, kw_only=True):
    """Everything ``viz/`` draws for one state. ``caption`` says where the game stands ("Turn 3, Movement")."""

    table: Table
    pieces: tuple[Piece, ...] = ()
    markers: tuple[Marker, ...] = ()
    templates: tuple[Template, ...] = ()
    paths: tuple[PathFlown, ...] = ()
    lines_of_fire: tuple[LineOfFire, ...] = ()
    links: tuple[Link, ...] = ()
    sides: tuple[str, ...] = ()
    caption: str = ""
    turn: int | None = None


class ReportSection(msgspec.Struct, frozen=True, kw_only=True):
    """A section a ruleset adds to the post-match report: a heading, then a Plotly figure and/or HTML.

    ``figure`` is a ``plotly.graph_objects.Figure`` or a figure dict; ``html`` is trusted HTML (tables).
    """

    title: str
    figure: Any = None
    html: str = ""


class StepGrouping:
    """How a replay cuts a game into steps, one frame each; a ruleset overrides it to speak its phases.

    The replay reads the events once, in order. A *group* opens at an event for which :meth:`opens`
    returns ``(kind, actor)`` and closes at the first event for which :meth:`closes` is true; its events
    make one frame, titled by :meth:`title`, unless :meth:`keeps` says it showed nothing worth a frame.
    An event outside any group makes a frame of its own when it changed the scene (:meth:`changed`).

    The default works for any ruleset: each command a player gave (a ``CommandIssued`` event, recorded
    before the events it caused) opens a group that closes just before the next command, and is kept
    when the scene changed; games recorded without commands get a frame per event that changed the scene.
    """

    #: Event types that open a group in the default grouping.
    command_types: tuple[str, ...] = ("CommandIssued", "SecretCommandIssued")

    def opens(self, envelope: Any, before: Any) -> tuple[str, str | None] | None:
        """``(kind, actor)`` when ``envelope`` opens a group, else None."""
        if envelope.event.type_name() in self.command_types:
            return "command", envelope.actor
        return None

    def closes(self, kind: str, envelope: Any, following: Any | None) -> bool:
        """Whether the open group of ``kind`` ends with ``envelope`` (``following`` is the next one, or None)."""
        return following is None or following.event.type_name() in self.command_types

    def title(self, kind: str, actor: str | None, envelopes: Sequence[Any]) -> str:
        """The frame's heading ("orks-2 moves", "End phase of turn 3")."""
        return f"{actor} acts" if actor else kind.replace("_", " ")

    def keeps(self, kind: str, envelopes: Sequence[Any], changed: bool) -> bool:
        """Whether a closed group gets a frame (``changed``: its scene differs from the one before)."""
        return changed

    def changed(self, before: Any, after: Any) -> bool | None:
        """Whether the board differs between two states; None: compare their scenes (always right, slower)."""
        return None if after is not before else False


def make_scene(ruleset: Any, state: Any, viewer: str | None = None, events: Sequence[Any] = (),
               focus: str | None = None) -> Scene:
    """``ruleset.scene(state, viewer, events, focus)``, passing ``events`` and ``focus`` only to a ruleset
    whose ``scene`` takes them (both are optional extensions of ``scene(state, viewer)``)."""
    extended = _takes_events(type(ruleset))
    if extended:
        return ruleset.scene(state, viewer, events, focus)
    return ruleset.scene(state, viewer)


_EXTENDED: dict[type, bool] = {}


def _takes_events(kind: type) -> bool:
    if kind not in _EXTENDED:
        import inspect

        try:
            parameters = inspect.signature(kind.scene).parameters
        except (TypeError, ValueError):
            parameters = {}
        _EXTENDED[kind] = "events" in parameters and "focus" in parameters
    return _EXTENDED[kind]
