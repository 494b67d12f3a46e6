"""The host's dice for attacks (this project's minimal host, README): to hit by BS or by WS, to wound by S
against T, armour saves; distance rolls with Swiftstride; Leadership tests.

* **To hit (shooting)**: BS 1..5 need 6+, 5+, 4+, 3+, 2+; modifiers change the score needed (a +1 modifier
  makes it one easier). A 1 always misses; a score of 7 needs a 6 then a 4+, 8 a 6 then a 5+, 9 a 6 then a 6+;
  beyond, no hit.
* **To hit (close combat)**: 3+ when the attacker's WS is higher than the defender's, 5+ when the defender's
  is more than twice the attacker's, else 4+.
* **To wound**: S = T 4+; S = T + 1 3+; S >= T + 2 2+; S = T - 1 5+; S = T - 2.. T - 5 6+; lower, no wound.
* **Armour save**: the printed save worsened by 1 for each point of S above 3; a 1 always fails; 7+ is no
  save.
* **Leadership tests**: 2D6 against Ld (passed when the total is at most the target).
* **Swiftstride** (flyers, Special Rules): charge, flee and pursuit roll one D6 more and discard the lowest.
"""

from __future__ import annotations

from aero_events.core import DiceCup, Modifier

from .events import TestTaken


def shooting_score(bs: int, modifier: int) -> int:
    """The score needed to hit with ``bs`` after ``modifier`` (positive helps); below 2 is 2."""
    return max(2, 7 - max(1, min(bs, 5)) - modifier) if bs > 0 else 99


def combat_score(ws: int, enemy_ws: int) -> int:
    if ws > enemy_ws:
        return 3
    if enemy_ws > 2 * ws:
        return 5
    return 4


def wound_score(strength: int, toughness: int) -> int | None:
    difference = strength - toughness
    if difference >= 2:
        return 2
    if difference == 1:
        return 3
    if difference == 0:
        return 4
    if difference == -1:
        return 5
    if difference >= -5:
        return 6
    return None


def save_score(save: int, strength: int) -> int | None:
    needed = save + max(0, strength - 3)
    return needed if needed <= 6 else None


def roll_hits(out, dice: DiceCup, count: int, score: int, *, purpose: str, roller: str,
              modifiers: tuple[Modifier, ...] = ()) -> int:
    """Roll ``count`` dice to hit needing ``score`` (7-9: a 6 then 4+, 5+, 6+); the rolls are emitted."""
    if count <= 0 or score > 9:
        return 0
    roll = dice.roll(count, purpose=purpose, roller=roller, target=min(score, 6), modifiers=modifiers)
    out.emit(roll)
    if score <= 6:
        return sum(1 for face in roll.faces if face >= score and face != 1)
    sixes = sum(1 for face in roll.faces if face == 6)
    if not sixes:
        return 0
    second = dice.roll(sixes, purpose=f"{purpose} (after a 6)", roller=roller, target=score - 3)
    out.emit(second)
    return sum(1 for face in second.faces if face >= score - 3)


def roll_wounds(out, dice: DiceCup, hits: int, strength: int, toughness: int, *, purpose: str, roller: str) -> int:
    score = wound_score(strength, toughness)
    if hits <= 0 or score is None:
        return 0
    roll = dice.roll(hits, purpose=purpose, roller=roller, target=score)
    out.emit(roll)
    return sum(1 for face in roll.faces if face >= score)


def roll_saves(out, dice: DiceCup, wounds: int, save: int, strength: int, *, purpose: str, roller: str,
               armour: bool = True) -> int:
    """The wounds left unsaved."""
    score = save_score(save, strength) if armour else None
    if wounds <= 0 or score is None:
        return wounds
    roll = dice.roll(wounds, purpose=purpose, roller=roller, target=score)
    out.emit(roll)
    return sum(1 for face in roll.faces if face < score or face == 1)


def roll_count(out, dice: DiceCup, expression: str, *, purpose: str, roller: str) -> int:
    """A number of shots or hits written as a whole number, "D3" or "D6"."""
    if expression.isdigit():
        return int(expression)
    if expression == "D3":
        roll = dice.d3(purpose=purpose, roller=roller)
    elif expression == "D6":
        roll = dice.d6(purpose=purpose, roller=roller)
    else:
        raise ValueError(f"unknown dice expression {expression!r}")
    out.emit(roll)
    return roll.total


def roll_distance(out, dice: DiceCup, count: int, swiftstride: bool, *, purpose: str, roller: str) -> tuple[int, int]:
    """``count`` D6 (one more, the lowest discarded, with Swiftstride): (total in inches, highest die)."""
    roll = dice.roll(count + (1 if swiftstride else 0), purpose=purpose, roller=roller)
    out.emit(roll)
    faces = sorted(roll.faces, reverse=True)[:count]
    return sum(faces), faces[0]


def leadership_test(out, dice: DiceCup, unit_id: str, test: str, target: int, *, roller: str) -> bool:
    roll = dice.roll(2, purpose=f"{test} test: {unit_id}", roller=roller, target=target)
    out.emit(roll)
    passed = roll.total <= target
    out.emit(TestTaken(unit=unit_id, test=test, passed=passed, score=roll.total, target=target))
    return passed


def d6_test(out, dice: DiceCup, unit_id: str, test: str, target: int, *, roller: str) -> bool:
    """A single D6 needing ``target`` or more (Fly High test 4+, stay aloft 3+, dangerous terrain 2+)."""
    roll = dice.d6(purpose=f"{test}: {unit_id}", roller=roller, target=target)
    out.emit(roll)
    passed = roll.faces[0] >= target
    out.emit(TestTaken(unit=unit_id, test=test, passed=passed, score=roll.faces[0], target=target))
    return passed
