"""A game record's written salts (``M4~salt``, a JSON step's ``~salt``): each is a salt as the engine makes them,
and each seals a secret of its step. An empty ``~`` sealed a secret with an empty salt (anyone could open it by
trying every choice), and a salt written after a step that seals nothing was dropped without a word."""

from __future__ import annotations

import pytest

from aero_events.bots import RandomBot, make_bot, play
from aero_events.core.registry import get_ruleset
from aero_events.demo import demo_session
from aero_events.record.errors import RecordError
from aero_events.record.record_format import read_record, write_record
from aero_events.rulesets.aeronautica.bots import GreedyBot

SALT = "0123456789abcdef0123456789abcdef"


@pytest.fixture(scope="module")
def record() -> str:
    session = demo_session(5)
    play(session, {"imperium": GreedyBot("a"), "orks": RandomBot("b")})
    return write_record(session.game)


def _line_and_column(text: str, needle: str) -> tuple[int, int]:
    before = text[: text.index(needle)]
    return before.count("\n") + 1, len(before) - before.rfind("\n")


@pytest.fixture(scope="module")
def planned_cards() -> str:
    """A Wings of Glory game (cards planned face down: secret commands), whose record writes its steps in the
    default notation, each step's salts following it as words (``"spitfire-1 plans 1" ~salt``)."""
    rules = get_ruleset("wings-of-glory")
    session = demo_session(5, ruleset=rules)
    players = rules.players(session.state)
    play(session, {player: make_bot(rules, "random", f"5:{player}") for player in players})
    return write_record(session.game)


@pytest.mark.parametrize("salt", ["", "zz", SALT + "0"])
def test_a_secret_order_with_a_salt_that_is_not_one_is_refused_at_its_step(planned_cards, salt):
    step = '"spitfire-1 plans '
    end = planned_cards.index('"', planned_cards.index(step) + len(step)) + 1
    changed = planned_cards[:end] + f" ~{salt}" + planned_cards[end:]
    with pytest.raises(RecordError) as refused:
        read_record(changed)
    assert f"~{salt}: a salt is 32 hex digits" in str(refused.value)
    assert (refused.value.line, refused.value.column) == _line_and_column(changed, step)


@pytest.mark.parametrize("salt", ["zz", SALT.upper(), SALT + "0"])
def test_a_secret_step_with_a_salt_that_is_not_one_is_refused_at_its_step(record, salt):
    step = "imperium-1 M"
    at = record.index(step)
    end = record.index(" ", at + len(step))
    changed = record[:end] + f"~{salt}" + record[end:]
    with pytest.raises(RecordError) as refused:
        read_record(changed)
    assert f"~{salt}: a salt is 32 hex digits" in str(refused.value)
    line, column = _line_and_column(changed, step)
    assert (refused.value.line, refused.value.column) == (line, column + len("imperium-1 "))  # at the M token


def test_a_salt_written_after_a_step_that_seals_nothing_is_refused():
    """Warhammer's flying rules have no secrets: no step of theirs takes a salt."""
    rules = get_ruleset("whfb-flying")
    session = demo_session(5, ruleset=rules)
    players = rules.players(session.state)
    play(session, {player: make_bot(rules, "random", f"5:{player}") for player in players})
    record = write_record(session.game)
    end = record.index('"', record.index(' "', record.index("\n\n")) + 2) + 1  # the first step's end: its quoted text
    changed = record[:end] + f" ~{SALT}" + record[end:]
    with pytest.raises(RecordError) as refused:
        read_record(changed)
    assert f"this step sealed fewer secrets than the salts written after it: ~{SALT} is left over" in \
        str(refused.value)


def test_a_written_salt_seals_the_secret_it_follows(record):
    step = "imperium-1 M"
    at = record.index(step)
    end = record.index(" ", at + len(step))
    game = read_record(record[:end] + f"~{SALT}" + record[end:]).game
    assert SALT in {getattr(env.event, "salt", None) for env in game.main.envelopes()}
