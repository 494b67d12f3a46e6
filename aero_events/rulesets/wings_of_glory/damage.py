"""DAMAGE, SPECIAL DAMAGE (Smoke, Fire, Rudder jammed, Crew Hit, Engine Damage), LUCKY, Luck of the Devil,
Sniper, and the token pools.

Tokens are drawn without replacement from one cup per letter (:class:`aero_events.core.pools.Pool`), face
down: the draw is a ``SecretPoolDrawn`` that only the damaged plane's owner sees, followed by a
:class:`~.events.TokensTaken` whose count and letters are public. Tokens drawn in one part of the turn
wait as ``pending`` and take effect together at its end (DAMAGE: "All damage is resolved simultaneously
within the same part of the firing phase"), in a :class:`~.events.DamageResolved` whose points, engine
damage and rudder direction stay secret.

Choices: a token ignored by Luck of the Devil, and the Sniper's unchosen token, go back to their cup.
When a cup holds fewer tokens than must be drawn, the ones left are drawn (the data page's reshuffle
rule: every token no plane holds is in the cup already). Collision tokens and the A tokens of Fire count
their points only; every other token has its special effect.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aero_events.core import Command, DiceCup, RuleError
from aero_events.core.pools import (
    PoolDrawn,
    PoolReturned,
    SecretPoolDrawn,
    SecretPoolReturned,
    evolve_pools,
    put_back,
)

from . import pieces
from .commands import SniperPick, UseLuck
from .events import (
    CrewWounded,
    DamageResolved,
    PlaneOut,
    SkillUsed,
    SmokeAndFire,
    SniperChose,
    SniperDrew,
    TargetDamaged,
    TokenIgnored,
    TokensTaken,
)
from .state import (
    CRASHED,
    FIRE,
    SHOT_DOWN,
    GameState,
    PlaneState,
    replace,
    with_plane,
    with_target,
)

if TYPE_CHECKING:
    from .ruleset import WingsOfGloryRules
    from .turn import Emitter

FULL = "full"
POINTS = "points"


def draw_tokens(rules: WingsOfGloryRules, out: Emitter, dice: DiceCup, letters: str, *, owner: str | None,
                purpose: str) -> list[str]:
    """Draw tokens of each letter (in ``letters``, e.g. "ACC") from their cups; secret to ``owner``."""
    drawn: list[str] = []
    for letter in sorted(set(letters)):
        pool = out.state.pools[letter]
        count = min(letters.count(letter), pool.size)
        if count == 0:
            continue
        event = dice.draw(pool, count, purpose=purpose, drawer=owner, secret_owner=owner)
        out.emit(event)
        drawn.extend(event.items)
    return drawn


def give_tokens(rules: WingsOfGloryRules, out: Emitter, dice: DiceCup, plane_id: str, letters: str, *,
                mode: str = FULL, cause: str) -> None:
    """DAMAGE: ``letters`` tokens drawn face down onto the console of ``plane_id`` (effect at the part's end)."""
    plane = out.state.planes[plane_id]
    if not letters or not plane.in_play:
        return
    tokens = draw_tokens(rules, out, dice, letters, owner=plane.owner, purpose=f"damage to {plane_id}: {cause}")
    emit_taken(out, plane, tokens, mode, cause)


def emit_taken(out: Emitter, plane: PlaneState, tokens: list[str], mode: str, cause: str) -> None:
    letters = "".join(sorted(t.split("-")[0] for t in tokens))
    out.emit(TokensTaken(owner=plane.owner, plane=plane.id, count=len(tokens), letters=letters, mode=mode,
                         cause=cause, tokens=tuple(tokens)).sealed(out.salts.next()))


def luck_available(state: GameState, plane: PlaneState) -> bool:
    return any(pieces.skill_ready(state, plane, i, "luck_of_the_devil") for i in range(len(plane.crew)))


def damage_target(rules: WingsOfGloryRules, out: Emitter, dice: DiceCup, target_id: str, letters: str,
                  shooter: str) -> None:
    """STRAFING: tokens kept face up beside a ground or naval target; special damage ignored. Ground troops
    are silenced at 5 points, AA guns at 10; an MTB sinks at 20; strafing never sinks a ship."""
    tokens = draw_tokens(rules, out, dice, letters, owner=None, purpose=f"strafing {target_id}")
    target = out.state.targets[target_id]
    prof = rules.catalogue.targets[target.kind]
    points = target.damage + sum(rules.catalogue.tokens[t].points for t in tokens)
    silenced = target.silenced or (prof.silence_points is not None and points >= prof.silence_points)
    sunk = target.sunk or (prof.sink_strafing_points is not None and points >= prof.sink_strafing_points)
    out.emit(TargetDamaged(target_piece=target_id, tokens=tuple(tokens), points=points, silenced=silenced,
                           sunk=sunk))


def resolve_all(rules: WingsOfGloryRules, out: Emitter, dice: DiceCup) -> None:
    """The end of a part of the turn: every plane's pending tokens take effect together."""
    for plane_id in sorted(out.state.planes):
        if out.state.planes[plane_id].pending:
            resolve_plane(rules, out, dice, plane_id)


def resolve_plane(rules: WingsOfGloryRules, out: Emitter, dice: DiceCup, plane_id: str) -> None:
    """DAMAGE and SPECIAL DAMAGE for one plane's pending tokens."""
    plane = out.state.planes[plane_id]
    prof = pieces.profile(rules, plane)
    damage, engine, rudder = plane.damage, plane.engine, plane.rudder
    smoke, flames, crew_hits, jammed = plane.smoke, plane.flames, 0, False
    for name, mode in plane.pending:
        token = rules.catalogue.tokens[name]
        damage += token.points
        if mode != FULL or not plane.in_play:
            continue
        special = token.special
        if special == "smoke":
            if smoke > 0:  # Smoke: a second smoke is treated as fire
                smoke, flames = 0, 6
            else:
                smoke = 6
        elif special == "fire":
            flames = 6  # Fire: six flame counters; a second fire tops them up to six
        elif special in ("rudder_left", "rudder_right"):
            rudder, jammed = special.split("_")[1], True
        elif special == "crew_hit":
            crew_hits += 1
        elif special == "engine":
            engine += 1
    out.emit(DamageResolved(owner=plane.owner, plane=plane_id, tokens=len(plane.pending), smoke=smoke,
                            flames=flames, rudder_jammed=jammed, crew_hits=crew_hits, damage=damage,
                            engine=engine, rudder=rudder).sealed(out.salts.next()))
    for _ in range(crew_hits):
        crew_hit(rules, out, dice, plane_id)
    plane = out.state.planes[plane_id]
    if not plane.in_play:
        return
    if plane.damage >= prof.damage_points:
        out.emit(PlaneOut(plane=plane_id, status=SHOT_DOWN, reason="DAMAGE: damage reached its damage points"))
    elif pieces.engine_effect(prof.engines, plane.engine) == "shot_down":
        out.emit(PlaneOut(plane=plane_id, status=SHOT_DOWN, reason="Engine Damage: shot down"))


def crew_hit(rules: WingsOfGloryRules, out: Emitter, dice: DiceCup, plane_id: str) -> None:
    """Crew Hit: a D6 for each living crewman; the highest (ties: all of them) is wounded. A pilot's second
    wound crashes the plane; other crew are incapacitated at two."""
    plane = out.state.planes[plane_id]
    living = [i for i, man in enumerate(plane.crew) if man.wounds < 2]
    if not living:
        return
    roll = dice.roll(len(living), purpose=f"Crew Hit on {plane_id}", roller=plane.owner)
    out.emit(roll)
    best = max(roll.faces)
    hit = tuple(i for i, face in zip(living, roll.faces, strict=True) if face == best)
    out.emit(CrewWounded(plane=plane_id, crewmen=hit))
    plane = out.state.planes[plane_id]
    if plane.in_play and plane.crew[0].wounds >= 2:
        out.emit(PlaneOut(plane=plane_id, status=CRASHED, reason="Crew Hit: the pilot is incapacitated"))


def end_of_turn_counters(rules: WingsOfGloryRules, out: Emitter, dice: DiceCup) -> None:
    """Smoke and Fire: at the end of each turn one counter of each is discarded, and a burning plane takes an
    A token (damage points only)."""
    for plane_id in sorted(out.state.planes):
        plane = out.state.planes[plane_id]
        if not plane.in_play or (plane.smoke == 0 and plane.flames == 0):
            continue
        burning = plane.flames > 0
        out.emit(SmokeAndFire(plane=plane_id, smoke=max(0, plane.smoke - 1), flames=max(0, plane.flames - 1)))
        if burning:
            give_tokens(rules, out, dice, plane_id, "A", mode=POINTS, cause="Fire")
    resolve_all(rules, out, dice)


# ---------------------------------------------------------------- Luck of the Devil and Sniper


def use_luck(rules: WingsOfGloryRules, out: Emitter, command: UseLuck, dice: DiceCup) -> None:
    """Luck of the Devil (and LUCKY): ignore a single token, after drawing and seeing it, once a game."""
    state = out.state
    plane = state.planes.get(command.plane)
    if plane is None or plane.owner != command.player:
        raise RuleError(f"{command.player} has no plane {command.plane!r}", rule="Luck of the Devil",
                        page=None)
    crewman = next((i for i in range(len(plane.crew)) if pieces.skill_ready(state, plane, i, "luck_of_the_devil")),
                   None)
    if crewman is None:
        raise RuleError(f"{plane.id} has no Luck of the Devil to use", rule="Luck of the Devil", page=None)
    if not 0 <= command.index < len(plane.pending):
        raise RuleError("choose one of the tokens just drawn", rule="Luck of the Devil", page=None)
    token = plane.pending[command.index][0]
    out.emit(TokenIgnored(owner=plane.owner, plane=plane.id, crewman=crewman, token=token).sealed(out.salts.next()))
    out.emit(put_back(dice, state.pools[token.split("-")[0]], [token], purpose=f"Luck of the Devil ({plane.id})",
                      secret_owner=plane.owner))
    if pieces.has_skill(plane, crewman, "luck_of_the_devil"):
        out.emit(SkillUsed(plane=plane.id, crewman=crewman, skill="luck_of_the_devil"))


def sniper_pick(rules: WingsOfGloryRules, out: Emitter, command: SniperPick, dice: DiceCup) -> None:
    """Sniper: the sniper gives the opponent the token of his choice and puts the other back in the cup."""
    pending = out.state.sniper
    if pending is None or pending[0] != command.player:
        raise RuleError("no Sniper draw waits for your choice", rule="Sniper", page=None)
    if command.choice not in (0, 1) or command.choice >= len(pending[3]):
        raise RuleError("choose token 0 or 1", rule="Sniper", page=None)
    _, plane_id, target_id, tokens, rest = pending
    chosen, other = tokens[command.choice], tokens[1 - command.choice] if len(tokens) > 1 else None
    out.emit(SniperChose(plane=plane_id, target=target_id))
    if other is not None:
        out.emit(put_back(dice, out.state.pools[other.split("-")[0]], [other], purpose="Sniper",
                          secret_owner=command.player))
    target = out.state.planes[target_id]
    emit_taken(out, target, [chosen], FULL, f"fire from {plane_id} (Sniper)")
    give_tokens(rules, out, dice, target_id, rest, cause=f"fire from {plane_id}")


def start_sniper(rules: WingsOfGloryRules, out: Emitter, dice: DiceCup, plane: PlaneState, target_id: str,
                 letter: str, letters: str) -> None:
    """Sniper: instead of the opponent drawing the selected token, the sniper's player draws two of that
    letter and looks at them; the opponent draws any other tokens normally (after the choice)."""
    rest = letters.replace(letter, "", 1)
    tokens = draw_tokens(rules, out, dice, letter * 2, owner=plane.owner, purpose=f"Sniper ({plane.id})")
    out.emit(SniperDrew(owner=plane.owner, plane=plane.id, target=target_id, letter=letter, tokens=tuple(tokens),
                        rest=rest).sealed(out.salts.next()))


HANDLERS = {UseLuck: use_luck, SniperPick: sniper_pick}


def legal_commands(rules: WingsOfGloryRules, state: GameState, player: str) -> list[Command]:
    if state.sniper is not None:
        return [SniperPick(player=player, choice=i) for i in range(len(state.sniper[3]))] \
            if state.sniper[0] == player else []
    if state.phase != FIRE:
        return []
    return [UseLuck(player=player, plane=plane.id, index=i)
            for plane in state.planes_of(player) if plane.pending and luck_available(state, plane)
            for i in range(len(plane.pending))]


def evolve(rules: WingsOfGloryRules, state: GameState, event) -> GameState | None:
    pools = evolve_pools(state.pools, event)
    if pools is not None:
        return replace(state, pools=pools)
    if isinstance(event, TokensTaken):
        plane = state.planes[event.plane]
        state = with_plane(state, replace(plane, tokens=plane.tokens + event.tokens,
                                          pending=plane.pending + tuple((t, event.mode) for t in event.tokens)))
        if state.phase == FIRE and plane.owner in state.done and luck_available(state, plane):
            # Luck of the Devil is used "after drawing and seeing" the token: its owner may act again.
            state = replace(state, done=tuple(p for p in state.done if p != plane.owner))
        return state
    if isinstance(event, DamageResolved):
        plane = state.planes[event.plane]
        return with_plane(state, replace(plane, pending=(), damage=event.damage, engine=event.engine,
                                         smoke=event.smoke, flames=event.flames, rudder=event.rudder,
                                         rudder_plans=2 if event.rudder_jammed else plane.rudder_plans))
    if isinstance(event, TokenIgnored):
        plane = state.planes[event.plane]
        tokens = list(plane.tokens)
        tokens.remove(event.token)
        pending = list(plane.pending)
        index = next(i for i, (t, _) in enumerate(pending) if t == event.token)
        pending.pop(index)
        crew = list(plane.crew)
        crew[event.crewman] = replace(crew[event.crewman], luck_used=True)
        return with_plane(state, replace(plane, tokens=tuple(tokens), pending=tuple(pending), crew=tuple(crew)))
    if isinstance(event, CrewWounded):
        plane = state.planes[event.plane]
        crew = list(plane.crew)
        for i in event.crewmen:
            crew[i] = replace(crew[i], wounds=crew[i].wounds + 1)
        return with_plane(state, replace(plane, crew=tuple(crew)))
    if isinstance(event, SmokeAndFire):
        plane = state.planes[event.plane]
        return with_plane(state, replace(plane, smoke=event.smoke, flames=event.flames))
    if isinstance(event, SniperDrew):
        return replace(state, sniper=(event.owner, event.plane, event.target, event.tokens, event.rest))
    if isinstance(event, SniperChose):
        return replace(state, sniper=None)
    if isinstance(event, TargetDamaged):
        target = state.targets[event.target_piece]
        return with_target(state, replace(target, tokens=target.tokens + event.tokens, damage=event.points,
                                          silenced=event.silenced, sunk=event.sunk))
    if isinstance(event, (PoolDrawn, SecretPoolDrawn, PoolReturned, SecretPoolReturned)):
        return state
    return None
