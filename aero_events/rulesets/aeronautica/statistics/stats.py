"""Per aircraft and per side: shots, hits, damage dealt and taken, Tailing, Stalls and Spins.

Read from one folded :class:`~.timeline.Timeline`: shots come from the firing events
(:mod:`.shots`), damage taken from every ``DamageSuffered`` whatever its cause
(enemy fire, Breaking Up, a crash), Tailing from the End phase's ``TailingDetermined``
(rulebook p.30: one count per End phase in which an aircraft was Tailing, or was
Tailed), Stalls from ``Stalled`` (p.17-18) and Spins from ``SpinEntered`` (p.29).
"""

from __future__ import annotations

from collections import Counter

import pyarrow as pa

from aero_events.analysis.tables import query, table_from_rows
from aero_events.analysis.timeline import Timeline

from .shots import ShotRecord, shot_records

AIRCRAFT_SCHEMA = pa.schema([
    ("aircraft", pa.string()), ("side", pa.string()), ("profile", pa.string()), ("shots", pa.int64()),
    ("dice", pa.int64()), ("hits", pa.int64()), ("damage_dealt", pa.int64()), ("kills", pa.int64()),
    ("damage_taken", pa.int64()), ("turns_tailing", pa.int64()), ("turns_tailed", pa.int64()),
    ("stalls", pa.int64()), ("spins", pa.int64()), ("status", pa.string()), ("structure", pa.int64()),
    ("starting_structure", pa.int64()),
])


def game_shots(timeline: Timeline) -> list[ShotRecord]:
    """Every shot of the game, in order."""
    return shot_records(timeline.pairs())


def aircraft_stats(timeline: Timeline, shots: list[ShotRecord] | None = None) -> pa.Table:
    """One row per aircraft (and Ground Defence): what it did and what was done to it."""
    shots = game_shots(timeline) if shots is None else shots
    fired = Counter(s.firer for s in shots)
    dice = Counter()
    hits = Counter()
    dealt = Counter()
    kills = Counter()
    for shot in shots:
        dice[shot.firer] += shot.dice
        hits[shot.firer] += 0 if shot.negated else shot.hits
        dealt[shot.firer] += shot.structure_lost
        kills[shot.firer] += int(shot.destroyed)
    taken, tailing, tailed, stalls, spins = Counter(), Counter(), Counter(), Counter(), Counter()
    for envelope in timeline.envelopes:
        event = envelope.event
        name = event.type_name()
        if name == "ai.DamageSuffered":
            taken[event.aircraft] += event.hits
        elif name == "ai.TailingDetermined" and event.target is not None:
            tailing[event.aircraft] += 1
            tailed[event.target] += 1
        elif name == "ai.Stalled":
            stalls[event.aircraft] += 1
        elif name == "ai.SpinEntered":
            spins[event.aircraft] += 1
    final = timeline.final
    rows = []
    for aircraft_id, aircraft in final.aircraft.items():
        rows.append({
            "aircraft": aircraft_id, "side": aircraft.owner, "profile": aircraft.profile,
            "shots": fired[aircraft_id], "dice": dice[aircraft_id], "hits": hits[aircraft_id],
            "damage_dealt": dealt[aircraft_id], "kills": kills[aircraft_id], "damage_taken": taken[aircraft_id],
            "turns_tailing": tailing[aircraft_id], "turns_tailed": tailed[aircraft_id],
            "stalls": stalls[aircraft_id], "spins": spins[aircraft_id], "status": aircraft.status,
            "structure": aircraft.structure,
            "starting_structure": getattr(aircraft, "starting_structure", aircraft.structure),
        })
    return table_from_rows(rows, AIRCRAFT_SCHEMA)


def victory_points(timeline: Timeline) -> dict[str, int]:
    """Each player's Victory points as scored when the game ended (p.31-32); empty if it has not."""
    return {event.player: event.total for event in (env.event for env in timeline.envelopes)
            if event.type_name() == "ai.VictoryPointsScored"}


def game_result(timeline: Timeline) -> tuple[bool, str | None, str | None]:
    """(over, winner, reason) from ``GameEnded`` (p.31); winner None for a draw or a game not over."""
    for envelope in reversed(timeline.envelopes):
        if envelope.event.type_name() == "ai.GameEnded":
            return True, envelope.event.winner, envelope.event.reason
    return False, None, None


def side_stats(timeline: Timeline, aircraft: pa.Table | None = None) -> pa.Table:
    """One row per player: the sums of :func:`aircraft_stats`, aircraft lost, Victory points, the winner."""
    aircraft = aircraft_stats(timeline) if aircraft is None else aircraft
    scored = victory_points(timeline)
    over, won, _ = game_result(timeline)
    extra = pa.Table.from_pylist(
        [{"side": player, "victory_points": scored.get(player), "won": won == player if over else None}
         for player in timeline.players],
        schema=pa.schema([("side", pa.string()), ("victory_points", pa.int64()), ("won", pa.bool_())]))
    return query(
        """SELECT a.side, count(*) AS aircraft, sum(a.shots)::BIGINT AS shots, sum(a.dice)::BIGINT AS dice,
                  sum(a.hits)::BIGINT AS hits, sum(a.damage_dealt)::BIGINT AS damage_dealt,
                  sum(a.kills)::BIGINT AS kills, sum(a.damage_taken)::BIGINT AS damage_taken,
                  sum(a.turns_tailing)::BIGINT AS turns_tailing, sum(a.turns_tailed)::BIGINT AS turns_tailed,
                  sum(a.stalls)::BIGINT AS stalls, sum(a.spins)::BIGINT AS spins,
                  count(*) FILTER (WHERE a.status = 'destroyed') AS destroyed,
                  count(*) FILTER (WHERE a.status = 'disengaged') AS disengaged,
                  any_value(x.victory_points) AS victory_points, any_value(x.won) AS won
           FROM aircraft a LEFT JOIN extra x ON x.side = a.side
           GROUP BY a.side ORDER BY a.side""", aircraft=aircraft, extra=extra)
