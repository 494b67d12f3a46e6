"""The Tailing Fire phase (rulebook p.13, p.23) and the Tail Gunner special rule (p.24).

Tailing is set by the End phase of the previous turn (p.30) through ``TailingDetermined``; here the
positions give it directly, or the real End phase determines it.
"""

from __future__ import annotations

from aero_events.rulesets.aeronautica.commands import FireWeapons, PassFiring
from aero_events.rulesets.aeronautica.events import (
    AircraftDestroyed,
    PhaseBegan,
    ReturnFireOffered,
    TailingDetermined,
    VolleyDeclared,
    WeaponFired,
)
from aero_events.rulesets.aeronautica.state import FIRING, MOVEMENT, TAILING_FIRE
from tests.aeronautica.firing_helpers import IMPERIUM, ORKS, Range, at, of_type, one, plane
from tests.aeronautica.helpers import N as NORTH
from tests.aeronautica.helpers import Plane, Table

AUTOCANNONS = 1
QUAD, TURRET, TAIL_GUN = 0, 1, 2  # Fighta Bommer


def test_tailing_determined_sets_the_tailing_aircraft_and_clears_it_p30():
    game = Range(plane("imperium-1", "thunderbolt", at(0, 3)), plane("orks-1", "dakkajet", at(0, 0)))
    game.record(TailingDetermined(aircraft="imperium-1", target="orks-1"))
    assert game.aircraft("imperium-1").tailing == "orks-1"
    game.record(TailingDetermined(aircraft="imperium-1", target=None))
    assert game.aircraft("imperium-1").tailing is None


def test_with_no_aircraft_tailing_the_phase_passes_by_itself_p13():
    table = Table([Plane("thunderbolt", (8, 12), NORTH)], [Plane("dakkajet", (8, 4), 3, speed=5)])
    events = table.choose({"imperium-1": 1, "orks-1": 1})
    phases = [e.phase for e in of_type(events, PhaseBegan)]
    assert phases[-2:] == [TAILING_FIRE, MOVEMENT]


def tailing_game(initiative: str = IMPERIUM, **bommer) -> Range:
    """imperium-1 Tailing orks-1 (a Fighta Bommer, 3 hexes ahead); orks-2 Tailing imperium-2."""
    return Range(plane("imperium-1", "thunderbolt", at(0, 3), tailing="orks-1"),
                 plane("orks-1", "fighta_bommer", at(0, 0), **bommer),
                 plane("imperium-2", "thunderbolt", at(8, 0)),
                 plane("orks-2", "dakkajet", at(8, 3), tailing="imperium-2"),
                 plane("orks-3", "dakkajet", at(-8, 0)),
                 phase=TAILING_FIRE, first=None, initiative=initiative)


def test_the_initiative_winner_fires_first_in_the_tailing_fire_phase_p13():
    """p.13: "The player that won the initiative always chooses an aircraft and fires first"."""
    game = tailing_game(initiative=ORKS)
    assert game.state.to_act == ORKS
    game = tailing_game(initiative=IMPERIUM)
    assert game.state.to_act == IMPERIUM


def test_only_tailing_aircraft_fire_and_only_at_the_tailed_aircraft_p13():
    """p.13: "Aircraft that are Tailing another aircraft ... may fire at the tailed aircraft"."""
    game = tailing_game()
    assert game.refused_fire("imperium-2").page == 13  # not tailing
    game2 = Range(plane("imperium-1", "thunderbolt", at(0, 3), tailing="orks-1"),
                  plane("orks-1", "fighta_bommer", at(0, 0)), plane("orks-4", "dakkajet", at(1, 0)),
                  phase=TAILING_FIRE, first=None, initiative=IMPERIUM)
    err = game2.refused_fire("imperium-1", (AUTOCANNONS, "orks-4"))
    assert err.page == 13
    offered = {s.target for volley in game2.fire_options("imperium-1") for s in volley}
    assert offered == {"orks-1"}


def test_players_alternate_tailing_aircraft_and_ammo_is_expended_as_normal_p13():
    game = tailing_game()
    game.fire("imperium-1", (AUTOCANNONS, "orks-1"), dice=[1, 1])
    # orks-1 has Tail Gunner weapons and was fired upon: it may return fire first (p.24).
    assert game.state.return_fire is not None
    game.apply(FireWeapons(player=ORKS, aircraft="orks-1"))
    assert game.state.to_act == ORKS
    game.fire("orks-2", (0, "imperium-2"), dice=[1] * 8)
    assert game.state.phase == MOVEMENT  # every Tailing aircraft has fired


def test_a_tailing_aircraft_may_also_fire_in_the_firing_phase_p13():
    """p.13: the Tailing Fire phase is "effectively granting a bonus Firing phase to Tailing aircraft"."""
    game = tailing_game()
    game.fire("imperium-1", (AUTOCANNONS, "orks-1"), dice=[1, 1])
    assert game.aircraft("imperium-1").fired
    game.apply(FireWeapons(player=ORKS, aircraft="orks-1"))  # no Tail Gunner return fire
    game.record(PhaseBegan(phase=FIRING))
    assert not game.aircraft("imperium-1").fired
    assert any(isinstance(c, FireWeapons) and c.aircraft == "imperium-1" for c in game.legal(IMPERIUM))


def test_passing_in_the_tailing_fire_phase_p13():
    game = tailing_game()
    game.apply(PassFiring(player=IMPERIUM))
    assert game.state.to_act == ORKS
    game.apply(PassFiring(player=ORKS))
    assert game.state.phase == MOVEMENT


def test_tail_gunner_returns_fire_even_when_destroyed_by_the_tailing_fire_p24():
    """p.24: "Once per turn, when fired upon by an enemy aircraft in the Tailing Fire phase, an aircraft
    may immediately return fire with any weapons that have this special rule ... even if the aircraft is
    destroyed"."""
    game = tailing_game(structure=1)
    events = game.fire("imperium-1", (AUTOCANNONS, "orks-1"), dice=[6, 1, 6])
    assert one(events, AircraftDestroyed).aircraft == "orks-1"
    assert one(events, ReturnFireOffered) == ReturnFireOffered(aircraft="orks-1", target="imperium-1")
    assert game.state.to_act == IMPERIUM or game.state.to_act == ORKS
    legal = game.legal(ORKS)
    assert FireWeapons(player=ORKS, aircraft="orks-1") in legal  # declining
    events = game.fire("orks-1", (TURRET, "imperium-1"), (TAIL_GUN, "imperium-1"), dice=[5, 1, 1, 6, 4, 6])
    fired = of_type(events, WeaponFired)
    assert {f.weapon_index for f in fired} == {TURRET, TAIL_GUN}
    assert of_type(events, VolleyDeclared)[0].kind == "tail_gunner"
    assert game.aircraft("orks-1").tail_gunner_used
    assert game.aircraft("imperium-1").structure < 3


def test_tail_gunner_fires_only_tail_gunner_weapons_at_the_tailing_aircraft_p24():
    game = tailing_game()
    game.fire("imperium-1", (AUTOCANNONS, "orks-1"), dice=[1, 1])
    err = game.refused_fire("orks-1", (QUAD, "imperium-1"))
    assert err.page == 24
    err = game.refused_fire("orks-2", (0, "imperium-2"))
    assert err.page == 24  # the return fire comes first


def test_tail_gunner_is_once_per_turn_p24():
    game = Range(plane("imperium-1", "thunderbolt", at(0, 3), tailing="orks-1"),
                 plane("imperium-2", "thunderbolt", at(1, 3), tailing="orks-1"),
                 plane("orks-1", "fighta_bommer", at(0, 0)), plane("orks-3", "dakkajet", at(-8, 0)),
                 phase=TAILING_FIRE, first=None, initiative=IMPERIUM)
    game.fire("imperium-1", (AUTOCANNONS, "orks-1"), dice=[1, 1])
    game.fire("orks-1", (TAIL_GUN, "imperium-1"), dice=[1])
    assert game.state.to_act == IMPERIUM  # orks-1 fired back; the orks have no Tailing aircraft
    events = game.fire("imperium-2", (AUTOCANNONS, "orks-1"), dice=[1, 1])
    assert not of_type(events, ReturnFireOffered)


def test_a_turn_of_tailing_through_the_real_end_phase_p13_p30():
    """The End phase determines Tailing (p.30); the next turn's Tailing Fire phase lets it fire first."""
    table = Table([Plane("thunderbolt", (8, 14), NORTH)], [Plane("dakkajet", (8, 8), NORTH, speed=4)])
    table.start_movement({"imperium-1": 1, "orks-1": 1})
    table.move("imperium-1", stage_hexes=(1,), facings=(0,))
    table.move("orks-1", stage_hexes=(1,), facings=(0,))
    table.apply(PassFiring(player=table.state.to_act))
    table.apply(PassFiring(player=table.state.to_act))
    assert table.state.turn == 2 and table.aircraft("imperium-1").tailing == "orks-1"
    table.choose({"imperium-1": 1, "orks-1": 1}, initiative=(2, 5))  # the orks win the initiative
    assert table.state.phase == TAILING_FIRE and table.state.to_act == IMPERIUM  # orks have no tailer
    options = [c for c in table.legal(IMPERIUM) if isinstance(c, FireWeapons) and c.shots]
    assert options and all(s.target == "orks-1" for c in options for s in c.shots)
    table.dice.enter([1] * 8)  # Medium range: Twin Lascannons 2 dice, Quad Autocannons 6
    table.apply(FireWeapons(player=IMPERIUM, aircraft="imperium-1",
                            shots=tuple(s for c in options for s in c.shots if len(c.shots) == 2)))
    assert table.state.phase == MOVEMENT
