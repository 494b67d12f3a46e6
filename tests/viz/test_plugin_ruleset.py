"""viz and analysis know no ruleset: ``aero replay`` and ``aero report`` draw a game of Pawns, a ruleset that
exists only under tests/ (an open rectangular table, pieces with round bases, a D8, commands recorded)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import tests.support.plugin_ruleset as pawns_rules
from aero_events.analysis.timeline import timeline_from_session
from aero_events.bots import RandomBot, play
from aero_events.cli import main
from aero_events.core import GameSession, SeededDice
from aero_events.rulesets import get_ruleset
from aero_events.store import EventStore
from aero_events.viz import board_figure, replay_figure, replay_steps


def pawns_session(seed: int = 4) -> GameSession:
    rules = get_ruleset("pawns")
    session = GameSession(rules, rules.scenarios()["meeting"].build({}, seed), dice=SeededDice(seed),
                          game_id=f"pawns-{seed}")
    play(session, {"red": rules.bots()["centre"].make(rules, seed), "blue": RandomBot(seed + 1)})
    return session


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    path = tmp_path_factory.mktemp("pawns") / "aero.duckdb"
    session = pawns_session()
    EventStore(path).save_session(session)
    return path, session


def _figure_of(page: str) -> dict:
    """The first Plotly figure of an HTML page (its data and layout, as Plotly.newPlot receives them)."""
    start = page.index("Plotly.newPlot(")
    body = page[start:]
    data = body[body.index("[{"):]
    return json.loads(data[:_balanced(data)])


def _balanced(text: str) -> int:
    depth, quoted, escaped = 0, False, False
    for index, char in enumerate(text):
        if quoted:
            escaped, quoted = (not escaped and char == "\\"), quoted and (escaped or char != '"')
            continue
        if char == '"':
            quoted = True
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
            if depth == 0:
                return index + 1
    raise ValueError("unbalanced")


def test_aero_replay_draws_a_pawns_game(stored, tmp_path, capsys):
    db, session = stored
    out = tmp_path / "replay.html"
    assert main(["replay", session.game_id, "--db", str(db), "--out", str(out)]) == 0
    assert Path(capsys.readouterr().out.strip()) == out.resolve()
    page = out.read_text(encoding="utf-8")
    assert page.count("plotly.js v") == 1 and '<script src="http' not in page
    traces = {trace["name"]: trace for trace in _figure_of(page) if not trace.get("showlegend") or "ids" in trace
              or trace["name"] not in pawns_rules.SIDES}
    shown = [piece for side in pawns_rules.SIDES for piece in traces[side]["ids"]]
    assert sorted(shown) == sorted(p.id for p in session.state.pawns)
    assert "pawns table" in traces and "objective" in traces and "bases (red)" in traces
    assert list(traces["hexes"]["x"]) == []  # an open table: no hexes
    for pawn in session.branch.state_at(0).pawns:
        assert pawn.id in page
    assert re.search(r"red moves red-\d [NESW]{1,2}", page)  # frames titled by the commands, in words


def test_aero_report_reports_a_pawns_game(stored, tmp_path, capsys):
    db, session = stored
    out = tmp_path / "report.html"
    assert main(["report", session.game_id, "--db", str(db), "--out", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    headings = re.findall(r"<h2>([^<]+)</h2>", page)
    assert headings == ["Replay", "Chances of winning", "Per side", "Dice"]  # no levels, hexes or sections of its own
    outcome = session.ruleset.outcome(session.state)
    assert outcome.reason in page and f"{outcome.winner} wins" in page
    for side in pawns_rules.SIDES:
        assert f"<td>{side}</td>" in page
    assert re.search(r"<td>D8</td>(<td[^>]*>[^<]*</td>){3}<td class=\"num\">4.50?</td>", page)  # a D8's fair mean


def test_a_replay_of_pawns_has_a_frame_per_command_that_moved_a_pawn():
    session = pawns_session()
    timeline = timeline_from_session(session)
    steps = replay_steps(timeline)
    moves = [env for env in session.events() if env.event.type_name() == "pawns.PawnMoved"]
    assert len(steps) == 1 + len(moves)  # the start, then one frame per move (orders change nothing drawn)
    assert steps[-1].kind == "game_over"
    figure = replay_figure(timeline, steps=steps)
    for frame, step in zip(figure.frames, steps, strict=True):
        red = next(t for t in frame.data if t.name == "red" and not t.showlegend)
        pawns = sorted((p for p in step.state.pawns if p.side == "red"), key=lambda p: p.id)
        assert [(x, y) for x, y in zip(red.x, red.y, strict=True)] == [(float(p.x), float(p.y)) for p in pawns]


def test_the_board_of_a_pawns_scene_uses_the_sides_own_colours():
    session = pawns_session()
    figure = board_figure(session.state, session.ruleset)
    colours = {t.name: t.marker.color for t in figure.data if t.name in pawns_rules.SIDES and not t.showlegend}
    assert colours == {"red": "#d62728", "blue": "#1f77b4"}
