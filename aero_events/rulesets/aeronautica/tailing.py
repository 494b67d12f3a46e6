"""Determine Tailing, the End phase's step 3 (rulebook p.30, p.23).

"To be in a Tailing position, the Tailing aircraft must have its target within its
Front Arc whilst simultaneously being wholly within the target's Rear Arc, must be
within Short or Medium range of its target and must be at the same Altitude or at
one Altitude level above or below it" (p.30). "An aircraft which is in a Spin cannot
be tailed" (p.23).

* Front Arc: the target's hex in the tailer's Front Arc for targeting, so a hex cut by
  the Front Arc's edge counts (p.21, :func:`~aero_events.hexgrid.in_arc`).
* Rear Arc: the tailer's hex *wholly* within the target's Rear Arc: a hex cut by the
  line between the Rear and a Side Arc does not count (:func:`~aero_events.hexgrid.wholly_within`).
* Range: Short or Medium, 1 to 7 hexes (p.22).

Choices where the text is silent:

* Only aircraft in the air take part: a landed aircraft or a Ground Defence neither
  tails nor is tailed (Tailing Fire is Air-to-Air fire, p.13, p.20: "both firer and
  target are airborne"); an aircraft still in a Spin after step 2 cannot tail either,
  since a spinning aircraft "may not fire" (p.29).
* When several enemies qualify, the tailer tails the closest; between equally close
  ones, the lowest aircraft id. The rules give one Tailing position per aircraft and
  no choice to make, so the End phase stays free of decisions (p.29) and a replay is
  deterministic. ``RuleOptions(tailing_choice="player")`` lets the player choose instead,
  among all of them, when the aircraft fires in the Tailing Fire phase.
* Every aircraft in the air gets a :class:`TailingDetermined` (target or None) each End
  phase, and an aircraft out of play with a stale target gets None, so nothing carries
  over from an earlier turn. (The firing part reduces the event into
  ``AircraftState.tailing``, which its Tailing Fire phase reads.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aero_events.hexgrid import MAX_RANGE, Arc, RangeBand, in_arc, range_band, range_between, wholly_within

from .events import TailingDetermined
from .state import FLYING, AircraftState, GameState

if TYPE_CHECKING:
    from .turn import Emitter

#: Tailing needs Short or Medium range (p.30).
TAILING_RANGES = frozenset({RangeBand.SHORT, RangeBand.MEDIUM})
#: "at the same Altitude or at one Altitude level above or below" (p.30).
TAILING_ALTITUDE_DIFFERENCE = 1
#: The distances (in hexes) whose range band is in :data:`TAILING_RANGES`: 1 to 7.
TAILING_DISTANCES = frozenset(d for d in range(MAX_RANGE + 1) if range_band(d) in TAILING_RANGES)


def airborne(aircraft: AircraftState) -> bool:
    """In the air: flying (not landed, destroyed, disengaged, in reserve) and not a Ground Defence."""
    return aircraft.status == FLYING and not aircraft.ground_defence and aircraft.altitude >= 1


def is_tailing(tailer: AircraftState, target: AircraftState) -> bool:
    """Whether ``tailer`` is in a Tailing position on ``target`` (p.30, p.23)."""
    if tailer.owner == target.owner or not airborne(tailer) or not airborne(target):
        return False
    if tailer.spinning or target.spinning:  # p.23: a spinning aircraft cannot be tailed; p.29: nor fire
        return False
    if abs(tailer.altitude - target.altitude) > TAILING_ALTITUDE_DIFFERENCE:
        return False
    (q, r), (tq, tr) = tailer.hex, target.hex
    key = (tailer.facing, target.facing, tq - q, tr - r)
    found = _TAILING_POSITIONS.get(key)
    if found is None:
        if len(_TAILING_POSITIONS) >= _TAILING_POSITIONS_KEPT:
            _TAILING_POSITIONS.clear()
        found = _TAILING_POSITIONS[key] = _tailing_position(tailer, target)
    return found


def _tailing_position(tailer: AircraftState, target: AircraftState) -> bool:
    """Range (Short or Medium), the target in the tailer's Front Arc, the tailer wholly within the target's Rear
    Arc (p.30): the geometry of :func:`is_tailing`."""
    if range_between(tailer.hex, target.hex) not in TAILING_RANGES:
        return False
    return in_arc(tailer.pose, target.hex, Arc.FRONT) and wholly_within(target.pose, tailer.hex, Arc.REAR)


#: (tailer's facing, target's facing, target hex - tailer hex) -> :func:`_tailing_position`: the range and both arcs
#: depend on nothing else (a hex grid's arcs and distances are the same wherever the pair stands). The End phase asks
#: only pairs 1 to 7 hexes apart (:func:`_candidates_among`): 6 x 6 x 168 keys at most.
_TAILING_POSITIONS: dict[tuple[int, int, int, int], bool] = {}
#: Emptied when it holds this many (other callers may ask pairs at any distance).
_TAILING_POSITIONS_KEPT = 1 << 15


def _distance(a: AircraftState, b: AircraftState) -> int:
    dq, dr = a.hex[0] - b.hex[0], a.hex[1] - b.hex[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def tailing_candidates(state: GameState, tailer: AircraftState,
                       pool: list[AircraftState] | None = None) -> list[AircraftState]:
    """Every enemy ``tailer`` could tail, the one it does tail first (closest, then lowest id). ``pool``: the
    aircraft that may be tailed at all (:func:`may_be_tailed`), when the caller has them; the others are never
    in a Tailing position's target."""
    found = [t for t in (state.aircraft.values() if pool is None else pool) if is_tailing(tailer, t)]
    return sorted(found, key=lambda t: (_distance(tailer, t), t.id))


def may_be_tailed(aircraft: AircraftState) -> bool:
    """In the air and not in a Spin (p.23, p.30): only such an aircraft can be the target of a Tailing
    position (:func:`is_tailing` is False for any other)."""
    return airborne(aircraft) and not aircraft.spinning


def _candidates_among(tailer: AircraftState, enemies: list[AircraftState]) -> list[AircraftState]:
    """:func:`tailing_candidates` of ``tailer`` over ``enemies`` (the aircraft of the pool :func:`may_be_tailed`
    that another player owns), in the same order: only enemies within one Altitude level and at a Tailing
    range (:data:`TAILING_DISTANCES`) are asked :func:`is_tailing`, as no other can be tailed (p.30)."""
    if tailer.spinning:  # p.29: a spinning aircraft may not fire, so it tails nothing (is_tailing)
        return []
    altitude = tailer.altitude
    q, r = tailer.hex
    found = []
    for target in enemies:
        if abs(altitude - target.altitude) > TAILING_ALTITUDE_DIFFERENCE:
            continue
        dq, dr = q - target.hex[0], r - target.hex[1]
        distance = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
        if distance in TAILING_DISTANCES and is_tailing(tailer, target):
            found.append((distance, target.id, target))
    found.sort()  # closest, then lowest id (ids are unique: the aircraft themselves are never compared)
    return [target for _, _, target in found]


def tailing_target(state: GameState, tailer: AircraftState) -> str | None:
    """The aircraft ``tailer`` is Tailing after this End phase, or None."""
    candidates = tailing_candidates(state, tailer)
    return candidates[0].id if candidates else None


def determine_tailing(out: Emitter, order: list[str], choice: str = "closest") -> None:
    """Step 3 of the End phase (p.29-30), player by player from the initiative holder.

    ``choice`` is ``RuleOptions.tailing_choice``: "closest" tails the closest qualifying enemy (see the module
    notes); "player" also records every qualifying enemy as a candidate, and the player picks which one the
    aircraft fires at in the Tailing Fire phase (p.13).
    """
    # Tailing reads where each aircraft is, its Altitude and its Spin, which TailingDetermined leaves alone: the
    # aircraft that may be tailed are the same for every tailer of this step.
    pool = [a for a in out.state.aircraft.values() if may_be_tailed(a)]
    for player in order:
        enemies = [a for a in pool if a.owner != player]
        for aircraft in out.state.aircraft.values():  # state.side(player), its list not built
            if aircraft.owner != player:
                continue
            if airborne(aircraft):
                found = _candidates_among(aircraft, enemies)
                target = found[0].id if found else None
                candidates = tuple(t.id for t in found) if choice == "player" and len(found) > 1 else ()
                out.emit(TailingDetermined(aircraft=aircraft.id, target=target, candidates=candidates))
            elif aircraft.tailing is not None:
                out.emit(TailingDetermined(aircraft=aircraft.id, target=None))


def tailed_by(aircraft: AircraftState) -> tuple[str, ...]:
    """The aircraft ``aircraft`` may fire at in the Tailing Fire phase: the one it tails, or, when its player
    chooses (``RuleOptions(tailing_choice="player")``), any of its candidates."""
    if aircraft.tailing_candidates:
        return aircraft.tailing_candidates
    return (aircraft.tailing,) if aircraft.tailing is not None else ()

