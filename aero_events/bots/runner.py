"""Let bots play a session to its end (or for a number of commands)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from aero_events.core.session import GameSession


def play(session: Any, bots: Mapping[str, Any], *, max_commands: int | None = None,
         on_command: Callable[[Any, list[Any]], None] | None = None) -> int:
    """Ask each player's bot for a command whenever it has legal ones, until the game is over.

    When several players may act (Aeronautica's Choose Manoeuvres phase), the first player in
    the game's order acts first. Returns the number of commands applied. ``on_command``
    is called with each command and the envelopes it produced (for progress or narration).
    """
    ruleset = session.ruleset
    players = list(ruleset.players(session.state))
    kind = type(session)
    if kind.is_over is GameSession.is_over and kind.legal_commands is GameSession.legal_commands:
        # What a GameSession answers, asked of its ruleset with the state read once a command instead of once a
        # question (issue 18: the players before the one who acts are asked too).
        is_over, legal_commands = ruleset.is_over, ruleset.legal_commands
    else:  # a session that answers in its own way
        def is_over(_state: Any) -> bool:
            return session.is_over()

        def legal_commands(_state: Any, player: str) -> Any:
            return session.legal_commands(player)
    applied = 0
    apply = session.apply
    while True:
        state = session.state
        if is_over(state) or (max_commands is not None and applied >= max_commands):
            break
        for player in players:
            options = legal_commands(state, player)
            if options:
                command = bots[player].choose(session, player, options)
                envelopes = apply(command)
                if on_command is not None:
                    on_command(command, envelopes)
                applied += 1
                break
        else:
            turn, phase = ruleset.clock(state)
            raise RuntimeError(f"no player has a legal command at turn {turn}, phase {phase}: the game is stuck")
    return applied
