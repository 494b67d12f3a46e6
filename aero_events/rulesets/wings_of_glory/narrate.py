"""A game of Wings of Glory told in English (narration for demo, show, replay and report)."""

from __future__ import annotations

from collections.abc import Sequence
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
        return (f"{event.plane} fires {_gun_words(rules, state, event.plane, event.gun)}at {event.target}: "
                f"{event.band} range, {event.letters}{extra}{tail}.")
    if isinstance(event, e.TokensTaken):
        return f"{event.plane} takes {event.count} {event.letters} token(s) face down ({event.cause})."
    if isinstance(event, e.DamageResolved):
        notes = [word for word, on in (("smoking", event.smoke == 6), ("on fire", event.flames == 6),
                                        ("rudder jammed", event.rudder_jammed),
                                        (f"{event.crew_hits} crew hit(s)", event.crew_hits)) if on]
        return f"{event.plane}'s damage takes effect{': ' + ', '.join(notes) if notes else ''}."
    if isinstance(event, e.CrewWounded):
        return f"Crew hit on {event.plane}: {_crew_words(rules, state, event.plane, event.crewmen)} wounded."
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
        result = f"{event.winner} wins" if event.winner else "a draw"
        return f"The game ends ({event.reason}): {result}; {scores}."
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
        return f"{command.plane}: fire {_gun_words(rules, state, command.plane, command.gun)}at {command.target}{extra}"
    if isinstance(command, c.Done):
        return f"{command.player}: done"
    if isinstance(command, c.DropBombs):
        return f"{command.plane}: drop bombs on {command.target}"
    if isinstance(command, c.TakePhoto):
        return f"{command.plane}: photograph {command.target}"
    if isinstance(command, c.UseLuck):
        return f"{command.plane}: use Luck of the Devil to ignore damage token {command.index + 1} just drawn"
    if isinstance(command, c.SniperPick):
        return f"{command.player}: give the opponent Sniper token {command.choice + 1} of the two drawn"
    if isinstance(command, c.ChangeFloor):
        return f"{command.player}: move the altitude floor to {command.floor}"
    if isinstance(command, c.LaunchPac):
        return f"{command.player}: launch the parachute and cable {command.pac}"
    if isinstance(command, c.JettisonLoad):
        return f"{command.plane}: jettison its load"
    if isinstance(command, c.LaunchTorpedo):
        return f"{command.plane}: launch its torpedo"
    return f"{command.player}: {type(command).__name__}"


def _gun_words(rules: Any, state: Any, plane_id: str, gun: int) -> str:
    """A gun as a player names it: nothing for a plane with a single gun (so "fires at"), "gun 1 (rear MG 15)"
    when the state tells the plane's guns, else "gun 1". The number is the one a player types in the notation
    (``bf110-1 fires gun 1 at ...``, :mod:`.notation`) and the rules' errors name: the gun's place in the
    profile's list, the first being gun 0, which the notation leaves unsaid; the name tells which gun it is."""
    number = f"gun {gun}"
    guns = _profile_of(rules, state, plane_id, "guns")
    if guns is None or not 0 <= gun < len(guns):
        return number + " "
    return "" if len(guns) == 1 else f"{number} ({guns[gun].name}) "


def _crew_words(rules: Any, state: Any, plane_id: str, crewmen: Sequence[int]) -> str:
    """The wounded crewmen as a player names them: "the pilot", or "the gunner (crewman 3)" when two share the
    role, when the state tells the plane's crew; else "crewman 1" (events keep the 0-based index into the
    profile's crew; players count from 1)."""
    crew = _profile_of(rules, state, plane_id, "crew")
    words = []
    for index in crewmen:
        number = f"crewman {index + 1}"
        if crew is None or not 0 <= index < len(crew):
            words.append(number)
        else:
            role = crew[index].replace("_", " ")
            words.append(f"the {role}" if crew.count(crew[index]) == 1 else f"the {role} ({number})")
    return " and ".join(words)


def _profile_of(rules: Any, state: Any, plane_id: str, field: str) -> Any:
    """``field`` of the plane's profile, or None when no state (or no such plane) is at hand."""
    planes = getattr(state, "planes", None)
    if not planes or plane_id not in planes:
        return None
    return getattr(rules.catalogue.planes[planes[plane_id].profile], field)
