"""Bots for Million-Colored Sun: the random bot (core) and the ace, which keeps its aircraft on the board and out of
tall terrain, flies into range and behind enemy aircraft, locks on, launches missiles and bombs the enemy's
infantry, holds the objective with its infantry and shoots where the expected damage is highest."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from aero_events.bots.random_bot import RandomBot, StableRandom
from aero_events.core.interface import BotInfo
from aero_events.table import Circle, distance, gap, inches, overlaps, relative_bearing

from . import commands as cmd
from .flight import flight_path, too_tall
from .geometry import in_rear_arc, manoeuvre_path, point_at, swept
from .state import ACTIVE, BOMBING_RUN, EVADE, LAUNCH_ORDNANCE, LOCK_ON, RECOVER, RED_MANOEUVRE

EDGE_MARGIN = inches(8)
# distances the ace measures against, in centi-mm, worked out once (they are looked at for every option)
_BOMB_DRIFT, _BOMB_BLAST, _ON_BOARD = inches("3.5"), inches(4), inches(2)
_RUN_NEAREST, _RUN_FARTHEST, _RUN_PASS = inches(10), inches(30), inches(6)


class FlightContext(NamedTuple):
    """What the ace weighs every flight of one model against, in one state: the model and its warscroll, the
    shapes of the standing terrain too tall for it (COLLISION), the enemy models that are not missiles and their
    bases, the reach of its missile weapons (12" without), whether it has bombs left, and the enemy models on the
    ground a bomb can hit."""

    model: Any
    scroll: Any
    tall: list
    enemies: list
    bases: list
    reach: int
    bomber: bool
    targets: list


def _chance(target: int) -> float:
    return max(0.0, min(1.0, (7 - target) / 6))


class AceBot:
    name = "ace"

    def __init__(self, seed: int | str = 0):
        self.random = StableRandom(f"ace-bot:{seed}")

    def choose(self, session: Any, player: str, options: Sequence[Any]) -> Any:
        rules, state = session.ruleset, session.state
        by_type: dict[type, list] = {}
        for option in options:
            by_type.setdefault(type(option), []).append(option)
        if cmd.PlaceReturning in by_type:
            return self._return(rules, state, player, by_type[cmd.PlaceReturning])
        if cmd.ChooseAction in by_type:
            chosen = self._action(rules, state, player, by_type[cmd.ChooseAction])
            if chosen is not None:
                return chosen
        if cmd.FlyManoeuvre in by_type:
            first = by_type[cmd.FlyManoeuvre][0].model
            flights: dict = {}
            context = self._flight_context(rules, state, player, state.models[first])
            return max((o for o in by_type[cmd.FlyManoeuvre] if o.model == first),
                       key=lambda o: self._flight_value(rules, state, player, o, flights, context))
        if cmd.MoveModel in by_type:
            chosen = self._ground_move(rules, state, player, by_type[cmd.MoveModel])
            if chosen is not None:
                return chosen
        if cmd.Shoot in by_type:
            return max(by_type[cmd.Shoot], key=lambda o: (self._shot_value(rules, state, o), o.target, o.weapon))
        if cmd.DeclareCharge in by_type:
            return by_type[cmd.DeclareCharge][0]
        if cmd.Fight in by_type:
            return by_type[cmd.Fight][0]
        if cmd.EndPhase in by_type:
            return by_type[cmd.EndPhase][0]
        return options[self.random.below(len(options))]

    # ---------------------------------------------------------------- the Hero phase

    @staticmethod
    def _enemies(state, player):
        return [m for m in state.models.values() if m.side != player and m.status == ACTIVE]

    def _return(self, rules, state, player, options):
        enemies = self._enemies(state, player) or list(state.models.values())
        centre = (state.width // 2, state.height // 2)

        def value(option):
            aim = 0 if option.heading == _towards((option.x, option.y), centre) else 1
            return (aim, min(distance((option.x, option.y), e.position) for e in enemies))

        return min(options, key=value)

    def _action(self, rules, state, player, options):
        done = {o.model for o in options}
        for model_id in sorted(done):
            mine = [o for o in options if o.model == model_id]
            actions = {o.action: o for o in mine}
            model = state.models[model_id]
            if RECOVER in actions and model.blast_markers:
                return actions[RECOVER]
            shift = self._shift(rules, state, player, model, mine)
            if shift is not None:
                return shift
            near = [e for e in self._enemies(state, player)
                    if not rules.warscroll(e).missile and distance(model.position, e.position) <= inches(30)]
            if LAUNCH_ORDNANCE in actions and any(abs(_bearing_off(model, e.position)) <= 6000 for e in near):
                return actions[LAUNCH_ORDNANCE]
            if RED_MANOEUVRE in actions and self._stays_on(rules, state, rules.warscroll(model), model.pose) == 1:
                return actions[RED_MANOEUVRE]
            if BOMBING_RUN in actions:
                return actions[BOMBING_RUN]
            if LOCK_ON in actions and near:
                return actions[LOCK_ON]
            if EVADE in actions:
                return actions[EVADE]
        return None

    def _shift(self, rules, state, player, model, mine):
        """A flying monster lands (FLY) to fight an enemy on the ground within 10", and takes off again when none is
        within 12"."""
        scroll = rules.warscroll(model)
        if not any(w.kind == "melee" for w in scroll.weapons):
            return None
        ground = [e for e in self._enemies(state, player) if not e.airborne and not rules.warscroll(e).missile]
        near = min((distance(model.position, e.position) for e in ground), default=inches(99))
        wanted = "fly" if model.airborne and near <= inches(10) else \
            "airborne" if not model.airborne and near > inches(12) else None
        return next((o for o in mine if o.action == "shift-mode" and o.mode == wanted), None)

    # ---------------------------------------------------------------- movement

    def _flight_value(self, rules, state, player, option, flights: dict | None = None,
                      context: FlightContext | None = None) -> float:
        """How good a flight is. ``flights`` keeps, within one choice, the part of the value that depends only on
        the flight path (options differing only in where a bomb drops share it); ``context``: what is the same
        for every flight of the model (:meth:`_flight_context`), worked out once a choice."""
        key = (option.model, option.manoeuvre, option.pilot_heading, option.pilot_distance)
        flight = None if flights is None else flights.get(key)
        if flight is None:
            if context is None:
                context = self._flight_context(rules, state, player, state.models[option.model])
            flight = self._path_value(rules, state, option, context)
            if flights is not None:
                flights[key] = flight
        finished, value, points, enemies = flight
        if finished:
            return value
        if option.bomb_at is not None:
            spot = point_at(points, option.bomb_at + _BOMB_DRIFT)
            hit = sum(1 for e in enemies if not e.airborne and e.mode != "fly" and not rules.warscroll(e).has("FLY")
                      and distance(spot, e.position) <= _BOMB_BLAST)
            value += 30 * hit - 5
        if option.pilot_heading is not None:
            value -= 0.5
        return value

    def _flight_context(self, rules, state, player, model) -> FlightContext:
        """What the value of every flight of ``model`` in ``state`` measures against (:class:`FlightContext`)."""
        scroll = rules.warscroll(model)
        enemies = [e for e in self._enemies(state, player) if not rules.warscroll(e).missile]
        return FlightContext(
            model=model, scroll=scroll,
            tall=[t.shape for t in state.terrain.values() if not t.destroyed and too_tall(rules, model, t)],
            enemies=enemies,
            bases=[Circle(e.position, rules.warscroll(e).base_radius) for e in enemies],
            reach=max((w.range for w in scroll.weapons if w.kind == "missile"), default=inches(12)),
            bomber=model.bombs_dropped < scroll.bombs,
            targets=[e for e in enemies if not e.airborne and not rules.warscroll(e).has("FLY")])

    def _path_value(self, rules, state, option, context: FlightContext) -> tuple:
        """(finished, value, path, enemies): the value of the flight path of ``option`` (finished: nothing is added
        for a bomb or pilot input)."""
        model, scroll = context.model, context.scroll
        points, end = flight_path(rules, model, option)
        x, y = end.position
        margin = min(x, y, state.width - x, state.height - y)
        if margin < 0:
            return True, -1e6, points, ()
        value = -max(0, EDGE_MARGIN - margin) / 254
        if not scroll.missile:
            value -= (300, 40, 0)[self._stays_on(rules, state, scroll, end)]
        sweep = swept(points, scroll.base_radius)
        for shape in context.tall:
            if overlaps(sweep, shape):
                value -= 500
        enemies = context.enemies
        if not enemies:
            return True, value, points, ()
        if scroll.missile:
            return True, value - min(gap(sweep, base) for base in context.bases) / 254, points, ()
        reach = context.reach
        nearest = min(enemies, key=lambda e: (distance(end.position, e.position), e.id))
        apart = distance(end.position, nearest.position)
        bomber, targets = context.bomber, context.targets
        if bomber and targets:
            # line up a bombing run: enemy ground models ahead, 10" to 30" off the nose
            value += 8 * sum(1 for e in targets if _RUN_NEAREST <= distance(end.position, e.position) <= _RUN_FARTHEST
                             and abs(relative_bearing(end, e.position)) <= 3000)
        else:
            value -= abs(apart - reach * 2 // 3) / 254
        if apart <= reach:
            value += 20
        if nearest.airborne and in_rear_arc(nearest.pose, end.position, 90):
            value += 15
        if model.bombing_run and bomber:
            value += 10 * sum(1 for e in targets if gap(sweep, Circle(e.position, 0)) <= _RUN_PASS)
        return False, value, points, enemies

    @staticmethod
    def _stays_on(rules, state, scroll, pose) -> int:
        """2 when a manoeuvre that is not Red keeps the model on the board from ``pose``, 1 when only a Red one
        does, 0 when none does."""
        best = 0
        for name in scroll.manoeuvres:
            _, end = manoeuvre_path(pose, rules.data.manoeuvres[name])
            if min(end.x, end.y, state.width - end.x, state.height - end.y) >= _ON_BOARD:
                if name not in scroll.red:
                    return 2
                best = 1
        return best

    def _ground_move(self, rules, state, player, options):
        plan = rules.data.battleplans[state.battleplan]
        objective = (plan.objective.x, plan.objective.y)
        for model_id in sorted({o.model for o in options}):
            model = state.models[model_id]
            if rules.warscroll(model).has("WAR MACHINE"):
                continue
            here = distance(model.position, objective)
            if here <= plan.objective.radius:
                continue
            moves = [o for o in options if o.model == model_id and not o.run]
            best = min(moves, key=lambda o: distance(_end(model, o), objective), default=None)
            if best is not None and distance(_end(model, best), objective) < here:
                return best
        return None

    # ---------------------------------------------------------------- shooting

    def _shot_value(self, rules, state, option) -> float:
        model = state.models[option.model]
        target = state.models[option.target]
        weapon = rules.warscroll(model).weapon(option.weapon)
        scroll = rules.warscroll(target)
        attacks = int(weapon.attacks) if weapon.attacks.isdigit() else (2 if weapon.attacks == "D3" else 3.5)
        damage = int(weapon.damage) if weapon.damage.isdigit() else (2 if weapon.damage == "D3" else 3.5)
        saved = _chance(scroll.save + weapon.rend) if scroll.save else 0.0
        expected = attacks * _chance(weapon.to_hit) * _chance(weapon.to_wound) * (1 - saved) * damage
        if target.airborne and scroll.initiative:
            expected *= 1 - _chance(scroll.initiative)
        left = scroll.wounds - target.wounds_taken
        return min(expected, left) * (scroll.points or 20) / max(1, scroll.wounds)


def _end(model, option):
    from aero_events.table import scatter

    return scatter(model.position, option.heading, option.distance)


def _towards(a, b) -> int:
    from aero_events.table import heading_towards

    return (heading_towards(b[0] - a[0], b[1] - a[1]) + 2250) // 4500 * 4500 % 36000


def _bearing_off(model, point) -> int:
    return relative_bearing(model.pose, point)


def bots() -> dict[str, BotInfo]:
    return {
        "random": BotInfo(name="random", description="picks uniformly among the legal commands",
                          make=lambda ruleset, seed: RandomBot(seed)),
        "ace": BotInfo(name="ace", description="keeps its aircraft on the board, flies into range and behind enemy "
                                               "aircraft, bombs infantry, holds the objective, shoots for damage",
                       make=lambda ruleset, seed: AceBot(seed)),
    }

