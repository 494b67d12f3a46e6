"""Million-Colored Sun: Combined Flight Rules (blog post, 7 April 2018), ``million-colored-sun/2018``: a flight
layer for AIRBORNE models on this project's own minimal skirmish host (README.md in this folder)."""

from .play import play_seeded_game
from .ruleset import MillionColoredSunRules, RuleOptions

__all__ = ["MillionColoredSunRules", "RuleOptions", "play_seeded_game"]
