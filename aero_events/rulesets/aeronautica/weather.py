"""Night Fighting & Bad Weather (rulebook p.33; Infra-red Targeting p.37).

"At the start of a game in which the Night Fighting and Bad Weather rules are used,
roll a D6 ... The player that wins the roll to deploy first should also roll to
determine the weather conditions, before either player sets up any of their force"
(p.33):

====  ==========================================
D6    Conditions
====  ==========================================
1-3   Exceptional visibility (the normal rules)
4-5   Bad Weather
6     Night Fighting
====  ==========================================

Bad Weather: a D3 "after deploying forces but before the Choose Manoeuvres phase of
the first turn" gives the Altitude level of the cloud cover; at that level or below,
aircraft follow the Night Fighting rules. Night Fighting: only Short and Medium range,
and Medium range Firepower dice halved, rounding up.

The game state keeps ``night_fighting`` (Night Fighting everywhere) and ``cloud_level``
(Bad Weather's cloud cover, None without it), which the firing rules read through
:func:`night_rules_apply` and :func:`medium_range_firepower`.

``GameSetup.weather`` chooses how the rules are used, since "the rules for Night
Fighting and/or Bad Weather may be used" if both players agree (p.35): ``"none"``,
``"roll"`` (the D6 table), or ``"bad_weather"`` / ``"night_fighting"`` agreed outright
(Bad Weather then still rolls its D3 cloud level).

Choice where the text is silent (a :class:`RuleOptions` field, ``cloud_cover``): under
Bad Weather, whose Altitude decides? "At this Altitude level or below, aircraft follow
the Night Fighting rules" reads as the firing aircraft's Altitude (``"firer"``, the
default); ``"either"`` also blinds a firer above the clouds shooting at a target in them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from aero_events.core import DiceCup, Event

from .events import CloudLevelDetermined, WeatherDetermined
from .state import GameState

if TYPE_CHECKING:
    from .ruleset import AeronauticaRules
    from .turn import Emitter

EXCEPTIONAL_VISIBILITY = "exceptional_visibility"
BAD_WEATHER = "bad_weather"
NIGHT_FIGHTING = "night_fighting"

#: How GameSetup.weather may use the rules (p.33, p.35).
WEATHER_RULES = ("none", "roll", BAD_WEATHER, NIGHT_FIGHTING)

#: The D6 table (p.33): the face -> the conditions.
WEATHER_TABLE: dict[int, str] = {1: EXCEPTIONAL_VISIBILITY, 2: EXCEPTIONAL_VISIBILITY, 3: EXCEPTIONAL_VISIBILITY,
                                 4: BAD_WEATHER, 5: BAD_WEATHER, 6: NIGHT_FIGHTING}


def conditions_for(face: int) -> str:
    """The conditions a D6 gives on the table of p.33."""
    return WEATHER_TABLE[face]


def determine_weather(out: Emitter, dice: DiceCup, roller: str | None) -> None:
    """Before set-up (p.33): roll on the table (``weather_rule == "roll"``) or apply what was agreed."""
    rule = out.state.weather_rule
    if rule == "none":
        return
    if rule == "roll":
        roll = dice.d6(purpose="weather", roller=roller)
        out.emit(roll)
        conditions = conditions_for(roll.faces[0])
    else:
        conditions = rule
    out.emit(WeatherDetermined(conditions=conditions, night_fighting=conditions == NIGHT_FIGHTING))


def needs_cloud_level(state: GameState) -> bool:
    return state.weather == BAD_WEATHER and state.cloud_level is None


def roll_cloud_level(out: Emitter, dice: DiceCup, roller: str | None) -> None:
    """Bad Weather (p.33): a D3 after deploying, before turn 1's Choose Manoeuvres: the cloud level."""
    roll = dice.d3(purpose="cloud cover", roller=roller)
    out.emit(roll)
    out.emit(CloudLevelDetermined(level=roll.values[0]))


# ---------------------------------------------------------------- what the firing rules read


def night_rules_apply(state: GameState, firer_altitude: int, target_altitude: int | None = None,
                      cloud_cover: str = "firer") -> bool:
    """Whether a shot follows the Night Fighting rules (p.33).

    Night Fighting: always. Bad Weather: when the firer is at or below the cloud level
    (``cloud_cover="either"``: or the target is).
    """
    if state.night_fighting:
        return True
    if state.cloud_level is None:
        return False
    if firer_altitude <= state.cloud_level:
        return True
    return cloud_cover == "either" and target_altitude is not None and target_altitude <= state.cloud_level


def medium_range_firepower(dice: int, infra_red: bool = False) -> int:
    """Night Fighting (p.33): Medium range Firepower dice halved, rounding fractions up; Infra-red
    Targeting (p.37) fires at Medium range without reducing them. Long range is not allowed at all."""
    return dice if infra_red else -(-dice // 2)


# ---------------------------------------------------------------- the part's contract

HANDLERS: dict = {}


#: The phases in which :func:`legal_commands` may offer a command: none (the ruleset never asks).
COMMAND_PHASES: frozenset[str] = frozenset()


def legal_commands(rules: AeronauticaRules, state: GameState, player: str) -> list:
    return []


def evolve(rules: AeronauticaRules, state: GameState, event: Event) -> GameState | None:
    replace = msgspec.structs.replace
    if isinstance(event, WeatherDetermined):
        return replace(state, weather=event.conditions, night_fighting=event.night_fighting)
    if isinstance(event, CloudLevelDetermined):
        return replace(state, cloud_level=event.level)
    return None
