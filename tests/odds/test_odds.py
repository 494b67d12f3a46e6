"""The odds from any position (issue 18): playouts in memory, seeded per playout, hidden orders not read
from the future, any ruleset, and ``aero odds``."""

from __future__ import annotations

import json
from typing import Any

import pytest

from aero_events.bots import RandomBot, play
from aero_events.cli import main
from aero_events.core import GameSession, SeededDice
from aero_events.core.interface import Outcome
from aero_events.core.session import SecretCommandIssued
from aero_events.odds import OddsError, odds, playout_seed, start_point, turn_starts, win_probability_strip
from aero_events.odds.playouts import (
    PlayoutResult,
    command_end_after,
    command_end_before,
    command_ends,
    summarise,
)
from aero_events.rulesets import get_ruleset
from aero_events.rulesets.aeronautica.bots import BaselineBot
from aero_events.sim.stats import wilson_interval
from aero_events.store import EventStore
from tests.support.sealed_orders import PLAYERS, GiveOrder, SealedOrdersRules, SealedSetup, damage_points


class ScoredSealedOrders(SealedOrdersRules):
    """The sealed-orders test ruleset with an outcome: fewer damage points wins (its module docstring)."""

    def outcome(self, state: Any) -> Outcome:
        points = {player: -damage_points(state, player) for player in PLAYERS}
        if not state.over:
            return Outcome(finished=False, scores=points)
        best = max(points.values())
        leaders = [player for player, score in points.items() if score == best]
        return Outcome(finished=True, winner=leaders[0] if len(leaders) == 1 else None, draw=len(leaders) > 1,
                       scores=points)


def sealed_game(first_order: str, seed: int = 1, turns: int = 3) -> GameSession:
    """Alice gives ``first_order`` face down in turn 1; the game then stops, with bob to give his."""
    session = GameSession(ScoredSealedOrders(), SealedSetup(turns=turns), dice=SeededDice(seed))
    session.apply(GiveOrder(player="alice", order=first_order))
    return session


def aeronautica_game(seed: int = 3) -> GameSession:
    rules = get_ruleset("aeronautica/wov-2019")
    scenario = rules.scenarios()["dogfight"]
    session = GameSession(rules, scenario.build(scenario.default_options, seed), dice=SeededDice(seed),
                          game_id=f"odds-{seed}")
    play(session, {"imperium": BaselineBot(seed), "orks": BaselineBot(seed + 1)}, max_commands=150)
    return session


def test_a_position_after_a_sealed_order_is_played_on_from_before_the_turns_orders():
    """Bob has not seen alice's face-down order: the playouts start before it, and give it afresh."""
    session = sealed_game("attack")
    envelopes = session.events()
    sealed = next(env.seq for env in envelopes if type(env.event) is SecretCommandIssued)
    turn = session.ruleset.clock(session.state)[0]
    assert start_point(envelopes, session.seq, turn) == sealed - 1
    assert start_point(envelopes, sealed - 1, turn) == sealed - 1


def test_the_odds_do_not_depend_on_the_other_sides_sealed_order():
    attacking, holding = sealed_game("attack"), sealed_game("hold")
    seen_after_attack = odds(attacking.game, playouts=24, bot="random", seed=4)
    seen_after_hold = odds(holding.game, playouts=24, bot="random", seed=4)
    assert seen_after_attack.sides == seen_after_hold.sides
    assert seen_after_attack.start_seq < seen_after_attack.seq
    assert seen_after_attack.before_sealed_orders


def test_odds_work_for_any_ruleset_and_count_every_playout():
    found = odds(sealed_game("hold").game, playouts=30, bot="random", seed=2)
    assert found.playouts == 30 and found.unfinished == 0
    assert sum(side.wins for side in found.sides) + found.draws == 30
    for side in found.sides:
        assert side.interval == wilson_interval(side.wins, 30)
        assert side.interval[0] <= side.win_probability <= side.interval[1]
        assert side.expected_score <= 0  # minus the damage points taken


def test_playouts_are_seeded_one_by_one_and_never_touch_the_game():
    session = sealed_game("hold", turns=2)
    before = [env.event for env in session.events()]
    branches = set(session.game.branches)
    first = odds(session.game, playouts=12, bot="random", seed=9, chunk=5)
    again = odds(session.game, playouts=12, bot="random", seed=9, chunk=12)
    assert first.sides == again.sides and first.draws == again.draws
    assert [env.event for env in session.events()] == before and set(session.game.branches) == branches
    assert playout_seed(9, 0) != playout_seed(9, 1) and playout_seed(9, 0) != playout_seed(8, 0)


def test_the_counts_give_win_rates_intervals_and_mean_scores():
    results = [PlayoutResult(index=0, finished=True, winner="a", scores={"a": 30.0, "b": 10.0}, turns=5, events=9),
               PlayoutResult(index=1, finished=True, winner=None, scores={"a": 20.0, "b": 20.0}, turns=6, events=9),
               PlayoutResult(index=2, finished=False, winner=None, scores={"a": 0.0, "b": 5.0}, turns=12,
                             events=9),
               PlayoutResult(index=3, finished=True, winner="b", scores={"a": 10.0, "b": 25.0}, turns=7, events=9)]
    found = summarise(results, ("a", "b"), game_id="g", branch="main", seq=1, start_seq=1, turn=1, bot="x", seed=0)
    a, b = found.sides
    assert (a.wins, b.wins, found.draws, found.unfinished) == (1, 1, 1, 1)
    assert a.win_probability == 0.25 and a.interval == wilson_interval(1, 4)
    assert a.expected_score == 15.0 and b.expected_score == 15.0 and found.mean_turns == 7.5


def test_odds_refuse_what_cannot_be_played_on():
    session = sealed_game("hold")
    with pytest.raises(OddsError, match="no event"):
        odds(session.game, seq=session.seq + 5, playouts=2)
    with pytest.raises(OddsError, match="unknown bot"):
        odds(session.game, playouts=2, bot="oracle")
    with pytest.raises(OddsError, match="no branch"):
        odds(session.game, branch="what-if", playouts=2)
    finished = GameSession(ScoredSealedOrders(), SealedSetup(turns=1), dice=SeededDice(3))
    play(finished, {player: RandomBot(index) for index, player in enumerate(PLAYERS)})
    with pytest.raises(OddsError, match="over"):
        odds(finished.game, playouts=2)


def test_an_aeronautica_position_has_odds_in_victory_points_and_a_strip_over_its_turns():
    session = aeronautica_game()
    found = odds(session.game, playouts=4, seed=1)
    assert found.bot == "default" and found.score_name == "VP"
    assert {side.side for side in found.sides} == {"imperium", "orks"}
    assert found.playouts == 4 and found.unfinished == 0
    assert found.mean_turns >= found.turn
    strip = win_probability_strip(session.game, playouts=2, seed=1)
    assert [point.seq for point in strip] == sorted(point.seq for point in strip)
    assert strip and all(point.playouts == 2 for point in strip)
    assert all(sum(side.win_probability for side in point.sides) <= 1.0 for point in strip)
    # A point where each turn begins (no secret order sealed yet), then one at the branch's last event.
    starts = strip[:-1]
    assert [(point.seq, point.turn) for point in starts] == turn_starts(session.game)
    assert [point.turn for point in starts] == list(range(1, len(starts) + 1))
    assert strip[-1].seq == session.seq and not strip[-1].final  # the game is still under way
    envelopes = session.events()
    commands = [env.seq for env in envelopes if env.type in ("CommandIssued", "SecretCommandIssued")]
    for point in starts:
        assert session.state_at(point.seq).turn == point.turn
        if point.seq:
            # where the command in which the turn began ends: the next event starts the turn's first command
            assert point.seq + 1 in commands
            last_command = max(seq for seq in commands if seq <= point.seq)
            assert session.state_at(last_command - 1).turn == point.turn - 1


def test_aero_odds_prints_each_sides_chances_and_leaves_the_store_as_it_was(tmp_path, capsys):
    session = aeronautica_game(seed=5)
    db = tmp_path / "odds.duckdb"
    with EventStore(db) as store:
        store.save_session(session)
        head = store.head(session.game_id)
    code = main(["odds", session.game_id, "--db", str(db), "--playouts", "3", "--workers", "1", "--json"])
    out = capsys.readouterr().out
    assert code == 0
    data = json.loads(out)
    assert data["playouts"] == 3 and [side["side"] for side in data["sides"]] == ["imperium", "orks"]
    assert all(0.0 <= side["win_probability"] <= 1.0 for side in data["sides"])
    code = main(["odds", session.game_id, "--db", str(db), "--playouts", "2", "--workers", "1", "--at", "40"])
    out = capsys.readouterr().out
    assert code == 0 and "win probability" in out and "expected VP" in out and "after event 40" in out
    with EventStore(db) as store:
        assert store.head(session.game_id) == head and [g.id for g in store.games()] == [session.game_id]
    code = main(["odds", session.game_id, "--db", str(db), "--at", "999999"])
    assert code == 2 and "no event 999999" in capsys.readouterr().err


def test_the_strip_of_a_folded_timeline_is_the_strip_of_the_stored_branch():
    from aero_events.analysis.timeline import timeline_from_session
    from aero_events.odds import strip_of_timeline

    session = sealed_game("hold", turns=3)
    play(session, {player: RandomBot(index) for index, player in enumerate(PLAYERS)}, max_commands=3)
    from_game = win_probability_strip(session.game, playouts=6, bot="random", seed=3)
    from_timeline = strip_of_timeline(timeline_from_session(session), playouts=6, bot="random", seed=3)
    assert from_game == from_timeline and len(from_game) >= 2


def test_a_finished_games_strip_ends_on_its_result_with_no_uncertainty():
    finished = GameSession(ScoredSealedOrders(), SealedSetup(turns=2), dice=SeededDice(3))
    play(finished, {player: RandomBot(index) for index, player in enumerate(PLAYERS)})
    strip = win_probability_strip(finished.game, playouts=4, bot="random")
    last = strip[-1]
    outcome = finished.ruleset.outcome(finished.state)
    assert last.final and last.playouts == 0 and last.seq == finished.seq
    for entry in last.sides:
        won = 1.0 if entry.side == outcome.winner else 0.0
        assert entry.win_probability == won and entry.interval == (won, won)
    assert all(not point.final and point.playouts == 4 for point in strip[:-1])


def test_playouts_in_worker_processes_count_as_in_this_one():
    """Each worker gets the position's folded state (pickled once per chunk), never the events to refold, and
    playout i is seeded the same wherever it runs."""
    session = aeronautica_game(seed=6)
    here = odds(session.game, playouts=4, seed=7, workers=1)
    there = odds(session.game, playouts=4, seed=7, workers=2, chunk=2)
    assert here.sides == there.sides and here.draws == there.draws and here.mean_turns == there.mean_turns


def test_a_playout_plays_without_a_session(monkeypatch):
    """A playout uses the ruleset's pure functions alone (legal_commands, decide, evolve): no session, so no
    envelopes, recorded commands or checkpoints are built for games that are only counted."""
    session = sealed_game("hold")

    def no_session(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a playout built a session")

    monkeypatch.setattr(GameSession, "__init__", no_session)
    found = odds(session.game, playouts=5, bot="random", seed=1)
    assert found.playouts == 5 and found.unfinished == 0


def test_the_odds_package_imports_no_ruleset():
    """Issue 11's layering: odds reach a ruleset only through the core interface."""
    from pathlib import Path

    import aero_events.odds
    from tests.core.test_layering import imports_anywhere

    files = sorted(Path(aero_events.odds.__file__).parent.glob("*.py"))
    assert len(files) >= 3
    assert {path.name: sorted(name for name in imports_anywhere(path) if name.startswith("aero_events.rulesets"))
            for path in files} == {path.name: [] for path in files}


def test_a_position_inside_a_command_is_played_on_from_where_that_command_was_given():
    """Inside a command's events no player decides (its later events, dice included, are still to come): the
    playouts start where the command was given."""
    session = aeronautica_game(seed=5)
    envelopes = session.events()
    ends = command_ends(envelopes)
    inside = next(env.seq for env in envelopes[200:] if env.seq not in ends)
    found = odds(session.game, seq=inside, playouts=2, seed=1)
    assert found.seq == inside and found.start_seq < inside and found.start_seq in ends
    assert envelopes[found.start_seq].type in ("CommandIssued", "SecretCommandIssued")  # the next event
    assert command_end_before(ends, inside) >= found.start_seq
    assert found.before_sealed_orders is (found.start_seq < command_end_before(ends, inside))


def test_aero_odds_says_why_it_plays_on_from_an_earlier_event(capsys):
    """Inside a command: from where the command was given; after a sealed order: from before the turn's first
    (a ruleset with no sealed order, Battlefleet Gothic, is told only the first)."""
    from aero_events.cli.odds_commands import print_odds

    session = aeronautica_game(seed=5)
    ends = command_ends(session.events())
    inside = next(env.seq for env in session.events()[200:] if env.seq not in ends
                  and command_end_before(ends, env.seq) == start_point(session.events(), command_end_before(
                      ends, env.seq), env.turn))
    print_odds(odds(session.game, seq=inside, playouts=2, seed=1))
    told = " ".join(capsys.readouterr().out.split())  # as printed, less the terminal's line breaks
    assert f"where a player decides: event {inside} is part way through a command" in told
    assert "sealed order" not in told
    sealed = sealed_game("attack")
    print_odds(odds(sealed.game, playouts=2, bot="random", seed=4))
    told = " ".join(capsys.readouterr().out.split())
    assert "before the turn's first sealed order: each playout gives the turn's secret orders afresh" in told


def test_a_line_without_recorded_commands_takes_every_event_as_a_position():
    assert command_ends([]) is None
    assert command_end_before(None, 7) == 7 and command_end_after(None, 7) == 7
    assert command_end_before([0, 4, 9], 7) == 4 and command_end_after([0, 4, 9], 7) == 9
    assert command_end_after([0, 4, 9], 9) == 9 and command_end_before([0, 4, 9], 0) == 0
