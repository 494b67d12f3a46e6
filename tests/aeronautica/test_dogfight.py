"""The Dogfight (rulebook p.34-35): forces, the set-up roll-off and alternate placement within three hexes
of the edge (Ground Defences within six), Speed and Altitude chosen, Reserves limits, the Underdog.

The imperium sets up on the south edge and the orks on the north of a 3'x3' Area of Engagement.
"""

from __future__ import annotations

import pytest

from aero_events.core import DiceRolled, GameSession, ManualDice, RuleError
from aero_events.rulesets.aeronautica.commands import ChooseManoeuvre, PlaceAircraft, RollOff
from aero_events.rulesets.aeronautica.events import (
    AircraftPlaced,
    InitiativeWon,
    SetUpCompleted,
    SetUpRollOffTied,
    SetUpRollOffWon,
    TurnBegan,
)
from aero_events.rulesets.aeronautica.forces import AircraftEntry, ForceList
from aero_events.rulesets.aeronautica.profiles import (
    AircraftProfile,
    FireArcs,
    WeaponProfile,
    WeaponSpecialRule,
    build_catalogue,
    load_catalogue,
)
from aero_events.rulesets.aeronautica.ruleset import AeronauticaRules
from aero_events.rulesets.aeronautica.scenarios import DOGFIGHT, dogfight_setup
from aero_events.rulesets.aeronautica.scenarios.format import encode_scenario, parse_scenario
from aero_events.rulesets.aeronautica.setup import Placement, board_for
from aero_events.rulesets.aeronautica.state import (
    CHOOSE_MANOEUVRES,
    FLYING,
    LANDED,
    RESERVE,
    SET_UP,
    UNDEPLOYED,
)
from tests.aeronautica.helpers import IMPERIUM, ORKS, N, S, of_type, one

BOARD = board_for("3x3")


def force(faction: str, *aircraft: str, upgrades: dict[int, tuple[str, ...]] | None = None) -> ForceList:
    upgrades = upgrades or {}
    return ForceList(name=f"{faction} patrol", faction=faction,
                     aircraft=tuple(AircraftEntry(aircraft=a, upgrades=upgrades.get(i, ())) for i, a in enumerate(aircraft)))


THUNDERBOLTS = force("imperial_navy", "thunderbolt", "thunderbolt")  # 42 points
DAKKAJETS = force("ork_air_waaagh", "dakkajet", "dakkajet", "dakkajet")  # 48 points


def south(column: int, rows_in: int = 0):
    """The hex ``rows_in`` rows in from the south edge in ``column``."""
    return BOARD.from_offset(column, BOARD.rows_in_column(column) - 1 - rows_in)


def north(column: int, rows_in: int = 0):
    return BOARD.from_offset(column, rows_in)


class SetUpTable:
    """A Dogfight session in its set-up phase, with manual dice."""

    def __init__(self, imperium: ForceList = THUNDERBOLTS, orks: ForceList = DAKKAJETS, points: int = 50,
                 rules: AeronauticaRules | None = None, **options):
        self.rules = rules or AeronauticaRules()
        self.dice = ManualDice()
        setup = dogfight_setup((IMPERIUM, imperium), (ORKS, orks), points, catalogue=self.rules.catalogue,
                               **options)
        self.session = GameSession(self.rules, setup, dice=self.dice, game_id="dogfight")

    @property
    def state(self):
        return self.session.state

    def apply(self, command):
        return [env.event for env in self.session.apply(command) if not env.event.core_event]

    def refused(self, command) -> RuleError:
        before = self.session.seq
        with pytest.raises(RuleError) as err:
            self.session.apply(command)
        assert self.session.seq == before
        return err.value

    def place(self, player, aircraft, hex, facing=N, speed=4, altitude=3):
        return self.apply(PlaceAircraft(player=player, aircraft=aircraft, hex=hex, facing=facing, speed=speed,
                                        altitude=altitude))


def rolled_off(table: SetUpTable, faces=(6, 1)) -> list:
    table.dice.enter(faces)
    return table.apply(RollOff(player=ORKS))


def place_all(table: SetUpTable) -> list:
    events = []
    events += table.place(IMPERIUM, "imperium-1", south(4))
    events += table.place(ORKS, "orks-1", north(4), facing=S)
    events += table.place(IMPERIUM, "imperium-2", south(8))
    events += table.place(ORKS, "orks-2", north(8), facing=S)
    events += table.place(ORKS, "orks-3", north(12), facing=S)
    return events


# ---------------------------------------------------------------- forces (p.34, p.9)


def test_the_agreed_points_value_is_between_25_and_250_p34():
    for points in (24, 251):
        with pytest.raises(RuleError) as err:
            dogfight_setup((IMPERIUM, THUNDERBOLTS), (ORKS, DAKKAJETS), points)
        assert err.value.page == 34
    assert dogfight_setup((IMPERIUM, THUNDERBOLTS), (ORKS, DAKKAJETS), 50).last_turn == 12


def test_a_force_may_be_up_to_10_points_below_the_agreed_value_never_above_p9():
    with pytest.raises(RuleError, match="agreed"):
        dogfight_setup((IMPERIUM, THUNDERBOLTS), (ORKS, DAKKAJETS), 45)  # 48 is above 45
    with pytest.raises(RuleError, match="below"):
        dogfight_setup((IMPERIUM, THUNDERBOLTS), (ORKS, DAKKAJETS), 60)  # 42 is 18 below 60


# ---------------------------------------------------------------- set-up (p.34)


def test_set_up_starts_with_a_roll_off_whose_winner_places_first_p34():
    table = SetUpTable()
    assert table.state.phase == SET_UP
    assert all(a.status == UNDEPLOYED for a in table.state.aircraft.values())
    assert table.session.legal_commands(IMPERIUM) == [RollOff(player=IMPERIUM)]
    assert "roll off" in str(table.refused(PlaceAircraft(player=IMPERIUM, aircraft="imperium-1", hex=south(4),
                                                         facing=N, speed=4, altitude=3)))
    events = rolled_off(table, faces=(3, 3, 2, 5))  # a tie is rolled again
    rolls = of_type(events, DiceRolled)
    assert [r.faces for r in rolls] == [(3,), (3,), (2,), (5,)]
    assert one(events, SetUpRollOffTied) and one(events, SetUpRollOffWon).player == ORKS
    assert table.state.to_act == ORKS
    assert table.session.legal_commands(IMPERIUM) == []


def test_players_take_turns_to_place_and_the_larger_side_finishes_alone_p34():
    table = SetUpTable()
    rolled_off(table)
    assert table.state.to_act == IMPERIUM
    table.place(IMPERIUM, "imperium-1", south(4))
    assert table.state.to_act == ORKS
    err = table.refused(PlaceAircraft(player=IMPERIUM, aircraft="imperium-2", hex=south(8), facing=N, speed=4,
                                      altitude=3))
    assert "orks's turn" in str(err)
    table.place(ORKS, "orks-1", north(4), facing=S)
    table.place(IMPERIUM, "imperium-2", south(8))
    assert table.state.to_act == ORKS
    table.place(ORKS, "orks-2", north(8), facing=S)
    assert table.state.to_act == ORKS  # the imperium has placed everything
    events = table.place(ORKS, "orks-3", north(12), facing=S)
    assert [type(e) for e in events] == [AircraftPlaced, SetUpCompleted, TurnBegan]
    assert table.state.phase == CHOOSE_MANOEUVRES and table.state.turn == 1
    placed = table.state.aircraft["orks-3"]
    assert (placed.hex, placed.facing, placed.speed, placed.altitude, placed.status) == (north(12), S, 4, 3, FLYING)


def test_an_aircraft_outside_three_hexes_of_its_edge_is_refused_p34():
    table = SetUpTable()
    rolled_off(table)
    err = table.refused(PlaceAircraft(player=IMPERIUM, aircraft="imperium-1", hex=south(4, rows_in=3), facing=N,
                                      speed=4, altitude=3))
    assert (err.rule, err.page) == ("Set-up", 34)
    assert "within 3 hexes" in str(err)
    # The enemy's edge is no better; the third row in is fine.
    table.refused(PlaceAircraft(player=IMPERIUM, aircraft="imperium-1", hex=north(4), facing=N, speed=4,
                                altitude=3))
    table.place(IMPERIUM, "imperium-1", south(4, rows_in=2))
    assert table.state.aircraft["imperium-1"].hex == south(4, rows_in=2)


def test_speed_and_altitude_are_chosen_within_the_profile_p34():
    table = SetUpTable()
    rolled_off(table)
    for speed, altitude in ((1, 3), (7, 3), (4, 0), (4, 6)):  # Thunderbolt: Speed 2-6, Max Altitude 5
        table.refused(PlaceAircraft(player=IMPERIUM, aircraft="imperium-1", hex=south(4), facing=N, speed=speed,
                                    altitude=altitude))
    table.place(IMPERIUM, "imperium-1", south(4), speed=6, altitude=5)
    table.refused(PlaceAircraft(player=ORKS, aircraft="orks-1", hex=south(4), facing=S, speed=4, altitude=3))


def test_the_legal_placements_are_every_hex_facing_speed_and_altitude_in_the_zone_p34():
    table = SetUpTable()
    rolled_off(table)
    legal = table.session.legal_commands(IMPERIUM)
    zone = BOARD.hexes_within("south", 3)
    assert {c.hex for c in legal} == zone
    assert {c.aircraft for c in legal} == {"imperium-1", "imperium-2"}
    assert len(legal) == 2 * len(zone) * 6 * 5 * 5  # facings, Speed 2-6, Altitude 1-5


def test_ground_defences_are_set_up_within_six_hexes_of_the_edge_p34():
    base = load_catalogue()
    flak = WeaponProfile(id="flak_battery", name="Flak Battery", fire_arc=FireArcs(arcs=("all_round",)),
                         firepower=(0, 3, 3), damage=4,
                         special_rules=(WeaponSpecialRule("ground_to_air"), WeaponSpecialRule("effective_altitude", 3)))
    emplacement = AircraftProfile(id="flak_emplacement", name="Flak Emplacement", faction="imperial_navy",
                                  aircraft_class="Ground Defence", points=8, structure=2, throttle=0,
                                  ace_manoeuvres=(), min_speed=0, max_speed=0, max_altitude=0, handling=4,
                                  weapons=("flak_battery",))
    catalogue = build_catalogue(factions=base.factions.values(), aircraft=[*base.aircraft.values(), emplacement],
                                weapons=[*base.weapons.values(), flak], upgrades=base.upgrades.values(),
                                data_version="test", source="test_dogfight.py")
    rules = AeronauticaRules(catalogue=catalogue)
    imperium = force("imperial_navy", "thunderbolt", "flak_emplacement")
    table = SetUpTable(imperium=imperium, rules=rules, points=30, check_points=False)
    rolled_off(table)
    gun = "imperium-2"
    table.refused(PlaceAircraft(player=IMPERIUM, aircraft=gun, hex=south(4, rows_in=6), facing=N, speed=0,
                                altitude=0))
    table.refused(PlaceAircraft(player=IMPERIUM, aircraft=gun, hex=south(4, rows_in=5), facing=N, speed=4,
                                altitude=3))  # static, on the ground
    table.place(IMPERIUM, gun, south(4, rows_in=5), speed=0, altitude=0)
    placed = table.state.aircraft[gun]
    assert placed.ground_defence and placed.status == LANDED and placed.altitude == 0
    # The aircraft keeps the three-hex limit.
    table.place(ORKS, "orks-1", north(4), facing=S)
    table.refused(PlaceAircraft(player=IMPERIUM, aircraft="imperium-1", hex=south(8, rows_in=5), facing=N,
                                speed=4, altitude=3))
    table.place(IMPERIUM, "imperium-1", south(8))
    table.place(ORKS, "orks-2", north(8), facing=S)
    table.place(ORKS, "orks-3", north(12), facing=S)
    # A Ground Defence chooses no manoeuvre (p.8): the three aircraft choosing is enough for Initiative.
    table.dice.enter([6, 1])
    for aircraft, player in (("imperium-1", IMPERIUM), ("orks-1", ORKS), ("orks-2", ORKS), ("orks-3", ORKS)):
        table.apply(ChooseManoeuvre(player=player, aircraft=aircraft, manoeuvre=1))
    assert table.state.initiative is not None


def test_placements_given_up_front_are_checked_against_the_zones_p34():
    inside = (Placement(hex=south(4), facing=N, speed=4, altitude=3),
              Placement(hex=south(8, rows_in=2), facing=N, speed=4, altitude=3))
    orks = tuple(Placement(hex=north(c), facing=S, speed=4, altitude=3) for c in (4, 8, 12))
    setup = dogfight_setup((IMPERIUM, THUNDERBOLTS), (ORKS, DAKKAJETS), 50, placements=(inside, orks))
    assert setup.deployment == "placed"
    assert AeronauticaRules().initial_state(setup).phase == CHOOSE_MANOEUVRES
    outside = (inside[0], Placement(hex=south(8, rows_in=3), facing=N, speed=4, altitude=3))
    with pytest.raises(RuleError, match="within 3 hexes"):
        dogfight_setup((IMPERIUM, THUNDERBOLTS), (ORKS, DAKKAJETS), 50, placements=(outside, orks))


# ---------------------------------------------------------------- reserves (p.34)


def test_at_most_two_aircraft_in_reserve_p34():
    many = force("ork_air_waaagh", *["dakkajet"] * 12)  # 192 points
    with pytest.raises(RuleError, match="at most 2"):
        dogfight_setup((IMPERIUM, force("imperial_navy", *["thunderbolt"] * 8, "thunderbolt_fury")), (ORKS, many), 200,
                       reserves=((), (0, 1, 2)))
    setup = dogfight_setup((IMPERIUM, force("imperial_navy", *["thunderbolt"] * 8, "thunderbolt_fury")), (ORKS, many), 200,
                           reserves=((), (0, 1)))
    assert setup.sides[1].reserves == (0, 1)


def test_reserves_cost_at_most_25_percent_of_the_force_p34():
    with pytest.raises(RuleError, match="25%"):  # 2 x 16 = 32 of 48 points
        dogfight_setup((IMPERIUM, THUNDERBOLTS), (ORKS, DAKKAJETS), 50, reserves=((), (0, 1)))
    setup = dogfight_setup((IMPERIUM, THUNDERBOLTS), (ORKS, force("ork_air_waaagh", *["dakkajet"] * 4)), 64,
                           reserves=((), (0,)), check_points=False)  # 16 of 64: exactly 25%
    table_state = AeronauticaRules().initial_state(setup)
    assert table_state.aircraft["orks-1"].status == RESERVE
    assert [a.id for a in table_state.aircraft.values() if a.status == UNDEPLOYED] == [
        "imperium-1", "imperium-2", "orks-2", "orks-3", "orks-4"]


# ---------------------------------------------------------------- Underdog (p.35)


def test_an_underdog_5_points_smaller_has_the_initiative_in_turn_1_p35():
    table = SetUpTable()  # 42 against 48: the imperium is 6 points smaller
    assert table.state.underdog == IMPERIUM
    rolled_off(table, faces=(1, 6))
    place_all_from_orks(table)
    events = choose_all(table)
    assert one(events, InitiativeWon) == InitiativeWon(player=IMPERIUM, reason="underdog")
    assert not of_type(events, DiceRolled)  # no Initiative roll in turn 1


def test_a_difference_under_5_points_rolls_for_initiative_as_normal_p35():
    fury = force("imperial_navy", "thunderbolt", "thunderbolt_fury")  # 44 against 48
    table = SetUpTable(imperium=fury)
    assert table.state.underdog is None
    rolled_off(table)
    place_all(table)
    table.dice.enter([2, 5])
    events = choose_all(table)
    assert [r.faces for r in of_type(events, DiceRolled)] == [(2,), (5,)]
    assert one(events, InitiativeWon) == InitiativeWon(player=ORKS)


def place_all_from_orks(table: SetUpTable) -> None:
    table.place(ORKS, "orks-1", north(4), facing=S)
    table.place(IMPERIUM, "imperium-1", south(4))
    table.place(ORKS, "orks-2", north(8), facing=S)
    table.place(IMPERIUM, "imperium-2", south(8))
    table.place(ORKS, "orks-3", north(12), facing=S)


def choose_all(table: SetUpTable) -> list:
    events = []
    for aircraft in table.state.aircraft.values():
        events += table.apply(ChooseManoeuvre(player=aircraft.owner, aircraft=aircraft.id, manoeuvre=1))
    return events


# ---------------------------------------------------------------- the scenario format (p.33)


def test_the_dogfight_is_written_in_the_scenario_format_p33():
    assert DOGFIGHT.forces.min_points == 25 and DOGFIGHT.forces.max_points == 250
    assert DOGFIGHT.set_up.depth == 3 and DOGFIGHT.set_up.ground_defence_depth == 6
    assert DOGFIGHT.special_rules.reserves.max_aircraft == 2
    assert DOGFIGHT.special_rules.reserves.max_percent_of_points == 25
    assert DOGFIGHT.special_rules.underdog_margin == 5
    assert DOGFIGHT.victory_conditions.last_turn == 12
    assert parse_scenario(encode_scenario(DOGFIGHT)) == DOGFIGHT
