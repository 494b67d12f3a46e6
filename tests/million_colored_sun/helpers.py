"""Small helpers: models placed in inches, states set by hand, dice faces given in advance."""

from __future__ import annotations

import msgspec

from aero_events.core import DiceCup, SeededDice, TapeDice
from aero_events.rulesets.million_colored_sun import MillionColoredSunRules, RuleOptions
from aero_events.rulesets.million_colored_sun.data import Deployment, Terrain
from aero_events.rulesets.million_colored_sun.setup import GameSetup
from aero_events.rulesets.million_colored_sun.state import HERO
from aero_events.table import inches

RULES = MillionColoredSunRules()
replace = msgspec.structs.replace
IN = 2540


def model(id, warscroll, x, y, heading=0, side=None, unit=None):
    side = side or id.split("-")[0]
    return Deployment(id=id, side=side, warscroll=warscroll, x=inches(x), y=inches(y), heading=round(heading * 100),
                      unit=unit)


def terrain(id, x, y, radius, height, too_tall=True):
    return Terrain(id=id, name=id, x=inches(x), y=inches(y), radius=inches(radius), height=inches(height),
                   too_tall=too_tall)


def state_with(*models, terrain=(), phase=HERO, active="azure", rules=RULES, **changes):
    state = rules.initial_state(GameSetup(models=tuple(models), terrain=tuple(terrain)))
    return replace(state, phase=phase, active=active, **changes)


def with_model(state, model_id, **changes):
    models = dict(state.models)
    models[model_id] = replace(models[model_id], **changes)
    return replace(state, models=models)


def decide(state, command, faces=(), rules=RULES):
    """Decide ``command`` with the given dice faces first (then seeded dice); return (events, state after)."""
    dice = DiceCup(TapeDice(list(faces), fallback=SeededDice("mcs-tests")))
    events = rules.decide(state, command, dice)
    return events, rules.fold(state, events)


def of_type(events, kind):
    return [e for e in events if isinstance(e, kind)]


def options(**changes):
    return MillionColoredSunRules(options=RuleOptions(**changes))
