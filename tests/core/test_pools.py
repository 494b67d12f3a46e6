"""Finite pools drawn without replacement (issue 11 item 5; Wings of Glory 'Damage', 'Sniper')."""

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aero_events.core import (
    DataError,
    DiceCup,
    DiceError,
    RedactedEvent,
    SaltSource,
    SecretMismatch,
    SeededDice,
    TapeDice,
    decode_event,
    encode_event,
    redact,
)
from aero_events.core.pools import (
    ManualDraw,
    Pool,
    PoolDrawn,
    PoolDrawRevealed,
    PoolExhausted,
    PoolRefilled,
    PoolReturned,
    SecretPoolDrawn,
    SecretPoolReturned,
    apply_to_pool,
    evolve_pools,
    put_back,
    reveal_draw,
    view_pool,
)

A_TOKENS = {"A0": 1, "A1": 3, "A2": 2, "A3-smoke": 1}


def cup_for(source):
    return DiceCup(source, salts=SaltSource("pools"))


def test_a_pool_keeps_its_items_sorted_by_name_with_counts():
    pool = Pool.of("A", {"b": 1, "a": 2, "none": 0})
    assert pool.items() == ("a", "a", "b")
    assert (pool.size, pool.count("a"), pool.count("none")) == (3, 2, 0)
    assert pool == Pool.of("A", ["b", "a", "a"])
    assert [pool.item_at(p) for p in (1, 2, 3)] == ["a", "a", "b"]
    assert pool.first_position("b") == 3 and pool.first_position("c") is None


def test_malformed_pool_contents_are_a_data_error():
    with pytest.raises(DataError, match="whole number"):
        Pool.of("A", {"A1": -1})
    with pytest.raises(DataError, match="names"):
        Pool.of("A", ["A1", 3])


def test_a_draw_is_an_event_and_the_pool_changes_only_when_it_is_applied():
    pool = Pool.of("A", A_TOKENS)
    draw = cup_for(SeededDice(4)).draw(pool, 3, purpose="damage", drawer="blue")
    assert isinstance(draw, PoolDrawn)
    assert (draw.pool, draw.count, draw.size_before, len(draw.faces)) == ("A", 3, 7, 3)
    assert pool.size == 7
    after = apply_to_pool(pool, draw)
    assert after.size == 4
    assert Counter(after.items()) + Counter(draw.items) == Counter(pool.items())
    assert decode_event("PoolDrawn", 1, encode_event(draw)) == draw


def test_each_pick_takes_the_item_at_the_face_of_a_die_as_big_as_what_remains():
    """Positions count each remaining copy, by item name: A0, A1, A1, A1, A2, A2, A3-smoke (a D7);
    then A0, A1, A1, A1, A2, A2 (a D6); then A1, A1, A1, A2, A2 (a D5)."""
    draw = cup_for(TapeDice([7, 1, 4])).draw(Pool.of("A", A_TOKENS), 3, purpose="damage")
    assert draw.items == ("A3-smoke", "A0", "A2")
    assert draw.faces == (7, 1, 4)
    with pytest.raises(DiceError, match="a D5 shows 1 to 5; 6 is not a face"):
        cup_for(TapeDice([7, 1, 6])).draw(Pool.of("A", A_TOKENS), 3, purpose="damage")


def test_the_last_item_is_taken_without_a_roll():
    draw = cup_for(TapeDice([2])).draw(Pool.of("B", {"x": 1, "y": 1}), 2, purpose="collision")
    assert draw.items == ("y", "x") and draw.faces == (2,)


def expected_orders(contents, count):
    """Every ordered draw of ``count`` physical tokens, as item names: the uniform distribution."""
    tokens = [item for item, n in contents.items() for _ in range(n)]
    return Counter(tuple(tokens[i] for i in chosen) for chosen in itertools.permutations(range(len(tokens)), count))


@pytest.mark.parametrize(("contents", "count"), [({"A": 2, "B": 1, "C": 1}, 2), ({"A": 2, "B": 2, "C": 1}, 3),
                                                 ({"A": 3, "B": 1}, 4)])
def test_draws_without_replacement_are_uniform_over_every_tape(contents, count):
    """Exhaustive: every sequence of faces once gives each ordered draw of physical tokens exactly once."""
    pool = Pool.of("P", contents)
    sides = range(pool.size, pool.size - count, -1)
    outcomes = Counter()
    for faces in itertools.product(*(range(1, n + 1) for n in sides if n >= 2)):
        outcomes[cup_for(TapeDice(faces)).draw(pool, count, purpose="uniformity").items] += 1
    assert outcomes == expected_orders(contents, count)


def test_a_draw_replays_from_a_tape_of_the_recorded_events():
    pool = Pool.of("A", A_TOKENS)
    cup = cup_for(SeededDice("replay"))
    first = cup.draw(pool, 2, purpose="damage")
    second = cup.draw(apply_to_pool(pool, first), 3, purpose="damage", secret_owner="blue")
    stored = [decode_event(e.type_name(), 1, encode_event(e)) for e in (first, second)]
    again = cup_for(TapeDice.from_events(stored))
    replay_first = again.draw(pool, 2, purpose="damage")
    assert replay_first.items == first.items
    assert again.draw(apply_to_pool(pool, replay_first), 3, purpose="damage").items == second.items


def test_drawing_more_than_the_pool_holds_is_refused():
    with pytest.raises(PoolExhausted, match="holds 2 items; 3 cannot be drawn"):
        cup_for(SeededDice(1)).draw(Pool.of("C", {"C1": 2}), 3, purpose="barrage balloon")


# ---------------------------------------------------------------- drawn by hand at the table


def test_a_manual_draw_is_typed_by_name_and_recorded_as_positions():
    dice = ManualDraw()
    dice.enter_items(["A2", "A1"])
    pool = Pool.of("A", A_TOKENS)
    draw = cup_for(dice).draw(pool, 2, purpose="damage")
    assert draw.items == ("A2", "A1") and draw.faces == (5, 2)
    assert cup_for(TapeDice.from_events([draw])).draw(pool, 2, purpose="damage").items == ("A2", "A1")


def test_a_manual_draw_of_an_item_not_in_the_pool_is_refused():
    dice = ManualDraw()
    dice.enter_items(["A9"])
    with pytest.raises(DiceError, match="'A9' is not in pool 'A'"):
        cup_for(dice).draw(Pool.of("A", A_TOKENS), 1, purpose="damage")
    assert dice.remaining_items == 1


def test_a_manual_draw_cannot_take_more_copies_than_remain():
    dice = ManualDraw()
    dice.enter_items(["A0", "A0"])
    with pytest.raises(DiceError, match="'A0' is not in pool"):
        cup_for(dice).draw(Pool.of("A", A_TOKENS), 2, purpose="damage")


def test_a_manual_draw_answered_at_a_prompt_is_checked_too():
    dice = ManualDraw(ask_items=lambda purpose, drawer, count, pool: ["A1", "B1"][:count])
    with pytest.raises(DiceError, match="'B1' is not in pool"):
        cup_for(dice).draw(Pool.of("A", A_TOKENS), 2, purpose="damage")
    assert cup_for(dice).draw(Pool.of("A", A_TOKENS), 1, purpose="damage").items == ("A1",)


def test_manual_draw_still_takes_dice_faces():
    dice = ManualDraw()
    dice.enter([4, 6])
    assert DiceCup(dice).roll(2, purpose="to hit").faces == (4, 6)


# ---------------------------------------------------------------- secret draws


def test_a_secret_draw_shows_others_the_pool_count_and_commitment_only():
    """Wings of Glory 'Damage': tokens face down on the target's console; opponents see only the count."""
    draw = cup_for(SeededDice(2)).draw(Pool.of("A", A_TOKENS), 2, purpose="damage", drawer="red",
                                       secret_owner="blue")
    assert isinstance(draw, SecretPoolDrawn)
    assert redact(draw, "blue") is draw
    seen = redact(draw, "red")
    assert isinstance(seen, RedactedEvent)
    assert seen.public == {"pool": "A", "purpose": "damage", "drawer": "red", "count": 2, "size_before": 7}
    assert seen.commitment == draw.commitment
    assert decode_event("SecretPoolDrawn", 1, encode_event(draw)) == draw


def test_a_secret_draw_is_revealed_and_checked_against_its_commitment():
    draw = cup_for(SeededDice(2)).draw(Pool.of("A", A_TOKENS), 2, purpose="damage", secret_owner="blue")
    shown = reveal_draw(draw)
    shown.check(draw.commitment)
    assert decode_event("PoolDrawRevealed", 1, encode_event(shown)) == shown
    forged = PoolDrawRevealed(pool="A", owner="blue", items=("A0", "A0"), faces=shown.faces, salt=shown.salt)
    with pytest.raises(SecretMismatch):
        forged.check(draw.commitment)


# ---------------------------------------------------------------- returns


def test_sniper_returns_the_token_not_kept_and_the_pool_takes_it_back():
    """Wings of Glory Sniper: draw 2 of the letter, keep one for the target, return the other, reshuffle."""
    pool = Pool.of("A", A_TOKENS)
    cup = cup_for(SeededDice(11))
    drawn = cup.draw(pool, 2, purpose="sniper", secret_owner="red")
    pool = apply_to_pool(pool, drawn)
    back = put_back(cup, pool, drawn.items[1:], purpose="sniper", secret_owner="red")
    assert isinstance(back, SecretPoolReturned) and redact(back, "blue").public["count"] == 1
    pool = apply_to_pool(pool, back)
    assert pool.size == 6 and pool.count(drawn.items[1]) == Pool.of("A", A_TOKENS).count(drawn.items[1]) - (
        drawn.items[0] == drawn.items[1])


def test_a_pool_never_takes_back_more_than_it_held():
    pool = Pool.of("A", A_TOKENS)
    with pytest.raises(DataError, match="at most 1 of 'A0'"):
        put_back(cup_for(SeededDice(1)), pool, ["A0"], purpose="bogus")
    with pytest.raises(DataError, match="at most 0 of 'Z'"):
        apply_to_pool(pool, PoolReturned(pool="A", purpose="bogus", items=("Z",)))


def test_refilling_puts_every_item_back_and_pools_evolve_by_name():
    pools = {"A": Pool.of("A", A_TOKENS), "B": Pool.of("B", {"B1": 2})}
    draw = cup_for(SeededDice(5)).draw(pools["A"], 4, purpose="damage")
    pools = evolve_pools(pools, draw)
    assert pools["A"].size == 3 and pools["B"].size == 2
    pools = evolve_pools(pools, PoolRefilled(pool="A", purpose="new game"))
    assert pools["A"] == Pool.of("A", A_TOKENS)
    assert evolve_pools(pools, PoolDrawRevealed(pool="A", owner="x", items=(), faces=(), salt="")) is None
    with pytest.raises(DataError, match="no pool named 'Z'"):
        evolve_pools(pools, PoolRefilled(pool="Z", purpose="x"))
    with pytest.raises(DataError, match="applied to pool 'B'"):
        apply_to_pool(pools["B"], draw)


def test_the_pool_view_hides_its_contents():
    assert view_pool(Pool.of("A", A_TOKENS)).__struct_fields__ == ("name", "size")
    assert view_pool(Pool.of("A", A_TOKENS)).size == 7


# ---------------------------------------------------------------- property


contents = st.dictionaries(st.sampled_from(["A0", "A1", "A2", "B", "C"]), st.integers(0, 4), min_size=1)
steps = st.lists(st.tuples(st.sampled_from(["draw", "return"]), st.integers(0, 3), st.booleans()), max_size=12)


@settings(max_examples=60, deadline=None)
@given(contents, steps, st.integers(0, 10_000))
def test_no_sequence_of_draws_yields_more_of_an_item_than_the_pool_held(contents, steps, seed):
    pool = Pool.of("P", contents)
    held = Counter()
    cup = cup_for(SeededDice(seed))
    for action, count, secret in steps:
        if action == "draw":
            count = min(count, pool.size)
            event = cup.draw(pool, count, purpose="p", secret_owner="x" if secret else None)
            held.update(event.items)
        else:
            back = sorted(held.elements())[:count]
            event = put_back(cup, pool, back, purpose="p")
            held.subtract(back)
        pool = apply_to_pool(pool, event)
        for item, full in contents.items():
            assert held[item] <= full
            assert pool.count(item) + held[item] == full


@given(contents=st.dictionaries(st.sampled_from("abcdefg"), st.integers(0, 3), max_size=7),
       taken=st.lists(st.sampled_from("abcdefgh"), max_size=6))
def test_taking_items_out_walks_the_entries_and_agrees_with_counting_them_all(contents, taken):
    """``Pool.without`` (one walk over the sorted entries) gives the pool the full recount gives, and the same
    error, naming the item, when one is not there."""
    pool = Pool.of("deck", contents)
    try:
        expected = pool._without_checked(taken)
    except DataError as err:
        with pytest.raises(DataError) as refused:
            pool.without(iter(taken))
        assert str(refused.value) == str(err)
    else:
        assert pool.without(iter(taken)) == expected
