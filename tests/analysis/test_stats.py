"""Per aircraft and per side statistics, checked against the events counted another way."""

from __future__ import annotations

from collections import Counter

import pytest

from aero_events.analysis.timeline import timeline_from_session
from aero_events.core import DiceRolled, Envelope
from aero_events.rulesets.aeronautica import events as ev
from aero_events.rulesets.aeronautica.statistics import (
    aircraft_stats,
    damage_by_turn,
    game_result,
    game_shots,
    shot_records,
    side_stats,
)
from tests.viz.games import eventful_session


@pytest.fixture(scope="module")
def timeline():
    return timeline_from_session(eventful_session())


def _events(timeline, name):
    return [env.event for env in timeline.envelopes if env.event.type_name() == name]


def test_aircraft_stats_count_what_the_events_say(timeline):
    rows = {row["aircraft"]: row for row in aircraft_stats(timeline).to_pylist()}
    assert set(rows) == set(timeline.initial.aircraft)
    fired = Counter(e.aircraft for e in _events(timeline, "ai.WeaponFired") if e.target is not None)
    hits = Counter()
    for e in _events(timeline, "ai.HitsScored"):
        hits[e.aircraft] += e.hits
    taken = Counter()
    for e in _events(timeline, "ai.DamageSuffered"):
        taken[e.aircraft] += e.hits
    dealt = Counter()
    for e in _events(timeline, "ai.DamageSuffered"):
        for firer in rows:
            if f"from {firer}'s" in e.cause:
                dealt[firer] += e.hits
    stalls = Counter(e.aircraft for e in _events(timeline, "ai.Stalled"))
    spins = Counter(e.aircraft for e in _events(timeline, "ai.SpinEntered"))
    for aircraft_id, row in rows.items():
        assert row["shots"] == fired[aircraft_id]
        assert row["hits"] == hits[aircraft_id]
        assert row["damage_taken"] == taken[aircraft_id]
        assert row["damage_dealt"] == dealt[aircraft_id]
        assert row["stalls"] == stalls[aircraft_id] and row["spins"] == spins[aircraft_id]
        assert row["status"] == timeline.final.aircraft[aircraft_id].status
    assert sum(row["hits"] for row in rows.values()) > 0 and sum(row["damage_dealt"] for row in rows.values()) > 0


def test_side_stats_are_the_sums_per_side_with_the_result(timeline):
    aircraft = aircraft_stats(timeline).to_pylist()
    sides = {row["side"]: row for row in side_stats(timeline).to_pylist()}
    over, winner, _ = game_result(timeline)
    assert over
    for side, row in sides.items():
        mine = [a for a in aircraft if a["side"] == side]
        assert row["aircraft"] == len(mine)
        for column in ("shots", "hits", "damage_dealt", "damage_taken", "stalls", "spins"):
            assert row[column] == sum(a[column] for a in mine)
        assert row["won"] == (winner == side)


def test_tailing_is_counted_from_the_end_phase():
    envelopes = [Envelope(game_id="g", branch_id="main", seq=i + 1, turn=i + 1, phase="end", actor=None,
                          event=ev.TailingDetermined(aircraft="imperium-1", target=target))
                 for i, target in enumerate(("orks-1", None, "orks-2"))]
    session = eventful_session()
    from aero_events.analysis.timeline import Timeline

    start = session.branch.state_at(0)
    timeline = Timeline(game_id="g", branch="main", ruleset=session.ruleset, initial=start, envelopes=envelopes,
                        states=[start] * 3)
    rows = {row["aircraft"]: row for row in aircraft_stats(timeline).to_pylist()}
    assert rows["imperium-1"]["turns_tailing"] == 2
    assert rows["orks-1"]["turns_tailed"] == 1 and rows["orks-2"]["turns_tailed"] == 1


def test_a_volley_becomes_shot_records_with_hits_damage_and_the_kill():
    state = eventful_session().branch.state_at(0)
    firer, target = state.aircraft["imperium-1"], state.aircraft["orks-1"]

    def env(seq, event):
        return Envelope(game_id="g", branch_id="main", seq=seq, turn=2, phase="firing", actor="imperium", event=event)

    volley = [
        ev.VolleyDeclared(aircraft=firer.id, kind="firing", shots=(ev.Shot(weapon_index=1, target=target.id),)),
        ev.WeaponFired(aircraft=firer.id, weapon_index=1, weapon="quad_autocannons", target=target.id, attack="air",
                       band="short", dice=6, ammo_left=None),
        DiceRolled(roll_index=0, purpose="to hit", roller="imperium", count=6, sides=6, faces=(6, 6, 5, 2, 1, 3),
                   target=5),
        ev.HitsScored(aircraft=firer.id, weapon_index=1, target=target.id, hits=3),
        DiceRolled(roll_index=1, purpose="damage", roller="imperium", count=3, sides=6, faces=(6, 5, 1), target=4),
        ev.DamageRolled(aircraft=firer.id, weapon_index=1, weapon="quad_autocannons", target=target.id,
                        damaging=2, structure=2),
        ev.DamageSuffered(aircraft=target.id, hits=2, structure=0, cause="shot down"),
        ev.AircraftDestroyed(aircraft=target.id, cause="shot down"),
        ev.VolleyEnded(aircraft=firer.id, kind="firing"),
    ]
    (shot,) = shot_records((env(i + 1, e), state, state) for i, e in enumerate(volley))
    assert (shot.firer, shot.target, shot.band, shot.dice, shot.hits) == (firer.id, target.id, "short", 6, 3)
    assert (shot.damaging, shot.structure_lost, shot.destroyed) == (2, 2, True)
    assert shot.from_hex == tuple(firer.hex) and shot.to_hex == tuple(target.hex)
    assert shot.firer_owner == "imperium" and shot.target_owner == "orks"


def test_damage_by_turn(timeline):
    damage = damage_by_turn(timeline).to_pylist()
    taken = sum(e.hits for e in _events(timeline, "ai.DamageSuffered"))
    assert sum(row["damage_taken"] for row in damage) == taken
    for side in timeline.players:
        mine = [row for row in damage if row["side"] == side]
        assert [row["turn"] for row in mine] == sorted({env.turn for env in timeline.envelopes})
        assert mine[-1]["cumulative_taken"] == sum(row["damage_taken"] for row in mine)
        final = [a for a in timeline.final.aircraft.values() if a.owner == side and a.in_play]
        assert mine[-1]["structure_left"] == sum(a.structure for a in final)
    dealt = sum(shot.structure_lost for shot in game_shots(timeline))
    assert sum(row["damage_dealt"] for row in damage) == dealt
