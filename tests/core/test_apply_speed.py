"""The shortcuts of ``GameSession.apply`` (issue 18 item 2, the core's own cost per command), with the contracts
they must keep.

* A command's record is checked once per distinct encoding (core/typed_commands.py, ``checked_command``): a
  command whose JSON bytes were checked before needs only ``rebuilt == command``. That comparison is the check
  itself, so a list where the type says tuple (the same bytes) or ``True`` where an int was recorded (other
  bytes) is still refused by name, even by a ruleset that accepts anything; every record is its own copy.
* The record is exactly the JSON round trip of the command, for every kind of field, the first time and after.
* A secret command's commitment hashes the same canonical bytes as ``SecretEvent.sealed``.
* Envelopes built from their fields in order encode as envelopes built by name.
* Where the dice and salts stand is read in place for the core's own sources and through ``mark_position`` for
  any other: a refused command gives both back either way (contract 4).
* A ``decide`` that hands back a generator or tuple is folded by the session, event by event, as before.
"""

from __future__ import annotations

import enum
from typing import Any, ClassVar

import msgspec
import pytest

from aero_events.core import (
    Command,
    CommandIssued,
    Envelope,
    Event,
    GameSession,
    RuleError,
    Ruleset,
    SecretCommandIssued,
    SeededDice,
    typed_commands,
)
from aero_events.core.events import EnvelopeRecord
from aero_events.core.secrets import REPRODUCIBLE_SALTS, SaltSource
from aero_events.core.typed_commands import checked_encoding


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Rank(enum.IntEnum):
    PILOT = 1
    ACE = 2


class Point(msgspec.Struct, frozen=True):
    x: int
    y: float


class Order(Command, frozen=True, tag="speedtest.Order"):
    """A command with a field of every kind the engine records."""

    count: int
    ratio: float
    flag: bool
    label: str
    path: tuple[int, ...]
    points: tuple[Point, ...]
    colour: Colour
    rank: Rank
    blob: bytes
    note: str | None = None
    where: Point | None = None
    extra: dict[str, int] = msgspec.field(default_factory=dict)


class Pick(Command, frozen=True, tag="speedtest.Pick"):
    amount: int
    hexes: tuple[int, ...] = ()


class Picked(Event, frozen=True, tag="speedtest.Picked"):
    player: str


class Counter(msgspec.Struct, frozen=True):
    picks: int = 0
    turn: int = 1


class AcceptsAnything(Ruleset):
    """Accepts every command, whatever its fields hold (so a refusal can only come from the record's check);
    a pick by "sealed" is a secret command; every second pick starts a new turn."""

    name: ClassVar[str] = "test/accepts-anything"
    setup_type: ClassVar[type] = type(None)

    def initial_state(self, setup: Any) -> Counter:
        return Counter()

    def decide(self, state: Counter, command: Command, dice: Any) -> list[Event]:
        return [Picked(player=command.player)]

    def evolve(self, state: Counter, event: Event) -> Counter:
        picks = state.picks + 1
        return Counter(picks=picks, turn=1 + picks // 2)

    def legal_commands(self, state: Counter, player: str) -> list[Command]:
        return []

    def is_over(self, state: Counter) -> bool:
        return False

    def clock(self, state: Counter) -> tuple[int, str]:
        return state.turn, "pick"

    def players(self, state: Counter) -> tuple[str, ...]:
        return ("alice", "bob", "sealed")

    def is_secret_command(self, command: Any) -> bool:
        return command.player == "sealed"


def _session(rules: Ruleset | None = None) -> GameSession:
    return GameSession(rules or AcceptsAnything(), None, dice=SeededDice(1), game_id="speed",
                       metadata={REPRODUCIBLE_SALTS: True})


def _order(**changes: Any) -> Order:
    fields: dict[str, Any] = {"player": "alice", "count": 3, "ratio": 0.1, "flag": True, "label": "x",
                              "path": (1, 2), "points": (Point(1, 2.5),), "colour": Colour.RED, "rank": Rank.ACE,
                              "blob": b"\x00\xff", "note": None, "where": Point(0, -1.0), "extra": {"a": 1}}
    fields.update(changes)
    return Order(**fields)


# ---------------------------------------------------------------- the check, once per encoding


def test_a_list_for_a_tuple_is_refused_after_the_tuple_was_recorded():
    """Issue 16 item 8: the list encodes as the tuple did, and is still refused by name."""
    session = _session()
    session.apply(Pick(player="alice", amount=1, hexes=(4, 19)))
    recorded = session.seq
    with pytest.raises(RuleError, match=r"command speedtest.Pick, field 'hexes'"):
        session.apply(Pick(player="alice", amount=1, hexes=[4, 19]))  # type: ignore[arg-type]
    assert session.seq == recorded


@pytest.mark.parametrize("mistyped", [True, 1.0, "1", [1]])
def test_a_mistyped_int_is_refused_after_the_int_was_recorded(mistyped):
    """``True == 1`` and ``hash(True) == hash(1)``: a check remembered for ``amount=1`` must not pass ``True``."""
    session = _session()
    session.apply(Pick(player="alice", amount=1))
    recorded = session.seq
    with pytest.raises(RuleError, match=r"command speedtest.Pick, field 'amount'"):
        session.apply(Pick(player="alice", amount=mistyped))
    assert session.seq == recorded


def test_a_mistyped_command_is_refused_every_time():
    session = _session()
    for _ in range(3):
        with pytest.raises(RuleError, match="field 'amount'"):
            session.apply(Pick(player="alice", amount="2"))  # type: ignore[arg-type]
    assert session.seq == 0


def test_each_record_is_its_own_copy():
    """Two equal commands give equal records that share nothing mutable: changing one changes neither the other
    nor the record of the next equal command."""
    session = _session()
    first = session.apply(Pick(player="alice", amount=1, hexes=(4, 19)))[0].event
    second = session.apply(Pick(player="alice", amount=1, hexes=(4, 19)))[0].event
    assert type(first) is CommandIssued and first.command == second.command
    assert first.command is not second.command and first.command["hexes"] is not second.command["hexes"]
    first.command["hexes"].append(99)
    first.command["amount"] = 7
    third = session.apply(Pick(player="alice", amount=1, hexes=(4, 19)))[0].event
    assert second.command == third.command == {"command": "speedtest.Pick", "player": "alice", "amount": 1,
                                                "hexes": [4, 19]}


def test_the_remembered_checks_are_bounded(monkeypatch):
    monkeypatch.setattr(typed_commands, "CHECKED_LIMIT", 3)
    monkeypatch.setattr(typed_commands, "_checked", {})
    for amount in range(10):
        checked_encoding(Pick(player="alice", amount=amount))
        assert len(typed_commands._checked) <= 3


# ---------------------------------------------------------------- the record is the JSON round trip


@pytest.mark.parametrize("command", [
    _order(),
    _order(ratio=1e-300, count=-(2**62), label="é\n\"", blob=b"", note="n", where=None, extra={}),
    _order(points=(), path=(), flag=False, colour=Colour.BLUE, rank=Rank.PILOT, ratio=3.0),
    Pick(player="bob", amount=0),
])
def test_the_record_is_the_json_round_trip_the_first_time_and_after(command):
    """Floats, bytes, tuples, enums, None, nested structs and dicts: the record is what a JSON round trip gives
    (the stored bytes of every game stay the same), whether the check is made or remembered."""
    round_trip = msgspec.json.decode(msgspec.json.encode(command))
    session = _session()
    records = [session.apply(command)[0].event.command for _ in range(3)]
    assert records == [round_trip] * 3
    assert [msgspec.json.encode(record) for record in records] == [msgspec.json.encode(round_trip)] * 3


def test_a_nested_record_shares_nothing_with_the_next():
    session = _session()
    first = session.apply(_order())[0].event.command
    first["points"][0]["x"] = 100
    first["extra"]["a"] = 100
    assert session.apply(_order())[0].event.command == msgspec.json.decode(msgspec.json.encode(_order()))


def test_a_secret_command_is_sealed_as_any_secret_event_each_time():
    """Contract 7: each sealed record, the first and one whose check was remembered, carries its own salt and
    the commitment ``SecretEvent.sealed`` gives."""
    session = _session()
    salts = SaltSource.for_game({REPRODUCIBLE_SALTS: True}, "1:main").derived("commands")
    for _ in range(2):
        record = session.apply(Pick(player="sealed", amount=2, hexes=(1,)))[0].event
        expected = SecretCommandIssued(owner="sealed", command={"command": "speedtest.Pick", "player": "sealed",
                                                                "amount": 2, "hexes": [1]}).sealed(salts.next())
        assert record == expected


# ---------------------------------------------------------------- envelopes, marks, plain decides


def test_an_envelope_given_in_order_is_the_one_given_by_name():
    event = Picked(player="alice")
    by_name = Envelope(game_id="g", branch_id="main", seq=3, turn=2, phase="pick", actor=None, event=event)
    in_order = Envelope("g", "main", 3, 2, "pick", None, event)
    assert in_order == by_name and msgspec.json.encode(in_order) == msgspec.json.encode(by_name)
    assert EnvelopeRecord.from_envelope(in_order) == EnvelopeRecord.from_envelope(by_name)


class RefusesAfterRolling(AcceptsAnything):
    def decide(self, state, command, dice):
        dice.roll(5, purpose="doomed")
        dice.salts.next()
        raise RuleError("refused after rolling", rule="Test")


class CountingDice(SeededDice):
    """A source subclass with state of its own: marked through ``mark_position`` (its attributes copied)."""

    def __init__(self, seed):
        super().__init__(seed)
        self.drawn = []

    def draw(self, count, sides, purpose="", roller=None):
        faces = super().draw(count, sides, purpose, roller)
        self.drawn.append(count)
        return faces


@pytest.mark.parametrize("dice", [SeededDice(5), CountingDice(5)], ids=["seeded", "subclass"])
def test_a_refused_command_gives_the_dice_and_salts_back_whatever_their_class(dice):
    session = GameSession(RefusesAfterRolling(), None, dice=dice, game_id="g", metadata={REPRODUCIBLE_SALTS: True})
    fresh_dice, fresh_salts = SeededDice(5), SaltSource.for_game({REPRODUCIBLE_SALTS: True}, "5:main")
    with pytest.raises(RuleError):
        session.apply(Pick(player="alice", amount=1))
    assert getattr(dice, "drawn", []) == []
    assert dice.draw(40, 6) == fresh_dice.draw(40, 6)
    assert session.salts.next() == fresh_salts.next()


class DecidesLazily(AcceptsAnything):
    """Hands back its events as a generator or a tuple, never a list; the session folds them itself."""

    def __init__(self, kind):
        self.kind = kind
        self.folded = []

    def decide(self, state, command, dice):
        events = (Picked(player=command.player) for _ in range(command.amount))
        return events if self.kind == "generator" else tuple(events)

    def evolve(self, state, event):
        self.folded.append(state.picks)
        return super().evolve(state, event)


@pytest.mark.parametrize("kind", ["generator", "tuple"])
def test_a_decide_that_returns_no_list_is_folded_by_the_session(kind):
    """Each event folded once, in order, stamped with the clock before it, a checkpoint at each new turn."""
    rules = DecidesLazily(kind)
    session = GameSession(rules, None, dice=SeededDice(1), game_id="g", record_commands=False)
    envelopes = session.apply(Pick(player="alice", amount=3))
    assert rules.folded == [0, 1, 2]
    assert [(type(env.event).__name__, env.turn) for env in envelopes] == [
        ("Picked", 1), ("Picked", 1), ("StateCheckpoint", 2), ("Picked", 2)]
    assert session.state == Counter(picks=3, turn=2)


def test_the_commitment_hash_is_sha256():
    """The SHA-256 commitments are made and checked with (CPython's own where built, else OpenSSL's) gives
    hashlib's digests, so every stored commitment still verifies."""
    import hashlib

    from aero_events.core.secrets import commitment_sha256

    for data in (b"", b'{"manoeuvre":3}f9e3d186e3e48760de45bf125025d05d', bytes(range(256)) * 3):
        assert commitment_sha256(data).hexdigest() == hashlib.sha256(data).hexdigest()
