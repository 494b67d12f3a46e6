"""Bots: players that choose among the legal commands, and a loop that lets them play a session.

The random bot works for any ruleset; a ruleset offers its own bots through ``ruleset.bots()``
(:func:`bots_for` adds the random bot to them; Aeronautica's greedy bot is one of its own).
"""

from .catalogue import BOT_NOTE, bots_for, default_bot, make_bot
from .random_bot import RandomBot, StableRandom
from .runner import play

__all__ = ["BOT_NOTE", "RandomBot", "StableRandom", "bots_for", "default_bot", "make_bot", "play"]
