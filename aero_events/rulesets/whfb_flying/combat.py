"""Close combat (Combat), on the host's close combat (README).

Host: every combat is fought once in each Close Combat phase, in the order the charges were made. A combat is
every unit linked by base contact: two units, or more ("multiple combats"), each pair of units in contact a
``Combat`` in the state. Blows go in Initiative steps, highest first; equal Initiative strikes at once. Models
in base contact attack the enemy unit they touch with their Attacks, the rank (or file) behind them with one
supporting attack each; a unit in contact with several enemy units fights each with the models on that side,
and no model twice. To hit by WS against WS, to wound by S against T, armour saves. Combat resolution, summed
for each side: the wounds it caused (wounds beyond what a unit had left are lost, except in a challenge:
overkill, at most 5 more), the highest rank bonus among its units (+1 per full rank of five or more behind the
first, at most +3), +1 if it holds an enemy's flank, +2 its rear. Each unit of the losing side takes a break
test on 2D6 against Ld minus the difference (Steadfast, more ranks than every enemy unit in the combat:
unmodified Ld); a unit that breaks flees from the enemy it fought, and each winning unit no longer in contact
pursues the broken units it fought (one roll, 2D6, Swiftstride 3D6 less the lowest) and destroys each that
fled no further than it rolled. Fear: a unit in combat with a Fear- or Terror-causing enemy that causes
neither tests Ld at the start of each round and fights at WS 1 on a failure.

Host challenges: before a round of a combat with characters on both sides (units of one character, or
characters that joined a unit in it), the player whose turn it is may issue a challenge with one of them, else
the other player may; the other side accepts with one of its characters or refuses. The two characters then
strike only each other that round, and their unsaved wounds count for combat resolution with overkill. A
refusal: the refusing side's joined character with the most Attacks (then WS, then name: the challenger's
pick, made by rule) stands back, strikes no blow and lends no Leadership that round; a character that is a
unit of its own cannot stand back, so a side with only such characters must accept. A challenge lasts one
round; a new one may be issued each round. A combat of characters alone has no challenges (they fight each
other anyway).

The supplement:

* Combat: "Ground units cannot attack Flying units except with ranged attacks, or during the Swoop attack"
  (charges enforce it: only Intercepts reach units in the air);
* Take Off/Land: "A model who made such moves on its previous Movement turn has -1 Initiative for Close
  Combat";
* Intercept: "The entire unit(s) may engage in aerial Close Combat following normal Initiative order (all
  models are allowed to strike.) +1 Initiative for Charging units. If multiple units are in battle, follow
  normal ground rules for eligible targets on flanking models. No Extra Ranks for Combat Resolution. Flank
  bonuses still apply." A unit intercepting or intercepted by several enemy units divides its models among
  them (host: evenly, the odd ones to the enemy it met first).
* Swoop: "After the blows, the Flying units continue to Swoop back up into the air beyond the flank of the
  target. The target unit may strike back, like normal ... Flying units gain +1 Initiative ... can only attack
  enemy models they are in base contact with ... Supporting Attacks rules still apply ... Fear/Terror rules
  apply in both directions. Add +1 to Combat Resolution for the Flying units." The +1 stands for the host's
  flank bonus (a Swoop always strikes a flank; "Flank bonuses still apply" is said of the Intercept only). A
  character that joined the swooping unit is in base contact first and strikes beside the unit's models that
  also fit along the flank. The exit: "M + D6 beyond the unit on the opposite flank"; where that place is
  taken or off the table, the exit is shortened 1" at a time, and if no place beyond is free the flyers hover
  above the target (spec gap: a blocked Swoop).
* Fly High (Combat): a flyer that breaks while in the air takes the Fly High test (fleeing.py).
* Characters: a fallen character has -1 I and -1 CR until its next turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from aero_events.core import DiceCup
from aero_events.core.orders import answer, current_window, open_window
from aero_events.table import INCH, centre, gap, heading_towards

from . import attacks
from .events import (
    AttackResolved,
    ChallengeIssued,
    ChallengeSettled,
    CombatEnded,
    CombatResolved,
    UnitDestroyed,
    UnitMoved,
)
from .falling import apply_wounds
from .fleeing import flee
from .geometry import footprint, moved_straight, ranks, side_length
from .movement import check_position
from .state import GROUND, INTERCEPT, LAND, SWOOP, TAKE_OFF, Challenge, Combat, GameState, UnitState

if TYPE_CHECKING:
    from .ruleset import WhfbFlyingRules


def initiative(rules: WhfbFlyingRules, state: GameState, unit: UnitState, *, charging: bool = False,
               kind: str = INTERCEPT) -> int:
    value = rules.profile(unit).profile.I
    if charging and kind in (INTERCEPT, SWOOP):
        value += 1  # Intercept: "+1 Initiative for Charging units"; Swoop: "+1 Initiative"
    if unit.flight in (TAKE_OFF, LAND) and not unit.fell:
        value -= 1  # Take Off/Land (Combat)
    if unit.fallen_until >= state.turn_count and unit.fell:
        value -= 1  # Characters: "-1 Initiative ... for falling from the air until its next turn"
    return value


def _in_contact(count_across: int, base: int, contact: int, limit: int) -> int:
    return max(1, min(limit, count_across, -(-contact // base)))


def fighters(rules: WhfbFlyingRules, state: GameState, combat: Combat, unit: UnitState,
             enemy: UnitState) -> tuple[int, int]:
    """(models in base contact, models giving supporting attacks)."""
    profile, enemy_profile = rules.profile(unit), rules.profile(enemy)
    if unit.models == 1:
        return 1, 0
    if combat.kind == INTERCEPT:
        return unit.models, 0  # "all models are allowed to strike"
    if combat.kind == SWOOP and unit.id == combat.charger:
        return combat.contacts, 0  # "can only attack enemy models they are in base contact with"
    unit_rect, enemy_rect = footprint(unit, profile), footprint(enemy, enemy_profile)
    if unit.id == combat.charger:
        target_rect = enemy_rect
        contact = min(unit_rect.width, side_length(target_rect, combat.side if combat.side in
                                                   ("front", "rear", "left", "right") else "front"))
        front = _in_contact(unit.files, profile.base_width, contact, unit.models)
        return front, min(front, unit.models - front) if ranks(unit) > 1 else 0
    charger_rect = enemy_rect
    side = combat.side if combat.side in ("front", "rear", "left", "right") else "front"
    if combat.kind == SWOOP:  # the swooping models and characters in base contact
        contact = combat.contacts * enemy_profile.base_width + character_frontage(rules, state, enemy)
    else:
        contact = charger_rect.width
    if side in ("left", "right"):
        front = _in_contact(ranks(unit), profile.base_depth, contact, unit.models)
        support = min(front, unit.models - front) if unit.files > 1 else 0
    elif side == "front":
        front = _in_contact(unit.files, profile.base_width, contact, unit.models)
        support = min(front, unit.models - front) if ranks(unit) > 1 else 0
    else:
        front, support = _in_contact(unit.files, profile.base_width, contact, unit.models), 0
    return front, support


def character_frontage(rules: WhfbFlyingRules, state: GameState, unit: UnitState) -> int:
    """How much of a contact the characters that joined ``unit`` take (their bases side by side)."""
    return sum(rules.profile(c).base_width for c in unit.with_characters(state))


def rank_bonus(rules: WhfbFlyingRules, unit: UnitState) -> int:
    """Host: +1 per full rank of five or more models behind the first, at most +3; none for skirmishers."""
    if rules.profile(unit).skirmishers or unit.files < 5 or unit.in_air:
        return 0
    return max(0, min(3, unit.models // unit.files - 1))


# ---------------------------------------------------------------- combats of several units


def combat_groups(state: GameState) -> list[tuple[Combat, ...]]:
    """The combats still to fight this phase: pairs of units in contact that share a unit are one combat, in
    the order of their first charge."""
    groups: list[list[Combat]] = []
    for pair in (c for c in state.combats if c.fought_turn != state.turn_count):
        touching = [g for g in groups if any({pair.charger, pair.target} & {c.charger, c.target} for c in g)]
        merged = [c for g in touching for c in g] + [pair]
        first = groups.index(touching[0]) if touching else len(groups)
        groups = [g for g in groups if g not in touching]
        groups.insert(min(first, len(groups)), merged)
    return [tuple(g) for g in groups]


def group_units(group: tuple[Combat, ...]) -> tuple[str, ...]:
    seen: list[str] = []
    for pair in group:
        for uid in (pair.charger, pair.target):
            if uid not in seen:
                seen.append(uid)
    return tuple(seen)


def group_key(group: tuple[Combat, ...]) -> tuple[str, str]:
    return group[0].charger, group[0].target


def enemies_in(group: tuple[Combat, ...], unit_id: str) -> list[str]:
    """The units ``unit_id`` is in base contact with, in the order the contacts were made."""
    return [p.target if p.charger == unit_id else p.charger for p in group if unit_id in (p.charger, p.target)]


def challenge_candidates(rules: WhfbFlyingRules, state: GameState, group: tuple[Combat, ...], side: str) -> list[str]:
    """Host challenges: the characters of ``side`` in the combat: units of one character, and the characters that
    joined a unit in it."""
    result = []
    for uid in group_units(group):
        unit = state.units[uid]
        if unit.side != side or not unit.in_play:
            continue
        if rules.profile(unit).character:
            result.append(uid)
        result += sorted(c.id for c in unit.with_characters(state))
    return result


def stands_back(rules: WhfbFlyingRules, state: GameState, candidates: list[str]) -> str:
    """The character a refusal sends back: a joined one with the most Attacks, then WS, then name ("" none)."""
    joined = [state.units[c] for c in candidates if state.units[c].joined]
    if not joined:
        return ""
    best = max(joined, key=lambda u: (rules.profile(u).profile.A, rules.profile(u).profile.WS, u.id))
    return best.id


def challenge_of(state: GameState, key: tuple[str, str]) -> Challenge | None:
    return next((c for c in state.challenges if c.key == key), None)


ISSUE, REPLY, ACCEPT = "challenge", "challenge (reply)", "challenge accepted"
NO_CHALLENGE, REFUSE = "no challenge", "refuse"
CHALLENGES = "Host: Challenges"


def _offer(out, state: GameState, group: tuple[Combat, ...], player: str, candidates: list[str], resume: str) -> None:
    out.emit(open_window(state.reactions, decider=player, question=f"whether to issue a challenge in the combat of "
                         f"{', '.join(group_units(group))}", choices=(*(f"challenge with {c}" for c in candidates),
                                                                      NO_CHALLENGE),
                         rule=CHALLENGES, resume=resume, subject="|".join(group_key(group))))


def challenge_settled(rules: WhfbFlyingRules, out, group: tuple[Combat, ...]) -> bool:
    """Whether the combat may be fought now: no challenge possible, or the challenge question answered; else the
    question is put (a reaction window) and the phase waits."""
    state = out.state
    record = challenge_of(state, group_key(group))
    if record is not None and record.settled:
        return True
    sides = [state.active, state.opponent(state.active)]
    candidates = {side: challenge_candidates(rules, state, group, side) for side in sides}
    if not all(candidates.values()) or all(rules.profile(state.units[u]).character for u in group_units(group)):
        return True  # no character to challenge, or only characters alone: they fight each other anyway
    _offer(out, state, group, sides[0], candidates[sides[0]], ISSUE)
    return False


def answer_challenge(rules: WhfbFlyingRules, out, command, dice: DiceCup) -> None:
    """A player's answer to a challenge question; then the Close Combat phase goes on."""
    window = current_window(out.state.reactions)
    out.emit(answer(out.state.reactions, command.player, command.choice))
    key = tuple(window.subject.split("|"))
    group = next(g for g in combat_groups(out.state) if group_key(g) == key)
    state = out.state
    player, other = command.player, state.opponent(command.player)
    if window.resume in (ISSUE, REPLY):
        if command.choice == NO_CHALLENGE:
            if window.resume == ISSUE:
                _offer(out, state, group, other, challenge_candidates(rules, state, group, other), REPLY)
                return
            out.emit(ChallengeSettled(key=key))
        else:
            challenger = command.choice.removeprefix("challenge with ")
            out.emit(ChallengeIssued(key=key, challenger=challenger))
            candidates = challenge_candidates(rules, out.state, group, other)
            refusal = (REFUSE,) if stands_back(rules, out.state, candidates) else ()
            out.emit(open_window(out.state.reactions, decider=other, question=f"how to answer {challenger}'s challenge",
                                 choices=(*(f"accept with {c}" for c in candidates), *refusal), rule=CHALLENGES,
                                 resume=ACCEPT, subject=window.subject, interrupted=player))
            return
    else:
        record = challenge_of(state, key)
        if command.choice == REFUSE:
            out.emit(ChallengeSettled(key=key, challenger=record.challenger, refused=stands_back(
                rules, state, challenge_candidates(rules, state, group, player))))
        else:
            out.emit(ChallengeSettled(key=key, challenger=record.challenger,
                                      accepted_by=command.choice.removeprefix("accept with ")))
    combat_phase(rules, out, dice)


def combat_phase(rules: WhfbFlyingRules, out, dice: DiceCup) -> None:
    """The Close Combat phase: fight every combat, then end the player turn (unless a challenge question waits).
    """
    from .turn import end_of_turn

    if fight_all(rules, out, dice):
        end_of_turn(rules, out, dice)


def fight_all(rules: WhfbFlyingRules, out, dice: DiceCup) -> bool:
    """Every combat not yet fought this phase fights a round; False when a decision is awaited."""
    while True:
        groups = combat_groups(out.state)
        if not groups:
            return True
        if not challenge_settled(rules, out, groups[0]):
            return False
        fight_round(rules, out, dice, groups[0])


class Striker(msgspec.Struct, frozen=True):
    """Who strikes whom in a round: ``striker`` (a unit, or a character), the unit it fights with (``owner``),
    the enemy it strikes, its Initiative, and its blows (``None``: a character's own Attacks)."""

    striker: str
    owner: str
    enemy: str
    initiative: int
    blows: tuple[int, int] | None = None
    duel: bool = False


def strikers_of(rules: WhfbFlyingRules, state: GameState, group: tuple[Combat, ...],
                challenge: Challenge | None) -> list[Striker]:
    result: list[Striker] = []
    units = group_units(group)
    for uid in units:
        unit = state.units[uid]
        if not unit.in_play:
            continue
        pairs = [p for p in group if uid in (p.charger, p.target)]
        intercepts = [p for p in pairs if p.kind == INTERCEPT]
        left = unit.models
        for pair in pairs:
            enemy = state.units[pair.target if pair.charger == uid else pair.charger]
            charging = pair.charger == uid and pair.first_round
            value = initiative(rules, state, unit, charging=charging, kind=pair.kind)
            if pair.kind == INTERCEPT and unit.models > 1:
                index = intercepts.index(pair)
                front = unit.models // len(intercepts) + (1 if index < unit.models % len(intercepts) else 0)
                support = 0
            else:
                front, support = fighters(rules, state, pair, unit, enemy)
            front = min(front, left)
            support = min(support, left - front)
            left -= front + support
            if front:
                result.append(Striker(uid, uid, enemy.id, value, (front, support)))
        first = pairs[0] if pairs else None
        for character in unit.with_characters(state) if first else ():
            enemy_id = first.target if first.charger == uid else first.charger
            charging = first.charger == uid and first.first_round
            result.append(Striker(character.id, uid, enemy_id,
                                  initiative(rules, state, character, charging=charging, kind=first.kind)))
    if challenge is None or not challenge.settled:
        return result
    if challenge.refused:
        return [s for s in result if s.striker != challenge.refused]
    if not challenge.accepted_by:
        return result
    duelists = (challenge.challenger, challenge.accepted_by)
    duel = []
    for me, them in (duelists, duelists[::-1]):
        mine = next((s for s in result if s.striker == me), None)
        if mine is not None:
            duel.append(msgspec.structs.replace(mine, enemy=them, blows=None, duel=True))
    # the duellists strike only each other; a character alone as a unit can be struck by no one else
    return [s for s in result if s.striker not in duelists and s.enemy not in duelists] + duel


def fight_round(rules: WhfbFlyingRules, out, dice: DiceCup, group: tuple[Combat, ...]) -> None:
    state = out.state
    units = group_units(group)
    challenge = challenge_of(state, group_key(group))
    ws_one: set[str] = set()
    for uid in units:
        unit = state.units[uid]
        mine = rules.profile(unit)
        enemies = [rules.profile(state.units[e]) for e in enemies_in(group, uid)]
        causes_fear = any(e.fear or e.terror for e in enemies)
        if unit.in_play and causes_fear and not (mine.fear or mine.terror) and not attacks.leadership_test(
                out, dice, uid, "fear", mine.profile.Ld, roller=unit.side):
            ws_one.add(uid)
    strikers = strikers_of(rules, state, group, challenge)
    caused = {out.state.units[u].side: 0 for u in units}
    for step in sorted({s.initiative for s in strikers}, reverse=True):
        results = []
        for s in strikers:
            striker, enemy = out.state.units[s.striker], out.state.units[s.enemy]
            if s.initiative != step or not striker.alive or not out.state.units[s.owner].in_play \
                    or not enemy.alive or (not enemy.in_play and not s.duel):
                continue
            profile, enemy_profile = rules.profile(striker), rules.profile(enemy)
            if s.blows is not None:
                front = min(s.blows[0], striker.models)
                blows = front * profile.profile.A + min(s.blows[1], striker.models - front)
            else:
                blows = profile.profile.A
            ws = 1 if s.owner in ws_one else profile.profile.WS
            enemy_owner = enemy.joined or enemy.id
            enemy_ws = 1 if enemy_owner in ws_one else enemy_profile.profile.WS
            score = attacks.combat_score(ws, enemy_ws)
            hits = attacks.roll_hits(out, dice, blows, score, purpose=f"to hit: {s.striker} strikes {s.enemy}",
                                     roller=striker.side)
            wounds = attacks.roll_wounds(out, dice, hits, profile.profile.S, enemy_profile.profile.T,
                                         purpose=f"to wound: {s.striker} strikes {s.enemy}", roller=striker.side)
            unsaved = attacks.roll_saves(out, dice, wounds, enemy_profile.save, profile.profile.S,
                                         purpose=f"armour saves: {s.enemy}", roller=enemy.side)
            notes = (("fear: WS 1",) if s.owner in ws_one else ()) + (("challenge",) if s.duel else ())
            kind = next(p.kind for p in group if s.owner in (p.charger, p.target))
            out.emit(AttackResolved(attacker=s.striker, target=s.enemy, attack=f"close combat ({kind})",
                                    dice=blows, hits=hits, wounds=wounds, unsaved=unsaved, to_hit=score,
                                    modifiers=(f"Initiative {step}", *notes)))
            results.append((s, unsaved))
        for s, unsaved in results:
            caused[out.state.units[s.striker].side] += counted_wounds(rules, out.state, s.enemy, unsaved, s.duel)
            apply_wounds(rules, out, dice, s.enemy, unsaved, s.owner)
    resolve(rules, out, dice, group, caused, refused=challenge.refused if challenge else "")


#: Host challenges: overkill counts at most this many wounds beyond those the character had left.
OVERKILL = 5


def counted_wounds(rules: WhfbFlyingRules, state: GameState, unit_id: str, unsaved: int, duel: bool) -> int:
    """The unsaved wounds that count for combat resolution: those the unit had left to lose, and in a challenge
    up to 5 more (overkill)."""
    unit = state.units[unit_id]
    left = unit.models * rules.profile(unit).profile.W - unit.wounds_taken if unit.alive else 0
    return min(unsaved, left + (OVERKILL if duel else 0))


def resolve(rules: WhfbFlyingRules, out, dice: DiceCup, group: tuple[Combat, ...], caused: dict[str, int], *,
            refused: str = "") -> None:
    """Combat resolution summed for each side; break tests for each losing unit; pursuits; Swoops pass on."""
    state = out.state
    units = [state.units[u] for u in group_units(group)]
    scores = {side: caused.get(side, 0) for side in state.players if any(u.side == side for u in units)}
    details: list[str] = []
    for side in scores:
        ranked = [(rank_bonus(rules, u), u.id) for u in units if u.side == side and u.in_play
                  and any(p.kind != INTERCEPT for p in group if u.id in (p.charger, p.target))]
        bonus, best = max(ranked, default=(0, ""))
        if bonus:
            scores[side] += bonus
            details.append(f"{best} +{bonus} ranks")
    for unit in units:
        if unit.fell and unit.fallen_until >= state.turn_count and unit.side in scores:
            scores[unit.side] -= 1
            details.append(f"{unit.id} -1 fell from the air")
    for position, bonus in (("flank", 1), ("rear", 2)):
        for side in scores:
            holding = [p for p in group if p.kind in (GROUND, INTERCEPT) and state.units[p.charger].side == side
                       and (p.side in ("left", "right") if position == "flank" else p.side == "rear")]
            if holding:
                scores[side] += bonus
                details.append(f"{holding[0].charger} +{bonus} {holding[0].side}")
    for pair in group:
        if pair.kind == SWOOP:
            scores[state.units[pair.charger].side] += 1
            details.append(f"{pair.charger} +1 Swoop")
    ranked_sides = sorted(scores.items(), key=lambda item: -item[1])
    winner = ranked_sides[0][0] if len(ranked_sides) > 1 and ranked_sides[0][1] > ranked_sides[1][1] else None
    out.emit(CombatResolved(units=tuple(u.id for u in units), scores=scores, winner=winner,
                            details=tuple(details)))
    if winner is not None:
        difference = scores[winner] - min(scores.values())
        enemies = {u.id: enemies_in(group, u.id) for u in units}
        broken: list[tuple[str, int]] = []
        for unit in units:
            if unit.side != winner:
                fled = break_test(rules, out, dice, unit.id, enemies[unit.id], difference, refused=refused)
                if fled:
                    broken.append((unit.id, fled))
        swoopers = {p.charger for p in group if p.kind == SWOOP}
        for unit in units:
            if unit.side == winner and unit.id not in swoopers:
                chased = [(b, fled) for b, fled in broken if b in enemies[unit.id]]
                if chased:
                    pursue(rules, out, dice, unit.id, chased)
    for pair in group:
        if pair.kind != SWOOP:
            continue
        if any(c.charger == pair.charger and c.target == pair.target for c in out.state.combats):
            out.emit(CombatEnded(charger=pair.charger, target=pair.target, reason="the Swoop passes on"))
        still = out.state.units[pair.charger]
        if still.in_play and not still.fleeing:
            swoop_exit(rules, out, dice, pair)


def steadfast(rules: WhfbFlyingRules, loser: UnitState, enemies: list[UnitState]) -> bool:
    """Host Steadfast: more ranks than every enemy unit in the combat. Special Rules: flyers "cannot be
    Steadfast"."""
    if rules.profile(loser).flyer:
        return False
    return all(max(1, loser.models // loser.files) > max(1, e.models // e.files) for e in enemies)


def break_test(rules: WhfbFlyingRules, out, dice: DiceCup, loser_id: str, enemy_ids: list[str], difference: int, *,
               refused: str = "") -> int:
    """A losing unit's break test; when it breaks it flees from the first enemy it fought. Returns the distance
    fled (0: it held, or flew high)."""
    state = out.state
    loser = state.units[loser_id]
    enemies = [state.units[e] for e in enemy_ids if state.units[e].in_play]
    if not loser.in_play or loser.fleeing:
        return 0
    # host: a unit uses the highest Leadership among it and the characters that joined it (not one that refused
    # a challenge and stands back)
    ld = max(rules.profile(u).profile.Ld for u in (loser, *loser.with_characters(state)) if u.id != refused) \
        if loser.id != refused else rules.profile(loser).profile.Ld
    target = ld if steadfast(rules, loser, enemies) else ld - difference
    if attacks.leadership_test(out, dice, loser_id, "break", target, roller=loser.side):
        return 0
    source = enemies[0] if enemies else None
    away = centre(footprint(source, rules.profile(source))) if source else centre(footprint(loser,
                                                                                             rules.profile(loser)))
    return flee(rules, out, dice, loser_id, away, reason=f"broke from combat with {source.id if source else '?'}")


def pursue(rules: WhfbFlyingRules, out, dice: DiceCup, winner_id: str, broken: list[tuple[str, int]]) -> None:
    """Host pursuit: one roll; every broken unit it fought that fled no further is destroyed; the pursuer moves
    after the first. A Swoop's flyers "continue to Swoop back up into the air" instead of pursuing (the caller
    leaves them out); a unit on the ground cannot pursue a unit in the air; a unit still in contact with another
    enemy stays."""
    state = out.state
    winner = state.units[winner_id]
    if not winner.in_play or winner.fleeing or state.engaged(winner_id):
        return
    reachable = [(b, fled) for b, fled in broken if not (state.units[b].in_play and
                                                         state.units[b].in_air != winner.in_air)]
    if not reachable:
        return
    profile = rules.profile(winner)
    rolled, _ = attacks.roll_distance(out, dice, 2, profile.flyer, purpose=f"pursuit: {winner_id}",
                                      roller=winner.side)
    reach = rolled * INCH
    for loser_id, fled in reachable:
        loser = out.state.units[loser_id]
        if loser.in_play and reach >= fled:
            out.emit(UnitDestroyed(unit=loser_id, reason=f"caught by the pursuit of {winner_id}"))
            for character in loser.with_characters(out.state):
                out.emit(UnitDestroyed(unit=character.id, reason=f"caught with {loser_id}"))
    loser = out.state.units[reachable[0][0]]
    start = centre(footprint(winner, profile))
    aim = centre(footprint(loser, rules.profile(loser)))
    if aim == start:
        return
    heading = heading_towards(aim[0] - start[0], aim[1] - start[1])
    length = min(reach, gap(footprint(winner, profile), footprint(loser, rules.profile(loser)))
                 if loser.in_play else reach)
    for step in range(length, -1, -INCH):
        pose = moved_straight(winner.pose, heading, step)
        if not position_free(rules, out.state, winner, pose, exclude=(loser.id,)):
            continue
        if step:
            out.emit(UnitMoved(unit=winner_id, pose=pose, how="pursuit", path=(winner.pose.position, pose.position),
                               counts_as_move=False))
        return


def position_free(rules: WhfbFlyingRules, state: GameState, unit: UnitState, pose, exclude=()) -> bool:
    """Whether the unit may stand at ``pose`` at its level (movement.check_position without the error)."""
    from aero_events.core import RuleError

    try:
        check_position(rules, state, unit, pose, unit.in_air, exclude=exclude)
    except RuleError:
        return False
    return True


def swoop_exit(rules: WhfbFlyingRules, out, dice: DiceCup, combat: Combat) -> None:
    """Swoop: "M + D6 beyond the unit on the opposite flank" (the rear of the flyers that far beyond it)."""
    state = out.state
    flyer, target = state.units[combat.charger], state.units[combat.target]
    profile = rules.profile(flyer)
    roll = dice.d6(purpose=f"swoop exit: {flyer.id}", roller=flyer.side)
    out.emit(roll)
    beyond = (profile.profile.M + roll.faces[0]) * INCH
    across = footprint(target, rules.profile(target)).width
    length = footprint(flyer, profile).length
    pose = None
    for extra in range(beyond, -1, -INCH):
        candidate = moved_straight(flyer.pose, combat.exit_heading, across + length + extra)
        if position_free(rules, state, flyer, candidate):
            pose = candidate
            break
    if pose is None:
        pose = moved_straight(flyer.pose, combat.exit_heading, (across + length) // 2)
    out.emit(UnitMoved(unit=flyer.id, pose=pose, how="swoop exit", path=(flyer.pose.position, pose.position),
                       counts_as_move=False))
