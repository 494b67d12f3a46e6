"""A game of Million-Colored Sun told in English, and its outcome."""

from __future__ import annotations

from typing import Any

from aero_events.core import DiceRolled
from aero_events.core.interface import Outcome
from aero_events.table import distance

from . import commands as cmd
from . import events as ev
from .state import GAME_OVER, HERO


def _in(value: int) -> str:
    text = f"{value / 2540:.1f}"
    return (text.removesuffix(".0")) + '"'


def _count(number: int, word: str) -> str:
    """"1 hit", "3 hits"."""
    return f"{number} {word}{'' if number == 1 else 's'}"


def _deg(value: int) -> str:
    return f"{value / 100:g} deg"


def describe_event(rules: Any, e: Any, state: Any = None) -> str:
    if isinstance(e, DiceRolled):
        return ""
    line = _describe(rules, e, state)
    if line and _battle_not_yet_begun(state):
        return f"Battle round 1 begins; {state.first} takes the first turn.\n{line}"
    return line


def _battle_not_yet_begun(state: Any) -> bool:
    """Whether ``state`` is the set-up as the battle starts: round 1 begins in the set-up, with no event of its
    own (later rounds begin with ``BattleRoundBegan``), so the first line told announces it. Nothing has
    happened yet while it is the first player's Hero phase of round 1 and no model has taken an action."""
    return (state is not None and state.round == 1 and state.turn_number == 1 and state.phase == HERO
            and state.first is not None and all(model.action is None for model in state.models.values()))


def _describe(rules: Any, e: Any, state: Any) -> str:
    if isinstance(e, ev.BattleRoundBegan):
        rolls = f" (roll-off {', '.join(f'{p} {r}' for p, r in e.rolls.items())})" if e.rolls else ""
        return f"Battle round {e.round} begins; {e.first} takes the first turn{rolls}."
    if isinstance(e, ev.PlayerTurnBegan):
        return f"{e.player}'s turn begins."
    if isinstance(e, ev.PhaseBegan):
        return f"{e.phase.capitalize()} phase."
    if isinstance(e, ev.CombatPickPassed):
        return ""
    if isinstance(e, ev.ObjectiveScored):
        return f"{e.player} scores {e.points} VP: {e.reason}."
    if isinstance(e, ev.GameEnded):
        scores = ", ".join(f"{p} {s} VP" for p, s in e.scores.items())
        return f"The battle ends ({e.reason}): {e.winner + ' wins' if e.winner else 'a draw'}; {scores}."
    if isinstance(e, ev.ActionTaken):
        return f"{e.model} takes the {e.action.replace('-', ' ').upper()} action" + (f" to {e.mode}." if e.mode else ".")
    if isinstance(e, ev.BlastMarkerGained):
        return f"{e.model} gains a Blast Marker ({e.reason})."
    if isinstance(e, ev.Recovered):
        return f"{e.model} removes a Blast Marker" + (f" and un-jams {', '.join(e.unjammed)}." if e.unjammed else ".")
    if isinstance(e, ev.EffectsExpired):
        return ""
    if isinstance(e, ev.MissileLaunched):
        return f"{e.model} launches {e.missile}."
    if isinstance(e, ev.ModelLeftBoard):
        return f"{e.model} flies off the board."
    if isinstance(e, ev.ReturnRolled):
        return f"{e.model} rolls {e.roll} to return to the board: " + ("it returns." if e.returns else "not yet.")
    if isinstance(e, ev.ModelReturned):
        return f"{e.model} returns at the board edge, heading {_deg(e.heading)}."
    if isinstance(e, ev.MissileLost):
        return f"{e.missile} flies off the board and is lost."
    if isinstance(e, ev.ModelFlew):
        name = rules.data.manoeuvres[e.manoeuvre].name
        extra = " with Pilot Input" if e.pilot_input else ""
        placed = " and is placed clear of what it ended atop" if e.placed_from else ""
        return f"{e.model} flies {name}{extra}{placed}."
    if isinstance(e, ev.ModelMoved):
        verb = "charges" if e.charge else "runs" if e.run else "moves"
        return f"{e.model} {verb} {_in(distance(e.path[0], e.path[-1]))}."
    if isinstance(e, ev.ChargeRolled):
        return f"{e.model} charges {e.target}: rolls {e.roll}, needs {e.needed}: " + \
            ("it goes in." if e.success else "it fails.")
    if isinstance(e, ev.ModeShifted):
        return f"{e.model} is now in {e.mode.upper()} mode."
    if isinstance(e, ev.CollisionWithTerrain):
        return f"{e.model} collides with {e.terrain}!"
    if isinstance(e, ev.BombDropped):
        return f"{e.model} drops a bomb; it drifts {e.drift}\" along the flight path and explodes."
    if isinstance(e, ev.TerrainDestroyed):
        return f"{e.terrain} is destroyed."
    if isinstance(e, ev.MissileTriggered):
        return f"{e.missile} comes within 1\" of {e.target}."
    if isinstance(e, ev.MissileExploded):
        why = {"target": "on its target", "fuel": "out of fuel", "destroyed": "destroyed"}.get(e.reason, e.reason)
        return f"{e.missile} explodes ({why})."
    if isinstance(e, ev.InitiativeTested):
        if e.roll == 0:
            return f"{e.model} fails its Initiative test ({e.reason}) automatically."
        sign = f"{e.modifier:+d}" if e.modifier else ""
        return f"{e.model} tests Initiative {e.target}+ ({e.reason}): {e.roll}{sign}, " + \
            ("passed." if e.passed else "failed.")
    if isinstance(e, ev.AttacksMade):
        tail = ", doubled from the rear arc" if e.doubled else ""
        return (f"{e.model} attacks {e.target} with {e.weapon}: {_count(e.attacks, 'attack')}, "
                f"{_count(e.hits, 'hit')}, {_count(e.wounds, 'wounding hit')}, {e.unsaved} unsaved, "
                f"{_count(e.inflicted, 'wound')} inflicted{tail}.")
    if isinstance(e, ev.WoundsAllocated):
        return f"{e.model} suffers {e.wounds} {'mortal ' if e.mortal else ''}wound{'s' if e.wounds != 1 else ''}."
    if isinstance(e, ev.ModelSlain):
        return f"{e.model} is slain ({e.reason})."
    if isinstance(e, ev.ModelFled):
        return f"{e.model} flees."
    if isinstance(e, ev.ModelFought):
        return ""
    if isinstance(e, ev.BattleshockTested):
        return f"{e.unit} takes a battleshock test: {e.roll} + {e.slain} lost against Bravery {e.bravery}: " \
               f"{e.flee} flee."
    return type(e).__name__


def describe_command(rules: Any, c: Any, state: Any = None) -> str:
    if isinstance(c, cmd.ChooseAction):
        return f"{c.model}: {c.action.replace('-', ' ').upper()}" + (f" to {c.mode}" if c.mode else "")
    if isinstance(c, cmd.PlaceReturning):
        return f"{c.model}: return at ({_in(c.x)}, {_in(c.y)}) heading {_deg(c.heading)}"
    if isinstance(c, cmd.FlyManoeuvre):
        text = f"{c.model}: {rules.data.manoeuvres[c.manoeuvre].name}"
        if c.pilot_heading is not None:
            text += f", Pilot Input {_in(c.pilot_distance)} towards {_deg(c.pilot_heading)}"
        if c.bomb_at is not None:
            text += f", bomb at {_in(c.bomb_at)}"
        return text
    if isinstance(c, cmd.MoveModel):
        return f"{c.model}: {'run' if c.run else 'move'} {_in(c.distance)} towards {_deg(c.heading)}"
    if isinstance(c, cmd.Shoot):
        return f"{c.model}: shoot {c.weapon} at {c.target}"
    if isinstance(c, cmd.DeclareCharge):
        return f"{c.model}: charge {c.target}"
    if isinstance(c, cmd.Fight):
        return f"{c.model}: fight {c.target}"
    if isinstance(c, cmd.EndPhase):
        return "end the phase"
    return type(c).__name__


def outcome(rules: Any, state: Any) -> Outcome:
    from .turn import scores

    if state.phase == GAME_OVER:
        return Outcome(finished=True, winner=state.winner, draw=state.winner is None,
                       scores={p: float(v) for p, v in state.vp.items()}, reason=state.reason)
    current = scores(rules, state, final=False)
    return Outcome(finished=False, scores={p: float(v) for p, v in current.items()},
                   reason=f"battle round {state.round} of {state.last_round}")
