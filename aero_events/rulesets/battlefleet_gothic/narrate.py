"""A Battlefleet Gothic game told in English, and its outcome."""

from __future__ import annotations

from typing import Any

from aero_events.core import DiceRolled
from aero_events.core.interface import Outcome
from aero_events.core.orders import ReactionChosen, ReactionWindowOpened

from . import commands as cmd
from . import events as ev
from .data import CM, DEGREE


def _cm(units: int) -> str:
    return f"{units / CM:.1f} cm"


def _count(number: int, one: str, many: str | None = None) -> str:
    """"1 hit", "3 hits" ("1 torpedo", "2 torpedoes" with ``many`` given)."""
    return f"{number} {one if number == 1 else many or one + 's'}"


def weapon_words(weapon_id: str) -> str:
    """A weapon as the profile (p.4) names it, from its id: "starboard_long_battery" -> "starboard long-range
    battery", "port_bays" -> "port launch bays", "prow_nova_cannon" -> "prow nova cannon"."""
    return weapon_id.replace("_long_", " long-range ").replace("_bays", " launch bays").replace("_", " ")


def _value_words(weapon_id: str, value: int) -> str:
    """What a weapon's number is (p.4): Firepower for batteries, Strength for lances and torpedoes."""
    return f"firepower {value}" if weapon_id.endswith("battery") else f"strength {value}"


def ending_words(state: Any, reason: str) -> str:
    """Why the battle ended, in words: the recorded reason names the first side found with no ship fighting,
    so when neither side has one left (a draw) it says so instead."""
    from .turn import fighting

    players = getattr(state, "players", ())
    if players and not any(fighting(state, side) for side in players):
        return "neither side has ships left fighting"
    return reason


def _name(rules, state, ship_id: str) -> str:
    if state is not None and ship_id in getattr(state, "ships", {}):
        return state.ships[ship_id].name
    return ship_id


def describe_event(rules, event: Any, state: Any = None) -> str:
    n = lambda sid: _name(rules, state, sid)
    match event:
        case DiceRolled():
            return ""
        case ev.LeadershipRolled():
            how = f"rolled {event.roll}" if event.roll else "set by the scenario"
            return f"{n(event.ship)} has Leadership {event.leadership} ({how})."
        case ev.FirstTurnRolled():
            rolls = ", ".join(f"{p} {r}" for p, r in event.rolls.items())
            return f"Roll for the first turn: {rolls}; " + (f"{event.winner} chooses." if event.winner else "a tie.")
        case ev.TurnOrderChosen():
            return f"{event.first} takes the first turn."
        case ev.PlayerTurnBegan():
            return f"Turn {event.round}: {event.player} moves and fights."
        case ev.PhaseBegan():
            return ""
        case ev.CommandCheckTaken():
            verdict = "passes" if event.passed else "fails"
            return f"{n(event.ship)} {verdict} a Command check for {event.order} ({event.roll} against Ld {event.leadership})."
        case ev.OrderPlaced():
            return f"{n(event.ship)} is on {event.order} orders."
        case ev.AllAheadFullRolled():
            return f"{n(event.ship)} goes All Ahead Full: +{_cm(event.extra)}."
        case ev.LeadershipTestTaken():
            verdict = "passes" if event.passed else "fails"
            return f"{n(event.ship)} {verdict} a Leadership test ({event.purpose}): {event.roll} against {event.leadership}."
        case ev.ShipMoved():
            through = " through Blast markers" if event.through_blast_markers else ""
            return f"{n(event.ship)} moves {_cm(event.distance)}{through}, heading {event.heading / DEGREE:.0f}°."
        case ev.ShipLeftTable():
            return f"{n(event.ship)} leaves the table and disengages."
        case ev.HulkDrifted():
            return f"The hulk of {n(event.ship)} drifts {_cm(event.distance)}."
        case ev.ReactionOffered():
            return ""
        case ReactionChosen():
            return f"{event.decider} reacts: {event.choice}."
        case ReactionWindowOpened():
            return ""
        case ev.BraceFailed():
            return f"{n(event.ship)} fails to brace."
        case ev.WeaponsFired():
            weapons = ", ".join(f"{weapon_words(w)} ({_value_words(w, a)})" for w, a in event.weapons)
            return f"{n(event.ship)} fires {weapons} at {n(event.target)}."
        case ev.GunneryResolved():
            return (f"Gunnery: firepower {event.firepower}, column {event.column}, {event.dice} dice needing "
                    f"{event.needed}+: {_count(event.hits, 'hit')}.")
        case ev.LancesResolved():
            return f"Lances of {n(event.ship)}: strength {event.strength}, {_count(event.hits, 'hit')} on {n(event.target)}."
        case ev.NovaCannonFired():
            if event.scatter < 0:
                return f"{n(event.ship)} holds its nova cannon."
            return f"{n(event.ship)} fires its nova cannon; the shell scatters {_cm(event.scatter)}."
        case ev.HitsAbsorbed():
            return f"{n(event.ship)}'s shields absorb {_count(event.hits, 'hit')}."
        case ev.HitsSaved():
            return f"{n(event.ship)} braced: {event.saved} of {_count(event.hits, 'hit')} saved."
        case ev.DamageTaken():
            return f"{n(event.ship)} takes {event.amount} damage ({event.source}); {event.damage} in all."
        case ev.ShipCrippled():
            return f"{n(event.ship)} is crippled!"
        case ev.CriticalHit():
            return f"Critical hit on {n(event.ship)}: {event.critical}" + (f" (+{event.extra})." if event.extra else ".")
        case ev.CatastrophicDamage():
            return f"{n(event.ship)} is out of action: {event.result}."
        case ev.ShipDestroyed():
            return f"{n(event.ship)} is destroyed ({event.reason})."
        case ev.OrdnanceLaunched():
            return f"{n(event.launcher)} launches torpedoes, strength {event.strength}."
        case ev.OrdnanceRemoved():
            return f"Salvo {event.marker} is removed: {event.reason}."
        case ev.TurretsFired():
            return f"{n(event.ship)}'s turrets fire: {_count(event.hits, 'torpedo', 'torpedoes')} down."
        case ev.TorpedoAttack():
            return f"Torpedoes strike {n(event.ship)}: {_count(event.hits, 'hit')} of {event.strength}."
        case ev.TorpedoesSteered():
            hulks = ", ignoring hulks" if event.ignore_hulks else ""
            return f"Boarding torpedoes {event.marker} steer to heading {event.heading / DEGREE:.0f}°{hulks}."
        case ev.HitAndRunRaid():
            verdict = "wreak havoc: a critical hit" if event.success else "are repelled"
            return f"Raiders from {event.raider} board {n(event.ship)} and {verdict} ({event.roll}, needing {event.needed})."
        case ev.ExplosionStrikesQueued():
            if not event.victims:
                return ""
            return (f"The blast of {n(event.wreck)} reaches {', '.join(n(v) for v in event.victims)}: "
                    f"{event.strength} lance shots each.")
        case ev.WaveSplit():
            return f"Wave {event.marker} splits; {event.new_marker} holds back."
        case ev.FightersScreened():
            return f"Fighters {event.marker} move with {n(event.ship)} to screen it."
        case ev.CriticalRepaired():
            return f"{n(event.ship)}'s crew repair {event.critical}."
        case ev.BlastMarkersRemoved():
            return f"{len(event.markers)} Blast markers dissipate."
        case ev.Surrendered():
            return f"{event.player} surrenders."
        case ev.GameEnded():
            scores = ", ".join(f"{p} {s}" for p, s in event.scores.items())
            winner = f"{event.winner} wins" if event.winner else "a draw"
            return f"The battle ends ({ending_words(state, event.reason)}): {winner}, {scores}."
    return ""


def describe_command(rules, command: Any, state: Any = None) -> str:
    n = lambda sid: _name(rules, state, sid)
    match command:
        case cmd.MoveShip():
            turns = ", ".join(f"{t / DEGREE:+.0f}°" for t in command.turns)
            legs = " then ".join(_cm(leg) for leg in command.legs)
            return f"{n(command.ship)}: move {legs}" + (f", turning {turns}" if turns else "")
        case cmd.GiveOrder():
            return f"{n(command.ship)}: {command.order}"
        case cmd.FireWeapons():
            return f"{n(command.ship)}: fire {', '.join(map(weapon_words, command.weapons))} at {n(command.target)}"
        case cmd.FireNovaCannon():
            return f"{n(command.ship)}: nova cannon at ({_cm(command.x)}, {_cm(command.y)})"
        case cmd.LaunchTorpedoes():
            kind = "" if command.kind == "standard" else f"{command.kind} "
            return f"{n(command.ship)}: launch {kind}torpedoes heading {command.heading / DEGREE:.0f}°"
        case cmd.React():
            return f"{n(command.ship)}: {'brace' if command.brace else 'no brace'}" + \
                ("" if command.turrets else ", hold turrets")
        case cmd.RemoveBlastMarkers():
            return f"remove Blast markers {', '.join(map(str, command.markers))}"
        case cmd.SteerTorpedoes():
            return f"torpedoes {command.marker}: turn {command.turn / DEGREE:+.0f}°"
        case cmd.RecallAttackCraft():
            return f"recall wave {command.marker}"
        case cmd.LaunchAttackCraft():
            boats = f" and {command.assault_boats} assault boat" if command.assault_boats else ""
            return (f"{n(command.ship)}: launch {command.fighters} fighter, {command.bombers} bomber{boats} "
                    "squadrons")
        case cmd.MoveAttackCraft():
            return f"wave {command.marker}: fly to ({_cm(command.x)}, {_cm(command.y)})"
        case cmd.EndShooting():
            return "end shooting"
        case cmd.ChooseTurnOrder():
            return "go first" if command.go_first else "go second"
        case cmd.RollOff():
            return "roll Leadership and for the first turn"
        case cmd.Surrender():
            return f"{command.player}: surrender"
        case cmd.BraceForImpact():
            return f"{n(command.ship)}: brace for impact"
    return f"{command.player}: {type(command).__name__}"


def outcome(rules, state) -> Outcome:
    from .turn import scores

    points = {player: float(score) for player, score in scores(rules, state).items()}
    if not rules.is_over(state):
        return Outcome(finished=False, scores=points, reason=f"turn {state.round} under way")
    return Outcome(finished=True, winner=state.winner, draw=state.winner is None, scores=points,
                   reason=ending_words(state, state.result))
