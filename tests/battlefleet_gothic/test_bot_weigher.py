"""Speed work (issue 18, session 12) that must not change a choice: the broadside bot weighs its moves with what is
the same for every move worked out once, and the four quadrants of a point measured in one go (p.7); the values
are those of the plain computation, over the moves of seeded bot games and over points on every boundary."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aero_events.bots import make_bot, play
from aero_events.core import GameSession, SeededDice
from aero_events.rulesets.battlefleet_gothic import geometry
from aero_events.rulesets.battlefleet_gothic.bots import BroadsideBot
from aero_events.rulesets.battlefleet_gothic.commands import MoveShip
from aero_events.rulesets.battlefleet_gothic.data import CM
from aero_events.rulesets.battlefleet_gothic.movement import path_points
from aero_events.rulesets.battlefleet_gothic.state import ACTIVE

from .helpers import RULES

NAMES = ("front", "right", "rear", "left")


def plain_move_value(rules, state, ship, move) -> float:
    """The broadside bot's move value as it was written before: the whole path, the nearest enemy by a key, the
    reach and the four quadrants found for each move."""
    cls = rules.ship_class(ship)
    points, heading = path_points(ship, move.legs, move.turns)
    end = points[-1]
    width, height = state.table
    margin = 10 * CM
    if not (margin <= end[0] <= width - margin and margin <= end[1] <= height - margin):
        return -1e9
    enemies = [s for s in state.ships.values() if s.side != ship.side and s.status == ACTIVE]
    if not enemies:
        return 0.0
    enemy = min(enemies, key=lambda s: (geometry.distance_sq(end, s.position), s.id))
    reach = max((w.range_cm for w in cls.weapons if w.kind in ("battery", "lance")), default=30) * CM
    distance = geometry.distance(end, enemy.position)
    value = -abs(distance - max(15 * CM, reach * 2 // 3)) / CM
    quadrants = geometry.quadrants(end, heading, enemy.position)
    if distance > reach:
        return value + 8 if "front" in quadrants else value
    if quadrants & {"left", "right"}:
        value += 25
    elif "front" in quadrants:
        value += 8
    return value


@pytest.fixture(scope="module")
def movement_choices():
    """(state, ship, its moves offered) each time a broadside bot chose a ship's move, over seeded games."""
    found = []

    class Recording:
        def __init__(self, inner):
            self.inner = inner

        def choose(self, session, player, options):
            moves = [o for o in options if isinstance(o, MoveShip)]
            if moves:
                ship = session.state.ships[min(o.ship for o in moves)]
                found.append((session.state, ship, [o for o in moves if o.ship == ship.id]))
            return self.inner.choose(session, player, options)

    scenario = RULES.scenarios()["cruiser-clash"]
    for seed in range(3):
        session = GameSession(RULES, scenario.build(scenario.default_options, seed), dice=SeededDice(seed))
        players = {p: Recording(make_bot(RULES, "broadside", f"{seed}:{p}")) for p in RULES.players(session.state)}
        play(session, players, max_commands=20_000)
    return found


def test_the_broadside_bot_weighs_every_move_as_the_plain_computation(movement_choices):
    """Every move the bot weighed in seeded games: the weigher (and ``_move_value``) give the plain value, in and
    out of the guns' reach, off the table's margin and on it."""
    bot = BroadsideBot(0)
    values = set()
    weighed = 0
    for state, ship, moves in movement_choices:
        enemies = [s for s in state.ships.values() if s.side != ship.side and s.status == ACTIVE]
        weigh = bot._move_weigher(RULES, state, ship, enemies)
        for move in moves:
            plain = plain_move_value(RULES, state, ship, move)
            assert weigh(move.legs, move.turns) == plain
            assert bot._move_value(RULES, state, ship, move) == plain
            values.add(plain - math.floor(plain))
            weighed += 1
    assert weighed > 5000 and len(values) > 10


def test_the_bot_picks_the_move_the_plain_values_pick(movement_choices):
    """The move chosen is the best by the plain value, the shortest path among equals (as before)."""
    bot = BroadsideBot(0)
    for state, ship, moves in movement_choices[::4]:
        chosen = bot._movement(RULES, state, {MoveShip: moves})
        assert chosen == max(moves, key=lambda m: (plain_move_value(RULES, state, ship, m), -sum(m.legs)))


@settings(max_examples=500, deadline=None)
@given(st.integers(-50_000, 50_000), st.integers(-50_000, 50_000), st.integers(-36_000, 72_000))
def test_the_four_quadrants_in_one_go_are_the_quadrants_p7(dx, dy, heading):
    """Bearing compass (p.7): ``quadrant_flags`` are the four quadrants ``quadrants`` finds, boundaries (45
    degrees off the axis: two quadrants) and the stem itself (all four) included, for any heading given."""
    origin = (100_000, 100_000)
    for point in ((origin[0] + dx, origin[1] + dy), (origin[0] + dx, origin[1] + dx), (origin[0] + dx, origin[1] - dx),
                  origin):
        found = geometry.quadrants(origin, heading, point)
        assert geometry.quadrant_flags(origin, heading, point) == tuple(name in found for name in NAMES)


def test_the_quadrants_of_the_moves_weighed_are_the_quadrants_p7(movement_choices):
    """Over the ends of the moves of seeded games and the enemy ships then on the table."""
    for state, ship, moves in movement_choices[::3]:
        for move in moves[::5]:
            points, heading = path_points(ship, move.legs, move.turns)
            for enemy in state.ships.values():
                found = geometry.quadrants(points[-1], heading, enemy.position)
                assert geometry.quadrant_flags(points[-1], heading, enemy.position) == \
                    tuple(name in found for name in NAMES)
