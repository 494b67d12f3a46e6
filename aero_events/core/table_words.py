"""Lengths in inches and headings in degrees as a player writes them in a notation's words (``aero record``, the
``.aero`` record), for rulesets on the open table (:mod:`aero_events.table`: integer 1/100 mm and 1/100 degree).

A length or heading is written as the shortest decimal that reads back to the very same table value, so a
notation's text round-trips every command exactly; reading accepts what players type (``4in``, ``4"``, ``4``;
``90``, ``90deg``) and names a word that is not a number. Shared by Million-Colored Sun's and the Warhammer
flying rules' notations.
"""

from __future__ import annotations

import re
from decimal import Decimal

from aero_events.table import DEGREE, INCH, degrees, inches

from .errors import RuleError

_NUMBER = re.compile(r"-?(\d+(\.\d*)?|\.\d+)")


def shortest_decimal(value: int, unit: int, places: int) -> str:
    """``value`` table units as the shortest decimal of ``unit`` (with up to ``places`` decimals) that reads back
    as ``value``: ``shortest_decimal(20320, INCH, 4) == "8"``, ``shortest_decimal(1000, INCH, 4) == "0.3937"``."""
    exact = Decimal(value) / Decimal(unit)
    for place in range(places + 1):
        text = f"{exact.quantize(Decimal(1).scaleb(-place)):f}"
        if round(Decimal(text) * unit) == value:
            return text
    raise ValueError(f"{value} has no decimal of {places} places")  # places is chosen so that this cannot happen


def length_text(value: int) -> str:
    """A length in inches: ``8in``, ``3.45in`` (4 decimals read back exactly: 1/10000" is under 1/100 mm)."""
    return shortest_decimal(value, INCH, 4) + "in"


def heading_text(value: int) -> str:
    """A heading in degrees: ``90``, ``45.5``."""
    return shortest_decimal(value, DEGREE, 2)


def read_length(word: str) -> int:
    """``4in``, ``4"`` or ``4`` inches in table units; a :class:`RuleError` names a word that is not one."""
    number = word.removesuffix("in").removesuffix('"')
    if not _NUMBER.fullmatch(number):
        raise RuleError(f"{word!r} is not a length: write inches, as 4in or 3.5in", rule="Notation")
    return inches(number)


def read_heading(word: str) -> int:
    """``90`` or ``90deg`` degrees in table units; a :class:`RuleError` names a word that is not one."""
    number = word.removesuffix("deg")
    if not _NUMBER.fullmatch(number):
        raise RuleError(f"{word!r} is not a heading: write degrees, as 90 or 45.5", rule="Notation")
    return degrees(number)
