"""Aeronautica Imperialis as a scene provider: its hex Area of Engagement and aircraft, drawable by ``viz/``.

A :class:`~aero_events.core.scene.Scene` is in millimetres with y up the table. The Area of Engagement is
a mat of 2-inch hexes (p.9); hexes are laid flat-top, column 0 against the left edge of the mat and
row 0 against its far (top) edge, as :mod:`aero_events.hexgrid.pixels` draws them. Each hex is labelled
with the coordinates the game's log names it by (``q,r``), and its hover adds its column and row.

Aircraft (p.10) are pieces pointing along their facing (60 degrees per facing, clockwise from north),
with their Altitude as ``level`` (None once destroyed: a crash is a status, never Altitude -1), Speed
and Altitude printed under their name, Stall and Spin tokens (p.17-18, p.29) as tags, Tailing (p.30) as
links, Autonomous weapons (p.25) and ground targets (p.33) as markers, terrain and landing zones (p.33)
as templates. Given the events since the previous scene, the paths flown this turn start where the
aircraft began its move, and the shots of those events become lines of fire.

This module also says how a replay groups Aeronautica's events (:class:`AeronauticaSteps`): one frame per
aircraft's movement (p.15), per volley that fired (p.20), per End phase (p.29-30).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from math import sqrt
from typing import Any

from aero_events.core.scene import (
    Circle,
    HexCell,
    LineOfFire,
    Link,
    Marker,
    PathFlown,
    Piece,
    Scene,
    StepGrouping,
    Table,
    Template,
)
from aero_events.hexgrid import (
    MAX_RANGE,
    Board,
    Hex,
    Pose,
    arcs_containing,
    pixel_centre,
    pixel_corners,
    range_between,
)

MM_PER_INCH = 25.4
HEX_SIZE_MM = MM_PER_INCH * 2 / sqrt(3.0)
FACING_NAMES = ("N", "NE", "SE", "S", "SW", "NW")
STATUS = {"flying": "active", "landed": "landed", "destroyed": "destroyed", "disengaged": "disengaged"}

#: Fire Arcs (p.21) and range bands (p.22) shaded for a focused aircraft: colour per arc, opacity per band.
ARC_ORDER = ("front", "left", "right", "rear")
BAND_ORDER = ("short", "medium", "long")
ARC_COLOURS = {"front": "44, 160, 44", "left": "31, 119, 180", "right": "148, 103, 189", "rear": "140, 86, 75"}
BAND_OPACITY = {"short": 0.42, "medium": 0.26, "long": 0.12}


@functools.lru_cache(maxsize=16)
def _layout(board: Board) -> tuple[Table, float]:
    """The table of ``board`` and the height of its mat in inches (for turning hexes into mm)."""
    cells = []
    for column in range(board.columns):
        for row in range(board.rows_in_column(column)):
            hex = board.from_offset(column, row)
            x, y = to_mm(hex, board.height_inches)
            cells.append(HexCell(x=x, y=y, label=f"{hex[0]},{hex[1]}",
                                 hover=f"hex {hex[0]},{hex[1]} · column {column}, row {row}"))
    table = Table(width=float(board.width_inches) * MM_PER_INCH, height=float(board.height_inches) * MM_PER_INCH,
                  hex_size=HEX_SIZE_MM, flat_top=True, cells=tuple(cells), name=board.name)
    return table, float(board.height_inches)


def to_mm(hex: Sequence[int], mat_height_inches: float) -> tuple[float, float]:
    """The centre of ``hex`` in table mm: column 0 touches the left edge, row 0 the top edge."""
    x, y = pixel_centre(Hex(hex[0], hex[1]))
    return (x + 2 / sqrt(3.0)) * MM_PER_INCH, (float(mat_height_inches) - 1 + y) * MM_PER_INCH


def hex_outline_mm(hex: Sequence[int], mat_height_inches: float) -> tuple[tuple[float, float], ...]:
    """The six corners of ``hex`` in table mm."""
    dx, dy = 2 / sqrt(3.0), float(mat_height_inches) - 1
    return tuple(((x + dx) * MM_PER_INCH, (y + dy) * MM_PER_INCH) for x, y in pixel_corners(Hex(hex[0], hex[1])))


def _clamped(point: tuple[float, float], table: Table) -> tuple[float, float]:
    margin = HEX_SIZE_MM / 2
    return (min(max(point[0], margin), table.width - margin), min(max(point[1], margin), table.height - margin))


def _profile_names(rules: Any) -> dict[str, str]:
    catalogue = getattr(rules, "catalogue", None)
    if catalogue is None:
        return {}
    return {pid: getattr(profile, "name", pid) for pid, profile in catalogue.aircraft.items()}


def aircraft_hover(aircraft: Any, model: str) -> str:
    """Hover text: id, side, type, Speed, Altitude, facing, Structure, status, Stall/Spin, Tailing."""
    starting = aircraft.starting_structure or aircraft.structure
    lines = [f"<b>{aircraft.id}</b> ({aircraft.owner})", model,
             f"Speed {aircraft.speed}, Altitude {aircraft.altitude}, facing {FACING_NAMES[aircraft.facing % 6]}",
             f"Structure {aircraft.structure}/{starting}", f"status: {aircraft.status}"]
    if aircraft.stalled:
        lines.append("<b>STALLED</b>")
    if aircraft.spinning:
        lines.append("<b>SPINNING</b>")
    if aircraft.tailing:
        lines.append(f"Tailing {aircraft.tailing}")
    return "<br>".join(lines)


def _piece(aircraft: Any, model: str, mat: float, table: Table) -> Piece | None:
    status = STATUS.get(aircraft.status)
    if status is None:  # in reserve or not yet deployed: not on the table
        return None
    x, y = _clamped(to_mm(aircraft.hex, mat), table)
    out = status in ("destroyed", "disengaged")
    tags = tuple(tag for tag, on in (("STALLED", aircraft.stalled), ("SPINNING", aircraft.spinning)) if on and not out)
    if aircraft.ground_defence:
        detail = "Ground Defence"
    elif out:
        detail = status
    else:
        detail = f"Alt {aircraft.altitude} · Spd {aircraft.speed}"
    return Piece(id=aircraft.id, side=aircraft.owner, label=aircraft.id, x=x, y=y, heading=60.0 * aircraft.facing,
                 footprint=Circle(radius=HEX_SIZE_MM * 0.45),
                 kind="ground defence" if aircraft.ground_defence else "aircraft",
                 level=None if out or aircraft.altitude < 0 else aircraft.altitude,
                 level_label=f"Altitude {aircraft.altitude}", status=status, hover=aircraft_hover(aircraft, model),
                 tags=tags, model=model, detail=detail)


def _paths(state: Any, events: Sequence[tuple[Any, Any, Any]], mat: float) -> tuple[PathFlown, ...]:
    """This turn's paths (``AircraftState.path``), from the hex each aircraft started its move in when the
    events since the previous scene show its activation."""
    starts = {}
    for envelope, before, _after in events:
        event = envelope.event
        if event.type_name() == "ai.AircraftActivated":
            aircraft = before.aircraft.get(event.aircraft)
            if aircraft is not None:
                starts[event.aircraft] = tuple(aircraft.hex)
    paths = []
    for aircraft in sorted(state.aircraft.values(), key=lambda a: a.id):
        if not aircraft.path or not aircraft.moved:
            continue
        hexes = ((starts[aircraft.id],) if aircraft.id in starts else ()) + tuple(aircraft.path)
        paths.append(PathFlown(piece=aircraft.id, side=aircraft.owner, label=f"{aircraft.id}'s path",
                               points=tuple(to_mm(hex, mat) for hex in hexes)))
    return tuple(paths)


def _lines_of_fire(events: Sequence[tuple[Any, Any, Any]], mat: float) -> tuple[LineOfFire, ...]:
    from .statistics import shot_records

    lines = []
    for shot in shot_records(events):
        if shot.from_hex is None or shot.to_hex is None:
            continue
        hit = shot.hits and not shot.negated
        outcome = "destroyed" if shot.destroyed else "hit" if hit else "miss"
        lines.append(LineOfFire(shooter=shot.firer, target=shot.target or "", start=to_mm(shot.from_hex, mat),
                                end=to_mm(shot.to_hex, mat), outcome=outcome,
                                label=shot.weapon.replace("_", " ").title(), hover=shot.describe(),
                                side=shot.firer_owner))
    return tuple(lines)


def _markers(state: Any, mat: float) -> tuple[Marker, ...]:
    markers = []
    for weapon in sorted(state.autonomous.values(), key=lambda w: w.id):
        x, y = to_mm(weapon.hex, mat)
        markers.append(Marker(kind="Autonomous weapon", x=x, y=y, heading=60.0 * weapon.facing, side=weapon.owner,
                              label=weapon.id, hover=f"{weapon.id}: {weapon.weapon.replace('_', ' ')} of "
                                                     f"{weapon.firer} ({weapon.owner}), facing "
                                                     f"{FACING_NAMES[weapon.facing % 6]}"))
    for target in state.ground_targets:
        x, y = to_mm(target.hex, mat)
        destroyed = target.id in state.ground_targets_destroyed
        markers.append(Marker(kind="ground target (destroyed)" if destroyed else "ground target", x=x, y=y,
                              side=target.owner, label=target.name,
                              hover=f"{target.name} ({target.id}), defended by {target.owner or 'nobody'}<br>"
                                    f"Structure {target.structure}, {target.victory_points} VP"
                                    + (" — DESTROYED" if destroyed else "")))
    return tuple(markers)


def _templates(state: Any, board: Board, mat: float, focus: str | None) -> tuple[Template, ...]:
    templates = []
    for feature in state.terrain:
        for hex in feature.hexes:
            templates.append(Template(kind="terrain", points=hex_outline_mm(hex, mat), label=feature.name,
                                      hover=f"{feature.name} (Altitude {feature.level})",
                                      colour="rgba(139, 115, 85, 0.45)"))
    for zone in state.landing_zones:
        for hex in board.hexes:
            if zone.contains(hex):
                templates.append(Template(kind="landing zone", points=hex_outline_mm(hex, mat), label=zone.name,
                                          hover=f"landing zone {zone.name}", colour="rgba(60, 160, 90, 0.25)"))
    if focus is not None:
        templates.extend(fire_arc_templates(state, board, focus, mat))
    return tuple(templates)


def fire_arc_templates(state: Any, board: Board, focus: str, mat: float) -> list[Template]:
    """The Fire Arcs and range bands of aircraft ``focus`` (p.21-22), one template per hex within Long range.

    A hex on the line between two arcs is in both (p.21); it is shaded with the first of Front, Left,
    Right, Rear. Kinds read "front arc, short range" and so on.
    """
    aircraft = state.aircraft.get(focus)
    if aircraft is None or not aircraft.in_play:
        return []
    pose = Pose(Hex(*aircraft.hex), aircraft.facing)
    q0, r0 = aircraft.hex
    templates = []
    for dq in range(-MAX_RANGE, MAX_RANGE + 1):
        for dr in range(max(-MAX_RANGE, -dq - MAX_RANGE), min(MAX_RANGE, -dq + MAX_RANGE) + 1):
            hex = Hex(q0 + dq, r0 + dr)
            band = range_between(pose.hex, hex)
            if band is None or not board.contains(hex):
                continue
            arcs = {arc.value for arc in arcs_containing(pose, hex)}
            first = next((arc for arc in ARC_ORDER if arc in arcs), None)
            if first is None:
                continue
            templates.append(Template(kind=f"{first} arc, {band.value} range", points=hex_outline_mm(hex, mat),
                                      label=focus, hover=f"{focus}: {first} arc, {band.value} range",
                                      colour=f"rgba({ARC_COLOURS[first]}, {BAND_OPACITY[band.value]})"))
    return templates


def aeronautica_scene(rules: Any, state: Any, viewer: str | None = None, events: Sequence[tuple[Any, Any, Any]] = (),
                      focus: str | None = None) -> Scene:
    """The scene of an Aeronautica ``state`` (see the module's docstring); ``rules`` names the aircraft types."""
    board = rules.board(state)
    table, mat = _layout(board)
    names = _profile_names(rules)
    pieces = []
    for aircraft in sorted(state.aircraft.values(), key=lambda a: a.id):
        piece = _piece(aircraft, names.get(aircraft.profile, aircraft.profile.replace("_", " ").title()), mat, table)
        if piece is not None:
            pieces.append(piece)
    links = []
    for aircraft in sorted(state.aircraft.values(), key=lambda a: a.id):
        target = state.aircraft.get(aircraft.tailing or "")
        if target is None or not aircraft.in_play or not target.in_play:
            continue
        links.append(Link(kind="Tailing", source=aircraft.id, target=target.id, start=to_mm(aircraft.hex, mat),
                          end=to_mm(target.hex, mat), hover=f"{aircraft.id} is Tailing {target.id}"))
    phase = state.phase.replace("_", " ")
    return Scene(table=table, pieces=tuple(pieces), markers=_markers(state, mat),
                 templates=_templates(state, board, mat, focus), paths=_paths(state, events, mat),
                 lines_of_fire=_lines_of_fire(events, mat), links=tuple(links), sides=tuple(state.players),
                 caption=f"Turn {state.turn}, {phase}", turn=state.turn)


# ---------------------------------------------------------------- replay steps

_FIRING_OPENERS = frozenset({"ai.VolleyDeclared", "ai.WeaponFired", "ai.AutonomousLaunched"})
_FIRING_PHASES = frozenset({"firing", "tailing_fire"})
_FIRED = frozenset({"ai.WeaponFired", "ai.AutonomousLaunched", "ai.AutonomousAttacked"})


def _looks(aircraft: Any) -> tuple:
    """What the board shows of an aircraft."""
    return (aircraft.hex, aircraft.facing, aircraft.speed, aircraft.altitude, aircraft.structure, aircraft.status,
            aircraft.stalled, aircraft.spinning, aircraft.tailing)


def board_changed(before: Any, after: Any) -> bool:
    """Whether anything the board shows differs between two states (identity tests first: cheap)."""
    if after is before:
        return False
    if (after.autonomous is not before.autonomous or after.ground_targets is not before.ground_targets
            or after.ground_targets_destroyed is not before.ground_targets_destroyed):
        return True
    if after.aircraft is before.aircraft:
        return False
    if after.aircraft.keys() != before.aircraft.keys():
        return True
    return any(_looks(aircraft) != _looks(before.aircraft[aircraft_id])
               for aircraft_id, aircraft in after.aircraft.items() if aircraft is not before.aircraft[aircraft_id])


class AeronauticaSteps(StepGrouping):
    """A frame per aircraft's movement (``AircraftActivated`` .. ``MovementEnded``, p.15), per volley that
    fired (``VolleyDeclared`` .. ``VolleyEnded``, p.20; a volley that held its fire and changed nothing is
    told with the next frame), per End phase (``PhaseBegan(end)`` .. ``TurnEnded``, p.29-30)."""

    def opens(self, envelope: Any, before: Any) -> tuple[str, str | None] | None:
        event = envelope.event
        name = event.type_name()
        if name == "ai.AircraftActivated":
            return "movement", event.aircraft
        if name in _FIRING_OPENERS and envelope.phase in _FIRING_PHASES:
            return "firing", getattr(event, "aircraft", None) or getattr(event, "firer", None)
        if name == "ai.PhaseBegan" and event.phase == "end":
            return "end", None
        return None

    def closes(self, kind: str, envelope: Any, following: Any | None) -> bool:
        name = envelope.event.type_name()
        return ((kind == "movement" and name == "ai.MovementEnded") or (kind == "firing" and name == "ai.VolleyEnded")
                or (kind == "end" and name == "ai.TurnEnded") or name == "ai.GameEnded")

    def title(self, kind: str, actor: str | None, envelopes: Sequence[Any]) -> str:
        if kind == "movement":
            return f"{actor} moves"
        if kind == "firing":
            volley = envelopes[0].event
            how = {"tailing": " (Tailing Fire)", "tail_gunner": " (Tail Gunner)"}.get(getattr(volley, "kind", ""), "")
            return f"{actor} fires{how}"
        return f"End phase of turn {envelopes[0].turn}"

    def keeps(self, kind: str, envelopes: Sequence[Any], changed: bool) -> bool:
        if kind == "firing":
            return changed or any(env.event.type_name() in _FIRED for env in envelopes)
        return True

    def changed(self, before: Any, after: Any) -> bool | None:
        return board_changed(before, after)


# ---------------------------------------------------------------- the report's own sections


def report_sections(rules: Any, timeline: Any) -> list[Any]:
    """Aeronautica's sections of the post-match report: per aircraft (shots, hits, Structure taken and lost,
    Tailing, Stalls, Spins, p.17-30), damage over turns, and luck against the odds of p.7."""
    from aero_events.analysis import charts
    from aero_events.analysis.luck import luck_summary, luck_table
    from aero_events.analysis.tables import table_html
    from aero_events.core.scene import ReportSection
    from aero_events.viz import style

    from .statistics import aircraft_stats, damage_by_turn, game_shots

    colours = style.side_colours(timeline.players)
    shots = game_shots(timeline)
    aircraft = aircraft_stats(timeline, shots)
    names = _profile_names(rules)
    profiles = [names.get(p, p) for p in aircraft.column("profile").to_pylist()]
    aircraft = aircraft.set_column(aircraft.column_names.index("profile"), "profile", [profiles])
    luck = luck_table(timeline)
    return [
        ReportSection(title="Per aircraft", html=table_html(aircraft, title="What each aircraft did")),
        ReportSection(title="Damage over turns", figure=charts.damage_figure(damage_by_turn(timeline, shots), colours)),
        ReportSection(title="Luck", figure=charts.luck_figure(luck, colours, charts.turn_starts(timeline)),
                      html=table_html(luck_summary(luck), title="Luck by player and kind of roll (p.7: a natural 1 "
                                                                "always fails)")),
    ]
