"""``aero replay --player P`` and ``aero report --player P`` draw the game as P may see it (DESIGN.md, contract
7; issue 18 item 3): no other side's unrevealed choice is anywhere in the written HTML, not merely hidden. The
game stops with imperium's Manoeuvre token placed face down (p.13: "placed face down") and not yet revealed."""

from __future__ import annotations

import functools

import pytest

from aero_events.bots import play
from aero_events.cli import main
from aero_events.core import GameSession, SeededDice
from aero_events.core.secrets import SecretEvent
from aero_events.rulesets import get_ruleset
from aero_events.rulesets.aeronautica.bots import BaselineBot
from aero_events.store import EventStore


@functools.cache
def sealed_session() -> GameSession:
    """A Dogfight played by the baseline bots until, in turn 2 or later, imperium has just placed a token."""
    rules = get_ruleset("aeronautica/wov-2019")
    scenario = rules.scenarios()["dogfight"]
    session = GameSession(rules, scenario.build(scenario.default_options, 4), dice=SeededDice(4), game_id="sealed")
    bots = {"imperium": BaselineBot(4), "orks": BaselineBot(5)}
    while True:
        play(session, bots, max_commands=1)
        last = session.events()[-1].event
        if session.state.turn >= 2 and type(last).__name__ == "ManoeuvreChosen" and last.owner == "imperium":
            return session


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    """The sealed game, and a branch ``alt`` forked before its last turn's orders and played on a little."""
    path = tmp_path_factory.mktemp("viewer") / "aero.duckdb"
    session = sealed_session()
    if "alt" not in session.game.branches:
        turn = session.state.turn
        fork_at = next(env.seq for env in session.events() if env.turn == turn
                       and env.type == "SecretCommandIssued") - 1  # between two commands
        alt = session.fork(fork_at, "alt")
        play(alt, {"imperium": BaselineBot(14), "orks": BaselineBot(15)}, max_commands=3)
    with EventStore(path) as store:
        store.save_session(session)
        for branch in ("alt",):
            store.save_session(session.switch(branch))
    return path


def imperium_secrets() -> tuple[list[str], str]:
    """The salts of every sealed imperium event, and the words telling the token still face down."""
    events = [env.event for env in sealed_session().events()]
    salts = [event.salt for event in events if isinstance(event, SecretEvent) and event.owner == "imperium"]
    token = events[-1]
    return salts, f"{token.aircraft}: Manoeuvre token {token.manoeuvre} face down"


def page(stored, tmp_path, command: str, player: str, playouts: str = "0") -> str:
    out = tmp_path / f"{command}-{player}.html"
    assert main([command, "sealed", "--db", str(stored), "--player", player, "--out", str(out),
                 "--odds-playouts", playouts]) == 0
    return out.read_text(encoding="utf-8")


@pytest.mark.parametrize("command", ["replay", "report"])
def test_the_other_sides_face_down_token_and_salts_are_not_in_the_page(stored, tmp_path, command):
    salts, token = imperium_secrets()
    assert salts
    text = page(stored, tmp_path, command, "orks", playouts="1" if command == "report" else "0")
    assert "as orks sees it" in text
    assert token not in text
    assert [salt for salt in salts if salt in text] == []


def test_a_player_reads_their_own_face_down_token(stored, tmp_path):
    _, token = imperium_secrets()
    assert token in page(stored, tmp_path, "replay", "imperium")


def test_a_player_the_game_does_not_have_is_refused(stored, tmp_path, capsys):
    for command in ("replay", "report"):
        out = tmp_path / f"{command}.html"
        assert main([command, "sealed", "--db", str(stored), "--player", "nobody", "--out", str(out)]) == 2
        assert "has no player 'nobody'" in capsys.readouterr().err and not out.exists()


@pytest.mark.parametrize("command", ["replay", "report"])
def test_a_spectators_page_holds_no_salt_of_either_side(stored, tmp_path, command):
    out = tmp_path / f"{command}-spectator.html"
    assert main([command, "sealed", "--db", str(stored), "--out", str(out), "--odds-playouts", "0"]) == 0
    text = out.read_text(encoding="utf-8")
    salts = [env.event.salt for env in sealed_session().events() if isinstance(env.event, SecretEvent)]
    assert {env.event.owner for env in sealed_session().events() if isinstance(env.event, SecretEvent)} == {
        "imperium", "orks"}
    assert [salt for salt in salts if salt in text] == []
    assert imperium_secrets()[1] not in text


def test_a_comparison_of_branches_drawn_for_a_player_holds_no_secret_of_the_other_side(stored, tmp_path):
    salts, token = imperium_secrets()
    alt = sealed_session().switch("alt").events()
    salts += [env.event.salt for env in alt if isinstance(env.event, SecretEvent) and env.event.owner == "imperium"]
    assert len(set(salts)) > len(imperium_secrets()[0])  # the branch sealed imperium choices of its own
    out = tmp_path / "compare-orks.html"
    assert main(["replay", "sealed", "--db", str(stored), "--compare", "alt", "--player", "orks",
                 "--out", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert "as orks sees it" in text and "branch alt" in text
    assert token not in text and [salt for salt in salts if salt in text] == []
