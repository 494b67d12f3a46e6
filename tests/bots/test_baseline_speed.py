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
from aero_events.rulesets.aeronautica import AeronauticaRules, baseline_bot
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
from aero_events.rulesets.aeronautica.movement import first_off_board, straight
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

