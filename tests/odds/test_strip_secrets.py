"""Secrets stay secret on a page's win-probability strip: a point whose playouts would start from a state that
holds what the page's viewer may not see is left out (``Ruleset.hides_from``), since the odds drawn would tell
it. Wings of Glory plans each card a turn ahead and draws damage tokens in secret (PLANNING, DAMAGE), so at every
turn's start its state hides the other side's next card; Aeronautica's tokens are placed after a turn starts
(p.13), so its turn starts hide nothing."""

from __future__ import annotations

import pytest

from aero_events.analysis.report import GameReport
from aero_events.analysis.timeline import timeline_from_session
from aero_events.bots import make_bot, play
from aero_events.demo import demo_plan, demo_session
from aero_events.odds import ORGANISER, left_out_note, strip_of_timeline, turn_starts
from aero_events.rulesets import get_ruleset


def _demo_timeline(name: str, max_commands: int = 400):
    rules = get_ruleset(name)
    session = demo_session(ruleset=rules)
    bots = demo_plan(rules)[2]
    play(session, {player: make_bot(rules, bot, f"22:{player}")
                   for player, bot in zip(rules.players(session.state), bots, strict=True)},
         max_commands=max_commands)
    return session, timeline_from_session(session)


@pytest.fixture(scope="module")
def wings_of_glory():
    return _demo_timeline("wings-of-glory/bob-2017", max_commands=120)


@pytest.fixture(scope="module")
def aeronautica():
    return _demo_timeline("aeronautica/wov-2019", max_commands=150)


@pytest.mark.parametrize("viewer", ["RAF", "Luftwaffe", None])
def test_a_wings_of_glory_page_gets_no_point_played_on_from_the_other_sides_face_down_card(wings_of_glory, viewer):
    session, timeline = wings_of_glory
    rules = session.ruleset
    starts = [seq for seq, _ in turn_starts(session.game)]
    assert all(rules.hides_from(session.state_at(seq), viewer) for seq in starts)
    strip = strip_of_timeline(timeline, playouts=1, seed=3, viewer=viewer)
    assert [point for point in strip if not point.final] == []
    assert set(starts) <= set(strip.left_out)
    note = left_out_note(strip, viewer, rules)
    assert note.startswith(f"The win-probability strip leaves out {len(strip.left_out)} points: ")
    assert ("a spectator" if viewer is None else viewer) in note


def test_the_organisers_strip_of_the_same_game_plays_every_turn_start(wings_of_glory):
    session, timeline = wings_of_glory
    strip = strip_of_timeline(timeline, playouts=1, seed=3)  # the store's holder sees everything
    assert strip.left_out == ()
    assert [point.seq for point in strip if not point.final][: len(turn_starts(session.game))] == \
        [seq for seq, _ in turn_starts(session.game)]
    assert left_out_note(strip, ORGANISER, session.ruleset) is None


@pytest.mark.parametrize("viewer", ["imperium", "orks", None])
def test_an_aeronautica_page_keeps_every_point_since_no_token_is_down_when_a_turn_starts(aeronautica, viewer):
    _, timeline = aeronautica
    everything = strip_of_timeline(timeline, playouts=2, seed=5)
    seen = strip_of_timeline(timeline, playouts=2, seed=5, viewer=viewer)
    assert seen.left_out == () and list(seen) == list(everything) and len(seen) >= 2


def test_aeronautica_hides_a_face_down_token_from_the_other_side_until_it_is_revealed(aeronautica):
    """``hides_from`` says what ``player_view`` drops that holds a value: another player's placed, unrevealed
    Manoeuvre token (p.13), checked against the view itself over every state of the game."""
    session, _ = aeronautica
    rules = session.ruleset
    seen_hidden = {True: 0, False: 0}
    for seq in range(session.seq + 1):
        state = session.state_at(seq)
        for viewer in ("imperium", "orks", None):
            view = rules.view(state, viewer)
            dropped = any(state.aircraft[aircraft_id].manoeuvre is not None
                          for aircraft_id, shown in view["aircraft"].items() if "manoeuvre" not in shown)
            assert rules.hides_from(state, viewer) is dropped
            seen_hidden[dropped] += 1
    assert seen_hidden[True] and seen_hidden[False]


def test_the_report_drawn_for_a_player_says_why_it_has_no_strip(wings_of_glory):
    _, timeline = wings_of_glory
    report = GameReport.of(timeline, viewer="RAF", odds_playouts=1)
    assert report.strip_note is not None and "what RAF may not see" in report.strip_note
    chances = [section for section in report.sections(replay=False) if section.title == "Chances of winning"]
    assert len(chances) == 1 and chances[0].figure is None
    assert "leaves out" in chances[0].html and "games played on" not in chances[0].html
