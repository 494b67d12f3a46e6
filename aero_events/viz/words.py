"""What happened, in words: one line per event worth telling, for the replay's text panel.

The ruleset's own narrator (:func:`aero_events.rulesets.aeronautica.narrate.describe`)
speaks first; the firing, Autonomous weapon, ground target and scenario events it does
not tell yet are told here, so the replay explains a volley even before the narrator
learns to. Dice lines get their modifiers spelled out, because luck is half the story.
Events are matched by type name and read with ``getattr``: the firing events are still
growing fields.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from aero_events.core import DiceRolled, StateCheckpoint
from aero_events.hexgrid import Facing
from aero_events.rulesets.aeronautica.narrate import describe as narrate_describe

FACING_NAMES = {int(f): f.name for f in Facing}


class Line(NamedTuple):
    """One line of narration; ``minor`` lines (dice, bookkeeping) are shown lighter."""

    text: str
    minor: bool = False


def readable(identifier: str | None) -> str:
    """``twin_lascannons`` -> ``Twin Lascannons``."""
    if not identifier:
        return "?"
    return identifier.replace("_", " ").title()


def _where(hex: Any) -> str:
    return f"({hex[0]},{hex[1]})" if hex is not None else "off the board"


def _dice(event: DiceRolled) -> str:
    line = f"{event.roller or 'the game'} rolls {list(event.faces)} for {event.purpose}"
    if event.target is not None:
        line += f", needing {event.target}+"
    if event.modifiers:
        line += " (" + "; ".join(f"{m.value:+d} {m.reason}" for m in event.modifiers) + ")"
    if event.replaces is not None:
        line += f" [re-roll of roll {event.replaces}]"
    return line


def _volley(e: Any) -> str:
    kind = {"tailing": " (Tailing Fire)", "tail_gunner": " (Tail Gunner return fire)"}.get(e.kind, "")
    targets = sorted({s.target for s in e.shots if getattr(s, "target", None)})
    if not e.shots:
        return f"{e.aircraft} holds its fire{kind}"
    if not targets:
        return f"{e.aircraft} fires{kind}"
    return f"{e.aircraft} fires{kind} at {', '.join(targets)}"


def _weapon_fired(e: Any) -> str:
    if e.target is None:
        return f"{e.aircraft} launches its {readable(e.weapon)}"
    band = f"{e.band} range" if e.band else "out of range"
    return f"{readable(e.weapon)} at {e.target}: {band}, {e.dice} dice"


def _damage_rolled(e: Any) -> str:
    if getattr(e, "skipped", None):
        return f"no Damage dice against {e.target}: {e.skipped}"
    return f"{e.damaging} damaging hit(s) on {e.target} ({e.structure} Structure)"


_FALLBACK: dict[str, Callable[[Any], str | None]] = {
    "ai.VolleyDeclared": _volley,
    "ai.WeaponFired": _weapon_fired,
    "ai.HitsScored": lambda e: f"{e.hits} hit(s) on {e.target}",
    "ai.DamageRolled": _damage_rolled,
    "ai.DamageIgnored": lambda e: f"{e.aircraft}'s {readable(e.upgrade)} ignores {e.structure} damage",
    "ai.DecoyLaunched": lambda e: f"{e.aircraft} uses {readable(e.upgrade)}: "
                                  + ("the hit becomes a miss" if e.negated else "no effect"),
    "ai.BombCreepRolled": lambda e: f"Bomb Creep on {e.target}: " + ("hit" if e.hit else "miss"),
    "ai.RerollUsed": lambda e: f"{e.aircraft} re-rolls with {readable(e.upgrade)}",
    "ai.ReturnFireOffered": lambda e: f"{e.aircraft} may return fire at {e.target} (Tail Gunner)",
    "ai.TailingDetermined": lambda e: f"{e.aircraft} is Tailing {e.target}" if e.target else None,
    "ai.AutonomousLaunched": lambda e: f"{e.firer} launches {readable(e.weapon)} ({e.weapon_id}) at "
                                       f"{_where(e.hex)} facing {FACING_NAMES.get(e.facing, e.facing)}",
    "ai.AutonomousDistanceRolled": lambda e: f"{e.weapon_id} will fly {e.hexes} hexes",
    "ai.AutonomousMoved": lambda e: f"{e.weapon_id} flies {len(e.path)} hex(es) to {_where(e.hex)}",
    "ai.AutonomousAttacked": lambda e: f"{e.weapon_id} attacks {e.target}: " + ("HIT" if e.hit else "miss"),
    "ai.AutonomousRemoved": lambda e: f"{e.weapon_id} is removed ({e.reason})",
    "ai.GroundTargetDamaged": lambda e: f"ground target {e.target} loses {e.hits} Structure ({e.structure} left)",
    "ai.GroundTargetDestroyed": lambda e: f"X ground target {e.target} is destroyed",
    "ai.AircraftPlaced": lambda e: f"{e.aircraft} is placed at {_where(e.hex)} facing "
                                   f"{FACING_NAMES.get(e.facing, e.facing)}, Speed {e.speed}, Altitude {e.altitude}",
    "ai.ReservePlaced": lambda e: f"{e.aircraft} arrives from reserve at {_where(e.hex)}, Speed {e.speed}, "
                                  f"Altitude {e.altitude}",
    "ai.ReserveArrived": lambda e: f"{e.aircraft}'s reserve roll succeeds",
    "ai.EjectorSeatsRolled": lambda e: f"{e.aircraft}'s crew " + ("eject safely" if e.escaped else "are lost"),
    "ai.VictoryPointsScored": lambda e: f"{e.player} scores {e.total} Victory points",
    "ai.DisengagementTurnDeclared": lambda e: f"turn {e.turn} is the Disengagement turn "
                                              f"({', '.join(e.players)} down to 25% or fewer)",
    "ai.SetUpRollOffWon": lambda e: f"{e.player} wins the set-up roll-off",
    "ai.WeatherDetermined": lambda e: f"the weather: {readable(e.conditions)}",
    "ai.CloudLevelDetermined": lambda e: f"cloud cover at Altitude {e.level}",
    "ai.TerrainCrashed": lambda e: f"X {e.aircraft} crashes into {e.terrain} at {_where(e.hex)}",
    "ai.TroopsDelivered": lambda e: f"{e.aircraft} delivers {e.points} point(s) of troops at {e.zone}",
    "ai.JumpTroopsDropped": lambda e: f"{e.aircraft} drops Jump Troops over {e.zone}: {e.landed}/{e.points} land",
}


def describe_event(event: Any) -> Line | None:
    """The line telling ``event``, or None for bookkeeping nobody needs to read."""
    if type(event) is StateCheckpoint:
        return None
    if type(event) is DiceRolled:
        return Line(_dice(event), minor=True)
    line = narrate_describe(event)
    if line is None:
        fallback = _FALLBACK.get(event.type_name())
        if fallback is not None:
            try:
                line = fallback(event)
            except AttributeError:  # an older or newer shape of the event: tell its name at least
                line = event.type_name().removeprefix("ai.")
    if line is None:
        return None
    return Line(line.strip())
