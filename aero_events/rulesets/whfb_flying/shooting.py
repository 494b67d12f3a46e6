"""Shooting and Magic with flyers (Shooting Phase, Magic Phase), on the host's shooting (README).

Host: a unit that is not engaged, not fleeing and did not march shoots once a Shooting phase at an enemy unit
that is not engaged, in range and in sight (ranked units in their front 90 degrees, skirmishers all round);
ranked units shoot with their first two ranks, skirmishers with every model. Modifiers: -1 for moving, -1
beyond half range, cover -1 / -2, -1 for Stand and Shoot. A breath weapon (and a magic missile) hits
automatically D6 times.

The supplement:

* range by the game's method (Shooting Phase: Basic / Intermediate / Advanced, ``geometry.within_range``);
* line of sight from and to the air and cover (Fly; ``geometry.line_of_sight``, ``geometry.cover``);
* Take Off/Land: "+1 To Hit" them; "The Flying units themselves cannot shoot this turn";
* Fly: "can shoot. Movement penalties apply";
* Soar: "Soaring models cannot shoot ... -1 To Hit Soaring models";
* Special Rules: flyers "cannot Shoot on the March";
* Intercept: "-1 to Hit Modifier in either direction" (charges.py calls :func:`volley`);
* Swoop: the charged unit's Stand and Shoot "with -1 To Hit", the swooping unit "+1 To Hit" (charges.py);
* Fly High: "Cannot shoot or be targeted" (a unit that flew high is out of the battle);
* Magic Phase: "Follow any rules that would apply to Shooting Attacks": magic.py casts magic missiles and direct
  damage spells through :func:`can_target`, :func:`volley` and :func:`target_modifiers`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aero_events.core import DiceCup, Modifier, RuleError
from aero_events.table import centre

from . import attacks
from .commands import Shoot
from .data import Weapon
from .events import AttackResolved
from .falling import apply_wounds
from .geometry import cover, footprint, in_front_arc, line_of_sight, vertical, within_range
from .state import LAND, SHOOTING, SOAR, TAKE_OFF, GameState, UnitState

if TYPE_CHECKING:
    from .ruleset import WhfbFlyingRules

CANNOT_SHOOT = {TAKE_OFF: "Take Off/Land", LAND: "Take Off/Land", SOAR: "Soar"}


def target_modifiers(target: UnitState) -> list[Modifier]:
    """The supplement's modifiers for shooting at a flyer by the move it made in its latest Movement phase."""
    if target.flight in (TAKE_OFF, LAND) and not target.fell:
        return [Modifier("target Took Off/Landed (Take Off/Land)", 1)]
    if target.flight == SOAR:
        return [Modifier("target Soared (Soar)", -1)]
    return []


def can_target(rules: WhfbFlyingRules, state: GameState, shooter: UnitState, target: UnitState,
               weapon: Weapon, *, engaged_ok: bool = False) -> str | None:
    """Why ``shooter`` cannot aim ``weapon`` at ``target``, or None."""
    if target.side == shooter.side or not target.in_play:
        return f"{target.id} is not an enemy unit in the battle (Fly High: cannot be targeted)"
    if not engaged_ok and state.engaged(target.id):
        return f"{target.id} is engaged in close combat"
    profiles = rules.data.units
    first = footprint(shooter, rules.profile(shooter))
    second = footprint(target, rules.profile(target))
    if not within_range(state.range_method, first, second, vertical(shooter, target), weapon.range):
        return f"{target.id} is out of range ({state.range_method} range method)"
    if not rules.profile(shooter).skirmishers and not in_front_arc(first, centre(second)) and not engaged_ok:
        return f"{target.id} is outside {shooter.id}'s front arc"
    if not engaged_ok and not line_of_sight(state, profiles, shooter, target):
        return f"{shooter.id} cannot see {target.id}"
    return None


def volley(rules: WhfbFlyingRules, out, dice: DiceCup, shooter_id: str, target_id: str, *, attack: str,
           modifiers: list[Modifier], weapon: Weapon | None = None, long_range: bool = True,
           apply: bool = True, spell: bool = False, caster: str = "") -> int:
    """One unit's shooting at another: hits, wounds, saves; returns the unsaved wounds (applied unless ``apply``
    is False, for simultaneous shots)."""
    state = out.state
    shooter, target = state.units[shooter_id], state.units[target_id]
    profile = rules.profile(shooter)
    weapon = weapon or profile.missile_weapon()
    if weapon is None:
        return 0
    first = footprint(shooter, profile)
    second = footprint(target, rules.profile(target))
    mods = list(modifiers) + target_modifiers(target)
    if long_range and not within_range(state.range_method, first, second, vertical(shooter, target),
                                       weapon.range // 2):
        mods.append(Modifier("long range", -1))
    cover_modifier = cover(state, rules.data.units, shooter, target) if attack in ("shooting", "stand and shoot") \
        else 0
    if cover_modifier:
        mods.append(Modifier("cover", cover_modifier))
    if weapon.kind == "missile":
        shots = shooter.models if profile.skirmishers else min(shooter.models, 2 * shooter.files)
        shots *= int(weapon.shots) if weapon.shots.isdigit() else 1
        score = attacks.shooting_score(profile.profile.BS, sum(m.value for m in mods))
        hits = attacks.roll_hits(out, dice, shots, score, purpose=f"to hit: {shooter_id} at {target_id}",
                                 roller=shooter.side, modifiers=tuple(mods))
    else:
        shots = attacks.roll_count(out, dice, weapon.shots, purpose=f"{weapon.name}: {shooter_id} at {target_id}",
                                   roller=shooter.side)
        score, hits = 0, shots
    target_profile = rules.profile(target)
    wounds = attacks.roll_wounds(out, dice, hits, weapon.strength, target_profile.profile.T,
                                 purpose=f"to wound: {shooter_id} at {target_id}", roller=shooter.side)
    unsaved = attacks.roll_saves(out, dice, wounds, target_profile.save, weapon.strength,
                                 purpose=f"armour saves: {target_id}", roller=target.side)
    out.emit(AttackResolved(attacker=caster or shooter_id, target=target_id, attack=attack, dice=shots, hits=hits,
                            wounds=wounds, unsaved=unsaved, to_hit=score,
                            modifiers=tuple(f"{m.reason} {m.value:+d}" for m in mods),
                            start=centre(first), end=centre(second), shooting=True, spell=spell))
    if apply:
        apply_wounds(rules, out, dice, target_id, unsaved, shooter_id)
    return unsaved


def why_not_shoot(rules: WhfbFlyingRules, state: GameState, unit: UnitState) -> str | None:
    profile = rules.profile(unit)
    if profile.missile_weapon() is None:
        return f"{unit.id} has no missile weapon"
    if unit.shot:
        return f"{unit.id} has shot this turn"
    if state.engaged(unit.id) or unit.fleeing:
        return f"{unit.id} is engaged or fleeing"
    if unit.flight in CANNOT_SHOOT:
        return f"{unit.id} cannot shoot this turn ({CANNOT_SHOOT[unit.flight]})"
    if unit.marched:
        return f"{unit.id} marched (flyers cannot Shoot on the March)" if profile.flyer else f"{unit.id} marched"
    return None


def shoot(rules: WhfbFlyingRules, out, command: Shoot, dice: DiceCup) -> None:
    state = out.state
    if state.phase != SHOOTING or state.active != command.player:
        raise RuleError("units shoot in their side's Shooting phase", rule="Shooting Phase")
    from .movement import own_unit

    unit = own_unit(state, command.player, command.unit)
    problem = why_not_shoot(rules, state, unit)
    if problem is None:
        target = state.units.get(command.target)
        if target is None:
            raise RuleError(f"no unit {command.target!r}", rule="Shooting Phase")
        problem = can_target(rules, state, unit, target, rules.profile(unit).missile_weapon())
    if problem:
        rule = CANNOT_SHOOT.get(unit.flight, "Shooting Phase") if "cannot shoot this turn" in problem else \
            "Special Rules" if "Shoot on the March" in problem else "Shooting Phase"
        raise RuleError(problem, rule=rule)
    mods = [Modifier("moved (movement penalty)", -1)] if unit.moved else []
    volley(rules, out, dice, unit.id, command.target, attack="shooting", modifiers=mods)


HANDLERS = {Shoot: shoot}


def legal_commands(rules: WhfbFlyingRules, state: GameState, player: str) -> list:
    if state.active != player or state.reactions.pending or state.phase != SHOOTING:
        return []
    result: list = []
    enemies = sorted((u for u in state.units.values() if u.side != player and u.in_play), key=lambda u: u.id)
    for unit in sorted(state.side(player), key=lambda u: u.id):
        if why_not_shoot(rules, state, unit) is None:
            result += [Shoot(player=player, unit=unit.id, target=t.id) for t in enemies
                       if can_target(rules, state, unit, t, rules.profile(unit).missile_weapon()) is None]
    return result
