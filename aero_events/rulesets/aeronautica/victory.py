"""Ending the game and Victory points (rulebook p.31-32), Ejector Seats (p.37).

How a game ends (checked in the End phase, its step 4 "Ending the Game", p.29 and p.50):

* **Fuel Limit** (p.31): the End phase of ``state.last_turn`` (turn 12 in the rulebook) ends it.
* **Last Aircraft Flying** (p.31): only one player (or neither) has aircraft left in the Area
  of Engagement.
* **Insurmountable Losses** (p.31): a force reduced to 25% of its starting numbers or fewer,
  rounding fractions down, leaves one more turn: the Disengagement turn. The End phase that
  finds the losses declares it (:class:`DisengagementTurnDeclared`, p.13 "this is the point
  where players determine if either side is forced to disengage"); the End phase of the
  Disengagement turn ends the game. During it, crossing the edge is a Voluntary
  Disengagement (movement reads ``state.disengagement_turn``, p.17).

Victory points (p.32): each enemy aircraft is worth a percentage of its total points cost
(including additional weapons and upgrades: ``AircraftState.points``) from the Victory
Points chart, fractions rounded up per aircraft ("50% of 25 Victory points equals 13").
The chart is data (``data/victory.json``); its Accidentally Disengaged values were lost from
the text and default to 50% undamaged / 100% damaged. The Points Difference of the starting
forces goes to the larger force ("150 against 146 gives 4"). Troops delivered (p.37) and
ground targets destroyed (p.33) add their scenario points. The most Victory points wins;
equal totals are a draw (the text is silent on ties; ``GameEnded.winner`` is None).

Choices where the text is silent, each documented beside its code:

* "Starting numbers" count every aircraft of the force, Ground Defences and reserves
  included (p.8: "the rules refer to 'aircraft' ... this will usually include ... Ground
  Defences"); what is left counts the aircraft in play plus reserves yet to arrive.
* Reserves not yet arrived are not "in the Area of Engagement" for Last Aircraft Flying;
  when the game ends they count as Accidentally Disengaged (p.33).
* Ejector Seats (p.37) are rolled in the End phase for every aircraft destroyed since the
  last End phase (after steps 1-2, so a Spin crash is included): the firing, movement and
  End phase rules that destroy aircraft then need not know the upgrade, and the roll still
  comes before any Victory points are counted.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from aero_events.core import DiceCup, DiceRolled, Event
from aero_events.core.errors import read_data_file

from .events import (
    AircraftVictoryPoints,
    DisengagementTurnDeclared,
    EjectorSeatsRolled,
    GameEnded,
    GroundTargetDestroyed,
    VictoryPointsScored,
)
from .state import (
    DESTROYED,
    DISENGAGED,
    FLYING,
    LANDED,
    RESERVE,
    UNDEPLOYED,
    AircraftState,
    FoldScope,
    GameState,
    replaced,
    with_aircraft,
)

if TYPE_CHECKING:
    from .ruleset import AeronauticaRules
    from .turn import Emitter

VICTORY_FILE = "victory.json"

#: Insurmountable Losses (p.31): 25% of the starting numbers, rounding fractions down.
INSURMOUNTABLE_PERCENT = 25

# Conditions on the Victory Points chart (p.32).
DESTROYED_CONDITION = "destroyed"
OPERATING = "operating"
VOLUNTARY = "voluntarily_disengaged"
ACCIDENTAL = "accidentally_disengaged"


# ---------------------------------------------------------------- the chart as data (p.32, p.37)


class ByDamage(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A row of the chart: the percentage for an undamaged and for a damaged aircraft.

    ``reconstructed`` marks values the text lost (Accidentally Disengaged).
    """

    undamaged: int
    damaged: int
    reconstructed: bool = False

    def percent(self, damaged: bool) -> int:
        return self.damaged if damaged else self.undamaged


class EjectorSeatsRule(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Ejector Seats (p.37): on a D6 of ``roll``+ the destroyed aircraft is worth ``percent`` instead."""

    upgrade: str = "ejector_seats"
    roll: int = 5
    percent: int = 75


class VictoryChart(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The Victory Points chart (p.32), percentages of an aircraft's total points cost."""

    source: str
    data_version: str
    destroyed: int
    operating: ByDamage
    voluntarily_disengaged: ByDamage
    accidentally_disengaged: ByDamage
    ejector_seats: EjectorSeatsRule = EjectorSeatsRule()
    note: str | None = None


def parse_victory_chart(raw: bytes | str, source: str = "<string>") -> VictoryChart:
    """A validated chart from JSON; a malformed one is a DataError naming the field and line."""
    from .profiles import JsonDocument

    doc = JsonDocument(raw, source)
    chart = doc.decode(VictoryChart)
    if not chart.source.strip():
        raise doc.error("source is empty: say where the numbers come from", ("source",))
    values = [(("destroyed",), chart.destroyed), (("ejector_seats", "percent"), chart.ejector_seats.percent)]
    for name in ("operating", "voluntarily_disengaged", "accidentally_disengaged"):
        row = getattr(chart, name)
        values += [((name, "undamaged"), row.undamaged), ((name, "damaged"), row.damaged)]
    for path, value in values:
        if not 0 <= value <= 100:
            raise doc.error(f"a Victory points percentage is 0 to 100, not {value}", path)
    if not 2 <= chart.ejector_seats.roll <= 6:
        raise doc.error(f"a D6 roll needed is 2 to 6, not {chart.ejector_seats.roll}", ("ejector_seats", "roll"))
    return chart


def load_victory_chart(path: str | Path | None = None) -> VictoryChart:
    """The chart in ``path``, or the package's own (cached) when None."""
    if path is None:
        return _default_chart()
    raw = read_data_file(path)
    return parse_victory_chart(raw, str(path))


@functools.lru_cache(maxsize=1)
def _default_chart() -> VictoryChart:
    from .profiles import data_path

    return load_victory_chart(data_path(VICTORY_FILE))


def chart_for(rules: AeronauticaRules) -> VictoryChart:
    """The chart a ruleset plays with: ``RuleOptions.victory_chart``, else the packaged one."""
    return getattr(rules.options, "victory_chart", None) or _default_chart()


# ---------------------------------------------------------------- per aircraft (p.32)


def percent_of(points: int, percent: int) -> int:
    """``percent``% of ``points``, fractions rounded up (p.32: 50% of 25 is 13). Exact integers."""
    return -(-points * percent // 100)


def condition_of(aircraft: AircraftState) -> tuple[str, str | None]:
    """Where the aircraft stands on the chart (p.32), and a note where the chart needed reading."""
    if aircraft.status == DESTROYED:
        return DESTROYED_CONDITION, None
    if aircraft.status in (FLYING, LANDED):
        return OPERATING, None
    if aircraft.status == DISENGAGED:
        if aircraft.disengaged_how == "voluntary":
            return VOLUNTARY, None
        return ACCIDENTAL, None
    if aircraft.status in (RESERVE, UNDEPLOYED):
        # "Any aircraft held in reserve that have not entered the Area of Engagement when the game
        # ends count as having Accidentally Disengaged" (p.33).
        return ACCIDENTAL, "held in reserve, never arrived (p.33)"
    raise ValueError(f"{aircraft.id} has an unknown status {aircraft.status!r}")


def aircraft_victory_points(aircraft: AircraftState, chart: VictoryChart) -> AircraftVictoryPoints:
    """What ``aircraft`` is worth to its enemy (p.32), Ejector Seats included (p.37)."""
    condition, note = condition_of(aircraft)
    damaged = aircraft.damaged or condition == DESTROYED_CONDITION
    if condition == DESTROYED_CONDITION:
        percent = chart.destroyed
        if aircraft.crew_escaped:
            percent, note = chart.ejector_seats.percent, "the crew ejected (Ejector Seats, p.37)"
    else:
        percent = getattr(chart, condition).percent(damaged)
    return AircraftVictoryPoints(aircraft=aircraft.id, owner=aircraft.owner, points=aircraft.points,
                                 condition=condition, damaged=damaged, percent=percent,
                                 victory_points=percent_of(aircraft.points, percent), note=note)


def force_points(state: GameState, player: str) -> int:
    """The points value of ``player``'s force at the start of the game (every aircraft, reserves too)."""
    return sum(a.points for a in state.side(player))


def points_difference(state: GameState, player: str) -> int:
    """Points Difference (p.32): the larger force scores the difference ("150 against 146 gives 4")."""
    return max(0, force_points(state, player) - force_points(state, state.opponent(player)))


# ---------------------------------------------------------------- ending the game (p.31)


def counted(aircraft: AircraftState, ground_defences: bool) -> bool:
    """Whether ``aircraft`` counts as an aircraft for Ending the Game (p.31): Ground Defences do unless
    ``RuleOptions(ground_defences_count=False)`` (p.8: "'aircraft' ... will usually include ... Ground
    Defences")."""
    return ground_defences or not aircraft.ground_defence


def starting_numbers(state: GameState, player: str, ground_defences: bool = True) -> int:
    """Every aircraft the force started with (Ground Defences and reserves included, see module doc)."""
    return sum(1 for a in state.side(player) if counted(a, ground_defences))


def remaining_numbers(state: GameState, player: str, ground_defences: bool = True) -> int:
    """The force's aircraft still in play, plus reserves still to arrive."""
    return sum(1 for a in state.side(player)
               if counted(a, ground_defences) and (a.in_play or a.status in (RESERVE, UNDEPLOYED)))


def insurmountable_threshold(starting: int) -> int:
    """25% of the starting numbers, rounding fractions down (p.31): 4 -> 1, 5 -> 1, 8 -> 2."""
    return starting * INSURMOUNTABLE_PERCENT // 100


def insurmountable_losses(state: GameState, ground_defences: bool = True) -> tuple[str, ...]:
    """The players whose force is reduced to 25% of its starting numbers or below (p.31)."""
    # starting_numbers and remaining_numbers of both players, counted in one pass over the aircraft.
    starting = dict.fromkeys(state.players, 0)
    remaining = dict.fromkeys(state.players, 0)
    for a in state.aircraft.values():
        if a.owner in starting and counted(a, ground_defences):
            starting[a.owner] += 1
            if a.in_play or a.status in (RESERVE, UNDEPLOYED):
                remaining[a.owner] += 1
    return tuple(p for p in state.players if remaining[p] <= insurmountable_threshold(starting[p]))


def in_area_of_engagement(state: GameState, player: str, ground_defences: bool = True) -> bool:
    """Whether ``player`` has any aircraft left in the Area of Engagement (flying or landed)."""
    return any(a.in_play and counted(a, ground_defences) for a in state.side(player))


def last_aircraft_flying(state: GameState, ground_defences: bool = True) -> str | None:
    """Last Aircraft Flying (p.31): why the game ends because only one player (or neither) has aircraft left
    in the Area of Engagement, or None."""
    # in_area_of_engagement of both players, in one pass over the aircraft.
    present = {a.owner for a in state.aircraft.values() if a.in_play and counted(a, ground_defences)}
    flying = [p for p in state.players if p in present]
    if len(flying) == 2:
        return None
    if flying:
        return f"last aircraft flying: only {flying[0]} has aircraft left in the Area of Engagement (p.31)"
    return "last aircraft flying: neither player has aircraft left in the Area of Engagement (p.31)"


def game_end_reason(state: GameState, ground_defences: bool = True) -> str | None:
    """Why the game ends at this End phase (p.31), or None to play on.

    Fuel Limit first ("regardless of any other considerations"), then Last Aircraft
    Flying, then the Disengagement turn having been played.
    """
    if state.turn >= state.last_turn:
        return f"fuel limit: turn {state.turn} was the last turn (p.31)"
    alone = last_aircraft_flying(state, ground_defences)
    if alone is not None:
        return alone
    if state.disengagement_turn:
        return f"insurmountable losses: turn {state.turn} was the Disengagement turn (p.31)"
    return None


def declare_disengagement_turn(out: Emitter, ground_defences: bool = True) -> None:
    """Insurmountable Losses (p.31): if a force is down to 25% or fewer, the next turn is the last."""
    state = out.state
    if state.disengagement_turn:
        return
    losing = insurmountable_losses(state, ground_defences)
    if losing:
        out.emit(DisengagementTurnDeclared(turn=state.turn + 1, players=losing))


# ---------------------------------------------------------------- Ejector Seats (p.37)


def roll_ejector_seats(rules: AeronauticaRules, out: Emitter, order: list[str], dice: DiceCup) -> bool:
    """Ejector Seats (p.37): "If the aircraft is reduced to 0 Structure points and destroyed for any
    reason, roll a D6. On a 5+, the crew safely escape". Rolled once per destroyed aircraft, in the
    End phase after it was destroyed (see the module doc). False while the roll waits for the aircraft's
    Imperial Ace re-roll decision (:mod:`.rerolls`)."""
    from . import rerolls

    # The destroyed aircraft whose crew has not rolled, found in one pass: each player's are taken in turn (a roll
    # changes only its own aircraft).
    unrolled = [a for a in out.state.aircraft.values() if a.status == DESTROYED and a.crew_escaped is None]
    if not unrolled:
        return True  # nothing to roll for
    rule = chart_for(rules).ejector_seats
    for player in order:
        for aircraft in unrolled:
            if aircraft.owner == player and rule.upgrade in aircraft.upgrades:
                roll = dice.d6(purpose="ejector seats", roller=player, target=rule.roll)
                out.emit(roll)
                if rerolls.offer(out, aircraft.id, rerolls.EJECTOR_SEATS, roll):
                    return False
                ejector_seats_result(rules, out, aircraft.id, roll, dice)
    return True


def ejector_seats_result(rules: AeronauticaRules, out: Emitter, aircraft_id: str, roll: DiceRolled,
                         dice: DiceCup) -> None:
    """The crew escape on the Ejector Seats roll (5+) that stands (p.37)."""
    out.emit(EjectorSeatsRolled(aircraft=aircraft_id, escaped=roll.faces[0] >= chart_for(rules).ejector_seats.roll))


# ---------------------------------------------------------------- scoring (p.32)


def objectives(state: GameState, player: str) -> int:
    """Victory points for ground targets destroyed (p.33): a target's points go to the other side of its
    owner, or, for a target nobody owns, to the player who destroyed it."""
    total = 0
    for target in state.ground_targets:
        if target.id not in state.ground_targets_destroyed:
            continue
        by = state.ground_targets_destroyed[target.id]
        scorer = state.opponent(target.owner) if target.owner in state.players else by
        if scorer == player:
            total += target.victory_points
    return total


def score(state: GameState, chart: VictoryChart) -> list[VictoryPointsScored]:
    """Each player's Victory points (p.32), with the per-aircraft breakdown."""
    reports = []
    for player in state.players:
        enemy = [aircraft_victory_points(a, chart) for a in state.side(state.opponent(player))]
        aircraft_total = sum(row.victory_points for row in enemy)
        difference = points_difference(state, player)
        transport = state.transport_vp.get(player, 0)
        objective = objectives(state, player)
        reports.append(VictoryPointsScored(
            player=player, aircraft=tuple(enemy), aircraft_total=aircraft_total, points_difference=difference,
            transport=transport, objectives=objective, total=aircraft_total + difference + transport + objective))
    return reports


def winner_of(reports: list[VictoryPointsScored]) -> str | None:
    """The player with the most Victory points (p.32); None when they are equal (a draw)."""
    first, second = reports
    if first.total == second.total:
        return None
    return first.player if first.total > second.total else second.player


def end_game(rules: AeronauticaRules, out: Emitter, reason: str) -> None:
    """Work out Victory points and end the game (p.31-32)."""
    reports = score(out.state, chart_for(rules))
    for report in reports:
        out.emit(report)
    out.emit(GameEnded(reason=reason, winner=winner_of(reports)))


# ---------------------------------------------------------------- the part's contract

HANDLERS: dict = {}


#: The phases in which :func:`legal_commands` may offer a command: none (the ruleset never asks).
COMMAND_PHASES: frozenset[str] = frozenset()


def legal_commands(rules: AeronauticaRules, state: GameState, player: str) -> list:
    """Ending the game asks the players nothing (p.31-32)."""
    return []


def _victory_points_scored(rules: AeronauticaRules, state: GameState, event: VictoryPointsScored,
                           scope: FoldScope | None = None) -> GameState:
    """A player's Victory Points total when the game ends (p.32)."""
    return replaced(state, scope, victory_points={**state.victory_points, event.player: event.total})


def _disengagement_turn_declared(rules: AeronauticaRules, state: GameState, event: DisengagementTurnDeclared,
                                 scope: FoldScope | None = None) -> GameState:
    """The next turn is the Disengagement turn (p.13, p.31)."""
    return replaced(state, scope, disengagement_turn=True)


#: The victory part's reducers by event type that the ruleset's dispatch reads directly (the others below).
_REDUCERS = {VictoryPointsScored: _victory_points_scored, DisengagementTurnDeclared: _disengagement_turn_declared}


def evolve(rules: AeronauticaRules, state: GameState, event: Event) -> GameState | None:
    reducer = _REDUCERS.get(type(event))
    if reducer is not None:
        return reducer(rules, state, event)
    replace = msgspec.structs.replace
    if isinstance(event, EjectorSeatsRolled):
        return with_aircraft(state, replace(state.aircraft[event.aircraft], crew_escaped=event.escaped))
    if isinstance(event, GroundTargetDestroyed):
        return replace(state, ground_targets_destroyed={**state.ground_targets_destroyed, event.target: event.by})
    return None
