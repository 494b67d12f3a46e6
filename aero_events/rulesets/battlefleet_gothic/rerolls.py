"""Re-rolls (p.7): "pick up the dice you wish to re-roll and roll it/them again. The second score counts with a
re-roll, even if it means a worse result than the first. No single Special Order or other leadership test can
be re-rolled more than once, regardless of the source of the re-roll."

Every re-roll the core rules grant goes through :func:`reroll_misses`: Lock On's missed To Hit dice for
lances and weapons batteries (p.21). (The text's other re-roll, "Torpedoes that can re-roll misses must do
so", p.28, has no source among its ships or the data.) The limit is enforced here, for every source at once:

* a roll that is itself a re-roll (``DiceRolled.replaces`` set) is never re-rolled;
* a roll is re-rolled at most once, however many sources grant a re-roll (``sources``);
* the new score stands (p.7), even when worse.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aero_events.core import DiceCup, DiceRolled, RuleError

if TYPE_CHECKING:
    from .turn import Emitter


def already_rerolled(out: Emitter, roll: DiceRolled) -> bool:
    return any(isinstance(e, DiceRolled) and e.replaces == roll.roll_index for e in out.events)


def reroll_misses(out: Emitter, dice: DiceCup, roll: DiceRolled, needed: int, *, purpose: str, roller: str,
                  sources: tuple[str, ...]) -> int:
    """Re-roll the dice of ``roll`` that missed ``needed`` once, if any source grants it; the hits of the
    re-rolled dice (the second score stands, p.7)."""
    if not sources:
        return 0
    if roll.replaces is not None or already_rerolled(out, roll):
        raise RuleError("a dice may only be re-rolled once, regardless of the source of the re-roll",
                        rule="Re-rolls", page=7)
    misses = sum(1 for face in roll.faces if face < needed)
    if not misses:
        return 0
    again = dice.roll(misses, purpose=f"{purpose} ({' and '.join(sources)} re-roll)", roller=roller,
                      target=needed, replaces=roll.roll_index)
    out.emit(again)
    return sum(1 for face in again.faces if face >= needed)
