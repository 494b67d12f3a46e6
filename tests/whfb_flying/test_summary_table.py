"""The Fly Summary Table as a test: each row's Movement, Shooting and Combat entries checked against the rules.
"""

from __future__ import annotations

import pytest

from aero_events.core import DiceCup, RuleError, TapeDice
from aero_events.rulesets.whfb_flying import commands as cmd
from aero_events.rulesets.whfb_flying.charges import max_reach
from aero_events.rulesets.whfb_flying.combat import fighters, initiative, rank_bonus
from aero_events.rulesets.whfb_flying.events import FlewHigh
from aero_events.rulesets.whfb_flying.fleeing import flee
from aero_events.rulesets.whfb_flying.shooting import can_target, target_modifiers, why_not_shoot
from aero_events.rulesets.whfb_flying.state import Combat
from aero_events.rulesets.whfb_flying.turn import Emitter

from .helpers import IN, RULES, battle, decide, of_type, unit, with_unit

IDLE = unit("n-idle", "spearmen", 10, 44, 2)

#: Fly Summary Table rows for the moves a unit keeps for a turn: (move, allowance in M, may shoot, to-hit modifier
#: against it, Initiative change, may a ground unit charge it).
ROWS = [
    ("take off", 1, False, +1, -1, False),  # "Cannot March or Charge; normal M" | "Cannot Shoot; +1 To Hit" | "-1 I"
    ("land", 1, False, +1, -1, True),  # the same row, landed ("eligible for a ground charge")
    ("fly", 1, True, 0, 0, False),  # "Normal M; Can reform" | "Can Shoot with Move penalty" | "cannot charge"
    ("soar", 2, False, -1, 0, False),  # "2M movement" | "Cannot Shoot; -1 To Hit" | "Ground units cannot charge"
]
COMMAND = {"take off": cmd.TakeOff, "land": cmd.Land, "fly": cmd.Fly, "soar": cmd.Soar}


@pytest.mark.parametrize("move, allowance, shoots, to_hit, initiative_change, ground_charge", ROWS)
def test_fly_summary_table_rows(move, allowance, shoots, to_hit, initiative_change, ground_charge):
    """Fly Summary Table: Take Off/Land, Fly and Soar: movement, shooting and combat."""
    in_air = move in ("land", "fly", "soar")
    state = battle([unit("n-peg", "pegasus_knights", 3, 24, 4), IDLE], [unit("s-sp", "spearmen", 20, 24, 30, 180)],
                   air=("n-peg",) if in_air else ())
    command = COMMAND[move]
    decide(state, command(player="north", unit="n-peg", heading=0, distance=allowance * 8 * IN))
    with pytest.raises(RuleError):
        decide(state, command(player="north", unit="n-peg", heading=0, distance=allowance * 8 * IN + 1))
    flown = with_unit(state, "n-peg", flight=move, moved=True, in_air=move != "land")
    peg = flown.units["n-peg"]
    assert (why_not_shoot(RULES, flown, peg) is None) is shoots
    assert sum(m.value for m in target_modifiers(peg)) == to_hit
    assert initiative(RULES, flown, peg) - RULES.profile(peg).profile.I == initiative_change
    enemy_turn = battle([unit("n-peg", "pegasus_knights", 3, 24, 16, 180)], [unit("s-sp", "spearmen", 20, 24, 8),
                                                                              unit("s-idle", "spearmen", 10, 4, 2)],
                        active="south")
    enemy_turn = with_unit(enemy_turn, "n-peg", flight=move, in_air=move != "land")
    try:
        decide(enemy_turn, cmd.Charge(player="south", unit="s-sp", target="n-peg"))
        charged = True
    except RuleError:
        charged = False
    assert charged is ground_charge


def test_fly_summary_table_intercept_row():
    """Fly Summary Table, Intercept: "Air to Air Charge; 2M + D6" | "may shoot (breath) with -1 to Hit for both"
    | "+1 Initiative; all models attack; no rank bonuses"."""
    state = battle([unit("n-peg", "pegasus_knights", 3, 10, 10)], [unit("s-harp", "harpies", 5, 30, 30)],
                   air=("n-peg", "s-harp"))
    peg, harp = state.units["n-peg"], state.units["s-harp"]
    assert max_reach(RULES, peg, "intercept") == (2 * 8 + 6) * IN
    assert initiative(RULES, state, peg, charging=True, kind="intercept") == 4
    combat = Combat(charger="n-peg", target="s-harp", kind="intercept", side="front")
    assert fighters(RULES, state, combat, harp, peg) == (5, 0)
    assert rank_bonus(RULES, harp) == 0


def test_fly_summary_table_swoop_row():
    """Fly Summary Table, Swoop: "Air to Ground Charge; M + D6 to the target; M + D6 beyond it" | "Stand and
    Shoot with a -1 To Hit; Aerials may shoot (breath) target if they haven't this turn (+1 to Hit)" | "Base
    contact rules for striking; +1 Initiative; +1 Combat Resolution"."""
    state = battle([unit("n-peg", "pegasus_knights", 3, 10, 10)], [unit("s-sp", "spearmen", 20, 30, 30)],
                   air=("n-peg",))
    peg, spears = state.units["n-peg"], state.units["s-sp"]
    assert max_reach(RULES, peg, "swoop") == (8 + 6) * IN
    assert initiative(RULES, state, peg, charging=True, kind="swoop") == 4
    combat = Combat(charger="n-peg", target="s-sp", kind="swoop", side="left", contacts=2)
    assert fighters(RULES, state, combat, peg, spears) == (2, 0)
    assert RULES.options.swoop_stand_and_shoot_modifier == -1


def test_fly_summary_table_fly_high_row():
    """Fly Summary Table, Fly High: "Flee vertically on a D6 4+. Flee move out of the game" | "Cannot shoot or be
    targeted" | "Out of reach of ground and aerial combat"."""
    state = battle([unit("n-peg", "pegasus_knights", 3, 24, 10), unit("n-arch", "archers", 10, 10, 4)],
                   [unit("s-harp", "harpies", 5, 24, 20)], air=("n-peg", "s-harp"))
    out = Emitter(state, RULES.evolve)
    flee(RULES, out, DiceCup(TapeDice([4])), "n-peg", (24 * IN, 0), reason="test")
    assert of_type(out.events, FlewHigh)
    gone = out.state.units["n-peg"]
    assert can_target(RULES, out.state, out.state.units["s-harp"], gone, RULES.profile(gone).weapons[0])
    with pytest.raises(RuleError):
        decide(replace_active(out.state, "south"), cmd.Intercept(player="south", unit="s-harp", target="n-peg"))


def replace_active(state, player):
    from .helpers import replace

    return replace(state, active=player)
