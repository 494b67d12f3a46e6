"""Bots for Battlefleet Gothic: the random bot (core) and a bot that closes, turns to bring broadsides to bear
and uses special orders."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from aero_events.bots.random_bot import RandomBot, StableRandom
from aero_events.core.interface import BotInfo

from . import commands as cmd
from . import geometry
from . import ships as sh
from .data import CM
from .state import ACTIVE, ALL_AHEAD_FULL, LOCK_ON, RELOAD_ORDNANCE


class BroadsideBot:
    """Closes on the nearest enemy, turns to put it in a broadside arc at good range, takes All Ahead Full
    when far, Lock On when an enemy is already in a broadside, Reload Ordnance when empty; fires the largest
    salvo it can, launches torpedoes at the nearest enemy ahead, braces when crippled or facing a heavy
    attack."""

    name = "broadside"

    def __init__(self, seed: int | str = 0):
        self.random = StableRandom(f"broadside-bot:{seed}")

    def choose(self, session: Any, player: str, options: Sequence[Any]) -> Any:
        rules = session.ruleset
        state = session.state
        by_type: dict[type, list] = {}
        for option in options:
            by_type.setdefault(type(option), []).append(option)
        if cmd.React in by_type:
            return self._react(rules, state, by_type[cmd.React])
        if cmd.SteerTorpedoes in by_type:
            return self._steer(state, by_type[cmd.SteerTorpedoes])
        if cmd.MoveAttackCraft in by_type:
            return self._craft(state, by_type[cmd.MoveAttackCraft])
        if cmd.ChooseTurnOrder in by_type:
            return next(o for o in by_type[cmd.ChooseTurnOrder] if o.go_first)
        if cmd.MoveShip in by_type or cmd.GiveOrder in by_type:
            return self._movement(rules, state, by_type)
        if cmd.FireNovaCannon in by_type:
            return by_type[cmd.FireNovaCannon][0]
        if cmd.FireWeapons in by_type:
            return max(by_type[cmd.FireWeapons], key=lambda o: (self._weight(rules, state, o), o.target))
        if cmd.LaunchAttackCraft in by_type:
            launch = self._launch(state, by_type[cmd.LaunchAttackCraft])
            if launch is not None:
                return launch
        if cmd.LaunchTorpedoes in by_type:
            launch = self._torpedoes(rules, state, by_type[cmd.LaunchTorpedoes])
            if launch is not None:
                return launch
        for kind in (cmd.EndShooting, cmd.RemoveBlastMarkers, cmd.RollOff):
            if kind in by_type:
                return by_type[kind][0]
        return options[self.random.below(len(options))]

    @staticmethod
    def _nearest(state, ship, position=None):
        position = position or ship.position
        enemies = [s for s in state.ships.values() if s.side != ship.side and s.status == ACTIVE]
        if not enemies:
            return None
        return min(enemies, key=lambda s: (geometry.distance_sq(position, s.position), s.id))

    def _react(self, rules, state, options):
        pending = state.pending
        ship = state.ships[pending.ship]
        cls = rules.ship_class(ship)
        heavy = sum(amount for _, amount in pending.weapons) >= 8 or pending.kind in ("torpedoes", "nova", "explosion")
        brace = sh.crippled(cls, ship) or (heavy and ship.damage + 3 >= cls.hits // 2)
        for option in options:
            if option.brace == brace and option.turrets:
                return option
        return options[0]

    def _movement(self, rules, state, by_type):
        unmoved = sorted({o.ship for o in by_type.get(cmd.MoveShip, [])})
        ship = state.ships[unmoved[0]]
        orders = [o for o in by_type.get(cmd.GiveOrder, []) if o.ship == ship.id]
        if orders and ship.order is None:
            wanted = self._order(rules, state, ship)
            for option in orders:
                if option.order == wanted:
                    return option
        moves = [o for o in by_type[cmd.MoveShip] if o.ship == ship.id]
        enemies = [s for s in state.ships.values() if s.side != ship.side and s.status == ACTIVE]
        weigh = self._move_weigher(rules, state, ship, enemies)
        values: dict = {}  # moves differing only in the fighter screen end alike
        best, best_score = None, None
        for move in moves:  # the first move of the highest value, then the shortest path
            legs, turns = move.legs, move.turns
            value = values.get((legs, turns))
            if value is None:
                value = values[legs, turns] = weigh(legs, turns)
            score = (value, -sum(legs))
            if best is None or score > best_score:
                best, best_score = move, score
        if best is None:
            raise ValueError("no move offered to choose from")
        return best

    def _order(self, rules, state, ship):
        cls = rules.ship_class(ship)
        enemy = self._nearest(state, ship)
        if enemy is None:
            return None
        reach = max((w.range_cm for w in cls.weapons if w.kind in ("battery", "lance")), default=30) * CM
        distance = geometry.distance(ship.position, enemy.position)
        if not ship.ordnance_loaded and any(w.kind == "torpedoes" for w in cls.weapons):
            return RELOAD_ORDNANCE
        if distance > reach + cls.speed_cm * CM + 10 * CM:
            return ALL_AHEAD_FULL
        quadrants = geometry.quadrants(ship.position, ship.heading, enemy.position)
        if distance <= reach and quadrants & {"left", "right"}:
            return LOCK_ON
        return None

    def _move_value(self, rules, state, ship, move, enemies=None) -> float:
        """How good a move is; ``enemies``: the enemy ships still active (worked out once for all the moves)."""
        if enemies is None:
            enemies = [s for s in state.ships.values() if s.side != ship.side and s.status == ACTIVE]
        return self._move_weigher(rules, state, ship, enemies)(move.legs, move.turns)

    @staticmethod
    def _move_weigher(rules, state, ship, enemies):
        """How good each move of ``ship`` is, as a function of its (legs, turns): its end 10 cm inside the table,
        then near the ideal range of the nearest enemy ship in ``enemies`` (by distance, then id), with that
        enemy in a broadside (+25) or ahead (+8; only ahead counts beyond the guns' reach). What is the same for
        every move (the class, the reach, the table) is worked out once."""
        cls = rules.ship_class(ship)
        width, height = state.table
        margin = 10 * CM
        reach = max((w.range_cm for w in cls.weapons if w.kind in ("battery", "lance")), default=30) * CM
        ideal = max(15 * CM, reach * 2 // 3)
        targets = [(s.position[0], s.position[1], s.id) for s in enemies]
        start_x, start_y = ship.position
        start_heading = ship.heading
        forward = geometry.forward
        full_turn = geometry.FULL_TURN
        rays = geometry.quadrant_rays
        isqrt = math.isqrt

        def weigh(legs, turns) -> float:
            x, y, heading = start_x, start_y, start_heading  # movement.path_points' end, without the path
            for index, leg in enumerate(legs):
                if index:
                    heading = (heading + turns[index - 1]) % full_turn
                dx, dy = forward(heading, leg)
                x, y = x + dx, y + dy
            if not (margin <= x <= width - margin and margin <= y <= height - margin):
                return -1e9
            if not targets:
                return 0.0
            nearest = None
            for px, py, ship_id in targets:
                key = ((x - px) ** 2 + (y - py) ** 2, ship_id)
                if nearest is None or key < nearest:
                    nearest, vx, vy = key, px - x, py - y
            distance = isqrt(nearest[0])
            value = -abs(distance - ideal) / CM
            # the quadrants (p.7) as geometry.quadrant_flags finds them, the rear ones only when they count
            (s0, c0), (s1, c1), (s2, c2), (s3, c3) = rays(heading % full_turn)
            front_left, front_right = s0 * vy - c0 * vx, s1 * vy - c1 * vx
            front = front_left <= 0 <= front_right
            if distance > reach:  # out of range only the front quadrant counts
                return value + 8 if front else value
            rear_right, rear_left = s2 * vy - c2 * vx, s3 * vy - c3 * vx
            if front_right <= 0 <= rear_right or rear_left <= 0 <= front_left:
                value += 25
            elif front:
                value += 8
            return value

        return weigh

    @staticmethod
    def _weight(rules, state, option) -> int:
        cls = rules.ship_class(state.ships[option.ship])
        bonus = 100 if option.target in state.ships else 0
        mates = sum(rules.ship_class(state.ships[m]).weapon(w).value for m, w in option.squadron)
        return bonus + sum(cls.weapon(w).value for w in option.weapons) + mates

    def _launch(self, state, options):
        """Launch when an enemy is within 60 cm: the most bombers."""
        ship = state.ships[options[0].ship]
        enemy = self._nearest(state, ship)
        if enemy is None or not geometry.within(ship.position, enemy.position, 60 * CM):
            return None
        return max(options, key=lambda o: (o.bombers, o.fighters))

    def _craft(self, state, options):
        """Bombers go for the nearest enemy ship; fighters for enemy ordnance, else stay near."""
        wave = state.ordnance[options[0].marker]
        ships = [s.position for s in state.ships.values() if s.side != wave.side and s.status == ACTIVE]
        craft = [m.position for m in state.ordnance.values() if m.side != wave.side]
        goals = ships if wave.bombers or not craft else craft
        if not goals:
            return options[0]

        def gap(option):
            return min(geometry.distance_sq((option.x, option.y), goal) for goal in goals)

        return min(options, key=lambda o: (gap(o), o.x, o.y))

    def _steer(self, state, options):
        """Boarding torpedoes turn towards the nearest enemy ship (p.28)."""
        salvo = state.ordnance[options[0].marker]
        enemies = [s for s in state.ships.values() if s.side != salvo.side and s.status == ACTIVE]
        if not enemies:
            return min(options, key=lambda o: abs(o.turn))
        enemy = min(enemies, key=lambda s: (geometry.distance_sq(salvo.position, s.position), s.id))
        wanted = geometry.bearing(salvo.position, enemy.position)
        return min(options, key=lambda o: (abs((salvo.heading + o.turn - wanted + 18000) % 36000 - 18000), o.turn))

    def _torpedoes(self, rules, state, options):
        best, best_gap = None, 1500
        for option in options:
            ship = state.ships[option.ship]
            enemy = self._nearest(state, ship)
            if enemy is None or not geometry.within(ship.position, enemy.position, 45 * CM):
                continue
            wanted = geometry.bearing(ship.position, enemy.position)
            gap = abs((option.heading - wanted + 18000) % 36000 - 18000)
            if gap <= best_gap:
                best, best_gap = option, gap
        return best


def bots() -> dict[str, BotInfo]:
    return {
        "random": BotInfo(name="random", description="picks uniformly among the legal commands",
                          make=lambda ruleset, seed: RandomBot(seed)),
        "broadside": BotInfo(name="broadside", description="closes, turns broadsides to bear, uses special orders",
                             make=lambda ruleset, seed: BroadsideBot(seed)),
    }
