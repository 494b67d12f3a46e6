"""Luck: how many dice succeeded against how many were expected to.

Every ``DiceRolled`` that a rule compares with a number records its ``target`` and
``modifiers`` (DESIGN.md contract 3). Dice (rulebook p.7): a die succeeds when its
face plus the modifiers reaches the target; "a dice roll can never be modified to 0 or
lower, and any natural roll of a 1 is always a fail, regardless of modifiers". So for
a D6 needing 5+ with -1 only a natural 6 succeeds: p = 1/6, and four such dice are
expected to score 4/6 successes.

A roll that was re-rolled (Imperial Ace, Fly Boss: a later roll's ``replaces`` names
it) is left out: the re-roll is the one that counted. Luck over a game is the running
sum of (actual - expected) successes per player, in event order.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

import pyarrow as pa

from aero_events.core import DiceRolled, Envelope

from .tables import query, table_from_rows
from .timeline import Timeline


def die_succeeds(value: int, target: int, modifier: int = 0) -> bool:
    """One die's result against ``target`` (p.7): never modified below 1; a natural 1 always fails."""
    return value != 1 and max(1, value + modifier) >= target


def success_chance(target: int, modifier: int = 0, sides: int = 6, d3: bool = False) -> Fraction:
    """The chance that one die succeeds, exactly (a D3 is a D6 halved, rounded up, p.7)."""
    values = [(face + 1) // 2 for face in range(1, sides + 1)] if d3 else list(range(1, sides + 1))
    return Fraction(sum(1 for value in values if die_succeeds(value, target, modifier)), len(values))


def expected_successes(count: int, target: int, modifier: int = 0, sides: int = 6, d3: bool = False) -> float:
    """How many of ``count`` dice are expected to succeed (count times the chance of one)."""
    return float(count * success_chance(target, modifier, sides, d3))


def actual_successes(roll: DiceRolled) -> int:
    """How many dice of a targeted roll succeeded."""
    if roll.target is None:
        raise ValueError(f"roll {roll.roll_index} ({roll.purpose}) has no target number")
    modifier = roll.total_modifier
    return sum(1 for value in roll.values if die_succeeds(value, roll.target, modifier))


def purpose_kind(purpose: str) -> str:
    """The family of a roll's purpose: "to hit: x at y" -> "to hit", "damage: ..." -> "damage"."""
    return purpose.split(":", 1)[0].strip()


LUCK_SCHEMA = pa.schema([
    ("seq", pa.int64()), ("turn", pa.int32()), ("phase", pa.string()), ("roller", pa.string()),
    ("purpose", pa.string()), ("kind", pa.string()), ("dice", pa.int32()), ("target", pa.int32()),
    ("modifier", pa.int32()), ("faces", pa.list_(pa.int32())), ("expected", pa.float64()),
    ("actual", pa.int32()), ("luck", pa.float64()), ("cumulative_luck", pa.float64()),
])


def luck_rows(envelopes: Iterable[Envelope]) -> list[dict]:
    """One row per targeted roll that counted, with the roller's running luck."""
    rolls = [env for env in envelopes if type(env.event) is DiceRolled]
    replaced = {env.event.replaces for env in rolls if env.event.replaces is not None}
    running: dict[str, float] = {}
    rows = []
    for env in rolls:
        roll: DiceRolled = env.event
        if roll.target is None or roll.roll_index in replaced or roll.count == 0:
            continue
        modifier = roll.total_modifier
        expected = expected_successes(roll.count, roll.target, modifier, roll.sides, roll.d3)
        actual = actual_successes(roll)
        roller = roll.roller or "(game)"
        running[roller] = running.get(roller, 0.0) + actual - expected
        rows.append({"seq": env.seq, "turn": env.turn, "phase": env.phase, "roller": roller,
                     "purpose": roll.purpose, "kind": purpose_kind(roll.purpose), "dice": roll.count,
                     "target": roll.target, "modifier": modifier, "faces": list(roll.faces),
                     "expected": expected, "actual": actual, "luck": actual - expected,
                     "cumulative_luck": running[roller]})
    return rows


def luck_table(timeline: Timeline) -> pa.Table:
    """Every targeted roll of the game: expected and actual successes, and each player's running luck."""
    return table_from_rows(luck_rows(timeline.envelopes), LUCK_SCHEMA)


def luck_summary(table: pa.Table) -> pa.Table:
    """Per player and kind of roll: rolls, dice, expected and actual successes, luck."""
    return query(
        """SELECT roller, kind, count(*) AS rolls, sum(dice)::BIGINT AS dice, round(sum(expected), 2) AS expected,
                  sum(actual)::BIGINT AS actual, round(sum(actual) - sum(expected), 2) AS luck
           FROM rolls GROUP BY roller, kind ORDER BY roller, kind""", rolls=table)
