"""Commands built with the wrong Python types (issue 16, item 8).

A command built in Python with a field of the wrong type (``turn="3"``, a list where the type says a tuple,
a str for an int, None for a required value) is refused with a RuleError naming the command and the field,
never a TypeError or AttributeError traceback, and nothing is appended. Checked for every shipped ruleset:
each kind of command a short bot game issues, each of its fields given each wrong type.
"""

from __future__ import annotations

from importlib.metadata import entry_points
from typing import Any

import msgspec
import pytest

from aero_events.bots import make_bot
from aero_events.core import Command, GameSession, RuleError, SeededDice
from aero_events.core.registry import get_ruleset
from aero_events.core.typed_commands import checked_encoding
from aero_events.demo import demo_session
from tests.support.bidding import Bid, BiddingRules, BidSetup

#: Every shipped ruleset: those the package declares as entry points (not the test-only ones).
SHIPPED = sorted(point.name for point in entry_points(group="aero_events.rulesets") if "/" in point.name)
#: Commands a bot game issues before the test stops collecting new kinds of command.
COMMANDS_PLAYED = 300


def _is_wrong(kind: type[Command], field: str, value: Any) -> bool:
    """Whether ``value`` is not of the field's declared type (what the engine must refuse)."""
    annotation = msgspec.structs.fields(kind)
    declared = next(item.type for item in annotation if item.name == field)
    try:
        msgspec.convert(value, declared, strict=True)
    except msgspec.ValidationError:
        return True
    return False


def wrong_values(kind: type[Command], field: str, value: Any) -> list[tuple[str, Any]]:
    """The wrongly typed values tried for a field holding ``value``."""
    candidates: list[tuple[str, Any]] = [("None", None), ("an object", object())]
    if isinstance(value, bool):
        candidates += [("a str", "yes"), ("an int", 2)]
    elif isinstance(value, int):
        candidates += [("a str", str(value)), ("a float", value + 0.5), ("a list", [value])]
    elif isinstance(value, str):
        candidates += [("an int", 3), ("a list", [value])]
    elif isinstance(value, tuple):
        candidates += [("a list", list(value)), ("a str", "abc"), ("an int", 7),
                       ("a list of str", [str(item) + "x" for item in value] or ["x"])]
    else:
        candidates += [("a str", "abc"), ("an int", 7)]
    # a list where the type says a tuple converts (msgspec) but is not the declared type: refused too
    return [(name, bad) for name, bad in candidates
            if name == "an object" or (name == "a list" and isinstance(value, tuple)) or _is_wrong(kind, field, bad)]


def commands_of_a_game(name: str) -> list[tuple[GameSession, Command]]:
    """One legal command of each kind a bot game of ``name`` issues, each with a session just before it."""
    rules = get_ruleset(name)
    session = demo_session(5, ruleset=rules)
    players = list(rules.players(session.state))
    bots = {player: make_bot(rules, "random", f"1:{player}") for player in players}
    found: list[tuple[GameSession, Command]] = []
    seen: set[type] = set()
    for _ in range(COMMANDS_PLAYED):
        if session.is_over():
            break
        player = next(player for player in players if session.legal_commands(player))
        command = bots[player].choose(session, player, session.legal_commands(player))
        if type(command) not in seen:
            seen.add(type(command))
            found.append((session.fork(session.seq), command))
        session.apply(command)
    return found


@pytest.mark.parametrize("name", SHIPPED)
def test_a_wrongly_typed_field_is_a_rule_error_naming_command_and_field(name):
    """Issue 16 item 8: every field of every kind of command, given a value of the wrong type."""
    tried = 0
    for session, command in commands_of_a_game(name):
        kind = type(command)
        tag = kind.__struct_config__.tag
        for field in kind.__struct_fields__:
            for what, bad in wrong_values(kind, field, getattr(command, field)):
                broken = msgspec.structs.replace(command, **{field: bad})
                seq, state_hash = session.seq, session.state_hash()
                with pytest.raises(RuleError) as refused:
                    session.apply(broken)
                message = str(refused.value)
                assert tag in message and field in message, (tag, field, what, message)
                assert (session.seq, session.state_hash()) == (seq, state_hash), (tag, field, what)
                tried += 1
        session.apply(command)  # the well-typed command still applies on the same session
    assert tried >= 20


def test_a_list_for_a_tuple_of_ints_is_refused():
    """Issue 16 item 8: a list where the command's type says a tuple is refused, naming the field."""
    rules = get_ruleset("aeronautica/wov-2019")
    for session, command in commands_of_a_game(rules.name):
        if type(command).__name__ == "PlaceAircraft":
            with pytest.raises(RuleError, match="PlaceAircraft.*'hex'"):
                session.apply(msgspec.structs.replace(command, hex=list(command.hex)))
            return
    pytest.fail("the demo game placed no aircraft")


def test_a_str_for_an_int_in_a_secret_bid_is_refused_before_it_is_sealed():
    """A mistyped secret command (a bid of "3") is refused before its sealed record is appended."""
    session = GameSession(BiddingRules(), BidSetup(), dice=SeededDice(3), game_id="typed-1")
    with pytest.raises(RuleError, match=r"Bid, field 'amount'"):
        session.apply(Bid(player="alice", amount="3"))  # type: ignore[arg-type]
    assert session.seq == 0
    session.apply(Bid(player="alice", amount=3))
    assert session.seq > 0


def test_none_for_the_player_is_refused_naming_the_field():
    session = GameSession(BiddingRules(), BidSetup(), dice=SeededDice(3), game_id="typed-2")
    with pytest.raises(RuleError, match=r"'player'"):
        session.apply(Bid(player=None, amount=2))  # type: ignore[arg-type]
    assert session.seq == 0


def test_something_that_is_not_a_command_is_refused():
    session = GameSession(BiddingRules(), BidSetup(), dice=SeededDice(3), game_id="typed-3")
    with pytest.raises(RuleError, match="not a command"):
        session.apply({"command": "Bid", "player": "alice", "amount": 2})  # type: ignore[arg-type]
    assert session.seq == 0


class _BrokenRules(BiddingRules):
    """A ruleset with a bug: its decide raises a TypeError for a well-typed command."""

    def decide(self, state, command, dice):
        raise TypeError("a bug in the ruleset")


def test_a_well_typed_command_lets_a_real_bug_through():
    """The check turns only mistyped commands into RuleErrors: a ruleset's own TypeError is re-raised."""
    session = GameSession(_BrokenRules(), BidSetup(), dice=SeededDice(3), game_id="typed-4")
    with pytest.raises(TypeError, match="a bug in the ruleset"):
        session.apply(Bid(player="alice", amount=2))
    assert session.seq == 0


def test_the_recorded_encoding_of_a_well_typed_command_is_its_json_round_trip():
    command = Bid(player="alice", amount=2)
    assert checked_encoding(command) == msgspec.json.decode(msgspec.json.encode(command))
