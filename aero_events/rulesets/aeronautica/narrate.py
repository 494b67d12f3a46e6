"""A readable account of a game: one English line per event worth telling (used by `aero demo`)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from aero_events.core import DiceRolled, Envelope, StateCheckpoint
from aero_events.hexgrid import Facing

from . import events as ev

FACING_NAMES = {f.value: f.name for f in Facing}


def _where(hex) -> str:
    return f"({hex[0]},{hex[1]})"


def describe(event) -> str | None:
    """One line for an event, or None for bookkeeping that needs no telling."""
    match event:
        case ev.TurnBegan(turn=turn):
            return f"=== Turn {turn} ==="
        case ev.PhaseBegan(phase=phase):
            return None if phase in ("initiative", "tailing_fire") else f"-- {phase.replace('_', ' ').title()}"
        case DiceRolled(purpose=purpose, roller=roller, faces=faces, target=target):
            target_text = f" needing {target}+" if target is not None else ""
            return f"   {roller} rolls {list(faces)} for {purpose}{target_text}"
        case ev.InitiativeTied():
            return "   initiative tied: re-roll"
        case ev.InitiativeWon(player=player):
            return f"   {player} wins the initiative"
        case ev.FirstMoverChosen(chooser=chooser, first=first):
            return f"   {chooser} has {first} move first"
        case ev.ManoeuvreRevealed(aircraft=aircraft, manoeuvre=manoeuvre):
            shown = f"Ace Manoeuvre {manoeuvre}" if manoeuvre is not None else "no manoeuvre token"
            return f" {aircraft}: reveals {shown}"
        case ev.ThrottleSet(change=change, speed=speed):
            return f"   throttle {change:+d} -> Speed {speed}"
        case ev.ManoeuvreFlown(side=side, path=path, pushed=pushed, hex=hex, facing=facing, completed=completed):
            how = f" to the {side}" if side else ""
            extra = f", pushed on {len(pushed)} hex(es) past occupied hexes" if pushed else ""
            flown = "flies" if completed else "cannot complete it and flies straight"
            return (f"   {flown}{how} through {len(path)} hex(es) to {_where(hex)} facing "
                    f"{FACING_NAMES[facing]}{extra}")
        case ev.Hovered(facing=facing):
            return f"   hovers, turning to face {FACING_NAMES[facing]}"
        case ev.AltitudeChanged(change=change, altitude=altitude, speed=speed):
            verb = "climbs" if change > 0 else "dives"
            return f"   {verb} {abs(change)} to Altitude {altitude}, Speed {speed}"
        case ev.Stalled(aircraft=aircraft, reason=reason):
            return f"   ! {aircraft} STALLS: {reason}"
        case ev.CrashAvoided(aircraft=aircraft):
            return f"   {aircraft} pulls out of the dive at Altitude 1"
        case ev.BrokeUp(aircraft=aircraft, damaged=damaged, speed=speed):
            return f"   {aircraft} strains past Max Speed" + (" and is damaged" if damaged else " and holds together") \
                + f"; Speed {speed}"
        case ev.DamageSuffered(aircraft=aircraft, hits=hits, structure=structure, cause=cause):
            return f"   {aircraft} takes {hits} damaging hit(s) ({cause}); Structure {structure}"
        case ev.AircraftDestroyed(aircraft=aircraft, cause=cause):
            return f"   X {aircraft} is destroyed ({cause})"
        case ev.AircraftDisengaged(aircraft=aircraft, how=how, via=via):
            return f"   {aircraft} leaves the Area of Engagement ({how} disengagement, {via})"
        case ev.Landed(aircraft=aircraft):
            return f"   {aircraft} lands"
        case ev.TookOff(aircraft=aircraft):
            return f"   {aircraft} takes off"
        case ev.Taxied(aircraft=aircraft, hex=hex):
            return f"   {aircraft} taxis to {_where(hex)}"
        case ev.StallRecovered(aircraft=aircraft, speed=speed, altitude=altitude):
            return f"   {aircraft} recovers from its Stall: Speed {speed}, Altitude {altitude}"
        case ev.SpinEntered(aircraft=aircraft):
            return f"   ! {aircraft} falls into a SPIN"
        case ev.SpinRecovered(aircraft=aircraft, facing=facing):
            return f"   {aircraft} pulls out of the Spin facing {FACING_NAMES[facing]}"
        case ev.SpinFell(aircraft=aircraft, altitude=altitude):
            return f"   {aircraft} is still spinning: Altitude {altitude}"
        case ev.FiringPassed(player=player):
            return f"   {player} holds fire"
        case ev.OccupiedHexRolled(aircraft=aircraft, hex=hex, hit=hit):
            return f"   {aircraft} passed through occupied hex {_where(hex)}" + (": a 1, hit" if hit else ": safe")
        case ev.TailingDetermined(aircraft=aircraft, target=target) if target:
            return f"   {aircraft} is TAILING {target}"
        case ev.SetUpRollOffWon(player=player):
            return f"   {player} wins the set-up roll-off"
        case ev.WeatherDetermined(conditions=conditions):
            return f"   weather: {conditions}"
        case ev.CloudLevelDetermined(level=level):
            return f"   cloud cover at Altitude {level}"
        case ev.AircraftPlaced(aircraft=aircraft, hex=hex, speed=speed, altitude=altitude):
            return f"   {aircraft} placed at {_where(hex)}, Speed {speed}, Altitude {altitude}"
        case ev.ReservePlaced(aircraft=aircraft, hex=hex):
            return f"   reserve {aircraft} arrives at {_where(hex)}"
        case ev.EjectorSeatsRolled(aircraft=aircraft, escaped=escaped):
            return f"   {aircraft}'s crew " + ("eject safely" if escaped else "do not get out")
        case ev.TerrainCrashed(aircraft=aircraft, terrain=terrain):
            return f"   X {aircraft} flies into {terrain}"
        case ev.TroopsDelivered(aircraft=aircraft, zone=zone, victory_points=vp):
            return f"   {aircraft} delivers its troops to {zone}: {vp} VP"
        case ev.JumpTroopsDropped(aircraft=aircraft, landed=landed, points=points, victory_points=vp):
            return f"   {aircraft} drops jump troops: {landed} of {points} land safely, {vp} VP"
        case ev.DisengagementTurnDeclared(turn=turn, players=players):
            return f"   insurmountable losses for {', '.join(players)}: turn {turn} is the Disengagement turn"
        case ev.VolleyDeclared(aircraft=aircraft, kind=kind, shots=shots):
            if not shots:
                return f" {aircraft} holds its fire"
            targets = sorted({shot.target for shot in shots if shot.target})
            label = {"tailing": "Tailing Fire", "tail_gunner": "Tail Gunner return fire"}.get(kind, "fires")
            return f" {aircraft}: {label} at {', '.join(targets) or 'an open hex'}"
        case ev.WeaponFired(weapon=weapon, target=target, band=band, dice=dice, ammo_left=ammo):
            ammo_text = f", {ammo} ammo left" if ammo is not None else ""
            return f"   {weapon} at {target or '-'}: {band or 'no'} range, {dice} dice{ammo_text}"
        case ev.HitsScored(target=target, hits=hits):
            return f"   {hits} hit(s) on {target}"
        case ev.DamageRolled(target=target, structure=structure, skipped=skipped):
            if skipped:
                return f"   no damage rolled against {target}: {skipped}"
            # A damaging result is told by the DamageSuffered (or DamageIgnored) that follows it.
            return f"   no damage to {target}" if structure == 0 else None
        case ev.DamageIgnored(aircraft=aircraft, upgrade=upgrade):
            return f"   {aircraft}'s {upgrade.replace('_', ' ')} ignores the damage"
        case ev.DecoyLaunched(aircraft=aircraft, upgrade=upgrade, negated=negated):
            return f"   {aircraft} uses {upgrade.replace('_', ' ')}" + (": the hit becomes a miss" if negated else "")
        case ev.ManoeuvreDeclined(aircraft=aircraft):
            return f" {aircraft}: hovers on with no Manoeuvre token"
        case ev.FuelExhausted(aircraft=aircraft, turns=turns):
            return f"   ! {aircraft} runs out of fuel after {turns} turn(s)"
        case ev.RollOffered(aircraft=aircraft, step=step):
            return f"   {aircraft} may re-roll its {step.replace('_', ' ')} roll"
        case ev.RerollUsed(aircraft=aircraft, upgrade=upgrade):
            return f"   {aircraft} re-rolls ({upgrade.replace('_', ' ')})"
        case ev.BombCreepRolled(target=target, hit=hit) if hit:
            return f"   bomb creep catches {target}"
        case ev.GroundTargetDestroyed(target=target):
            return f"   X ground target {target} destroyed"
        case ev.AutonomousLaunched(weapon_id=weapon_id, firer=firer, hex=hex):
            return f"   {firer} launches {weapon_id} at {_where(hex)}"
        case ev.AutonomousAttacked(weapon_id=weapon_id, target=target, hit=hit):
            return f"   {weapon_id} {'hits' if hit else 'misses'} {target}"
        case ev.VictoryPointsScored(player=player, total=total, aircraft_total=aircraft_vp,
                                    points_difference=difference):
            extra = f" (+{difference} points difference)" if difference else ""
            return f"   {player} scores {total} Victory points: {aircraft_vp} for aircraft{extra}"
        case ev.GameEnded(reason=reason, winner=winner):
            return f"=== Game over: {reason}; " + (f"{winner} wins" if winner else "a draw")
    return None


def narrate(envelopes: Iterable[Envelope]) -> Iterator[str]:
    """The readable lines of a game, in order."""
    for envelope in envelopes:
        if isinstance(envelope.event, StateCheckpoint):
            continue
        line = describe(envelope.event)
        if line is not None:
            yield line
