"""The scene of a Million-Colored Sun state (core/scene.py): models as round bases, terrain, flight paths, missiles
as markers, bomb and missile blasts as templates, lines of fire; off-board models drawn at the edge, "off-table"."""

from __future__ import annotations

from aero_events.core.scene import Circle, LineOfFire, Marker, PathFlown, Piece, Scene, Table, Template
from aero_events.table import scatter

from .state import ACTIVE, OFF_TABLE

MM = 100


def _mm(value: int) -> float:
    return value / MM


def _ring(x: int, y: int, radius: int) -> tuple[tuple[float, float], ...]:
    return tuple((_mm(px), _mm(py)) for px, py in (scatter((x, y), angle, radius) for angle in range(0, 36000, 1500)))


def _focus(rules, state, model) -> list[Template]:
    """What matters for a model pointed at: its weapons' reach and, when AIRBORNE, its rear arc."""
    scroll = rules.warscroll(model)
    radius = scroll.base_radius
    shown = []
    reach = max((w.range for w in scroll.weapons if w.kind == "missile"), default=0)
    if reach:
        shown.append(Template(kind="weapon range", points=_ring(model.x, model.y, reach + radius), side=model.side,
                              label=f"{model.id}: {reach / 2540:g}\" range"))
    if model.airborne:
        half = rules.options.rear_arc_degrees * 50
        tail = model.heading + 18000
        edge = [scatter(model.position, (tail + angle) % 36000, 12 * 2540) for angle in range(-half, half + 1, 500)]
        shown.append(Template(kind="rear arc", points=tuple((_mm(x), _mm(y)) for x, y in (model.position, *edge)),
                              side=model.side, label=f"{model.id}: rear arc (Vulnerable to Tail Attacks)"))
    return shown


def action_name(action: str | None) -> str:
    """An AIRBORNE ACTION as the rules print it ("BOMBING RUN", p.27), not its command id ("bombing-run")."""
    return (action or "").replace("-", " ").replace("_", " ").upper()


def scene(rules, state, viewer: str | None = None, focus: str | None = None) -> Scene:
    pieces, markers, templates = [], [], []
    for terrain in sorted(state.terrain.values(), key=lambda t: t.id):
        kind = "terrain (destroyed)" if terrain.destroyed else ("terrain (too tall)" if terrain.too_tall else "terrain")
        templates.append(Template(kind=kind, points=_ring(terrain.x, terrain.y, terrain.radius), label=terrain.name,
                                  hover=f"{terrain.name}: {terrain.height / 2540:g}\" high"
                                        + (", destroyed" if terrain.destroyed else "")))
    plan = rules.data.battleplans[state.battleplan]
    templates.append(Template(kind="objective", points=_ring(plan.objective.x, plan.objective.y, plan.objective.radius),
                              label="objective"))
    for model in sorted(state.models.values(), key=lambda m: m.id):
        scroll = rules.warscroll(model)
        if scroll.missile:
            if model.status == ACTIVE:
                markers.append(Marker(kind="missile", x=_mm(model.x), y=_mm(model.y), heading=model.heading / 100,
                                      shape=Circle(radius=_mm(scroll.base_radius)), label=model.id, side=model.side,
                                      hover=f"{model.id} ({model.side}): {scroll.name}, heading "
                                            f"{model.heading / 100:g}°"
                                            + (f", launched in player turn {model.launched_turn}"
                                               if model.launched_turn is not None else "")))
            continue
        if model.status not in (ACTIVE, OFF_TABLE):
            status = "destroyed"
        else:
            status = model.status
        # Rings mark what changes how a model is attacked (its mode, Blast Markers on it); the action it took and
        # the number of markers are words in its detail line, so a few rings stay distinct on the board.
        tags = tuple(t for t in (model.mode.upper() if model.mode != "ground" else "",
                                 "Blast Markers" if model.blast_markers else "") if t)
        detail = " · ".join(part for part in (f"W {scroll.wounds - model.wounds_taken}/{scroll.wounds}",
                                              f"{model.blast_markers} Blast" if model.blast_markers else "",
                                              action_name(model.action)) if part)
        wounds = scroll.wounds - model.wounds_taken
        pieces.append(Piece(id=model.id, side=model.side, label=model.id, x=_mm(model.x), y=_mm(model.y),
                            heading=model.heading / 100, footprint=Circle(radius=_mm(scroll.base_radius)),
                            kind="airborne" if model.airborne else model.mode, status=status, model=scroll.name,
                            detail=detail, tags=tags,
                            hover=f"{scroll.name}: Wounds {wounds}/{scroll.wounds}, Save {scroll.save}+, "
                                  f"Initiative {scroll.initiative}+, mode {model.mode}"
                                  + (f", {model.blast_markers} Blast Markers" if model.blast_markers else "")
                                  + (f", action {action_name(model.action)}" if model.action else "")))
    focused = state.models.get(focus) if focus else None
    if focused is not None and focused.status == ACTIVE:
        templates.extend(_focus(rules, state, focused))
    for blast in state.blasts:
        templates.append(Template(kind=f"{blast.kind} blast", points=_ring(blast.x, blast.y, blast.radius),
                                  label=blast.label))
    paths = tuple(PathFlown(piece=p.model, points=tuple((_mm(x), _mm(y)) for x, y in p.points),
                            side=state.models[p.model].side) for p in state.paths)
    lines = tuple(LineOfFire(shooter=s.shooter, target=s.target, start=(_mm(s.start[0]), _mm(s.start[1])),
                             end=(_mm(s.end[0]), _mm(s.end[1])), outcome=s.outcome, side=state.models[s.shooter].side)
                  for s in state.shots)
    caption = f"Battle round {state.round}, {state.active or ''} {state.phase}".replace("  ", " ")
    return Scene(table=Table(width=_mm(state.width), height=_mm(state.height), name=plan.name), pieces=tuple(pieces),
                 markers=tuple(markers), templates=tuple(templates), paths=paths, lines_of_fire=lines,
                 sides=state.players, caption=caption, turn=state.round)
