"""Folding a long stream of encoded events, beside msgspec decoding plus a trivial fold of the same bytes.

The engine's fold decodes each stored record (type, schema version, payload), turns it
into its event Struct (upcasting if needed), and applies the ruleset's ``evolve``,
verifying the state hash at each turn's checkpoint. The limit decodes the same lines
in one msgspec call per line into a tagged union and counts events by type.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from aero_events.core import EVENT_TYPES, EnvelopeRecord, GameSession, SeededDice, TapeDice
from tests.support.bidding import BiddingRules, BidSetup, play_scripted_game


def encoded_stream(turns: int) -> list[bytes]:
    session = GameSession(BiddingRules(), BidSetup(turns=turns, target_points=turns + 1), dice=SeededDice(1),
                          game_id="bench")
    play_scripted_game(session, bids=[(1 + t % 3, 1 + (t * 7) % 3) for t in range(turns)])
    encode = msgspec.json.encode
    return [encode(EnvelopeRecord.from_envelope(env)) for env in session.events()]


def best_of(runs: int, fn) -> float:
    best = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - started)
    return best


def main() -> None:
    lines = encoded_stream(turns=6_000)
    record_decoder = msgspec.json.Decoder(EnvelopeRecord)

    def engine_fold() -> None:
        session = GameSession(BiddingRules(), BidSetup(turns=6_000, target_points=6_001), dice=TapeDice([]),
                              game_id="bench")
        session.record(record_decoder.decode(line).to_envelope() for line in lines)

    EVENT_TYPES.union_decoder()

    def trivial_fold() -> None:
        counts: dict[str, int] = {}
        for line in lines:
            record = record_decoder.decode(line)
            event = EVENT_TYPES.union_decoder().decode(record.payload)
            counts[event.type_name()] = counts.get(event.type_name(), 0) + 1

    engine = len(lines) / best_of(3, engine_fold)
    limit = len(lines) / best_of(3, trivial_fold)
    print(f"core fold: {engine:,.0f} events/s over {len(lines):,} events; "
          f"limit (msgspec decode + trivial fold) {limit:,.0f} events/s; ratio {engine / limit:.2f}")


if __name__ == "__main__":
    main()
