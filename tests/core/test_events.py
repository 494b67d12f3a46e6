"""Events are tagged, versioned, immutable facts; old payloads are upcast on read (contract 1)."""

from typing import ClassVar

import msgspec
import pytest

from aero_events.core import (
    EVENT_TYPES,
    Envelope,
    EnvelopeRecord,
    Event,
    decode_event,
    encode_event,
    upcaster,
)


class AltitudeChanged(Event, frozen=True, tag="test.AltitudeChanged"):
    """Version 2: ``delta`` replaced version 1's ``climb: bool`` and ``levels`` pair."""

    version: ClassVar[int] = 2
    aircraft: str
    delta: int


@upcaster("test.AltitudeChanged", from_version=1)
def _altitude_v1_to_v2(payload):
    levels = payload.pop("levels")
    payload["delta"] = levels if payload.pop("climb") else -levels
    return payload


def test_events_are_immutable():
    event = AltitudeChanged(aircraft="a1", delta=1)
    with pytest.raises(AttributeError):
        event.delta = 2


def test_events_encode_with_their_stable_tag():
    assert encode_event(AltitudeChanged(aircraft="a1", delta=-2)) == (
        b'{"type":"test.AltitudeChanged","aircraft":"a1","delta":-2}'
    )
    assert "test.AltitudeChanged" in EVENT_TYPES.names()


def test_an_event_stored_at_version_one_decodes_as_the_current_version():
    old = b'{"type":"test.AltitudeChanged","aircraft":"a1","climb":false,"levels":2}'
    assert decode_event("test.AltitudeChanged", 1, old) == AltitudeChanged(aircraft="a1", delta=-2)
    assert decode_event("test.AltitudeChanged", 2, encode_event(AltitudeChanged(aircraft="b", delta=1))).delta == 1


def test_a_version_newer_than_the_engine_is_refused():
    with pytest.raises(ValueError, match="newer than this engine"):
        decode_event("test.AltitudeChanged", 3, b'{"aircraft":"a","delta":1}')


def test_an_unknown_event_type_names_itself():
    with pytest.raises(KeyError, match="unknown event type 'nope'"):
        decode_event("nope", 1, b"{}")


def test_an_envelope_round_trips_through_its_record_form():
    env = Envelope(game_id="g", branch_id="main", seq=4, turn=2, phase="movement", actor="red",
                   event=AltitudeChanged(aircraft="a1", delta=1))
    record = EnvelopeRecord.from_envelope(env)
    assert (record.type, record.version) == ("test.AltitudeChanged", 2)
    line = msgspec.json.encode(record)
    assert msgspec.json.decode(line, type=EnvelopeRecord).to_envelope() == env


def test_the_union_decoder_reads_any_registered_event():
    payload = encode_event(AltitudeChanged(aircraft="z", delta=0))
    assert EVENT_TYPES.union_decoder().decode(payload) == AltitudeChanged(aircraft="z", delta=0)
