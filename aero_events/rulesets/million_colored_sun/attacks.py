"""The host's attacks (shooting and combat) with the flight layer's defences.

Host (this project's own minimal skirmish host, README): an attack sequence of hit (D6 >= To Hit), wound
(D6 >= To Wound), save (D6 - Rend >= Save; a Save of 0 is none) and Damage (a number, D3 or D6 per unsaved attack)
inflicting that many wounds. Range is measured base to base. A line of fire between two models that are both not
AIRBORNE is blocked by terrain that is too tall to fly over; one that is AIRBORNE sees over it. A model that ran
does not shoot. In the combat phase a model within 3" of an enemy fights once with every melee weapon in range.

Flight layer:

* **VULNERABLE TO TAIL ATTACKS**: shooting at an AIRBORNE model from its rear arc (geometry.in_rear_arc) doubles
  the wounds inflicted; the doubling comes first, then each wound is tested (DIFFICULT TO HIT).
* **DIFFICULT TO HIT**: an AIRBORNE model takes an Initiative test for each wound (not mortal wounds); a pass ignores
  it. Its own Initiative, not its pilot's.
* **STRAFING RUN**: when an AIRBORNE model shoots at a model that is not AIRBORNE, that model (the target) tests
  Initiative for each wound inflicted; Behemoths that are not AIRBORNE do not.
* **EVADE** / **LOCK-ON**: +1 to the target's own tests; -1 to the tests of models fired upon by a model that locked on.
* **MAY NOT RUN OR DECLARE CHARGES**: AIRBORNE models fight no one in the combat phase, and only models with FLY
  fight an AIRBORNE model (the reading of "They may only be charged by models with the FLY special rule").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aero_events.core import DiceCup, Modifier, RuleError
from aero_events.table import Circle, gap_at_most, line_blocked

from . import damage
from . import events as ev
from .commands import Fight, Shoot
from .geometry import in_rear_arc
from .state import ACTIVE, COMBAT, SHOOTING, GameState, ModelState

if TYPE_CHECKING:
    from .ruleset import MillionColoredSunRules
    from .turn import Emitter

def base(rules: MillionColoredSunRules, model: ModelState) -> Circle:
    return Circle(model.position, rules.warscroll(model).base_radius)


def within(rules: MillionColoredSunRules, a: ModelState, b: ModelState, reach: int) -> bool:
    return gap_at_most(base(rules, a), base(rules, b), reach)


def visible(rules: MillionColoredSunRules, state: GameState, shooter: ModelState, target: ModelState) -> bool:
    if shooter.airborne or target.airborne:
        return True
    walls = [t.shape for t in state.terrain.values() if t.too_tall and not t.destroyed]
    return not line_blocked(shooter.position, target.position, walls)


def shooting_problem(rules: MillionColoredSunRules, state: GameState, command: Shoot) -> str | None:
    model = state.models.get(command.model)
    target = state.models.get(command.target)
    if model is None or model.side != command.player or model.status != ACTIVE:
        return f"{command.model} is not a model of {command.player} on the table"
    scroll = rules.warscroll(model)
    try:
        weapon = scroll.weapon(command.weapon)
    except KeyError:
        return f"{model.id} has no weapon {command.weapon!r}"
    if weapon.kind != "missile":
        return f"{weapon.name} is a melee weapon"
    if command.weapon in model.shot:
        return f"{model.id} has fired its {weapon.name} this phase"
    if command.weapon in model.jammed:
        return f"{model.id}'s {weapon.name} is Jammed (RECOVER un-jams it)"
    if model.ran:
        return f"{model.id} ran this turn and may not shoot"
    if target is None or target.side == model.side or target.status != ACTIVE:
        return f"{command.target} is not an enemy model on the table"
    if not within(rules, model, target, weapon.range):
        return f"{target.id} is beyond the {weapon.name}'s range"
    if not visible(rules, state, model, target):
        return f"{target.id} is hidden behind terrain"
    return None


def shoot(rules: MillionColoredSunRules, out: Emitter, command: Shoot, dice: DiceCup) -> None:
    state = out.state
    if state.phase != SHOOTING or state.active != command.player:
        raise RuleError("models shoot in their player's shooting phase", rule="Host: shooting phase")
    problem = shooting_problem(rules, state, command)
    if problem:
        raise RuleError(problem, rule="Host: shooting phase")
    model = state.models[command.model]
    resolve_attacks(rules, out, dice, model, rules.warscroll(model).weapon(command.weapon),
                    state.models[command.target], shooting=True)


def resolve_attacks(rules: MillionColoredSunRules, out: Emitter, dice: DiceCup, model: ModelState, weapon,
                    target: ModelState, *, shooting: bool) -> None:
    """One weapon's attacks: hit, wound, save, damage; then the flight layer's doubling and Initiative tests."""
    player = model.side
    attacks, rolled = damage.roll_value(dice, weapon.attacks, f"attacks: {model.id} {weapon.name}", player)
    for event in rolled:
        out.emit(event)
    hits = wounds = unsaved = inflicted = 0
    if attacks:
        roll = dice.roll(attacks, purpose=f"to hit: {model.id} {weapon.name} at {target.id}", roller=player,
                         target=weapon.to_hit)
        out.emit(roll)
        hits = sum(face >= weapon.to_hit for face in roll.faces)
    if hits:
        roll = dice.roll(hits, purpose=f"to wound: {model.id} {weapon.name} at {target.id}", roller=player,
                         target=weapon.to_wound)
        out.emit(roll)
        wounds = sum(face >= weapon.to_wound for face in roll.faces)
    save = rules.warscroll(target).save
    if wounds:
        if save:
            roll = dice.roll(wounds, purpose=f"save: {target.id} against {weapon.name}", roller=target.side,
                             target=save, modifiers=(Modifier("Rend", -weapon.rend),) if weapon.rend else ())
            out.emit(roll)
            unsaved = sum(face - weapon.rend < save for face in roll.faces)
        else:
            unsaved = wounds
    for index in range(unsaved):
        amount, rolled = damage.roll_value(dice, weapon.damage, f"damage: {weapon.name} at {target.id} ({index + 1})",
                                           player)
        for event in rolled:
            out.emit(event)
        inflicted += amount
    doubled = bool(shooting and inflicted and target.airborne
                   and in_rear_arc(target.pose, model.position, rules.options.rear_arc_degrees))
    if doubled:
        inflicted *= 2  # VULNERABLE TO TAIL ATTACKS
    out.emit(ev.AttacksMade(model=model.id, weapon=weapon.name, target=target.id, attacks=attacks, hits=hits,
                            wounds=wounds, unsaved=unsaved, inflicted=inflicted, doubled=doubled,
                            start=model.position, end=target.position))
    if not inflicted:
        return
    defence = defence_rule(rules, model, target, shooting)
    if defence is not None:
        modifiers = (Modifier("Lock-On", -1),) if model.lock_on and shooting else ()
        kept = 0
        for _ in range(inflicted):
            current = out.state.models[target.id]
            if not damage.initiative_test(rules, out, dice, current, defence, modifiers):
                kept += 1
        inflicted = kept
    damage.allocate(rules, out, dice, target.id, inflicted, mortal=False, source=f"{model.id}'s {weapon.name}",
                    by=player)


def defence_rule(rules: MillionColoredSunRules, model: ModelState, target: ModelState, shooting: bool) -> str | None:
    """Which Initiative rule lets the target ignore wounds: DIFFICULT TO HIT or STRAFING RUN (None: neither)."""
    if target.airborne:
        return "Difficult to Hit"
    if shooting and model.airborne and not rules.warscroll(target).has("BEHEMOTH"):
        return "Strafing Run"
    return None


# ---------------------------------------------------------------- combat


def may_fight(rules: MillionColoredSunRules, model: ModelState, target: ModelState) -> bool:
    """MAY NOT RUN OR DECLARE CHARGES (reading): AIRBORNE models fight no one; only FLY models fight them."""
    if model.airborne or rules.warscroll(model).missile or rules.warscroll(target).missile:
        return False
    return not target.airborne or rules.warscroll(model).has("FLY")


def fight_problem(rules: MillionColoredSunRules, state: GameState, command: Fight) -> str | None:
    model = state.models.get(command.model)
    target = state.models.get(command.target)
    if model is None or model.side != command.player or model.status != ACTIVE:
        return f"{command.model} is not a model of {command.player} on the table"
    if model.fought:
        return f"{model.id} has fought this phase"
    if target is None or target.side == model.side or target.status != ACTIVE:
        return f"{command.target} is not an enemy model on the table"
    if not may_fight(rules, model, target):
        return ("AIRBORNE models may only be charged (and fought) by models with the FLY special rule"
                if target.airborne else f"{model.id} cannot fight {target.id}")
    weapons = melee_weapons(rules, model, target)
    if not weapons:
        return f"{target.id} is beyond the reach of {model.id}'s melee weapons"
    return None


def melee_weapons(rules: MillionColoredSunRules, model: ModelState, target: ModelState) -> list:
    return [w for w in rules.warscroll(model).weapons
            if w.kind == "melee" and w.name not in model.jammed and within(rules, model, target, w.range)]


def eligible_fighters(rules: MillionColoredSunRules, state: GameState, player: str) -> list[ModelState]:
    enemies = [m for m in state.models.values() if m.side != player and m.status == ACTIVE]
    return [m for m in sorted(state.models.values(), key=lambda m: m.id)
            if m.side == player and m.status == ACTIVE and not m.fought
            and any(may_fight(rules, m, e) and melee_weapons(rules, m, e) for e in enemies)]


def fight(rules: MillionColoredSunRules, out: Emitter, command: Fight, dice: DiceCup) -> None:
    state = out.state
    if state.phase != COMBAT or state.combat_player != command.player:
        raise RuleError("it is not your pick in the combat phase", rule="Host: combat phase")
    problem = fight_problem(rules, state, command)
    if problem:
        raise RuleError(problem, rule="MAY NOT RUN OR DECLARE CHARGES" if "FLY" in problem else "Host: combat phase")
    model = state.models[command.model]
    target = state.models[command.target]
    for weapon in melee_weapons(rules, model, target):
        if out.state.models[target.id].status != ACTIVE or out.state.models[model.id].status != ACTIVE:
            break
        resolve_attacks(rules, out, dice, out.state.models[model.id], weapon, out.state.models[target.id],
                        shooting=False)
    out.emit(ev.ModelFought(model=model.id))
    from .turn import after_fight

    after_fight(rules, out)


def legal_commands(rules: MillionColoredSunRules, state: GameState, player: str) -> list:
    if state.phase == SHOOTING and state.active == player:
        options = []
        enemies = sorted((m for m in state.models.values() if m.side != player and m.status == ACTIVE),
                         key=lambda m: m.id)
        for model in sorted(state.side(player), key=lambda m: m.id):
            if model.status != ACTIVE or model.ran:
                continue
            for weapon in rules.warscroll(model).weapons:
                if weapon.kind != "missile" or weapon.name in model.shot or weapon.name in model.jammed:
                    continue
                for target in enemies:
                    command = Shoot(player=player, model=model.id, weapon=weapon.name, target=target.id)
                    if shooting_problem(rules, state, command) is None:
                        options.append(command)
        return options
    if state.phase == COMBAT and state.combat_player == player:
        options = []
        enemies = sorted((m for m in state.models.values() if m.side != player and m.status == ACTIVE),
                         key=lambda m: m.id)
        for model in eligible_fighters(rules, state, player):
            for target in enemies:
                command = Fight(player=player, model=model.id, target=target.id)
                if fight_problem(rules, state, command) is None:
                    options.append(command)
        return options
    return []


HANDLERS = {Shoot: shoot, Fight: fight}
