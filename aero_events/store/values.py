"""Values an event may not hold, whatever its ruleset says: checked on every import (``aero import``).

A payload can be well-formed JSON of the right type and still be nonsense the ruleset's ``evolve`` may
take without complaint: a D6 that rolled 99, ``count`` -3, a number too big for any column or SQL view
(``10**30`` faces would break the ``dice_rolls`` view for every game of the file). Each check names the
field at fault.
"""

from __future__ import annotations

from typing import Any

import msgspec

from aero_events.core.dice import MAX_SIDES

_INT64 = 2**63 - 1


def _first_huge_int(value: Any, path: str, depth: int = 0) -> str | None:
    """The path of the first integer in ``value`` outside a signed 64-bit range, or None."""
    if depth > 64:
        return path
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return path if not -_INT64 - 1 <= value <= _INT64 else None
    if isinstance(value, msgspec.Struct):
        for name in value.__struct_fields__:
            found = _first_huge_int(getattr(value, name), f"{path}.{name}" if path else name, depth + 1)
            if found is not None:
                return found
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            found = _first_huge_int(item, f"{path}[{index}]", depth + 1)
            if found is not None:
                return found
    elif isinstance(value, dict):
        for key, item in value.items():
            found = _first_huge_int(item, f"{path}.{key}", depth + 1)
            if found is not None:
                return found
    return None


def dice_problem(event: Any) -> tuple[str, str] | None:
    """A roll's count, die and faces must agree: 2 <= sides <= MAX_SIDES, count >= 0, count faces each 1..sides
    (core/dice.py: the sources draw faces 1..sides, and only those)."""
    sides, count, faces = (getattr(event, name, None) for name in ("sides", "count", "faces"))
    if not (isinstance(sides, int) and isinstance(count, int) and isinstance(faces, tuple)):
        return None
    if not 2 <= sides <= MAX_SIDES:
        return "sides", f"a die of {sides} sides: dice have 2 to {MAX_SIDES} sides"
    if count < 0:
        return "count", f"{count} dice: a roll has zero or more dice"
    if len(faces) != count:
        return "faces", f"{len(faces)} faces for a roll of {count} dice"
    for index, face in enumerate(faces):
        if not 1 <= face <= sides:
            return f"faces[{index}]", f"face {face} on a D{sides}: faces run 1..{sides}"
    roll_index = getattr(event, "roll_index", None)
    if isinstance(roll_index, int) and roll_index < 0:
        return "roll_index", f"roll index {roll_index} cannot be negative"
    return None


def value_problem(event: Any) -> tuple[str, str] | None:
    """(field, what is wrong) for the first impossible value in ``event``; None when there is none."""
    huge = _first_huge_int(event, "")
    if huge is not None:
        return huge, "a number out of range (beyond 64 bits) or nested too deeply"
    return dice_problem(event)
