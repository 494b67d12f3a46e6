"""The Firing phase and the Tailing Fire phase (rulebook p.13-14, p.20-28).

**Sequence** (p.14, p.20): the player who moved first chooses an aircraft and fires all its available
weapons; players then alternate; once one side has no aircraft left to fire, the other fires its
remaining aircraft one after another. A player with no more aircraft that wish to fire passes
(:class:`PassFiring`). The **Tailing Fire** phase (p.13, p.23) runs the same way from the initiative
winner, for aircraft Tailing an enemy (set in the previous End phase, p.30), at that enemy only; a
Tailing aircraft's target may return fire at once with its **Tail Gunner** weapons (p.24), even if
that fire destroyed it.

**Who may fire**: an aircraft in the air that has not fired this phase and has a weapon with Ammo
left; not landed (p.19), not in the turn it took off (p.19), not in a Spin (p.29), not destroyed or
disengaged. A Ground Defence fires in the Firing phase "as if it was another aircraft" (p.28).

**A volley** (:class:`FireWeapons`): each weapon at most once, each at a target in its Fire Arc, one
target per Fire Arc (p.21), a target on the line between two arcs usable from either. Then the steps of
p.20: every weapon rolls its Firepower dice to hit (p.22) and spends its Ammo (p.22, even out of
range), then every weapon that hit rolls its Damage dice (p.23). Events: :class:`VolleyDeclared` (the
decision), then per weapon :class:`WeaponFired`, the to-hit ``DiceRolled`` (target number and
modifiers recorded), :class:`HitsScored`; then per weapon the Damage ``DiceRolled``,
:class:`DamageRolled`, and ``DamageSuffered`` / ``AircraftDestroyed`` (or :class:`GroundTargetDamaged`);
:class:`VolleyEnded` closes it.

**Imperial Ace / Fly Boss** (p.37, p.45): after each to-hit or Damage roll made for a firer whose
once-per-game re-roll is unused, the volley pauses (:class:`RerollOffered`, ``state.volley.pending``)
until its player sends :class:`AcceptRoll` or :class:`UseReroll`.

Choices where the text is silent:

* All to-hit rolls of a volley come before any Damage roll (the steps of p.20 are per aircraft), so
  no weapon is wasted by another's damage; Damage dice are not rolled against a target already shot
  down earlier in the same volley (``DamageRolled.skipped``); Ammo was still spent.
* An aircraft chosen to fire may fire no weapon at all (it "holds its fire", an empty volley): that
  uses its turn to fire in the alternation.
* In the Tailing Fire phase a Tailing aircraft fires only at the aircraft it is Tailing ("may fire at
  the tailed aircraft", p.13); Tail Gunner return fire only at the Tailing aircraft that fired on it.
  An aircraft may fire both in the Tailing Fire phase and in the Firing phase ("a bonus Firing phase").
* A Strafing Run (p.26) "may not target other aircraft in a different Fire Arc": since one Fire Arc
  holds one target (p.21), an aircraft that strafes fires at no aircraft in the air that phase.
* A Bombing Run's ground target takes no Fire Arc from fire at aircraft (p.21 "one enemy aircraft" per arc,
  p.26 "whilst simultaneously targeting other aircraft"): Bombing Runs count their arcs among themselves
  (:func:`bombing_arcs`).
* Imperial Ace / Fly Boss of the *target*: its armour roll against a weapon's damage may hold the volley for
  its player too (:mod:`.rerolls`, ``state.pending_roll``).
* :func:`legal_commands` lists, per eligible aircraft, every choice of one target (or none) per Fire
  Arc, each weapon firing at a chosen target its arcs reach (each one as a variant when it reaches
  two), limited-Ammo weapons also held back. It offers only shots that roll at least one Firepower
  die that could hit (targets within 10 hexes, dice at that range, a reachable score); a weapon that
  would roll nothing or could not hit is accepted by :class:`FireWeapons` (Ammo is spent, p.22) but
  not offered, since firing it can change nothing but waste Ammo. The choices are a product over
  Fire Arcs (a Ground-to-Air weapon counts as an arc of its own), deduplicated.
* Autonomous weapons (p.25) are offered one placement at a time (:class:`LaunchAutonomous`): the
  aircraft's firing stays open (``state.volley.open``) until the same aircraft finishes with
  :class:`FireWeapons`. Offering placements inside FireWeapons would multiply every targeting choice by
  every pair of placements (tens of thousands of commands for one aircraft); one at a time they add
  up instead. FireWeapons still accepts placements in its shots, for a caller that knows them all.
"""

from __future__ import annotations

import functools
import itertools
import weakref
from typing import TYPE_CHECKING, Any

import msgspec

from aero_events.core import Command, DiceCup, DiceRolled, Event, RuleError
from aero_events.hexgrid import MAX_RANGE

from . import autonomous, rerolls
from .altitude import suffer_damage
from .commands import AcceptRoll, FireWeapons, LaunchAutonomous, PassFiring, SteerAutonomous, UseReroll
from .events import (
    AutonomousAttacked,
    AutonomousDistanceRolled,
    AutonomousLaunched,
    AutonomousMoved,
    AutonomousRemoved,
    BombCreepRolled,
    DamageIgnored,
    DamageRolled,
    DecoyLaunched,
    FiringPassed,
    GroundTargetDamaged,
    GroundTargetDestroyed,
    HitsScored,
    RerollOffered,
    RerollUsed,
    ReturnFireOffered,
    RollAccepted,
    Shot,
    TailingDetermined,
    VolleyDeclared,
    VolleyEnded,
    WeaponFired,
)
from .ground import (
    BOMB_CREEP_ROLL,
    GROUND_TARGET,
    LANDED_AIRCRAFT,
    Target,
    all_targets,
    bomb_creep_victims,
    evolve_ground_target_damaged,
    evolve_ground_target_destroyed,
    find_target,
    is_enemy,
)
from .state import (
    DESTROYED,
    FIRING,
    FLYING,
    LANDED,
    TAILING_FIRE,
    AircraftState,
    AutoRoll,
    FoldScope,
    GameState,
    PendingRoll,
    ReturnFire,
    ShotProgress,
    Volley,
    VolleyDraft,
    aircraft_with,
    evolve_by_table,
    replaced,
    thaw_volley,
    with_aircraft,
)
from .tailing import tailed_by
from .upgrades import armour_result, armour_roll, decoy, reroll_upgrade
from .weapons import (
    AIR,
    AUTONOMOUS,
    BOMBING,
    STRAFING,
    arc_keys,
    attack_kind,
    attack_kind_at,
    band_at,
    can_hit,
    count_hits,
    damage_losses,
    distance,
    firepower_dice,
    firing_altitude,
    has_rule,
    hex_arcs,
    hit_requirements,
    inflict,
    reach,
    success,
    target_arcs,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

    from .profiles import WeaponProfile
    from .ruleset import AeronauticaRules
    from .turn import Emitter

# What a volley is.
FIRE = "firing"  # the Firing phase (p.20)
TAILING = "tailing"  # the Tailing Fire phase (p.13, p.23)
TAIL_GUNNER = "tail_gunner"  # return fire (p.24)

TO_HIT_STAGE, DAMAGE_STAGE = "to_hit", "damage"


# ---------------------------------------------------------------- who fires, and when


def has_ammo(aircraft: AircraftState) -> bool:
    """A weapon with Ammo left, or unlimited (None) (p.22)."""
    for left in aircraft.ammo:
        if left is None or left > 0:
            return True
    return False


def cannot_fire(state: GameState, aircraft: AircraftState) -> tuple[str, str, int] | None:
    """Why ``aircraft`` may not be chosen to fire in this phase (message, rule, page), or None."""
    reason = _refusal(state, aircraft)
    if reason is None:
        return None
    if reason == _TAILED_GONE:
        tailed = [state.aircraft[t] for t in tailed_by(aircraft) if t in state.aircraft]
        return (f"{', '.join(t.id for t in tailed)}, which {aircraft.id} is Tailing, is no longer in the air",
                "Tailing Fire", 13)
    message, rule, page = _REFUSALS[reason]
    return message.format(id=aircraft.id, status=aircraft.status), rule, page


#: Why an aircraft may not fire (:func:`_refusal`): the message (formatted with its id and status), rule, page.
_REFUSALS: dict[int, tuple[str, str, int]] = {
    1: ("{id} is {status}", "Firing", 20),
    2: ("{id} has already fired this phase", "Firing phase sequence", 20),
    3: ("{id} has no weapon with Ammo left", "Ammo", 22),
    4: ("a Ground Defence fires in the Firing phase", "Ground-to-Air Fire", 28),
    5: ("landed aircraft cannot fire ({id})", "Landing", 19),
    6: ("{id} is in a Spin and may not fire", "Recovering from a Spin", 29),
    7: ("{id} is not Tailing an enemy aircraft", "Tailing Fire", 13),
    9: ("{id} took off this turn and may not fire", "Taking-off", 19),
}
_TAILED_GONE = 8


def _refusal(state: GameState, aircraft: AircraftState) -> int | None:
    """The rule that keeps ``aircraft`` from firing in this phase, as a key of :data:`_REFUSALS` (or
    ``_TAILED_GONE``), or None: :func:`cannot_fire` without building its message."""
    if not aircraft.in_play:
        return 1
    if aircraft.fired:
        return 2
    if not has_ammo(aircraft):
        return 3
    if aircraft.ground_defence:
        return 4 if state.phase != FIRING else None
    if aircraft.status != FLYING:
        return 5
    if aircraft.spinning:
        return 6
    if state.phase == TAILING_FIRE:
        tailed = [state.aircraft[t] for t in tailed_by(aircraft) if t in state.aircraft]
        if not tailed:
            return 7
        if all(target.status != FLYING or target.ground_defence for target in tailed):
            return _TAILED_GONE
        return None
    if aircraft.took_off_turn == state.turn:
        return 9
    return None


def may_fire(state: GameState, aircraft: AircraftState) -> bool:
    return _refusal(state, aircraft) is None


def _has_eligible(state: GameState, player: str, fired: str | None = None) -> bool:
    """``player`` has not passed and has an aircraft that may fire in this phase (``fired``: an aircraft to
    count as having fired, whatever ``state`` says).

    An aircraft that has fired this phase (p.20), or in the Tailing Fire phase one that tails nothing (p.13),
    is refused by :func:`_refusal` whatever else holds, so it is passed by without asking it."""
    if player in state.passed:
        return False
    tailing_phase = state.phase == TAILING_FIRE
    for a in state.aircraft.values():
        if (a.owner != player or a.fired or a.id == fired
                or (tailing_phase and a.tailing is None and not a.tailing_candidates)):
            continue
        if _refusal(state, a) is None:
            return True
    return False


def first_to_fire(state: GameState, first: str | None) -> str | None:
    """Who chooses the first aircraft: ``first`` (the first mover, or the initiative winner in the Tailing
    Fire phase), or the other player when ``first`` has nothing that may fire (p.13-14, p.20)."""
    first = first or state.initiative or state.players[0]
    for player in (first, state.opponent(first)):
        if _has_eligible(state, player):
            return player
    return None


def next_to_fire(state: GameState, just_fired: str, fired: str | None = None) -> str | None:
    """Alternate; once a side has nothing left to fire, the other fires its remaining aircraft (p.14).

    ``fired``: the aircraft whose volley just ended, counted as having fired (its ``fired`` flag not yet set
    in ``state``): whether it has fired changes no other aircraft's eligibility."""
    for player in (state.opponent(just_fired), just_fired):
        if _has_eligible(state, player, fired):
            return player
    return None


def phase_open(state: GameState) -> bool:
    """Something is still to be decided in a Tailing Fire or Firing phase."""
    return state.to_act is not None or state.volley is not None or state.return_fire is not None


def tailing_fire_over(rules: AeronauticaRules, out: Emitter, dice: DiceCup) -> bool:
    """The Tailing Fire phase ends when every Tailing aircraft has fired or passed (p.13)."""
    return not phase_open(out.state)


def firing_over(rules: AeronauticaRules, out: Emitter, dice: DiceCup) -> bool:
    """Run the Firing phase's automatic steps; True when it is over (p.14, p.20, p.25).

    Autonomous weapons first travel their D3+3 (end of the Movement phase); when every aircraft that
    wishes to fire has fired, Autonomous weapons adjacent to aircraft roll to hit.
    """
    if out.state.autonomous and not autonomous.move_weapons(rules, out, dice):  # none on the board: none to move
        return False
    if phase_open(out.state):
        return False
    autonomous.attacks(rules, out, dice)
    return True


# ---------------------------------------------------------------- checking a volley


def _weapon(rules: AeronauticaRules, aircraft: AircraftState, index: int) -> WeaponProfile:
    return rules.catalogue.weapons[aircraft.weapons[index]]


def assign_arcs(items: list[tuple[str, frozenset[str]]]) -> dict[str, str] | None:
    """One target per Fire Arc (p.21): choose for each (target, arcs reaching it) an arc so that no arc
    holds two targets. A small backtracking search; None if impossible."""
    ordered = sorted(items, key=lambda item: len(item[1]))
    used: dict[str, str] = {}

    def place(i: int) -> bool:
        if i == len(ordered):
            return True
        target, arcs = ordered[i]
        for arc in sorted(arcs):
            holder = used.get(arc)
            if holder == target:
                if place(i + 1):
                    return True
            elif holder is None:
                used[arc] = target
                if place(i + 1):
                    return True
                del used[arc]
        return False

    return dict(used) if place(0) else None


def volley_kind(state: GameState, command: FireWeapons | LaunchAutonomous) -> str:
    """Whose turn it is and what kind of volley this is; refuse anything out of turn."""
    if state.phase not in (FIRING, TAILING_FIRE):
        raise RuleError("aircraft fire in the Tailing Fire and Firing phases", rule="Firing", page=20)
    volley = state.volley
    if volley is not None and volley.open:
        if command.aircraft != volley.aircraft or command.player != volley.player:
            raise RuleError(f"{volley.aircraft} is firing: it finishes first", rule="Firing phase sequence", page=20)
        return FIRE
    if volley is not None:
        raise RuleError("the roll just made waits for AcceptRoll or UseReroll", rule="Imperial Ace / Fly Boss",
                        page=37)
    if state.autonomous and autonomous.awaiting_steer(state):  # no Autonomous weapon on the board: none to steer
        raise RuleError("an Autonomous weapon is to be steered before anyone fires", rule="Autonomous Weapons",
                        page=25)
    aircraft = state.aircraft.get(command.aircraft)
    if aircraft is None or aircraft.owner != command.player:
        raise RuleError(f"{command.player} has no aircraft {command.aircraft!r}", rule="Firing", page=20)
    if state.return_fire is not None:
        pending = state.return_fire
        if command.aircraft != pending.aircraft:
            raise RuleError(f"{pending.aircraft} may first return fire with its Tail Gunner weapons",
                            rule="Tail Gunner", page=24)
        return TAIL_GUNNER
    if state.to_act != command.player:
        raise RuleError(f"it is {state.to_act}'s turn to fire", rule="Firing phase sequence", page=20)
    why = cannot_fire(state, aircraft)
    if why is not None:
        message, rule, page = why
        raise RuleError(message, rule=rule, page=page)
    return TAILING if state.phase == TAILING_FIRE else FIRE


def bombing_arcs(arcs: frozenset[str]) -> frozenset[str]:
    """The Fire Arcs of a Bombing Run, kept apart from those of fire at aircraft: p.21's one target per Fire
    Arc is "one enemy *aircraft*", and p.26 lets a Ground Attack weapon bomb "whilst simultaneously targeting
    other aircraft" (a Marauder's Wing Bombs and its lascannons at an aircraft ahead). Bombing Runs still
    take one ground target per Fire Arc among themselves ("Altitude 0 targets are fired at just like aerial
    ones", p.26)."""
    return frozenset(f"bombing:{arc}" for arc in arcs)


def check_volley(rules: AeronauticaRules, state: GameState, firer: AircraftState, shots: tuple[Shot, ...],
                 kind: str) -> None:
    """Refuse a volley the rules do not allow (p.21-28)."""
    seen: set[int] = set()
    volley = state.volley
    launched = volley.launched if volley is not None and volley.open and volley.aircraft == firer.id else 0
    reached: list[tuple[str, frozenset[str]]] = []
    strafing = airborne = False
    for shot in shots:
        index = shot.weapon_index
        if not 0 <= index < len(firer.weapons):
            raise RuleError(f"{firer.id} has no weapon {index}", rule="Firing", page=20)
        if index in seen:
            raise RuleError(f"weapon {index} of {firer.id} fires once", rule="Firing phase sequence", page=20)
        seen.add(index)
        weapon = _weapon(rules, firer, index)
        if firer.ammo[index] == 0:
            raise RuleError(f"{weapon.name} of {firer.id} has no Ammo left", rule="Ammo", page=22)
        if kind == TAIL_GUNNER and not has_rule(weapon, "tail_gunner"):
            raise RuleError(f"{weapon.name} has no Tail Gunner special rule", rule="Tail Gunner", page=24)
        if has_rule(weapon, "autonomous"):
            if kind != FIRE:
                raise RuleError("Autonomous weapons are deployed in the Firing phase", rule="Autonomous Weapons",
                                page=25)
            launched += 1
            if launched > autonomous.MAX_PER_PHASE:
                raise RuleError(f"an aircraft places at most {autonomous.MAX_PER_PHASE} Autonomous weapons in a "
                                "Firing phase", rule="Autonomous Weapons", page=25)
            autonomous.check_launch(rules, state, firer, weapon, shot)
            continue
        if shot.hex is not None or shot.facing is not None or shot.hexes is not None:
            raise RuleError("only Autonomous weapons are placed on the board", rule="Autonomous Weapons", page=25)
        if shot.target is None:
            raise RuleError(f"{weapon.name} needs a target", rule="Targeting", page=21)
        target = find_target(state, shot.target)
        if target is None:
            raise RuleError(f"{shot.target!r} is not in play to be targeted", rule="Targeting", page=21)
        if target.id == firer.id or not is_enemy(target, firer.owner):
            raise RuleError(f"{firer.id} fires at enemy targets, not {target.id}", rule="Targeting", page=21)
        if kind == TAILING and target.id not in tailed_by(firer):
            raise RuleError(f"{firer.id} may fire only at {' or '.join(tailed_by(firer))}, the aircraft it is "
                            "Tailing", rule="Tailing Fire", page=13)
        if kind == TAIL_GUNNER and state.return_fire is not None and target.id != state.return_fire.target:
            raise RuleError(f"{firer.id} returns fire at {state.return_fire.target}, the Tailing aircraft",
                            rule="Tail Gunner", page=24)
        attack = _attack_at(rules, firer.weapons[index], firing_altitude(firer), target.altitude, target.on_ground)
        if attack is None:
            attack = attack_kind(weapon, firer, target)  # raises the rule that refuses the shot
        arcs = reach(weapon, index, firer, target, _arcs_at(firer, target) if firer.hex != target.hex else None)
        if not arcs:
            raise RuleError(f"{target.id} is not in the Fire Arc of {firer.id}'s {weapon.name} "
                            f"({', '.join(weapon.fire_arc.arcs)})", rule="Fire Arcs", page=21)
        reached.append((target.id, bombing_arcs(arcs) if attack == BOMBING else arcs))
        strafing = strafing or attack == STRAFING
        airborne = airborne or not target.on_ground
    if reached and assign_arcs(reached) is None:  # nothing reached (no shot at a target): nothing to assign
        raise RuleError("an aircraft may target only one enemy within each Fire Arc: weapons firing into the same "
                        "Fire Arc fire at the same target", rule="Fire Arcs", page=21)
    if strafing and airborne:
        raise RuleError("an aircraft making a Strafing Run may not target other aircraft in a different Fire Arc",
                        rule="Strafing Run", page=26)


# ---------------------------------------------------------------- commands


def fire_weapons(rules: AeronauticaRules, out: Emitter, command: FireWeapons, dice: DiceCup) -> None:
    """Choose an aircraft and fire its weapons (p.20-28); Tailing Fire (p.13); Tail Gunner (p.24)."""
    state = out.state
    kind = volley_kind(state, command)
    firer = state.aircraft[command.aircraft]
    check_volley(rules, state, firer, command.shots, kind)
    out.emit(VolleyDeclared(aircraft=firer.id, kind=kind, shots=command.shots))
    for shot in command.shots:
        weapon = _weapon(rules, firer, shot.weapon_index)
        if has_rule(weapon, "autonomous"):
            ammo_left = _spend(out.state.aircraft[firer.id], shot.weapon_index)
            out.emit(WeaponFired(aircraft=firer.id, weapon_index=shot.weapon_index, weapon=weapon.id, target=None,
                                 attack=AUTONOMOUS, band=None, dice=0, ammo_left=ammo_left))
            autonomous.launch(rules, out, out.state.aircraft[firer.id], weapon, shot)
    resolve(rules, out, dice)


def launch_autonomous(rules: AeronauticaRules, out: Emitter, command: LaunchAutonomous, dice: DiceCup) -> None:
    """Place one Autonomous weapon (p.25) as part of the aircraft's firing, which stays open: the same
    aircraft places another (two at most) or finishes with FireWeapons."""
    state = out.state
    kind = volley_kind(state, command)
    if kind != FIRE:
        raise RuleError("Autonomous weapons are deployed in the Firing phase", rule="Autonomous Weapons", page=25)
    firer = state.aircraft[command.aircraft]
    index = command.shot.weapon_index
    if not 0 <= index < len(firer.weapons) or not has_rule(_weapon(rules, firer, index), "autonomous"):
        raise RuleError(f"weapon {index} of {firer.id} is not an Autonomous weapon", rule="Autonomous Weapons",
                        page=25)
    check_volley(rules, state, firer, (command.shot,), kind)
    weapon = _weapon(rules, firer, index)
    out.emit(WeaponFired(aircraft=firer.id, weapon_index=index, weapon=weapon.id, target=None, attack=AUTONOMOUS,
                         band=None, dice=0, ammo_left=_spend(firer, index)))
    autonomous.launch(rules, out, out.state.aircraft[firer.id], weapon, command.shot)


def pass_firing(rules: AeronauticaRules, out: Emitter, command: PassFiring, dice: DiceCup) -> None:
    """A player with no more aircraft that wish to fire this phase passes (p.13-14)."""
    state = out.state
    if state.phase not in (FIRING, TAILING_FIRE):
        raise RuleError("passing is for the Tailing Fire and Firing phases", rule="Firing", page=20)
    if state.volley is not None or state.return_fire is not None or (
            state.autonomous and autonomous.awaiting_steer(state)):  # none on the board: none to steer
        raise RuleError("a decision about the firing under way comes first", rule="Firing", page=20)
    if state.to_act != command.player:
        raise RuleError(f"it is {state.to_act}'s turn to fire", rule="Firing phase sequence", page=20)
    out.emit(FiringPassed(player=command.player))


def _pending(state: GameState, command: Command) -> PendingRoll:
    pending = state.volley.pending if state.volley is not None else None
    if pending is None:
        raise RuleError("no roll is waiting for a re-roll decision", rule="Imperial Ace / Fly Boss", page=37)
    if pending.player != command.player or pending.aircraft != getattr(command, "aircraft", None):
        raise RuleError(f"the roll waits for {pending.player}'s decision for {pending.aircraft}",
                        rule="Imperial Ace / Fly Boss", page=37)
    return pending


def accept_roll(rules: AeronauticaRules, out: Emitter, command: AcceptRoll, dice: DiceCup) -> None:
    """Keep the roll (the re-roll stays unused)."""
    if out.state.pending_roll is not None:  # a roll made outside a volley (rerolls.py)
        rerolls.accept(rules, out, command, dice)
        return
    pending = _pending(out.state, command)
    out.emit(RollAccepted(aircraft=pending.aircraft, roll_index=pending.roll.roll_index))
    _continue(rules, out, dice, pending, pending.roll)


def use_reroll(rules: AeronauticaRules, out: Emitter, command: UseReroll, dice: DiceCup) -> None:
    """Imperial Ace / Fly Boss (p.37, p.45): re-roll every die of the roll; the second result stands."""
    if out.state.pending_roll is not None:  # a roll made outside a volley (rerolls.py)
        rerolls.reroll(rules, out, command, dice)
        return
    pending = _pending(out.state, command)
    upgrade = reroll_upgrade(out.state.aircraft[pending.aircraft])
    if upgrade is None:
        raise RuleError(f"{pending.aircraft} has no unused re-roll", rule="Imperial Ace / Fly Boss", page=37)
    out.emit(RerollUsed(aircraft=pending.aircraft, upgrade=upgrade, roll_index=pending.roll.roll_index))
    roll = dice.reroll(pending.roll)
    out.emit(roll)
    _continue(rules, out, dice, pending, roll)


def _continue(rules: AeronauticaRules, out: Emitter, dice: DiceCup, pending: PendingRoll, roll: DiceRolled) -> None:
    if pending.stage == TO_HIT_STAGE:
        _hits(rules, out, dice, pending.weapon_index, roll)
    else:
        _damage_result(rules, out, dice, pending.weapon_index, roll)
    resolve(rules, out, dice)


# ---------------------------------------------------------------- resolving a volley


def _spend(aircraft: AircraftState, index: int) -> int | None:
    ammo = aircraft.ammo[index]
    return None if ammo is None else ammo - 1


def _shot(volley: Volley, weapon_index: int) -> ShotProgress:
    return next(s for s in volley.shots if s.weapon_index == weapon_index)


def resolve(rules: AeronauticaRules, out: Emitter, dice: DiceCup) -> None:
    """Run the volley on until it ends or a roll waits for a re-roll decision (p.20-23)."""
    while True:
        volley = out.state.volley
        if volley is None or volley.pending is not None or out.state.pending_roll is not None:
            return
        if not volley.shots:  # the aircraft holds its fire (p.20): nothing to roll, the volley ends
            _end_volley(rules, out, volley)
            return
        shot = next((s for s in volley.shots if not s.rolled), None)
        if shot is not None:
            _roll_to_hit(rules, out, dice, volley, shot)
            continue
        shot = next((s for s in volley.shots if not s.done), None)
        if shot is not None:
            _roll_damage(rules, out, dice, volley, shot)
            continue
        _end_volley(rules, out, volley)
        return


def _offer_reroll(out: Emitter, firer_id: str, weapon_index: int, stage: str, roll: DiceRolled) -> bool:
    firer = out.state.aircraft[firer_id]
    if not roll.faces or reroll_upgrade(firer) is None:
        return False
    out.emit(RerollOffered(aircraft=firer_id, weapon_index=weapon_index, stage=stage, roll=roll))
    return True


def _roll_to_hit(rules: AeronauticaRules, out: Emitter, dice: DiceCup, volley: Volley, shot: ShotProgress) -> None:
    """Firepower (p.22) and Ammo (p.22) for one weapon."""
    state = out.state
    firer = state.aircraft[volley.aircraft]
    weapon = _weapon(rules, firer, shot.weapon_index)
    target = find_target(state, shot.target)
    ammo_left = _spend(firer, shot.weapon_index)
    if target is None:  # cannot happen before damage is rolled; kept total
        out.emit(WeaponFired(aircraft=firer.id, weapon_index=shot.weapon_index, weapon=weapon.id, target=shot.target,
                             attack="", band=None, dice=0, ammo_left=ammo_left))
        out.emit(HitsScored(aircraft=firer.id, weapon_index=shot.weapon_index, target=shot.target, hits=0))
        return
    attack = _attack_at(rules, firer.weapons[shot.weapon_index], firing_altitude(firer), target.altitude,
                        target.on_ground)
    if attack is None:
        attack = attack_kind(weapon, firer, target)  # raises the rule that refuses the shot
    band = band_at(distance(firer.hex, target.hex))
    count = firepower_dice(rules, state, firer, weapon, band, target)
    out.emit(WeaponFired(aircraft=firer.id, weapon_index=shot.weapon_index, weapon=weapon.id, target=target.id,
                         attack=attack, band=band.value if band else None, dice=count, ammo_left=ammo_left))
    if count == 0:
        out.emit(HitsScored(aircraft=firer.id, weapon_index=shot.weapon_index, target=target.id, hits=0))
        return
    to_hit, modifiers = hit_requirements(state, attack, weapon, firer, target, options=rules.options, band=band)
    roll = dice.roll(count, purpose=f"to hit: {firer.id} {weapon.name} at {target.id}", roller=firer.owner,
                     target=to_hit, modifiers=modifiers)
    out.emit(roll)
    if _offer_reroll(out, firer.id, shot.weapon_index, TO_HIT_STAGE, roll):
        return
    _hits(rules, out, dice, shot.weapon_index, roll)


def _hits(rules: AeronauticaRules, out: Emitter, dice: DiceCup, weapon_index: int, roll: DiceRolled) -> None:
    """Count the hits (p.22, p.7); a decoy may turn them into misses (p.37, p.44)."""
    volley = out.state.volley
    firer = out.state.aircraft[volley.aircraft]
    shot = _shot(volley, weapon_index)
    hits = count_hits(roll.faces, roll.target or 0, roll.total_modifier)
    out.emit(HitsScored(aircraft=firer.id, weapon_index=weapon_index, target=shot.target, hits=hits))
    victim = out.state.aircraft.get(shot.target)
    if hits and victim is not None:
        decoy(out, dice, victim, _weapon(rules, firer, weapon_index), hits, firer.id, weapon_index)


def _roll_damage(rules: AeronauticaRules, out: Emitter, dice: DiceCup, volley: Volley, shot: ShotProgress) -> None:
    """Damage (p.23): each hit rolled again against the weapon's Damage."""
    state = out.state
    firer = state.aircraft[volley.aircraft]
    weapon = _weapon(rules, firer, shot.weapon_index)
    if find_target(state, shot.target) is None:
        out.emit(DamageRolled(aircraft=firer.id, weapon_index=shot.weapon_index, weapon=weapon.id,
                              target=shot.target, damaging=0, structure=0,
                              skipped="the target was destroyed earlier in this volley"))
        if shot.attack == BOMBING:
            _bomb_creep(rules, out, dice, volley.aircraft, shot.weapon_index, shot.target)
        return
    roll = dice.roll(shot.hits, purpose=f"damage: {firer.id} {weapon.name} at {shot.target}", roller=firer.owner,
                     target=weapon.damage)
    out.emit(roll)
    if _offer_reroll(out, firer.id, shot.weapon_index, DAMAGE_STAGE, roll):
        return
    _damage_result(rules, out, dice, shot.weapon_index, roll)


def _damage_result(rules: AeronauticaRules, out: Emitter, dice: DiceCup, weapon_index: int, roll: DiceRolled) -> None:
    volley = out.state.volley
    firer = out.state.aircraft[volley.aircraft]
    shot = _shot(volley, weapon_index)
    weapon = _weapon(rules, firer, weapon_index)
    losses = damage_losses(roll.faces, weapon)
    out.emit(DamageRolled(aircraft=firer.id, weapon_index=weapon_index, weapon=weapon.id, target=shot.target,
                          damaging=sum(1 for loss in losses if loss), structure=sum(losses)))
    cause = f"fire from {firer.id}'s {weapon.name}"
    target = out.state.aircraft.get(shot.target)
    damaging = tuple(loss for loss in losses if loss)
    if target is not None and target.in_play and damaging:
        # Armoured Cockpit / Extra Armour (p.37, p.45); the target's re-roll may hold the volley (rerolls.py).
        armour = armour_roll(out, dice, target, damaging, enemy_fire=firer.owner != target.owner)
        if armour is not None and rerolls.offer(out, target.id, rerolls.ARMOUR, armour, losses=damaging,
                                                weapon_index=weapon_index):
            return
        lost = sum(damaging) if armour is None else armour_result(out, target, damaging, armour)
        if lost:
            suffer_damage(out, target.id, lost, cause)
    else:
        inflict(out, dice, shot.target, losses, by=firer.owner, cause=cause)
    if shot.attack == BOMBING:
        _bomb_creep(rules, out, dice, firer.id, weapon_index, shot.target)


def _armour_result(rules: AeronauticaRules, out: Emitter, pending: AutoRoll, roll: DiceRolled, dice: DiceCup) -> None:
    """The armour roll that stands (p.37, p.45), then the rest of the shot (Bomb Creep) and of the volley."""
    volley = out.state.volley
    firer = out.state.aircraft[volley.aircraft]
    weapon = _weapon(rules, firer, pending.weapon_index)
    target = out.state.aircraft[pending.aircraft]
    lost = armour_result(out, target, pending.losses, roll)
    if lost:
        suffer_damage(out, target.id, lost, f"fire from {firer.id}'s {weapon.name}")
    if _shot(volley, pending.weapon_index).attack == BOMBING:
        _bomb_creep(rules, out, dice, firer.id, pending.weapon_index, target.id)
    resolve(rules, out, dice)


rerolls.PENDING_CONTINUATIONS[rerolls.ARMOUR] = _armour_result


def _bomb_creep(rules: AeronauticaRules, out: Emitter, dice: DiceCup, firer_id: str, weapon_index: int,
                target_id: str) -> None:
    """Bomb Creep (p.27): a D6 for each other Altitude 0 target adjacent to the bombed target, 4+ hits it;
    one Damage dice each. Rolled for each Ground Attack weapon that hit (``RuleOptions.bomb_creep_per``
    "weapon", the default) or once per Bombing Run ("run")."""
    firer = out.state.aircraft[firer_id]
    weapon = _weapon(rules, firer, weapon_index)
    bombed = _target_anyway(out.state, target_id)
    if bombed is None:
        return
    volley = out.state.volley
    if rules.options.bomb_creep_per == "run" and volley is not None:
        # One Bomb Creep per Bombing Run: only the first of the aircraft's weapons that hit this target rolls it.
        first = next((s for s in volley.shots if s.attack == BOMBING and s.target == target_id and s.hits), None)
        if first is not None and first.weapon_index != weapon_index:
            return
    for victim in bomb_creep_victims(out.state, bombed):
        roll = dice.d6(purpose=f"Bomb Creep on {victim.id}", roller=firer.owner, target=BOMB_CREEP_ROLL)
        out.emit(roll)
        hit = success(roll.faces[0], BOMB_CREEP_ROLL)
        out.emit(BombCreepRolled(aircraft=firer.id, weapon_index=weapon_index, target=victim.id, hit=hit))
        if not hit:
            continue
        aircraft = out.state.aircraft.get(victim.id)
        if aircraft is not None and decoy(out, dice, aircraft, weapon, 1, firer.id, weapon_index):
            continue
        damage = dice.roll(1, purpose=f"damage: Bomb Creep on {victim.id}", roller=firer.owner, target=weapon.damage)
        out.emit(damage)
        losses = damage_losses(damage.faces, weapon)
        out.emit(DamageRolled(aircraft=firer.id, weapon_index=weapon_index, weapon=weapon.id, target=victim.id,
                              damaging=sum(1 for loss in losses if loss), structure=sum(losses), kind="creep"))
        inflict(out, dice, victim.id, losses, by=firer.owner, cause=f"Bomb Creep from {firer.id}'s {weapon.name}")


def _target_anyway(state: GameState, target_id: str) -> Target | None:
    """Where a target is (or was, if just destroyed): Bomb Creep falls around it either way."""
    found = find_target(state, target_id)
    if found is not None:
        return found
    aircraft = state.aircraft.get(target_id)
    if aircraft is not None:
        return Target(aircraft.id, aircraft.owner, aircraft.hex, 0, LANDED_AIRCRAFT)
    ground = next((t for t in state.ground_targets if t.id == target_id), None)
    return Target(ground.id, ground.owner, ground.hex, 0, GROUND_TARGET) if ground else None


def _end_volley(rules: AeronauticaRules, out: Emitter, volley: Volley) -> None:
    out.emit(VolleyEnded(aircraft=volley.aircraft, kind=volley.kind))
    if volley.kind == TAILING and volley.shots:
        _offer_return_fire(rules, out, volley.aircraft, volley.shots[0].target)


def _offer_return_fire(rules: AeronauticaRules, out: Emitter, tailer_id: str, target_id: str) -> None:
    """Tail Gunner (p.24): once per turn, fired upon in the Tailing Fire phase, an aircraft may return fire
    at once with its Tail Gunner weapons, even if destroyed by that fire."""
    state = out.state
    target = state.aircraft.get(target_id)
    tailer = state.aircraft.get(tailer_id)
    if target is None or tailer is None or not tailer.in_play or target.tail_gunner_used:
        return
    if target.status not in (FLYING, DESTROYED) or target.spinning or target.ground_defence:
        return
    if not _volley_options(rules, state, target, TAIL_GUNNER, only_target=tailer.id, useful_only=False):
        return
    out.emit(ReturnFireOffered(aircraft=target.id, target=tailer.id))


# ---------------------------------------------------------------- legal commands


def _volley_options(rules: AeronauticaRules, state: GameState, firer: AircraftState, kind: str,
                    only_target: str | None = None, useful_only: bool = True,
                    in_play: Sequence[Target] | None = None) -> list[tuple[Shot, ...]]:
    """Every volley worth offering (see the module notes): one target or none per Fire Arc, each weapon
    at a chosen target its arcs reach, limited-Ammo weapons also held. Excludes the empty volley.
    ``in_play``: ``all_targets(state)``, when the caller has it already."""
    # The enemies within range (weapons.distance written out): each with its distance, Altitude, whether it is on
    # the ground, and its Fire Arcs and range band (target_arcs, band_at), the same for every weapon. An enemy in
    # none of the arcs the firer's weapons fire into (_armament_arcs) is no weapon's target (weapons.reach).
    owner, firer_id = firer.owner, firer.id
    q, r = firer.hex
    armament_arcs = _armament_arcs(rules, firer.weapons)
    targets: list[tuple[Target, int, int, bool, frozenset[str], Any]] = []
    for t in (all_targets(state) if in_play is None else in_play):
        # is_enemy written out: weapons target the other side, and a nobody's ground target (p.21)
        if t.owner == owner or t.id == firer_id or (only_target is not None and t.id != only_target):
            continue
        dq, dr = q - t.hex[0], r - t.hex[1]
        hexes = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
        if hexes <= MAX_RANGE:
            arcs_of_target = _arcs_at(firer, t) if hexes else target_arcs(firer, t)
            if armament_arcs is not None and armament_arcs.isdisjoint(arcs_of_target):
                continue
            # t.altitude == 0: Target.on_ground
            targets.append((t, hexes, t.altitude, t.altitude == 0, arcs_of_target, _BANDS[hexes]))
    if not targets:
        return []  # no enemy within range of a weapon's Fire Arcs: no volley but the empty one
    # Per weapon that reaches a target (in index order): its index, whether its Ammo is limited and its targets.
    reachable: list[tuple[int, bool, tuple[tuple[str, tuple[frozenset[str], bool, bool]], ...]]] = []
    altitude = firing_altitude(firer)
    # Air-to-Air shots under a plain sky: whether a shot can do anything (_shot_useful) is looked up (_AIR_USEFUL).
    air_useful = _air_useful(rules) if not state.night_fighting and state.cloud_level is None else None
    for index, weapon_id in enumerate(firer.weapons):
        if firer.ammo[index] == 0:
            continue
        weapon, tail_gunner, is_autonomous, ground_to_air, keys = _weapon_facts(rules, weapon_id, index)
        if kind == TAIL_GUNNER and not tail_gunner:
            continue
        if is_autonomous:
            continue  # placed one at a time with LaunchAutonomous (see launch_commands)
        options: dict[str, tuple[frozenset[str], bool, bool]] | None = None
        for target, hexes, target_altitude, on_ground, arcs_of_target, band in targets:
            attack = _attack_at(rules, weapon_id, altitude, target_altitude, on_ground)
            if attack is None:  # attack_kind refuses it
                continue
            arcs = keys if ground_to_air else keys & arcs_of_target  # weapons.reach
            if not arcs:
                continue
            if useful_only:
                if attack == AIR and air_useful is not None:
                    key = (weapon_id, _BAND_KEYS[hexes], firer.altitude, target_altitude, target.evading)
                    useful = air_useful.get(key)
                    if useful is None:
                        useful = air_useful[key] = _shot_useful(rules, state, attack, weapon, firer, target, band)
                    if not useful:
                        continue
                elif not _shot_useful(rules, state, attack, weapon, firer, target, band):
                    continue
            if attack == BOMBING:
                arcs = bombing_arcs(arcs)
            if options is None:
                options = {}
            options[target.id] = (arcs, attack == STRAFING, not on_ground)
        if options is not None:
            reachable.append((index, firer.ammo[index] is not None, tuple(options.items())))
    if not reachable:
        return []
    return list(_volleys_reaching(tuple(reachable)))


def _shot_useful(rules: AeronauticaRules, state: GameState, attack: str, weapon: WeaponProfile,
                 firer: AircraftState, target: Target, band: Any) -> bool:
    """Whether a shot rolls at least one Firepower die (p.22, p.33) that could hit (p.22, p.7): the shots
    :func:`_volley_options` offers (see the module notes)."""
    if firepower_dice(rules, state, firer, weapon, band, target) == 0:
        return False
    to_hit, modifiers = hit_requirements(state, attack, weapon, firer, target, options=rules.options, band=band)
    return can_hit(to_hit, sum(m.value for m in modifiers))


#: Per ruleset: :func:`_shot_useful` of Air-to-Air shots with neither Night Fighting nor a cloud level (p.33), by
#: (weapon id, range band's value, firer's Altitude, target's Altitude, target evading). Then nothing else is read:
#: the weapon's Firepower at the band (p.22), and the to-hit score (the ruleset's options, the band) with its
#: Stall/Spin and Altitude-difference modifiers (p.22). At most weapons x 3 bands x 6 x 6 x 2 entries.
_AIR_USEFUL: weakref.WeakKeyDictionary[Any, dict[tuple[Any, ...], bool]] = weakref.WeakKeyDictionary()


def _air_useful(rules: AeronauticaRules) -> dict[tuple[Any, ...], bool]:
    """The ruleset's table of :data:`_AIR_USEFUL`."""
    kept = _AIR_USEFUL.get(rules)
    if kept is None:
        kept = _AIR_USEFUL[rules] = {}
    return kept


#: (firer's facing, target hex - firer hex) -> :func:`~.weapons.hex_arcs`: a hex's Fire Arcs depend on nothing
#: else (``hexgrid.arcs_containing`` turns the offset by the facing). At most 6 facings x the offsets between two
#: hexes of a board (6 x 331 within range, where legal_commands asks).
_ARCS_AT: dict[tuple[int, int, int], frozenset[str]] = {}
#: :func:`~.weapons.band_at` of 0 to 10 hexes (p.22).
_BANDS = tuple(band_at(hexes) for hexes in range(MAX_RANGE + 1))
#: The range band's value of 0 to 10 hexes: a key that hashes as a string (an Enum member hashes in Python).
_BAND_KEYS = tuple(band.value for band in _BANDS)


def _arcs_at(firer: AircraftState, target: Target) -> frozenset[str]:
    """:func:`~.weapons.target_arcs` of a target in another hex than the firer's (never Directly Overhead, p.21):
    :func:`~.weapons.hex_arcs`, looked up by facing and offset (:data:`_ARCS_AT`)."""
    (q, r), (tq, tr) = firer.hex, target.hex
    key = (firer.facing, tq - q, tr - r)
    arcs = _ARCS_AT.get(key)
    if arcs is None:
        arcs = _ARCS_AT[key] = hex_arcs(firer, target.hex)
    return arcs


@functools.lru_cache(maxsize=4096)
def _weapon_facts(rules: AeronauticaRules, weapon_id: str, index: int
                  ) -> tuple[WeaponProfile, bool, bool, bool, frozenset[str]]:
    """A weapon's profile, whether it is a Tail Gunner (p.24), Autonomous (p.25) or Ground-to-Air (p.25) weapon,
    and the Fire Arcs it fires into (:func:`~.weapons.arc_keys`, p.21), once per ruleset, weapon and index."""
    weapon = rules.catalogue.weapons[weapon_id]
    return (weapon, has_rule(weapon, "tail_gunner"), has_rule(weapon, "autonomous"), has_rule(weapon, "ground_to_air"),
            arc_keys(weapon, index))


@functools.lru_cache(maxsize=4096)
def _armament_arcs(rules: AeronauticaRules, weapons: tuple[str, ...]) -> frozenset[str] | None:
    """Every Fire Arc some weapon of this armament fires into (:func:`~.weapons.arc_keys`, p.21), once per ruleset and
    armament: a target in none of them is in no weapon's reach. None when a weapon fires Ground-to-Air (it reaches
    a target whatever its arcs, p.28)."""
    facts = [_weapon_facts(rules, weapon_id, index) for index, weapon_id in enumerate(weapons)]
    if any(ground_to_air for _, _, _, ground_to_air, _ in facts):
        return None
    return frozenset().union(*(keys for *_, keys in facts))


@functools.lru_cache(maxsize=8192)
def _attack_at(rules: AeronauticaRules, weapon_id: str, altitude: int, target_altitude: int, on_ground: bool
               ) -> str | None:
    """:func:`~.weapons.attack_kind` of a weapon fired from ``altitude`` at a target (None where it refuses
    the shot), once per ruleset, weapon and Altitudes: it depends on nothing else."""
    try:
        return attack_kind_at(rules.catalogue.weapons[weapon_id], altitude, target_altitude, on_ground)
    except RuleError:
        return None


@functools.lru_cache(maxsize=4096)
def _volleys_reaching(reachable: tuple[tuple[int, bool, tuple[tuple[str, tuple[frozenset[str], bool, bool]],
                                                              ...]], ...]) -> tuple[tuple[Shot, ...], ...]:
    """The volleys of :func:`_volley_options` from what each weapon reaches: per weapon (in index order) its
    index, whether its Ammo is limited (it may then be held back), and per target its Fire Arcs, whether it
    is a Strafing Run and whether the target is in the air. One target or none per Fire Arc (p.21); a weapon
    with unlimited Ammo fires at a target its arcs reach when there is one; no Strafing Run beside fire at
    aircraft in the air (p.26). Kept by that description: the same geometry recurs move after move."""
    by_arc: dict[str, set[str]] = {}
    for _, _, options in reachable:
        for target_id, (arcs, _, _) in options:
            for arc in arcs:
                by_arc.setdefault(arc, set()).add(target_id)
    arcs_order = sorted(by_arc)
    volleys: set[tuple[Shot, ...]] = set()
    for chosen in itertools.product(*[[None, *sorted(by_arc[arc])] for arc in arcs_order]):
        picked = dict(zip(arcs_order, chosen, strict=True))
        per_weapon: list[list[tuple[Shot, bool, bool] | None]] = []
        for index, limited, options in reachable:
            choices: list[tuple[Shot, bool, bool] | None] = [
                (Shot(weapon_index=index, target=target_id), strafes, in_air)
                for target_id, (arcs, strafes, in_air) in sorted(options)
                if any(picked[arc] == target_id for arc in arcs)]
            if not choices or limited:
                choices.append(None)
            per_weapon.append(choices)
        for combo in itertools.product(*per_weapon):
            shots = [c for c in combo if c is not None]
            if any(s for _, s, _ in shots) and any(a for _, _, a in shots):
                continue  # a Strafing Run and a target in the air (p.26)
            volleys.add(tuple(shot for shot, _, _ in shots))
    volleys.discard(())
    return tuple(sorted(volleys, key=_volley_key))


#: Per ruleset: the volleys :func:`_offered_volleys` worked out, by the targets in play and the conditions
#: (:func:`_kept_volleys`), then by firer.
_OFFERED_VOLLEYS: weakref.WeakKeyDictionary[Any, dict[tuple[Any, ...], dict[tuple[Any, ...], Any]]] = \
    weakref.WeakKeyDictionary()
#: Emptied when it holds this many (a long simulation meets ever new positions).
_OFFERED_VOLLEYS_KEPT = 4096


def _kept_volleys(rules: AeronauticaRules, state: GameState, in_play: tuple[Target, ...]
                  ) -> dict[tuple[Any, ...], tuple[AircraftState, tuple[FireWeapons, ...]]]:
    """The volleys kept (:func:`_offered_volleys`) for these targets in play, Night Fighting and the cloud level
    (p.33) and terrain (p.33): asked once per ``legal_commands``, so its key is hashed once, not per firer."""
    kept = _OFFERED_VOLLEYS.get(rules)
    if kept is None:
        kept = _OFFERED_VOLLEYS[rules] = {}
    key = (in_play, state.night_fighting, state.cloud_level, state.terrain)
    by_firer = kept.get(key)
    if by_firer is None:
        if len(kept) >= _OFFERED_VOLLEYS_KEPT:
            kept.clear()
        by_firer = kept[key] = {}
    return by_firer


def _offered_volleys(rules: AeronauticaRules, state: GameState, firer: AircraftState, kind: str,
                     in_play: tuple[Target, ...],
                     kept: dict[tuple[Any, ...], tuple[AircraftState, tuple[FireWeapons, ...]]]
                     ) -> tuple[FireWeapons, ...]:
    """The FireWeapons offered for one aircraft to its player in a Firing or Tailing Fire phase (p.13, p.20): holding
    its fire (no shots), then the volleys of :func:`_volley_options` (in the Tailing Fire phase, at each aircraft
    it tails in turn, :func:`~.tailing.tailed_by`). Kept: after each volley the player's other aircraft are offered
    theirs again, and those change only with what they are worked out from: the firer, the targets in play, Night
    Fighting and the cloud level (p.33), terrain (p.33). ``kept``: :func:`_kept_volleys` of these targets.

    The firer is known by identity (an unchanged aircraft is the same object from one state to the next, and
    its state is immutable): the entry holds the firer, so its id is not reused while the entry stands, and
    an equal firer that is another object is worked out afresh (the same answer)."""
    key = (id(firer), kind)
    found = kept.get(key)
    if found is not None and found[0] is firer:
        return found[1]
    player, aircraft_id = firer.owner, firer.id
    commands = [FireWeapons(player=player, aircraft=aircraft_id)]
    for only in (tailed_by(firer) if kind == TAILING else (None,)):
        commands.extend([FireWeapons(player=player, aircraft=aircraft_id, shots=shots)
                         for shots in _volley_options(rules, state, firer, kind, only_target=only, in_play=in_play)])
    offered = tuple(commands)
    kept[key] = (firer, offered)
    return offered


def launch_commands(rules: AeronauticaRules, state: GameState, firer: AircraftState) -> list[Command]:
    """LaunchAutonomous choices (p.25): every placement, facing and first move of each Autonomous weapon
    with Ammo, while fewer than two were placed in this firing. Identical weapons with the same Ammo left
    are interchangeable: only the first of them is offered."""
    volley = state.volley
    launched = volley.launched if volley is not None and volley.open and volley.aircraft == firer.id else 0
    if state.phase != FIRING or launched >= autonomous.MAX_PER_PHASE or not _carries_autonomous(rules, firer.weapons):
        return []
    commands: list[Command] = []
    seen: set[tuple[str, int | None]] = set()
    for index, weapon_id in enumerate(firer.weapons):
        ammo = firer.ammo[index]
        if ammo == 0 or (weapon_id, ammo) in seen:
            continue
        weapon = rules.catalogue.weapons[weapon_id]
        if not has_rule(weapon, "autonomous"):
            continue
        seen.add((weapon_id, ammo))
        commands.extend(LaunchAutonomous(player=firer.owner, aircraft=firer.id, shot=shot)
                        for shot in autonomous.launch_options(rules, state, firer, weapon, index))
    return commands


@functools.lru_cache(maxsize=1024)
def _carries_autonomous(rules: AeronauticaRules, weapons: tuple[str, ...]) -> bool:
    """Whether any of these weapons is an Autonomous weapon (p.25), once per ruleset and armament."""
    return any(has_rule(rules.catalogue.weapons[weapon_id], "autonomous") for weapon_id in weapons)


def _volley_key(volley: tuple[Shot, ...]) -> tuple:
    return tuple((s.weapon_index, s.target or "", s.hex or (0, 0), s.facing or 0, s.hexes or 0) for s in volley)


#: The phases in which :func:`legal_commands` may offer a command (the ruleset asks no other part).
COMMAND_PHASES: frozenset[str] = frozenset({FIRING, TAILING_FIRE})


def legal_commands(rules: AeronauticaRules, state: GameState, player: str) -> list[Command]:
    """Every legal choice now in a Tailing Fire or Firing phase (see the module notes)."""
    if state.phase not in (FIRING, TAILING_FIRE):
        return []
    if state.autonomous and autonomous.awaiting_steer(state):  # no Autonomous weapon on the board: none to steer
        return autonomous.steer_commands(state, player)
    if state.volley is not None and state.volley.open:
        if state.volley.player != player:
            return []
        firer = state.aircraft[state.volley.aircraft]
        return [FireWeapons(player=player, aircraft=firer.id),
                *(FireWeapons(player=player, aircraft=firer.id, shots=shots)
                  for shots in _volley_options(rules, state, firer, FIRE)),
                *launch_commands(rules, state, firer)]
    if state.volley is not None:
        pending = state.volley.pending
        if pending is None or pending.player != player:
            return []
        return [AcceptRoll(player=player, aircraft=pending.aircraft), UseReroll(player=player, aircraft=pending.aircraft)]
    if state.return_fire is not None:
        pending_fire = state.return_fire
        if pending_fire.player != player:
            return []
        gunner = state.aircraft[pending_fire.aircraft]
        return [FireWeapons(player=player, aircraft=gunner.id),
                *(FireWeapons(player=player, aircraft=gunner.id, shots=shots)
                  for shots in _volley_options(rules, state, gunner, TAIL_GUNNER, only_target=pending_fire.target))]
    if state.to_act != player:
        return []
    phase = state.phase
    kind = TAILING if phase == TAILING_FIRE else FIRE
    commands: list[Command] = [PassFiring(player=player)]
    in_play: tuple[Target, ...] | None = None
    kept: dict[tuple[Any, ...], Any] = {}
    turn = state.turn
    for aircraft in state.aircraft.values():
        if aircraft.owner != player or aircraft.fired:  # one that fired this phase may not fire again (p.20)
            continue
        # may_fire's most common answer written out (as in fires_next): in the Firing phase an aircraft flying
        # (not a Ground Defence, not in a Spin, not taken off this turn) with an unlimited weapon may fire; any
        # other is asked _refusal itself.
        if not (phase == FIRING and aircraft.status == FLYING and not aircraft.ground_defence
                and not aircraft.spinning and None in aircraft.ammo and aircraft.took_off_turn != turn) \
                and _refusal(state, aircraft) is not None:
            continue
        if in_play is None:
            in_play = tuple(all_targets(state))
            kept = _kept_volleys(rules, state, in_play)
        commands.extend(_offered_volleys(rules, state, aircraft, kind, in_play, kept))  # its FireWeapons, kept
        if _carries_autonomous(rules, aircraft.weapons):  # launch_commands offers none without one (p.25)
            commands.extend(launch_commands(rules, state, aircraft))
    return commands


HANDLERS = {
    FireWeapons: fire_weapons,
    LaunchAutonomous: launch_autonomous,
    PassFiring: pass_firing,
    AcceptRoll: accept_roll,
    UseReroll: use_reroll,
    SteerAutonomous: autonomous.steer,
}


# ---------------------------------------------------------------- reducers

_replace = msgspec.structs.replace


def _with_shot(state: GameState, weapon_index: int, **changes) -> GameState:
    """The volley's shot of ``weapon_index`` with ``changes``, in a new Volley (``evolve``; a fold changes its own
    draft of the volley in place instead, :func:`_fold_shots`)."""
    volley = state.volley
    if volley is None:
        return state
    shots = tuple(_replace(s, **changes) if s.weapon_index == weapon_index else s for s in volley.shots)
    return _replace(state, volley=_replace(volley, shots=shots))


def _fold_shots(state: Any, weapon_index: int) -> list[Any]:
    """In a fold (FoldScope), the shots of ``weapon_index`` in the fold's own draft of the state's volley (thawed
    at the first change, :func:`~.state.thaw_volley`), for a reducer to change in place; the state has a volley."""
    volley = state.volley
    if type(volley) is not VolleyDraft:
        volley = state.volley = thaw_volley(volley)
    return [shot for shot in volley.shots if shot.weapon_index == weapon_index]


_IN_PLAY = (FLYING, LANDED)  # AircraftState.in_play: any other status is refused at once (_refusal)


def fires_next(state: GameState, first: str, second: str, fired: str | None = None) -> str | None:
    """``first`` if it has an aircraft that may fire in this phase, else ``second`` if it has one, else None
    (p.13-14, p.20): ``first_to_fire`` and ``next_to_fire`` for the reducers, cheaper: one pass over the aircraft.

    ``fired`` as in :func:`next_to_fire`. Aircraft that :func:`_refusal` would refuse whatever else holds (out
    of play, fired, or tailing nothing in the Tailing Fire phase) are passed by without asking it."""
    passed = state.passed
    if passed:
        if first in passed:
            first = None  # type: ignore[assignment]  # passed: none of its aircraft is asked
        if second in passed:
            second = None  # type: ignore[assignment]
    if state.phase == TAILING_FIRE:
        return _tailer_fires_next(state, first, second, fired)
    turn = state.turn
    second_may = False
    for a in state.aircraft.values():
        if a.fired or a.id == fired:
            continue
        owner = a.owner
        if owner != first and (owner != second or second_may):
            continue
        # _refusal's most common None written out: an aircraft flying (not a Ground Defence, not in a Spin, not
        # taken off this turn) with an unlimited weapon; else _refusal itself.
        if ((a.status == FLYING and not a.ground_defence and not a.spinning and None in a.ammo
                and a.took_off_turn != turn) or (a.status in _IN_PLAY and _refusal(state, a) is None)):
            if owner == first:
                return first
            second_may = True
    return second if second_may else None


def _tailer_fires_next(state: GameState, first: str | None, second: str | None, fired: str | None) -> str | None:
    """:func:`fires_next` in the Tailing Fire phase, where only an aircraft Tailing an enemy may fire (p.13, p.23):
    None at once when no aircraft tails any."""
    for a in state.aircraft.values():
        if a.tailing is not None or a.tailing_candidates:
            break
    else:
        return None
    for player in (first, second):
        if player is None:
            continue
        for a in state.aircraft.values():
            if (a.owner == player and not a.fired and a.id != fired and a.status in _IN_PLAY
                    and (a.tailing is not None or a.tailing_candidates) and _refusal(state, a) is None):
                return player
    return None


def _firing_passed(rules, state: GameState, event: FiringPassed, scope: FoldScope | None = None) -> GameState:
    state = replaced(state, scope, passed=(*state.passed, event.player))
    return replaced(state, scope, to_act=fires_next(state, state.opponent(event.player), event.player))


def _tailing_determined(rules, state: GameState, event: TailingDetermined,
                        scope: FoldScope | None = None) -> GameState:
    aircraft = state.aircraft[event.aircraft]
    if aircraft.tailing == event.target and aircraft.tailing_candidates == event.candidates:
        return state  # already so: most often tailing nothing, as the End phase left it (p.30)
    if scope is not None:  # the fold's own aircraft: changed in place (FoldScope)
        aircraft.tailing = event.target
        aircraft.tailing_candidates = event.candidates
        return state
    return with_aircraft(state, _replace(aircraft, tailing=event.target, tailing_candidates=event.candidates))


def _volley_declared(rules, state: GameState, event: VolleyDeclared, scope: FoldScope | None = None) -> GameState:
    firer = state.aircraft[event.aircraft]
    shots = tuple(ShotProgress(weapon_index=s.weapon_index, target=s.target) for s in event.shots
                  if s.target is not None) if event.shots else ()  # no shots: the aircraft holds its fire
    volley = Volley(aircraft=firer.id, player=firer.owner, kind=event.kind, shots=shots)
    if scope is not None:  # the fold's own state: changed in place (FoldScope)
        state.volley = volley
        return state
    return _replace(state, volley=volley)


def _weapon_fired(rules, state: GameState, event: WeaponFired, scope: FoldScope | None = None) -> GameState:
    firer = state.aircraft[event.aircraft]
    if scope is not None:  # the fold's own aircraft and volley: changed in place (FoldScope)
        index, left = event.weapon_index, event.ammo_left
        if firer.ammo[index] != left:  # an unlimited weapon's ammo (None) stays as it was
            ammo = list(firer.ammo)
            ammo[index] = left
            firer.ammo = tuple(ammo)
        if event.target is not None and state.volley is not None:
            for shot in _fold_shots(state, index):
                shot.attack = event.attack
        return state
    ammo = list(firer.ammo)
    ammo[event.weapon_index] = event.ammo_left
    state = with_aircraft(state, _replace(firer, ammo=tuple(ammo)))
    if event.target is not None:
        state = _with_shot(state, event.weapon_index, attack=event.attack)
    return state


def _reroll_offered(rules, state: GameState, event: RerollOffered) -> GameState:
    firer = state.aircraft[event.aircraft]
    pending = PendingRoll(aircraft=firer.id, player=firer.owner, weapon_index=event.weapon_index, stage=event.stage,
                          roll=event.roll)
    return _replace(state, volley=_replace(state.volley, pending=pending))


def _roll_accepted(rules, state: GameState, event: RollAccepted) -> GameState:
    return _replace(state, volley=_replace(state.volley, pending=None))


def _reroll_used(rules, state: GameState, event: RerollUsed) -> GameState:
    state = with_aircraft(state, _replace(state.aircraft[event.aircraft], reroll_used=True))
    return _replace(state, volley=_replace(state.volley, pending=None))


def _hits_scored(rules, state: GameState, event: HitsScored, scope: FoldScope | None = None) -> GameState:
    hits = event.hits
    if scope is not None and state.volley is not None:  # the fold's own volley: its shot changed in place
        for shot in _fold_shots(state, event.weapon_index):
            shot.hits = hits
            shot.rolled = True
            shot.done = hits == 0
        return state
    return _with_shot(state, event.weapon_index, hits=hits, rolled=True, done=hits == 0)


def _decoy_launched(rules, state: GameState, event: DecoyLaunched) -> GameState:
    state = with_aircraft(state, _replace(state.aircraft[event.aircraft], decoy_used=True))
    volley = state.volley
    if event.negated and volley is not None and volley.aircraft == event.firer and event.weapon_index is not None:
        shot = next((s for s in volley.shots if s.weapon_index == event.weapon_index and not s.done), None)
        if shot is not None:  # "the hit becomes a miss" (p.37, p.44): one hit of that weapon's hits
            hits = max(0, shot.hits - 1)
            state = _with_shot(state, event.weapon_index, hits=hits, done=hits == 0)
    return state


def _damage_rolled(rules, state: GameState, event: DamageRolled, scope: FoldScope | None = None) -> GameState:
    if event.kind == "shot" and state.volley is not None and state.volley.aircraft == event.aircraft:
        if scope is not None:  # the fold's own volley: its shot changed in place
            for shot in _fold_shots(state, event.weapon_index):
                shot.done = True
            return state
        return _with_shot(state, event.weapon_index, done=True)
    return state


def _unchanged(rules, state: GameState, event: Event, scope: FoldScope | None = None) -> GameState:
    return state


def _volley_ended(rules, state: GameState, event: VolleyEnded, scope: FoldScope | None = None) -> GameState:
    firer = state.aircraft[event.aircraft]
    if event.kind == TAIL_GUNNER:
        # Once per turn (p.24): return fire made uses the chance; declining it does only with
        # RuleOptions(declined_return_fire_spends=True).
        returned = state.volley is not None and bool(state.volley.shots)
        if returned or rules.options.declined_return_fire_spends:
            used = replaced(firer, scope, tail_gunner_used=True)
            state = replaced(state, scope, aircraft=aircraft_with(state, used, scope), volley=None, return_fire=None)
        else:
            state = replaced(state, scope, volley=None, return_fire=None)
        just_fired = state.opponent(firer.owner)
        to_act = fires_next(state, firer.owner, just_fired)  # next_to_fire(state, just_fired)
        return state if to_act == state.to_act else replaced(state, scope, to_act=to_act)
    # next_to_fire(state, firer.owner, fired=firer.id): the state after, asked of the state before
    owner = firer.owner
    first, second = state.players  # GameState.opponent, inline
    to_act = fires_next(state, second if owner == first else first, owner, firer.id)
    if scope is not None:  # the fold's own state and aircraft: changed in place (FoldScope)
        firer.fired = True
        state.to_act = to_act
        state.volley = None
        return state
    fired = _replace(firer, fired=True)
    return _replace(state, aircraft=aircraft_with(state, fired), to_act=to_act, volley=None)


def _return_fire_offered(rules, state: GameState, event: ReturnFireOffered) -> GameState:
    gunner = state.aircraft[event.aircraft]
    return _replace(state, return_fire=ReturnFire(aircraft=gunner.id, player=gunner.owner, target=event.target))


def _autonomous_launched(state: GameState, event: AutonomousLaunched) -> GameState:
    """A placement opens the firer's volley when LaunchAutonomous made it; it counts towards the two (p.25)."""
    state = autonomous.evolve_launched(state, event)
    volley = state.volley
    if volley is None:
        volley = Volley(aircraft=event.firer, player=event.owner, kind=FIRE, open=True)
    return _replace(state, volley=_replace(volley, launched=volley.launched + 1))


_REDUCERS = {
    FiringPassed: _firing_passed,
    TailingDetermined: _tailing_determined,
    VolleyDeclared: _volley_declared,
    WeaponFired: _weapon_fired,
    RerollOffered: _reroll_offered,
    RollAccepted: _roll_accepted,
    RerollUsed: _reroll_used,
    HitsScored: _hits_scored,
    DecoyLaunched: _decoy_launched,
    DamageRolled: _damage_rolled,
    DamageIgnored: _unchanged,
    BombCreepRolled: _unchanged,
    GroundTargetDamaged: lambda rules, state, event: evolve_ground_target_damaged(state, event),
    GroundTargetDestroyed: lambda rules, state, event: evolve_ground_target_destroyed(state, event),
    VolleyEnded: _volley_ended,
    ReturnFireOffered: _return_fire_offered,
    AutonomousLaunched: lambda rules, state, event: _autonomous_launched(state, event),
    AutonomousDistanceRolled: lambda rules, state, event: autonomous.evolve_distance(state, event),
    AutonomousMoved: lambda rules, state, event: autonomous.evolve_moved(state, event),
    AutonomousRemoved: lambda rules, state, event: autonomous.evolve_removed(state, event),
    AutonomousAttacked: lambda rules, state, event: autonomous.evolve_attacked(state, event),
}


evolve = evolve_by_table(_REDUCERS, "the firing part's events")
