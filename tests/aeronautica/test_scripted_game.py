"""The issue's acceptance game: two Thunderbolts against three Dakkajets play three turns through the
Movement phase on the rulebook's 3'x3' board (p.9), every command through the public API, every die entered
by hand. Its event log must tell the whole story: each throttle change (p.15), each manoeuvre revealed (p.14)
and flown with its path (p.16-17), each altitude change with its dice (p.18-19).

Positions are the board's offset (column, row): column 0 on the west edge, row 0 on the north edge.

The story:

Turn 1 -- Initiative 3-3, re-rolled 5-2: imperium, who has the orks move first.
  orks-2 Straight, Throttle +1 to 6, six hexes south, dives to Altitude 2 (Speed 7);
  imperium-1 Straight at 4, climbs to Altitude 4 (Speed 3);
  orks-1 Bank to its left at Throttle -1 (4): two hexes south, turns south-east, two more;
  imperium-2 Turn to the right, Throttle +1 (5): two hexes north, turns 120 degrees to the south-east, three
  more; dives 2 to Altitude 1 (Speed 6);
  orks-3 Sideslip to its right (south-west) three hexes, then two south.
Turn 2 -- Initiative 1-4: orks, who move first.
  orks-3 Straight to (10, 10);
  imperium-1 Turn right: one hex north, turns north-east, two hexes -- the last one (10, 10) is occupied, so
  it flies on north-east to (11, 9) (p.17 step 6);
  orks-2 Throttle +1 to 8 (its Max Speed), eight hexes south *through* orks-3's hex, dives to Altitude 1: Speed
  9 is above Max Speed, Breaking Up roll 2: one damaging hit, Speed back to 8 (p.19);
  imperium-2 Throttle -2 (4), Turn left by 120 degrees after one hex, three hexes north;
  orks-1, the last to move (p.14), banks right and climbs at its Min Speed 4: Speed 3, Stall (p.18).
  End phase: orks-1's Stall recovery roll 5 against Handling 4+: recovered (p.29).
Turn 3 -- Initiative 6-6, re-rolled 2-1: imperium, who moves first.
  imperium-2 four hexes north and dives to Altitude 0: Crash roll 4, pulls out at Altitude 1 (p.19);
  orks-2 Throttle -2 (6) flies south off the board at (10, 18): Accidental Disengagement (p.17);
  the others fly Straight.
"""

from __future__ import annotations

import pytest

from aero_events.core import DiceRolled, GameSession, RedactedEvent, TapeDice, commitment
from aero_events.hexgrid import Board
from aero_events.rulesets.aeronautica import AeronauticaRules
from aero_events.rulesets.aeronautica.events import (
    AircraftDisengaged,
    AltitudeChanged,
    BrokeUp,
    CrashAvoided,
    DamageSuffered,
    ManoeuvreChosen,
    ManoeuvreFlown,
    ManoeuvreRevealed,
    Stalled,
    StallRecovered,
    ThrottleSet,
)
from aero_events.rulesets.aeronautica.state import DISENGAGED, FLYING
from tests.aeronautica.helpers import IMPERIUM, ORKS, Plane, S, Table

BOARD = Board.preset("3x3")


def play_the_scripted_game() -> Table:
    table = Table([Plane("thunderbolt", (8, 16)), Plane("thunderbolt", (11, 16))],
                  [Plane("dakkajet", (7, 1), facing=S, speed=5), Plane("dakkajet", (10, 1), facing=S, speed=5),
                   Plane("dakkajet", (13, 1), facing=S, speed=5)],
                  board="3x3", rules=AeronauticaRules())
    straight = {"stage_hexes": (1,), "facings": (0,)}
    # Turn 1
    table.start_movement({"imperium-1": 1, "imperium-2": 4, "orks-1": 2, "orks-2": 1, "orks-3": 3}, first=ORKS,
                         initiative=(3, 3, 5, 2))
    table.move("orks-2", throttle=1, altitude=-1, **straight)
    table.move("imperium-1", altitude=1, **straight)
    table.move("orks-1", throttle=-1, side="left", stage_hexes=(2,), facings=(1,))
    table.move("imperium-2", throttle=1, side="right", stage_hexes=(2,), facings=(2,), altitude=-2)
    table.move("orks-3", side="right", stage_hexes=(3,), facings=(0,))
    table.pass_firing()
    # Turn 2
    table.start_movement({"imperium-1": 4, "imperium-2": 4, "orks-1": 2, "orks-2": 1, "orks-3": 1}, first=ORKS,
                         initiative=(1, 4))
    table.move("orks-3", **straight)
    table.move("imperium-1", side="right", stage_hexes=(1,), facings=(1,))
    table.move("orks-2", throttle=1, altitude=-1, dice=[2], **straight)
    table.move("imperium-2", throttle=-2, side="left", stage_hexes=(1,), facings=(2,))
    table.move("orks-1", side="right", stage_hexes=(2,), facings=(1,), altitude=1)
    table.dice.enter([5])  # orks-1's Stall recovery in the End phase
    table.pass_firing()
    # Turn 3
    table.start_movement({"imperium-1": 1, "imperium-2": 1, "orks-1": 1, "orks-2": 1, "orks-3": 1}, first=IMPERIUM,
                         initiative=(6, 6, 2, 1))
    table.move("imperium-2", altitude=-1, dice=[4], **straight)
    table.move("orks-2", throttle=-2, **straight)
    table.move("imperium-1", **straight)
    table.move("orks-1", **straight)
    table.move("orks-3", **straight)
    table.pass_firing()
    assert not table.dice._queue, "every die entered was used"
    return table


@pytest.fixture(scope="module")
def game() -> Table:
    return play_the_scripted_game()


def logged(game: Table, cls: type) -> list[tuple]:
    """(turn, event) for each event of one type."""
    return [(env.turn, env.event) for env in game.session.events() if isinstance(env.event, cls)]


def test_every_throttle_change_is_in_the_log(game):
    """p.15: each aircraft's move starts with its Throttle step."""
    assert [(turn, e.aircraft, e.change, e.speed) for turn, e in logged(game, ThrottleSet)] == [
        (1, "orks-2", 1, 6), (1, "imperium-1", 0, 4), (1, "orks-1", -1, 4), (1, "imperium-2", 1, 5),
        (1, "orks-3", 0, 5),
        (2, "orks-3", 0, 5), (2, "imperium-1", 0, 3), (2, "orks-2", 1, 8), (2, "imperium-2", -2, 4),
        (2, "orks-1", 0, 4),
        (3, "imperium-2", 0, 4), (3, "orks-2", -2, 6), (3, "imperium-1", 0, 3), (3, "orks-1", 0, 4),
        (3, "orks-3", 0, 5),
    ]


def test_every_manoeuvre_is_revealed_as_it_was_committed(game):
    """p.13-14: the token placed face down is the one turned over when the aircraft moves."""
    chosen = {(turn, e.aircraft): e for turn, e in logged(game, ManoeuvreChosen)}
    reveals = logged(game, ManoeuvreRevealed)
    assert [(turn, e.aircraft, e.manoeuvre) for turn, e in reveals] == [
        (1, "orks-2", 1), (1, "imperium-1", 1), (1, "orks-1", 2), (1, "imperium-2", 4), (1, "orks-3", 3),
        (2, "orks-3", 1), (2, "imperium-1", 4), (2, "orks-2", 1), (2, "imperium-2", 4), (2, "orks-1", 2),
        (3, "imperium-2", 1), (3, "orks-2", 1), (3, "imperium-1", 1), (3, "orks-1", 1), (3, "orks-3", 1),
    ]
    for turn, reveal in reveals:
        token = chosen[(turn, reveal.aircraft)]
        assert commitment({"manoeuvre": reveal.manoeuvre}, reveal.salt) == token.commitment


def test_no_player_saw_the_other_side_tokens_before_they_were_turned_over(game):
    """p.13: tokens are face down; each player's log shows the other side's only as commitments."""
    for player in (IMPERIUM, ORKS):
        seen = [env.event for env in game.session.events_for(player)]
        theirs = [e for e in seen if isinstance(e, RedactedEvent) and e.secret_type == "ai.ManoeuvreChosen"]
        mine = [e for e in seen if isinstance(e, ManoeuvreChosen)]
        assert {e.owner for e in theirs} == {game.state.opponent(player)} and len(theirs) == 15 - len(mine)
        assert {e.owner for e in mine} == {player}


def test_every_path_flown_is_in_the_log(game):
    """p.16-17: the hexes entered, in order, with those flown on past an occupied hex (p.17 step 6); the move
    off the board stops at the hex beyond the edge (p.17)."""
    off = BOARD.to_offset
    assert [(turn, e.aircraft, [off(h) for h in e.path], [off(h) for h in e.pushed], e.facing)
            for turn, e in logged(game, ManoeuvreFlown)] == [
        (1, "orks-2", [(10, 2), (10, 3), (10, 4), (10, 5), (10, 6), (10, 7)], [], 3),
        (1, "imperium-1", [(8, 15), (8, 14), (8, 13), (8, 12)], [], 0),
        (1, "orks-1", [(7, 2), (7, 3), (8, 4), (9, 4)], [], 2),
        (1, "imperium-2", [(11, 15), (11, 14), (12, 15), (13, 15), (14, 16)], [], 2),
        (1, "orks-3", [(12, 2), (11, 2), (10, 3), (10, 4), (10, 5)], [], 3),
        (2, "orks-3", [(10, 6), (10, 7), (10, 8), (10, 9), (10, 10)], [], 3),
        (2, "imperium-1", [(8, 11), (9, 10), (10, 10)], [(11, 9)], 1),
        (2, "orks-2", [(10, 8), (10, 9), (10, 10), (10, 11), (10, 12), (10, 13), (10, 14), (10, 15)], [], 3),
        (2, "imperium-2", [(15, 16), (15, 15), (15, 14), (15, 13)], [], 0),
        (2, "orks-1", [(10, 5), (11, 5), (11, 6), (11, 7)], [], 3),
        (3, "imperium-2", [(15, 12), (15, 11), (15, 10), (15, 9)], [], 0),
        (3, "orks-2", [(10, 16), (10, 17), (10, 18)], [], 3),
        (3, "imperium-1", [(12, 9), (13, 8), (14, 8)], [], 1),
        (3, "orks-1", [(11, 8), (11, 9), (11, 10), (11, 11)], [], 3),
        (3, "orks-3", [(10, 11), (10, 12), (10, 13), (10, 14), (10, 15)], [], 3),
    ]


def test_every_altitude_change_is_in_the_log_with_its_speed(game):
    """p.18: a climb costs 1 Speed, a dive gives 1."""
    assert [(turn, e.aircraft, e.change, e.altitude, e.speed) for turn, e in logged(game, AltitudeChanged)] == [
        (1, "orks-2", -1, 2, 7), (1, "imperium-1", 1, 4, 3), (1, "imperium-2", -2, 1, 6),
        (2, "orks-2", -1, 1, 9), (2, "orks-1", 1, 4, 3),
        (3, "imperium-2", -1, 0, 5),
    ]


def test_every_die_is_in_the_log_with_its_purpose_and_target(game):
    """p.13 Initiative (ties re-rolled), p.19 Breaking Up and Crashing (3+), p.29 Stall recovery (Handling)."""
    assert [(turn, e.purpose, e.roller, e.faces, e.target) for turn, e in logged(game, DiceRolled)] == [
        (1, "initiative", IMPERIUM, (3,), None), (1, "initiative", ORKS, (3,), None),
        (1, "initiative", IMPERIUM, (5,), None), (1, "initiative", ORKS, (2,), None),
        (2, "initiative", IMPERIUM, (1,), None), (2, "initiative", ORKS, (4,), None),
        (2, "breaking up", ORKS, (2,), 3),
        (2, "stall recovery", ORKS, (5,), 4),
        (3, "initiative", IMPERIUM, (6,), None), (3, "initiative", ORKS, (6,), None),
        (3, "initiative", IMPERIUM, (2,), None), (3, "initiative", ORKS, (1,), None),
        (3, "crash", IMPERIUM, (4,), 3),
    ]


def test_the_dice_are_followed_by_what_they_decided(game):
    """Each roll comes just before the event that reads it (events.py: dice precede their outcome)."""
    events = [env.event for env in game.session.events() if not env.event.core_event]
    after = {e.purpose: events[i + 1] for i, e in enumerate(events) if isinstance(e, DiceRolled)}
    assert after["breaking up"] == BrokeUp(aircraft="orks-2", damaged=True, speed=8)
    assert after["stall recovery"] == StallRecovered(aircraft="orks-1", speed=4, altitude=4)
    assert after["crash"] == CrashAvoided(aircraft="imperium-2")
    assert [(t, e.aircraft, e.structure) for t, e in logged(game, DamageSuffered)] == [(2, "orks-2", 1)]
    assert [(t, e.aircraft) for t, e in logged(game, Stalled)] == [(2, "orks-1")]
    assert [(t, e.aircraft, e.how, BOARD.to_offset(e.exit_hex)) for t, e in logged(game, AircraftDisengaged)] == [
        (3, "orks-2", "accidental", (10, 18))]


def test_where_everybody_ends(game):
    state = game.state
    assert (state.turn, state.phase) == (4, "choose_manoeuvres")
    assert {a.id: (a.status, BOARD.to_offset(a.hex), a.facing, a.speed, a.altitude, a.structure)
            for a in state.aircraft.values()} == {
        "imperium-1": (FLYING, (14, 8), 1, 3, 4, 3),
        "imperium-2": (FLYING, (15, 9), 0, 5, 1, 3),
        "orks-1": (FLYING, (11, 11), 3, 4, 4, 2),
        "orks-2": (DISENGAGED, (10, 18), 3, 6, 1, 1),
        "orks-3": (FLYING, (10, 15), 3, 5, 3, 2),
    }


def test_the_log_replays_to_the_same_game(game):
    """The events alone rebuild the game: no die is rolled again (TapeDice([]) has none to give)."""
    replay = GameSession(game.rules, game.session.game.setup, dice=TapeDice([]), game_id="test")
    replay.record(game.session.events())
    assert replay.state == game.state and replay.state_hash() == game.session.state_hash()
