"""Speed work (issue 18) that must not change a rule or a choice: the movement grid offered lazily is the grid,
one quadrant tested alone answers as the four do (p.7), and the broadside bot values moves as before."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aero_events.rulesets.battlefleet_gothic import geometry
from aero_events.rulesets.battlefleet_gothic.bots import BroadsideBot
from aero_events.rulesets.battlefleet_gothic.commands import MoveShip
from aero_events.rulesets.battlefleet_gothic.movement import grid, grid_commands
from aero_events.rulesets.battlefleet_gothic.state import BlastMarker

from .helpers import RULES, replace, ship, state_with

LUNAR = ship("agrippa", "imperial", "lunar", 90, 20, 0)
SECOND = ship("dominator", "imperial", "dominator", 40, 30, 9000)
ENEMY = ship("unclean", "chaos", "murder", 30, 110, 180)


def test_the_movement_commands_offered_are_the_grid_of_each_unmoved_ship_in_fleet_order():
    """Movement phase (p.15): every unmoved ship's grid, read lazily, in the same order and by index."""
    state = replace(state_with(LUNAR, SECOND, ENEMY), blast_markers={"1": BlastMarker(90_000, 30_000)})
    offered = [c for c in RULES.legal_commands(state, "imperial") if isinstance(c, MoveShip)]
    expected = [c for s in state.fleet("imperial") for c in grid(RULES, state, s)]
    assert offered == expected and len({c.ship for c in offered}) == 2
    lazy = grid_commands(RULES, state, state.ships["agrippa"])
    assert len(lazy) == len(grid(RULES, state, state.ships["agrippa"]))
    assert [lazy[i] for i in range(len(lazy))] == list(lazy) == grid(RULES, state, state.ships["agrippa"])


@settings(max_examples=300, deadline=None)
@given(st.integers(-50_000, 50_000), st.integers(-50_000, 50_000), st.integers(0, 35_999),
       st.sampled_from(["front", "right", "rear", "left"]))
def test_one_quadrant_tested_alone_answers_as_the_four_do_p7(dx, dy, heading, name):
    """Bearing compass quadrants (p.7): ``in_quadrant`` is ``name in quadrants(...)``, boundaries included."""
    origin = (100_000, 100_000)
    for point in ((origin[0] + dx, origin[1] + dy), (origin[0] + dx, origin[1] + dx), (origin[0] + dx, origin[1] - dx),
                  origin):
        assert geometry.in_quadrant(origin, heading, point, name) == (name in geometry.quadrants(origin, heading, point))


@pytest.mark.parametrize("enemy", [ENEMY, ship("unclean", "chaos", "murder", 90, 55, 180)], ids=["far", "near"])
def test_the_broadside_bot_values_each_move_as_it_did_with_enemies_found_once(enemy):
    """The bot's move value with the enemies listed once for all moves equals the value finding them per move
    (out of range, where only the front quadrant counts, and in range)."""
    state = state_with(LUNAR, SECOND, enemy)
    bot = BroadsideBot(0)
    agrippa = state.ships["agrippa"]
    enemies = [s for s in state.ships.values() if s.side != agrippa.side]
    moves = grid(RULES, state, agrippa)
    assert len(moves) > 20
    for move in moves:
        assert bot._move_value(RULES, state, agrippa, move, enemies) == bot._move_value(RULES, state, agrippa, move)


def test_a_grid_remembered_follows_the_ship_and_the_blast_markers_p15_p25():
    """Movement (p.15) and Blast markers (p.25): the paths offered are those of the ship and markers asked about,
    whatever was asked before (a fresh ruleset, remembering nothing, agrees each time)."""
    from aero_events.rulesets.battlefleet_gothic import BattlefleetGothicRules
    from aero_events.rulesets.battlefleet_gothic.state import COME_TO_NEW_HEADING

    clear = state_with(LUNAR, SECOND, ENEMY)
    marked = replace(clear, blast_markers={"1": BlastMarker(90_000, 30_000)})
    ordered = replace(clear, ships={**clear.ships, "agrippa": replace(clear.ships["agrippa"], order=COME_TO_NEW_HEADING)})
    grids = []
    for state in (clear, marked, ordered, clear, marked, ordered):
        grids.append(grid(RULES, state, state.ships["agrippa"]))
        assert grids[-1] == grid(BattlefleetGothicRules(), state, state.ships["agrippa"])
    assert len({tuple(g) for g in grids}) == 3
