"""Small helpers: positions in cm, states placed by hand, dice faces given in advance."""

from __future__ import annotations

import msgspec

from aero_events.core import DiceCup, SeededDice, TapeDice
from aero_events.rulesets.battlefleet_gothic import BattlefleetGothicRules, GameSetup, RuleOptions, ShipSetup
from aero_events.rulesets.battlefleet_gothic.data import CM
from aero_events.rulesets.battlefleet_gothic.state import MOVEMENT

RULES = BattlefleetGothicRules()
QUIET = BattlefleetGothicRules(options=RuleOptions(brace_reactions=False))

replace = msgspec.structs.replace


def ship(id, side, cls, x_cm, y_cm, heading_deg=0, leadership=7, name=None):
    return ShipSetup(id=id, name=name or id, side=side, class_id=cls, x=round(x_cm * CM), y=round(y_cm * CM),
                     heading=round(heading_deg * 100), leadership=leadership)


def state_with(*ships, phase=MOVEMENT, active="imperial", rules=RULES, **changes):
    setup = GameSetup(players=("imperial", "chaos"), ships=tuple(ships))
    state = rules.initial_state(setup)
    return replace(state, phase=phase, active=active, round=1, player_turn=1, first_player="imperial", **changes)


def with_ship(state, ship_id, **changes):
    ships = dict(state.ships)
    ships[ship_id] = replace(ships[ship_id], **changes)
    return replace(state, ships=ships)


def decide(state, command, faces=(), rules=RULES):
    """Decide ``command`` with the given dice faces first (then seeded dice); return (events, state after)."""
    dice = DiceCup(TapeDice(list(faces), fallback=SeededDice("bfg-tests")))
    events = rules.decide(state, command, dice)
    return events, rules.fold(state, events)


def of_type(events, kind):
    return [e for e in events if isinstance(e, kind)]
