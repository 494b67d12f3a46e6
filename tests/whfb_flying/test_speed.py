"""Speed work (issue 18) that must not change a rule: the moves offered are worked out from footprints measured
once per state, and a move is tried without folding its event; the offer is still exactly what ``decide``
accepts, state after state (Host: Movement)."""

from __future__ import annotations

import pytest

from aero_events.core import RuleError
from aero_events.rulesets.whfb_flying import commands as cmd
from aero_events.rulesets.whfb_flying.movement import legal_commands as movement_commands

from .helpers import IN, RULES, battle, decide, unit, with_unit

IDLE = unit("n-idle", "spearmen", 10, 44, 2)


def marches(state):
    return [c for c in RULES.legal_commands(state, "north") if isinstance(c, cmd.Move) and c.march]


def test_the_march_block_follows_the_state_asked_about():
    """Host: no march with an enemy within 8". Asked about a state with the enemy far, then near, then far
    again, the offer follows each state."""
    far = battle([unit("n-sp", "spearmen", 20, 24, 6), IDLE], [unit("s-sp", "spearmen", 20, 24, 40, 180)])
    near = with_unit(far, "s-sp", pose=far.units["s-sp"].pose.moved(forward=30 * IN))
    assert {c.unit for c in marches(far)} >= {"n-sp"}
    assert "n-sp" not in {c.unit for c in marches(near)}
    assert {c.unit for c in marches(far)} >= {"n-sp"}


@pytest.mark.parametrize("air", [(), ("n-peg",)], ids=["ground", "air"])
def test_every_move_offered_is_accepted_and_every_move_refused_is_not_offered(air):
    """Host: Movement and Fly: each command of the movement offer is one ``decide`` accepts; the same headings
    and lengths not offered are refused."""
    state = battle([unit("n-sp", "spearmen", 20, 24, 10), unit("n-peg", "pegasus_knights", 3, 10, 10), IDLE],
                   [unit("s-sp", "spearmen", 20, 24, 19, 180), unit("s-arch", "archers", 10, 8, 20, 180)], air=air)
    offered = RULES.legal_commands(state, "north")
    moves = [c for c in offered if isinstance(c, cmd.Move)]
    assert moves
    for command in offered:
        if not isinstance(command, cmd.EndPhase):
            decide(state, command)
    refused = 0
    for command in movement_commands(RULES, state, "north"):
        for distance in (command.distance + 6 * IN, command.distance + 12 * IN):
            other = cmd.Move(player="north", unit=command.unit, heading=command.heading, distance=distance,
                             march=command.march)
            if other in moves:
                continue
            with pytest.raises(RuleError):
                decide(state, other)
            refused += 1
    assert refused


def test_fly_high_offered_in_the_air_takes_its_characters_along():
    """Fly High: the unit (and its characters) leave the battle; tried before it is offered, it still folds the
    flight before finding the characters that go with it."""
    state = battle([unit("n-peg", "pegasus_knights", 3, 10, 10), IDLE], [unit("s-sp", "spearmen", 20, 30, 40, 180)],
                   air=("n-peg",))
    fly_high = cmd.FlyHigh(player="north", unit="n-peg")
    assert fly_high in RULES.legal_commands(state, "north")
    _, after = decide(state, fly_high)
    assert not after.units["n-peg"].in_play
