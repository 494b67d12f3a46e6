"""Initiative tests, wounds and mortal wounds, slain models, and explosions (missiles' 3" blast).

* **Initiative** (DIFFICULT TO HIT, STRAFING RUN, MISSILES): neither host game of 2018 has it; "Initiative 2+" is read
  as a target number: the test passes when a D6 plus its modifiers reaches it. EVADE adds one to the model's own
  rolls "to avoid damage"; LOCK-ON makes the models it fires upon subtract one; a missile's homing subtracts one. A
  natural 1 fails only with the option ``natural_one_fails``. A model without an Initiative (none in the example
  warscrolls) cannot pass.
* **Missile explosions** (MISSILES): "All other models within 3" of the explosion must also take an initiative test
  (subtract one) or suffer D6 mortal wounds"; a missile that runs out of fuel or is destroyed "explodes as described
  below": the same 3" blast, every model within 3" of it testing. Behemoths "always fail" only the test of the model
  that set the missile off (the sentence follows it); in the blast they test like any model.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aero_events.core import DiceCup, Modifier
from aero_events.table import Circle, gap_at_most, inches

from . import events as ev
from .state import ACTIVE, ModelState

if TYPE_CHECKING:
    from .ruleset import MillionColoredSunRules
    from .turn import Emitter

BLAST_RADIUS = inches(3)


def initiative_test(rules: MillionColoredSunRules, out: Emitter, dice: DiceCup, model: ModelState, reason: str,
                    modifiers: tuple[Modifier, ...] = (), automatic_fail: bool = False) -> bool:
    """An Initiative test for ``model`` (its own Initiative, never its pilot's: DIFFICULT TO HIT)."""
    target = rules.warscroll(model).initiative
    if automatic_fail or target is None:
        out.emit(ev.InitiativeTested(model=model.id, reason=reason, roll=0, modifier=0, target=target, passed=False))
        return False
    if model.evade:  # EVADE: "add one to any initiative rolls made for this model when rolling to avoid damage"
        modifiers = (*modifiers, Modifier("Evade", 1))
    roll = dice.d6(purpose=f"initiative test: {model.id} ({reason})", roller=model.side, target=target,
                   modifiers=modifiers)
    out.emit(roll)
    face = roll.faces[0]
    total = face + roll.total_modifier
    passed = total >= target and not (rules.options.natural_one_fails and face == 1)
    out.emit(ev.InitiativeTested(model=model.id, reason=reason, roll=face, modifier=roll.total_modifier,
                                 target=target, passed=passed))
    return passed


def roll_value(dice: DiceCup, expression: str, purpose: str, roller: str | None) -> tuple[int, list]:
    """A characteristic that is a number, D3 or D6: its value and the dice events rolled for it."""
    if expression.isdigit():
        return int(expression), []
    if expression == "D3":
        event = dice.d3(purpose=purpose, roller=roller)
    else:
        event = dice.d6(purpose=purpose, roller=roller)
    return event.total, [event]


def allocate(rules: MillionColoredSunRules, out: Emitter, dice: DiceCup, model_id: str, wounds: int, *,
             mortal: bool, source: str, by: str | None) -> None:
    """Wounds (or mortal wounds) allocated to a model; it is slain when its wounds are used up."""
    model = out.state.models[model_id]
    if wounds <= 0 or model.status != ACTIVE:
        return
    out.emit(ev.WoundsAllocated(model=model_id, wounds=wounds, mortal=mortal, source=source))
    model = out.state.models[model_id]
    if model.wounds_taken >= rules.warscroll(model).wounds:
        out.emit(ev.ModelSlain(model=model_id, by=by, reason=source))
        if rules.warscroll(model).missile:  # MISSILES: "A missile which is destroyed ... explodes"
            explode(rules, out, dice, model_id, (model.x, model.y), "destroyed")


def mortal_wounds(rules: MillionColoredSunRules, out: Emitter, dice: DiceCup, model_id: str, source: str,
                  by: str | None) -> None:
    """D6 mortal wounds (COLLISION, MISSILES, BOMBS): no save, no Initiative test (DIFFICULT TO HIT)."""
    model = out.state.models[model_id]
    if model.status != ACTIVE:
        return
    roll = dice.d6(purpose=f"mortal wounds: {model_id} ({source})", roller=by)
    out.emit(roll)
    allocate(rules, out, dice, model_id, roll.faces[0], mortal=True, source=source, by=by)


def explode(rules: MillionColoredSunRules, out: Emitter, dice: DiceCup, missile_id: str, point: tuple[int, int],
            reason: str, struck: str | None = None) -> None:
    """A missile explodes at ``point``: ``struck`` (the model that failed its test) suffers D6 mortal wounds, then
    every other model within 3" tests Initiative at -1 or suffers D6 mortal wounds."""
    missile = out.state.models[missile_id]
    out.emit(ev.MissileExploded(missile=missile_id, x=point[0], y=point[1], reason=reason))
    if struck is not None:
        mortal_wounds(rules, out, dice, struck, f"missile {missile_id}", missile.side)
    blast = Circle(point, BLAST_RADIUS)
    caught = [m for m in sorted(out.state.models.values(), key=lambda m: m.id)
              if m.status == ACTIVE and m.id not in (missile_id, struck)
              and gap_at_most(Circle(m.position, rules.warscroll(m).base_radius), blast, 0)]
    for model in caught:
        current = out.state.models[model.id]
        if current.status != ACTIVE:
            continue
        if not initiative_test(rules, out, dice, current, f"blast of {missile_id}", (Modifier("missile blast", -1),)):
            mortal_wounds(rules, out, dice, model.id, f"blast of {missile_id}", missile.side)
