"""Alternate Flying Rules for Warhammer Fantasy (``whfb-flying/alternate``) on this project's own minimal host.

See README.md in this folder for the rules coverage and the host's scope.
"""

from .ruleset import RuleOptions, WhfbFlyingRules

__all__ = ["RuleOptions", "WhfbFlyingRules"]
