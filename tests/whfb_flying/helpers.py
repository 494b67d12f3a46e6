"""Small helpers: units placed in inches, states set by hand, dice faces given in advance."""

from __future__ import annotations

import msgspec

from aero_events.core import DiceCup, SeededDice, TapeDice
from aero_events.rulesets.whfb_flying import RuleOptions, WhfbFlyingRules
from aero_events.rulesets.whfb_flying.data import Deployment, TerrainPiece
from aero_events.rulesets.whfb_flying.setup import GameSetup
from aero_events.rulesets.whfb_flying.state import MOVEMENT
from aero_events.table import INCH, inches

RULES = WhfbFlyingRules()
replace = msgspec.structs.replace
IN = INCH


def unit(id, profile, models, x, y, heading=0):
    return Deployment(id=id, profile=profile, models=models, x=inches(x), y=inches(y), heading=round(heading * 100))


def terrain(id, kind, x, y, width, length, cover=0, dangerous=False):
    return TerrainPiece(id=id, name=id, kind=kind, x=inches(x), y=inches(y), width=inches(width),
                        length=inches(length), heading=0, cover=cover, dangerous_for_swoop=dangerous)


def battle(north=(), south=(), *, terrain=(), phase=MOVEMENT, active="north", air=(), range_method="basic",
           rules=RULES, **changes):
    """A state in ``phase`` of north's turn 1 (unless told otherwise); units in ``air`` are in the air."""
    setup = GameSetup(forces={"north": tuple(north), "south": tuple(south)}, terrain=tuple(terrain),
                      range_method=range_method, first="north")
    state = rules.initial_state(setup)
    changes = {"vanguard_done": ("north", "south"), **changes}
    state = replace(state, phase=phase, active=active, turn=1, turn_count=1, **changes)
    for unit_id in air:
        state = with_unit(state, unit_id, in_air=True)
    return state


def with_unit(state, unit_id, **changes):
    units = dict(state.units)
    units[unit_id] = replace(units[unit_id], **changes)
    return replace(state, units=units)


def decide(state, command, faces=(), rules=RULES):
    """Decide ``command`` with the given dice faces first (then seeded dice); return (events, state after)."""
    dice = DiceCup(TapeDice(list(faces), fallback=SeededDice("whfb-tests")))
    events = rules.decide(state, command, dice)
    return events, rules.fold(state, events)


def of_type(events, kind):
    return [e for e in events if isinstance(e, kind)]


def options(**changes):
    return WhfbFlyingRules(options=RuleOptions(**changes))


def rolls(events, text):
    """The dice events whose purpose contains ``text``."""
    from aero_events.core import DiceRolled

    return [e for e in events if isinstance(e, DiceRolled) and text in e.purpose]
