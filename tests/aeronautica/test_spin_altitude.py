"""An aircraft cannot remain above its Max Altitude (p.18): one that Stalled by climbing past it and fails
to recover (p.29) starts its Spin from its Max Altitude, not from the height it briefly reached."""

from aero_events.rulesets.aeronautica.commands import PassFiring
from aero_events.rulesets.aeronautica.events import SpinEntered, Stalled
from tests.aeronautica.helpers import N, Plane, Table, of_type, one


def test_a_stall_above_max_altitude_spins_from_max_altitude_p18_p29():
    # A Dakkajet (Max Altitude 4) at Altitude 4 and Speed 5 climbs 2: Altitude 6, Speed 4, Stalled.
    table = Table([Plane("thunderbolt", (3, 12), facing=N, speed=4, altitude=2)],
                  [Plane("dakkajet", (12, 12), facing=N, speed=5, altitude=4)])
    table.start_movement({"imperium-1": 1, "orks-1": 1})
    table.move("imperium-1", stage_hexes=(1,), facings=(0,))
    events = table.move("orks-1", stage_hexes=(1,), facings=(0,), altitude=2)
    assert "above its Max Altitude 4" in one(events, Stalled).reason
    assert table.aircraft("orks-1").altitude == 6
    table.dice.enter([1])  # Handling 4+ failed: a Spin
    events = []
    while table.state.to_act is not None:
        events += table.apply(PassFiring(player=table.state.to_act))
    spin = one(events, SpinEntered)
    assert spin.altitude == 4
    assert table.aircraft("orks-1").altitude == 4 and table.aircraft("orks-1").spinning
    assert of_type(events, Stalled) == []
