"""Simultaneous orders and reaction windows (issue 11 item 6), alone and played through a GameSession
with the test ruleset of tests/support/sealed_orders.py."""

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aero_events.core import (
    DataError,
    DiceError,
    EnvelopeRecord,
    GameSession,
    RedactedEvent,
    RuleError,
    SaltSource,
    SecretMismatch,
    SeededDice,
    TapeDice,
    decode_event,
    encode_event,
    redact,
)
from aero_events.core.orders import (
    OrderCommitted,
    OrdersRevealed,
    OrdersState,
    ReactionChosen,
    Reactions,
    RevealedOrder,
    all_committed,
    answer,
    commit,
    current_window,
    discard,
    evolve_order_steps,
    evolve_orders,
    evolve_reactions,
    open_orders,
    open_window,
    pending_for,
    pending_orders,
    reaction_choices,
    require_no_window,
    reveal,
    settled,
    view_orders,
    waiting_for,
)
from aero_events.core.pools import ManualDraw, SecretPoolDrawn
from aero_events.core.secrets import REPRODUCIBLE_SALTS
from tests.support.sealed_orders import (
    Attack,
    EndTurn,
    GiveOrder,
    React,
    RevealOrders,
    SealedOrdersRules,
    SealedSetup,
    damage_points,
)

# ---------------------------------------------------------------- simultaneous orders, alone


def opened(slots=("red", "blue"), step="turn 1 plan"):
    return evolve_orders(OrdersState(), open_orders(step, slots))


def test_an_order_is_committed_face_down_and_others_see_only_that_it_was():
    orders = opened()
    event = commit(orders, "red", {"card": "bank-left"}, "salt-1")
    assert isinstance(event, OrderCommitted)
    assert decode_event("OrderCommitted", 1, encode_event(event)) == event
    seen = redact(event, "blue")
    assert isinstance(seen, RedactedEvent) and "order" not in seen.public
    orders = evolve_orders(orders, event)
    red_view, blue_view = view_orders(orders, "red"), view_orders(orders, "blue")
    assert red_view.slots[1].order == {"card": "bank-left"}
    assert (blue_view.slots[1].committed, blue_view.slots[1].visible, blue_view.slots[1].order) == (True, False, None)
    assert "bank-left" not in msgspec.json.encode(blue_view).decode()
    assert "bank-left" not in msgspec.json.encode(view_orders(orders, None)).decode()


def test_orders_are_revealed_only_once_all_are_committed():
    orders = opened()
    orders = evolve_orders(orders, commit(orders, "red", "straight", "s1"))
    assert not all_committed(orders) and waiting_for(orders) == ("blue",)
    with pytest.raises(RuleError, match="waiting for blue"):
        reveal(orders)
    orders = evolve_orders(orders, commit(orders, "blue", "stall", "s2"))
    shown = reveal(orders)
    assert [o.order for o in shown.orders] == ["stall", "straight"]
    orders = evolve_orders(orders, shown)
    assert orders.revealed == {"red": "straight", "blue": "stall"}
    assert view_orders(orders, "blue").slots[1].order == "straight"


def test_a_slot_commits_once_and_only_for_its_owner():
    orders = opened({"spitfire-1": "red", "bf109-1": "blue"})
    with pytest.raises(RuleError, match="blue's to order, not red's"):
        commit(orders, "red", "x", "s", slot="bf109-1")
    with pytest.raises(RuleError, match="gives no order"):
        commit(orders, "red", "x", "s", slot="hurricane-9", rule="Planning", page=4)
    orders = evolve_orders(orders, commit(orders, "red", "x", "s", slot="spitfire-1"))
    with pytest.raises(RuleError, match="already committed") as caught:
        commit(orders, "red", "y", "s", slot="spitfire-1", rule="Planning", page=4)
    assert (caught.value.rule, caught.value.page) == ("Planning", 4)


def test_a_forged_reveal_is_refused_when_applied():
    orders = opened(("red",))
    orders = evolve_orders(orders, commit(orders, "red", "straight", "s1"))
    forged = OrdersRevealed(step=orders.step, orders=(RevealedOrder(slot="red", owner="red", order="stall", salt="s1"),))
    with pytest.raises(SecretMismatch):
        evolve_orders(orders, forged)
    with pytest.raises(DataError, match="step"):
        evolve_orders(orders, OrdersRevealed(step="turn 9", orders=()))


def test_orders_can_be_revealed_slot_by_slot():
    """Aeronautica turns a token over as its aircraft is activated (p.14)."""
    orders = opened(("red", "blue"))
    for player in ("red", "blue"):
        orders = evolve_orders(orders, commit(orders, player, player.upper(), f"salt-{player}"))
    orders = evolve_orders(orders, reveal(orders, ["blue"]))
    assert view_orders(orders, "blue").slots[1].order is None
    with pytest.raises(RuleError, match="already face up"):
        reveal(orders, ["blue"])
    orders = evolve_orders(orders, reveal(orders))
    assert orders.revealed == {"blue": "BLUE", "red": "RED"}


def test_orders_committed_in_one_step_are_revealed_in_a_later_one():
    """Wings of Glory's two-slot console: the card planned at set-up is flown (and revealed) in turn 1, while
    turn 1's plan stays face down; a step goes once every order in it is revealed or put aside."""
    steps = evolve_order_steps((), open_orders("setup", {"spit": "RAF", "bf": "LW"}))
    for slot, owner, card in (("spit", "RAF", 3), ("bf", "LW", 1)):
        steps = evolve_order_steps(steps, commit(steps[0], owner, card, f"s-{slot}", slot=slot))
    steps = evolve_order_steps(steps, open_orders("turn 1", {"spit": "RAF", "bf": "LW"}))
    for slot, owner, card in (("spit", "RAF", 8), ("bf", "LW", 5)):
        steps = evolve_order_steps(steps, commit(steps[1], owner, card, f"t-{slot}", slot=slot))
    assert pending_orders(steps, "spit") == (3, 8) and [s.step for s in steps] == ["setup", "turn 1"]
    steps = evolve_order_steps(steps, reveal(steps[0], ["spit"]))
    assert pending_orders(steps, "spit") == (8,) and not settled(steps[0])
    assert evolve_order_steps(steps, ReactionChosen(window=1, decider="LW", choice="brace")) is None
    with pytest.raises(DataError, match="already open"):
        evolve_order_steps(steps, open_orders("turn 1", ["RAF"]))
    with pytest.raises(DataError, match="not open"):
        evolve_order_steps(steps, OrdersRevealed(step="turn 7", orders=()))
    steps = evolve_order_steps(steps, reveal(steps[0], ["bf"]))
    assert [s.step for s in steps] == ["turn 1"]


def test_an_order_put_aside_is_never_revealed_nor_shown():
    """A plane shot down with a card still planned: its card is put aside face down, for good."""
    orders = opened({"spit": "RAF", "bf": "LW"})
    orders = evolve_orders(orders, commit(orders, "RAF", 3, "s1", slot="spit"))
    orders = evolve_orders(orders, commit(orders, "LW", 5, "s2", slot="bf"))
    put_aside = discard(orders, ["bf"])
    assert decode_event("OrdersDiscarded", 1, encode_event(put_aside)) == put_aside
    orders = evolve_orders(orders, put_aside)
    assert pending_orders((orders,), "bf") == () and not settled(orders)
    assert [o.slot for o in reveal(orders).orders] == ["spit"]
    with pytest.raises(RuleError, match="put aside"):
        reveal(orders, ["bf"])
    with pytest.raises(RuleError, match="no face-down order"):
        discard(orders, ["bf"])
    with pytest.raises(DataError, match="no face-down order"):
        evolve_orders(orders, put_aside)
    for viewer in ("RAF", None):
        seen = view_orders(orders, viewer).slots[0]
        assert (seen.slot, seen.discarded, seen.visible, seen.order) == ("bf", True, False, None)
    assert view_orders(orders, "LW").slots[0].order == 5
    orders = evolve_orders(orders, reveal(orders))
    assert settled(orders)


# ---------------------------------------------------------------- reaction windows, alone


def test_a_window_blocks_everyone_but_its_decider_and_offers_only_its_choices():
    """BFG Brace for Impact: 'ANY time a ship faces taking damage but before the result is rolled'."""
    reactions = Reactions()
    event = open_window(reactions, decider="chaos", question="brace the Slaughter against lances",
                        choices=("brace", "no"), rule="Brace for Impact", page=19, resume="lances:slaughter",
                        interrupted="imperial")
    assert decode_event("ReactionWindowOpened", 1, encode_event(event)) == event
    reactions = evolve_reactions(reactions, event)
    assert pending_for(reactions, "chaos") == event.decision and pending_for(reactions, "imperial") is None
    assert reaction_choices(reactions, "chaos") == ("brace", "no") and reaction_choices(reactions, "imperial") == ()
    with pytest.raises(RuleError, match="waiting for chaos to decide: brace the Slaughter") as caught:
        require_no_window(reactions)
    assert (caught.value.rule, caught.value.page) == ("Brace for Impact", 19)
    with pytest.raises(RuleError, match="waiting for chaos"):
        answer(reactions, "imperial", "brace")
    with pytest.raises(RuleError, match="choose brace or no"):
        answer(reactions, "chaos", "maybe")
    chosen = answer(reactions, "chaos", "brace")
    assert chosen == ReactionChosen(window=1, decider="chaos", choice="brace", resume="lances:slaughter")
    reactions = evolve_reactions(reactions, chosen)
    assert current_window(reactions) is None and reactions.opened == 1
    require_no_window(reactions)
    with pytest.raises(RuleError, match="no decision"):
        answer(reactions, "chaos", "brace")


def test_windows_nest_and_the_last_opened_is_answered_first():
    reactions = Reactions()
    outer = open_window(reactions, decider="chaos", question="brace?", choices=("brace", "no"), rule="Brace")
    reactions = evolve_reactions(reactions, outer)
    inner = open_window(reactions, decider="imperial", question="fire turrets?", choices=("fire", "hold"),
                        rule="Turrets")
    reactions = evolve_reactions(reactions, inner)
    assert inner.decision.window == 2
    assert pending_for(reactions, "chaos") is None
    with pytest.raises(DataError):
        evolve_reactions(reactions, ReactionChosen(window=1, decider="chaos", choice="brace"))
    reactions = evolve_reactions(reactions, answer(reactions, "imperial", "fire"))
    assert pending_for(reactions, "chaos") == outer.decision


# ---------------------------------------------------------------- through a session


def new_session(seed=5, dice=None, salts=None):
    return GameSession(SealedOrdersRules(), SealedSetup(), dice=dice or SeededDice(seed), salts=salts,
                       game_id="sealed", metadata={REPRODUCIBLE_SALTS: True})  # salts from the seed (issue 16)


def salt_source(seed=5):
    return SaltSource(f"{seed}:main")


SCRIPT = [GiveOrder(player="alice", order="attack"), GiveOrder(player="bob", order="attack"),
          RevealOrders(player="bob"), Attack(player="alice"), React(player="bob", choice="take"),
          Attack(player="bob"), React(player="alice", choice="brace"), EndTurn(player="alice"),
          GiveOrder(player="alice", order="hold"), GiveOrder(player="bob", order="attack"),
          RevealOrders(player="alice"), Attack(player="bob"), React(player="alice", choice="take"),
          EndTurn(player="bob")]


def played(seed=5):
    session = new_session(seed)
    for command in SCRIPT:
        session.apply(command)
    return session


def encoded(value):
    return msgspec.json.encode(msgspec.to_builtins(value)).decode()


def test_a_scripted_game_plays_to_its_end():
    session = played()
    state = session.state
    assert session.is_over()
    assert [len(state.damage[p]) for p in ("alice", "bob")] == [3, 2]
    assert state.pool.size == 1
    assert damage_points(state, "alice") + damage_points(state, "bob") + \
        sum(int(t.split("-")[1]) for t in state.pool.items()) == 0 + 3 * 1 + 2 * 2


def test_the_other_player_never_sees_an_unrevealed_order():
    session = new_session()
    session.apply(GiveOrder(player="alice", order="attack"))
    for seen in (session.view("bob"), session.view(None), session.events_for("bob")):
        assert '"attack"' not in encoded(seen)
    assert '"attack"' in encoded(session.view("alice"))
    session.apply(GiveOrder(player="bob", order="hold"))
    assert '"hold"' not in encoded(session.view("alice"))
    session.apply(RevealOrders(player="bob"))
    assert '"attack"' in encoded(session.view("bob")) and '"hold"' in encoded(session.view("alice"))


def test_the_other_player_never_sees_the_tokens_drawn_face_down():
    """The defender's damage tokens: the attacker sees how many, never which (WoG 'Damage')."""
    session = new_session()
    for command in SCRIPT[:5]:
        session.apply(command)
    draw = session.events()[-1].event
    assert isinstance(draw, SecretPoolDrawn) and draw.owner == "bob" and draw.count == 2
    for seen in (session.view("alice"), session.view(None), session.events_for("alice")):
        assert "hit-" not in encoded(seen)
    assert session.view("alice")["damage"]["bob"] == 2
    assert session.view("bob")["damage"]["bob"] == list(draw.items)
    assert session.view("alice")["pool"] == {"name": "damage", "size": 4}


def test_the_active_player_is_blocked_while_the_other_decides():
    session = new_session()
    for command in SCRIPT[:4]:
        session.apply(command)
    assert session.legal_commands("alice") == []
    assert session.legal_commands("bob") == [React(player="bob", choice="brace"), React(player="bob", choice="take")]
    assert session.view("bob")["my_decision"] == ["brace", "take"]
    before = (session.seq, session.state_hash(), session.dice.position())
    waiting = "waiting for bob to decide: brace against alice's attack"
    for illegal, why in ((Attack(player="alice"), waiting), (EndTurn(player="alice"), waiting),
                         (React(player="alice", choice="take"), waiting), (Attack(player="bob"), waiting),
                         (React(player="bob", choice="dodge"), "choose brace or take, not 'dodge'")):
        with pytest.raises(RuleError, match=why) as blocked:
            session.apply(illegal)
        assert (blocked.value.rule, blocked.value.page) == ("Brace", "test")
        assert (session.seq, session.state_hash(), session.dice.position()) == before


def test_a_replay_of_the_stored_events_reproduces_the_state():
    session = played()
    stored = [msgspec.json.encode(EnvelopeRecord.from_envelope(env)) for env in session.events()]
    envelopes = [msgspec.json.decode(raw, type=EnvelopeRecord).to_envelope() for raw in stored]
    replay = new_session(dice=TapeDice([]))
    replay.record(envelopes)
    assert replay.state_hash() == session.state_hash()
    assert replay.view("alice") == session.view("alice")


def test_the_recorded_dice_and_draws_replay_the_game_byte_identically():
    """TapeDice.from_events reads the faces of the secret draws back from the store."""
    session = played()
    tape = TapeDice.from_events(session.events())
    again = new_session(dice=tape, salts=salt_source())
    for command in SCRIPT:
        again.apply(command)
    assert tape.remaining == 0
    assert [encode_event(e.event) for e in again.events()] == [encode_event(e.event) for e in session.events()]


def test_at_a_real_table_the_defender_types_the_tokens_drawn_and_a_wrong_name_is_refused():
    dice = ManualDraw()
    session = new_session(dice=dice, salts=salt_source())
    for command in SCRIPT[:4]:
        session.apply(command)
    before = (session.seq, session.state_hash())
    dice.enter_items(["hit-1", "hit-7"])
    with pytest.raises(DiceError, match="'hit-7' is not in pool 'damage'"):
        session.apply(React(player="bob", choice="take"))
    assert (session.seq, session.state_hash()) == before
    dice = ManualDraw()
    dice.enter_items(["hit-2", "hit-2"])
    session.dice = dice
    session.apply(React(player="bob", choice="take"))
    assert session.state.damage["bob"] == ("hit-2", "hit-2")
    assert session.state.pool.count("hit-2") == 0


@settings(max_examples=80, deadline=None)
@given(st.dictionaries(st.sampled_from(["p1", "p2", "p3", "p4"]), st.sampled_from(["red", "blue", "green"]),
                       min_size=1),
       st.data())
def test_a_view_shows_an_order_only_to_its_owner_until_it_is_revealed(slots, data):
    orders = opened(slots)
    secret = {slot: f"order-of-{slot}" for slot in slots}
    committed = data.draw(st.lists(st.sampled_from(sorted(slots)), unique=True))
    for slot in committed:
        orders = evolve_orders(orders, commit(orders, slots[slot], secret[slot], f"salt-{slot}", slot=slot))
    if all_committed(orders):
        shown = data.draw(st.lists(st.sampled_from(sorted(slots)), unique=True))
        orders = evolve_orders(orders, reveal(orders, shown))
    for viewer in ("red", "blue", "green", None):
        text = msgspec.json.encode(view_orders(orders, viewer)).decode()
        for slot in slots:
            may_see = slot in orders.revealed or (slot in orders.sealed and slots[slot] == viewer)
            assert (secret[slot] in text) == may_see
