"""Bots: a random one that plans only legal sequences (legal_commands already respects steep spacing and the
Immelmann prerequisites) and a hunter that seeks firing and tailing positions.

Both read only what their player may see: their own planes' console and tokens, and the public poses of
the others (the hunter predicts an enemy flies straight, never reads its cards).
"""

from __future__ import annotations

from collections.abc import Sequence
from math import isqrt
from typing import Any

from aero_events.bots.random_bot import StableRandom
from aero_events.table.sectors import point_in_sector
from aero_events.table.shapes import Sector

from . import pieces, planning
from .commands import Done, DropBombs, Fire, LaunchTorpedo, PlanCard, SniperPick, TakePhoto, UseLuck
from .geometry import Pose
from .state import GameState, PlaneState


class LegalRandomBot:
    """Uniform among the legal commands (so it plans legal sequences only)."""

    name = "random"

    def __init__(self, seed: int | str = 0):
        self.random = StableRandom(f"wog-random:{seed}")

    def choose(self, session: Any, player: str, options: Sequence[Any]) -> Any:
        return self.random.choice(options)


class HunterBot:
    """Plans the card that brings its enemies into its front cone at short range and keeps it out of theirs,
    on the table; fires the shot with the most tokens; bombers fly to their target and bomb."""

    name = "hunter"

    def __init__(self, rules: Any, seed: int | str = 0):
        self.rules = rules
        self.random = StableRandom(f"wog-hunter:{seed}")

    def choose(self, session: Any, player: str, options: Sequence[Any]) -> Any:
        state: GameState = session.state
        options = list(options)
        for kind in (SniperPick, DropBombs, TakePhoto, LaunchTorpedo):
            chosen = [o for o in options if isinstance(o, kind)]
            if kind is LaunchTorpedo:
                chosen = [o for o in chosen if self._ship_ahead(state, state.planes[o.plane])]
            if chosen:
                return self._sniper(state, chosen) if kind is SniperPick else chosen[0]
        plans = [o for o in options if isinstance(o, PlanCard)]
        if plans:
            plane_id = plans[0].plane
            mine = [o for o in plans if o.plane == plane_id]
            plane = state.planes[plane_id]
            context = self._plan_context(state, plane)
            return max(mine, key=lambda o: (self._score(state, plane, o.card, context), -o.card))
        luck = [o for o in options if isinstance(o, UseLuck)]
        for option in luck:
            plane = state.planes[option.plane]
            token = self.rules.catalogue.tokens[plane.pending[option.index][0]]
            if token.points >= 4 or token.special in ("fire", "engine", "crew_hit"):
                return option
        shots = [o for o in options if isinstance(o, Fire) and not o.sniper]
        if shots:
            return max(shots, key=lambda o: (self._shot_value(state, o), o.perfect_aim))
        done = [o for o in options if isinstance(o, Done)]
        return done[0] if done else options[0]

    def _sniper(self, state: GameState, options: list) -> Any:
        tokens = state.sniper[3]
        return max(options, key=lambda o: self.rules.catalogue.tokens[tokens[o.choice]].points)

    def _shot_value(self, state: GameState, command: Fire) -> int:
        from .firing import shot_option
        option = shot_option(self.rules, state, state.planes[command.plane], command.gun, command.target,
                             command.perfect_aim)
        if isinstance(option, str):
            return -1
        weight = {"A": 2, "B": 3, "C": 4, "D": 5}
        return sum(weight[letter] for letter in option.letters) + (2 if command.target in state.planes else 0)

    def _plan_context(self, state: GameState, plane: PlaneState) -> tuple[Pose, list]:
        """What every card of one plane is scored against: the pose its next card is flown from, and each enemy
        in play with its predicted pose, level, front sectors and tail sector (the same for every card)."""
        rules = self.rules
        pose = plane.pose
        moves = 1
        waiting = planning.first_slot(state, plane.id)
        if waiting is not None:
            first = pieces.card(rules, plane, waiting)
            pose = pose.then(first.move)
            moves = 2
        front = rules.catalogue.arc_sectors["front"]
        enemies = []
        for enemy in state.planes.values():
            if not enemy.in_play or enemy.side == plane.side:
                continue
            straight = pieces.straight_card(rules, enemy)
            predicted = enemy.pose
            for _ in range(moves):
                predicted = predicted.moved(forward=straight.dy, right=straight.dx)
            enemies.append((predicted, enemy.level,
                            [Sector.about(predicted, bearing, half) for bearing, half in front],
                            Sector(predicted.turned(18000), 3000)))
        return pose, enemies

    def _score(self, state: GameState, plane: PlaneState, number: int, context=None) -> int:
        rules = self.rules
        pose, enemies = context or self._plan_context(state, plane)
        card = pieces.card(rules, plane, number)
        end = pose.then(card.move)
        width, height = state.table
        margin = 8000
        score = 0
        if not (0 <= end.x <= width and 0 <= end.y <= height):
            return -10**9
        edge = min(end.x, end.y, width - end.x, height - end.y)
        if edge < margin:
            score -= (margin - edge) * 5
        if card.kind == "dive" and plane.level <= 2:
            score -= 10**6
        prof = pieces.profile(rules, plane)
        if plane.loaded and "bombs" in prof.loads:
            return score + self._bomber_score(state, plane, end, card)
        front = rules.catalogue.arc_sectors["front"]
        best = None
        for predicted, level, their_front, their_tail in enemies:
            value = self._position_value(end, plane.level, predicted, level, front, their_front, their_tail)
            best = value if best is None else max(best, value)
        return score + (best or 0)

    def _position_value(self, mine: Pose, my_level: int, theirs: Pose, their_level: int, front,
                        their_front=None, their_tail=None) -> int:
        me, them = (mine.x, mine.y), (theirs.x, theirs.y)
        d2 = (me[0] - them[0]) ** 2 + (me[1] - them[1]) ** 2
        distance = isqrt(d2)
        value = -abs(distance - 9000) // 10
        near = distance <= 20000
        if near and _in_sectors(mine, front, them):
            value += 4000 if distance <= 10000 else 2500
        if their_front is None:
            their_front = [Sector.about(theirs, bearing, half) for bearing, half in front]
        if near and any(point_in_sector(me, sector) for sector in their_front):
            value -= 2500
        if near and point_in_sector(me, their_tail or Sector(theirs.turned(18000), 3000)):
            value += 1500
        if my_level >= their_level:
            value += 200
        return value

    def _ship_ahead(self, state: GameState, plane: PlaneState) -> bool:
        """A torpedo is worth launching at a ship within 33 cm and 20 degrees of the nose."""
        apex = (plane.pose.x, plane.pose.y)
        for target in state.targets.values():
            prof = self.rules.catalogue.targets[target.kind]
            if target.side in (None, plane.side) or target.sunk or prof.sink_bomb_damage is None:
                continue
            point = (target.pose.x, target.pose.y)
            d2 = (point[0] - apex[0]) ** 2 + (point[1] - apex[1]) ** 2
            if d2 <= 33000 ** 2 and point_in_sector(point, Sector(plane.pose, 2000)):
                return True
        return False

    def _bomber_score(self, state: GameState, plane: PlaneState, end: Pose, card) -> int:
        catalogue = self.rules.catalogue.targets
        targets = [t for t in state.targets.values() if t.side not in (None, plane.side) and not t.sunk
                   and not catalogue[t.kind].hazard
                   and (catalogue[t.kind].fire == "none" or catalogue[t.kind].sink_bomb_damage is not None)]
        if not targets:
            return 0
        goal = min(targets, key=lambda t: (t.pose.x - end.x) ** 2 + (t.pose.y - end.y) ** 2)
        d2 = (goal.pose.x - end.x) ** 2 + (goal.pose.y - end.y) ** 2
        score = -isqrt(d2)
        if card.kind == "straight":
            score += 3000
        return score


def _in_sectors(pose: Pose, sectors, point) -> bool:
    """Whether ``point`` lies in one of the arc's sectors ((bearing from the nose, half-angle)) of ``pose``."""
    return any(point_in_sector(point, Sector.about(pose, bearing, half)) for bearing, half in sectors)
