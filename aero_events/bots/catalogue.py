"""Bots by name, for any ruleset: the ruleset's own (``ruleset.bots()``) and the random bot, which works
for every ruleset."""

from __future__ import annotations

from typing import Any

from aero_events.core.interface import BotInfo

from .random_bot import RandomBot

RANDOM = BotInfo(name="random", description="chooses uniformly among the legal commands",
                 make=lambda ruleset, seed: RandomBot(seed))

#: What a help text says about ``--bots``.
BOT_NOTE = "bots by name: the random bot plays any ruleset; `aero rulesets` lists each ruleset's own"


def bots_for(ruleset: Any) -> dict[str, BotInfo]:
    """The bots that can play ``ruleset``, by name: its own, and ``random`` unless it names its own."""
    found = {"random": RANDOM}
    found.update(ruleset.bots())
    return found


def make_bot(ruleset: Any, name: str, seed: int | str) -> Any:
    """A bot by name, seeded; a :class:`KeyError` lists the bots this ruleset has."""
    known = bots_for(ruleset)
    if name not in known:
        raise KeyError(f"unknown bot {name!r}; known bots for {ruleset.name}: {', '.join(sorted(known))}")
    return known[name].make(ruleset, seed)


def default_bot(ruleset: Any) -> str:
    """The bot simulations play unless told: the ruleset's ``default`` (a baseline that plays the game, so
    that games last as long as real ones), else ``random``."""
    return "default" if "default" in ruleset.bots() else "random"
