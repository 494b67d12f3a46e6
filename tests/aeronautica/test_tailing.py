"""Determine Tailing (rulebook p.30, p.23), the End phase's step 3.

"To be in a Tailing position, the Tailing aircraft must have its target within its Front Arc whilst
simultaneously being wholly within the target's Rear Arc, must be within Short or Medium range of its
target and must be at the same Altitude or at one Altitude level above or below it" (p.30). "An aircraft
which is in a Spin cannot be tailed" (p.23).

Geometry is in axial hexes (flat-top, N = (0, -1)); the target sits at the origin facing north, so its
Rear Arc is the 60 degrees to the south.
"""

from __future__ import annotations

from aero_events.hexgrid import Arc, Hex, Pose, arcs_containing, in_arc
from aero_events.rulesets.aeronautica.commands import ChooseFirstMover, PassFiring
from aero_events.rulesets.aeronautica.events import (
    StallRecovered,
    TailingDetermined,
    TurnEnded,
)
from aero_events.rulesets.aeronautica.state import FLYING, LANDED, TAILING_FIRE, AircraftState, GameState
from aero_events.rulesets.aeronautica.tailing import is_tailing, tailing_candidates, tailing_target
from tests.aeronautica.helpers import IMPERIUM, ORKS, N, Plane, Table, of_type

N_, NE_, SE_, S_, SW_, NW_ = range(6)
STRAIGHT = {"stage_hexes": (1,), "facings": (0,)}  # Ace Manoeuvre 1 (p.16)


def plane(aircraft_id: str, owner: str, hex: tuple[int, int], facing: int = N_, altitude: int = 3,
          **changes) -> AircraftState:
    return AircraftState(id=aircraft_id, owner=owner, profile="thunderbolt", hex=Hex(*hex), facing=facing, speed=4,
                         altitude=altitude, structure=3, starting_structure=3, points=21, **changes)


def state_of(*planes: AircraftState) -> GameState:
    return GameState(players=(IMPERIUM, ORKS), board="16x16h", last_turn=12, aircraft={p.id: p for p in planes})


TARGET = plane("orks-1", ORKS, (0, 0))


def test_an_aircraft_directly_behind_within_short_range_is_tailing_p30():
    tailer = plane("imperium-1", IMPERIUM, (0, 3))
    assert is_tailing(tailer, TARGET)
    assert tailing_target(state_of(tailer, TARGET), tailer) == "orks-1"


def test_medium_range_tails_but_long_range_does_not_p30():
    assert is_tailing(plane("imperium-1", IMPERIUM, (0, 7)), TARGET)  # 7 hexes: Medium
    assert not is_tailing(plane("imperium-1", IMPERIUM, (0, 8)), TARGET)  # 8 hexes: Long


def test_same_altitude_or_one_level_apart_p30():
    for altitude in (2, 3, 4):
        assert is_tailing(plane("imperium-1", IMPERIUM, (0, 3), altitude=altitude), TARGET)
    for altitude in (1, 5):
        assert not is_tailing(plane("imperium-1", IMPERIUM, (0, 3), altitude=altitude), TARGET)


def test_the_target_must_be_in_the_tailers_front_arc_p30():
    facing_away = plane("imperium-1", IMPERIUM, (0, 3), facing=S_)
    assert not is_tailing(facing_away, TARGET)
    turned_aside = plane("imperium-1", IMPERIUM, (0, 3), facing=NE_)
    assert not in_arc(turned_aside.pose, TARGET.hex, Arc.FRONT)
    assert not is_tailing(turned_aside, TARGET)


def test_a_hex_on_the_rear_arc_boundary_is_not_wholly_within_it_p30():
    # (2, 2) from the target is cut by the line between its Rear and Right Arcs: in both for targeting,
    # wholly within neither. From there, facing north, the tailer has the target in its Front Arc (on the
    # boundary, which counts for targeting, p.21) at Short range and the same Altitude: only "wholly" fails.
    boundary = plane("imperium-1", IMPERIUM, (2, 2))
    assert arcs_containing(TARGET.pose, boundary.hex) >= {Arc.REAR, Arc.RIGHT}
    assert in_arc(boundary.pose, TARGET.hex, Arc.FRONT)
    assert not is_tailing(boundary, TARGET)
    # One hex over, (1, 2) is wholly within the Rear Arc: tailing.
    inside = plane("imperium-1", IMPERIUM, (1, 2))
    assert is_tailing(inside, TARGET)


def test_a_spinning_aircraft_cannot_be_tailed_p23():
    tailer = plane("imperium-1", IMPERIUM, (0, 3))
    assert not is_tailing(tailer, plane("orks-1", ORKS, (0, 0), spinning=True))


def test_a_spinning_aircraft_does_not_tail_p29():
    # "Whilst in a Spin, an aircraft can do nothing else; ... may not fire" (p.29).
    assert not is_tailing(plane("imperium-1", IMPERIUM, (0, 3), spinning=True), TARGET)


def test_friendly_landed_and_gone_aircraft_are_not_tailed_p30():
    tailer = plane("imperium-1", IMPERIUM, (0, 3))
    assert not is_tailing(tailer, plane("imperium-2", IMPERIUM, (0, 0)))
    assert not is_tailing(tailer, plane("orks-1", ORKS, (0, 0), status=LANDED, altitude=0))
    assert not is_tailing(tailer, plane("orks-1", ORKS, (0, 0), status="destroyed"))
    assert not is_tailing(plane("imperium-1", IMPERIUM, (0, 3), status="disengaged"), TARGET)


def test_several_targets_the_closest_is_tailed_then_the_lowest_id():
    tailer = plane("imperium-1", IMPERIUM, (0, 6))
    near = plane("orks-2", ORKS, (0, 3))
    far = plane("orks-1", ORKS, (0, 0))
    state = state_of(tailer, near, far)
    assert [t.id for t in tailing_candidates(state, tailer)] == ["orks-2", "orks-1"]
    assert tailing_target(state, tailer) == "orks-2"
    # Two at the same distance: the lower id.
    twin_b = plane("orks-b", ORKS, (0, 3), facing=N_)
    twin_a = plane("orks-a", ORKS, (-1, 4), facing=N_)
    tailer = plane("imperium-1", IMPERIUM, (0, 6))
    assert is_tailing(tailer, twin_a) and is_tailing(tailer, twin_b)
    assert tailing_target(state_of(tailer, twin_a, twin_b), tailer) == "orks-a"


def test_the_end_phase_determines_tailing_after_recovery_and_clears_it_later_p29_p30():
    # imperium-1 follows orks-1 north, three hexes behind after both fly straight at Speed 4.
    table = Table([Plane("thunderbolt", (8, 12), facing=N, speed=4)], [Plane("dakkajet", (8, 9), facing=N, speed=4)])
    table.start_movement({"imperium-1": 1, "orks-1": 1})
    table.move("imperium-1", **STRAIGHT)
    table.move("orks-1", **STRAIGHT)
    events = table.pass_firing()
    determined = of_type(events, TailingDetermined)
    assert determined == [TailingDetermined(aircraft="imperium-1", target="orks-1"),
                          TailingDetermined(aircraft="orks-1", target=None)]  # initiative holder's first
    assert not of_type(events, StallRecovered)
    last_tailing = max(i for i, e in enumerate(events) if isinstance(e, TailingDetermined))
    assert isinstance(events[last_tailing + 1], TurnEnded)
    assert table.aircraft("imperium-1").tailing == "orks-1"
    # Turn 2: imperium-1 may fire in the Tailing Fire phase (it passes); then the Dakkajet dives and the
    # Thunderbolt climbs: two Altitude levels apart, no longer tailing.
    table.choose({"imperium-1": 1, "orks-1": 1})
    assert table.state.phase == TAILING_FIRE and table.state.to_act == IMPERIUM
    table.apply(PassFiring(player=IMPERIUM))
    table.apply(ChooseFirstMover(player=table.state.initiative, first=IMPERIUM))
    table.move("imperium-1", altitude=+1, **STRAIGHT)
    table.move("orks-1", altitude=-1, **STRAIGHT)
    events = table.pass_firing()
    assert TailingDetermined(aircraft="imperium-1", target=None) in of_type(events, TailingDetermined)
    assert table.aircraft("imperium-1").tailing is None
    assert table.aircraft("imperium-1").status == FLYING


def test_tailing_is_determined_from_the_target_pose_not_the_tailer_facing():
    # Facing matters for the target's Rear Arc: the same two hexes, the target turned to face south.
    tailer = plane("imperium-1", IMPERIUM, (0, 3))
    turned = plane("orks-1", ORKS, (0, 0), facing=S_)
    assert not is_tailing(tailer, turned)
    assert Pose(turned.hex, turned.facing) == turned.pose
