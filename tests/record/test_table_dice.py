"""The dice and draws the recorder asks the table for, for any ruleset: a direction read as a heading, and
items drawn from a pool named one by one, each checked before anything is used."""

from __future__ import annotations

import pytest

from aero_events.core import DiceCup
from aero_events.core.pools import Pool, draw_from
from aero_events.record.table_dice import CommandCancelled, TableDice


def _dice(answers, secret_answers=()):
    said: list[str] = []
    asked: list[str] = []
    secretly: list[str] = []
    open_answers, hidden_answers = iter(answers), iter(secret_answers)

    def ask(prompt):
        asked.append(prompt)
        return next(open_answers)

    def ask_secret(prompt):
        secretly.append(prompt)
        return next(hidden_answers)

    return TableDice(ask, said.append, ask_secret=ask_secret), said, asked, secretly


def test_a_direction_is_typed_as_the_heading_read_at_the_table_and_a_bad_one_is_asked_again():
    dice, said, asked, _ = _dice(["400", "north", "272.5"])
    roll = DiceCup(dice, 0).direction(purpose="scatter of the bomb", roller="red")
    assert roll.headings[0] == 27250  # hundredths of a degree clockwise from north
    assert len(asked) == 3 and "the heading in degrees clockwise from north" in asked[0]
    assert said[0].startswith("  refused: '400' is not a heading from 0 to 359.99 degrees")


def test_items_drawn_from_a_pool_are_named_unseen_and_a_name_not_left_in_the_pool_is_refused():
    pool = Pool.of("damage-A", {"A-0": 1, "A-1": 2, "A-2-smoke": 1})
    dice, said, asked, secretly = _dice([], ["A-1 A-1 A-1", "A-9 A-1", "A-2-smoke, A-1"])
    drawn = draw_from(DiceCup(dice, 0), pool, 2, purpose="damage to spitfire-1", drawer="RAF")
    assert drawn.items == ("A-2-smoke", "A-1")
    assert drawn.faces == (4, 2)  # the positions of the named items: A-2-smoke is 4th of four, then A-1 2nd
    assert not asked and len(secretly) == 3 and "RAF draws 2 from damage-A for damage to spitfire-1" in secretly[0]
    assert "refused: damage to spitfire-1: 2 item(s) drawn, 3 named" in said[0]
    assert "refused: damage to spitfire-1: 'A-9' is not in pool 'damage-A'" in said[1]


def test_a_pool_draw_can_be_taken_back_at_its_prompt():
    pool = Pool.of("deck", ["card-1", "card-2"])
    dice, _, _, _ = _dice([], ["cancel"])
    with pytest.raises(CommandCancelled):
        draw_from(DiceCup(dice, 0), pool, 1, purpose="a card", drawer="blue")
