"""The turn sequence (rulebook p.13-14): Choose Manoeuvres, Initiative, Tailing Fire, Movement, Firing, End.

The phases the players make no choices in run by themselves: once every eligible
aircraft has a Manoeuvre token, Initiative is rolled (D6 each, ties re-rolled),
the Tailing Fire phase passes when no aircraft is Tailing (determined in the
previous End phase, p.30), and Movement begins with the initiative winner's
choice of who moves first.
"""

from __future__ import annotations

import functools
import types
from collections.abc import Callable
from typing import TYPE_CHECKING

import msgspec

from aero_events.core import Command, DiceCup, RuleError
from aero_events.core.emitter import Emitter

from . import reserves, victory
from .commands import ChooseManoeuvre, DeclineManoeuvre
from .end_phase import resolve_end_phase
from .events import (
    FirstMoverChosen,
    GameEnded,
    InitiativeTied,
    InitiativeWon,
    ManoeuvreChosen,
    ManoeuvreDeclined,
    PhaseBegan,
    TurnBegan,
    TurnEnded,
)
from .scenarios import set_up
from .state import (
    ARRIVALS,
    CHOOSE_MANOEUVRES,
    END,
    FIRING,
    FLYING,
    GAME_OVER,
    INITIATIVE,
    LANDED,
    MOVEMENT,
    SET_UP,
    TAILING_FIRE,
    AircraftState,
    FoldScope,
    GameState,
    evolve_by_table,
    replaced,
    with_aircraft,
)

if TYPE_CHECKING:
    from .ruleset import AeronauticaRules


def eligible_to_choose(aircraft: AircraftState) -> bool:
    """Every aircraft in play chooses a manoeuvre, except those in a Spin (p.13) and Ground Defences,
    which are static (p.8)."""
    return aircraft.status in (FLYING, LANDED) and not aircraft.spinning and not aircraft.ground_defence


def eligible_to_move(aircraft: AircraftState) -> bool:
    """Aircraft in a Spin are not eligible to move (p.13); the rest move once each (p.14)."""
    return (aircraft.status in (FLYING, LANDED) and not aircraft.spinning and not aircraft.moved
            and not aircraft.ground_defence)  # Ground Defences are static (p.8)


def all_chosen(state: GameState) -> bool:
    """Every aircraft eligible to choose (:func:`eligible_to_choose`) has its token, or took none (p.13, p.16)."""
    for a in state.aircraft.values():  # the token asked first: most aircraft have one once any is asked
        if a.commitment is None and not a.no_token and eligible_to_choose(a):
            return False
    return True


def may_decline(rules: AeronauticaRules, aircraft: AircraftState) -> bool:
    """A Hovering aircraft, at Speed 0 with Min Speed 0, "is not obliged to choose an Ace Manoeuvre" (p.16)."""
    return aircraft.status == FLYING and aircraft.speed == 0 and rules.profile(aircraft).can_hover


def next_to_act(state: GameState, just_acted: str) -> str | None:
    """Alternate; a side with aircraft left moves them one after another once the other is done (p.14)."""
    return next_to_act_among(state.aircraft, state.opponent(just_acted), just_acted)


def next_to_act_among(aircraft: dict[str, AircraftState], other: str, just_acted: str) -> str | None:
    """:func:`next_to_act` over the aircraft ``aircraft`` (``other`` is the opponent of ``just_acted``), in
    one pass: ``other`` if it has an aircraft eligible to move, else ``just_acted`` if it has one, else
    None."""
    mine = False
    for a in aircraft.values():
        if a.moved:  # never eligible: asked first, it is cheap
            continue
        if a.owner == other:
            if eligible_to_move(a):
                return other
        elif not mine and a.owner == just_acted and eligible_to_move(a):
            mine = True
    return just_acted if mine else None


def roll_initiative(out: Emitter, dice: DiceCup) -> None:
    """Both players roll a D6; the highest wins; ties are re-rolled (p.13).

    Underdog (the Dogfight, p.35): a force smaller by 5 points or more has the initiative
    in the first turn without a roll (``state.underdog``, set up by scenarios/set_up.py).
    """
    if out.state.turn == 1 and out.state.underdog is not None:
        out.emit(InitiativeWon(player=out.state.underdog, reason="underdog"))
        return
    first, second = out.state.players
    while True:
        a = dice.d6(purpose="initiative", roller=first)
        b = dice.d6(purpose="initiative", roller=second)
        out.emit(a)
        out.emit(b)
        if a.faces[0] != b.faces[0]:
            out.emit(InitiativeWon(player=first if a.faces[0] > b.faces[0] else second))
            return
        out.emit(InitiativeTied())


def advance(rules: AeronauticaRules, out: Emitter, dice: DiceCup) -> None:
    """Run the turn forward through every step that needs no player's choice."""
    state = out.state
    if state.active is not None and state.pending_roll is None and state.phase == MOVEMENT \
            and rules.options.last_aircraft_flying != "immediately":
        return  # an aircraft is moving (the loop below would return at once): most commands end here
    immediately = rules.options.last_aircraft_flying == "immediately"
    while True:
        state = out.state
        if state.pending_roll is not None:  # a re-roll decision first (Imperial Ace / Fly Boss, p.37, p.45)
            return
        if immediately and ended_at_once(rules, out, dice):
            return
        phase = state.phase
        if phase == MOVEMENT:
            if state.active is not None or state.first_mover is None:
                return  # an aircraft is moving, or who moves first is still to be chosen
            if state.to_act is None or not any(map(eligible_to_move, state.aircraft.values())):
                # Every eligible aircraft has moved (p.14), or none could: all in a Spin (p.13).
                out.emit(PhaseBegan(phase=FIRING))
            else:
                return
        elif phase == CHOOSE_MANOEUVRES:
            if not all_chosen(state):
                return
            out.emit(PhaseBegan(phase=INITIATIVE))
        elif phase == INITIATIVE:
            roll_initiative(out, dice)
            out.emit(PhaseBegan(phase=TAILING_FIRE))
        elif phase == TAILING_FIRE:
            if not _firing().tailing_fire_over(rules, out, dice):  # Tailing aircraft fire first (p.13, p.23)
                return
            out.emit(PhaseBegan(phase=MOVEMENT))
        elif phase == FIRING:
            if not _firing().firing_over(rules, out, dice):  # players alternate until all have fired (p.14, p.20)
                return
            out.emit(PhaseBegan(phase=END))
        elif phase == END:
            if not resolve_end_phase(rules, out, dice):
                return
            end_turn(rules, out, dice)
        elif state.phase == SET_UP:
            if not set_up.advance(rules, out, dice):  # roll-off, placement, cloud level (p.33-34)
                return
        elif state.phase == ARRIVALS:
            if not reserves.advance(out):  # arrived reserves placed before Choose Manoeuvres (p.33)
                return
        else:
            return


def ended_at_once(rules: AeronauticaRules, out: Emitter, dice: DiceCup) -> bool:
    """``RuleOptions(last_aircraft_flying="immediately")``: p.31 "Should it ever happen that only one player
    has any aircraft left in the Area of Engagement for any reason, the game automatically ends" at once,
    not in the End phase. Ejector Seats are rolled first (their player keeps the re-roll choice), then
    Victory points. True when the game ended (or waits for a re-roll decision to end)."""
    state = out.state
    if state.phase in (SET_UP, GAME_OVER, ARRIVALS):
        return False
    reason = victory.last_aircraft_flying(state, rules.options.ground_defences_count)
    if reason is None:
        return False
    first = state.initiative or state.players[0]
    if not victory.roll_ejector_seats(rules, out, [first, state.opponent(first)], dice):
        return True
    out.emit(TurnEnded(turn=state.turn))
    victory.end_game(rules, out, reason)
    return True


def end_turn(rules: AeronauticaRules, out: Emitter, dice: DiceCup) -> None:
    """Step 4 of the End phase, Ending the Game (p.29, p.31-32; see victory.py), and the next turn's start.

    The game ends after the last turn (Fuel Limit, 12, p.31), when only one player has aircraft left
    in the Area of Engagement (p.31), or after the Disengagement turn (p.31): Victory points are
    scored (p.32) and GameEnded names the winner (None for a draw). Otherwise Insurmountable Losses
    may make the next turn the Disengagement turn, the next turn begins, and reserves roll to arrive
    before its Choose Manoeuvres phase (p.33).
    """
    state = out.state
    ground_defences = rules.options.ground_defences_count
    reason = victory.game_end_reason(state, ground_defences)
    if reason is None:
        victory.declare_disengagement_turn(out, ground_defences)
    out.emit(TurnEnded(turn=state.turn))
    if reason is not None:
        victory.end_game(rules, out, reason)
        return
    out.emit(TurnBegan(turn=state.turn + 1))
    reserves.roll_arrivals(rules, out, dice)


# ---------------------------------------------------------------- Choose Manoeuvres (p.13)


def choose_manoeuvre(rules: AeronauticaRules, out: Emitter, command: ChooseManoeuvre, dice: DiceCup) -> None:
    """Choose Manoeuvres (p.13): a token face down for each eligible aircraft."""
    state = out.state
    if state.phase != CHOOSE_MANOEUVRES:
        raise RuleError("Ace Manoeuvres are chosen in the Choose Manoeuvres phase, before Initiative is rolled",
                        rule="Choose Manoeuvres", page=13)
    aircraft = state.aircraft.get(command.aircraft)
    if aircraft is None or aircraft.owner != command.player:
        raise RuleError(f"{command.player} has no aircraft {command.aircraft!r}", rule="Choose Manoeuvres", page=13)
    if not eligible_to_choose(aircraft):
        why = "is in a Spin" if aircraft.spinning else "is not in play"
        raise RuleError(f"{aircraft.id} {why} and cannot perform an Ace Manoeuvre", rule="Choose Manoeuvres",
                        page=13)
    if aircraft.commitment is not None:
        raise RuleError(f"{aircraft.id} already has its Manoeuvre token", rule="Choose Manoeuvres", page=13)
    if command.manoeuvre not in rules._manoeuvres_for(aircraft.profile, aircraft.upgrades):  # manoeuvres_for, kept
        allowed = rules.manoeuvres_for(aircraft)
        raise RuleError(f"a {rules.profile(aircraft).name} can perform Ace Manoeuvres {allowed}, not "
                        f"{command.manoeuvre}", rule="Ace Manoeuvres", page=10)
    salt = dice.salts.next()
    out.emit(ManoeuvreChosen(owner=command.player, aircraft=aircraft.id, manoeuvre=command.manoeuvre).sealed(salt))


def decline_manoeuvre(rules: AeronauticaRules, out: Emitter, command: DeclineManoeuvre, dice: DiceCup) -> None:
    """Hovering (p.16): "Whilst at Speed 0, the aircraft does not move and is not obliged to choose an Ace
    Manoeuvre"; without one "a Hovering aircraft may not adjust its Speed" (movement.throttle_choices)."""
    state = out.state
    if state.phase != CHOOSE_MANOEUVRES:
        raise RuleError("Ace Manoeuvres are chosen (or not) in the Choose Manoeuvres phase", rule="Hovering",
                        page=16)
    aircraft = state.aircraft.get(command.aircraft)
    if aircraft is None or aircraft.owner != command.player:
        raise RuleError(f"{command.player} has no aircraft {command.aircraft!r}", rule="Choose Manoeuvres", page=13)
    if not eligible_to_choose(aircraft) or aircraft.commitment is not None or aircraft.no_token:
        raise RuleError(f"{aircraft.id} has no Manoeuvre token to choose now", rule="Choose Manoeuvres", page=13)
    if not may_decline(rules, aircraft):
        raise RuleError(f"{aircraft.id} is not Hovering (Speed {aircraft.speed}): it must choose an Ace Manoeuvre",
                        rule="Choose Manoeuvres", page=13)
    out.emit(ManoeuvreDeclined(aircraft=aircraft.id))


HANDLERS = {ChooseManoeuvre: choose_manoeuvre, DeclineManoeuvre: decline_manoeuvre}


#: The phases in which :func:`legal_commands` may offer a command (the ruleset asks no other part).
COMMAND_PHASES: frozenset[str] = frozenset({CHOOSE_MANOEUVRES})


def legal_commands(rules: AeronauticaRules, state: GameState, player: str) -> list[Command]:
    """A token for each eligible aircraft still without one, from the manoeuvres it can perform; a Hovering
    aircraft may also take none (p.16)."""
    if state.phase != CHOOSE_MANOEUVRES:
        return []
    commands: list[Command] = []
    for a in state.aircraft.values():  # the token asked before eligibility: most have one once any is asked
        if a.owner != player or a.commitment is not None or a.no_token or not eligible_to_choose(a):
            continue
        commands.extend(_token_commands(rules, player, a.id, a.profile, a.upgrades, may_decline(rules, a)))
    return commands


@functools.lru_cache(maxsize=4096)
def _token_commands(rules: AeronauticaRules, player: str, aircraft_id: str, profile_id: str,
                    upgrades: tuple[str, ...], hovering: bool) -> tuple[Command, ...]:
    """An aircraft's Choose Manoeuvres commands (p.13, p.16), kept: a token for each Ace Manoeuvre its profile
    can perform (``rules.manoeuvres_for``), and DeclineManoeuvre when it is Hovering (:func:`may_decline`)."""
    tokens: list[Command] = [ChooseManoeuvre(player=player, aircraft=aircraft_id, manoeuvre=n)
                             for n in rules._manoeuvres_for(profile_id, upgrades)]
    if hovering:
        tokens.append(DeclineManoeuvre(player=player, aircraft=aircraft_id))
    return tuple(tokens)


# ---------------------------------------------------------------- reducers


_replace = msgspec.structs.replace


def _manoeuvre_chosen(rules: AeronauticaRules, state: GameState, event: ManoeuvreChosen,
                      scope: FoldScope | None = None) -> GameState:
    """The token placed face down (p.13): the choice, its salt and the commitment the opponent sees."""
    aircraft = state.aircraft[event.aircraft]
    if scope is not None:  # the fold's own aircraft: changed in place (FoldScope)
        aircraft.commitment = event.commitment
        aircraft.manoeuvre = event.manoeuvre
        aircraft.salt = event.salt
        return state
    return with_aircraft(state, _replace(aircraft, commitment=event.commitment, manoeuvre=event.manoeuvre,
                                         salt=event.salt))


def _manoeuvre_declined(rules: AeronauticaRules, state: GameState, event: ManoeuvreDeclined,
                        scope: FoldScope | None = None) -> GameState:
    """A Hovering aircraft takes no token (p.16)."""
    return with_aircraft(state, replaced(state.aircraft[event.aircraft], scope, no_token=True), scope)


def _cleared_for_new_turn(a: AircraftState) -> bool:
    """Nothing of last turn left on the aircraft (:func:`_turn_began` clears these fields): most often an
    aircraft out of play, whose fields the turn before already cleared."""
    return (a.commitment is None and a.manoeuvre is None and a.salt is None and a.revealed is None
            and a.moved is False and a.may_land is False and a.path == () and a.fired is False
            and a.tail_gunner_used is False and a.no_token is False)


def _last_turn_cleared(state: GameState, scope: FoldScope | None) -> dict[str, AircraftState]:
    """The aircraft mapping with last turn's tokens, moves, firing and Tail Gunner use cleared (p.13): in a fold
    every aircraft in place (the fold's own, :class:`FoldScope`), else any aircraft with something to clear
    replaced in a new mapping; ``state.aircraft`` itself when nothing was replaced."""
    mapping = state.aircraft
    for key, a in state.aircraft.items():
        if scope is not None:
            # Set whatever they hold (setting a clear field changes nothing): an aircraft in play has chosen,
            # revealed, moved and fired, so asking first would cost more.
            a.commitment = None
            a.manoeuvre = None
            a.salt = None
            a.revealed = None
            a.moved = False
            a.path = ()
            a.fired = False
            if a.may_land is not False:
                a.may_land = False
            if a.tail_gunner_used is not False:
                a.tail_gunner_used = False
            if a.no_token is not False:
                a.no_token = False
        elif not _cleared_for_new_turn(a):
            if mapping is state.aircraft:
                mapping = mapping.copy()
            mapping[key] = _replace(
                a, commitment=None, manoeuvre=None, salt=None, revealed=None, moved=False, may_land=False,
                path=(), fired=False, tail_gunner_used=False, no_token=False)
    return mapping


def _turn_began(rules: AeronauticaRules, state: GameState, event: TurnBegan,
                scope: FoldScope | None = None) -> GameState:
    """A new turn (p.13): last turn's tokens, moves, firing and Tail Gunner use are cleared (an aircraft
    with nothing to clear is kept as it is: the same fields)."""
    aircraft = _last_turn_cleared(state, scope)
    if scope is None:
        return _replace(state, aircraft=aircraft, turn=event.turn, phase=CHOOSE_MANOEUVRES, initiative=None,
                        initiative_rolls=0, first_mover=None, to_act=None, active=None, step=None, passed=())
    # The fold's own state (its aircraft cleared in place): its fields set in place, those seldom set asked first.
    state.turn = event.turn
    state.phase = CHOOSE_MANOEUVRES
    state.initiative = None  # every turn rolls for the initiative (p.13)
    if state.initiative_rolls != 0:
        state.initiative_rolls = 0
    state.first_mover = None
    if state.to_act is not None:
        state.to_act = None
    if state.active is not None:
        state.active = None
    if state.step is not None:
        state.step = None
    if state.passed != ():
        state.passed = ()
    return state


@functools.cache
def _firing() -> types.ModuleType:
    """The firing part (it imports this module, so it is looked up when first needed)."""
    from . import firing

    return firing


def _fired_cleared(state: GameState, scope: FoldScope | None) -> dict[str, AircraftState]:
    """The aircraft mapping with every aircraft free to fire again (each fires once per phase, p.14): in a fold
    in place (the fold's own aircraft, :class:`FoldScope`), else any aircraft that fired replaced in a new
    mapping; ``state.aircraft`` itself when nothing was replaced."""
    mapping = state.aircraft
    for a in state.aircraft.values():
        if a.fired:
            if scope is not None:
                a.fired = False
                continue
            if mapping is state.aircraft:
                mapping = mapping.copy()
            mapping[a.id] = _replace(a, fired=False)
    return mapping


def _tailing_cleared(state: GameState, scope: FoldScope | None) -> dict[str, AircraftState]:
    """The aircraft mapping with last End phase's tailing expired (p.30), as :func:`_fired_cleared` does it."""
    mapping = state.aircraft
    for a in state.aircraft.values():
        if a.tailing or a.tailing_candidates:
            if scope is not None:
                a.tailing = None
                a.tailing_candidates = ()
                continue
            if mapping is state.aircraft:
                mapping = mapping.copy()
            mapping[a.id] = _replace(a, tailing=None, tailing_candidates=())
    return mapping


def _phase_began(rules: AeronauticaRules, state: GameState, event: PhaseBegan,
                 scope: FoldScope | None = None) -> GameState:
    """A new phase of the turn (p.13-14). Firing part: each aircraft fires once per phase; the initiative winner
    fires first in the Tailing Fire phase (p.13), the first mover in the Firing phase (p.14), or the other player
    if they have nothing that may fire. Tailing is determined afresh in every End phase (p.30): the old one
    expires as the End phase begins.

    In a fold (the fold's own state, :class:`FoldScope`) its fields are set in place, each once, and only those
    that change; otherwise a new state."""
    phase = event.phase
    if phase == TAILING_FIRE or phase == FIRING:
        aircraft = _fired_cleared(state, scope)
        if scope is not None:  # its aircraft cleared in place
            state.phase = phase
            if state.passed:
                state.passed = ()
        else:
            state = _replace(state, aircraft=aircraft, phase=phase, to_act=None, passed=())
        first = (state.initiative if phase == TAILING_FIRE else state.first_mover) or state.initiative \
            or state.players[0]
        one, other = state.players  # GameState.opponent, inline
        to_act = _firing().fires_next(state, first, other if first == one else one)  # first_to_fire(state, first)
        if scope is not None:
            state.to_act = to_act
            return state
        return state if to_act is None else _replace(state, to_act=to_act)
    if phase == END:
        aircraft = _tailing_cleared(state, scope)
        if scope is None:
            return _replace(state, aircraft=aircraft, phase=END, end_phase_done=())
        state.phase = END  # its aircraft cleared in place
        if state.end_phase_done:
            state.end_phase_done = ()
        return state
    if scope is not None:
        state.phase = phase  # the other phases change nothing else
        return state
    return _replace(state, phase=phase)


def _initiative_won(rules: AeronauticaRules, state: GameState, event: InitiativeWon,
                    scope: FoldScope | None = None) -> GameState:
    if scope is not None:  # the fold's own state: changed in place (FoldScope)
        state.initiative = event.player
        return state
    return _replace(state, initiative=event.player)


def _initiative_tied(rules: AeronauticaRules, state: GameState, event: InitiativeTied,
                     scope: FoldScope | None = None) -> GameState:
    if scope is not None:  # the fold's own state: changed in place (FoldScope)
        state.initiative_rolls = state.initiative_rolls + 1
        return state
    return _replace(state, initiative_rolls=state.initiative_rolls + 1)


def _first_mover_chosen(rules: AeronauticaRules, state: GameState, event: FirstMoverChosen,
                        scope: FoldScope | None = None) -> GameState:
    if scope is not None:  # the fold's own state: changed in place (FoldScope)
        state.first_mover = event.first
        state.to_act = event.first
        return state
    return _replace(state, first_mover=event.first, to_act=event.first)


def _turn_ended(rules: AeronauticaRules, state: GameState, event: TurnEnded,
                scope: FoldScope | None = None) -> GameState:
    if scope is not None:  # the fold's own state: changed in place (FoldScope)
        state.phase = END
        return state
    return _replace(state, phase=END)


def _game_ended(rules: AeronauticaRules, state: GameState, event: GameEnded,
                scope: FoldScope | None = None) -> GameState:
    return replaced(state, scope, phase=GAME_OVER, winner=event.winner, end_reason=event.reason)


#: The turn's reducers by event type (the ruleset's dispatch reads this table); each returns the new state.
_REDUCERS: dict[type, Callable[..., GameState]] = {
    ManoeuvreChosen: _manoeuvre_chosen,
    ManoeuvreDeclined: _manoeuvre_declined,
    TurnBegan: _turn_began,
    PhaseBegan: _phase_began,
    InitiativeWon: _initiative_won,
    InitiativeTied: _initiative_tied,
    FirstMoverChosen: _first_mover_chosen,
    TurnEnded: _turn_ended,
    GameEnded: _game_ended,
}


evolve = evolve_by_table(_REDUCERS, "the turn's own events")
