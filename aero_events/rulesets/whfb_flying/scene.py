"""The scene of a state (core/scene.py): units as ranked rectangular footprints with their facing, units in the
air marked (level 1, "in the air (10\")", tag AIR), terrain as templates, this turn's paths (a Swoop's two
legs as one path) and lines of fire."""

from __future__ import annotations

from msgspec.structs import replace

from aero_events.core.scene import Circle, LineOfFire, Marker, PathFlown, Piece, Rect, Scene, Table, Template
from aero_events.table import centre, to_mm

from .geometry import footprint, ranks, terrain_rect
from .state import ACTIVE, DESTROYED, FLED, FLOWN_HIGH

STATUS = {ACTIVE: "active", DESTROYED: "destroyed", FLED: "off-table", FLOWN_HIGH: "disengaged"}


def _pt(point) -> tuple[float, float]:
    return (to_mm(point[0]), to_mm(point[1]))


def scene(rules, state, viewer: str | None = None, focus: str | None = None) -> Scene:
    templates = []
    for piece in state.terrain:
        rect = terrain_rect(piece)
        templates.append(Template(kind=f"terrain: {piece.kind}", points=tuple(_pt(p) for p in rect.corners()),
                                  label=piece.name, hover=f"{piece.name} ({piece.kind}, cover {piece.cover})"))
    pieces = []
    for unit in sorted(state.units.values(), key=lambda u: u.id):
        profile = rules.profile(unit)
        rect = footprint(unit if unit.models else replace(unit, models=1), profile)
        host = state.units.get(unit.joined) if unit.joined else None
        if host is not None:  # a character inside a unit is drawn at the unit's centre, its own size
            rect = footprint(replace(unit, pose=host.pose), profile)
            rect = replace(rect, pose=replace(rect.pose, x=centre(footprint(host, rules.profile(host)))[0],
                                              y=centre(footprint(host, rules.profile(host)))[1]))
        x, y = _pt(centre(rect))
        # Rings mark states that change how the unit is fought (in the air, its fly move, fleeing, fallen); the
        # unit a character has joined is a word in its line, not a ring of its own for every unit joined.
        tags = tuple(t for t in ("AIR" if unit.in_air and unit.in_play else "",
                                 unit.flight.upper() if unit.flight else "",
                                 "FLEEING" if unit.fleeing else "", "FALLEN" if unit.fell else "") if t)
        stats = profile.profile
        pieces.append(Piece(
            id=unit.id, side=unit.side, label=unit.id, x=x, y=y, heading=unit.pose.heading / 100,
            footprint=Rect(width=to_mm(rect.width), length=to_mm(rect.length)), kind="unit",
            level=(1 if unit.in_air else 0) if unit.in_play else None,
            level_label="in the air (10\")" if unit.in_air else "on the ground",
            status=STATUS.get(unit.status, unit.status), model=profile.name, tags=tags,
            detail=f"{unit.models} model{'' if unit.models == 1 else 's'}, "
                   f"{min(unit.files, unit.models)}x{ranks(unit) if unit.models else 0}"
                   + (f" · with {unit.joined}" if unit.joined else ""),
            hover=f"{profile.name}: M{stats.M} WS{stats.WS} BS{stats.BS} S{stats.S} T{stats.T} W{stats.W} "
                  f"I{stats.I} A{stats.A} Ld{stats.Ld}, save {profile.save}+; {unit.models} model"
                  f"{'' if unit.models == 1 else 's'}"
                  f"{', in the air' if unit.in_air else ''}"
                  f"{', fell from the air' if unit.fell else ''}"
                  f"{', -1 I and -1 CR until its next turn' if unit.fell and state.turn_count <= unit.fallen_until else ''}"
                  f"{f', joined to {unit.joined}' if unit.joined else ''}"))
    markers: list[Marker] = []
    paths: list[PathFlown] = []
    for drawn in state.paths:
        points = tuple(_pt(p) for p in drawn.points)
        side = state.units[drawn.unit].side
        if drawn.label == "swoop exit":
            legs = [i for i, p in enumerate(paths) if p.piece == drawn.unit and p.label == "swoop"]
            if legs:  # a Swoop is drawn as one path: in to the flank, then out beyond the far flank
                first = paths[legs[-1]]
                paths[legs[-1]] = PathFlown(piece=drawn.unit, points=first.points + points[1:], label="swoop",
                                            side=side)
                continue
        paths.append(PathFlown(piece=drawn.unit, points=points, label=drawn.label, side=side))
    lines = tuple(LineOfFire(shooter=s.unit, target=s.target, start=_pt(s.points[0]), end=_pt(s.points[1]),
                             outcome=s.outcome, label=s.label, side=state.units[s.unit].side) for s in state.shots)
    for spot in state.templates:  # a direct damage spell's round template (Magic Phase)
        x, y = _pt(spot.centre)
        level = "in the air, 10 inches up" if spot.in_air else "on the ground"
        markers.append(Marker(kind="spell template", x=x, y=y, shape=Circle(radius=to_mm(spot.radius)),
                              label=spot.label, side=state.units[spot.unit].side,
                              hover=f"{spot.label} ({level})"))
    caption = f"Turn {state.turn}, {state.active or ''} {state.phase}".replace("  ", " ")
    return Scene(table=Table(width=to_mm(state.width), height=to_mm(state.height), name=state.scenario),
                 pieces=tuple(pieces), templates=tuple(templates), paths=tuple(paths), lines_of_fire=lines, markers=tuple(markers),
                 sides=state.players, caption=caption, turn=state.turn)
