"""Landing zones (rulebook p.33), Transport Aircraft and Jump Troops (p.37).

No aircraft of the 2019 lists carries troops, so the tests make Thunderbolt variants that do. Positions
are offset (column, row) on a 16x16 board of complete hexes; north is row 0.
"""

from __future__ import annotations

from aero_events.core import DiceRolled, GameSession, ManualDice
from aero_events.rulesets.aeronautica import AeronauticaRules
from aero_events.rulesets.aeronautica.commands import (
    ActivateAircraft,
    AdjustAltitude,
    DropJumpTroops,
    Hover,
    Land,
    ManoeuvrePlan,
    PassFiring,
    SetThrottle,
)
from aero_events.rulesets.aeronautica.events import (
    GameEnded,
    JumpTroopsDropped,
    JumpTroopsReady,
    MovementEnded,
    TroopsDelivered,
    VictoryPointsScored,
)
from aero_events.rulesets.aeronautica.forces import AircraftEntry, ForceList
from aero_events.rulesets.aeronautica.scenarios.format import LandingZone
from aero_events.rulesets.aeronautica.setup import GameSetup, SideSetup
from aero_events.rulesets.aeronautica.state import ALTITUDE, FIRING, LANDED, TAILING_FIRE
from aero_events.rulesets.aeronautica.transports import jump_safe_roll
from tests.aeronautica.helpers import (
    IMPERIUM,
    ORKS,
    N,
    Plane,
    S,
    Table,
    catalogue_with,
    hex_at,
    of_type,
    one,
    placement,
    variant,
)

BOARD = "16x16h"
JUMPER = variant("thunderbolt", "jump_transport", transport=2, special_rules=("jump_troops",))
HOVER_JUMPER = variant("thunderbolt", "hover_jump_transport", transport=2, special_rules=("jump_troops",),
                       min_speed=0)
LANDER = variant("thunderbolt", "lander", transport=2)
STRAIGHT = {"stage_hexes": (1,), "facings": (0,)}
ZONE = LandingZone(name="the drop zone", hex=hex_at(BOARD, 8, 10))


def transport_game(profile: str, at=(8, 12), speed: int = 2, altitude: int = 2, last_turn: int = 12,
                   zones=(ZONE,)) -> Table:
    imperium = ForceList(name="i", faction="imperial_navy", aircraft=(AircraftEntry(aircraft=profile),))
    orks = ForceList(name="o", faction="ork_air_waaagh", aircraft=(AircraftEntry(aircraft="dakkajet"),))
    setup = GameSetup(sides=(
        SideSetup(player=IMPERIUM, force=imperium,
                  placements=(placement(BOARD, Plane(profile, at, facing=N, speed=speed, altitude=altitude)),)),
        SideSetup(player=ORKS, force=orks, placements=(placement(BOARD, Plane("dakkajet", (2, 1), facing=S)),))),
        board=BOARD, check_points=False, last_turn=last_turn, landing_zones=tuple(zones))
    table = Table.__new__(Table)
    table.rules = AeronauticaRules(catalogue=catalogue_with(JUMPER, HOVER_JUMPER, LANDER))
    table.dice = ManualDice()
    table.session = GameSession(table.rules, setup, dice=table.dice, game_id="transports")
    table.start_movement({"imperium-1": 1, "orks-1": 1})
    return table


def fly_to_altitude_step(table: Table) -> None:
    table.apply(ActivateAircraft(player=IMPERIUM, aircraft="imperium-1"))
    table.apply(SetThrottle(player=IMPERIUM, aircraft="imperium-1", change=0))
    table.apply(ManoeuvrePlan(player=IMPERIUM, aircraft="imperium-1", **STRAIGHT))
    assert table.state.step == ALTITUDE


def finish_turn(table: Table) -> list:
    if table.state.to_act == ORKS:
        table.move("orks-1", **STRAIGHT)
    events: list = []
    while table.state.phase in (FIRING, TAILING_FIRE) and table.state.to_act is not None:
        events += table.apply(PassFiring(player=table.state.to_act))
    return events


def test_jump_troops_at_altitude_2_and_speed_2_need_a_5_or_6_p37():
    table = transport_game("jump_transport", speed=2, altitude=2)
    fly_to_altitude_step(table)  # straight over (8, 11) and the zone's (8, 10)
    aircraft = table.aircraft("imperium-1")
    assert jump_safe_roll(aircraft) == 5
    legal = [c for c in table.legal(IMPERIUM) if isinstance(c, DropJumpTroops)]
    assert [c.points for c in legal] == [1, 2]
    table.dice.enter([4, 5])
    events = table.apply(DropJumpTroops(player=IMPERIUM, aircraft="imperium-1"))
    roll = one(events, DiceRolled)
    assert (roll.count, roll.target) == (2, 5)
    dropped = one(events, JumpTroopsDropped)
    assert (dropped.points, dropped.landed, dropped.victory_points) == (2, 1, 1)  # the 4 fails, the 5 lands
    assert table.state.transport_vp == {IMPERIUM: 1}
    assert table.aircraft("imperium-1").cargo_delivered == 2
    # All the cargo is gone; Altitude is adjusted afterwards as usual.
    assert not [c for c in table.legal(IMPERIUM) if isinstance(c, DropJumpTroops)]
    table.refused(DropJumpTroops(player=IMPERIUM, aircraft="imperium-1"))
    table.apply(AdjustAltitude(player=IMPERIUM, aircraft="imperium-1", change=0))


def test_every_die_higher_than_altitude_plus_speed_lands_safely_p37():
    table = transport_game("jump_transport", speed=3, altitude=2)  # needs 6
    table.apply(ActivateAircraft(player=IMPERIUM, aircraft="imperium-1"))
    table.apply(SetThrottle(player=IMPERIUM, aircraft="imperium-1", change=0))
    table.apply(ManoeuvrePlan(player=IMPERIUM, aircraft="imperium-1", **STRAIGHT))
    table.dice.enter([5])
    dropped = one(table.apply(DropJumpTroops(player=IMPERIUM, aircraft="imperium-1", points=1)), JumpTroopsDropped)
    assert (dropped.landed, dropped.victory_points) == (0, 0)  # 5 is not higher than 2 + 3
    table.dice.enter([6])
    dropped = one(table.apply(DropJumpTroops(player=IMPERIUM, aircraft="imperium-1", points=1)), JumpTroopsDropped)
    assert (dropped.landed, dropped.victory_points) == (1, 1)


def test_jump_troops_drop_only_over_a_landing_zone_and_before_adjusting_altitude_p37():
    away = transport_game("jump_transport", zones=(LandingZone(name="elsewhere", hex=hex_at(BOARD, 2, 8)),))
    fly_to_altitude_step(away)
    err = away.refused(DropJumpTroops(player=IMPERIUM, aircraft="imperium-1"))
    assert err.page == 37 and "landing zone" in str(err)
    table = transport_game("jump_transport")
    err = table.refused(DropJumpTroops(player=IMPERIUM, aircraft="imperium-1"))  # before it has moved
    assert "completed its movement" in str(err)
    fly_to_altitude_step(table)
    table.apply(AdjustAltitude(player=IMPERIUM, aircraft="imperium-1", change=0))
    table.refused(DropJumpTroops(player=IMPERIUM, aircraft="imperium-1"))  # its move is over
    # An aircraft without Jump Troops cannot drop: it must land.
    lander = transport_game("lander")
    fly_to_altitude_step(lander)
    assert "no Jump Troops" in str(lander.refused(DropJumpTroops(player=IMPERIUM, aircraft="imperium-1")))


def test_a_hovering_aircraft_at_altitude_1_only_fails_on_a_1_p37():
    table = transport_game("hover_jump_transport", at=(8, 10), speed=0, altitude=1)  # hovering over the zone
    table.apply(ActivateAircraft(player=IMPERIUM, aircraft="imperium-1"))
    table.apply(SetThrottle(player=IMPERIUM, aircraft="imperium-1", change=0))
    events = table.apply(Hover(player=IMPERIUM, aircraft="imperium-1", facing=N))
    assert one(events, JumpTroopsReady) and not of_type(events, MovementEnded)
    assert jump_safe_roll(table.aircraft("imperium-1")) == 2
    table.dice.enter([1, 2])
    dropped = one(table.apply(DropJumpTroops(player=IMPERIUM, aircraft="imperium-1")), JumpTroopsDropped)
    assert (dropped.landed, dropped.victory_points) == (1, 1)
    events = table.apply(AdjustAltitude(player=IMPERIUM, aircraft="imperium-1", change=0))
    assert one(events, MovementEnded)


def test_a_transport_landing_in_a_landing_zone_scores_its_transport_value_p33_p37():
    table = transport_game("lander", speed=2, altitude=1, last_turn=1)  # Min Speed 2 at Altitude 1: may land
    fly_to_altitude_step(table)
    table.apply(Land(player=IMPERIUM, aircraft="imperium-1"))
    assert table.aircraft("imperium-1").status == LANDED
    events = finish_turn(table)
    delivered = one(events, TroopsDelivered)
    assert (delivered.aircraft, delivered.zone, delivered.points, delivered.victory_points) == (
        "imperium-1", "the drop zone", 2, 2)
    assert one(events, GameEnded)
    imperium = next(r for r in of_type(events, VictoryPointsScored) if r.player == IMPERIUM)
    assert imperium.transport == 2 and imperium.total == 2 + 5  # troops, and 21 against 16 points


def test_landing_outside_a_landing_zone_delivers_nothing_p33():
    table = transport_game("lander", speed=2, altitude=1, zones=(LandingZone(name="far", hex=hex_at(BOARD, 2, 8)),))
    fly_to_altitude_step(table)
    table.apply(Land(player=IMPERIUM, aircraft="imperium-1"))
    events = finish_turn(table)
    assert not of_type(events, TroopsDelivered)
    assert table.state.transport_vp == {}
