"""Attack craft (p.27-30): launch bays, fleet ordnance limits, waves, fighters, bombers, turrets against waves.

* Launch bays launch one squadron each, any mix of the ship's craft, in the shooting phase; the ship must
  then Reload Ordnance (p.27, p.29). A launch is one wave (launching squadrons separately is several
  launches of a wave of one). Bays are halved (rounding up) when the carrier is crippled (p.23: weapon
  strength) and when braced (p.23: ordnance halved).
* Fleet Ordnance Limits (p.27): no more squadrons in play than the fleet's available launch bays.
* A wave moves at the speed of its slowest squadron (p.30), straight to a point of its player's choice in the
  ordnance phase (craft turn freely, p.29: a straight line is the documented simplification).
* Contacts along the way (p.28-30): an enemy ship is attacked and ends the move; enemy ordnance meets the
  wave's fighters (one fighter squadron and the enemy marker, or one enemy squadron, fighters first, are
  removed, p.29-30); bombers meeting enemy fighters are removed with them (p.30); Blast markers remove the
  whole wave on a 6, once per move (p.28).
* Against a ship (p.29-30): the target's turrets fire once at the whole wave, each 4+ destroying one
  squadron, fighters first; fighters then do nothing to the ship; each surviving bomber squadron makes D6
  attacks less one per turret of the target, each hitting on its lowest Armour, shields ignored; the entire
  wave is then removed (a wave of fighters alone stays where it met the ship).
* Fighters in base contact with a friendly ship may move with it (``MoveShip.screen``, movement.py) and then
  do not move in that turn's ordnance phase (p.29).
* Not implemented: assault boats (their hit-and-run raids are in the missing Advanced Rules), recalling
  craft, the 4+ save of Eldar craft.
* Waves may split during their move (p.30): ``MoveAttackCraft.fighters``/``bombers`` name the squadrons that
  move; the rest stay as a new wave, which moves later in the phase; split squadrons never recombine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aero_events.core import DiceCup, RuleError

from . import damage, geometry
from . import events as ev
from . import ships as sh
from .commands import LaunchAttackCraft, MoveAttackCraft, RecallAttackCraft
from .data import CM
from .state import ACTIVE, BRACE_FOR_IMPACT, ORDNANCE, SHOOTING, GameState, OrdnanceMarker, ShipState

if TYPE_CHECKING:
    from .ruleset import BattlefleetGothicRules
    from .turn import Emitter

WAVE = "attack craft"


def bays(rules: BattlefleetGothicRules, ship: ShipState) -> int:
    """Squadrons the ship can launch at once (p.29)."""
    cls = rules.ship_class(ship)
    count = sum(w.value for w in cls.weapons if w.kind == "launch_bays" and not sh.weapon_offline(ship, w))
    if sh.crippled(cls, ship):
        count = sh.half(count)
    if ship.order == BRACE_FOR_IMPACT:
        count = sh.half(count)
    return count


def fleet_limit(rules: BattlefleetGothicRules, state: GameState, side: str) -> int:
    """Fleet Ordnance Limits (p.27): squadrons in play at most the fleet's available launch bays."""
    available = sum(bays(rules, s) for s in state.fleet(side) if s.status == ACTIVE)
    in_play = sum(m.fighters + m.bombers for m in state.ordnance.values() if m.side == side and m.kind == WAVE)
    return max(0, available - in_play)


def speeds(rules: BattlefleetGothicRules, fleet: str) -> tuple[int, int]:
    figures = rules.data.ordnance
    return (figures[f"{fleet}_fighter_speed_cm"].value * CM, figures[f"{fleet}_bomber_speed_cm"].value * CM)


def launch(rules: BattlefleetGothicRules, out: Emitter, command: LaunchAttackCraft, dice: DiceCup) -> None:
    state = out.state
    if state.phase != SHOOTING or state.active != command.player or state.pending is not None:
        raise RuleError("ordnance is launched in the shooting phase", rule="Launching Ordnance", page=27)
    ship = rules.own_ship(state, command.player, command.ship)
    cls = rules.ship_class(ship)
    if ship.status != ACTIVE or not any(w.kind == "launch_bays" for w in cls.weapons):
        raise RuleError(f"{ship.name} has no launch bays", rule="Attack Craft Rules", page=29)
    if not ship.ordnance_loaded:
        raise RuleError(f"{ship.name} must Reload Ordnance first", rule="Reload Ordnance", page=27)
    total = command.fighters + command.bombers
    if command.fighters < 0 or command.bombers < 0 or total == 0:
        raise RuleError("launch at least one squadron", rule="Attack Craft Rules", page=29)
    if total > bays(rules, ship):
        raise RuleError(f"{ship.name}'s bays launch {bays(rules, ship)} squadrons", rule="Attack Craft Rules",
                        page=29)
    if total > fleet_limit(rules, state, ship.side):
        raise RuleError("no more attack craft in play than the fleet's launch bays", rule="Fleet Ordnance Limits",
                        page=27)
    fighter_speed, bomber_speed = speeds(rules, cls.fleet)
    speed = bomber_speed if command.bombers else fighter_speed  # the slowest squadron (p.30)
    marker = f"wave-{state.next_id}"
    out.emit(ev.OrdnanceLaunched(marker=marker, side=ship.side, kind=WAVE, launcher=ship.id, x=ship.x, y=ship.y,
                                 heading=ship.heading, strength=total, speed=speed, turn=state.player_turn,
                                 fighters=command.fighters, bombers=command.bombers))


def waiting_wave(state: GameState) -> OrdnanceMarker | None:
    """The wave whose move comes next in the ordnance phase (the phasing player's first, p.27), if any."""
    from .ordnance import next_marker

    if state.phase != ORDNANCE or state.pending is not None:
        return None
    marker = next_marker(state)
    return marker if marker is not None and marker.kind == WAVE else None


def move(rules: BattlefleetGothicRules, out: Emitter, command: MoveAttackCraft, dice: DiceCup) -> None:
    wave = waiting_wave(out.state)
    if wave is None or wave.id != command.marker or wave.side != command.player:
        raise RuleError("that wave does not move now", rule="Moving Ordnance", page=27)
    moving_f = wave.fighters if command.fighters is None else command.fighters
    moving_b = wave.bombers if command.bombers is None else command.bombers
    if not (0 <= moving_f <= wave.fighters and 0 <= moving_b <= wave.bombers and moving_f + moving_b > 0):
        raise RuleError("a wave splits into squadrons it has", rule="Launching Waves of Attack Craft", page=30)
    if (moving_f, moving_b) != (wave.fighters, wave.bombers):
        fleet = rules.ship_class(out.state.ships[wave.launcher]).fleet
        fighter_speed, bomber_speed = speeds(rules, fleet)
        rest_b = wave.bombers - moving_b
        out.emit(ev.WaveSplit(marker=wave.id, new_marker=f"wave-{out.state.next_id}", fighters=moving_f,
                              bombers=moving_b, speed=bomber_speed if moving_b else fighter_speed,
                              new_speed=bomber_speed if rest_b else fighter_speed))
        wave = out.state.ordnance[wave.id]
    target = (command.x, command.y)
    width, height = out.state.table
    if not (0 <= command.x <= width and 0 <= command.y <= height):
        raise RuleError("attack craft stay on the table", rule="Attack Craft Rules", page=29)
    if not geometry.within(wave.position, target, wave.speed):
        raise RuleError(f"the wave moves at most {wave.speed / CM:g} cm", rule="Attack Craft Rules", page=29)
    fly(rules, out, dice, wave.id, target)


def fly(rules: BattlefleetGothicRules, out: Emitter, dice: DiceCup, wave_id: str, target: tuple[int, int]) -> None:
    """Fly the wave to ``target``, meeting what lies on the way in order."""
    radius = round(rules.data.ordnance["craft_marker_radius_cm"].value * CM)
    met: set[str] = set()
    blast_checked = False
    while True:
        wave = out.state.ordnance.get(wave_id)
        if wave is None:
            return
        here = wave.position
        contacts = []
        if here != target:
            for other in out.state.ships.values():
                if other.side != wave.side and other.on_table and other.id not in met:
                    reach = radius + sh.base_radius(rules, rules.ship_class(other))
                    at = geometry.first_contact_along(here, target, other.position, reach)
                    if at is not None:
                        contacts.append((at, 1, "ship", other.id))
            for other in out.state.ordnance.values():
                if other.side != wave.side and other.id not in met:
                    at = geometry.first_contact_along(here, target, other.position, 2 * radius)
                    if at is not None:
                        contacts.append((at, 0, "ordnance", other.id))
            if not blast_checked:
                bm = rules.data.length("blast_marker_radius_cm") + radius
                hits = [geometry.first_contact_along(here, target, m.position, bm)
                        for m in out.state.blast_markers.values()]
                hits = [h for h in hits if h is not None]
                if hits:
                    contacts.append((min(hits), 2, "blast", ""))
        if not contacts:
            out.emit(ev.OrdnanceMoved(marker=wave_id, x=target[0], y=target[1], travelled=wave.speed, done=True))
            return
        at, _, kind, what = min(contacts)
        point = geometry.point_along(here, target, at)
        out.emit(ev.OrdnanceMoved(marker=wave_id, x=point[0], y=point[1], travelled=wave.travelled, done=False))
        met.add(what)
        if kind == "blast":
            blast_checked = True
            roll = dice.d6(purpose="ordnance through blast markers", roller=wave.side, target=6)
            out.emit(roll)
            if roll.faces[0] == 6:
                out.emit(ev.OrdnanceRemoved(marker=wave_id, reason="destroyed in Blast markers"))
                return
        elif kind == "ordnance":
            meet_ordnance(out, wave_id, what)
        else:
            out.emit(ev.OrdnanceMoved(marker=wave_id, x=point[0], y=point[1], travelled=wave.speed, done=True))
            from .ordnance import offer

            ship = out.state.ships[what]
            turrets = sh.turrets(rules.ship_class(ship), ship) > 0 and ship.turrets_against in (None, WAVE)
            if not offer(rules, out, wave_id, what, turrets, kind=WAVE):
                attack(rules, out, dice, wave_id, what, fire_turrets=turrets)
            return


def lose(out: Emitter, wave_id: str, fighters: int, bombers: int, reason: str) -> None:
    """Remove squadrons from a wave, fighters first when ``fighters`` is given as the count to lose."""
    wave = out.state.ordnance[wave_id]
    left_f = max(0, wave.fighters - fighters)
    left_b = max(0, wave.bombers - bombers)
    if left_f + left_b == 0:
        out.emit(ev.OrdnanceRemoved(marker=wave_id, reason=reason))
    else:
        out.emit(ev.SquadronsLost(marker=wave_id, fighters=left_f, bombers=left_b, reason=reason))


def destroy_squadrons(out: Emitter, wave_id: str, count: int, reason: str) -> None:
    """``count`` squadrons destroyed, fighter squadrons first (p.30)."""
    wave = out.state.ordnance[wave_id]
    fighters = min(count, wave.fighters)
    lose(out, wave_id, fighters, count - fighters, reason)


def meet_ordnance(out: Emitter, wave_id: str, other_id: str) -> None:
    """A wave meets enemy ordnance (p.29-30)."""
    wave = out.state.ordnance[wave_id]
    other = out.state.ordnance[other_id]
    if wave.fighters:
        lose(out, wave_id, 1, 0, "fighters intercepted enemy ordnance")
        if other.kind == WAVE:
            destroy_squadrons(out, other_id, 1, "intercepted by fighters")
        else:
            out.emit(ev.OrdnanceRemoved(marker=other_id, reason="intercepted by fighters"))
    elif other.kind == WAVE and other.fighters:
        destroy_squadrons(out, other_id, 1, "fought off bombers")
        lose(out, wave_id, 0, 1, "caught by enemy fighters")


def attack(rules: BattlefleetGothicRules, out: Emitter, dice: DiceCup, wave_id: str, ship_id: str,
           fire_turrets: bool = True) -> None:
    """Turrets against the wave, then the bombers' attack run (p.29-30)."""
    wave = out.state.ordnance.get(wave_id)
    ship = out.state.ships[ship_id]
    if wave is None or not ship.on_table:
        return
    cls = rules.ship_class(ship)
    turrets = sh.turrets(cls, ship)
    if fire_turrets and turrets and ship.turrets_against in (None, WAVE):
        massed = sum(1 for other in out.state.ships.values()
                     if other.id != ship.id and other.side == ship.side and other.status == ACTIVE
                     and geometry.within(ship.position, other.position,
                                         sh.base_radius(rules, cls) + sh.base_radius(rules, rules.ship_class(other))))
        roll = dice.roll(turrets + massed, purpose="turrets", roller=ship.side, target=4)
        out.emit(roll)
        hits = sum(1 for face in roll.faces if face >= 4)
        out.emit(ev.TurretsFired(ship=ship_id, marker=wave_id, turrets=turrets + massed, hits=hits, against=WAVE))
        if hits:
            destroy_squadrons(out, wave_id, hits, "shot down by turrets")
    wave = out.state.ordnance.get(wave_id)
    if wave is None or not wave.bombers:
        return
    needed = min(cls.armour, cls.armour_front)
    rolled = dice.roll(wave.bombers, purpose="bomber attack runs", roller=wave.side)
    out.emit(rolled)
    attacks = sum(max(0, face - turrets) for face in rolled.faces)  # massed turrets do not count (p.30)
    hits = 0
    if attacks:
        roll = dice.roll(attacks, purpose="bomber attacks", roller=wave.side, target=needed)
        out.emit(roll)
        hits = sum(1 for face in roll.faces if face >= needed)
    out.emit(ev.BomberAttack(marker=wave_id, ship=ship_id, squadrons=wave.bombers, attacks=attacks, needed=needed,
                             hits=hits))
    out.emit(ev.ShotRecorded(shooter=wave_id, target=ship_id, start=wave.position, end=ship.position,
                             outcome="hit" if hits else "miss"))
    out.emit(ev.OrdnanceRemoved(marker=wave_id, reason="attack run made"))
    damage.resolve_hits(rules, out, dice, ship_id, hits, "bombers", wave.position, wave_id)


def recall(rules: BattlefleetGothicRules, out: Emitter, command: RecallAttackCraft, dice: DiceCup) -> None:
    """Fleet Ordnance Limits (p.27): attack craft on the table may be removed from play to raise the limit.
    Choice: done in the player's shooting phase, where launches are made (the text says "before starting the
    ordnance phase")."""
    state = out.state
    wave = state.ordnance.get(command.marker)
    if (state.phase != SHOOTING or state.active != command.player or state.pending is not None or wave is None
            or wave.kind != WAVE or wave.side != command.player):
        raise RuleError("a player recalls their own attack craft in their shooting phase",
                        rule="Fleet Ordnance Limits", page=27)
    out.emit(ev.OrdnanceRemoved(marker=wave.id, reason="recalled"))


HANDLERS = {LaunchAttackCraft: launch, MoveAttackCraft: move, RecallAttackCraft: recall}


def legal_commands(rules: BattlefleetGothicRules, state: GameState, player: str) -> list:
    """Launches: all bays as bombers, as fighters, or half and half. Moves: towards each enemy ship and each
    enemy ordnance marker (to its stem, or the full speed towards it), or holding position."""
    commands: list = []
    if state.phase == SHOOTING and state.active == player and state.pending is None and not state.shooting_done:
        for ship in sorted(state.fleet(player), key=lambda s: s.id):
            count = min(bays(rules, ship), fleet_limit(rules, state, player))
            if ship.status != ACTIVE or not ship.ordnance_loaded or count <= 0:
                continue
            mixes = {(0, count), (count, 0), (count // 2, count - count // 2)}
            for fighters, bombers in sorted(mixes):
                commands.append(LaunchAttackCraft(player=player, ship=ship.id, fighters=fighters, bombers=bombers))
        carriers = [s for s in state.fleet(player) if s.status == ACTIVE and s.ordnance_loaded and bays(rules, s)]
        if carriers and fleet_limit(rules, state, player) < max(bays(rules, s) for s in carriers):
            commands += [RecallAttackCraft(player=player, marker=m.id) for m in sorted(
                state.ordnance.values(), key=lambda m: m.id) if m.side == player and m.kind == WAVE]
    wave = waiting_wave(state)
    if wave is not None and wave.side == player:
        points = {wave.position}
        goals = [s.position for s in state.ships.values() if s.side != player and s.on_table]
        goals += [m.position for m in state.ordnance.values() if m.side != player]
        width, height = state.table
        for goal in goals:
            if geometry.within(wave.position, goal, wave.speed):
                points.add(goal)
            else:
                dx, dy = geometry.forward(geometry.bearing(wave.position, goal), wave.speed - 1)
                point = (wave.x + dx, wave.y + dy)
                if 0 <= point[0] <= width and 0 <= point[1] <= height:
                    points.add(point)
        commands += [MoveAttackCraft(player=player, marker=wave.id, x=x, y=y) for x, y in sorted(points)]
        if wave.fighters and wave.bombers:  # split: the bombers go on alone, or the fighters do (p.30)
            fleet = rules.ship_class(state.ships[wave.launcher]).fleet
            fighter_speed, bomber_speed = speeds(rules, fleet)
            for f, b, reach in ((0, wave.bombers, bomber_speed), (wave.fighters, 0, fighter_speed)):
                for goal in goals:
                    point = goal if geometry.within(wave.position, goal, reach) else None
                    if point is None:
                        dx, dy = geometry.forward(geometry.bearing(wave.position, goal), reach - 1)
                        point = (wave.x + dx, wave.y + dy)
                        if not (0 <= point[0] <= width and 0 <= point[1] <= height):
                            continue
                    commands.append(MoveAttackCraft(player=player, marker=wave.id, x=point[0], y=point[1],
                                                    fighters=f, bombers=b))
    return commands
