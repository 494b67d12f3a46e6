"""Dice of any size, direction and scatter rolls, secret rolls (issue 11 item 5; core_generalisations.md 3)."""

import hashlib
from collections import Counter

import pytest

from aero_events.core import (
    DiceCup,
    DiceError,
    DiceRolled,
    ManualDice,
    RedactedEvent,
    SaltSource,
    SecretMismatch,
    SeededDice,
    TapeDice,
    decode_event,
    encode_event,
    redact,
)
from aero_events.core.dice import (
    DIRECTION_SIDES,
    MAX_SIDES,
    SCATTER_DIE,
    ScatterDie,
    ScatterRolled,
    SecretDiceRolled,
    bytes_per_face,
    face_from_bytes,
    faces_on_tape,
    reveal_roll,
    rolls_after,
)


def documented_stream(seed, length):
    """The seeded byte stream as the SeededDice docstring defines it: SHA-256 counter blocks, concatenated."""
    stream = b""
    block = 0
    while len(stream) < length:
        stream += hashlib.sha256(str(seed).encode() + block.to_bytes(8, "big")).digest()
        block += 1
    return stream


def documented_faces(seed, count, sides):
    """Faces by the docstring's rule: k-byte big-endian groups, rejected at or above span - span % sides."""
    width = 1
    while 256**width < sides:
        width += 1
    span = 256**width
    stream = documented_stream(seed, 4096)
    faces = []
    for start in range(0, len(stream) - width + 1, width):
        value = int.from_bytes(stream[start:start + width], "big")
        if value < span - span % sides:
            faces.append(value % sides + 1)
            if len(faces) == count:
                return faces
    raise AssertionError("stream too short for the test")


# ---------------------------------------------------------------- the golden dice do not change


def test_seeded_d6_faces_are_pinned():
    """The faces every recorded seeded game was rolled with (the golden corpus replays byte-identically)."""
    assert SeededDice(42).draw(12, 6) == [3, 5, 4, 4, 2, 4, 6, 4, 6, 4, 3, 4]
    assert SeededDice("dogfight").draw(8, 6) == [5, 5, 3, 2, 3, 2, 6, 2]
    assert SeededDice(7).draw(6, 20) == [11, 4, 14, 15, 2, 11]


@pytest.mark.parametrize("sides", [2, 3, 6, 7, 10, 12, 20, 100, 255, 256])
def test_dice_of_up_to_256_sides_keep_the_one_byte_rule(sides):
    """For 2..256 sides each byte b below 256 - 256 % sides is the face b % sides + 1, as before."""
    stream = documented_stream("pin", 64)
    expected = [b % sides + 1 for b in stream if b < 256 - 256 % sides][:40]
    assert SeededDice("pin").draw(40, sides) == expected


# ---------------------------------------------------------------- beyond 256 sides


@pytest.mark.parametrize("sides", [257, 300, 1000, DIRECTION_SIDES, 65_536, 65_537, 100_000])
def test_dice_beyond_256_sides_follow_the_documented_multi_byte_rule(sides):
    assert SeededDice("wide").draw(50, sides) == documented_faces("wide", 50, sides)


@pytest.mark.parametrize("sides", [257, 300, 1000, DIRECTION_SIDES, 65_536])
def test_the_two_byte_rule_gives_every_face_equally_often(sides):
    """Exhaustive over all 65,536 two-byte values: each face equally often, the remainder rejected."""
    faces = Counter(face_from_bytes(value.to_bytes(2, "big"), sides) for value in range(65_536))
    rejected = faces.pop(None, 0)
    assert rejected == 65_536 % sides
    assert set(faces) == set(range(1, sides + 1))
    assert set(faces.values()) == {65_536 // sides}


def test_the_three_byte_rule_rejects_exactly_the_top_remainder():
    sides = 65_537
    span = 256**3
    limit = span - span % sides
    assert bytes_per_face(sides) == 3
    assert face_from_bytes((limit - 1).to_bytes(3, "big"), sides) == (limit - 1) % sides + 1
    assert face_from_bytes(limit.to_bytes(3, "big"), sides) is None
    assert face_from_bytes((span - 1).to_bytes(3, "big"), sides) is None
    assert face_from_bytes(bytes(3), sides) == 1


class ScriptedBytes(SeededDice):
    """Seeded dice whose byte stream is given (a mocked stream)."""

    def __init__(self, stream):
        super().__init__("scripted")
        self._stream = list(stream)

    def _next_byte(self):
        return self._stream.pop(0)


def test_seeded_dice_skip_rejected_groups_of_a_mocked_stream():
    """D300: 2-byte groups; 65400 = 0xFF78 and above are rejected, 65399 is face 300, 0 is face 1."""
    dice = ScriptedBytes([0xFF, 0x78, 0xFF, 0xFF, 0xFF, 0x77, 0x00, 0x00, 0x01, 0x2C])
    assert dice.draw(3, 300) == [300, 1, 1]
    assert dice._stream == []


def test_a_multi_byte_face_may_straddle_two_blocks():
    dice = SeededDice("edge")
    dice.draw(31, 256)
    assert dice.position() == (1, 31)
    face = dice.draw(1, 65_536)[0]
    stream = documented_stream("edge", 64)
    assert face == int.from_bytes(stream[31:33], "big") + 1
    assert dice.position() == (2, 1)


def test_dice_sizes_out_of_range_are_refused():
    for sides in (0, 1, MAX_SIDES + 1):
        with pytest.raises(DiceError, match="cannot roll a die"):
            SeededDice(1).draw(1, sides)
    with pytest.raises(DiceError, match="cannot roll a die"):
        DiceCup(ManualDice()).roll(1, purpose="nonsense", sides=1)


# ---------------------------------------------------------------- manual dice of any size


def test_a_manual_d20_refuses_21():
    dice = ManualDice()
    with pytest.raises(DiceError, match="a D20 shows 1 to 20; 21 is not a face"):
        dice.enter([20, 21], sides=20)
    assert dice.remaining == 0
    dice.enter([20, 1], sides=20)
    assert DiceCup(dice).roll(2, purpose="to hit", sides=20).faces == (20, 1)


def test_manual_entry_defaults_to_d6_for_existing_callers():
    dice = ManualDice()
    with pytest.raises(DiceError, match="1 to 6"):
        dice.enter([7])
    dice.enter([6])
    assert dice.draw(1, 6) == [6]


def test_entered_faces_too_big_for_the_die_rolled_are_refused_and_kept():
    dice = ManualDice()
    dice.enter([12], sides=12)
    with pytest.raises(DiceError, match="a D6 shows 1 to 6; 12 is not a face"):
        DiceCup(dice).roll(1, purpose="to hit")
    assert dice.remaining == 1
    assert dice.draw(1, 12) == [12]


# ---------------------------------------------------------------- direction and scatter


def test_a_direction_roll_is_one_die_of_36000_sides_read_as_hundredths_of_a_degree():
    cup = DiceCup(SeededDice("heading"))
    roll = cup.direction(purpose="drift", roller="red")
    assert isinstance(roll, DiceRolled)
    assert (roll.count, roll.sides) == (1, DIRECTION_SIDES)
    assert roll.headings == (roll.faces[0] - 1,)
    assert roll.faces == tuple(documented_faces("heading", 1, DIRECTION_SIDES))
    with pytest.raises(DiceError, match="not a direction roll"):
        _ = cup.roll(1, purpose="plain", sides=6).headings


def test_a_direction_typed_at_the_table_is_a_heading():
    dice = ManualDice()
    with pytest.raises(DiceError, match="0 to 35999"):
        dice.enter_heading(36_000)
    dice.enter_heading(9_000)
    assert DiceCup(dice).direction(purpose="drift").headings == (9_000,)


def test_the_scatter_die_shows_hit_on_its_hit_faces_and_an_arrow_otherwise():
    """WHFB 'Scatter' / BFG Nova Cannon (p.40): two HIT faces of six; an arrow gets a direction."""
    assert SCATTER_DIE.hit_faces == (1, 2)
    assert SCATTER_DIE.arrow_faces == (3, 4, 5, 6)
    cup = DiceCup(TapeDice([2, 5, 4501]))
    hit = cup.scatter(purpose="nova cannon", roller="imperial")
    assert hit.hit and hit.direction is None and hit.tape_faces() == (2,)
    arrow = cup.scatter(purpose="nova cannon", roller="imperial")
    assert not arrow.hit and arrow.direction == 4500 and arrow.tape_faces() == (5, 4501)
    assert (hit.roll_index, arrow.roll_index) == (0, 1)
    assert decode_event("ScatterRolled", 1, encode_event(arrow)) == arrow


def test_the_scatter_face_mapping_is_data():
    one_hit = ScatterDie(sides=6, hit_faces=(6,))
    roll = DiceCup(TapeDice([1, 100])).scatter(purpose="falls", die=one_hit)
    assert not roll.hit and roll.direction == 99 and roll.hit_faces == (6,)
    with pytest.raises(DiceError):
        ScatterDie(sides=6, hit_faces=(7,))
    with pytest.raises(DiceError, match="arrow face"):
        ScatterDie(sides=2, hit_faces=(1, 2))


def test_a_scatter_roll_typed_at_the_table():
    dice = ManualDice()
    dice.enter_scatter(hit=False, heading=27_000)
    dice.enter_scatter(hit=True)
    cup = DiceCup(dice)
    first, second = cup.scatter(purpose="falls"), cup.scatter(purpose="falls")
    assert (first.hit, first.direction) == (False, 27_000)
    assert (second.hit, second.direction) == (True, None)
    with pytest.raises(DiceError, match="needs its heading"):
        dice.enter_scatter(hit=False)


def test_scatter_rolls_replay_from_a_tape_of_their_events():
    cup = DiceCup(SeededDice("scatter"))
    rolls = [cup.scatter(purpose="falls") for _ in range(20)]
    assert {r.hit for r in rolls} == {True, False}
    replay = DiceCup(TapeDice.from_events(rolls))
    assert [replay.scatter(purpose="falls") for _ in range(20)] == rolls


# ---------------------------------------------------------------- secret rolls


def secret_cup(source):
    return DiceCup(source, salts=SaltSource("secret-rolls"))


def test_a_secret_roll_shows_others_only_the_die_count_and_commitment():
    roll = secret_cup(SeededDice(3)).roll(2, purpose="engine damage", roller="red", secret_owner="red")
    assert isinstance(roll, SecretDiceRolled)
    assert redact(roll, "red") is roll
    seen = redact(roll, "blue")
    assert isinstance(seen, RedactedEvent)
    assert seen.commitment == roll.commitment
    assert seen.public["count"] == 2 and seen.public["sides"] == 6
    assert "faces" not in seen.public and "salt" not in seen.public
    assert roll.faces not in seen.public.values()


def test_a_secret_roll_round_trips_and_its_reveal_is_checked():
    roll = secret_cup(SeededDice(3)).roll(1, purpose="hidden", roller="red", sides=20, secret_owner="red")
    assert decode_event("SecretDiceRolled", 1, encode_event(roll)) == roll
    shown = reveal_roll(roll)
    shown.check(roll.commitment)
    assert decode_event("DiceRevealed", 1, encode_event(shown)) == shown
    forged = type(shown)(roll_index=shown.roll_index, owner="red", faces=(roll.faces[0] % 20 + 1,), salt=shown.salt)
    with pytest.raises(SecretMismatch):
        forged.check(roll.commitment)


def test_secret_rolls_and_rerolls_are_read_back_onto_a_tape():
    cup = secret_cup(SeededDice(8))
    events = [cup.roll(2, purpose="open"), cup.roll(3, purpose="hidden", secret_owner="blue")]
    events.append(cup.reroll(events[1]))
    assert isinstance(events[2], SecretDiceRolled) and events[2].replaces == 1
    stored = [decode_event(e.type_name(), 1, encode_event(e)) for e in events]
    tape = TapeDice.from_events(stored)
    assert tape.remaining == 8
    replay = secret_cup(tape)
    assert replay.roll(2, purpose="open").faces == events[0].faces
    assert replay.roll(3, purpose="hidden", secret_owner="blue").faces == events[1].faces
    assert [faces_on_tape(e) for e in events] == [e.faces for e in events]
    assert [rolls_after(e) for e in events] == [1, 2, 3]


def test_a_secret_roll_without_a_salt_source_is_refused():
    with pytest.raises(DiceError, match="salt"):
        DiceCup(SeededDice(1)).roll(1, purpose="hidden", secret_owner="red")


def test_rolls_after_counts_every_event_that_took_a_roll_index():
    cup = secret_cup(TapeDice([3, 1, 1]))
    scatter = cup.scatter(purpose="falls")
    assert isinstance(scatter, ScatterRolled)
    assert rolls_after(scatter) == 1
    assert rolls_after(cup.roll(1, purpose="x")) == 2
