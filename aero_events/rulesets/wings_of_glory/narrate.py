"""A game of Wings of Glory told in English (narration for demo, show, replay and report)."""

from __future__ import annotations

from typing import Any

from aero_events.core import DiceRolled
from aero_events.core.orders import OrdersDiscarded, OrdersOpened, OrdersRevealed
from aero_events.core.pools import PoolDrawn, PoolReturned, SecretPoolDrawn, SecretPoolReturned
from aero_events.core.secrets import RedactedEvent

from . import commands as c
from . import events as e


def describe_event(rules: Any, event: Any, state: Any = None) -> str:
    if isinstance(event, e.TurnBegan):
        return f"Turn {event.turn} begins: every pilot plans a card."
    if isinstance(event, e.PhaseBegan):
        names = {"move": "Movement: the cards are revealed and all planes move.",
                 "bomb": "Bomb and other actions.", "end": "End of the turn."}
        if event.phase == "fire":
            return {"3a": "Fire 3a: aces with Itchy Trigger Finger.", "3b": "Fire 3b: normal aircrew.",
                    "3c": "Fire 3c: novice or wounded aircrew."}[event.subphase or "3b"]
        return names.get(event.phase, "")
    if isinstance(event, e.CardPlanned):
        where = "first" if event.step == "setup" else "second"
        return f"{event.slot} plans card {event.order} face down ({where} slot)."
    if isinstance(event, RedactedEvent):
        who = event.public.get("plane", event.public.get("slot", event.owner))
        what = _FACE_DOWN.get(event.secret_type.split(".")[-1], "choice")
        return f"{who}: {what}, face down."
    if isinstance(event, OrdersRevealed):
        return "The cards are turned face up: " + ", ".join(f"{o.slot} {o.order}" for o in event.orders) + "."
    if isinstance(event, OrdersDiscarded):
        return f"The cards of {', '.join(event.slots)} are put aside unseen."
    if isinstance(event, OrdersOpened):
        return f"Planning ({event.step}): {', '.join(sorted(event.slots))} each plan a card."
    if isinstance(event, e.CardRevealed):
        return f"{event.plane} reveals card {event.card} ({event.executed.replace('_', ' ')})."
    if isinstance(event, e.IllegalManoeuvre):
        return f"{event.plane}'s card {event.card} is illegal ({event.reason}); it flies a straight instead."
    if isinstance(event, e.PlaneMoved):
        return (f"{event.plane} flies {event.executed.replace('_', ' ')} to ({event.pose.x / 100:.0f}, "
                f"{event.pose.y / 100:.0f}) mm heading {event.pose.heading / 100:.0f} deg, altitude {event.level}"
                f"{f' +{event.climb} climb' if event.climb else ''}.")
    if isinstance(event, e.PlaneOut):
        return f"{event.plane} is out of the game ({event.status.replace('_', ' ')}): {event.reason}."
    if isinstance(event, e.PlanesOverlap):
        return f"{event.first} and {event.second} overlap{' (one model replaced by its card)' if event.replaced else ''}."
    if isinstance(event, e.Fired):
        extra = f", improved aim ({event.improved_aim})" if event.improved_aim else ""
        tail = ", tailing" if event.tailing else ""
        return f"{event.plane} fires gun {event.gun} at {event.target}: {event.band} range, {event.letters}{extra}{tail}."
    if isinstance(event, e.TokensTaken):
        return f"{event.plane} takes {event.count} {event.letters} token(s) face down ({event.cause})."
    if isinstance(event, e.DamageResolved):
        notes = [word for word, on in (("smoking", event.smoke == 6), ("on fire", event.flames == 6),
                                        ("rudder jammed", event.rudder_jammed),
                                        (f"{event.crew_hits} crew hit(s)", event.crew_hits)) if on]
        return f"{event.plane}'s damage takes effect{': ' + ', '.join(notes) if notes else ''}."
    if isinstance(event, e.CrewWounded):
        return f"Crew hit on {event.plane}: crewman {', '.join(map(str, event.crewmen))} wounded."
    if isinstance(event, e.SkillUsed):
        return f"{event.plane} uses {event.skill.replace('_', ' ')} (four Recovery counters)."
    if isinstance(event, e.GroundFire):
        words = {"troops": "ground troops fire at", "counter_placed": "puts its artillery counter on",
                 "counter_resolved": "fires at", "counter_returned": "takes back its counter from"}
        return f"{event.target_piece} {words[event.action]} {event.plane}."
    if isinstance(event, e.TargetDamaged):
        state_word = " and is silenced" if event.silenced else ""
        return f"{event.target_piece} has {event.points} strafing points{state_word}."
    if isinstance(event, e.BombDropped):
        return f"{event.plane} drops bombs on {event.target_piece} ({event.method}): {event.result}."
    if isinstance(event, e.PhotoTaken):
        return f"{event.plane} photographs {event.target_piece}: {'good' if event.good else 'spoiled'}."
    if isinstance(event, e.GameEnded):
        scores = ", ".join(f"{side} {score}" for side, score in event.scores.items())
        return f"The game ends ({event.reason}): {event.winner or 'a draw'}; {scores}."
    if isinstance(event, DiceRolled):
        return f"{event.purpose}: rolled {', '.join(map(str, event.faces))}."
    if isinstance(event, (PoolDrawn,)):
        return f"{event.purpose}: drew {', '.join(event.items)} face up."
    if isinstance(event, (SecretPoolDrawn, SecretPoolReturned, PoolReturned)):
        return ""
    if isinstance(event, e.SmokeAndFire):
        return f"{event.plane}: {event.smoke} smoke and {event.flames} flame counters left."
    return ""


#: What another player sees of each sealed event, in words (the spectator's and the opponent's panels).
_FACE_DOWN = {"CardPlanned": "a manoeuvre card planned", "SecretPoolDrawn": "damage counters drawn",
              "SecretPoolReturned": "counters returned to the pool", "SecretCommandIssued": "an order given"}


def describe_command(rules: Any, command: Any, state: Any = None) -> str:
    if isinstance(command, c.PlanCard):
        if state is not None and command.plane in state.planes:
            from .pieces import card
            return f"{command.plane}: plan card {card(rules, state.planes[command.plane], command.card).label}"
        return f"{command.plane}: plan card {command.card}"
    if isinstance(command, c.Fire):
        extra = " (Perfect Aim)" if command.perfect_aim else f" (Sniper, {command.sniper})" if command.sniper else ""
        return f"{command.plane}: fire gun {command.gun} at {command.target}{extra}"
    if isinstance(command, c.Done):
        return f"{command.player}: done"
    if isinstance(command, c.DropBombs):
        return f"{command.plane}: drop bombs on {command.target}"
    if isinstance(command, c.TakePhoto):
        return f"{command.plane}: photograph {command.target}"
    return f"{type(command).__name__}({command.player})"
