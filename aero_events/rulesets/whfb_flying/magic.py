"""The Magic Phase: "Follow any rules that would apply to Shooting Attacks or Close Combat, depending upon the
spell type", on this project's minimal host's magic (README, "Magic").

Host: a wizard (a profile that knows spells of the lore, ``data/lore.json``) casts at most one spell in its
side's Magic phase, cast on 2D6 >= the spell's casting value; no power dice, dispels or miscasts. A character
that joined a unit casts from inside it. Three spell types:

* **magic missile** (a shooting attack): the target rules of shooting (an enemy unit not in close combat, in
  range by the game's range method, in the caster's front arc unless it is a skirmisher, in sight from or to
  the air); the spell hits automatically ``hits`` times at its Strength; armour saves.
* **direct damage** (a shooting attack with a round template): the same target rules; the caster aims with
  its BS and the shooting modifiers (moving -1, long range -1, cover, and the supplement's: +1 at a unit that
  Took Off or Landed, -1 at a Soaring one): a hit centres the template on the unit aimed at, a miss scatters
  it by the scatter die and D6" (the falling-model scatter, option ``scatter_distance``). The template is at the
  level of the unit aimed at (10" up, or on the ground): every model at that level, of either side, whose base
  centre lies under it takes one hit at the spell's Strength; armour saves.
* **close combat**: the caster (or the unit it joined) must be in base contact with the enemy unit ("Flying
  units may Fly directly above a ground unit, but not be engaged with them"; "Ground units cannot attack
  Flying units except ... during the Swoop", so a unit on the ground reaches one in the air only in a Swoop);
  ``hits`` attacks to hit by the caster's WS against the target's, to wound by the spell's Strength, armour
  saves. Cast in the Magic phase, its wounds do not count for the next combat resolution.

The supplement's shooting restrictions apply to casters of shooting-type spells as to shooters: a flyer that
Took Off or Landed ("The Flying units themselves cannot shoot this turn") or Soared ("Soaring models cannot
shoot") this turn cannot cast them, nor a flyer that marched ("cannot Shoot on the March"); a wizard on foot may
cast after marching (the host's 8th-edition model: marching stops shooting, not casting).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aero_events.core import DiceCup, Modifier, RuleError
from aero_events.table import centre

from . import attacks
from .commands import CastSpell
from .data import Spell
from .events import AttackResolved, TemplatePlaced
from .falling import apply_wounds, scatter_point
from .geometry import cover, footprint, vertical, within_range
from .shooting import CANNOT_SHOOT, can_target, target_modifiers, volley
from .state import MAGIC, GameState, UnitState

if TYPE_CHECKING:
    from .ruleset import WhfbFlyingRules

RULE = "Magic Phase"


def _caster(state: GameState, player: str, unit_id: str) -> UnitState:
    unit = state.units.get(unit_id)
    if unit is None or unit.side != player or not unit.alive:
        raise RuleError(f"{unit_id!r} is not a wizard of {player}'s in the battle", rule=RULE)
    return unit


def fighting_unit(state: GameState, unit: UnitState) -> UnitState:
    """The unit a caster fights and is placed with: the unit it joined, or itself."""
    return state.units[unit.joined] if unit.joined else unit


def why_not_cast(rules: WhfbFlyingRules, state: GameState, caster: UnitState, spell: Spell,
                 target: UnitState) -> str | None:
    """Why ``caster`` may not cast ``spell`` at ``target`` now, or None."""
    body = fighting_unit(state, caster)
    if caster.cast:
        return f"{caster.id} has cast a spell this Magic phase"
    if body.fleeing:
        return f"{caster.id} is fleeing"
    if target.side == caster.side or not target.in_play:
        return f"{target.id} is not an enemy unit in the battle"
    if spell.kind == "close combat":
        if not any({body.id, target.id} == {c.charger, c.target} for c in state.combats):
            above = " (flying above a unit is not being engaged with it)" if body.in_air != target.in_air else ""
            return f"{target.id} is not in close combat with {caster.id}{above}: a close combat spell follows the " \
                   "rules for close combat"
        return None
    if caster.flight in CANNOT_SHOOT or body.flight in CANNOT_SHOOT:
        move = CANNOT_SHOOT.get(caster.flight) or CANNOT_SHOOT[body.flight]
        return f"{caster.id} cannot shoot this turn ({move}), so it cannot cast a {spell.kind}"
    if body.marched and rules.profile(body).flyer:
        return f"{caster.id} marched (flyers cannot Shoot on the March)"
    if state.engaged(body.id):
        return f"{caster.id} is engaged in close combat"
    problem = can_target(rules, state, body, target, spell.as_weapon())
    return f"{problem}: a {spell.kind} follows the rules for shooting" if problem else None


def cast(rules: WhfbFlyingRules, out, command: CastSpell, dice: DiceCup) -> None:
    state = out.state
    if state.phase != MAGIC or state.active != command.player:
        raise RuleError("spells are cast in their side's Magic phase", rule=RULE)
    caster = _caster(state, command.player, command.unit)
    profile = rules.profile(caster)
    if command.spell not in profile.spells:
        raise RuleError(f"{caster.id} does not know {command.spell!r} (knows: {', '.join(profile.spells) or 'none'})",
                        rule=RULE)
    spell = rules.data.lore[command.spell]
    target = state.units.get(command.target)
    if target is None:
        raise RuleError(f"no unit {command.target!r}", rule=RULE)
    problem = why_not_cast(rules, state, caster, spell, target)
    if problem:
        raise RuleError(problem, rule=RULE)
    roll = dice.roll(2, purpose=f"casting {spell.name}: {caster.id}", roller=caster.side, target=spell.casting_value)
    out.emit(roll)
    if roll.total < spell.casting_value:
        out.emit(AttackResolved(attacker=caster.id, target=target.id, attack=f"{spell.name} (not cast)", dice=0,
                                hits=0, wounds=0, unsaved=0, shooting=True, spell=True))
        return
    if spell.kind == "magic missile":
        volley(rules, out, dice, fighting_unit(state, caster).id, target.id, attack=spell.name, modifiers=[],
               weapon=spell.as_weapon(), long_range=False, spell=True, caster=caster.id)
    elif spell.kind == "direct damage":
        direct_damage(rules, out, dice, caster, spell, target)
    else:
        close_combat_spell(rules, out, dice, caster, spell, target)


def aim_modifiers(rules: WhfbFlyingRules, state: GameState, body: UnitState, target: UnitState,
                  spell: Spell) -> list[Modifier]:
    """The shooting modifiers of a direct damage spell's aim (host shooting and the supplement's)."""
    mods = [Modifier("moved (movement penalty)", -1)] if body.moved else []
    mods += target_modifiers(target)
    first, second = footprint(body, rules.profile(body)), footprint(target, rules.profile(target))
    if not within_range(state.range_method, first, second, vertical(body, target), spell.range // 2):
        mods.append(Modifier("long range", -1))
    cover_modifier = cover(state, rules.data.units, body, target)
    if cover_modifier:
        mods.append(Modifier("cover", cover_modifier))
    return mods


def model_centres(rules: WhfbFlyingRules, unit: UnitState) -> list[tuple[int, int]]:
    """Where each model's base centre is: ranks from the front, files from the left."""
    profile = rules.profile(unit)
    files = min(unit.files, unit.models)
    width = files * profile.base_width
    result = []
    for index in range(unit.models):
        rank, file = divmod(index, files)
        right = -width // 2 + (2 * file + 1) * profile.base_width // 2
        forward = -(2 * rank + 1) * profile.base_depth // 2
        result.append(unit.pose.moved(forward=forward, right=right).position)
    return result


def models_under(rules: WhfbFlyingRules, unit: UnitState, point: tuple[int, int], radius: int) -> int:
    limit = radius * radius
    return sum(1 for x, y in model_centres(rules, unit) if (x - point[0]) ** 2 + (y - point[1]) ** 2 <= limit)


def direct_damage(rules: WhfbFlyingRules, out, dice: DiceCup, caster: UnitState, spell: Spell,
                  target: UnitState) -> None:
    state = out.state
    body = fighting_unit(state, caster)
    mods = aim_modifiers(rules, state, body, target, spell)
    score = attacks.shooting_score(rules.profile(caster).profile.BS, sum(m.value for m in mods))
    aimed = centre(footprint(target, rules.profile(target)))
    on_target = attacks.roll_hits(out, dice, 1, score, purpose=f"aim {spell.name}: {caster.id} at {target.id}",
                                  roller=caster.side, modifiers=tuple(mods))
    spot = aimed if on_target else scatter_point(rules, out, dice, aimed, purpose=f"{spell.name} scatters",
                                                 roller=caster.side)
    hits = {}
    for unit in sorted(out.state.units.values(), key=lambda u: u.id):
        if unit.in_play and unit.in_air == target.in_air:
            count = models_under(rules, unit, spot, spell.radius)
            if count:
                hits[unit.id] = count
    out.emit(TemplatePlaced(caster=caster.id, spell=spell.name, aimed_at=target.id, centre=spot, radius=spell.radius,
                            in_air=target.in_air, hits=hits))
    labels = tuple(f"{m.reason} {m.value:+d}" for m in mods)
    start = centre(footprint(body, rules.profile(body)))
    if not hits:
        out.emit(AttackResolved(attacker=caster.id, target=target.id, attack=spell.name, dice=1, hits=0, wounds=0,
                                unsaved=0, to_hit=score, modifiers=labels, start=start, end=spot, shooting=True,
                                spell=True))
    for unit_id, count in hits.items():
        struck = out.state.units[unit_id]
        profile = rules.profile(struck)
        wounds = attacks.roll_wounds(out, dice, count, spell.strength, profile.profile.T,
                                     purpose=f"to wound: {spell.name} on {unit_id}", roller=caster.side)
        unsaved = attacks.roll_saves(out, dice, wounds, profile.save, spell.strength,
                                     purpose=f"armour saves: {unit_id}", roller=struck.side)
        out.emit(AttackResolved(attacker=caster.id, target=unit_id, attack=spell.name, dice=1, hits=count,
                                wounds=wounds, unsaved=unsaved, to_hit=score, modifiers=labels, start=start,
                                end=spot, shooting=True, spell=True))
        apply_wounds(rules, out, dice, unit_id, unsaved, caster.id)


def close_combat_spell(rules: WhfbFlyingRules, out, dice: DiceCup, caster: UnitState, spell: Spell,
                       target: UnitState) -> None:
    profile, enemy = rules.profile(caster), rules.profile(target)
    count = attacks.roll_count(out, dice, spell.hits, purpose=f"{spell.name}: {caster.id}", roller=caster.side)
    score = attacks.combat_score(profile.profile.WS, enemy.profile.WS)
    hits = attacks.roll_hits(out, dice, count, score, purpose=f"to hit: {spell.name} on {target.id}",
                             roller=caster.side)
    wounds = attacks.roll_wounds(out, dice, hits, spell.strength, enemy.profile.T,
                                 purpose=f"to wound: {spell.name} on {target.id}", roller=caster.side)
    unsaved = attacks.roll_saves(out, dice, wounds, enemy.save, spell.strength, purpose=f"armour saves: {target.id}",
                                 roller=target.side)
    out.emit(AttackResolved(attacker=caster.id, target=target.id, attack=spell.name, dice=count, hits=hits,
                            wounds=wounds, unsaved=unsaved, to_hit=score, modifiers=("close combat",), spell=True))
    apply_wounds(rules, out, dice, target.id, unsaved, caster.id)


HANDLERS = {CastSpell: cast}


def legal_commands(rules: WhfbFlyingRules, state: GameState, player: str) -> list:
    if state.active != player or state.reactions.pending or state.phase != MAGIC:
        return []
    result: list = []
    enemies = sorted((u for u in state.units.values() if u.side != player and u.in_play), key=lambda u: u.id)
    for unit in sorted((u for u in state.units.values() if u.side == player and u.alive), key=lambda u: u.id):
        for name in rules.profile(unit).spells:
            spell = rules.data.lore[name]
            result += [CastSpell(player=player, unit=unit.id, target=t.id, spell=name) for t in enemies
                       if why_not_cast(rules, state, unit, spell, t) is None]
    return result
