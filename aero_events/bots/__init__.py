"""Bots: players that choose among the legal commands, and a loop that lets them play a session."""

from .greedy import GreedyBot
from .random_bot import RandomBot, StableRandom
from .runner import play

__all__ = ["GreedyBot", "RandomBot", "StableRandom", "play"]
