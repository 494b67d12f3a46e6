"""Let bots play a session to its end (or for a number of commands)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any


def play(session: Any, bots: Mapping[str, Any], *, max_commands: int | None = None,
         on_command: Callable[[Any, list[Any]], None] | None = None) -> int:
    """Ask each player's bot for a command whenever it has legal ones, until the game is over.

    When several players may act (Aeronautica's Choose Manoeuvres phase), the first player in
    the game's order acts first. Returns the number of commands applied. ``on_command``
    is called with each command and the envelopes it produced (for progress or narration).
    """
    applied = 0
    players = list(session.ruleset.players(session.state))
    while not session.is_over():
        if max_commands is not None and applied >= max_commands:
            break
        for player in players:
            options = session.legal_commands(player)
            if options:
                command = bots[player].choose(session, player, options)
                envelopes = session.apply(command)
                if on_command is not None:
                    on_command(command, envelopes)
                applied += 1
                break
        else:
            turn, phase = session.ruleset.clock(session.state)
            raise RuntimeError(f"no player has a legal command at turn {turn}, phase {phase}: the game is stuck")
    return applied
