"""The baseline bot's speed-ups (issue 18 item 2) change no choice: the board tables answer exactly as the
hex-by-hex search of the edge (p.17), the bot plays the same games with and without them, and the ruleset
asks only the parts of the turn that can offer a command in the phase."""

from __future__ import annotations

from pathlib import Path

import pytest

from aero_events.bots import play
from aero_events.core import GameSession, SeededDice
from aero_events.core.secrets import REPRODUCIBLE_SALTS
from aero_events.hexgrid import Board, Hex
from aero_events.regress.recorded import from_jsonl
from aero_events.rulesets import get_ruleset
from aero_events.rulesets.aeronautica import AeronauticaRules, baseline_bot, movement
from aero_events.rulesets.aeronautica import commands as c
from aero_events.rulesets.aeronautica import ruleset as aeronautica_ruleset
from aero_events.rulesets.aeronautica.baseline_bot import (
    BaselineBot,
    _board_reach,
    _BoardReach,
    _flies_on,
    _next_turn,
    _pose_has_a_way_on,
)
from aero_events.rulesets.aeronautica.forces import AircraftEntry, ForceList
from aero_events.rulesets.aeronautica.movement import first_off_board, manoeuvre_flights, straight
from aero_events.rulesets.aeronautica.scenarios.dogfight import dogfight_setup
from aero_events.rulesets.aeronautica.setup import board_for
from tests.aeronautica.helpers import IMPERIUM, ORKS, reserve_setup

RULES = AeronauticaRules()
REPLAYS = Path(__file__).resolve().parents[2] / "replays"
BOARD = "16x16h"


def dogfight(rules: AeronauticaRules, size: int, seed: int, board: str = "4x4") -> GameSession:
    """Thunderbolts against Dakkajets (the Dogfight of ``make bench``), salts seeded so a seed gives the same
    events byte for byte."""
    imperium = ForceList(name="i", faction="imperial_navy", aircraft=(AircraftEntry(aircraft="thunderbolt"),) * size)
    orks = ForceList(name="o", faction="ork_air_waaagh", aircraft=(AircraftEntry(aircraft="dakkajet"),) * size)
    setup = dogfight_setup(("imperium", imperium), ("orks", orks), 25 * size, board=board,
                           catalogue=rules.catalogue, check_points=False)
    return GameSession(rules, setup, dice=SeededDice(seed), game_id=f"speed-{size}-{seed}",
                       metadata={REPRODUCIBLE_SALTS: True})


def an_aircraft(profile: str):
    session = dogfight(RULES, 1, 0)
    return next(a for a in session.state.aircraft.values() if a.profile == profile)


@pytest.mark.parametrize("board_name", ["3x3", "16x16h"])
def test_the_board_tables_say_which_flights_stay_on_the_board_as_the_hex_by_hex_search_does(board_name):
    """Leaving the Area of Engagement (p.17): from every hex and facing of the board, "some way of flying the
    manoeuvre at this Speed keeps every hex of its path on the board (and ends where a manoeuvre keeps it on
    next turn)" is the same read from the board's masks as found by stepping each path hex by hex."""
    board = board_for(board_name)  # a rulebook mat (odd columns one hex shorter), and a rectangle of hexes
    reach = _BoardReach(board)
    aircraft = an_aircraft("dakkajet")
    after = _next_turn(RULES, aircraft, 4)
    manoeuvres = [RULES.manoeuvres.get(number) for number in (1, 4, 7)]
    answers = {True: 0, False: 0}
    for hex in sorted(board.hexes):
        for facing in range(6):
            for manoeuvre in manoeuvres:
                for speed in (2, 5):
                    for then in (None, after):
                        expected = _flies_on(board, hex, facing, manoeuvre, speed, then)
                        assert reach.has(reach.flies_on(manoeuvre, facing, speed, then), hex) is expected, \
                            (hex, facing, manoeuvre.number, speed, then is not None)
                        answers[expected] += 1
            assert reach.has(reach.way_on(*after, facing), hex) is _pose_has_a_way_on(board, hex, facing, *after)
            path = straight(hex, facing, 3).path
            on = first_off_board(board, path) is None
            assert reach.has(reach.straight_on(facing, 3, None), hex) is on
            assert reach.has(reach.straight_on(facing, 3, after), hex) is (
                on and _pose_has_a_way_on(board, path[-1], facing, *after))
    assert answers[True] and answers[False]  # both answers occur: near the edges and in the middle


@pytest.mark.parametrize("board_name", ["3x3", "16x16h"])
def test_the_board_tables_fly_every_flight_of_the_manoeuvre_as_the_rules_reach_it(board_name):
    """How a manoeuvre may be flown (p.16) is the same whichever way the aircraft faces: the tables take the
    flights facing north and turn them, a hex's turn folded into its bit offset, each flight's mask ANDed on
    from the hexes it shares with the flight before. Every flight of every manoeuvre at every facing and
    Speed is the one ``movement.reach`` gives, in its order: the hexes it may start from and stay on the
    board (its path's hexes one by one), its last hex and its final facing."""
    board = board_for(board_name)
    reach = _BoardReach(board)
    flights = 0
    for number in RULES.manoeuvres.numbers:
        manoeuvre = RULES.manoeuvres.get(number)
        for facing in range(6):
            for speed in range(1, _BoardReach.PAD + 1):
                plain = []
                for flight in movement.reach(manoeuvre, facing, speed):
                    mask = reach.on
                    for hex in flight.path:
                        mask &= baseline_bot._shifted(reach.on, reach.offset(hex))
                    plain.append((mask, reach.offset(flight.path[-1]), flight.final_facing))
                tables = reach.flights(manoeuvre, facing, speed)
                assert tables == tuple(plain), (number, facing, speed)
                flights += len(plain)
                if speed == 3:  # the masks read hex by hex: the start hexes whose every path hex is on the board
                    for (mask, _, _), flight in zip(tables, movement.reach(manoeuvre, facing, speed), strict=True):
                        assert {hex for hex in board.hexes if reach.has(mask, hex)} == {
                            hex for hex in board.hexes
                            if all(board.contains(Hex(hex.q + q, hex.r + r)) for q, r in flight.path)}
    assert flights > 10_000


def test_the_board_tables_do_not_answer_off_the_board_or_past_the_speed_dial():
    """An aircraft off the board, or Speeds past the dial's 9 (p.18), are asked hex by hex."""
    board = Board.preset("4x4")
    reach = _board_reach(board)
    after = _next_turn(RULES, an_aircraft("thunderbolt"), 4)
    assert reach.answers(Hex(3, 3), 4, after)
    assert not reach.answers(Hex(-1, 3), 4, after)
    assert not reach.answers(Hex(3, 3), _BoardReach.PAD + 1, after)
    assert not reach.answers(Hex(3, 3), 0, None)


def test_the_baseline_plays_the_same_games_with_and_without_the_board_tables(monkeypatch):
    """The tables are a speed-up only: seeded 1 against 1 and 2 against 2 games (4'x4' and 3'x3') give the
    same events when every question is asked hex by hex."""
    def games():
        rules = AeronauticaRules()  # its own judgements, so neither run reuses the other's
        played = []
        for size, seed, board in ((1, 3, "4x4"), (2, 5, "3x3")):
            session = dogfight(rules, size, seed, board)
            play(session, {"imperium": BaselineBot(seed), "orks": BaselineBot(seed + 1)})
            played.append([envelope.event for envelope in session.events()])
        return played

    with_tables = games()
    monkeypatch.setattr(baseline_bot._BoardReach, "answers", lambda self, hex, speed, after: False)
    monkeypatch.setattr(baseline_bot._BoardReach, "answers_speeds", lambda self, plan: False)
    assert games() == with_tables
    assert all(len(events) > 300 for events in with_tables)


def every_state(path: Path):
    """Each state of a recorded game, from its set up to its end."""
    game = from_jsonl(path)
    rules = game.own_rules()
    state = rules.initial_state(game.setup(rules))
    yield rules, state
    for envelope in game.envelopes:
        state = rules.fold(state, [envelope.event])
        yield rules, state


def a_game_with_reserves(seed: int):
    """Each state of a seeded baseline game in which a Thunderbolt waits in reserve (p.33) on a 16x16 board."""
    setup = reserve_setup(board=BOARD)
    session = GameSession(RULES, setup, dice=SeededDice(seed), game_id=f"reserves-{seed}")
    bots = {IMPERIUM: BaselineBot(seed), ORKS: BaselineBot(seed + 1)}
    while not session.is_over():
        yield RULES, session.state
        player = next(p for p in session.state.players if session.legal_commands(p))
        session.apply(bots[player].choose(session, player, session.legal_commands(player)))
    yield RULES, session.state


def test_legal_commands_asks_only_the_parts_that_offer_commands_in_the_phase():
    """Each part of the turn names the phases in which it offers commands (``COMMAND_PHASES``); in every
    state of every Aeronautica game of the golden corpus (Dogfights, transports, ground attacks, both rule
    versions) and of games with reserves (p.33), no other part offers one."""
    files = sorted(REPLAYS.glob("*.jsonl"))
    assert len(files) >= 10
    phases = set()
    games = [every_state(path) for path in files] + [a_game_with_reserves(seed) for seed in range(4)]
    for game in games:
        for rules, state in game:
            phases.add(state.phase)
            asked = aeronautica_ruleset.parts_offering(state.phase)
            for player in state.players:
                offering = [part for part in aeronautica_ruleset.PARTS
                            if len(part.legal_commands(rules, state, player))]
                assert set(offering) <= set(asked), (state.turn, state.phase, offering)
    assert {"set_up", "reserves", "choose_manoeuvres", "movement", "firing", "tailing_fire"} <= phases


def test_a_player_with_nothing_to_decide_is_offered_an_empty_list():
    session = dogfight(RULES, 1, 0)
    rules, state = session.ruleset, session.state
    assert state.phase == "set_up"
    session.apply(rules.legal_commands(state, "imperium")[0])  # the roll-off
    waiting = next(p for p in state.players if not rules.legal_commands(session.state, p))
    assert rules.legal_commands(session.state, waiting) == []


def test_the_volleys_kept_between_decisions_are_those_worked_out_afresh():
    """In a Firing or Tailing Fire phase (p.13, p.20) each decision offers the player's aircraft their volleys
    again; those kept from earlier decisions (and earlier games) are the ones worked out afresh, in every firing
    state of seeded 4 against 4 games and of the golden corpus (bombing, ground targets, terrain, weather)."""
    from aero_events.rulesets.aeronautica import firing

    games = [every_state(path) for path in sorted(REPLAYS.glob("*.jsonl"))]
    for seed in range(2):
        session = dogfight(RULES, 4, seed)
        play(session, {"imperium": BaselineBot(seed), "orks": BaselineBot(seed + 1)})
        games.append((RULES, session.state_at(seq)) for seq in range(1, session.seq + 1))
    compared = 0
    for game in games:
        for rules, state in game:
            if state.phase not in ("firing", "tailing_fire"):
                continue
            for player in state.players:
                kept = list(firing.legal_commands(rules, state, player))
                accumulated = firing._OFFERED_VOLLEYS.pop(rules, {})  # worked out afresh, then kept on
                assert list(firing.legal_commands(rules, state, player)) == kept
                firing._OFFERED_VOLLEYS[rules] = accumulated
                compared += len(kept) > 1
    assert compared > 100



# ---------------------------------------------------------------- the bot's decisions against the plain rule


def plain_keeps_flying(rules, board, aircraft, manoeuvre, speed, careful) -> bool:
    """The look-ahead of the rule asked hex by hex (no board masks, no kept verdicts): the aircraft flies
    ``manoeuvre`` (None: straight ahead) at ``speed`` (None: any Speed its Throttle reaches) without a Stall
    or Breaking Up, on the board (p.17), and ``careful``: ends where a manoeuvre keeps it on next turn."""
    if aircraft.status != "flying":
        return True
    plan = baseline_bot._speed_plan(rules, aircraft, manoeuvre, speed, careful)
    if plan is True:
        return True
    chosen = rules.manoeuvres.get(manoeuvre) if manoeuvre is not None else None
    return any(baseline_bot._flies_hex_by_hex(board, aircraft, chosen, flown, after) for flown, after in plan)


def plain_tiers(rules, state, options) -> list:
    """Issue 18 item 1 as the rulebook puts it, option by option: the first of the careful and the merely
    safe choices that keeps any (empty: none does, and any option is chosen)."""
    board = rules.board(state)
    first = options[0]
    if isinstance(first, (c.ChooseManoeuvre, c.DeclineManoeuvre)):  # p.13
        for careful in (True, False):
            kept = [o for o in options if not isinstance(o, c.ChooseManoeuvre) or plain_keeps_flying(
                rules, board, state.aircraft[o.aircraft], o.manoeuvre, None, careful)]
            if kept:
                return kept
        return []
    if isinstance(first, c.SetThrottle):  # p.15
        aircraft = state.aircraft[first.aircraft]
        for careful in (True, False):
            kept = [o for o in options if plain_keeps_flying(rules, board, aircraft, aircraft.revealed,
                                                             aircraft.speed + o.change, careful)]
            if kept:
                return kept
        return []
    if isinstance(first, c.ManoeuvrePlan):  # p.16-17
        aircraft = state.aircraft[first.aircraft]
        flights = manoeuvre_flights(rules, aircraft)
        if len(flights) != len(options):
            return []
        after = _next_turn(rules, aircraft, aircraft.speed)
        on_board = [(o, f) for o, f in zip(options, flights) if first_off_board(board, f.path) is None]
        careful = [o for o, f in on_board if _pose_has_a_way_on(
            board, f.path[-1] if f.path else aircraft.hex, f.final_facing, *after)]
        return careful or [o for o, _ in on_board]
    if isinstance(first, (c.AdjustAltitude, c.Land, c.RocketBoostOut)):  # p.18-19, p.37
        aircraft = state.aircraft[first.aircraft]
        return [o for o in options if isinstance(o, c.AdjustAltitude)
                and BaselineBot._altitude_is_safe(rules, aircraft, o.change)]
    return [o for o in options if not isinstance(o, c.PassFiring)]  # p.20


class PlainBaseline(BaselineBot):
    """The baseline bot choosing from :func:`plain_tiers`: the same rule without any shortcut."""

    def choose(self, session, player, options):
        rules, state = session.ruleset, session.state
        if isinstance(options[0], (c.PlaceAircraft, c.PlaceReserve)):
            return self._placement(rules, state, options)
        if state.disengagement_turn:
            return self.random.choice(options)
        return self.random.choice(plain_tiers(rules, state, options) or options)


def seeded_games(bot: type, shared: bool = False):
    """Seeded Dogfights of ``bot`` against itself: 1 against 1 and 4 against 4 on 4'x4', Marauders against
    Fighta-Bommers, Thunderbolt Furies on 3'x3', and the demo Dogfight under both rule versions (the 2019 text's
    Throttle past the limits, the 2020 update's not: p.15). ``shared``: one bot per player plays every game."""
    bots: dict[str, object] = {}

    def make(seed, player):
        if not shared:
            return bot(seed)
        return bots.setdefault(player, bot(seed))

    played = []
    for size, seed, a, b, board in ((1, 0, "thunderbolt", "dakkajet", "4x4"), (1, 7, "thunderbolt", "dakkajet", "4x4"),
                                    (4, 1, "thunderbolt", "dakkajet", "4x4"), (2, 2, "marauder", "fighta_bommer", "4x4"),
                                    (2, 3, "thunderbolt_fury", "dakkajet", "3x3")):
        forces = [ForceList(name=side, faction=faction, aircraft=(AircraftEntry(aircraft=kind),) * size)
                  for side, faction, kind in (("i", "imperial_navy", a), ("o", "ork_air_waaagh", b))]
        setup = dogfight_setup(("imperium", forces[0]), ("orks", forces[1]), 25 * size, board=board,
                               catalogue=RULES.catalogue, check_points=False)
        session = GameSession(RULES, setup, dice=SeededDice(seed), game_id=f"plain-{size}-{seed}",
                              metadata={REPRODUCIBLE_SALTS: True})
        play(session, {"imperium": make(seed, "imperium"), "orks": make(seed + 1, "orks")})
        played.append(session)
    for version in ("aeronautica/wov-2019", "aeronautica/faq-2020"):
        rules = get_ruleset(version)
        name, options = rules.demo_scenario()[:2]
        build = rules.scenarios()[name]
        session = GameSession(rules, build.build({**build.default_options, **options}, 5), dice=SeededDice(5),
                              game_id=f"plain-{version}", metadata={REPRODUCIBLE_SALTS: True})
        play(session, {p: make(f"5:{p}", p) for p in rules.players(session.state)})
        played.append(session)
    return played


def test_the_baseline_plays_the_games_the_plain_rule_plays():
    """The decisions by command type, the kept verdicts and masks, and choosing at once among a single
    option: seeded games give the same events as a bot asking the rule hex by hex."""
    fast, plain = seeded_games(BaselineBot), seeded_games(PlainBaseline)
    assert [[e.event for e in s.events()] for s in fast] == [[e.event for e in s.events()] for s in plain]
    assert all(s.is_over() and s.seq > 300 for s in fast)


def test_a_bot_that_plays_on_another_board_or_ruleset_asks_that_one():
    """One bot per player for every game (4'x4', then 3'x3', then each rule version): the same events as the
    plain rule's bots playing the same way."""
    fast, plain = seeded_games(BaselineBot, shared=True), seeded_games(PlainBaseline, shared=True)
    assert [[e.event for e in s.events()] for s in fast] == [[e.event for e in s.events()] for s in plain]


def test_every_decision_keeps_the_choices_the_plain_rule_keeps():
    """In every state of the seeded games and of the golden corpus's Aeronautica games (ground attacks,
    transports, weather, both rule versions), each player's choices outside set-up and the Disengagement
    turn are those of the plain rule, tier for tier (a careful choice when there is one, else a safe one)."""
    def states():
        for session in seeded_games(BaselineBot):
            for seq in range(0, session.seq + 1, 3):
                yield session.ruleset, session.state_at(seq)
        for path in sorted(REPLAYS.glob("*.jsonl")):
            yield from every_state(path)

    bot = BaselineBot(0)
    compared: dict[str, int] = {}
    for rules, state in states():
        if state.disengagement_turn or rules.is_over(state):
            continue
        for player in state.players:
            options = rules.legal_commands(state, player)
            if len(options) < 2 or isinstance(options[0], (c.PlaceAircraft, c.PlaceReserve)):
                continue
            kept = plain_tiers(rules, state, options)
            assert list(bot.sensible(rules, state, options)) == kept, (state.turn, state.phase, options[0])
            kind = type(options[0]).__name__
            compared[kind] = compared.get(kind, 0) + 1
            if kept and len(kept) < len(options):
                compared[kind + " left out"] = compared.get(kind + " left out", 0) + 1
    for kind in ("ChooseManoeuvre", "SetThrottle", "ManoeuvrePlan", "AdjustAltitude", "PassFiring"):
        assert compared.get(kind, 0) > 50 and compared.get(kind + " left out", 0) > 5, (kind, compared)
