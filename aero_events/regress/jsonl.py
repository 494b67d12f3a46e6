"""Writing a game in the JSON Lines export format without a store (the golden corpus, simulations).

The writer lives with the format, in :mod:`aero_events.store.transfer`; it is re-exported here for the
regression tools.
"""

from aero_events.store.transfer import write_game_jsonl

__all__ = ["write_game_jsonl"]
