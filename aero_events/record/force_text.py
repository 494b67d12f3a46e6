"""Force lists in one line, for a record's ``[Forces "..."]`` header.

::

    imperium=Veil Squadron(imperial_navy): 4*thunderbolt+2*skystrike_missiles; orks=Da Red Skull
    Kommandos(ork_air_waaagh): 4*dakkajet+2*rokkits, fighta_bommer/fly_boss

Each side is ``player=force name(faction): entries``, sides separated by ``;``. Each entry is an aircraft
profile id, then ``+weapon`` for each additional weapon (``+2*rokkits`` for two), ``/upgrade`` for each
upgrade, and ``="name"`` when the airframe has its own name; ``4*`` in front repeats an entry. Ids are
those of the catalogue (rulesets/aeronautica/data). The points limit is the record's ``[Points]``.

A force list this cannot express (a name holding ``;`` or ``(``...) is written in full JSON instead
(the ``[Setup]`` header); :func:`forces_text` returns None for it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import groupby

from aero_events.rulesets.aeronautica.forces import AircraftEntry, ForceList
from aero_events.rulesets.aeronautica.profiles import Catalogue

from .lexer import quote

_ID = r"[a-z0-9_]+"
_SIDE = re.compile(r"^\s*(?P<player>[^=;]+?)\s*=\s*(?P<name>[^;()]*?)\s*\((?P<faction>[^()]*)\)\s*:\s*(?P<entries>.*?)\s*$",
                   re.DOTALL)
_ENTRY = re.compile(rf"^(?:(?P<count>\d+)\*)?(?P<aircraft>{_ID})(?P<weapons>(?:\+(?:\d+\*)?{_ID})*)"
                    rf"(?P<upgrades>(?:/{_ID})*)(?:=(?P<name>.+))?$")
_PLAIN_NAME = re.compile(r"^[A-Za-z0-9_.\-]+$")


class ForceTextError(ValueError):
    """A force line that cannot be read; ``offset`` is where in the text."""

    def __init__(self, message: str, offset: int):
        super().__init__(message)
        self.message = message
        self.offset = offset


def _entry_text(entry: AircraftEntry) -> str:
    text = entry.aircraft
    for weapon, same in groupby(entry.weapons):
        count = len(list(same))
        text += f"+{count}*{weapon}" if count > 1 else f"+{weapon}"
    text += "".join(f"/{upgrade}" for upgrade in entry.upgrades)
    if entry.name is not None:
        text += "=" + (entry.name if _PLAIN_NAME.match(entry.name) else quote(entry.name))
    return text


def force_text(player: str, force: ForceList) -> str:
    """One side: ``imperium=Veil Squadron(imperial_navy): 4*thunderbolt+2*skystrike_missiles``."""
    entries = []
    for entry, same in groupby(force.aircraft):
        count = len(list(same))
        text = _entry_text(entry)
        entries.append(f"{count}*{text}" if count > 1 and entry.name is None else
                       ", ".join([text] * count))
    return f"{player}={force.name}({force.faction}): {', '.join(entries)}"


def forces_text(sides: Sequence[tuple[str, ForceList]]) -> str | None:
    """Both sides in one line, or None when a name cannot be written in it (then the JSON is used)."""
    for player, force in sides:
        if any(char in player for char in "=;()") or any(char in force.name for char in ";()") \
                or force.name != force.name.strip() or not force.name or not re.fullmatch(_ID, force.faction):
            return None
    return "; ".join(force_text(player, force) for player, force in sides)


def _split(text: str, separator: str, base: int) -> list[tuple[str, int]]:
    """Pieces of ``text`` between separators outside quotes, each with its offset (``base`` added)."""
    pieces, start, quoted = [], 0, False
    for index, char in enumerate(text):
        if char == '"':
            quoted = not quoted
        elif char == separator and not quoted:
            pieces.append((text[start:index], base + start))
            start = index + 1
    pieces.append((text[start:], base + start))
    return pieces


def _unquote(name: str) -> str:
    if len(name) >= 2 and name[0] == name[-1] == '"':
        return name[1:-1].replace('\\"', '"').replace("\\\\", "\\")
    return name


def parse_forces_text(text: str, catalogue: Catalogue | None = None) -> list[tuple[str, ForceList]]:
    """The sides of a ``[Forces]`` line. With a ``catalogue``, every aircraft, weapon and upgrade id is
    looked up, so an unknown one is refused where it is written (the force-building rules themselves,
    p.9 and p.36, are checked when the game is set up)."""
    sides = []
    for chunk, offset in _split(text, ";", 0):
        match = _SIDE.match(chunk)
        if not match:
            raise ForceTextError("a side is 'player=force name(faction): aircraft, aircraft...'",
                                 offset + len(chunk) - len(chunk.lstrip()))
        entries: list[AircraftEntry] = []
        entries_start = offset + match.start("entries")
        for piece, piece_offset in _split(match["entries"], ",", entries_start):
            stripped = piece.strip()
            at = piece_offset + len(piece) - len(piece.lstrip())
            entry_match = _ENTRY.match(stripped)
            if not entry_match:
                raise ForceTextError(f"{stripped!r} is not an aircraft entry like 2*thunderbolt+skystrike_missiles"
                                     "/ejector_seats", at)
            entry = _entry(entry_match, catalogue, at)
            entries.extend([entry] * int(entry_match["count"] or 1))
        if catalogue is not None and match["faction"] not in catalogue.factions:
            raise ForceTextError(f"no Squadron List {match['faction']!r} (known: {', '.join(catalogue.factions)})",
                                 offset + match.start("faction"))
        sides.append((match["player"], ForceList(name=match["name"], faction=match["faction"],
                                                 aircraft=tuple(entries))))
    if len(sides) != 2:
        raise ForceTextError(f"a Dogfight has two forces, separated by ';'; found {len(sides)}", 0)
    return sides


def _entry(match: re.Match[str], catalogue: Catalogue | None, at: int) -> AircraftEntry:
    aircraft = match["aircraft"]
    if catalogue is not None and aircraft not in catalogue.aircraft:
        raise ForceTextError(f"no aircraft {aircraft!r} in the Squadron Lists (known: "
                             f"{', '.join(catalogue.aircraft)})", at + match.start("aircraft"))
    weapons: list[str] = []
    for part in re.finditer(rf"\+(?:(\d+)\*)?({_ID})", match["weapons"]):
        if catalogue is not None and part[2] not in catalogue.weapons:
            raise ForceTextError(f"no weapon {part[2]!r} in the Squadron Lists",
                                 at + match.start("weapons") + part.start(2))
        weapons.extend([part[2]] * int(part[1] or 1))
    upgrades = []
    for part in re.finditer(rf"/({_ID})", match["upgrades"]):
        if catalogue is not None and part[1] not in catalogue.upgrades:
            raise ForceTextError(f"no upgrade {part[1]!r} in the Squadron Lists",
                                 at + match.start("upgrades") + part.start(1))
        upgrades.append(part[1])
    name = _unquote(match["name"]) if match["name"] is not None else None
    return AircraftEntry(aircraft=aircraft, weapons=tuple(weapons), upgrades=tuple(upgrades), name=name)
