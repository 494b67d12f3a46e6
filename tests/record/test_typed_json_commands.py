"""``aero record`` for a ruleset whose commands are written as their JSON (no notation of its own): a command
typed as the JSON the list shows, but not in the list, is decided by the rules, as a record's quoted step is. A
command the rules refuse says the rule (it said "nothing matches"), and one they allow is recorded."""

from __future__ import annotations

import io
import json

import pytest

from aero_events.cli import main
from aero_events.store import EventStore


def _record(monkeypatch, capsys, db, answers: list[str]) -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{answer}\n" for answer in [*answers, "quit"])))
    assert main(["record", "--ruleset", "whfb-flying", "--digital-dice", "--seed", "3", "--db", str(db)]) == 0
    return capsys.readouterr().out


def _vanguard(**changes) -> str:
    command = {"command": "whfb.VanguardMove", "player": "north", "unit": "n-pegasi", "heading": 100,
               "distance": 2000, "take_off": False}
    return json.dumps({**command, **changes})


@pytest.mark.parametrize(("answer", "said"), [
    (_vanguard(distance=99999), 'refused: Special Rules: a Vanguard move is a normal move of up to 8"'),
    (json.dumps({"command": "whfb.Move", "player": "north", "unit": "n-spears", "heading": 0, "distance": 5,
                 "march": True}), "refused: Host: Movement: units move in their own side's Movement phase"),
    (_vanguard(distance="far"), ("not a command of this game: the recorded command 'whfb.VanguardMove' does not "
                                 "decode: Expected `int`, got `str` - at `$.distance`")),
    (_vanguard(player="south"), "that is south's command; north is to choose"),
])
def test_a_typed_json_command_that_cannot_be_played_says_why_and_records_nothing(tmp_path, monkeypatch, capsys,
                                                                                  answer, said):
    db = tmp_path / "table.duckdb"
    out = _record(monkeypatch, capsys, db, [answer])
    assert said in out and "recorded:" not in out
    (game,) = EventStore(db).games()
    assert game.events == 0


def test_a_typed_json_command_the_rules_allow_is_recorded_though_the_list_does_not_offer_it(tmp_path, monkeypatch,
                                                                                            capsys):
    """The list offers a few headings of a measured table; any other the rules allow is the player's to give."""
    db = tmp_path / "table.duckdb"
    out = _record(monkeypatch, capsys, db, [_vanguard()])
    assert "recorded: n-pegasi vanguard 0.7874in towards 1" in out  # written back in the notation
    store = EventStore(db)
    (game,) = store.games()
    assert game.events == 2 and store.verify(game.id).ok
