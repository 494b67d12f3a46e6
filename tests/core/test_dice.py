"""Dice are events (DESIGN.md contract 3; rulebook p.7)."""

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aero_events.core import (
    DiceCup,
    DiceError,
    DiceRolled,
    ManualDice,
    Modifier,
    SeededDice,
    TapeDice,
    TapeExhausted,
    decode_event,
    encode_event,
)


def test_seeded_dice_follow_the_documented_sha256_counter_algorithm():
    """The seeded algorithm is fixed by its docstring; recompute the first faces by hand."""
    block = hashlib.sha256(b"42" + (0).to_bytes(8, "big")).digest()
    expected = [b % 6 + 1 for b in block if b < 252][:10]
    assert SeededDice(42).draw(10, 6) == expected


def test_seeded_dice_are_reproducible_and_seed_dependent():
    assert SeededDice("x").draw(100, 6) == SeededDice("x").draw(100, 6)
    assert SeededDice("x").draw(100, 6) != SeededDice("y").draw(100, 6)


def test_seeded_dice_are_roughly_uniform():
    faces = SeededDice(1).draw(60_000, 6)
    counts = [faces.count(f) for f in range(1, 7)]
    assert all(9_400 < c < 10_600 for c in counts), counts


@given(st.integers(min_value=2, max_value=20), st.integers(min_value=0, max_value=50))
def test_seeded_faces_stay_within_the_die(sides, count):
    assert all(1 <= f <= sides for f in SeededDice(sides * 7).draw(count, sides))


def test_d3_halves_a_d6_rounding_up_p7():
    """p.7: 'roll a D6 and halve the result, rounding up'."""
    cup = DiceCup(ManualDice())
    cup.source.enter([1, 2, 3, 4, 5, 6])
    roll = cup.d3(6, purpose="autonomous weapon speed")
    assert roll.faces == (1, 2, 3, 4, 5, 6)
    assert roll.values == (1, 1, 2, 2, 3, 3)
    assert roll.d3


def test_manual_dice_refuse_faces_outside_one_to_six():
    dice = ManualDice()
    with pytest.raises(DiceError, match="1 to 6"):
        dice.enter([3, 7])
    with pytest.raises(DiceError):
        dice.enter([0])
    assert dice.draw.__self__._queue == []


def test_manual_dice_refuse_the_wrong_number_of_faces():
    dice = ManualDice(ask=lambda purpose, roller, count, sides: [4] * (count + 1))
    with pytest.raises(DiceError, match="2 dice needed, 3 given"):
        DiceCup(dice).roll(2, purpose="to hit")


def test_manual_dice_from_a_prompt_are_checked_against_the_die():
    dice = ManualDice(ask=lambda purpose, roller, count, sides: [6, 9])
    with pytest.raises(DiceError, match="D6 shows 1 to 6"):
        DiceCup(dice).roll(2, purpose="to hit")


def test_tape_replays_faces_in_order_and_says_when_it_runs_out():
    cup = DiceCup(TapeDice([1, 2, 3]))
    assert cup.roll(2, purpose="a").faces == (1, 2)
    with pytest.raises(TapeExhausted, match="ran out after 3 faces; 1 more needed"):
        cup.roll(2, purpose="b")


def test_tape_with_a_fallback_counts_the_extra_dice():
    tape = TapeDice([6], fallback=SeededDice(3))
    faces = DiceCup(tape).roll(3, purpose="firepower").faces
    assert faces[0] == 6 and len(faces) == 3
    assert tape.extra_faces == 2 and tape.extra_rolls == 1


def test_tape_from_recorded_events_reproduces_the_rolls():
    cup = DiceCup(SeededDice(9))
    rolls = [cup.roll(n, purpose="p") for n in (3, 1, 4)]
    replay = DiceCup(TapeDice.from_events(rolls))
    assert [replay.roll(n, purpose="p").faces for n in (3, 1, 4)] == [r.faces for r in rolls]


def test_dice_rolled_records_purpose_roller_target_and_modifiers():
    cup = DiceCup(SeededDice(5), next_index=7)
    roll = cup.roll(4, purpose="to hit", roller="red", target=5, modifiers=[Modifier("altitude", -1)])
    assert (roll.roll_index, roll.count, roll.sides, roll.target) == (7, 4, 6, 5)
    assert roll.total_modifier == -1
    assert decode_event("DiceRolled", 1, encode_event(roll)) == roll


def test_a_reroll_names_the_roll_it_replaces():
    """The Imperial Ace and Fly Boss re-roll all the dice of one roll (p.41, p.45)."""
    cup = DiceCup(SeededDice(5))
    first = cup.roll(3, purpose="to hit", roller="red", target=5)
    again = cup.reroll(first)
    assert isinstance(again, DiceRolled)
    assert again.replaces == first.roll_index
    assert (again.count, again.target, again.purpose) == (3, 5, "to hit")
    assert again.roll_index == first.roll_index + 1
