"""Turning a played session into the RecordedGame a regression re-run reads (as if loaded from a file)."""

from __future__ import annotations

import msgspec

from aero_events.core import GameSession
from aero_events.regress import RecordedGame


def recorded(session: GameSession, metadata: dict | None = None) -> RecordedGame:
    """The session's main line of play, with its ruleset's name and data version."""
    return RecordedGame(
        game_id=session.game_id, source="<test session>", ruleset=session.ruleset.name,
        data_version=str(session.ruleset.data_version), setup_json=msgspec.json.encode(session.game.setup),
        metadata=dict(metadata if metadata is not None else session.game.metadata),
        envelopes=tuple(session.game.main.envelopes()),
    )
