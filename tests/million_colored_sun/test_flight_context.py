"""Speed work (issue 18, session 12) that must not change a choice: the ace works out what every flight of a model
is weighed against (its warscroll, the terrain too tall for it, the enemies and their bases, its reach, its bombs)
once a choice; each flight's value is the plain computation's, over the flights of seeded ace games (AIRBORNE
MOVEMENT, COLLISION, PILOT INPUT, BOMBING RUN)."""

from __future__ import annotations

from aero_events.rulesets.million_colored_sun.bots import (
    _BOMB_BLAST,
    _BOMB_DRIFT,
    _RUN_FARTHEST,
    _RUN_NEAREST,
    _RUN_PASS,
    EDGE_MARGIN,
    AceBot,
)
from aero_events.rulesets.million_colored_sun.flight import flight_path, too_tall
from aero_events.rulesets.million_colored_sun.geometry import in_rear_arc, point_at, swept
from aero_events.table import Circle, distance, gap, inches, overlaps, relative_bearing

from .helpers import RULES
from .test_speed import flights_met


def plain_flight_value(bot, rules, state, player, option) -> float:
    """The ace's flight value as it was written before: everything found again for each flight."""
    model = state.models[option.model]
    scroll = rules.warscroll(model)
    points, end = flight_path(rules, model, option)
    x, y = end.position
    margin = min(x, y, state.width - x, state.height - y)
    if margin < 0:
        return -1e6
    value = -max(0, EDGE_MARGIN - margin) / 254
    if not scroll.missile:
        value -= (300, 40, 0)[bot._stays_on(rules, state, scroll, end)]
    sweep = swept(points, scroll.base_radius)
    for terrain in state.terrain.values():
        if not terrain.destroyed and too_tall(rules, model, terrain) and overlaps(sweep, terrain.shape):
            value -= 500
    enemies = [e for e in bot._enemies(state, player) if not rules.warscroll(e).missile]
    if not enemies:
        return value
    if scroll.missile:
        return value - min(gap(sweep, Circle(e.position, rules.warscroll(e).base_radius)) for e in enemies) / 254
    reach = max((w.range for w in scroll.weapons if w.kind == "missile"), default=inches(12))
    nearest = min(enemies, key=lambda e: (distance(end.position, e.position), e.id))
    apart = distance(end.position, nearest.position)
    bomber = model.bombs_dropped < scroll.bombs
    targets = [e for e in enemies if not e.airborne and not rules.warscroll(e).has("FLY")]
    if bomber and targets:
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
    if option.bomb_at is not None:
        spot = point_at(points, option.bomb_at + _BOMB_DRIFT)
        hit = sum(1 for e in enemies if not e.airborne and e.mode != "fly" and not rules.warscroll(e).has("FLY")
                  and distance(spot, e.position) <= _BOMB_BLAST)
        value += 30 * hit - 5
    if option.pilot_heading is not None:
        value -= 0.5
    return value


def test_every_flight_is_valued_as_the_plain_computation_values_it():
    """Every flight offered at the first flights of three seeded ace games: the value with the context worked out
    once (and the paths shared) is the plain value; the best flight is the plain best."""
    bot = AceBot(0)
    valued, values = 0, set()
    for seed in range(3):
        for state, player, flights in flights_met(seed, wanted=20):
            model = state.models[flights[0].model]
            context = bot._flight_context(RULES, state, player, model)
            shared: dict = {}
            mine = [o for o in flights if o.model == model.id]
            for option in mine:
                plain = plain_flight_value(bot, RULES, state, player, option)
                assert bot._flight_value(RULES, state, player, option, shared, context) == plain
                assert bot._flight_value(RULES, state, player, option) == plain
                values.add(plain)
                valued += 1
            best = max(mine, key=lambda o: plain_flight_value(bot, RULES, state, player, o))
            assert max(mine, key=lambda o: bot._flight_value(RULES, state, player, o, {}, context)) == best
    assert valued > 1000 and len(values) > 50
