"""Ending the game and Victory points (rulebook p.31-32), Ejector Seats (p.37), reserves that never arrive (p.33).

Pure checks build a GameState by hand; the flows play turns through the public commands with
ManualDice (helpers.Table).
"""

from __future__ import annotations

import json

import msgspec
import pytest

from aero_events.core import DataError, GameSession, ManualDice
from aero_events.hexgrid import Hex
from aero_events.rulesets.aeronautica import AeronauticaRules, RuleOptions
from aero_events.rulesets.aeronautica.commands import ChooseFirstMover, PassFiring
from aero_events.rulesets.aeronautica.events import (
    AircraftDisengaged,
    DisengagementTurnDeclared,
    EjectorSeatsRolled,
    GameEnded,
    TurnBegan,
    VictoryPointsScored,
)
from aero_events.rulesets.aeronautica.forces import AircraftEntry, ForceList
from aero_events.rulesets.aeronautica.setup import GameSetup, SideSetup
from aero_events.rulesets.aeronautica.state import (
    DESTROYED,
    DISENGAGED,
    FIRING,
    FLYING,
    GAME_OVER,
    RESERVE,
    TAILING_FIRE,
    AircraftState,
    GameState,
)
from aero_events.rulesets.aeronautica.victory import (
    aircraft_victory_points,
    game_end_reason,
    insurmountable_losses,
    insurmountable_threshold,
    load_victory_chart,
    parse_victory_chart,
    percent_of,
    points_difference,
    score,
    winner_of,
)
from tests.aeronautica.helpers import IMPERIUM, ORKS, N, Plane, S, Table, make_rules, of_type, one, placement

STRAIGHT = {"stage_hexes": (1,), "facings": (0,)}
CHART = load_victory_chart()


def plane(aircraft_id: str, owner: str, points: int = 21, structure: int = 3, starting: int = 3,
          status: str = FLYING, **changes) -> AircraftState:
    return AircraftState(id=aircraft_id, owner=owner, profile="thunderbolt", hex=Hex(0, 0), facing=0, speed=4,
                         altitude=3, structure=structure, starting_structure=starting, points=points,
                         status=status, **changes)


def state_of(*planes: AircraftState, turn: int = 3, last_turn: int = 12) -> GameState:
    return GameState(players=(IMPERIUM, ORKS), board="16x16h", last_turn=last_turn, turn=turn,
                     aircraft={p.id: p for p in planes})


def finish_firing(table: Table) -> list:
    """Every player passes until the Tailing Fire or Firing phase is over."""
    events: list = []
    while table.state.phase in (FIRING, TAILING_FIRE) and table.state.to_act is not None:
        events += table.apply(PassFiring(player=table.state.to_act))
    return events


def table_for(setup: GameSetup, rules: AeronauticaRules | None = None) -> Table:
    table = Table.__new__(Table)
    table.rules = rules or make_rules()
    table.dice = ManualDice()
    table.session = GameSession(table.rules, setup, dice=table.dice, game_id="test")
    return table


# ---------------------------------------------------------------- the chart (p.32)


def test_fractions_round_up_per_aircraft_50_percent_of_25_is_13_p32():
    assert percent_of(25, 50) == 13
    damaged = plane("orks-1", ORKS, points=25, structure=2)
    row = aircraft_victory_points(damaged, CHART)
    assert (row.condition, row.damaged, row.percent, row.victory_points) == ("operating", True, 50, 13)


def test_the_victory_points_chart_p32():
    def worth(**changes):
        return aircraft_victory_points(plane("orks-1", ORKS, points=20, **changes), CHART).victory_points

    assert worth(status=DESTROYED, structure=0) == 20  # destroyed: 100%
    assert worth() == 0  # still operating, undamaged: 0%
    assert worth(structure=1) == 10  # operating, damaged: 50%
    assert worth(status=DISENGAGED, disengaged_how="voluntary") == 0  # voluntarily disengaged: 0%
    assert worth(status=DISENGAGED, disengaged_how="voluntary", structure=2) == 5  # damaged: 25%
    # Accidentally Disengaged: lost from the text; the data's defaults 50% / 100% (AERONAUTICA-DATA.md).
    assert worth(status=DISENGAGED, disengaged_how="accidental") == 10
    assert worth(status=DISENGAGED, disengaged_how="accidental", structure=2) == 20
    assert CHART.accidentally_disengaged.reconstructed
    assert "p.32" in CHART.source and "lost" in CHART.source


def test_points_difference_150_against_146_gives_4_victory_points_p32():
    big = [plane(f"imperium-{i}", IMPERIUM, points=p) for i, p in enumerate((50, 50, 50))]
    small = [plane(f"orks-{i}", ORKS, points=p) for i, p in enumerate((50, 50, 46))]
    state = state_of(*big, *small)
    assert points_difference(state, IMPERIUM) == 4
    assert points_difference(state, ORKS) == 0
    imperium, orks = score(state, CHART)
    assert (imperium.points_difference, imperium.total) == (4, 4)
    assert (orks.points_difference, orks.total) == (0, 0)
    assert winner_of([imperium, orks]) == IMPERIUM


def test_equal_victory_points_are_a_draw_p32():
    state = state_of(plane("imperium-1", IMPERIUM, points=20, structure=2),
                     plane("orks-1", ORKS, points=20, structure=2))
    reports = score(state, CHART)
    assert [r.total for r in reports] == [10, 10]
    assert winner_of(reports) is None


def test_ejector_seats_make_a_destroyed_aircraft_worth_75_percent_p37():
    lost = plane("imperium-1", IMPERIUM, points=23, structure=0, status=DESTROYED, upgrades=("ejector_seats",))
    assert aircraft_victory_points(lost, CHART).victory_points == 23  # not rolled or failed: 100%
    escaped = msgspec.structs.replace(lost, crew_escaped=True)
    row = aircraft_victory_points(escaped, CHART)
    assert (row.percent, row.victory_points) == (75, 18)  # 17.25 rounded up


def test_reserves_that_never_arrived_count_as_accidentally_disengaged_p33():
    held = plane("orks-1", ORKS, points=16, status=RESERVE)
    row = aircraft_victory_points(held, CHART)
    assert (row.condition, row.percent, row.victory_points) == ("accidentally_disengaged", 50, 8)
    assert "reserve" in row.note


def test_a_victory_chart_can_be_replaced_through_rule_options(tmp_path):
    raw = json.loads(load_victory_chart_text())
    raw["accidentally_disengaged"] = {"undamaged": 25, "damaged": 75}
    path = tmp_path / "victory.json"
    path.write_text(json.dumps(raw))
    chart = load_victory_chart(path)
    rules = AeronauticaRules(options=RuleOptions(victory_chart=chart))
    assert rules.options.victory_chart.accidentally_disengaged.undamaged == 25
    row = aircraft_victory_points(plane("orks-1", ORKS, points=16, status=DISENGAGED), chart)
    assert row.victory_points == 4


def test_a_malformed_victory_chart_is_a_data_error_naming_the_field():
    raw = json.loads(load_victory_chart_text())
    raw["operating"]["damaged"] = 150
    with pytest.raises(DataError) as err:
        parse_victory_chart(json.dumps(raw, indent=1), "bad.json")
    assert "operating" in str(err.value) and "damaged" in str(err.value) and "bad.json" in str(err.value)
    del raw["operating"]
    with pytest.raises(DataError, match="operating"):
        parse_victory_chart(json.dumps(raw), "bad.json")


def load_victory_chart_text() -> str:
    from aero_events.rulesets.aeronautica.profiles import data_path

    return data_path("victory.json").read_text()


# ---------------------------------------------------------------- ending the game (p.31)


@pytest.mark.parametrize(("starting", "left", "triggers"), [
    (4, 1, True),  # 25% of 4 is 1: down to 1 triggers
    (4, 2, False),
    (5, 1, True),  # 25% of 5 is 1.25, rounded down to 1
    (5, 2, False),
    (8, 2, True),
    (8, 3, False),
    (3, 1, False),  # 25% of 3 rounds down to 0: only losing every aircraft would
])
def test_insurmountable_losses_at_25_percent_of_starting_numbers_rounding_down_p31(starting, left, triggers):
    orks = [plane(f"orks-{i}", ORKS, status=FLYING if i < left else DESTROYED) for i in range(starting)]
    state = state_of(plane("imperium-1", IMPERIUM), *orks)
    assert insurmountable_threshold(starting) == starting // 4
    assert (ORKS in insurmountable_losses(state)) is triggers
    assert IMPERIUM not in insurmountable_losses(state)


def test_reserves_still_to_come_are_part_of_the_force_for_insurmountable_losses_p31_p33():
    orks = [plane("orks-0", ORKS), plane("orks-1", ORKS, status=RESERVE),
            *(plane(f"orks-{i}", ORKS, status=DESTROYED) for i in range(2, 5))]
    assert ORKS not in insurmountable_losses(state_of(plane("imperium-1", IMPERIUM), *orks))


def test_the_game_ends_at_the_last_turn_and_with_the_last_aircraft_flying_p31():
    both = (plane("imperium-1", IMPERIUM), plane("orks-1", ORKS))
    assert game_end_reason(state_of(*both, turn=11)) is None
    assert "fuel limit" in game_end_reason(state_of(*both, turn=12))
    alone = state_of(plane("imperium-1", IMPERIUM), plane("orks-1", ORKS, status=DESTROYED))
    assert "only imperium" in game_end_reason(alone)
    reserve_only = state_of(plane("imperium-1", IMPERIUM), plane("orks-1", ORKS, status=RESERVE))
    assert "last aircraft flying" in game_end_reason(reserve_only)  # reserves are not in the Area yet
    gone = state_of(plane("imperium-1", IMPERIUM, status=DESTROYED), plane("orks-1", ORKS, status=DESTROYED))
    assert "neither" in game_end_reason(gone)


def test_turn_12_is_the_last_turn_fuel_limit_p31():
    table = Table([Plane("thunderbolt", (8, 14), speed=2)], [Plane("dakkajet", (8, 1), facing=S, speed=4)])
    assert table.state.last_turn == 12
    short = Table([Plane("thunderbolt", (8, 14), speed=2)], [Plane("dakkajet", (8, 1), facing=S, speed=4)],
                  last_turn=1)
    short.start_movement({"imperium-1": 1, "orks-1": 1})
    short.move("imperium-1", **STRAIGHT)
    short.move("orks-1", **STRAIGHT)
    events = finish_firing(short)
    ended = one(events, GameEnded)
    assert "fuel limit" in ended.reason and short.state.phase == GAME_OVER
    assert not of_type(events, TurnBegan)
    # Points difference only: 21 against 16.
    reports = of_type(events, VictoryPointsScored)
    assert [(r.player, r.total) for r in reports] == [(IMPERIUM, 5), (ORKS, 0)]
    assert ended.winner == IMPERIUM
    assert short.state.victory_points == {IMPERIUM: 5, ORKS: 0}


def test_the_disengagement_turn_makes_disengaging_voluntary_and_cheaper_p31_p17():
    table = Table(
        [Plane("thunderbolt", (8, 12), facing=N, speed=6), Plane("thunderbolt", (2, 14), facing=N, speed=2)],
        [Plane("dakkajet", (column, 1), facing=N, speed=4) for column in (4, 6, 10)]
        + [Plane("dakkajet", (14, 3), facing=S, speed=4)])
    # Turn 1: imperium-1 pushes to Speed 8 and is damaged Breaking Up (D6 of 1); three Dakkajets fly off the
    # northern edge: Accidental Disengagements (p.17).
    table.start_movement({"imperium-1": 1, "imperium-2": 1, "orks-1": 1, "orks-2": 1, "orks-3": 1, "orks-4": 1})
    table.move("imperium-1", throttle=+2, dice=[1], **STRAIGHT)
    assert table.aircraft("imperium-1").damaged
    for first, second in (("orks-1", "imperium-2"), ("orks-2", None), ("orks-3", None), ("orks-4", None)):
        table.move(first, **STRAIGHT)
        if second:
            table.move(second, **STRAIGHT)
    assert [e.how for e in of_type(table.session.events(), AircraftDisengaged)] == ["accidental"] * 3
    events = finish_firing(table)
    # The orks are down to 1 of 4 (25%, p.31): the next turn is the Disengagement turn.
    assert one(events, DisengagementTurnDeclared) == DisengagementTurnDeclared(turn=2, players=(ORKS,))
    assert table.state.disengagement_turn and table.state.turn == 2
    # Turn 2: imperium-1 flies off the edge: a Voluntary Disengagement.
    table.choose({"imperium-1": 1, "imperium-2": 1, "orks-4": 1})
    finish_firing(table)
    table.apply(ChooseFirstMover(player=table.state.initiative, first=IMPERIUM))
    out = table.move("imperium-1", **STRAIGHT)
    assert one(out, AircraftDisengaged).how == "voluntary"
    table.move("orks-4", **STRAIGHT)
    table.move("imperium-2", **STRAIGHT)
    events = finish_firing(table)
    ended = one(events, GameEnded)
    assert "Disengagement turn" in ended.reason
    orks_report = next(r for r in of_type(events, VictoryPointsScored) if r.player == ORKS)
    row = next(a for a in orks_report.aircraft if a.aircraft == "imperium-1")
    # Voluntarily disengaged and damaged: 25% of 21 = 5.25, rounded up to 6 (p.32).
    assert (row.condition, row.damaged, row.percent, row.victory_points) == ("voluntarily_disengaged", True, 25, 6)
    imperium_report = next(r for r in of_type(events, VictoryPointsScored) if r.player == IMPERIUM)
    assert [a.victory_points for a in imperium_report.aircraft] == [8, 8, 8, 0]  # accidental 50% of 16
    assert orks_report.points_difference == 64 - 42
    assert (imperium_report.total, orks_report.total) == (24, 6 + 22)
    assert ended.winner == ORKS


def test_ejector_seats_are_rolled_in_the_end_phase_after_a_crash_p37():
    force = ForceList(name="ejectors", faction="imperial_navy",
                      aircraft=(AircraftEntry(aircraft="thunderbolt", upgrades=("ejector_seats",)),
                                AircraftEntry(aircraft="thunderbolt", upgrades=("ejector_seats",))))
    orks = ForceList(name="orks", faction="ork_air_waaagh", aircraft=(AircraftEntry(aircraft="dakkajet"),))
    board = "16x16h"
    setup = GameSetup(sides=(
        SideSetup(player=IMPERIUM, force=force, placements=(
            placement(board, Plane("thunderbolt", (4, 12), speed=4, altitude=1)),
            placement(board, Plane("thunderbolt", (12, 12), speed=4, altitude=1)))),
        SideSetup(player=ORKS, force=orks, placements=(placement(board, Plane("dakkajet", (8, 1), facing=S)),))),
        board=board, check_points=False)
    table = table_for(setup)
    table.start_movement({"imperium-1": 1, "imperium-2": 1, "orks-1": 1})
    # Both Thunderbolts dive to Altitude 0 and crash on a D6 of 1 (p.19).
    table.move("imperium-1", altitude=-1, dice=[1], **STRAIGHT)
    table.move("orks-1", **STRAIGHT)
    table.move("imperium-2", altitude=-1, dice=[1], **STRAIGHT)
    assert table.aircraft("imperium-1").status == DESTROYED
    table.dice.enter([5, 4])  # Ejector Seats: imperium-1 escapes on a 5, imperium-2 does not on a 4
    events = finish_firing(table)
    rolled = of_type(events, EjectorSeatsRolled)
    assert rolled == [EjectorSeatsRolled(aircraft="imperium-1", escaped=True),
                      EjectorSeatsRolled(aircraft="imperium-2", escaped=False)]
    assert events.index(rolled[-1]) < events.index(of_type(events, VictoryPointsScored)[0])
    orks_report = next(r for r in of_type(events, VictoryPointsScored) if r.player == ORKS)
    assert [a.victory_points for a in orks_report.aircraft] == [18, 23]  # 75% of 23 rounded up, then 100%
