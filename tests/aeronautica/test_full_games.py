"""Whole games of every pairing of the five aircraft (p.38-47), played by bots from set-up to Victory points,
with the invariants checked after every command and the stored game verified at the end."""

from __future__ import annotations

import itertools

import pytest

from aero_events.bots import RandomBot, play
from aero_events.core import GameSession, SeededDice
from aero_events.rulesets.aeronautica import AeronauticaRules
from aero_events.rulesets.aeronautica.bots import GreedyBot
from aero_events.rulesets.aeronautica.events import GameEnded, VictoryPointsScored
from aero_events.rulesets.aeronautica.forces import AircraftEntry, ForceList
from aero_events.rulesets.aeronautica.scenarios.dogfight import dogfight_setup
from aero_events.rulesets.aeronautica.state import ARRIVALS, FLYING, GAME_OVER, LANDED, PHASES, SET_UP
from aero_events.store import EventStore

RULES = AeronauticaRules()
FACTION = {"thunderbolt": "imperial_navy", "thunderbolt_fury": "imperial_navy", "marauder": "imperial_navy",
           "dakkajet": "ork_air_waaagh", "fighta_bommer": "ork_air_waaagh"}
PAIRINGS = list(itertools.combinations_with_replacement(sorted(FACTION), 2))


def force(profile: str, name: str) -> ForceList:
    return ForceList(name=name, faction=FACTION[profile], aircraft=(AircraftEntry(aircraft=profile),) * 2)


def check_invariants(state) -> None:
    """Between commands: one aircraft per hex (p.7, p.17), all on the board (p.17), Structure never negative
    (p.10), Speed and Altitude in range unless Stalled or Spinning (p.15, p.18) or moving right now (Speed
    above Max is settled by Breaking Up at the end of the move, p.19)."""
    assert state.phase in (*PHASES, SET_UP, ARRIVALS, GAME_OVER)
    board = RULES.board(state)
    hexes = [a.hex for a in state.aircraft.values() if a.in_play]
    assert len(hexes) == len(set(hexes)), f"two aircraft in one hex: {sorted(hexes)}"
    assert all(board.contains(h) for h in hexes)
    for a in state.aircraft.values():
        profile = RULES.profile(a)
        assert 0 <= a.structure <= a.starting_structure
        if a.status == LANDED:
            assert (a.speed, a.altitude) == (0, 0)
        if a.status != FLYING or a.id == state.active or a.stalled or a.spinning:
            continue
        assert profile.min_speed <= a.speed <= profile.max_speed, (a.id, a.speed)
        assert 1 <= a.altitude <= profile.max_altitude, (a.id, a.altitude)


@pytest.mark.parametrize(("first", "second"), PAIRINGS)
def test_a_whole_game_of_every_pairing_keeps_the_invariants_and_verifies(first, second, tmp_path):
    setup = dogfight_setup(("red", force(first, "red")), ("blue", force(second, "blue")), 50,
                           catalogue=RULES.catalogue, check_points=False)
    seed = PAIRINGS.index((first, second))
    session = GameSession(RULES, setup, dice=SeededDice(seed), game_id=f"{first}-v-{second}")
    def after(command, envelopes):
        check_invariants(session.state)

    play(session, {"red": GreedyBot(seed), "blue": RandomBot(seed)}, on_command=after)
    events = [env.event for env in session.events()]
    assert isinstance(events[-1], GameEnded)
    assert len([e for e in events if isinstance(e, VictoryPointsScored)]) == 2
    with EventStore(tmp_path / "games.duckdb") as store:
        store.save_session(session)
        report = store.verify(session.game_id)
    assert report.ok, report
