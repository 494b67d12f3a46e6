"""Attack craft (p.27-30): launch bays, fleet ordnance limits, waves, fighters, bombers, turrets against waves.

* Launch bays launch one squadron each, any mix of the ship's craft, in the shooting phase; the ship must
  then Reload Ordnance (p.27, p.29). A launch is one wave (launching squadrons separately is several
  launches of a wave of one). Bays are halved (rounding up) when the carrier is crippled (p.23: weapon
  strength) and when braced (p.23: ordnance halved).
* Fleet Ordnance Limits (p.27): no more squadrons in play than the fleet's available launch bays.
* A wave moves at the speed of its slowest squadron (p.30), in the ordnance phase, along a path of its
  player's choice (``MoveAttackCraft.via``: craft "turn freely and move in any direction", p.29) whose whole
  length is at most that speed; what the path touches is met in order (craft avoid anything else, p.29).
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
* Assault boats (p.30): against fighters both removed, against other ordnance nothing, against a ship one
  hit-and-run raid per squadron (``hit_and_run.py``), then removed; launched only under
  ``RuleOptions(hit_and_run=True)`` (the raid is not in the text), by carriers of a fleet with an assault boat
  speed in ``ordnance.json``. Not implemented: the 4+ save of Eldar craft (no Eldar in the data).
* Waves may split during their move (p.30): ``MoveAttackCraft.fighters``/``bombers``/``assault_boats`` name
  the squadrons that move; the rest stay as a new wave, which moves later in the phase; split squadrons never recombine.
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
    in_play = sum(m.strength for m in state.ordnance.values() if m.side == side and m.kind == WAVE)
    return max(0, available - in_play)


def craft_speed(rules: BattlefleetGothicRules, fleet: str, craft: str) -> int | None:
    """A fleet's craft speed (``fighter``, ``bomber``, ``assault_boat``) from ``ordnance.json``, None if the
    fleet has none of that craft."""
    figure = rules.data.ordnance.get(f"{fleet}_{craft}_speed_cm")
    return None if figure is None else figure.value * CM


def speeds(rules: BattlefleetGothicRules, fleet: str) -> tuple[int, int]:
    return craft_speed(rules, fleet, "fighter"), craft_speed(rules, fleet, "bomber")


def wave_speed(rules: BattlefleetGothicRules, fleet: str, fighters: int, bombers: int, assault_boats: int) -> int:
    """A wave moves at the speed of its slowest squadron (p.30)."""
    present = [craft for craft, count in (("fighter", fighters), ("bomber", bombers),
                                          ("assault_boat", assault_boats)) if count]
    return min(craft_speed(rules, fleet, craft) for craft in present)


def assault_boats_available(rules: BattlefleetGothicRules, fleet: str) -> bool:
    """Assault boats need the hit-and-run raid (option ``hit_and_run``) and a speed for the fleet's boats."""
    return rules.options.hit_and_run and craft_speed(rules, fleet, "assault_boat") is not None


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
    total = command.fighters + command.bombers + command.assault_boats
    if command.fighters < 0 or command.bombers < 0 or command.assault_boats < 0 or total == 0:
        raise RuleError("launch at least one squadron", rule="Attack Craft Rules", page=29)
    if command.assault_boats and not rules.options.hit_and_run:
        raise RuleError("assault boats make hit-and-run raids, which are in the Advanced Rules the text lacks "
                        "(option hit_and_run)", rule="Assault Boats", page=30)
    if command.assault_boats and craft_speed(rules, cls.fleet, "assault_boat") is None:
        raise RuleError(f"the {cls.fleet} fleet has no assault boats", rule="Attack Craft Rules", page=29)
    if total > bays(rules, ship):
        raise RuleError(f"{ship.name}'s bays launch {bays(rules, ship)} squadrons", rule="Attack Craft Rules",
                        page=29)
    if total > fleet_limit(rules, state, ship.side):
        raise RuleError("no more attack craft in play than the fleet's launch bays", rule="Fleet Ordnance Limits",
                        page=27)
    speed = wave_speed(rules, cls.fleet, command.fighters, command.bombers, command.assault_boats)
    marker = f"wave-{state.next_id}"
    out.emit(ev.OrdnanceLaunched(marker=marker, side=ship.side, kind=WAVE, launcher=ship.id, x=ship.x, y=ship.y,
                                 heading=ship.heading, strength=total, speed=speed, turn=state.player_turn,
                                 fighters=command.fighters, bombers=command.bombers,
                                 assault_boats=command.assault_boats))


def waiting_wave(state: GameState) -> OrdnanceMarker | None:
    """The wave whose move comes next in the ordnance phase (the phasing player's first, p.27), if any."""
    from .ordnance import next_marker

    if state.phase != ORDNANCE or state.pending is not None:
        return None
    marker = next_marker(state)
    return marker if marker is not None and marker.kind == WAVE else None


def path_length(start: tuple[int, int], points: list[tuple[int, int]]) -> int:
    total, here = 0, start
    for point in points:
        total += geometry.distance(here, point)
        here = point
    return total


def move(rules: BattlefleetGothicRules, out: Emitter, command: MoveAttackCraft, dice: DiceCup) -> None:
    """Attack craft "can turn freely and move in any direction, up to the distance indicated by their speed"
    (p.29): the path through ``via`` to (x, y), its whole length at most the wave's speed."""
    from .ordnance import to_steer

    wave = waiting_wave(out.state)
    if wave is None or wave.id != command.marker or wave.side != command.player:
        raise RuleError("that wave does not move now", rule="Moving Ordnance", page=27)
    if to_steer(rules, out.state) is not None:
        raise RuleError("boarding torpedoes turn at the start of the ordnance phase, before ordnance moves",
                        rule="Boarding Torpedoes", page=28)
    moving_f = wave.fighters if command.fighters is None else command.fighters
    moving_b = wave.bombers if command.bombers is None else command.bombers
    moving_a = wave.assault_boats if command.assault_boats is None else command.assault_boats
    if not (0 <= moving_f <= wave.fighters and 0 <= moving_b <= wave.bombers and 0 <= moving_a <= wave.assault_boats
            and moving_f + moving_b + moving_a > 0):
        raise RuleError("a wave splits into squadrons it has", rule="Launching Waves of Attack Craft", page=30)
    path = [*command.via, (command.x, command.y)]
    width, height = out.state.table
    if not all(0 <= x <= width and 0 <= y <= height for x, y in path):
        raise RuleError("attack craft stay on the table", rule="Attack Craft Rules", page=29)
    fleet = rules.ship_class(out.state.ships[wave.launcher]).fleet
    speed = wave_speed(rules, fleet, moving_f, moving_b, moving_a)
    fits = geometry.within(wave.position, path[0], speed) if len(path) == 1 else \
        path_length(wave.position, path) <= speed
    if not fits:
        raise RuleError(f"the wave moves at most {speed / CM:g} cm", rule="Attack Craft Rules", page=29)
    if (moving_f, moving_b, moving_a) != (wave.fighters, wave.bombers, wave.assault_boats):
        rest = (wave.fighters - moving_f, wave.bombers - moving_b, wave.assault_boats - moving_a)
        out.emit(ev.WaveSplit(marker=wave.id, new_marker=f"wave-{out.state.next_id}", fighters=moving_f,
                              bombers=moving_b, assault_boats=moving_a, speed=speed,
                              new_speed=wave_speed(rules, fleet, *rest)))
    fly(rules, out, dice, wave.id, path)


def fly(rules: BattlefleetGothicRules, out: Emitter, dice: DiceCup, wave_id: str,
        path: list[tuple[int, int]]) -> None:
    """Fly the wave along ``path`` (its points in order), meeting what lies on the way in order. Craft avoid
    what their course does not touch (p.29): only contacts on the path count."""
    radius = round(rules.data.ordnance["craft_marker_radius_cm"].value * CM)
    met: set[str] = set()
    blast_checked = False
    for index, target in enumerate(path):
        last = index == len(path) - 1
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
                out.emit(ev.OrdnanceMoved(marker=wave_id, x=target[0], y=target[1],
                                          travelled=wave.speed if last else wave.travelled, done=last))
                break
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


def lose(out: Emitter, wave_id: str, fighters: int, bombers: int, reason: str, assault_boats: int = 0) -> None:
    """Remove so many squadrons of each type from a wave (the whole marker when none is left)."""
    wave = out.state.ordnance[wave_id]
    left_f = max(0, wave.fighters - fighters)
    left_b = max(0, wave.bombers - bombers)
    left_a = max(0, wave.assault_boats - assault_boats)
    if left_f + left_b + left_a == 0:
        out.emit(ev.OrdnanceRemoved(marker=wave_id, reason=reason))
    else:
        out.emit(ev.SquadronsLost(marker=wave_id, fighters=left_f, bombers=left_b, assault_boats=left_a,
                                  reason=reason))


def destroy_squadrons(out: Emitter, wave_id: str, count: int, reason: str) -> None:
    """``count`` squadrons destroyed, fighter squadrons first (p.30), then bombers, then assault boats (the
    text names only the fighters first; the order of the "bigger ships" is a choice)."""
    wave = out.state.ordnance[wave_id]
    fighters = min(count, wave.fighters)
    bombers = min(count - fighters, wave.bombers)
    lose(out, wave_id, fighters, bombers, reason, assault_boats=count - fighters - bombers)


def meet_ordnance(out: Emitter, wave_id: str, other_id: str) -> None:
    """A wave meets enemy ordnance (p.29-30): fighters against any ordnance, both removed (one squadron of
    each); bombers or assault boats against fighters, both removed; against other ordnance, nothing."""
    wave = out.state.ordnance[wave_id]
    other = out.state.ordnance[other_id]
    if wave.fighters:
        lose(out, wave_id, 1, 0, "fighters intercepted enemy ordnance")
        if other.kind == WAVE:
            destroy_squadrons(out, other_id, 1, "intercepted by fighters")
        else:
            out.emit(ev.OrdnanceRemoved(marker=other_id, reason="intercepted by fighters"))
    elif other.kind == WAVE and other.fighters:
        destroy_squadrons(out, other_id, 1, "fought off attack craft")
        destroy_squadrons(out, wave_id, 1, "caught by enemy fighters")


def attack(rules: BattlefleetGothicRules, out: Emitter, dice: DiceCup, wave_id: str, ship_id: str,
           fire_turrets: bool = True) -> None:
    """Turrets against the wave, then the bombers' attack run (p.29-30) and the assault boats' hit-and-run
    raids, one per squadron (p.30, ``hit_and_run.py``); a wave that attacked is removed (p.30)."""
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
    if wave is None or not (wave.bombers or wave.assault_boats):
        return
    hits = 0
    if wave.bombers:
        needed = min(cls.armour, cls.armour_front)
        rolled = dice.roll(wave.bombers, purpose="bomber attack runs", roller=wave.side)
        out.emit(rolled)
        attacks = sum(max(0, face - turrets) for face in rolled.faces)  # massed turrets do not count (p.30)
        if attacks:
            roll = dice.roll(attacks, purpose="bomber attacks", roller=wave.side, target=needed)
            out.emit(roll)
            hits = sum(1 for face in roll.faces if face >= needed)
        out.emit(ev.BomberAttack(marker=wave_id, ship=ship_id, squadrons=wave.bombers, attacks=attacks,
                                 needed=needed, hits=hits))
    out.emit(ev.ShotRecorded(shooter=wave_id, target=ship_id, start=wave.position, end=ship.position,
                             outcome="hit" if hits else ("boarded" if wave.assault_boats else "miss")))
    out.emit(ev.OrdnanceRemoved(marker=wave_id, reason="attack run made"))
    damage.resolve_hits(rules, out, dice, ship_id, hits, "bombers", wave.position, wave_id)
    if wave.assault_boats:
        from .hit_and_run import raid_rule, raids

        raids(rules, out, dice, wave_id, wave.side, ship_id,
              wave.assault_boats * raid_rule(rules)["raids_per_assault_boat_squadron"])


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
    """Launches: all bays as bombers, as fighters, or half and half (and, under ``hit_and_run``, all assault
    boats, or half fighters and half assault boats). Moves: straight towards each enemy ship and each enemy
    ordnance marker (to its stem, or the full speed towards it), or holding position; a mixed wave also splits,
    each type of craft going alone. Paths with turns (``via``) are accepted by ``decide``, not enumerated."""
    commands: list = []
    if state.phase == SHOOTING and state.active == player and state.pending is None and not state.shooting_done:
        for ship in sorted(state.fleet(player), key=lambda s: s.id):
            count = min(bays(rules, ship), fleet_limit(rules, state, player))
            if ship.status != ACTIVE or not ship.ordnance_loaded or count <= 0:
                continue
            mixes = {(0, count, 0), (count, 0, 0), (count // 2, count - count // 2, 0)}
            if assault_boats_available(rules, rules.ship_class(ship).fleet):
                mixes |= {(0, 0, count), (count // 2, 0, count - count // 2)}
            for fighters, bombers, boats in sorted(mixes):
                commands.append(LaunchAttackCraft(player=player, ship=ship.id, fighters=fighters, bombers=bombers,
                                                  assault_boats=boats))
        carriers = [s for s in state.fleet(player) if s.status == ACTIVE and s.ordnance_loaded and bays(rules, s)]
        if carriers and fleet_limit(rules, state, player) < max(bays(rules, s) for s in carriers):
            commands += [RecallAttackCraft(player=player, marker=m.id) for m in sorted(
                state.ordnance.values(), key=lambda m: m.id) if m.side == player and m.kind == WAVE]
    from .ordnance import to_steer

    wave = waiting_wave(state)
    if wave is not None and wave.side == player and to_steer(rules, state) is None:
        goals = [s.position for s in state.ships.values() if s.side != player and s.on_table]
        goals += [m.position for m in state.ordnance.values() if m.side != player]
        width, height = state.table

        def towards(goal, reach):
            if geometry.within(wave.position, goal, reach):
                return goal
            dx, dy = geometry.forward(geometry.bearing(wave.position, goal), reach - 1)
            point = (wave.x + dx, wave.y + dy)
            return point if 0 <= point[0] <= width and 0 <= point[1] <= height else None

        points = {wave.position} | {p for p in (towards(goal, wave.speed) for goal in goals) if p is not None}
        commands += [MoveAttackCraft(player=player, marker=wave.id, x=x, y=y) for x, y in sorted(points)]
        counts = (wave.fighters, wave.bombers, wave.assault_boats)
        if sum(1 for c in counts if c) > 1:  # split: one type of craft goes on alone (p.30)
            fleet = rules.ship_class(state.ships[wave.launcher]).fleet
            for index, count in enumerate(counts):
                if not count:
                    continue
                alone = tuple(count if i == index else 0 for i in range(3))
                reach = wave_speed(rules, fleet, *alone)
                for goal in goals:
                    point = towards(goal, reach)
                    if point is not None:
                        commands.append(MoveAttackCraft(player=player, marker=wave.id, x=point[0], y=point[1],
                                                        fighters=alone[0], bombers=alone[1],
                                                        assault_boats=alone[2]))
    return commands
