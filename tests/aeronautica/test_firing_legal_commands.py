"""The choices offered in the Firing phase (p.20-21), counted by hand, like chess "perft" counts.

Per eligible aircraft: every choice of one target (or none) per Fire Arc, each weapon at a chosen target
its arcs reach (a variant per target when it reaches two), limited-Ammo weapons also held back; only
shots that roll a die that could hit are offered (firing.py's module notes); plus PassFiring.
"""

from __future__ import annotations

from aero_events.core import ManualDice
from aero_events.rulesets.aeronautica.commands import FireWeapons, PassFiring
from aero_events.rulesets.aeronautica.events import Shot
from tests.aeronautica.firing_helpers import IMPERIUM, ORKS, Range, S, at, bunker, plane


def shots(*pairs: tuple[int, str]) -> tuple[Shot, ...]:
    return tuple(Shot(weapon_index=i, target=t) for i, t in pairs)


def test_one_target_per_arc_two_enemies_ahead_give_three_choices_p21():
    """A Thunderbolt (two Front weapons) with two Dakkajets ahead at Medium range: hold, fire both
    weapons at the first, or both at the second (p.21: one target per Fire Arc)."""
    game = Range(plane("imperium-1", "thunderbolt", at(0, 0)), plane("orks-1", "dakkajet", at(0, -5), S),
                 plane("orks-2", "dakkajet", at(1, -6), S))
    assert set(game.fire_options("imperium-1")) == {(), shots((0, "orks-1"), (1, "orks-1")),
                                                     shots((0, "orks-2"), (1, "orks-2"))}
    assert PassFiring(player=IMPERIUM) in game.legal(IMPERIUM)
    assert len(game.legal(IMPERIUM)) == 4


def test_limited_ammo_weapons_are_offered_both_fired_and_held_p22():
    game = Range(plane("imperium-1", "thunderbolt", at(0, 0),
                       weapons=("twin_lascannons", "quad_autocannons", "skystrike_missiles")),
                 plane("orks-1", "dakkajet", at(0, -5), S))
    assert set(game.fire_options("imperium-1")) == {
        (), shots((0, "orks-1"), (1, "orks-1")), shots((0, "orks-1"), (1, "orks-1"), (2, "orks-1"))}


def test_a_weapon_that_could_roll_nothing_is_not_offered_p22():
    """At Short range the Twin Lascannons have no Firepower (0-2-1): only the Autocannons are offered."""
    game = Range(plane("imperium-1", "thunderbolt", at(0, 0)), plane("orks-1", "dakkajet", at(0, -3), S))
    assert set(game.fire_options("imperium-1")) == {(), shots((1, "orks-1"))}


def test_a_target_on_an_arc_line_and_multi_arc_weapons_are_enumerated_p21():
    """A Fighta Bommer: Quad Big Shootas (Front), Turret Big Shootas (Rear/Left/Right, Up), Tail Gun (Rear).
    T sits on the Front/Right line, U in the Right Arc. Choices per arc: Front {-, T} x Right {-, T, U}."""
    game = Range(plane("orks-1", "fighta_bommer", at(0, 0)), plane("imperium-1", "thunderbolt", at(1, -2), S),
                 plane("imperium-2", "thunderbolt", at(3, 0), S), first=ORKS)
    assert set(game.fire_options("orks-1")) == {
        (), shots((1, "imperium-1")), shots((1, "imperium-2")), shots((0, "imperium-1")),
        shots((0, "imperium-1"), (1, "imperium-1")), shots((0, "imperium-1"), (1, "imperium-2"))}


def test_a_weapon_reaching_two_chosen_targets_is_offered_at_each_p21():
    """Targets to the Left and to the Right of a Fighta Bommer: the turret (Left and Right) may take either."""
    game = Range(plane("orks-1", "fighta_bommer", at(0, 0)), plane("imperium-1", "thunderbolt", at(-3, 0), S),
                 plane("imperium-2", "thunderbolt", at(3, 0), S), first=ORKS)
    assert set(game.fire_options("orks-1")) == {(), shots((1, "imperium-1")), shots((1, "imperium-2"))}


def test_a_strafing_run_is_never_offered_with_a_target_in_the_air_p26():
    """At Altitude 1 a Thunderbolt may strafe a bunker ahead or fire at a Dakkajet behind... it has no
    rear weapons; a Marauder may: Front Lascannon at the bunker would be a Strafing Run."""
    game = Range(plane("imperium-1", "marauder", at(0, 0), altitude=1), plane("orks-1", "dakkajet", at(0, 3), S,
                                                                              altitude=1),
                 ground_targets=[bunker("bunker", at(0, -5))])
    for volley in game.fire_options("imperium-1"):
        targets = {s.target for s in volley}
        assert not ({"bunker", "orks-1"} <= targets)
    assert shots((0, "bunker")) in game.fire_options("imperium-1")


def test_every_offered_volley_is_accepted():
    """Whatever legal_commands offers, FireWeapons accepts (dice: all 1s, so nothing is hit)."""
    game = Range(plane("imperium-1", "marauder", at(0, 0),
                       weapons=("lascannon", "dorsal_turret", "rear_turret", "bomb_bay", "skystrike_missiles")),
                 plane("orks-1", "dakkajet", at(0, -5), S), plane("orks-2", "fighta_bommer", at(1, 3), S, altitude=4),
                 plane("orks-3", "dakkajet", at(3, -1), S), plane("orks-4", "dakkajet", at(-2, -2), S))
    commands = [c for c in game.legal(IMPERIUM) if isinstance(c, FireWeapons)]
    assert len(commands) > 10
    for command in commands:
        branch = game.session.fork(game.session.seq, dice=ManualDice(ask=lambda p, r, count, sides: [1] * count))
        branch.apply(command)
        assert branch.state.aircraft["imperium-1"].fired
