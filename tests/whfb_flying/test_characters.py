"""Characters and units (host, for Fly's "Unit joining is allowed"): a character leaves the unit it joined in a
later Movement phase and flies alone; a joined character in a Swoop strikes beside the models in base contact."""

from __future__ import annotations

import pytest

from aero_events.core import DataError, RuleError
from aero_events.rulesets.whfb_flying import commands as cmd
from aero_events.rulesets.whfb_flying import events as ev

from .helpers import IN, battle, decide, of_type, replace, unit, with_unit


def _joined():
    """South's Lord on Wyvern has joined its Harpies (Fly) this Movement phase."""
    north = [unit("n-peg", "pegasus_knights", 3, 10, 30, 180), unit("n-idle", "spearmen", 10, 44, 2)]
    south = [unit("s-wyv", "wyvern_lord", 1, 30, 10), unit("s-harp", "harpies", 5, 36, 10)]
    state = battle(north, south, air=("s-wyv", "s-harp", "n-peg"), active="south")
    _, state = decide(state, cmd.Fly(player="south", unit="s-wyv", heading=0, distance=6 * IN, join="s-harp"))
    return state


def _next_movement_phase(state):
    return with_unit(with_unit(state, "s-wyv", moved=False, flight=""), "s-harp", moved=False, flight="")


def leave(state, distance=6 * IN, heading=0):
    return decide(state, cmd.LeaveUnit(player="south", unit="s-wyv", heading=heading, distance=distance))


def test_a_character_leaves_its_unit_in_a_later_movement_phase_and_flies_alone():
    """Host, characters leaving units: in a later Movement phase, before its unit moves, a joined character moves
    out up to M (a Fly move in the air: "Each Flying unit may only perform one of the following Fly moves") and
    is a unit of its own again; the unit may still move."""
    with pytest.raises(RuleError, match="has made its move this phase"):
        leave(_joined())
    events, after = leave(_next_movement_phase(_joined()))
    left = of_type(events, ev.CharacterLeft)[0]
    assert (left.unit, left.in_air, left.pose.y) == ("s-harp", True, 16 * IN)
    wyvern = after.units["s-wyv"]
    assert wyvern.in_play and not wyvern.joined and wyvern.in_air and wyvern.flight == "fly" and wyvern.moved
    assert "s-wyv" in {u.id for u in after.side("south")}
    decide(after, cmd.Fly(player="south", unit="s-harp", heading=9000, distance=4 * IN))  # the unit still moves


def test_a_character_leaving_must_end_clear_of_its_unit_within_its_move_before_the_unit_moves():
    state = _next_movement_phase(_joined())
    with pytest.raises(RuleError, match="cannot end on another unit"):
        leave(state, distance=IN)
    with pytest.raises(RuleError, match="moves up to 6"):
        leave(state, distance=7 * IN)
    moved = with_unit(state, "s-harp", moved=True)
    with pytest.raises(RuleError, match="before the unit moves"):
        leave(moved)
    with pytest.raises(RuleError, match="not a character .* in a unit"):
        decide(state, cmd.LeaveUnit(player="south", unit="s-harp", heading=0, distance=4 * IN))


def test_a_joined_character_moves_with_its_unit():
    """Host: a joined character moves, flees and flies high with its unit (it is where its unit is)."""
    _, after = decide(_next_movement_phase(_joined()), cmd.Fly(player="south", unit="s-harp", heading=0,
                                                               distance=4 * IN))
    assert after.units["s-wyv"].pose == after.units["s-harp"].pose


def test_a_joined_character_in_a_swoop_strikes_beside_the_models_in_base_contact():
    """Swoop (Combat): "Flying models bunch together on the Swoop according to their formation and can only attack
    enemy models they are in base contact with": along the spearmen's 80 mm flank the Captain's 25 mm base comes
    first, then two 25 mm Harpies; the Captain strikes with its own Attacks, two Harpies with theirs."""
    north = [unit("n-fly", "harpies", 5, 14, 16, 90), unit("n-cap", "pegasus_captain", 1, 14, 16, 90),
             unit("n-idle", "spearmen", 10, 44, 2)]
    south = [unit("s-sp", "spearmen", 20, 24, 18)]
    state = battle(north, south, air=("n-fly", "n-cap"))
    state = with_unit(state, "n-cap", joined="n-fly")
    _, state = decide(state, cmd.Swoop(player="north", unit="n-fly", target="s-sp", flank="left"))
    events, state = decide(state, cmd.React(player="south", choice="hold"), [6])
    assert of_type(events, ev.ChargeResolved)[0].contacts == 2
    events, after = decide(state, cmd.EndPhase(player="north"))
    blows = {e.attacker: e for e in of_type(events, ev.AttackResolved) if e.attack == "close combat (swoop)"}
    assert blows["n-fly"].dice == 2 and blows["n-cap"].dice == 3 and blows["n-cap"].target == "s-sp"
    assert "Initiative 6" in blows["n-cap"].modifiers  # I5 +1 in a Swoop
    exit_move = [e for e in of_type(events, ev.UnitMoved) if e.how == "swoop exit"]
    assert exit_move and after.units["n-cap"].pose == after.units["n-fly"].pose == exit_move[0].pose  # out together


def test_a_character_may_be_deployed_inside_a_friendly_unit_and_takes_off_with_it():
    """Host: a character of one model may deploy inside a friendly unit, as one that joined it; it is where its unit
    is, in the air when the unit takes off, and has made the unit's fly move (Take Off/Land: -1 Initiative)."""
    north = [unit("n-peg", "pegasus_knights", 3, 10, 10), replace(unit("n-cap", "pegasus_captain", 1, 10, 10),
                                                                  joined="n-peg")]
    state = battle(north, [unit("s-sp", "spearmen", 20, 30, 30, 180)])
    assert state.units["n-cap"].joined == "n-peg" and not state.units["n-cap"].in_play
    _, after = decide(state, cmd.TakeOff(player="north", unit="n-peg"))
    captain = after.units["n-cap"]
    assert captain.in_air and captain.flight == "take off" and captain.pose == after.units["n-peg"].pose
    for wrong, why in (("s-sp", "not a friendly unit"), ("n-ghost", "not a friendly unit")):
        bad = [north[0], replace(north[1], joined=wrong)]
        with pytest.raises(DataError, match=why) as err:
            battle(bad, [unit("s-sp", "spearmen", 20, 30, 30, 180)])
        assert (err.value.location, err.value.field) == ("n-cap", "joined")
    with pytest.raises(DataError, match="only a character"):
        battle([north[1], replace(north[0], joined="n-cap")], [unit("s-sp", "spearmen", 20, 30, 30, 180)])
