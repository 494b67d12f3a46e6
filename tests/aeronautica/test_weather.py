"""Night Fighting & Bad Weather (rulebook p.33): the D6 table rolled by the winner of the roll to deploy
first, before set-up; Bad Weather's D3 cloud level rolled after deploying, before turn 1's Choose
Manoeuvres; what the firing rules read (``night_fighting``, ``cloud_level``)."""

from __future__ import annotations

import pytest

from aero_events.core import DiceRolled, GameSession, ManualDice
from aero_events.rulesets.aeronautica import AeronauticaRules
from aero_events.rulesets.aeronautica.commands import PlaceAircraft, RollOff
from aero_events.rulesets.aeronautica.events import (
    AircraftPlaced,
    CloudLevelDetermined,
    SetUpCompleted,
    WeatherDetermined,
)
from aero_events.rulesets.aeronautica.forces import AircraftEntry, ForceList
from aero_events.rulesets.aeronautica.scenarios import dogfight_setup
from aero_events.rulesets.aeronautica.setup import Placement, board_for
from aero_events.rulesets.aeronautica.state import CHOOSE_MANOEUVRES, SET_UP, GameState
from aero_events.rulesets.aeronautica.weather import conditions_for, medium_range_firepower, night_rules_apply
from tests.aeronautica.helpers import IMPERIUM, ORKS, N, S, of_type, one

BOARD = board_for("3x3")
IMPERIUM_FORCE = ForceList(name="i", faction="imperial_navy", aircraft=(AircraftEntry(aircraft="thunderbolt"),))
ORK_FORCE = ForceList(name="o", faction="ork_air_waaagh", aircraft=(AircraftEntry(aircraft="dakkajet"),))


def session(weather: str, placed: bool = False) -> tuple[GameSession, ManualDice]:
    placements = None
    if placed:
        placements = ((Placement(hex=BOARD.from_offset(4, BOARD.rows - 1), facing=N, speed=4, altitude=3),),
                      (Placement(hex=BOARD.from_offset(4, 0), facing=S, speed=4, altitude=3),))
    setup = dogfight_setup((IMPERIUM, IMPERIUM_FORCE), (ORKS, ORK_FORCE), 25, weather=weather,
                           placements=placements, check_points=False)
    dice = ManualDice()
    return GameSession(AeronauticaRules(), setup, dice=dice, game_id="weather"), dice


def place_both(game: GameSession) -> list:
    """Each player sets up their one aircraft, in the order the set-up phase asks."""
    events = []
    while game.state.phase == SET_UP and game.state.to_act is not None:
        player = game.state.to_act
        row, facing = (BOARD.rows - 1, N) if player == IMPERIUM else (0, S)
        command = PlaceAircraft(player=player, aircraft=f"{player}-1", hex=BOARD.from_offset(4, row), facing=facing,
                                speed=4, altitude=3)
        events += [e.event for e in game.apply(command)]
    return events


@pytest.mark.parametrize(("face", "conditions"), [
    (1, "exceptional_visibility"), (2, "exceptional_visibility"), (3, "exceptional_visibility"),
    (4, "bad_weather"), (5, "bad_weather"), (6, "night_fighting")])
def test_the_weather_table_p33(face, conditions):
    assert conditions_for(face) == conditions
    game, dice = session("roll", placed=True)
    assert game.state.phase == SET_UP  # the weather must be rolled before anything else
    dice.enter([2, 5, face, 6])  # roll-off: the orks win and roll the weather (then a D3 for Bad Weather)
    events = [e.event for e in game.apply(RollOff(player=IMPERIUM))]
    weather_roll = next(r for r in of_type(events, DiceRolled) if r.purpose == "weather")
    assert (weather_roll.purpose, weather_roll.roller, weather_roll.faces) == ("weather", ORKS, (face,))
    assert one(events, WeatherDetermined).conditions == conditions
    assert game.state.weather == conditions
    assert game.state.night_fighting is (face == 6)
    assert game.state.cloud_level == (3 if conditions == "bad_weather" else None)
    assert game.state.phase == CHOOSE_MANOEUVRES


def test_the_weather_is_rolled_before_either_player_sets_up_p33():
    game, dice = session("roll")
    dice.enter([6, 1, 6])
    events = [e.event for e in game.apply(RollOff(player=ORKS))]
    assert one(events, WeatherDetermined).night_fighting
    assert not of_type(events, AircraftPlaced) and game.state.phase == SET_UP


@pytest.mark.parametrize(("face", "level"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_bad_weather_cloud_level_is_a_d3_rolled_after_deploying_p33(face, level):
    game, dice = session("bad_weather")
    dice.enter([6, 1])
    events = [e.event for e in game.apply(RollOff(player=ORKS))]
    assert one(events, WeatherDetermined).conditions == "bad_weather"
    assert not of_type(events, DiceRolled)[2:]  # agreed Bad Weather: no table roll
    assert game.state.cloud_level is None
    dice.enter([face])
    events = place_both(game)
    cloud = of_type(events, DiceRolled)[-1]
    assert cloud.d3 and cloud.values == (level,)
    kinds = [type(e) for e in events]
    assert kinds.index(AircraftPlaced) < kinds.index(CloudLevelDetermined) < kinds.index(SetUpCompleted)
    assert game.state.cloud_level == level and game.state.phase == CHOOSE_MANOEUVRES
    assert not game.state.night_fighting


def test_agreed_night_fighting_needs_no_roll_p33_p35():
    game, dice = session("night_fighting", placed=True)
    dice.enter([3, 4])
    events = [e.event for e in game.apply(RollOff(player=ORKS))]
    assert len(of_type(events, DiceRolled)) == 2  # the roll-off only
    assert game.state.night_fighting and game.state.cloud_level is None
    assert game.state.phase == CHOOSE_MANOEUVRES


def test_no_weather_rules_start_straight_at_turn_1():
    game, _ = session("none", placed=True)
    assert game.state.phase == CHOOSE_MANOEUVRES and game.state.weather is None


def test_night_fighting_rules_apply_at_or_below_the_cloud_level_p33():
    state = GameState(players=(IMPERIUM, ORKS), board="3x3", last_turn=12, aircraft={}, cloud_level=2)
    assert night_rules_apply(state, firer_altitude=2)
    assert night_rules_apply(state, firer_altitude=1)
    assert not night_rules_apply(state, firer_altitude=3, target_altitude=1)  # the text's reading
    assert night_rules_apply(state, firer_altitude=3, target_altitude=1, cloud_cover="either")
    clear = GameState(players=(IMPERIUM, ORKS), board="3x3", last_turn=12, aircraft={})
    assert not night_rules_apply(clear, firer_altitude=1)
    night = GameState(players=(IMPERIUM, ORKS), board="3x3", last_turn=12, aircraft={}, night_fighting=True)
    assert night_rules_apply(night, firer_altitude=5)


def test_night_fighting_halves_medium_range_firepower_rounding_up_p33_p37():
    assert [medium_range_firepower(n) for n in (1, 2, 3, 4, 7)] == [1, 1, 2, 2, 4]
    assert medium_range_firepower(7, infra_red=True) == 7  # Infra-red Targeting (p.37)
