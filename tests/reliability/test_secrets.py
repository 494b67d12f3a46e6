"""Issue 16, items 2 and 3: the other side's unrevealed choices reach no reader (leaks 0), and a
commitment resists trying every choice with every salt the opponent can compute from public information."""

from __future__ import annotations

import msgspec
import pytest

from aero_events.cli import main
from aero_events.core import GameSession, SeededDice
from aero_events.core.secrets import REPRODUCIBLE_SALTS, SaltSource, SecretEvent, commitment, new_player_key
from aero_events.store import EventStore
from tests.support.bidding import BiddingRules, BidPlaced, BidSetup, play_scripted_game

SEED = 7
GAME_ID = f"bids-{SEED}"


def unrevealed_game(salts: SaltSource | None, metadata: dict | None = None) -> GameSession:
    """Turn 1 played; turn 2's bids placed, not yet revealed."""
    session = GameSession(BiddingRules(), BidSetup(turns=3, target_points=9), dice=SeededDice(SEED), salts=salts,
                          game_id=GAME_ID, metadata=metadata)
    play_scripted_game(session, bids=((2, 1),))
    from tests.support.bidding import Bid

    session.apply(Bid(player="alice", amount=3))
    session.apply(Bid(player="bob", amount=1))
    return session


def public_salts(count: int = 64) -> list[str]:
    """Every salt the opponent can compute from what is public: the seed (in the game id and metadata) and the
    game id, through every derivation the engine has used."""
    candidates = []
    for seed in (SEED, str(SEED), f"{SEED}:main", GAME_ID, f"{GAME_ID}:main", "replay", "record"):
        for source in (SaltSource(seed), SaltSource(seed).derived("commands")):
            candidates.extend(source.next() for _ in range(count))
    return candidates


def broken_commitments(session: GameSession, viewer: str) -> int:
    """How many of the others' hidden choices ``viewer`` recovers by trying every choice with every public salt."""
    broken = 0
    for env in session.events_for(viewer):
        event = env.event
        if type(event).__name__ != "RedactedEvent" or event.secret_type != BidPlaced.type_name():
            continue
        salts = public_salts()
        if any(commitment({"amount": amount}, salt) == event.commitment for amount in (1, 2, 3) for salt in salts):
            broken += 1
    return broken


def test_a_commitment_with_the_default_salts_of_a_game_resists_trying_every_choice():
    """SaltSource.for_game: random unless the game says ``reproducible_salts`` (core/secrets.py)."""
    session = unrevealed_game(SaltSource.for_game({}, SEED))
    assert broken_commitments(session, "bob") == 0


def test_a_commitment_from_a_player_s_key_resists_trying_every_choice():
    session = unrevealed_game(SaltSource.for_player(new_player_key()))
    assert broken_commitments(session, "bob") == 0


def test_reproducible_salts_are_only_for_games_that_say_so_and_they_hide_nothing():
    """Why the flag is opt-in: from the seed alone, every choice of a reproducible game is recovered."""
    assert not SaltSource.for_game({REPRODUCIBLE_SALTS: "yes"}, SEED).reproducible
    assert not SaltSource.for_game({}, SEED).reproducible
    reproducible = SaltSource.for_game({REPRODUCIBLE_SALTS: True}, f"{SEED}:main")
    assert reproducible.reproducible
    session = unrevealed_game(reproducible, {REPRODUCIBLE_SALTS: True})
    assert broken_commitments(session, "bob") >= 1


def test_a_player_key_gives_the_same_salts_to_its_owner_and_none_to_others():
    key = new_player_key()
    mine, again = SaltSource.for_player(key), SaltSource.for_player(key)
    assert [mine.next() for _ in range(5)] == [again.next() for _ in range(5)]
    assert SaltSource.for_player(new_player_key()).next() != SaltSource.for_player(key).next()
    with pytest.raises(ValueError, match="16 bytes"):
        SaltSource.for_player(b"short")


def _alice_secrets(session: GameSession) -> list[str]:
    """alice's unrevealed bid of turn 2: its salt (hex), and the commitment's opening as text."""
    last = [env.event for env in session.events() if isinstance(env.event, SecretEvent)
            and env.event.owner == "alice"][-2:]
    return [event.salt for event in last]


def test_no_reader_shows_bob_alice_s_unrevealed_bid(tmp_path, capsys):
    """The session's view, the store's redacted read, and ``aero show --player bob``: leaks 0."""
    session = unrevealed_game(SaltSource.for_game({}, SEED))
    secrets = _alice_secrets(session)
    db = tmp_path / "game.duckdb"
    EventStore(db).save_session(session)
    views = {
        "session view": msgspec.json.encode([env.event for env in session.events_for("bob")]).decode(),
    }
    assert main(["show", GAME_ID, "--player", "bob", "--db", str(db)]) == 0
    views["aero show --player bob"] = capsys.readouterr().out
    leaks = {name: [secret for secret in secrets if secret in text] for name, text in views.items()}
    assert leaks == {name: [] for name in views}
    assert "amount=3" not in views["aero show --player bob"].split("Turn 2")[-1]


def test_the_owner_still_sees_their_own_bid(tmp_path, capsys):
    session = unrevealed_game(SaltSource.for_game({}, SEED))
    db = tmp_path / "game.duckdb"
    EventStore(db).save_session(session)
    assert main(["show", GAME_ID, "--player", "alice", "--turn", "2", "--db", str(db)]) == 0
    assert "amount=3" in capsys.readouterr().out

