"""Simultaneous orders and reaction windows: plain functions over immutable values.

Two patterns that recur across rulesets, as state values a ruleset embeds in its own state, events
its ``decide`` returns, and pure functions its ``evolve`` calls.

**Simultaneous orders** (:class:`OrdersState`): every player commits a secret order, then all are
revealed together and resolved. Aeronautica's face-down Manoeuvre tokens (p.13) are one case; Wings
of Glory's planning ("each plane plans one card ahead", a two-slot console) another. An order is
kept per *slot* (a plane, a ship, or simply the player) owned by a player. Committing
(:func:`commit`) makes a sealed :class:`OrderCommitted` (a
:class:`~aero_events.core.secrets.SecretEvent`): other players see that the slot has committed and the
commitment, never the order. Once :func:`all_committed`, :func:`reveal` makes an
:class:`OrdersRevealed`, whose every order is checked against its commitment when applied.
:func:`view_orders` is what a player may see.

**Orders committed in one step and revealed in a later one** (Wings of Glory's two-slot console: the card
planned this turn is flown, and only then revealed, next turn) keep a tuple of steps, oldest first
(:func:`evolve_order_steps` routes each event by its ``step`` and drops a step once :func:`settled`).
:func:`pending_orders` gives a slot's orders still face down across the steps (the console, in the order
they will be revealed). An order that will never be carried out (a plane shot down with a card still
planned) is put aside face down by :func:`discard` (:class:`OrdersDiscarded`): nobody ever sees it.

**Reaction windows** (:class:`Reactions`): a decision that a player other than the active one makes in
the middle of another player's action (Battlefleet Gothic: Brace for Impact "ANY time a ship faces
taking damage but before the result is rolled"; WHFB charge reactions). :func:`open_window` pushes a
:class:`PendingDecision` (who decides, about what, the allowed choices, the rule and page that grant
it, and what the ruleset resumes afterwards); :func:`answer` records the choice and pops it. While a
window is open, :func:`require_no_window` blocks every other command with a :class:`RuleError`
("waiting for X to decide Y") and :func:`reaction_choices` gives the deciding player their legal
choices. Windows nest: the last opened is answered first.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

import msgspec

from .errors import DataError, RuleError
from .events import Event
from .secrets import SecretEvent, check_reveal

ORDERS_RULE = "Simultaneous orders"
REACTION_RULE = "Reaction"

# ---------------------------------------------------------------- simultaneous orders


class SealedOrder(msgspec.Struct, frozen=True):
    """A committed order in the referee's state: the order and salt stay out of every other player's view."""

    owner: str
    commitment: str
    order: Any = None
    salt: str = ""


class OrdersState(msgspec.Struct, frozen=True):
    """The orders of one step: ``slots`` maps each slot that must commit to its owner; ``sealed`` holds the
    committed orders; ``revealed`` the orders turned face up, by slot; ``discarded`` the committed orders put
    aside face down, never to be revealed."""

    step: str = ""
    slots: dict[str, str] = {}
    sealed: dict[str, SealedOrder] = {}
    revealed: dict[str, Any] = {}
    discarded: tuple[str, ...] = ()


class OrdersOpened(Event, frozen=True, kw_only=True, tag="OrdersOpened"):
    """A step of simultaneous orders begins: each slot in ``slots`` (slot -> owner) must commit one order."""

    step: str
    slots: dict[str, str]


class OrderCommitted(SecretEvent, frozen=True, kw_only=True, tag="OrderCommitted"):
    """An order committed face down for ``slot``; only ``owner`` sees ``order`` until it is revealed.

    ``order`` is a JSON value (str, int, bool, list, dict; tuples come back as lists when read from the
    store). A ruleset may subclass this event (with its own tag) to give ``order`` a precise type; it
    must keep ``order`` the only secret field.
    """

    secret_fields: ClassVar[tuple[str, ...]] = ("order",)
    step: str
    slot: str
    order: Any


class RevealedOrder(msgspec.Struct, frozen=True):
    """One order turned face up, with the salt that opens its commitment."""

    slot: str
    owner: str
    order: Any
    salt: str


class OrdersRevealed(Event, frozen=True, kw_only=True, tag="OrdersRevealed"):
    """Orders turned face up together; each is checked against its commitment when applied."""

    step: str
    orders: tuple[RevealedOrder, ...]


class OrdersDiscarded(Event, frozen=True, kw_only=True, tag="OrdersDiscarded"):
    """Committed orders of ``slots`` put aside face down: they will never be carried out nor shown."""

    step: str
    slots: tuple[str, ...]


def open_orders(step: str, slots: Mapping[str, str] | Iterable[str]) -> OrdersOpened:
    """The event that opens a step of orders: ``slots`` maps slot -> owner, or lists players (one slot each)."""
    if isinstance(slots, Mapping):
        owners = dict(slots)
    else:
        owners = {player: player for player in slots}
    if not owners:
        raise DataError("a step of simultaneous orders needs at least one slot", source="orders", location=step,
                        field="slots")
    return OrdersOpened(step=step, slots=owners)


def commit(
    orders: OrdersState,
    player: str,
    order: Any,
    salt: str,
    *,
    slot: str | None = None,
    rule: str = ORDERS_RULE,
    page: int | str | None = None,
    event_type: type[OrderCommitted] = OrderCommitted,
) -> OrderCommitted:
    """The sealed event of ``player`` committing ``order`` for ``slot`` (default: the player's own slot).

    Refused (:class:`RuleError` citing ``rule`` and ``page``) when the slot is not open for orders, is
    not the player's, or has already committed. Checking that the order itself is legal is the
    ruleset's business, before calling this.
    """
    slot = player if slot is None else slot
    if slot not in orders.slots:
        raise RuleError(f"{slot!r} gives no order in the {orders.step or 'current'} step", rule=rule, page=page)
    if orders.slots[slot] != player:
        raise RuleError(f"{slot!r} is {orders.slots[slot]}'s to order, not {player}'s", rule=rule, page=page)
    if slot in orders.sealed:
        raise RuleError(f"{slot!r} has already committed its order for {orders.step}", rule=rule, page=page)
    return event_type(owner=player, step=orders.step, slot=slot, order=order).sealed(salt)


def all_committed(orders: OrdersState) -> bool:
    """True when every slot of the step has committed its order."""
    return bool(orders.slots) and all(slot in orders.sealed for slot in orders.slots)


def waiting_for(orders: OrdersState) -> tuple[str, ...]:
    """The slots that have not committed yet, sorted."""
    return tuple(sorted(slot for slot in orders.slots if slot not in orders.sealed))


def reveal(
    orders: OrdersState,
    slots: Iterable[str] | None = None,
    *,
    rule: str = ORDERS_RULE,
    page: int | str | None = None,
) -> OrdersRevealed:
    """The event turning ``slots`` (default: every slot not yet revealed) face up.

    Refused (:class:`RuleError`) before every slot has committed: nobody sees an order while another
    player may still choose theirs.
    """
    if not all_committed(orders):
        raise RuleError(f"orders are revealed once all are committed; waiting for {', '.join(waiting_for(orders))}",
                        rule=rule, page=page)
    chosen = (sorted(slot for slot in orders.slots if slot not in orders.revealed and slot not in orders.discarded)
              if slots is None else list(slots))
    for slot in chosen:
        if slot in orders.discarded:
            raise RuleError(f"the order of {slot!r} was put aside and is never revealed", rule=rule, page=page)
        if slot not in orders.sealed:
            raise RuleError(f"{slot!r} has no order in {orders.step}", rule=rule, page=page)
        if slot in orders.revealed:
            raise RuleError(f"the order of {slot!r} is already face up", rule=rule, page=page)
    revealed = tuple(RevealedOrder(slot=slot, owner=orders.sealed[slot].owner, order=orders.sealed[slot].order,
                                   salt=orders.sealed[slot].salt) for slot in chosen)
    return OrdersRevealed(step=orders.step, orders=revealed)


def discard(
    orders: OrdersState,
    slots: Iterable[str],
    *,
    rule: str = ORDERS_RULE,
    page: int | str | None = None,
) -> OrdersDiscarded:
    """The event putting the committed, still face-down orders of ``slots`` aside unseen (a :class:`RuleError`
    for a slot with no such order)."""
    chosen = tuple(sorted(slots))
    for slot in chosen:
        if slot not in orders.sealed or slot in orders.revealed or slot in orders.discarded:
            raise RuleError(f"{slot!r} has no face-down order in {orders.step} to put aside", rule=rule, page=page)
    return OrdersDiscarded(step=orders.step, slots=chosen)


def settled(orders: OrdersState) -> bool:
    """True when every slot has committed and each order is revealed or put aside: the step is over."""
    return all_committed(orders) and all(slot in orders.revealed or slot in orders.discarded for slot in orders.slots)


#: What kind of orders event each event type is (one of the four classes below, or None): worked out with
#: issubclass once per type, so that a ruleset's subclass (Wings of Glory's ``CardPlanned``) is routed alike.
_ORDERS_KINDS: dict[type, type | None] = {}
_UNKNOWN = object()


def _orders_kind(event_type: type) -> type | None:
    kind = _ORDERS_KINDS.get(event_type, _UNKNOWN)
    if kind is _UNKNOWN:
        kind = next((base for base in (OrdersOpened, OrderCommitted, OrdersRevealed, OrdersDiscarded)
                     if issubclass(event_type, base)), None)
        _ORDERS_KINDS[event_type] = kind
    return kind  # type: ignore[return-value]


def evolve_orders(orders: OrdersState, event: Event) -> OrdersState | None:
    """``orders`` after ``event``; None when ``event`` is not an orders event (so an evolve can chain).

    An :class:`OrdersOpened` starts a fresh step. A committed or revealed order of another step, of a
    slot that is not open, or whose reveal does not match its commitment, is a corrupt record
    (:class:`DataError`, or :class:`~aero_events.core.errors.SecretMismatch` for the commitment).
    """
    replace = msgspec.structs.replace
    kind = _orders_kind(type(event))
    if kind is None:
        return None
    if kind is OrdersOpened:
        return OrdersState(step=event.step, slots=dict(event.slots))
    if event.step != orders.step:
        _same_step(orders, event.step, event)
    if kind is OrderCommitted:
        if orders.slots.get(event.slot) != event.owner or event.slot in orders.sealed:
            raise DataError(f"{event.owner} cannot commit an order for {event.slot!r} now", source="orders",
                            location=orders.step, field="slot")
        sealed = SealedOrder(owner=event.owner, commitment=event.commitment, order=event.order, salt=event.salt)
        return replace(orders, sealed={**orders.sealed, event.slot: sealed})
    if kind is OrdersRevealed:
        revealed = dict(orders.revealed)
        for shown in event.orders:
            sealed = orders.sealed.get(shown.slot)
            if sealed is None or sealed.owner != shown.owner:
                raise DataError(f"no committed order of {shown.owner} for {shown.slot!r} to reveal", source="orders",
                                location=orders.step, field="orders")
            check_reveal({"order": shown.order}, shown.salt, sealed.commitment, what=f"order of {shown.slot}")
            revealed[shown.slot] = shown.order
        return replace(orders, revealed=revealed)
    for slot in event.slots:  # an OrdersDiscarded
        if slot not in orders.sealed or slot in orders.revealed or slot in orders.discarded:
            raise DataError(f"no face-down order for {slot!r} to put aside", source="orders",
                            location=orders.step, field="slots")
    return replace(orders, discarded=orders.discarded + event.slots)


def evolve_order_steps(steps: tuple[OrdersState, ...], event: Event) -> tuple[OrdersState, ...] | None:
    """``steps`` (oldest first) after ``event``; None when ``event`` is not an orders event.

    An :class:`OrdersOpened` adds a step (its name must be new); any other orders event goes to the step it
    names (a :class:`DataError` when none is open). A step is dropped once :func:`settled`.
    """
    kind = _orders_kind(type(event))
    if kind is None:
        return None
    if kind is OrdersOpened:
        if any(orders.step == event.step for orders in steps):
            raise DataError(f"step {event.step!r} is already open", source="orders", location=event.step,
                            field="step")
        return (*steps, evolve_orders(OrdersState(), event))
    step = event.step
    for index, orders in enumerate(steps):
        if orders.step == step:
            after = evolve_orders(orders, event)
            # a slot just committed is neither revealed nor put aside: a commit never settles its step
            if kind is not OrderCommitted and settled(after):
                return (*steps[:index], *steps[index + 1:])
            return (*steps[:index], after, *steps[index + 1:])
    raise DataError(f"a {event.type_name()} for step {event.step!r}, which is not open", source="orders",
                    location=event.step, field="step")


def pending_orders(steps: Iterable[OrdersState], slot: str) -> tuple[Any, ...]:
    """The referee's list of ``slot``'s committed orders still face down (neither revealed nor put aside),
    oldest step first: Wings of Glory's console, first slot first."""
    return tuple(orders.sealed[slot].order for orders in steps
                 if slot in orders.sealed and slot not in orders.revealed and slot not in orders.discarded)


def _same_step(orders: OrdersState, step: str, event: Event) -> None:
    if step != orders.step:
        raise DataError(f"a {event.type_name()} of step {step!r} applied to step {orders.step!r}", source="orders",
                        location=orders.step, field="step")


class SlotView(msgspec.Struct, frozen=True):
    """One slot as a viewer sees it. ``order`` is None unless ``visible``."""

    slot: str
    owner: str
    committed: bool
    revealed: bool
    visible: bool
    order: Any = None
    discarded: bool = False


class OrdersView(msgspec.Struct, frozen=True):
    step: str
    slots: tuple[SlotView, ...]


def view_orders(orders: OrdersState, viewer: str | None) -> OrdersView:
    """What ``viewer`` (None: a spectator) may see: whether each slot has committed; the order only of the
    viewer's own committed slots and of revealed ones. Nobody else's unrevealed order ever shows, nor one put
    aside."""
    shown = []
    for slot in sorted(orders.slots):
        owner = orders.slots[slot]
        sealed = orders.sealed.get(slot)
        revealed = slot in orders.revealed
        visible = revealed or (sealed is not None and viewer is not None and owner == viewer)
        order = orders.revealed[slot] if revealed else sealed.order if visible and sealed is not None else None
        shown.append(SlotView(slot=slot, owner=owner, committed=sealed is not None, revealed=revealed,
                              visible=visible, order=order, discarded=slot in orders.discarded))
    return OrdersView(step=orders.step, slots=tuple(shown))


# ---------------------------------------------------------------- reaction windows


class PendingDecision(msgspec.Struct, frozen=True, kw_only=True):
    """A decision a player must make before play resumes.

    ``window`` numbers the windows of a game from 1 (an answer names it); ``decider`` must choose one of
    ``choices`` about ``question``; ``rule`` and ``page`` are what grants the decision; ``resume`` is the
    ruleset's own token for what continues afterwards (e.g. ``"lances:Dominator->Lunar"``); ``subject`` the
    piece concerned and ``interrupted`` the player whose action waits.
    """

    window: int
    decider: str
    question: str
    choices: tuple[str, ...]
    rule: str
    page: int | str | None = None
    resume: str = ""
    subject: str | None = None
    interrupted: str | None = None


class Reactions(msgspec.Struct, frozen=True):
    """The stack of open windows (the last is answered first) and how many were ever opened."""

    pending: tuple[PendingDecision, ...] = ()
    opened: int = 0


class ReactionWindowOpened(Event, frozen=True, kw_only=True, tag="ReactionWindowOpened"):
    decision: PendingDecision


class ReactionChosen(Event, frozen=True, kw_only=True, tag="ReactionChosen"):
    """``decider``'s answer to window ``window``; ``resume`` repeats what the ruleset resumes now."""

    window: int
    decider: str
    choice: str
    resume: str = ""


def open_window(
    reactions: Reactions,
    *,
    decider: str,
    question: str,
    choices: Iterable[str],
    rule: str,
    page: int | str | None = None,
    resume: str = "",
    subject: str | None = None,
    interrupted: str | None = None,
) -> ReactionWindowOpened:
    """The event opening a window for ``decider``. To open two in one command, fold the first into
    ``reactions`` (:func:`evolve_reactions`) before opening the second, so each gets its own number."""
    options = tuple(choices)
    if not options or len(set(options)) != len(options):
        raise DataError(f"a reaction offers distinct choices, not {options!r}", source="reactions", location=rule,
                        field="choices")
    decision = PendingDecision(window=reactions.opened + 1, decider=decider, question=question, choices=options,
                               rule=rule, page=page, resume=resume, subject=subject, interrupted=interrupted)
    return ReactionWindowOpened(decision=decision)


def current_window(reactions: Reactions) -> PendingDecision | None:
    """The decision to be made now (the innermost open window), or None."""
    return reactions.pending[-1] if reactions.pending else None


def pending_for(reactions: Reactions, player: str) -> PendingDecision | None:
    """The decision ``player`` must make now, or None (none open, or another player's)."""
    decision = current_window(reactions)
    return decision if decision is not None and decision.decider == player else None


def reaction_choices(reactions: Reactions, player: str) -> tuple[str, ...]:
    """The choices ``player`` may make now (for ``legal_commands``); () if it is not their decision."""
    decision = pending_for(reactions, player)
    return decision.choices if decision is not None else ()


def require_no_window(reactions: Reactions) -> None:
    """Refuse any command but the answer while a window is open: "waiting for X to decide Y"."""
    decision = current_window(reactions)
    if decision is not None:
        raise RuleError(f"waiting for {decision.decider} to decide: {decision.question}", rule=decision.rule,
                        page=decision.page)


def answer(reactions: Reactions, player: str, choice: str) -> ReactionChosen:
    """The event of ``player`` answering the open window with ``choice``; a :class:`RuleError` when no
    window is open, it is another player's, or ``choice`` is not offered."""
    decision = current_window(reactions)
    if decision is None:
        raise RuleError("there is no decision to make now", rule=REACTION_RULE)
    if decision.decider != player:
        raise RuleError(f"waiting for {decision.decider} to decide: {decision.question}", rule=decision.rule,
                        page=decision.page)
    if choice not in decision.choices:
        raise RuleError(f"{decision.question}: choose {' or '.join(decision.choices)}, not {choice!r}",
                        rule=decision.rule, page=decision.page)
    return ReactionChosen(window=decision.window, decider=player, choice=choice, resume=decision.resume)


def evolve_reactions(reactions: Reactions, event: Event) -> Reactions | None:
    """``reactions`` after ``event``; None when ``event`` is not a reaction event (so an evolve can chain)."""
    if isinstance(event, ReactionWindowOpened):
        decision = event.decision
        if decision.window != reactions.opened + 1:
            raise DataError(f"window {decision.window} opened after {reactions.opened}", source="reactions",
                            location=decision.rule, field="window")
        return Reactions(pending=(*reactions.pending, decision), opened=decision.window)
    if isinstance(event, ReactionChosen):
        decision = current_window(reactions)
        if decision is None or decision.window != event.window or decision.decider != event.decider \
                or event.choice not in decision.choices:
            raise DataError(f"answer {event.choice!r} of {event.decider} does not fit the open window",
                            source="reactions", location=f"window {event.window}", field="choice")
        return msgspec.structs.replace(reactions, pending=reactions.pending[:-1])
    return None
