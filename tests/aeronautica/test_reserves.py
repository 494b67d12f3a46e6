"""Reserves (rulebook p.33): the arrival table rolled at the start of each turn before Choose Manoeuvres,
placement in a full hex touching the edge within the side's deployment area at Max Speed and a chosen
Altitude, and reserves that never arrive counting as Accidentally Disengaged.

Positions are offset (column, row) on a 16x16 board of complete hexes; the imperium deployed from the south
edge (rows 13-15) and the orks from the north.
"""

from __future__ import annotations

import pytest

from aero_events.core import DiceRolled, GameSession, ManualDice
from aero_events.rulesets.aeronautica.commands import ChooseFirstMover, PassFiring, PlaceReserve
from aero_events.rulesets.aeronautica.events import (
    GameEnded,
    PhaseBegan,
    ReserveArrived,
    ReservePlaced,
    TurnBegan,
    VictoryPointsScored,
)
from aero_events.rulesets.aeronautica.reserves import roll_needed
from aero_events.rulesets.aeronautica.state import (
    ARRIVALS,
    CHOOSE_MANOEUVRES,
    FIRING,
    FLYING,
    MOVEMENT,
    RESERVE,
    TAILING_FIRE,
)
from tests.aeronautica.helpers import (
    IMPERIUM,
    ORKS,
    N,
    S,
    Table,
    hex_at,
    make_rules,
    of_type,
    one,
    reserve_setup,
)

BOARD = "16x16h"
STRAIGHT = {"stage_hexes": (1,), "facings": (0,)}


@pytest.mark.parametrize(("turn", "needed"), [(1, None), (2, 5), (3, 5), (4, 5), (5, 4), (6, 4), (7, 4), (8, 4),
                                              (9, 3), (10, 3), (11, 3), (12, 3)])
def test_the_reserves_arrival_table_p33(turn, needed):
    assert roll_needed(turn) == needed


def with_a_reserve(last_turn: int = 12) -> Table:
    """imperium-1 flies; imperium-2 (a Thunderbolt) is held in reserve; orks-1 flies."""
    setup = reserve_setup(last_turn, BOARD)
    table = Table.__new__(Table)
    table.rules, table.dice = make_rules(), ManualDice()
    table.session = GameSession(table.rules, setup, dice=table.dice, game_id="reserves")
    return table


def play_turn(table: Table, arrival_faces: tuple[int, ...] = ()) -> list:
    """Both flying aircraft fly straight; the arrival dice for the next turn are entered before the End phase."""
    flying = [a.id for a in table.state.aircraft.values() if a.status == FLYING]
    table.choose({aircraft: 1 for aircraft in flying})
    while table.state.phase == TAILING_FIRE and table.state.to_act:
        table.apply(PassFiring(player=table.state.to_act))
    table.apply(ChooseFirstMover(player=table.state.initiative, first=IMPERIUM))
    while table.state.phase == MOVEMENT and table.state.active is None and table.state.to_act is not None:
        nxt = next(a.id for a in table.state.side(table.state.to_act) if a.status == FLYING and not a.moved)
        table.move(nxt, **STRAIGHT)
    table.dice.enter(arrival_faces)
    events: list = []
    while table.state.phase in (FIRING, TAILING_FIRE) and table.state.to_act is not None:
        events += table.apply(PassFiring(player=table.state.to_act))
    return events


def test_no_reserve_rolls_in_turn_1_then_5_plus_in_turn_2_p33():
    table = with_a_reserve()
    assert table.aircraft("imperium-2").status == RESERVE
    assert table.state.phase == CHOOSE_MANOEUVRES  # nothing rolled before turn 1
    events = play_turn(table, arrival_faces=(4,))  # turn 2 needs a 5
    roll = one(events, DiceRolled)
    assert (roll.faces, roll.target, roll.roller) == ((4,), 5, IMPERIUM)
    assert events.index(one(events, TurnBegan)) < events.index(roll)  # at the start of turn 2
    assert not of_type(events, ReserveArrived)
    assert table.state.phase == CHOOSE_MANOEUVRES and table.aircraft("imperium-2").status == RESERVE


def test_an_arrived_reserve_is_placed_at_the_edge_at_max_speed_before_choose_manoeuvres_p33():
    table = with_a_reserve()
    play_turn(table, arrival_faces=(1,))
    events = play_turn(table, arrival_faces=(5,))  # turn 3: 5+ still
    assert one(events, ReserveArrived).aircraft == "imperium-2"
    assert of_type(events, PhaseBegan)[-1].phase == ARRIVALS  # before Choose Manoeuvres
    assert table.state.phase == ARRIVALS
    # Only the imperium has something to do, and only at the edge within its deployment area.
    assert table.session.legal_commands(ORKS) == []
    legal = table.session.legal_commands(IMPERIUM)
    hexes = {command.hex for command in legal}
    assert hex_at(BOARD, 7, 15) in hexes and hex_at(BOARD, 0, 13) in hexes and hex_at(BOARD, 15, 14) in hexes
    assert hex_at(BOARD, 7, 14) not in hexes  # not touching the edge
    assert hex_at(BOARD, 0, 12) not in hexes and hex_at(BOARD, 7, 0) not in hexes  # outside its area
    assert {command.altitude for command in legal} == {1, 2, 3, 4, 5}
    for bad in (PlaceReserve(player=IMPERIUM, aircraft="imperium-2", hex=hex_at(BOARD, 7, 14), facing=N, altitude=3),
                PlaceReserve(player=IMPERIUM, aircraft="imperium-2", hex=hex_at(BOARD, 7, 0), facing=S, altitude=3),
                PlaceReserve(player=IMPERIUM, aircraft="imperium-2", hex=hex_at(BOARD, 7, 15), facing=N, altitude=6),
                PlaceReserve(player=ORKS, aircraft="imperium-2", hex=hex_at(BOARD, 7, 15), facing=N, altitude=3)):
        err = table.refused(bad)
        assert err.page == 33
    placed = table.apply(PlaceReserve(player=IMPERIUM, aircraft="imperium-2", hex=hex_at(BOARD, 7, 15), facing=N,
                                      altitude=2))
    assert one(placed, ReservePlaced).speed == 6  # the Thunderbolt's Max Speed
    assert table.state.phase == CHOOSE_MANOEUVRES
    arrived = table.aircraft("imperium-2")
    assert (arrived.status, arrived.hex, arrived.speed, arrived.altitude) == (FLYING, hex_at(BOARD, 7, 15), 6, 2)
    # It then chooses an Ace Manoeuvre like any other aircraft (p.33).
    events = play_turn(table)
    assert table.aircraft("imperium-2").moved is False  # a new turn began
    assert table.state.turn == 4 and not of_type(events, ReserveArrived)


def test_a_reserve_that_never_arrives_counts_as_accidentally_disengaged_p33():
    table = with_a_reserve(last_turn=2)
    play_turn(table, arrival_faces=(4,))
    events = play_turn(table)
    assert one(events, GameEnded)
    orks = next(r for r in of_type(events, VictoryPointsScored) if r.player == ORKS)
    row = next(a for a in orks.aircraft if a.aircraft == "imperium-2")
    assert (row.condition, row.percent, row.victory_points) == ("accidentally_disengaged", 50, 11)  # 10.5 up
