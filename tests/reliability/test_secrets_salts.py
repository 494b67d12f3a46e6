"""Issue 16 item 3: salts from a secret. A session's salts are random unless the game's metadata says
``reproducible_salts`` (core/secrets.py ``SaltSource.for_game``, wired in core/session.py), so a commitment resists
trying every choice with every salt computable from the seed or the game id; games that must be replayed from
their seed alone say so and are reproducible byte for byte; and re-deciding a game replays its recorded salts
(regress/tape.py, the salt tape), so a game with random salts regresses identically."""

from __future__ import annotations

from collections import defaultdict
from functools import cache

import msgspec
import pytest

from aero_events.core import GameSession, encode_event
from aero_events.core.events import EnvelopeRecord
from aero_events.core.secrets import REPRODUCIBLE_SALTS, SaltSource, SecretEvent, commitment
from aero_events.demo import demo_session
from aero_events.regress import commands_from_events
from aero_events.regress.corpus import read_manifest
from aero_events.regress.recorded import from_jsonl
from aero_events.regress.rerun import rerun
from aero_events.regress.tape import (
    RecordedSalts,
    RegressionDice,
    recorded_command_salts,
    recorded_faces,
    recorded_salts,
)
from aero_events.store import EventStore
from tests.reliability.secrets_games import SEED, demo_game, has_secrets, shipped
from tests.reliability.test_secrets import broken_commitments, unrevealed_game

WITH_SECRETS = [family for family in shipped() if has_secrets(demo_game(family))]


@cache
def public_salts(game_id: str, count: int) -> tuple[str, ...]:
    """Every salt computable from what the game makes public (its seed, its id), through every derivation the
    engine has used: the session's streams, the recorder's, the regress and record defaults."""
    candidates = []
    for seed in (SEED, str(SEED), f"{SEED}:main", game_id, f"{game_id}:main", "replay", "record", "corpus"):
        for source in (SaltSource(seed), SaltSource(seed).derived("commands")):
            candidates.extend(source.next() for _ in range(count))
    return tuple(candidates)


def broken_by_trying_everything(session: GameSession) -> tuple[int, int]:
    """(secrets, recovered): each sealed secret tried against every choice its kind takes in the game (the
    true one among them) with every public salt."""
    secrets = [env.event for env in session.events() if isinstance(env.event, SecretEvent) and env.event.commitment]
    choices: dict[type, set[bytes]] = defaultdict(set)
    for event in secrets:
        choices[type(event)].add(msgspec.json.encode(event.secret_payload(), order="sorted"))
    salts = public_salts(session.game_id, len(secrets))
    reachable = {commitment(msgspec.json.decode(choice), salt)
                 for kind in choices for choice in choices[kind] for salt in salts}
    return len(secrets), sum(1 for event in secrets if event.commitment in reachable)


def test_a_seeded_bidding_game_without_the_key_hides_its_unrevealed_bid():
    """The session's default salts (no ``salts=``, seeded dice, no key): the opponent recovers nothing."""
    session = unrevealed_game(None)
    assert broken_commitments(session, "bob") == 0


@pytest.mark.parametrize("family", WITH_SECRETS)
def test_a_commitment_resists_trying_every_choice_in_a_seeded_game_without_the_key(family):
    """Aeronautica's Manoeuvre tokens (p.13) and sealed commands, Wings of Glory's planned cards and damage
    drawn face down: none is recovered from the seed or the game id."""
    secrets, recovered = broken_by_trying_everything(demo_game(family))
    assert secrets > 0
    assert recovered == 0


@pytest.mark.parametrize("family", WITH_SECRETS)
def test_the_same_attack_recovers_every_secret_of_a_game_that_declares_reproducible_salts(family):
    """The control: the attack above is the right one, and the key is honest about what it costs."""
    secrets, recovered = broken_by_trying_everything(demo_game(family, reproducible=True))
    assert recovered == secrets > 0


@pytest.mark.parametrize("family", WITH_SECRETS)
def test_with_the_key_a_game_is_reproducible_byte_for_byte_from_its_seed(family):
    encoded = [[msgspec.json.encode(EnvelopeRecord.from_envelope(env)) for env in game.events()]
               for game in (demo_game(family, reproducible=True), demo_game.__wrapped__(family, reproducible=True))]
    assert encoded[0] == encoded[1]


def test_without_the_key_two_plays_of_one_seed_are_the_same_game_with_other_salts():
    """The dice and the commands are the seed's; only the salts (and what carries them) differ."""
    first, second = demo_game("aeronautica"), demo_game.__wrapped__("aeronautica")
    pairs = list(zip(first.events(), second.events(), strict=True))
    assert [a.type for a, _ in pairs] == [b.type for _, b in pairs]
    assert [a.event for a, _ in pairs if a.type in ("CommandIssued", "DiceRolled")] == \
        [b.event for _, b in pairs if b.type in ("CommandIssued", "DiceRolled")]
    sealed = [(a.event, b.event) for a, b in pairs if isinstance(a.event, SecretEvent)]
    assert sealed and all(a.salt != b.salt and a.secret_payload() == b.secret_payload() for a, b in sealed)


def test_aero_demo_declares_its_salts_reproducible():
    assert demo_session(3).game.metadata[REPRODUCIBLE_SALTS] is True


@pytest.mark.parametrize("family", WITH_SECRETS)
def test_re_deciding_a_game_with_random_salts_replays_the_recorded_salts_byte_for_byte(family):
    """The salt tape: the recorded commands decided again with the recorded dice and the recorded salts (the
    ruleset's and the sealed commands') give every event, sealed ones included, byte for byte."""
    session = demo_game(family)
    envelopes = session.events()
    commands = commands_from_events(envelopes, session.ruleset, session.game.setup)
    again = GameSession(session.ruleset, session.game.setup, dice=RegressionDice(recorded_faces(envelopes)),
                        salts=RecordedSalts(recorded_salts(envelopes), command_salts=recorded_command_salts(envelopes)),
                        game_id=session.game_id, metadata=dict(session.game.metadata))
    for command in commands:
        again.apply(command)
    assert [encode_event(env.event) for env in again.events()] == [encode_event(env.event) for env in envelopes]


@pytest.mark.parametrize("family", WITH_SECRETS)
def test_a_game_with_random_salts_is_stored_verified_exported_and_regresses_identically(tmp_path, family):
    session = demo_game(family)
    store = EventStore(tmp_path / "games.duckdb")
    store.save_session(session)
    assert store.verify(session.game_id).ok
    path = tmp_path / "game.jsonl"
    store.export_jsonl(session.game_id, path)
    game = from_jsonl(path)
    assert rerun(game, game.own_rules()).identical


def test_a_corpus_game_stored_before_the_key_existed_imports_re_decided(tmp_path):
    """The golden corpus has no ``reproducible_salts`` (its salts came from the seed): it imports, each command
    decided again with its recorded salts, and verifies."""
    from tests.replays.test_corpus import REPLAYS

    entry = min(read_manifest(REPLAYS).games, key=lambda game: game.events)
    path = REPLAYS / entry.file
    assert REPRODUCIBLE_SALTS not in from_jsonl(path).metadata
    store = EventStore(tmp_path / "corpus.duckdb")
    game_id = store.import_jsonl(path)
    assert store.verify(game_id).ok


def test_a_game_with_random_salts_writes_them_into_its_record_which_reads_back_identically():
    """The record cannot derive random salts from its [Salts] seed, so each follows its step (``~salt``,
    record/salts.py); ``write_record`` reads the text back and checks every event."""
    from aero_events.record.record_format import write_record

    session = demo_game("aeronautica")
    text = write_record(session.game)
    sealed = [env.event.salt for env in session.events() if isinstance(env.event, SecretEvent)]
    assert sealed and all(salt in text for salt in sealed)
