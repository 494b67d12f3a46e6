"""The shooting phase (p.18-22): range, fire arcs, target priority, lances, weapons batteries and the Gunnery
table, column shifts, splitting fire, Lock On, half effect under orders, the nova cannon, shooting at
ordnance, and the reaction window that lets the target Brace for Impact before the dice are rolled (p.23).

Choices, documented:

* Target priority (p.19): the closest enemy ships (all that are equally close; hulks may be ignored, p.26)
  may be shot at freely. Weapons that could bear on a closest enemy need a passed Leadership test to fire at
  anything else; weapons that cannot bear on any closest enemy (unengaged, p.19) fire at others freely.
  A failed test forbids that target to this ship for the phase; the weapons stay unfired.
* Batteries and lances fired together at one target resolve batteries first, then lances.
* Line of fire: from stem to stem; it passes through a Blast marker when the segment comes within the
  marker's radius (p.25); it is blocked when it crosses the base of a hulk that is not the target (p.26).
* The nova cannon template is placed with its centre in the front arc and its whole edge 30-150 cm from the
  stem (p.21); the scatter die shows Hit on 2 faces of 6 (``core.dice.ScatterDie``); an arrow's direction
  is the core's direction roll (1/100 degree). A failed Leadership test to aim away from the closest
  target spends the shot. The Brace window opens for the enemy ship nearest the aim point under the template.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aero_events.core import DiceCup, RuleError
from aero_events.core.dice import ScatterDie
from aero_events.core.orders import open_window

from . import damage, geometry
from . import events as ev
from . import ships as sh
from .commands import EndShooting, FireNovaCannon, FireWeapons
from .data import CM, Weapon
from .orders import leadership_test
from .state import ACTIVE, BRACE_FOR_IMPACT, HALF_EFFECT_ORDERS, LOCK_ON, SHOOTING, GameState, ShipState

if TYPE_CHECKING:
    from .ruleset import BattlefleetGothicRules
    from .turn import Emitter

DIRECT_FIRE = ("battery", "lance")


# ---------------------------------------------------------------- targets

def closest_enemies(state: GameState, ship: ShipState) -> list[ShipState]:
    """The nearest enemy ships (p.19), hulks ignored (p.26); all equally near count, and every ship of the
    nearest ship's squadron."""
    enemies = [s for s in state.ships.values() if s.side != ship.side and s.status == ACTIVE]
    if not enemies:
        return []
    nearest = min(geometry.distance_sq(ship.position, s.position) for s in enemies)
    closest = [s for s in enemies if geometry.distance_sq(ship.position, s.position) == nearest]
    squadrons = {s.squadron for s in closest if s.squadron}  # "the nearest enemy ship or squadron" (p.19)
    return closest + [s for s in enemies if s.squadron in squadrons and s not in closest]


def line_blocked(rules: BattlefleetGothicRules, state: GameState, start: tuple[int, int], end: tuple[int, int],
                 exclude: tuple[str, ...]) -> bool:
    """A line of fire over a hulk's base is blocked (p.26)."""
    for other in state.ships.values():
        if other.hulk and other.id not in exclude:
            radius = sh.base_radius(rules, rules.ship_class(other))
            if geometry.point_segment_distance_sq_le(other.position, start, end, radius):
                return True
    return False


def through_blast_markers(rules: BattlefleetGothicRules, state: GameState, start: tuple[int, int],
                          end: tuple[int, int]) -> bool:
    """Does the line of fire pass through any Blast marker (p.25)?"""
    radius = rules.data.length("blast_marker_radius_cm")
    return any(geometry.point_segment_distance_sq_le(m.position, start, end, radius)
               for m in state.blast_markers.values())


def bears(rules: BattlefleetGothicRules, state: GameState, ship: ShipState, weapon: Weapon,
          target_position: tuple[int, int], target_id: str) -> bool:
    """In range stem to stem (p.19) and inside one of the weapon's fire arcs (p.19), line not blocked."""
    if not geometry.within(ship.position, target_position, weapon.range_cm * CM):
        return False
    if not geometry.quadrants(ship.position, ship.heading, target_position) & set(weapon.arcs):
        return False
    return not line_blocked(rules, state, ship.position, target_position, (ship.id, target_id))


def target_position(state: GameState, target: str) -> tuple[int, int] | None:
    if target in state.ships:
        t = state.ships[target]
        return t.position if t.on_table else None
    if target in state.ordnance:
        return state.ordnance[target].position
    return None


# ---------------------------------------------------------------- the gunnery table

def gunnery_column(rules: BattlefleetGothicRules, state: GameState, shooter: ShipState, target_id: str
                   ) -> tuple[int, tuple[str, ...]]:
    """The column index (0 = A) after target type, aspect and shifts (p.19-20), and the shifts applied."""
    table = rules.data.tables.gunnery
    columns = list(table.columns)
    if target_id in state.ordnance:
        base = "ordnance"
        position = state.ordnance[target_id].position
    else:
        target = state.ships[target_id]
        position = target.position
        cls = rules.ship_class(target)
        if target.last_move < rules.data.length("defences_move_cm"):
            base = "defences"  # p.15, p.20: a ship that moved under 5 cm counts as defences
        else:
            quadrant = geometry.aspect_quadrant(target.position, target.heading, shooter.position)
            aspect = {"front": "closing", "rear": "moving_away"}.get(quadrant, "abeam")
            base = f"{'capital' if cls.capital else 'escort'}_{aspect}"
    column = columns.index(table.column_of[base])
    shifts = []
    if geometry.within(shooter.position, position, rules.data.length("short_range_cm")):
        shifts.append("within 15 cm: one column left")
        column -= 1
    if not geometry.within(shooter.position, position, rules.data.length("long_range_cm")):
        shifts.append("beyond 30 cm: one column right")
        column += 1
    if through_blast_markers(rules, state, shooter.position, position):
        shifts.append("through Blast markers: one column right")
        column += 1
    return max(0, min(len(columns) - 1, column)), (base, *shifts)


def gunnery_dice(rules: BattlefleetGothicRules, firepower: int, column: int) -> int:
    """Dice to roll for ``firepower`` in ``column``: above 20, look up 20 and the rest and add (p.20)."""
    rows = rules.data.tables.gunnery.rows
    dice = 0
    while firepower > 0:
        step = min(20, firepower)
        dice += rows[step - 1][column]
        firepower -= step
    return dice


def armour_against(rules: BattlefleetGothicRules, target: ShipState, shooter_position: tuple[int, int]) -> int:
    """The Armour of the quadrant facing the firer (p.4: Lunar 6+ front, 5+ elsewhere)."""
    cls = rules.ship_class(target)
    front = geometry.aspect_quadrant(target.position, target.heading, shooter_position) == "front"
    return cls.armour_front if front else cls.armour


def roll_to_hit(out: Emitter, dice: DiceCup, count: int, needed: int, purpose: str, roller: str, lock_on: bool) -> int:
    """Roll ``count`` dice needing ``needed``; Lock On re-rolls the misses, once only (p.21, p.7:
    ``rerolls.py``)."""
    from .rerolls import reroll_misses

    if count <= 0:
        return 0
    roll = dice.roll(count, purpose=purpose, roller=roller, target=needed)
    out.emit(roll)
    hits = sum(1 for face in roll.faces if face >= needed)
    return hits + reroll_misses(out, dice, roll, needed, purpose=purpose, roller=roller,
                                sources=("lock on",) if lock_on else ())


# ---------------------------------------------------------------- direct fire

def fire_weapons(rules: BattlefleetGothicRules, out: Emitter, command: FireWeapons, dice: DiceCup) -> None:
    state = out.state
    _shooting_check(state, command.player)
    ship = rules.own_ship(state, command.player, command.ship)
    if ship.status != ACTIVE:
        raise RuleError(f"{ship.name} cannot fire", rule="Direct Fire", page=19)
    cls = rules.ship_class(ship)
    position = target_position(state, command.target)
    if position is None:
        raise RuleError(f"no target {command.target!r} on the table", rule="Direct Fire", page=19)
    if command.target in state.ships and state.ships[command.target].side == ship.side:
        raise RuleError("ships fire at enemy vessels", rule="Direct Fire", page=19)
    if command.target in state.ordnance and state.ordnance[command.target].side == ship.side:
        raise RuleError("ships fire at enemy ordnance", rule="Shooting at Ordnance", page=28)
    if not command.weapons or len(set(command.weapons)) != len(command.weapons):
        raise RuleError("name each weapon system once", rule="Direct Fire", page=19)
    if command.amounts and len(command.amounts) != len(command.weapons):
        raise RuleError("one amount per weapon system", rule="Splitting Fire", page=21)
    allocation: list[tuple[str, int]] = []
    for index, weapon_id in enumerate(command.weapons):
        try:
            weapon = cls.weapon(weapon_id)
        except KeyError:
            raise RuleError(f"{ship.name} has no weapon {weapon_id!r}", rule="Armament", page=4) from None
        if weapon.kind not in DIRECT_FIRE:
            raise RuleError(f"{weapon_id} is not a direct fire weapon", rule="Direct Fire", page=19)
        if sh.weapon_offline(ship, weapon):
            raise RuleError(f"{weapon_id} is damaged and may not fire until repaired", rule="Critical Hits", page=24)
        left = sh.remaining(cls, ship, weapon)
        amount = command.amounts[index] if command.amounts else left
        if not 1 <= amount <= left:
            raise RuleError(f"{weapon_id} has {left} left to fire this phase", rule="Splitting Fire", page=21)
        if not bears(rules, state, ship, weapon, position, command.target):
            raise RuleError(f"{command.target} is not within range and fire arc of {weapon_id}", rule="Fire Arcs",
                            page=19)
        allocation.append((weapon_id, amount))
    joined = squadron_batteries(rules, state, ship, command, position, allocation)
    if command.target in state.ships:
        _target_priority(rules, out, dice, ship, command.target, [cls.weapon(w) for w, _ in allocation])
        if command.target in out.state.ships[ship.id].leadership_failed:
            return
        for mate_id in sorted({mate for mate, _, _ in joined}):  # each mate's own target priority (p.19)
            mate = out.state.ships[mate_id]
            _target_priority(rules, out, dice, mate, command.target,
                             [rules.ship_class(mate).weapon(w) for m, w, _ in joined if m == mate_id])
        joined = [j for j in joined if command.target not in out.state.ships[j[0]].leadership_failed]
    out.emit(ev.WeaponsFired(ship=ship.id, target=command.target, weapons=tuple(allocation), joined=tuple(joined)))
    if command.target in out.state.ships and offer_reaction(rules, out, command.target, ship.id, "shooting",
                                                            weapons=tuple(allocation), joined=tuple(joined)):
        return
    resolve_fire(rules, out, dice, ship.id, command.target, tuple(allocation), tuple(joined))


def squadron_batteries(rules: BattlefleetGothicRules, state: GameState, ship: ShipState, command: FireWeapons,
                       position: tuple[int, int], allocation: list[tuple[str, int]]) -> list[tuple[str, str, int]]:
    """Squadron fire (p.20: "If a squadron has a firepower value greater than 20, look up 20 and the remaining
    value separately ... a squadron of two Carnage cruisers can have up to firepower 32 in one broadside"): the
    weapons batteries of other ships of the firer's squadron join its batteries in one roll on the Gunnery
    table, each firing all it has left. Choices (the squadron rules themselves are in the absent Advanced
    Rules): the column (aspect, range, Blast markers) is the named ship's; each mate must be allowed to fire at
    the target (p.19 target priority, its own Leadership test) and drops out if its test fails; lances roll
    for each ship alone (they use no table)."""
    if not command.squadron:
        return []
    cls = rules.ship_class(ship)
    if not any(cls.weapon(w).kind == "battery" for w, _ in allocation):
        raise RuleError("squadron fire adds batteries to the firer's own batteries", rule="Weapons Batteries",
                        page=20)
    if command.target not in state.ships:
        raise RuleError("squadron fire is at an enemy ship", rule="Weapons Batteries", page=20)
    if len(set(command.squadron)) != len(command.squadron):
        raise RuleError("name each squadron battery once", rule="Weapons Batteries", page=20)
    joined = []
    for mate_id, weapon_id in command.squadron:
        mate = rules.own_ship(state, command.player, mate_id)
        if mate.id == ship.id or not ship.squadron or mate.squadron != ship.squadron or mate.status != ACTIVE:
            raise RuleError(f"{mate.name} is not an active ship of {ship.name}'s squadron",
                            rule="Weapons Batteries", page=20)
        mate_cls = rules.ship_class(mate)
        try:
            weapon = mate_cls.weapon(weapon_id)
        except KeyError:
            raise RuleError(f"{mate.name} has no weapon {weapon_id!r}", rule="Armament", page=4) from None
        left = sh.remaining(mate_cls, mate, weapon)
        if weapon.kind != "battery" or sh.weapon_offline(mate, weapon) or left <= 0:
            raise RuleError(f"{mate.name}'s {weapon_id} cannot add firepower now", rule="Weapons Batteries",
                            page=20)
        if not bears(rules, state, mate, weapon, position, command.target):
            raise RuleError(f"{command.target} is not within range and fire arc of {mate.name}'s {weapon_id}",
                            rule="Fire Arcs", page=19)
        joined.append((mate.id, weapon_id, left))
    return joined


def _shooting_check(state: GameState, player: str) -> None:
    if state.phase != SHOOTING or state.active != player:
        raise RuleError("ships fire in their own shooting phase", rule="The Shooting Phase", page=18)
    if state.pending is not None:
        raise RuleError("a reaction is awaited first", rule="Exceptions", page=13)


def _target_priority(rules, out, dice, ship: ShipState, target_id: str, weapons: list[Weapon]) -> None:
    state = out.state
    if target_id in ship.leadership_passed:
        return
    if target_id in ship.leadership_failed:
        raise RuleError("the Leadership test to choose this target failed this phase", rule="Target Priority",
                        page=19)
    closest = closest_enemies(state, ship)
    if any(c.id == target_id for c in closest):
        return
    engaged = any(bears(rules, state, ship, w, c.position, c.id) for w in weapons for c in closest)
    if engaged:
        leadership_test(out, dice, ship, "target priority", against=target_id)


def can_brace(state: GameState, target: ShipState, attacker: str) -> bool:
    """Brace for Impact is open to an active ship not already braced, unless it failed against this attacker
    (p.23)."""
    return (target.status == ACTIVE and target.order != BRACE_FOR_IMPACT
            and target.brace_failed_against != attacker)


def offer_reaction(rules: BattlefleetGothicRules, out: Emitter, target_id: str, attacker: str, kind: str,
                   weapons: tuple = (), target: str = "", aim: tuple[int, int] = (0, 0),
                   turrets: bool = False, joined: tuple = ()) -> bool:
    """Open a reaction window for the target's owner (p.13, p.23) if there is a choice to make."""
    target_ship = out.state.ships[target_id]
    brace = rules.options.brace_reactions and can_brace(out.state, target_ship, attacker)
    if not brace and not turrets:
        return False
    out.emit(ev.ReactionOffered(player=target_ship.side, ship=target_id, attacker=attacker, kind=kind,
                                can_brace=brace, can_turrets=turrets, weapons=weapons,
                                target=target or target_id, aim=aim, joined=joined))
    choices = [reaction_choice(b, t, turrets) for b in ((False, True) if brace else (False,))
               for t in ((True, False) if turrets else (False,))]
    out.emit(open_window(out.state.reactions, decider=target_ship.side, choices=choices,
                         question=f"{target_ship.name}: brace for impact{' or fire turrets' if turrets else ''} "
                                  f"before {attacker}'s attack?",
                         rule="Brace For Impact" if brace else "Ordnance Defences: Turrets", page=23 if brace else 29,
                         resume=f"{kind}:{attacker}->{target_id}", subject=target_id, interrupted=out.state.active))
    return True


def reaction_choice(brace: bool, turrets: bool, can_turrets: bool) -> str:
    """The name of a choice in the core's reaction window."""
    name = "brace" if brace else "no brace"
    if can_turrets:
        name += ", turrets fire" if turrets else ", turrets hold"
    return name


def resolve_fire(rules: BattlefleetGothicRules, out: Emitter, dice: DiceCup, ship_id: str, target_id: str,
                 allocation: tuple[tuple[str, int], ...], joined: tuple[tuple[str, str, int], ...] = ()) -> None:
    """Roll the shots (p.19-21, p.28); ``joined`` squadron batteries add their firepower (p.20)."""
    state = out.state
    ship = state.ships[ship_id]
    cls = rules.ship_class(ship)
    position = target_position(state, target_id)
    if position is None:
        return
    lock_on = ship.order == LOCK_ON
    at_ordnance = target_id in state.ordnance
    batteries = sum(a for w, a in allocation if cls.weapon(w).kind == "battery") + sum(a for _, _, a in joined)
    lances = sum(a for w, a in allocation if cls.weapon(w).kind == "lance")
    hits_total = 0
    if batteries:
        column, shifts = gunnery_column(rules, out.state, ship, target_id)
        count = gunnery_dice(rules, batteries, column)
        needed = 6 if at_ordnance else armour_against(rules, out.state.ships[target_id], ship.position)
        hits = roll_to_hit(out, dice, count, needed, "weapons batteries", ship.side, lock_on)
        out.emit(ev.GunneryResolved(ship=ship_id, target=target_id, firepower=batteries,
                                    column=rules.data.tables.gunnery.columns[column], shifts=shifts, dice=count,
                                    needed=needed, hits=hits))
        hits_total += hits
        if not at_ordnance:
            damage.resolve_hits(rules, out, dice, target_id, hits, "battery", ship.position, ship_id)
    if lances and target_position(out.state, target_id) is not None:
        needed = 6 if at_ordnance else 4  # p.19 lances 4+ regardless of Armour; p.28 6s against ordnance
        hits = roll_to_hit(out, dice, lances, needed, "lances", ship.side, lock_on)
        out.emit(ev.LancesResolved(ship=ship_id, target=target_id, strength=lances, needed=needed, hits=hits))
        hits_total += hits
        if not at_ordnance:
            damage.resolve_hits(rules, out, dice, target_id, hits, "lance", ship.position, ship_id)
    if at_ordnance and hits_total and target_id in out.state.ordnance:
        out.emit(ev.OrdnanceRemoved(marker=target_id, reason="shot down"))  # p.28-29
    for shooter in (ship_id, *sorted({mate for mate, _, _ in joined})):
        out.emit(ev.ShotRecorded(shooter=shooter, target=target_id, start=out.state.ships[shooter].position,
                                 end=position, outcome="hit" if hits_total else "miss"))


# ---------------------------------------------------------------- the nova cannon

def nova_weapon(cls) -> Weapon | None:
    return next((w for w in cls.weapons if w.kind == "nova_cannon"), None)


def nova_allowed(rules: BattlefleetGothicRules, ship: ShipState) -> bool:
    """No nova cannon under AAF, Burn Retros, Come to New Heading (p.21), braced (p.23) or crippled (p.23)."""
    cls = rules.ship_class(ship)
    weapon = nova_weapon(cls)
    return (weapon is not None and ship.status == ACTIVE and not sh.weapon_offline(ship, weapon)
            and "nova" not in ship.weapons_used and ship.order not in (*HALF_EFFECT_ORDERS, BRACE_FOR_IMPACT)
            and not sh.crippled(cls, ship))


def check_nova_placement(rules: BattlefleetGothicRules, state: GameState, ship: ShipState,
                         aim: tuple[int, int]) -> None:
    radius = rules.data.length("nova_radius_cm")
    low, high = rules.data.figure("nova_range_cm")
    d_sq = geometry.distance_sq(ship.position, aim)
    if d_sq < (low * CM + radius) ** 2 or d_sq > (high * CM - radius) ** 2:
        raise RuleError(f"the whole template must lie {low}-{high} cm away", rule="Nova Cannon Rules", page=21)
    if "front" not in geometry.quadrants(ship.position, ship.heading, aim):
        raise RuleError("the template goes in the forward arc", rule="Nova Cannon Rules", page=21)
    for other in state.ships.values():
        if other.side == ship.side and other.on_table:
            reach = radius + sh.base_radius(rules, rules.ship_class(other))
            if geometry.within(aim, other.position, reach):
                raise RuleError("the template must not touch friendly ships", rule="Nova Cannon Rules", page=21)
    if line_blocked(rules, state, ship.position, aim, (ship.id,)):
        raise RuleError("the nova cannon is a line of sight weapon", rule="Important Note", page=21)


def under_template(rules: BattlefleetGothicRules, state: GameState, centre: tuple[int, int], radius: int
                   ) -> list[ShipState]:
    return damage.caught_in(rules, state, centre, radius, exclude="")


def fire_nova(rules: BattlefleetGothicRules, out: Emitter, command: FireNovaCannon, dice: DiceCup) -> None:
    state = out.state
    _shooting_check(state, command.player)
    ship = rules.own_ship(state, command.player, command.ship)
    if not nova_allowed(rules, ship):
        raise RuleError(f"{ship.name} cannot fire a nova cannon now", rule="Nova Cannon Rules", page=21)
    aim = (command.x, command.y)
    check_nova_placement(rules, state, ship, aim)
    radius = rules.data.length("nova_radius_cm")
    covered = under_template(rules, state, aim, radius)
    beyond = [s for s in state.ships.values() if s.side != ship.side and s.status == ACTIVE
              and not geometry.within(ship.position, s.position, rules.data.length("long_range_cm"))]
    if beyond:
        nearest = min(geometry.distance_sq(ship.position, s.position) for s in beyond)
        closest = {s.id for s in beyond if geometry.distance_sq(ship.position, s.position) == nearest}
        aimed_away = not closest & {s.id for s in covered}
        if aimed_away and not leadership_test(out, dice, ship, "nova cannon target", against="template"):
            out.emit(ev.NovaCannonFired(ship=ship.id, aim=aim, landed=aim, scatter=-1))
            return
    enemies = [s for s in covered if s.side != ship.side and s.status == ACTIVE]
    if enemies and offer_reaction(rules, out, enemies[0].id, ship.id, "nova", aim=aim):
        return
    resolve_nova(rules, out, dice, ship.id, aim)


def resolve_nova(rules: BattlefleetGothicRules, out: Emitter, dice: DiceCup, ship_id: str, aim: tuple[int, int]
                 ) -> None:
    """Scatter, then hits: 1 for a base touching the template, D6 touching the hole (p.21)."""
    ship = out.state.ships[ship_id]
    distance = geometry.distance(ship.position, aim)
    dice_count = next(n for limit, n in rules.data.figure("nova_scatter_dice") if distance <= limit * CM)
    die = ScatterDie(sides=6, hit_faces=tuple(range(1, rules.data.figure("scatter_hit_faces") + 1)))
    scatter = dice.scatter(purpose="nova cannon scatter", roller=ship.side, die=die)
    out.emit(scatter)
    landed = aim
    moved = 0
    if not scatter.hit:
        direction = scatter.direction
        length = dice.roll(dice_count, purpose="nova cannon scatter distance", roller=ship.side)
        out.emit(length)
        moved = length.total * CM
        dx, dy = geometry.forward(direction, moved)
        landed = (aim[0] + dx, aim[1] + dy)
    out.emit(ev.NovaCannonFired(ship=ship_id, aim=aim, landed=landed, scatter=moved))
    radius = rules.data.length("nova_radius_cm")
    hole = rules.data.length("nova_hole_radius_cm")
    struck = under_template(rules, out.state, landed, radius)
    for marker in list(out.state.ordnance.values()):
        if geometry.within(landed, marker.position, radius):
            out.emit(ev.OrdnanceRemoved(marker=marker.id, reason="nova cannon"))
    for victim in struck:
        reach = hole + sh.base_radius(rules, rules.ship_class(victim))
        if geometry.within(landed, victim.position, reach):
            roll = dice.roll(1, purpose="nova cannon hits", roller=ship.side)
            out.emit(roll)
            hits = roll.total
        else:
            hits = 1
        out.emit(ev.ShotRecorded(shooter=ship_id, target=victim.id, start=ship.position, end=landed, outcome="hit"))
        damage.resolve_hits(rules, out, dice, victim.id, hits, "nova", landed, ship_id)
    if not struck:
        out.emit(ev.ShotRecorded(shooter=ship_id, target="", start=ship.position, end=landed, outcome="miss"))
        damage.place_blast_cloud(rules, out, landed, 1, "nova cannon miss")


def end_shooting(rules: BattlefleetGothicRules, out: Emitter, command: EndShooting, dice: DiceCup) -> None:
    _shooting_check(out.state, command.player)
    out.emit(ev.ShootingEnded(player=command.player))


HANDLERS = {FireWeapons: fire_weapons, FireNovaCannon: fire_nova, EndShooting: end_shooting}


# ---------------------------------------------------------------- legal commands

def fire_options(rules: BattlefleetGothicRules, state: GameState, ship: ShipState) -> list[FireWeapons]:
    """For each target: every direct-fire weapon that bears fires all it has left at it (one command per
    target), and each weapon alone (so fire can go elsewhere). Splitting by amount is accepted by
    ``decide`` but not enumerated."""
    cls = rules.ship_class(ship)
    weapons = [w for w in cls.weapons if w.kind in DIRECT_FIRE and not sh.weapon_offline(ship, w)
               and sh.remaining(cls, ship, w) > 0]
    if not weapons:
        return []
    targets: list[tuple[str, tuple[int, int]]] = [
        (s.id, s.position) for s in sorted(state.ships.values(), key=lambda s: s.id)
        if s.side != ship.side and s.on_table and s.id not in ship.leadership_failed]
    targets += [(m.id, m.position) for m in state.ordnance.values() if m.side != ship.side]
    options = []
    for target_id, position in targets:
        bearing = [w.id for w in weapons if bears(rules, state, ship, w, position, target_id)]
        if not bearing:
            continue
        groups = [tuple(bearing)] + ([(w,) for w in bearing] if len(bearing) > 1 else [])
        for group in groups:
            options.append(FireWeapons(player=ship.side, ship=ship.id, target=target_id, weapons=group))
        mates = squadron_mates_bearing(rules, state, ship, target_id, position)
        if mates and target_id in state.ships and any(cls.weapon(w).kind == "battery" for w in bearing):
            options.append(FireWeapons(player=ship.side, ship=ship.id, target=target_id, weapons=tuple(bearing),
                                       squadron=mates))
    return options


def squadron_mates_bearing(rules: BattlefleetGothicRules, state: GameState, ship: ShipState, target_id: str,
                           position: tuple[int, int]) -> tuple[tuple[str, str], ...]:
    """The batteries of the ship's squadron mates that could join its fire at the target (p.20)."""
    if not ship.squadron:
        return ()
    found = []
    for mate in sorted(state.fleet(ship.side), key=lambda s: s.id):
        if mate.id == ship.id or mate.squadron != ship.squadron or mate.status != ACTIVE:
            continue
        if target_id in mate.leadership_failed:
            continue
        mate_cls = rules.ship_class(mate)
        for weapon in mate_cls.weapons:
            if (weapon.kind == "battery" and not sh.weapon_offline(mate, weapon)
                    and sh.remaining(mate_cls, mate, weapon) > 0
                    and bears(rules, state, mate, weapon, position, target_id)):
                found.append((mate.id, weapon.id))
    return tuple(found)


def legal_commands(rules: BattlefleetGothicRules, state: GameState, player: str) -> list:
    if state.phase != SHOOTING or state.active != player or state.pending is not None or state.shooting_done:
        return []
    commands: list = []
    for ship in sorted(state.fleet(player), key=lambda s: s.id):
        if ship.status != ACTIVE:
            continue
        commands.extend(fire_options(rules, state, ship))
        if nova_allowed(rules, ship):
            commands.extend(nova_grid(rules, state, ship))
    commands.append(EndShooting(player=player))
    return commands


def nova_grid(rules: BattlefleetGothicRules, state: GameState, ship: ShipState) -> list[FireNovaCannon]:
    """Aim points offered: the stem of each enemy ship where the template may legally go."""
    options = []
    for enemy in sorted(state.ships.values(), key=lambda s: s.id):
        if enemy.side == ship.side or enemy.status != ACTIVE:
            continue
        try:
            check_nova_placement(rules, state, ship, enemy.position)
        except RuleError:
            continue
        options.append(FireNovaCannon(player=ship.side, ship=ship.id, x=enemy.x, y=enemy.y))
    return options
