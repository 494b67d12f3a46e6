"""The scene of a Battlefleet Gothic state (core/scene.py): bases with facing, fire arcs, Blast markers,
torpedo salvoes, the nova template, paths and lines of fire, on the table in millimetres."""

from __future__ import annotations

from aero_events.core.scene import Circle, LineOfFire, Marker, PathFlown, Piece, Rect, Scene, Table, Template

from . import geometry
from . import ships as sh
from .data import CM, DEGREE
from .state import DISENGAGED

MM = 100  # engine units per millimetre


def _mm(value: int) -> float:
    return value / MM


def _arc(ship, radius: int, centre: int) -> tuple[tuple[float, float], ...]:
    points = [(_mm(ship.x), _mm(ship.y))]
    for offset in range(-4500, 4501, 1500):
        dx, dy = geometry.forward(ship.heading + centre + offset, radius)
        points.append((_mm(ship.x + dx), _mm(ship.y + dy)))
    return tuple(points)


def ship_tags(rules, ship) -> tuple[str, ...]:
    """The flags printed beside a ship: its special order in capitals as the rulebook prints it ("LOCK ON",
    p.14), then its critical damage by the table's name ("Shields Collapsed", p.24), never a raw data id."""
    names = {row.id: row.name for row in rules.data.tables.criticals.rows}
    order = (ship.order.upper(),) if ship.order else ()
    return order + tuple(names.get(critical, critical.replace("_", " ")) for critical in ship.criticals)


def scene(rules, state, viewer: str | None = None, focus: str | None = None) -> Scene:
    """Fire arcs (p.8) are shaded for the ``focus`` ship only: six ships' overlapping quadrants out to 45 cm
    cover the whole table and hide the bases, Blast markers and lines of fire a player reads first."""
    pieces = []
    templates = []
    names = {ship.id: ship.name for ship in state.ships.values()}
    for ship in sorted(state.ships.values(), key=lambda s: s.id):
        # Destroyed and disengaged ships stay in the scene at their last place, drawn as out of play
        # (core/scene.py), so a player sees where each was lost rather than a ship that vanished.
        cls = rules.ship_class(ship)
        status = ship.status if ship.status != "active" else ("crippled" if sh.crippled(cls, ship) else "active")
        tags = ship_tags(rules, ship)
        hover = (f"{ship.name} ({cls.name}, {cls.type}): Ld {ship.leadership}, damage {ship.damage}/{cls.hits}"
                 f"{' (crippled)' if status == 'crippled' else ''}, shields {sh.shields(rules, cls, ship)}, "
                 f"armour {cls.armour_front}+ prow / {cls.armour}+"
                 + "".join(f"; {tag}" for tag in tags))
        x, y = ship.x, ship.y
        if ship.status == DISENGAGED:  # drawn on the edge it left by, however far its last move carried it
            x, y = min(max(x, 0), state.table[0]), min(max(y, 0), state.table[1])
        pieces.append(Piece(id=ship.id, side=ship.side, label=ship.name, x=_mm(x), y=_mm(y),
                            heading=ship.heading / DEGREE, footprint=Circle(radius=_mm(sh.base_radius(rules, cls))),
                            kind=cls.type, status=status, hover=hover, tags=tags, model=cls.name,
                            detail=f"damage {ship.damage}/{cls.hits}" + (f", {status}" if status != "active" else "")))
        if ship.status == "active" and focus == ship.id:
            reach = max((w.range_cm for w in cls.weapons if w.kind in ("battery", "lance")), default=0) * CM
            arcs = {arc for w in cls.weapons if w.kind in ("battery", "lance") for arc in w.arcs}
            for arc, centre in (("front", 0), ("right", 9000), ("rear", 18000), ("left", 27000)):
                if arc in arcs:
                    templates.append(Template(kind=f"fire arc {arc}", points=_arc(ship, reach, centre),
                                              side=ship.side, label=f"{ship.name} {arc} arc"))
    radius = _mm(rules.data.length("blast_marker_radius_cm"))
    markers = [Marker(kind="blast marker", x=_mm(m.x), y=_mm(m.y), shape=Circle(radius=radius), label=str(mid),
                      hover=f"Blast marker {mid}: each one touching a base stops one shield; a ship that "
                            "meets one slows by 5 cm; fire through it shifts one column right (p.20, p.25)")
               for mid, m in sorted(state.blast_markers.items(), key=lambda item: int(item[0]))]
    width = _mm(rules.data.length("torpedo_width_cm"))
    craft = rules.data.ordnance["craft_marker_radius_cm"].value * 10
    for marker in sorted(state.ordnance.values(), key=lambda m: m.id):
        if marker.kind == "attack craft":
            markers.append(Marker(kind="attack craft", x=_mm(marker.x), y=_mm(marker.y), shape=Circle(radius=craft),
                                  side=marker.side, label=f"{marker.fighters}F {marker.bombers}B"
                                  + (f" {marker.assault_boats}A" if marker.assault_boats else ""),
                                  hover=f"wave: {marker.fighters} fighter, {marker.bombers} bomber, "
                                        f"{marker.assault_boats} assault boat squadrons"))
            continue
        markers.append(Marker(kind="torpedoes", x=_mm(marker.x), y=_mm(marker.y), heading=marker.heading / DEGREE,
                              shape=Rect(width=width, length=width / 2), side=marker.side,
                              label=f"{marker.strength}",
                              hover=f"{'' if marker.torpedo_kind == 'standard' else marker.torpedo_kind + ' '}"
                                    f"torpedo salvo strength {marker.strength}"))
    paths = tuple(PathFlown(piece=sid, points=tuple((_mm(x), _mm(y)) for x, y in points))
                  for sid, points in sorted(state.paths.items()))
    lines = tuple(LineOfFire(shooter=s.shooter, target=s.target, start=(_mm(s.start[0]), _mm(s.start[1])),
                             end=(_mm(s.end[0]), _mm(s.end[1])), outcome=s.outcome,
                             hover=f"{names.get(s.shooter, s.shooter)} fires at {names.get(s.target, s.target)}: "
                                   f"{s.outcome}",
                             side=state.ships[s.shooter].side if s.shooter in state.ships else None)
                  for s in state.shots)
    caption = f"Turn {state.round}, {state.active or ''} {state.phase}".strip()
    return Scene(table=Table(width=_mm(state.table[0]), height=_mm(state.table[1]), name="space"),
                 pieces=tuple(pieces), markers=tuple(markers), templates=tuple(templates), paths=paths,
                 lines_of_fire=lines, sides=state.players, caption=caption)
