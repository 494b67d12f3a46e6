"""The session's per-command bookkeeping made cheap (issue 18 item 2), with the contracts it keeps.

* A refused command leaves the dice stream and both salt streams exactly where they were (DESIGN.md contract 4):
  the sources say where they stand with ``mark()``/``restore()`` instead of having their attributes copied
  three times a command; a source that does not define both in its own class is still copied whole.
* Seeded dice read their bytes from the block in hand: the faces are those of the documented algorithm.
* A command's record is checked by decoding its JSON straight into its type: a mistyped field is still a
  RuleError naming the command and the field (issue 16 item 8), and the record is the JSON data.
* The command's record is stamped with the clock before it and never handed to ``evolve``.
"""

import hashlib

import msgspec
import pytest

from aero_events.core import (
    CommandIssued,
    GameSession,
    ManualDice,
    RuleError,
    SaltSource,
    SecretCommandIssued,
    SeededDice,
    TapeDice,
)
from aero_events.core.dice import mark_position, restore_position
from aero_events.core.secrets import REPRODUCIBLE_SALTS
from aero_events.core.typed_commands import checked_encoding
from tests.support.bidding import Bid, BiddingRules, BidRevealed, BidSetup, Reveal


class RollsSealsThenRefuses(BiddingRules):
    """Rolls three dice and takes a ruleset salt, then finds the command illegal."""

    def decide(self, state, command, dice):
        dice.roll(3, purpose="doomed")
        dice.salts.next()
        raise RuleError("refused after rolling", rule="Test")


def documented_faces(seed, count, sides=6):
    """Faces of a D``sides`` (2..256) by the SeededDice docstring: SHA-256 blocks, one byte a face, rejection."""
    faces, block = [], 0
    limit = 256 - 256 % sides
    while len(faces) < count:
        for byte in hashlib.sha256(str(seed).encode() + block.to_bytes(8, "big")).digest():
            if byte < limit and len(faces) < count:
                faces.append(byte % sides + 1)
        block += 1
    return faces


# ---------------------------------------------------------------- a refused command gives everything back


def test_a_refused_command_leaves_dice_ruleset_salts_and_command_salts_where_they_were():
    """Contract 4: after the refusal the next dice and salts are those a session that never saw it draws."""
    session = GameSession(RollsSealsThenRefuses(), BidSetup(), dice=SeededDice(4), game_id="g",
                          metadata={REPRODUCIBLE_SALTS: True})
    fresh = GameSession(BiddingRules(), BidSetup(), dice=SeededDice(4), game_id="g",
                        metadata={REPRODUCIBLE_SALTS: True})
    session.dice.draw(5, 6), fresh.dice.draw(5, 6)  # somewhere inside the first block
    session.command_salts.next(), fresh.command_salts.next()
    with pytest.raises(RuleError):
        session.apply(Bid(player="alice", amount=1))
    assert session.seq == 0
    assert session.dice.draw(40, 6) == fresh.dice.draw(40, 6)  # across the end of the block in hand
    assert session.salts.next() == fresh.salts.next()
    assert session.command_salts.next() == fresh.command_salts.next()


def test_a_refused_command_gives_manual_dice_their_entered_faces_back():
    dice = ManualDice()
    dice.enter([6, 5, 4, 3])
    session = GameSession(RollsSealsThenRefuses(), BidSetup(), dice=dice, game_id="g")
    with pytest.raises(RuleError):
        session.apply(Bid(player="alice", amount=1))
    assert dice.remaining == 4 and dice.draw(4, 6) == [6, 5, 4, 3]


def test_a_refused_command_rewinds_a_tape_and_the_source_it_fell_back_on():
    """A tape that ran out during the refused command: its position, its counts of extra faces and its
    fallback's stream all go back (the fallback was not rewound before issue 18)."""
    tape = TapeDice([2], fallback=SeededDice("extra"))
    session = GameSession(RollsSealsThenRefuses(), BidSetup(), dice=tape, game_id="g")
    with pytest.raises(RuleError):
        session.apply(Bid(player="alice", amount=1))
    assert (tape.remaining, tape.extra_faces, tape.extra_rolls) == (1, 0, 0)
    assert tape.draw(3, 6) == [2, *SeededDice("extra").draw(2, 6)]


def test_a_source_subclass_with_more_state_than_its_parent_knows_of_is_copied_whole():
    """A subclass that does not define ``mark``/``restore`` itself keeps every attribute, lists copied: here
    the explicit salts it pops and the counter of its seeded parent."""

    class ExplicitSalts(SaltSource):
        def __init__(self, seed):
            super().__init__(seed)
            self.explicit = ["first", "second"]

        def next(self):
            derived = super().next()
            return self.explicit.pop(0) if self.explicit else derived

    salts = ExplicitSalts("s")
    mark = mark_position(salts)
    assert [salts.next(), salts.next(), salts.next()][:2] == ["first", "second"] and salts.explicit == []
    restore_position(salts, mark)
    assert salts.explicit == ["first", "second"]
    plain = SaltSource("s")
    expected = [plain.next(), plain.next(), plain.next()][2]
    assert [salts.next(), salts.next(), salts.next()] == ["first", "second", expected]


def test_the_core_sources_say_where_they_stand_without_being_copied():
    """SeededDice, TapeDice, ManualDice and SaltSource mark and restore themselves (issue 18 item 2)."""
    dice, salts = SeededDice(9), SaltSource(9)
    dice_mark, salt_mark = mark_position(dice), mark_position(salts)
    assert dice_mark == dice.mark() and salt_mark == salts.mark() == 0
    first_faces, first_salt = dice.draw(50, 6), salts.next()
    restore_position(dice, dice_mark)
    restore_position(salts, salt_mark)
    assert dice.draw(50, 6) == first_faces and salts.next() == first_salt


# ---------------------------------------------------------------- seeded dice


@pytest.mark.parametrize("sides", [2, 3, 6, 10, 20, 100, 255, 256])
def test_seeded_dice_give_the_documented_stream_for_one_byte_dice(sides):
    """The SeededDice algorithm (its docstring): drawn in uneven handfuls, across several blocks."""
    dice = SeededDice("doc")
    drawn = []
    for count in (1, 7, 0, 31, 2, 64, 5):
        drawn.extend(dice.draw(count, sides))
    assert drawn == documented_faces("doc", 110, sides)


def test_one_byte_and_wider_dice_share_one_stream():
    """A D6 after a D1000 reads on from where the D1000's two bytes ended."""
    mixed, plain = SeededDice("mix"), SeededDice("mix")
    mixed.draw(3, 6)
    mixed.draw(1, 1000)
    plain.draw(3, 6)
    plain.draw(1, 1000)
    assert mixed.position() == plain.position()
    assert mixed.draw(100, 6) == plain.draw(100, 6)


# ---------------------------------------------------------------- the command's record


def test_a_recorded_command_is_its_json_data():
    assert checked_encoding(Bid(player="alice", amount=2)) == {"command": "Bid", "player": "alice", "amount": 2}
    assert checked_encoding(Bid(player="alice", amount=2)) == msgspec.json.decode(
        msgspec.json.encode(Bid(player="alice", amount=2)))


@pytest.mark.parametrize("amount", ["2", 2.0, True, [2]])
def test_a_mistyped_field_is_refused_by_name_and_nothing_is_recorded(amount):
    """Issue 16 item 8: Bid.amount is an int; a str, a float, a bool or a list is a RuleError naming the command
    and the field, and the session records nothing."""
    session = GameSession(BiddingRules(), BidSetup(), dice=SeededDice(1), game_id="g")
    with pytest.raises(RuleError, match=r"command Bid, field 'amount'"):
        session.apply(Bid(player="alice", amount=amount))
    assert session.seq == 0


def test_a_record_is_stamped_with_the_clock_before_the_command_and_never_folded():
    """The record of a command changes no state: it is stamped with the turn and phase before the command,
    the state after it is the state before it, and ``evolve`` sees only the events the command caused."""
    folded = []

    class Watching(BiddingRules):
        def evolve(self, state, event):
            folded.append(event)
            return super().evolve(state, event)

    session = GameSession(Watching(), BidSetup(), dice=SeededDice(1), game_id="g")
    session.apply(Bid(player="alice", amount=2))
    session.apply(Bid(player="bob", amount=1))
    salt = next(env.event.salt for env in session.events() if getattr(env.event, "owner", None) == "alice"
                and not type(env.event).core_event)
    first_new, already_folded = session.seq + 1, len(folded)
    clock_before = session.ruleset.clock(session.state)
    session.apply(Reveal(player="alice", amount=2, salt=salt))
    issued, *caused = session.events(first_new)
    assert type(issued.event) is CommandIssued and (issued.turn, issued.phase) == clock_before
    assert session.state_at(issued.seq) is session.state_at(issued.seq - 1)
    assert folded[already_folded:] == [env.event for env in caused] == [BidRevealed(player="alice", amount=2)]


def test_a_secret_command_is_sealed_exactly_as_any_secret_event_is():
    """Contract 7: the record of a secret command carries the salt and commitment ``SecretEvent.sealed`` gives."""
    session = GameSession(BiddingRules(), BidSetup(), dice=SeededDice(1), game_id="g",
                          metadata={REPRODUCIBLE_SALTS: True})
    session.apply(Bid(player="alice", amount=3))
    record = session.events()[0].event
    salt = SaltSource.for_game({REPRODUCIBLE_SALTS: True}, "1:main").derived("commands").next()
    assert record == SecretCommandIssued(owner="alice", command={"command": "Bid", "player": "alice",
                                                                 "amount": 3}).sealed(salt)
