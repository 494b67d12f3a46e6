"""Helpers: build a Wings of Glory situation by hand and run commands on it."""

from __future__ import annotations

import msgspec
import pytest

from aero_events.core import DiceCup, SaltSource, SeededDice
from aero_events.core.orders import OrdersState, SealedOrder, evolve_order_steps, open_orders, pending_orders
from aero_events.core.pools import ManualDraw
from aero_events.core.secrets import commitment
from aero_events.rulesets.wings_of_glory import WingsOfGloryRules
from aero_events.rulesets.wings_of_glory.geometry import Pose
from aero_events.rulesets.wings_of_glory.setup import GameSetup, PlaneSetup, TargetSetup, build_initial_state
from aero_events.rulesets.wings_of_glory.state import FIRE, PLAN

RULES = WingsOfGloryRules()


@pytest.fixture
def rules() -> WingsOfGloryRules:
    return RULES


def plane(pid: str, owner: str, profile: str, x: float, y: float, heading: float, level: int = 3, **extra):
    return PlaneSetup(id=pid, owner=owner, profile=profile, x=str(x), y=str(y), heading=str(heading), level=level,
                      **extra)


def situation(*planes: PlaneSetup, targets: tuple[TargetSetup, ...] = (), table=(900, 900), rules=RULES, **extra):
    """A state built from planes placed by hand (mm, degrees), players RAF and Luftwaffe, turn 1."""
    setup = GameSetup(scenario="test", players=("RAF", "Luftwaffe"), table=(str(table[0]), str(table[1])),
                      planes=planes, targets=targets, **extra)
    return build_initial_state(setup, rules.catalogue)


def at(state, pid: str, **changes):
    """The state with plane ``pid`` changed (``pose`` may be given as (x mm, y mm, heading deg))."""
    if "pose" in changes and isinstance(changes["pose"], tuple):
        x, y, h = changes["pose"]
        changes["pose"] = Pose(round(x * 100), round(y * 100), round(h * 100) % 36000)
    planes = dict(state.planes)
    planes[pid] = msgspec.structs.replace(planes[pid], **changes)
    return msgspec.structs.replace(state, planes=planes)


def in_phase(state, phase=FIRE, subphase="3b", turn=1):
    """The state moved to ``phase`` of ``turn``; in the plan phase the turn's planning step opens for every plane
    in play with fewer than two cards in its console."""
    state = msgspec.structs.replace(state, phase=phase, subphase=subphase if phase == FIRE else None, turn=turn)
    if phase != PLAN or (state.orders and state.orders[-1].step == f"turn {turn}"):
        return state
    slots = {p.id: p.owner for p in state.planes.values() if p.in_play and len(console_of(state, p.id)) < 2}
    return msgspec.structs.replace(state, orders=evolve_order_steps(state.orders, open_orders(f"turn {turn}", slots)))


def cup(faces=(), items=(), seed=None) -> DiceCup:
    """A dice cup: seeded, or a table's dice and token draws typed in (faces, then token names)."""
    if seed is not None:
        return DiceCup(SeededDice(seed), salts=SaltSource(seed))
    source = ManualDraw()
    if faces:
        source.enter(list(faces))
    if items:
        source.enter_items(list(items))
    return DiceCup(source, salts=SaltSource("test"))


def run(rules, state, command, dice=None):
    """Decide and fold one command: (events, state after)."""
    dice = dice or cup(seed=7)
    events = rules.decide(state, command, dice)
    return events, rules.fold(state, events)


def planned(state, **slots):
    """Give planes cards in their consoles (plane id -> (slot1, slot2))."""
    for pid, (first, second) in slots.items():
        state = console(state, pid, first, second)
    return state


__all__ = ["PLAN", "at", "console", "console_of", "cup", "in_phase", "plane", "planned", "run", "situation",
           "tampered"]


def console(state, pid: str, slot1: int, slot2: int | None = None):
    """Plane ``pid`` with cards sealed in its console, as planning leaves them: ``slot1`` in the oldest planning
    step, ``slot2`` in the next (each step holds only the planes given cards in it, so it can be revealed)."""
    owner = state.planes[pid].owner
    steps = list(state.orders[:2]) or [OrdersState(step="setup")]
    names = ("setup", f"turn {max(state.turn, 1)}")
    cards = (slot1, slot2)
    for index, card in enumerate(cards):
        if index == len(steps):
            if card is None:
                break
            steps.append(OrdersState(step=names[index]))
        step = steps[index]
        sealed = {k: v for k, v in step.sealed.items() if k != pid}
        if card is not None:
            salt = f"salt-{index + 1}-{pid}"
            sealed[pid] = SealedOrder(owner=owner, commitment=commitment({"order": card}, salt), order=card, salt=salt)
        slots = {k: step.slots.get(k, owner) for k in sealed}
        steps[index] = msgspec.structs.replace(step, slots=slots, sealed=sealed,
                                               revealed={k: v for k, v in step.revealed.items() if k != pid})
    return msgspec.structs.replace(state, orders=tuple(steps))


def console_of(state, pid: str) -> tuple[int, ...]:
    """The cards face down in ``pid``'s console, first slot first."""
    return pending_orders(state.orders, pid)


def tampered(state, pid: str, card: int):
    """The state with another card under ``pid``'s first-slot commitment (a forged console)."""
    step = state.orders[0]
    sealed = {**step.sealed, pid: msgspec.structs.replace(step.sealed[pid], order=card)}
    return msgspec.structs.replace(state, orders=(msgspec.structs.replace(step, sealed=sealed), *state.orders[1:]))


def step(rules, state, part, dice=None):
    """Run one automatic step ``part(rules, out, dice)`` (movement, ground fire...): (events, state)."""
    from aero_events.rulesets.wings_of_glory.turn import Emitter

    dice = dice or cup(seed=7)
    out = Emitter(state, rules.evolve, dice.salts)
    part(rules, out, dice)
    return out.events, out.state
