"""SETUP, PLANNING, Steep Manoeuvres, SPECIAL MANOEUVRES, FULL LOAD, Rudder jammed, Engine Damage.

Each plane has a two-slot console: the card in the first slot is flown this turn, the card planned now
goes face down into the second slot and is flown next turn (PLANNING). All players plan at once and in
secret, as simultaneous orders (:mod:`aero_events.core.orders`): each planning (SETUP, then every turn) is
a step whose slots are the planes in play; a :class:`~.events.CardPlanned` is the core's sealed
``OrderCommitted`` whose card only its owner sees; the others see the commitment, checked when the card is
revealed as it is flown (MOVEMENT). A plane's console is its cards still face down, oldest step first
(:func:`console`): the first slot, then the second.

Which cards may follow which (the "sequence") is judged over the cards in planning order: the cards
flown so far, then the one waiting in the first slot. Choices where the text is open:

* "you must play a straight move just before planning the Immelmann" reads as: the card before the
  Immelmann in planning order is a straight (the text's example, "a plane cannot follow a dive by an
  Immelmann turn", agrees).
* An Immelmann card after a stall is a Split-S; after a straight it is an Immelmann; after anything
  else it is illegal. "Two Immelmann turns must be separated by at least two straights" applies to
  Immelmanns (not Split-S).
* Engine damage "may not plan a climb or an Immelmann": the Immelmann card is refused (Split-S too).
* With option ``illegal_plans="refuse"`` (default) an illegal plan is a RuleError; with ``"penalise"``
  (for recording a real table) any unused card is accepted and judged when revealed (ILLEGAL MANOEUVRES).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from aero_events.core import Command, DiceCup, RuleError
from aero_events.core.orders import (
    OrdersOpened,
    OrdersState,
    commit,
    evolve_order_steps,
    open_orders,
    pending_orders,
)

from . import pieces
from .commands import ChangeFloor, PlanCard
from .data import Card
from .events import CardPlanned, FloorChanged
from .state import PLAN, SETUP, GameState, PlaneState, replace

if TYPE_CHECKING:
    from .ruleset import WingsOfGloryRules
    from .turn import Emitter


SETUP_STEP = "setup"


def step_name(state: GameState) -> str:
    """The planning step of the current phase: "setup" (first slot), then "turn N" (second slot)."""
    return SETUP_STEP if state.phase == SETUP else f"turn {state.turn}"


def open_plans(state: GameState) -> OrdersOpened:
    """SETUP / PLANNING: every plane in play plans one card, its owner's to choose."""
    return open_orders(step_name(state), {p.id: p.owner for p in sorted(state.planes.values(), key=lambda p: p.id)
                                          if p.in_play})


def console(state: GameState, plane_id: str) -> tuple[int, ...]:
    """The referee's view of a plane's console: its cards still face down, first slot first."""
    return pending_orders(state.orders, plane_id)


def first_slot(state: GameState, plane_id: str) -> int | None:
    cards = console(state, plane_id)
    return cards[0] if cards else None


def current_step(state: GameState) -> OrdersState | None:
    """The planning step open now (None outside SETUP and PLAN, or before it opens)."""
    if state.phase not in (SETUP, PLAN) or not state.orders or state.orders[-1].step != step_name(state):
        return None
    return state.orders[-1]


def planning_sequence(rules: WingsOfGloryRules, state: GameState, plane: PlaneState) -> list[Card]:
    """The cards before the one being planned, in planning order: flown, then the first slot's card."""
    cards = [pieces.card(rules, plane, n) for n in plane.flown]
    cards.extend(pieces.card(rules, plane, n) for n in console(state, plane.id)[:1])
    return cards


def immelmann_kind(previous: Sequence[Card]) -> str | None:
    """SPECIAL MANOEUVRES: an Immelmann card after a straight is an Immelmann, after a stall a Split-S."""
    if not previous:
        return None
    if previous[-1].kind == "straight":
        return "immelmann"
    if previous[-1].kind == "stall":
        return "split_s"
    return None


def sequence_problem(rules: WingsOfGloryRules, state: GameState, plane: PlaneState, new: Card,
                     previous: Sequence[Card], *, at_setup: bool = False, planning: bool = True) -> str | None:
    """Why ``new`` may not follow ``previous`` for this plane (None when it may).

    ``planning`` False re-judges a card when it is revealed: the rudder jam and engine damage restrict only
    what is planned ("Any manoeuvres already selected are carried out as placed"), the Acrobatic Pilot's
    card must be flown once his Recovery counters are gone.
    """
    impaired = pieces.pilot_impaired(plane)
    if at_setup and new.steep:
        return "SETUP: steep manoeuvres may not be chosen during setup"
    if planning and plane.rudder_plans > 0 and plane.rudder is not None and new.direction == plane.rudder[0].upper():
        return "Rudder jammed: the next two planned cards cannot turn toward the jammed rudder"
    if planning and new.kind in ("climb", "immelmann"):
        prof = pieces.profile(rules, plane)
        if pieces.engine_effect(prof.engines, plane.engine) == "no_climb":
            return "Engine Damage: the plane may not plan a climb or an Immelmann"
    last = previous[-1] if previous else None
    if last is not None and last.kind == "dive_bomb":
        if not (new.kind == "dive_bomb" and new.number != last.number) and new.steep and new.kind != "climb":
            return "DIVE BOMBING: after a bomb dive card comes the other bomb dive card, a non-steep card or a climb"
        if new.kind in ("dive_bomb", "climb") or not new.steep:
            return _immelmann_problem(rules, state, plane, new, previous, impaired, planning)
    if new.steep:
        gap = 2 if (plane.loaded or impaired) else 1
        for since, earlier in enumerate(reversed(previous)):
            if earlier.steep:
                if since < gap:
                    if gap == 2:
                        why = "FULL LOAD" if plane.loaded else "NOVICE OR WOUNDED PILOT"
                        return f"{why}: two non-steep manoeuvres must come between steep ones"
                    return "Steep Manoeuvres: at least one non-steep card must come between two steep cards"
                break
    return _immelmann_problem(rules, state, plane, new, previous, impaired, planning)


def _immelmann_problem(rules: WingsOfGloryRules, state: GameState, plane: PlaneState, new: Card,
                       previous: Sequence[Card], impaired: bool, planning: bool) -> str | None:
    last = previous[-1] if previous else None
    if last is not None and last.kind == "immelmann" and new.kind != "straight":
        if not pieces.has_skill(plane, 0, "acrobatic"):
            return "Immelmann turn / Split-S: a straight must follow the Immelmann card"
        if not planning and not pieces.skill_ready(state, plane, 0, "acrobatic"):
            return "Acrobatic Pilot: the card was flown while Recovery counters remained"
    if new.kind != "immelmann":
        return None
    if impaired:
        return "NOVICE OR WOUNDED PILOT: may not use the Immelmann card"
    if plane.loaded:
        return "FULL LOAD: a loaded plane cannot use the Immelmann card"
    kind = immelmann_kind(previous)
    if kind is None:
        return "Immelmann turn: a straight (Split-S: a stall) must come just before the Immelmann card"
    if kind == "immelmann":
        straights = 0
        for index in range(len(previous) - 1, -1, -1):
            earlier = previous[index]
            if earlier.kind == "immelmann":
                if immelmann_kind(previous[:index]) == "immelmann" and straights < 2:
                    return "Immelmann turn: two Immelmann turns must be separated by at least two straights"
                break
            if earlier.kind == "straight":
                straights += 1
    return None


def plan_card(rules: WingsOfGloryRules, out: Emitter, command: PlanCard, dice: DiceCup) -> None:
    """SETUP (first slot) or PLANNING (second slot): a card face down in the console."""
    state = out.state
    heading = "SETUP" if state.phase == SETUP else "PLANNING"
    if state.phase not in (SETUP, PLAN):
        raise RuleError("cards are planned in the plan phase", rule="PLANNING", page=None)
    plane = state.planes.get(command.plane)
    if plane is None or plane.owner != command.player:
        raise RuleError(f"{command.player} has no plane {command.plane!r}", rule=heading, page=None)
    if not plane.in_play:
        raise RuleError(f"{plane.id} is out of the game", rule=heading, page=None)
    step = current_step(state)
    if step is None:
        raise RuleError("cards are planned in the plan phase", rule=heading, page=None)
    slot = 1 if state.phase == SETUP else 2
    if plane.id in step.sealed:
        raise RuleError(f"{plane.id} already has a card in slot {slot}", rule=heading, page=None)
    if not 1 <= command.card <= pieces.deck_size(rules, plane):
        raise RuleError(f"{plane.id}'s deck has cards 1 to {pieces.deck_size(rules, plane)}", rule=heading,
                        page=None)
    if command.card in console(state, plane.id):
        raise RuleError("choose an unused card: that one is already in the console", rule="PLANNING", page=None)
    new = pieces.card(rules, plane, command.card)
    if rules.options.illegal_plans == "refuse":
        problem = sequence_problem(rules, state, plane, new, planning_sequence(rules, state, plane),
                                   at_setup=slot == 1)
        if problem is not None:
            rule = problem.split(":")[0]
            raise RuleError(problem.split(": ", 1)[1], rule=rule, page=None)
    out.emit(commit(step, plane.owner, command.card, dice.salts.next(), slot=plane.id, rule=heading, page=None,
                    event_type=CardPlanned))


def change_floor(rules: WingsOfGloryRules, out: Emitter, command: ChangeFloor, dice: DiceCup) -> None:
    """ALTITUDE: before a move any player may change the floor (bookkeeping: pegs change, altitudes do not)."""
    state = out.state
    if state.phase not in (SETUP, PLAN):
        raise RuleError("the floor is changed before a move", rule="ALTITUDE", page=None)
    lowest = min((p.level for p in state.planes.values() if p.in_play), default=command.floor)
    if command.floor < 0 or command.floor > lowest:
        raise RuleError(f"the floor must lie between 0 and the lowest plane's altitude ({lowest})",
                        rule="ALTITUDE", page=None)
    if command.floor == state.floor:
        raise RuleError(f"the floor is already {state.floor}", rule="ALTITUDE", page=None)
    out.emit(FloorChanged(floor=command.floor))


HANDLERS = {PlanCard: plan_card, ChangeFloor: change_floor}


def legal_cards(rules: WingsOfGloryRules, state: GameState, plane: PlaneState) -> list[int]:
    at_setup = state.phase == SETUP
    previous = planning_sequence(rules, state, plane)
    in_console = console(state, plane.id)
    cards = []
    for number in range(1, pieces.deck_size(rules, plane) + 1):
        if number in in_console:
            continue
        if sequence_problem(rules, state, plane, pieces.card(rules, plane, number), previous,
                            at_setup=at_setup) is None:
            cards.append(number)
    return cards


def needs_plan(state: GameState, plane: PlaneState) -> bool:
    step = current_step(state)
    return plane.in_play and step is not None and plane.id in step.slots and plane.id not in step.sealed


def legal_commands(rules: WingsOfGloryRules, state: GameState, player: str) -> list[Command]:
    """The cards each plane of ``player`` may plan now. ChangeFloor is accepted by ``decide`` but not offered
    here: it is bookkeeping that changes no rule, and offering it would let bots change the floor forever."""
    if state.phase not in (SETUP, PLAN):
        return []
    return [PlanCard(player=player, plane=plane.id, card=n)
            for plane in state.planes_of(player) if needs_plan(state, plane)
            for n in legal_cards(rules, state, plane)]


def evolve(rules: WingsOfGloryRules, state: GameState, event) -> GameState | None:
    steps = evolve_order_steps(state.orders, event)
    if steps is None:
        return _evolve_other(state, event)
    if type(event) is CardPlanned and event.step != SETUP_STEP:
        plane = state.planes[event.slot]
        plane = replace(plane, rudder_plans=max(0, plane.rudder_plans - 1),
                        rudder=plane.rudder if plane.rudder_plans > 1 else None)
        return replace(state, orders=steps, planes={**state.planes, plane.id: plane})
    return replace(state, orders=steps)


def _evolve_other(state: GameState, event) -> GameState | None:
    if isinstance(event, FloorChanged):
        return replace(state, floor=event.floor)
    return None
