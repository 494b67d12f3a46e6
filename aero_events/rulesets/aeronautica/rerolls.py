"""Imperial Ace (rulebook p.37) and Fly Boss (p.45) for rolls made outside the aircraft's own firing.

"Once per game, this aircraft may choose to reroll a dice roll. However, all of the dice rolled must be
re-rolled and the player must accept the result of the second roll, even if it is worse." "A dice roll" is
any roll made for the aircraft: the firing part offers its to-hit and Damage rolls (:mod:`.firing`); this
module offers the rolls the rules make for it on their own:

* Stall recovery (p.29) and Spin recovery (p.29), both against Handling, and the D6 for its facing after
  recovering from a Spin;
* the Crash roll of a dive to Altitude 0 (p.19) and the Breaking Up roll (p.19);
* Ejector Seats (p.37);
* its Armoured Cockpit / Extra Armour roll (p.37, p.45) against the damage of a weapon fired at it in a volley:
  the volley waits for the *target's* player, then goes on (``RollOffered.losses`` and ``weapon_index`` say
  which damage the roll is against).

After such a roll, if the aircraft's re-roll is unused, :class:`RollOffered` puts the game on hold
(``state.pending_roll``) until its player sends ``AcceptRoll`` or ``UseReroll``; the rule that made the roll
then goes on with whichever roll stands (``CONTINUATIONS``, filled by the modules that own the rules).

Choices where the text is silent: a decoy roll (p.37, p.44), an armour roll against Bomb Creep (p.27) or an
Autonomous weapon's hit (p.25), and the 2020 occupied-hex roll are not offered: they fall inside loops over
several victims or weapons that the engine resolves in one step. Initiative and reserve-arrival rolls belong
to a player, not to an aircraft.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import msgspec

from aero_events.core import Command, DiceCup, DiceRolled, Event, RuleError

from .commands import AcceptRoll, UseReroll
from .events import RerollUsed, RollAccepted, RollOffered
from .state import AutoRoll, GameState, with_aircraft
from .upgrades import reroll_upgrade

if TYPE_CHECKING:
    from .ruleset import AeronauticaRules
    from .turn import Emitter

# The rules that make re-rollable rolls (RollOffered.step).
STALL_RECOVERY = "stall_recovery"  # p.29
SPIN_RECOVERY = "spin_recovery"  # p.29
SPIN_FACING = "spin_facing"  # p.29
CRASH = "crash"  # p.19
BREAKING_UP = "breaking_up"  # p.19
EJECTOR_SEATS = "ejector_seats"  # p.37
ARMOUR = "armour"  # p.37, p.45

#: step -> what the rule does with the roll that stands: (rules, out, aircraft id, roll, dice).
Continuation = Callable[["AeronauticaRules", "Emitter", str, DiceRolled, DiceCup], None]
CONTINUATIONS: dict[str, Continuation] = {}
#: steps whose rule needs the whole waiting roll (an armour roll's damage): (rules, out, pending, roll, dice).
PendingContinuation = Callable[["AeronauticaRules", "Emitter", AutoRoll, DiceRolled, DiceCup], None]
PENDING_CONTINUATIONS: dict[str, PendingContinuation] = {}


def _go_on(rules: AeronauticaRules, out: Emitter, pending: AutoRoll, roll: DiceRolled, dice: DiceCup) -> None:
    if pending.step in PENDING_CONTINUATIONS:
        PENDING_CONTINUATIONS[pending.step](rules, out, pending, roll, dice)
    else:
        CONTINUATIONS[pending.step](rules, out, pending.aircraft, roll, dice)


def offer(out: Emitter, aircraft_id: str, step: str, roll: DiceRolled, *, losses: tuple[int, ...] = (),
          weapon_index: int | None = None) -> bool:
    """After ``roll`` was made for the aircraft: hold the game for its re-roll decision if it has one unused.
    True when the game now waits (the caller stops; the continuation of ``step`` resumes it). ``losses`` and
    ``weapon_index``: for an armour roll, the damage it is against."""
    aircraft = out.state.aircraft[aircraft_id]
    if not roll.faces or reroll_upgrade(aircraft) is None:
        return False
    out.emit(RollOffered(aircraft=aircraft_id, step=step, roll=roll, losses=losses, weapon_index=weapon_index))
    return True


def waiting(state: GameState, command: Command) -> AutoRoll:
    """The roll waiting for ``command``'s player; refuse anyone else."""
    pending = state.pending_roll
    if pending is None:
        raise RuleError("no roll is waiting for a re-roll decision", rule="Imperial Ace / Fly Boss", page=37)
    if pending.player != command.player or pending.aircraft != getattr(command, "aircraft", None):
        raise RuleError(f"the roll waits for {pending.player}'s decision for {pending.aircraft}",
                        rule="Imperial Ace / Fly Boss", page=37)
    return pending


def accept(rules: AeronauticaRules, out: Emitter, command: AcceptRoll, dice: DiceCup) -> None:
    """Keep the roll; the re-roll stays unused."""
    pending = waiting(out.state, command)
    out.emit(RollAccepted(aircraft=pending.aircraft, roll_index=pending.roll.roll_index))
    _go_on(rules, out, pending, pending.roll, dice)


def reroll(rules: AeronauticaRules, out: Emitter, command: UseReroll, dice: DiceCup) -> None:
    """Re-roll every die of the roll (p.37, p.45); the second result stands."""
    pending = waiting(out.state, command)
    upgrade = reroll_upgrade(out.state.aircraft[pending.aircraft])
    if upgrade is None:
        raise RuleError(f"{pending.aircraft} has no unused re-roll", rule="Imperial Ace / Fly Boss", page=37)
    out.emit(RerollUsed(aircraft=pending.aircraft, upgrade=upgrade, roll_index=pending.roll.roll_index))
    roll = dice.reroll(pending.roll)
    out.emit(roll)
    _go_on(rules, out, pending, roll, dice)


HANDLERS: dict = {}  # AcceptRoll and UseReroll are the firing part's commands; it hands them on here


def legal_commands(rules: AeronauticaRules, state: GameState, player: str) -> list[Command]:
    """While a roll waits: keep it or re-roll it, for its player only."""
    pending = state.pending_roll
    if pending is None or pending.player != player:
        return []
    return [AcceptRoll(player=player, aircraft=pending.aircraft), UseReroll(player=player, aircraft=pending.aircraft)]


def evolve(rules: AeronauticaRules, state: GameState, event: Event) -> GameState | None:
    replace = msgspec.structs.replace
    if isinstance(event, RollOffered):
        aircraft = state.aircraft[event.aircraft]
        return replace(state, pending_roll=AutoRoll(aircraft=aircraft.id, player=aircraft.owner, step=event.step,
                                                    roll=event.roll, losses=event.losses,
                                                    weapon_index=event.weapon_index))
    if isinstance(event, (RollAccepted, RerollUsed)) and state.pending_roll is not None:
        if isinstance(event, RerollUsed):
            state = with_aircraft(state, replace(state.aircraft[event.aircraft], reroll_used=True))
        return replace(state, pending_roll=None)
    return None
