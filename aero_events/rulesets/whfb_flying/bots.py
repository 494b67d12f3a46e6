"""Bots: the random bot (core) and the general, who takes off with its flyers, swoops on open flanks and
intercepts weaker flyers, charges with the bigger unit, keeps its archers shooting and its wizards casting (a
close combat spell first, a template at a big unit), marches the rest at the nearest enemy, and issues or accepts
a challenge only with a character that is a match for the enemy's strongest."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from aero_events.bots.random_bot import RandomBot, StableRandom
from aero_events.core.interface import BotInfo
from aero_events.table import INCH, centre, distance, gap

from . import commands as cmd
from .geometry import footprint, moved_straight
from .shooting import why_not_shoot


def rough_gap(first, second) -> int:
    """The bot's quick estimate of the gap between two footprints: centres apart less half their lengths and
    widths (the rules measure exactly; a bot only compares options)."""
    reach = (max(first.width, first.length) + max(second.width, second.length)) // 2
    return max(0, distance(centre(first), centre(second)) - reach)


def _strength(rules, unit) -> int:
    stats = rules.profile(unit).profile
    return unit.models * stats.A * (stats.S + stats.WS) + unit.models * stats.W * stats.T


class GeneralBot:
    name = "general"

    def __init__(self, seed: int | str = 0):
        self.random = StableRandom(f"general-bot:{seed}")

    def choose(self, session: Any, player: str, options: Sequence[Any]) -> Any:
        rules, state = session.ruleset, session.state
        best, best_value = None, 0.0
        memo: dict = {}
        for option in options:
            value = self.value(rules, state, player, option, memo)
            if value > best_value:
                best, best_value = option, value
        if best is not None:
            return best
        ends = [o for o in options if isinstance(o, (cmd.EndPhase, cmd.EndVanguard))]
        return ends[0] if ends else options[self.random.below(len(options))]

    # ---------------------------------------------------------------- how good is one command

    def value(self, rules, state, player, option, memo: dict | None = None) -> float:
        """How good ``option`` is (0: not worth taking). ``memo`` keeps, within one choice, what the value of every
        option of a unit measures against (its archers' stand, the enemies' centres and footprints)."""
        memo = {} if memo is None else memo
        if isinstance(option, cmd.React):
            return self._reaction_value(rules, state, player, option.choice)
        if isinstance(option, cmd.LeaveUnit):
            return 0.0  # the general keeps its characters where they are
        if isinstance(option, cmd.VanguardMove):
            return 5.0 if option.take_off else 0.0
        if isinstance(option, cmd.Swoop):
            return 60.0 - self._gap(rules, state, option.unit, option.target) / INCH
        if isinstance(option, (cmd.Intercept, cmd.Charge)):
            mine, theirs = state.units[option.unit], state.units[option.target]
            ratio = _strength(rules, mine) / max(1, _strength(rules, theirs))
            if ratio < 0.8:
                return 0.0
            return 50.0 + 10 * min(ratio, 3.0) - self._gap(rules, state, option.unit, option.target) / INCH
        if isinstance(option, cmd.CastSpell):
            target = state.units[option.target]
            kind = rules.data.lore[option.spell].kind
            bonus = {"close combat": 3.0, "magic missile": 2.0}.get(kind, min(3.0, target.models / 5))
            return 40.0 + bonus + target.points / max(1, target.models) / 10
        if isinstance(option, cmd.Shoot):
            target = state.units[option.target]
            return 40.0 + target.points / max(1, target.models) / 10
        if isinstance(option, cmd.TakeOff):
            return 20.0 + (self._closer(rules, state, player, option, memo) if option.distance else 0.0)
        if isinstance(option, cmd.Fly) and option.join:
            return 0.0  # the general keeps its characters apart
        if isinstance(option, (cmd.Fly, cmd.Soar)):
            return 10.0 + self._flight_value(rules, state, player, option, memo)
        if isinstance(option, cmd.Move):
            unit = state.units[option.unit]
            stands = memo.get(("stands", unit.id))
            if stands is None:
                stands = memo["stands", unit.id] = \
                    why_not_shoot(rules, state, unit) is None and self._enemy_in_reach(rules, state, unit)
            if stands:
                return 0.0  # archers stand and shoot
            return 5.0 + self._closer(rules, state, player, option, memo) - (1.0 if option.march else 0.0)
        return 0.0

    def _reaction_value(self, rules, state, player, choice: str) -> float:
        """Charges: stand and shoot, else hold. Challenges: issue or accept with the strongest character when it is
        at least a match for the enemy's strongest; else decline (refuse when it may)."""
        plain = {"stand and shoot": 3.0, "hold": 2.0, "flee": 1.0, "no challenge": 1.0, "refuse": 1.0}
        if choice in plain:
            return plain[choice]
        character = state.units[choice.rsplit(" ", 1)[-1]]
        enemies = [u for u in state.units.values() if u.side != player and u.alive and rules.profile(u).character]
        strongest = max((_strength(rules, e) for e in enemies), default=0)
        mine = _strength(rules, character)
        return (2.0 if mine >= strongest else 0.5) + mine / 1000

    def _gap(self, rules, state, a, b) -> int:
        first, second = state.units[a], state.units[b]
        return gap(footprint(first, rules.profile(first)), footprint(second, rules.profile(second)))

    def _enemies(self, state, player):
        return [u for u in state.units.values() if u.side != player and u.in_play]

    def _enemy_in_reach(self, rules, state, unit) -> bool:
        weapon = rules.profile(unit).missile_weapon()
        rect = footprint(unit, rules.profile(unit))
        return any(rough_gap(rect, footprint(e, rules.profile(e))) <= weapon.range
                   for e in self._enemies(state, unit.side))

    def _closer(self, rules, state, player, option, memo: dict | None = None) -> float:
        """How much nearer the move of ``option`` brings its unit to the nearest enemy (half an inch a point, at
        most 5 points lost)."""
        unit = state.units[option.unit]
        profile = rules.profile(unit)
        memo = {} if memo is None else memo
        aims = memo.get(("aims", player))
        if aims is None:
            aims = memo["aims", player] = [centre(footprint(e, rules.profile(e))) for e in self._enemies(state, player)]
        before = memo.get(("before", unit.id))
        if before is None:
            here = centre(footprint(unit, profile))
            before = memo["before", unit.id] = min((distance(here, aim) for aim in aims), default=0)
        there = centre(footprint(unit, profile, moved_straight(unit.pose, option.heading, option.distance)))
        after = min((distance(there, aim) for aim in aims), default=0)
        return max(-5.0, (before - after) / INCH / 2)

    def _flight_value(self, rules, state, player, option, memo: dict | None = None) -> float:
        """Fly to a point a Swoop's reach from an enemy on the ground, and out of the enemy flyers' Intercept.
        """
        unit = state.units[option.unit]
        profile = rules.profile(unit)
        end = footprint(unit, profile, moved_straight(unit.pose, option.heading, option.distance))
        m = profile.profile.M * INCH
        memo = {} if memo is None else memo
        around = memo.get(("flight", unit.id))
        if around is None:
            enemies = self._enemies(state, player)
            ground = [footprint(e, rules.profile(e)) for e in enemies if not e.in_air]
            threats = [(footprint(e, rules.profile(e)), 2 * rules.profile(e).profile.M * INCH + 4 * INCH)
                       for e in enemies if e.in_air and _strength(rules, e) > _strength(rules, unit)]
            around = memo["flight", unit.id] = (ground, threats)
        ground, threats = around
        value = 0.0
        if ground:
            nearest = min(rough_gap(end, rect) for rect in ground)
            value += 10.0 - abs(nearest - m - 2 * INCH) / INCH
        for rect, reach in threats:
            if rough_gap(end, rect) <= reach:
                value -= 8.0
        return value


def bots() -> dict[str, BotInfo]:
    return {
        "random": BotInfo(name="random", description="picks uniformly among the legal commands",
                          make=lambda ruleset, seed: RandomBot(seed)),
        "general": BotInfo(name="general", description="swoops on open flanks, intercepts weaker flyers, charges with "
                                                       "the bigger unit, shoots, marches at the nearest enemy",
                           make=lambda ruleset, seed: GeneralBot(seed)),
    }
