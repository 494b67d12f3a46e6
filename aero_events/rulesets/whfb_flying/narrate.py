"""A battle told in English: events, commands and the outcome."""

from __future__ import annotations

from typing import Any

from aero_events.core import DiceRolled, ScatterRolled
from aero_events.core.interface import Outcome
from aero_events.core.orders import ReactionChosen, ReactionWindowOpened
from aero_events.table import INCH

from . import commands as cmd
from . import events as ev
from .state import GAME_OVER


def _in(length: int) -> str:
    return f"{length / INCH:.1f}\""


def _deg(heading: int) -> str:
    return f"{heading / 100:g} deg"


def describe_event(rules, event: Any, state: Any = None) -> str:
    e = event
    if isinstance(e, DiceRolled):
        return ""
    if isinstance(e, ScatterRolled):
        return f"  scatter ({e.purpose}): {'HIT' if e.hit else 'arrow ' + _deg(e.direction)}"
    if isinstance(e, ev.VanguardEnded):
        return f"{e.player} has made its Vanguard moves"
    if isinstance(e, ev.TurnBegan):
        return f"Turn {e.turn}: {e.player}'s turn"
    if isinstance(e, ev.PhaseBegan):
        return f"{e.phase.capitalize()} phase"
    if isinstance(e, ev.UnitMoved):
        return f"{e.unit} {e.how}{' (marching)' if e.march else ''} to ({_in(e.pose.x)}, {_in(e.pose.y)}) facing " \
               f"{_deg(e.pose.heading)}" + (f", {e.files} files" if e.files else "")
    if isinstance(e, ev.FlightMade):
        where = "in the air" if e.in_air else "on the ground"
        return f"{e.unit}: {e.move.capitalize()}, now {where} at ({_in(e.pose.x)}, {_in(e.pose.y)})"
    if isinstance(e, ev.ChargeDeclared):
        what = {"ground": "charges", "intercept": "intercepts", "swoop": f"swoops on the {e.flank} flank of"}[e.kind]
        return f"{e.unit} {what} {e.target}"
    if isinstance(e, ReactionWindowOpened):
        return f"  {e.decision.decider} decides {e.decision.question}: {', '.join(e.decision.choices)}"
    if isinstance(e, ReactionChosen):
        return f"  {e.decider} chooses: {e.choice}"
    if isinstance(e, ev.ChargeResolved):
        if e.reason == "caught fleeing":
            return f"  {e.unit} rolls {_in(e.distance)} (needs {_in(e.needed)}) and catches the fleeing {e.target}"
        if e.reason == "target gone":
            return f"  {e.unit}'s charge finds no target: {e.target} has left the battle"
        if e.reason == "charger lost":
            return f"  {e.unit} cannot complete its charge"
        if e.reached:
            return f"  {e.unit} rolls {_in(e.distance)} (needs {_in(e.needed)}) and hits the {e.side} of {e.target}"
        return f"  {e.unit} rolls {_in(e.distance)} (needs {_in(e.needed)}): the charge fails"
    if isinstance(e, ev.AttackResolved):
        mods = f" [{', '.join(e.modifiers)}]" if e.modifiers else ""
        return f"  {e.attacker} -> {e.target} ({e.attack}): {e.dice} dice, {e.hits} hits, {e.wounds} wounds, " \
               f"{e.unsaved} unsaved{mods}"
    if isinstance(e, ev.UnitWounded):
        end = "destroyed" if e.models == 0 else f"{e.models} models left"
        return f"  {e.unit} loses {e.models_lost} models ({e.wounds} wounds): {end}"
    if isinstance(e, ev.TestTaken):
        return f"  {e.unit} {e.test}: {e.score} against {e.target}, {'passed' if e.passed else 'failed'}"
    if isinstance(e, ev.ModelFell):
        return f"  a model of {e.unit} falls from the air" + (f" onto {e.struck}" if e.struck else "")
    if isinstance(e, ev.CharacterGrounded):
        return f"  {e.unit} crashes to the ground, {e.placement}"
    if isinstance(e, ev.UnitFled):
        return f"  {e.unit} flees {_in(e.distance)}" + (" off the table" if e.off_table else "")
    if isinstance(e, ev.UnitRallied):
        return f"  {e.unit} rallies"
    if isinstance(e, ev.FlewHigh):
        return f"  {e.unit} flies high, out of the battle ({e.reason})"
    if isinstance(e, ev.UnitDestroyed):
        return f"  {e.unit} is destroyed ({e.reason})"
    if isinstance(e, ev.CombatResolved):
        scores = ", ".join(f"{k} {v}" for k, v in e.scores.items())
        extra = f" ({'; '.join(e.details)})" if e.details else ""
        return f"  combat of {', '.join(e.units)}: {scores}{extra}; " + (f"{e.winner} wins" if e.winner else "a draw")
    if isinstance(e, ev.ChallengeIssued):
        return f"  {e.challenger} issues a challenge"
    if isinstance(e, ev.ChallengeSettled):
        if e.accepted_by:
            return f"  {e.accepted_by} accepts {e.challenger}'s challenge"
        if e.refused:
            return f"  {e.challenger}'s challenge is refused: {e.refused} stands back"
        return "  no challenge is issued"
    if isinstance(e, ev.CharacterLeft):
        return f"{e.character} leaves {e.unit} to ({_in(e.pose.x)}, {_in(e.pose.y)})" + \
            (" in the air" if e.in_air else "")
    if isinstance(e, ev.TemplatePlaced):
        struck = ", ".join(f"{k} {v}" for k, v in e.hits.items()) or "no model"
        return f"  {e.caster}'s {e.spell} lands at ({_in(e.centre[0])}, {_in(e.centre[1])}) " \
               f"{'in the air' if e.in_air else 'on the ground'}: hits {struck}"
    if isinstance(e, ev.CombatEnded):
        return f"  combat {e.charger} v {e.target} ends: {e.reason}"
    if isinstance(e, ev.GameEnded):
        scores = ", ".join(f"{k} {v} VP" for k, v in e.scores.items())
        return f"The battle ends ({e.reason}): {scores}; " + (f"{e.winner} wins" if e.winner else "a draw")
    return type(e).__name__


def describe_command(rules, command: Any, state: Any = None) -> str:
    c = command
    if isinstance(c, (cmd.Move, cmd.VanguardMove)):
        if getattr(c, "take_off", False):
            return f"{c.unit}: Vanguard Take Off"
        return f"{c.unit}: {'march' if getattr(c, 'march', False) else 'move'} {_in(c.distance)} at {_deg(c.heading)}"
    if isinstance(c, (cmd.TakeOff, cmd.Land)):
        name = "Take Off" if isinstance(c, cmd.TakeOff) else "Land"
        extra = f", {_in(c.distance)} at {_deg(c.heading)}" + (" on the ground first" if c.ground_first else "") \
            if c.distance else ""
        return f"{c.unit}: {name}{extra}"
    if isinstance(c, (cmd.Fly, cmd.Soar)):
        return f"{c.unit}: {type(c).__name__} {_in(c.distance)} at {_deg(c.heading)}"
    if isinstance(c, cmd.Swoop):
        return f"{c.unit}: Swoop on the {c.flank} flank of {c.target}"
    if isinstance(c, cmd.CastSpell):
        spell = rules.data.lore.get(c.spell)
        return f"{c.unit}: cast {spell.name if spell else c.spell} at {c.target}"
    if isinstance(c, cmd.LeaveUnit):
        return f"{c.unit}: leave its unit, {_in(c.distance)} at {_deg(c.heading)}"
    if isinstance(c, (cmd.Charge, cmd.Intercept, cmd.Shoot)):
        return f"{c.unit}: {type(c).__name__} {c.target}"
    if isinstance(c, cmd.React):
        return f"react: {c.choice}"
    if isinstance(c, cmd.FlyHigh):
        return f"{c.unit}: Fly High"
    if isinstance(c, cmd.Reform):
        return f"{c.unit}: reform to {c.files} files facing {_deg(c.heading)}"
    if isinstance(c, cmd.EndVanguard):
        return f"{c.player}: end the Vanguard moves"
    if isinstance(c, cmd.EndPhase):
        phase = _PHASE_NAMES.get(getattr(state, "phase", ""))
        return f"{c.player}: end the {phase}" if phase else f"{c.player}: end this phase"
    return f"{c.player}: {type(c).__name__}"


#: A phase as the rulebook names it (``GameState.phase`` -> words), for "end the Shooting phase".
_PHASE_NAMES = {"vanguard": "Vanguard moves", "movement": "Movement phase", "magic": "Magic phase",
                "shooting": "Shooting phase", "combat": "Close Combat phase"}


def outcome(rules, state) -> Outcome:
    from .turn import scores

    points = {side: float(value) for side, value in scores(rules, state).items()}
    if state.phase != GAME_OVER:
        return Outcome(finished=False, scores=points, reason=f"turn {state.turn} of {state.last_turn}")
    return Outcome(finished=True, winner=state.winner, draw=state.winner is None, scores=points, reason=state.reason)
