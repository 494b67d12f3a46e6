"""Damage (p.23-26): shields and Blast markers, Brace for Impact saves, damage points, crippling, critical
hits, catastrophic damage, hulks and exploding ships.

Order of a hit's resolution (p.23-25): shields absorb one hit each while fewer Blast markers touch the base
than it has shields (each absorbed hit leaves a marker facing the attack, p.25); hits past the shields are
saved on 4+ if the ship is braced (p.23; hits on shields cannot be saved); every remaining hit is a damage
point and rolls a D6, a 6 being a critical hit (p.24). Criticals' extra damage rolls no further criticals.
A ship with no damage points left is out of action: escorts are removed and leave a Blast marker, capital
ships roll on the Catastrophic Damage table (p.26).

Choices, documented:

* Shields work against lances, batteries, nova cannon and the lance shots of exploding ships (p.25: lances).
* A ship's damage is counted up to its Hits: overkill is not recorded (it scores nothing in the Cruiser Clash).
* Ships caught by an explosion: those whose base is within the 3D6 cm radius of the wreck's stem, struck in
  order of distance (then name); their own catastrophic damage follows at once (depth first). Each victim's
  player may be offered Brace for Impact before its dice (``brace_window``, ``run_strikes``).
* A hulk that suffers hits rolls on the Catastrophic Damage table again once per attack (``RuleOptions.
  hulk_rolls`` = "per_attack"; "per_hit" reads p.26 as one roll per hit).
* Blast markers from shield hits sit on a ring touching the base, the first on the line towards the
  attacker, the rest alternating either side so that none overlaps (not stacked, p.25) and none touches a
  ship not in base contact with the one hit (p.25); markers from an explosion are one on the stem and the
  rest in rings around it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aero_events.core import DiceCup

from . import events as ev
from . import geometry
from . import ships as sh
from .data import CM
from .state import ACTIVE, BLAZING_HULK, DESTROYED, DRIFTING_HULK, ORDNANCE, GameState, ShipState

if TYPE_CHECKING:
    from .ruleset import BattlefleetGothicRules
    from .turn import Emitter

SHIELDED = ("battery", "lance", "nova", "explosion")


def place_blast_markers(rules: BattlefleetGothicRules, out: Emitter, ship: ShipState, count: int, towards: int,
                        reason: str) -> None:
    """``count`` markers touching ``ship``'s base, facing ``towards`` (1/100 degree) as much as possible (p.25)."""
    cls = rules.ship_class(ship)
    marker_radius = rules.data.length("blast_marker_radius_cm")
    ring = sh.base_radius(rules, cls) + marker_radius
    step = geometry.ring_step(ring, marker_radius)
    offsets = [0]
    k = 1
    while k * step <= 18000:
        offsets += [k * step, -k * step]
        k += 1
    radius = sh.base_radius(rules, cls)
    others = [(o.position, sh.base_radius(rules, rules.ship_class(o))) for o in out.state.ships.values()
              if o.id != ship.id and o.on_table]
    # p.25: a marker may touch the bases of up to three ships, but only ships in base contact with this one.
    apart = [(p, r) for p, r in others if not geometry.within(ship.position, p, radius + r)]
    for _ in range(count):
        spot = None
        for offset in offsets:
            candidate = geometry.ring_position(ship.position, towards, ring, offset)
            if all(not geometry.within(candidate, m.position, 2 * marker_radius - 1)
                   for m in out.state.blast_markers.values()) and \
                    all(not geometry.within(candidate, p, r + marker_radius) for p, r in apart):
                spot = candidate
                break
        if spot is None:  # the ring is full: stack on the line of the attack
            spot = geometry.ring_position(ship.position, towards, ring, 0)
        out.emit(ev.BlastMarkerPlaced(marker=out.state.next_id, x=spot[0], y=spot[1], reason=reason))


def place_blast_cloud(rules: BattlefleetGothicRules, out: Emitter, centre: tuple[int, int], count: int,
                      reason: str) -> None:
    """Markers left by a destroyed ship or a nova cannon miss: one on the point, the rest in rings around it."""
    marker_radius = rules.data.length("blast_marker_radius_cm")
    placed = 0
    ring = 0
    while placed < count:
        if ring == 0:
            spots = [centre]
        else:
            radius = 2 * marker_radius * ring
            step = geometry.ring_step(radius, marker_radius)
            spots = [geometry.ring_position(centre, 0, radius, k * step) for k in range(36000 // step)]
        for spot in spots:
            if placed == count:
                break
            out.emit(ev.BlastMarkerPlaced(marker=out.state.next_id, x=spot[0], y=spot[1], reason=reason))
            placed += 1
        ring += 1


def resolve_hits(rules: BattlefleetGothicRules, out: Emitter, dice: DiceCup, target_id: str, hits: int,
                 kind: str, source: tuple[int, int], attacker: str) -> None:
    """Apply ``hits`` of an attack of ``kind`` coming from ``source`` (p.23-26)."""
    if hits <= 0:
        return
    ship = out.state.ships[target_id]
    if not ship.on_table:
        return
    if ship.hulk:
        rolls = hits if rules.options.hulk_rolls == "per_hit" else 1
        for _ in range(rolls):
            if out.state.ships[target_id].hulk:
                catastrophic(rules, out, dice, target_id)
        return
    cls = rules.ship_class(ship)
    if kind in SHIELDED:
        up = max(0, sh.shields(rules, cls, ship) - len(sh.ship_markers(rules, out.state, ship)))
        absorbed = min(up, hits)
        if absorbed:
            out.emit(ev.HitsAbsorbed(ship=target_id, hits=absorbed))
            place_blast_markers(rules, out, ship, absorbed, geometry.bearing(ship.position, source), "shields")
            hits -= absorbed
    hits = brace_saves(out, dice, ship, hits)
    if hits:
        damage_points(rules, out, dice, target_id, hits, kind)


def brace_saves(out: Emitter, dice: DiceCup, ship: ShipState, hits: int) -> int:
    """Brace for Impact (p.23): a braced ship saves each hit it suffers on a 4+; returns the hits left. A ship
    that is not braced (or no hit) rolls nothing."""
    if not hits or not ship.braced:
        return hits
    saves = dice.roll(hits, purpose="brace for impact saves", roller=ship.side, target=4)
    out.emit(saves)
    saved = sum(1 for face in saves.faces if face >= 4)
    out.emit(ev.HitsSaved(ship=ship.id, hits=hits, saved=saved))
    return hits - saved


def damage_points(rules: BattlefleetGothicRules, out: Emitter, dice: DiceCup, ship_id: str, amount: int,
                  source: str, criticals: bool = True) -> None:
    """Damage points on the hull (p.23), each rolling for a critical on a 6 (p.24) unless ``criticals`` is
    False (damage caused by a critical hit, p.24)."""
    ship = out.state.ships[ship_id]
    if ship.status != ACTIVE or amount <= 0:
        return
    cls = rules.ship_class(ship)
    was_crippled = sh.crippled(cls, ship)
    total = min(cls.hits, ship.damage + amount)
    out.emit(ev.DamageTaken(ship=ship_id, amount=amount, damage=total, source=source))
    if not was_crippled and sh.crippled(cls, out.state.ships[ship_id]):
        out.emit(ev.ShipCrippled(ship=ship_id))
    if criticals:
        roll = dice.roll(amount, purpose="critical hit check", roller=ship.side, target=6)
        out.emit(roll)
        for face in roll.faces:
            if face == 6 and out.state.ships[ship_id].status == ACTIVE:
                critical_hit(rules, out, dice, ship_id)
    check_out_of_action(rules, out, dice, ship_id)


def critical_applies(rules: BattlefleetGothicRules, cls, ship: ShipState, critical: str) -> bool:
    """Can this critical be applied (p.24 notes)? Armament of a location the ship lacks cannot; a second
    unrepairable critical of the same kind cannot."""
    row = rules.critical_row(critical)
    if critical.endswith("_armament"):
        location = critical.removesuffix("_armament")
        locations = {location, "keel"} if location == "dorsal" else {location}
        return any(w.location in locations for w in cls.weapons)
    if critical == "shields_collapse" and cls.shields == 0:
        return False
    return not (not row.repairable and critical in ship.criticals and row.extra == "0")


def critical_hit(rules: BattlefleetGothicRules, out: Emitter, dice: DiceCup, ship_id: str) -> None:
    """Roll 2D6 on the Critical Hits table (p.24); escorts are destroyed by any critical (p.24)."""
    ship = out.state.ships[ship_id]
    cls = rules.ship_class(ship)
    roll = dice.roll(2, purpose="critical hits table", roller=ship.side)
    out.emit(roll)
    if not cls.capital:
        out.emit(ev.CriticalHit(ship=ship_id, roll=roll.total, critical="escort destroyed", extra=0))
        destroy_escort(rules, out, ship_id, "critical hit")
        return
    result = roll.total
    while result < 12 and not critical_applies(rules, cls, ship, rules.critical_by_roll(result).id):
        result += 1  # p.24: apply the next highest critical instead
    row = rules.critical_by_roll(result)
    extra = {"0": 0, "1": 1}.get(row.extra)
    if extra is None:
        extra_roll = dice.d3(purpose="critical extra damage", roller=ship.side) if row.extra == "D3" else \
            dice.roll(1, purpose="critical extra damage", roller=ship.side)
        out.emit(extra_roll)
        extra = extra_roll.total
    out.emit(ev.CriticalHit(ship=ship_id, roll=roll.total, critical=row.id, extra=extra))
    if extra:
        damage_points(rules, out, dice, ship_id, extra, f"critical: {row.name}", criticals=False)


def check_out_of_action(rules: BattlefleetGothicRules, out: Emitter, dice: DiceCup, ship_id: str) -> None:
    ship = out.state.ships[ship_id]
    cls = rules.ship_class(ship)
    if ship.status != ACTIVE or ship.damage < cls.hits:
        return
    if not cls.capital:
        destroy_escort(rules, out, ship_id, "out of action")
    else:
        catastrophic(rules, out, dice, ship_id)


def destroy_escort(rules: BattlefleetGothicRules, out: Emitter, ship_id: str, reason: str) -> None:
    """An escort out of action is removed and replaced by a Blast marker (p.26)."""
    ship = out.state.ships[ship_id]
    out.emit(ev.ShipDestroyed(ship=ship_id, reason=reason))
    place_blast_cloud(rules, out, ship.position, 1, "escort destroyed")


def catastrophic(rules: BattlefleetGothicRules, out: Emitter, dice: DiceCup, ship_id: str) -> None:
    """The Catastrophic Damage table (p.26)."""
    ship = out.state.ships[ship_id]
    cls = rules.ship_class(ship)
    roll = dice.roll(2, purpose="catastrophic damage", roller=ship.side)
    out.emit(roll)
    row = next(r for r in rules.data.tables.catastrophic.rows if r.low <= roll.total <= r.high)
    if row.id in ("drifting_hulk", "blazing_hulk"):
        status = DRIFTING_HULK if row.id == "drifting_hulk" else BLAZING_HULK
        out.emit(ev.CatastrophicDamage(ship=ship_id, roll=roll.total, result=row.name, status=status))
        place_blast_markers(rules, out, out.state.ships[ship_id], 1, ship.heading + 18000, row.name)
        return
    strength = sh.half(cls.hits) if row.id == "plasma_drive_overload" else cls.hits
    radius_roll = dice.roll(3, purpose="explosion radius", roller=ship.side)
    out.emit(radius_roll)
    radius = radius_roll.total * CM
    out.emit(ev.CatastrophicDamage(ship=ship_id, roll=roll.total, result=row.name, status=DESTROYED, radius=radius))
    place_blast_cloud(rules, out, ship.position, strength, row.name)
    explode(rules, out, dice, ship, radius, strength)


def caught_in(rules: BattlefleetGothicRules, state: GameState, centre: tuple[int, int], radius: int,
              exclude: str) -> list[ShipState]:
    found = []
    for other in state.ships.values():
        if other.id == exclude or not other.on_table:
            continue
        reach = radius + sh.base_radius(rules, rules.ship_class(other))
        if geometry.within(centre, other.position, reach):
            found.append(other)
    return sorted(found, key=lambda s: (geometry.distance_sq(centre, s.position), s.id))


def explode(rules: BattlefleetGothicRules, out: Emitter, dice: DiceCup, wreck: ShipState, radius: int,
            strength: int) -> None:
    """Every ship within the radius is struck by lance shots of ``strength``, 4+ to hit (p.26). The strikes
    wait in ``GameState.strikes`` (nearest first, a new explosion before the rest of an older one), so that
    each victim's player may brace before its dice (``run_strikes``)."""
    victims = tuple(v.id for v in caught_in(rules, out.state, wreck.position, radius, wreck.id))
    if victims:
        out.emit(ev.ExplosionStrikesQueued(wreck=wreck.id, side=wreck.side, victims=victims, strength=strength,
                                           x=wreck.x, y=wreck.y))
    run_strikes(rules, out, dice)


def brace_window(rules: BattlefleetGothicRules, state: GameState, ship: ShipState) -> bool:
    """May a Brace for Impact window open before damage that is not the other player's shooting or ordnance
    (an exploding ship, p.26; Blast markers, p.25)?

    * ``brace_against="any_damage"`` (default): p.23 "ANY time a ship faces taking damage but before the
      result is rolled"; "enemy_attacks": p.11 "against any hits inflicted on it by the enemy", so never.
    * Timing, ``brace_timing``: "reaction" (default), p.11 "only during the ordnance phase or during an
      opponent's turn"; "any_time", p.12 "at any time during either player's turn".
    """
    options = rules.options
    if not options.brace_reactions or options.brace_against != "any_damage" or ship.status != ACTIVE:
        return False
    return options.brace_timing == "any_time" or state.phase == ORDNANCE or state.active != ship.side


def run_strikes(rules: BattlefleetGothicRules, out: Emitter, dice: DiceCup) -> None:
    """Roll the waiting explosion strikes in order, stopping when a Brace window opens (p.23, p.26)."""
    from .shooting import offer_reaction

    while out.state.strikes and out.state.pending is None:
        strike = out.state.strikes[0]
        victim = out.state.ships.get(strike.victim)
        if victim is None or not victim.on_table:
            out.emit(ev.ExplosionStrikeTaken())
            continue
        if not strike.offered and brace_window(rules, out.state, victim):
            out.emit(ev.ExplosionStrikeOffered())
            if offer_reaction(rules, out, victim.id, strike.wreck, "explosion"):
                return
        out.emit(ev.ExplosionStrikeTaken())
        roll = dice.roll(strike.strength, purpose="explosion lance shots", roller=strike.side, target=4)
        out.emit(roll)
        hits = sum(1 for face in roll.faces if face >= 4)
        out.emit(ev.LancesResolved(ship=strike.wreck, target=victim.id, strength=strike.strength, needed=4,
                                   hits=hits))
        resolve_hits(rules, out, dice, victim.id, hits, "explosion", (strike.x, strike.y), strike.wreck)
