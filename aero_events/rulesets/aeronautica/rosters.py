"""BattleScribe and NewRecruit roster files (``.ros`` XML, ``.rosz`` zipped) read as force lists.

Players build their lists in BattleScribe or NewRecruit from the BSData Aeronautica Imperialis catalogues
(``Imperial_Navy.cat``, ``Ork_Air_Waaagh.cat``). A roster file is XML in the BattleScribe roster schema::

    roster (name)                         -> ForceList.name
      costLimits/costLimit name="pts"     -> ForceList.points_limit (none when 0 or negative)
      forces/force (catalogueName)        -> ForceList.faction: one force only, "a single Squadron List" (p.9)
        selections/selection type="model" -> an aircraft (customName -> its name; number="2" -> two of them)
          selections/selection            -> its additional weapons, upgrades, or its fixed weapons

Names are matched to this project's ids (``data/*.json``) without regard to case, punctuation, British or
American spelling ("Extra Armor") or the "Pair of" of paired weapons, and through :data:`BSDATA_NAMES` where
the BSData catalogues name an entry differently from the rulebook's Squadron Lists (p.36-47).

Choices made where the file format leaves room:

* A selection's fixed weapons (the profile's own, such as Twin Lascannons) are listed by BattleScribe as
  zero-cost selections; they are recognised and skipped. Reference entries (names starting "[Reference]")
  are rules text, not choices, and are skipped too.
* A selection with ``number="N"`` stands for N identical aircraft; its weapon and upgrade counts are the
  totals for all N, so each must divide by N (otherwise the split between the aircraft is not known).
* Everything else that is not recognised (an aircraft, an upgrade or a named Ace from a later book) is a
  :class:`DataError` naming the file, the line and the selection, never silently dropped.
* :func:`load_roster` checks the force-building rules (p.9, p.36-47) against ``catalogue`` and raises the
  first breach as a :class:`RuleError` located in the roster; the points limit is checked only when asked
  (``check_points``), because points depend on the rules version the caller plays (2019 or 2020).
"""

from __future__ import annotations

import io
import os
import re
import zipfile
from pathlib import Path
from typing import NamedTuple
from xml.etree import ElementTree
from xml.parsers import expat

import msgspec

from aero_events.core.errors import DataError, RuleError, read_data_file
from aero_events.rulesets.aeronautica.forces import AircraftEntry, ForceList, force_breaches
from aero_events.rulesets.aeronautica.profiles import AircraftProfile, Catalogue, load_catalogue

__all__ = ["BSDATA_NAMES", "ROSTER_SUFFIXES", "is_roster_file", "load_roster", "parse_roster"]

#: File name endings read as rosters.
ROSTER_SUFFIXES = (".ros", ".rosz")

#: BSData catalogue names that differ from the Squadron Lists' (kind -> BSData name -> project id).
BSDATA_NAMES: dict[str, dict[str, str]] = {
    "aircraft": {"Thunderbolt": "thunderbolt", "Thunderbolt Fury": "thunderbolt_fury", "Marauder": "marauder"},
    "upgrade": {"Flares or Chaff Launcher": "flares_or_chaff_launchers"},
    "faction": {"Ork Air Waaagh": "ork_air_waaagh"},
}

#: A .rosz member larger than this is refused rather than inflated (a roster is a few kilobytes).
MAX_ROSTER_BYTES = 8 * 1024 * 1024

_REFERENCE_PREFIX = "[reference]"
_SPELLINGS = (("armor", "armour"), ("’", "'"))


def is_roster_file(path: str | os.PathLike) -> bool:
    """Whether ``path`` names a BattleScribe / NewRecruit roster (``.ros`` or ``.rosz``)."""
    return os.fspath(path).lower().endswith(ROSTER_SUFFIXES)


def _key(name: str) -> str:
    text = name.lower().strip()
    for american, british in _SPELLINGS:
        text = text.replace(american, british)
    text = re.sub(r"^pair of ", "", text)
    return re.sub(r"[^a-z0-9]+", "", text)


class _Names:
    """Roster names -> catalogue ids, one table per kind."""

    def __init__(self, catalogue: Catalogue):
        def table(kind: str, items: dict[str, str]) -> dict[str, str]:
            found = {_key(name): ident for ident, name in items.items()}
            found.update({_key(ident): ident for ident in items})
            found.update({_key(name): ident for name, ident in BSDATA_NAMES.get(kind, {}).items()})
            return found

        self.aircraft = table("aircraft", {k: a.name for k, a in catalogue.aircraft.items()})
        self.weapon = table("weapon", {k: w.name for k, w in catalogue.weapons.items()})
        self.upgrade = table("upgrade", {k: u.name for k, u in catalogue.upgrades.items()})
        self.faction = table("faction", {k: f.name for k, f in catalogue.factions.items()})


# ---------------------------------------------------------------------------------------------------------
# Reading the XML, with line numbers
# ---------------------------------------------------------------------------------------------------------


class _Xml(NamedTuple):
    """A parsed roster: its root element and the line each element starts on."""

    root: ElementTree.Element
    lines: dict[int, int]  # id(element) -> line

    def line(self, element: ElementTree.Element) -> int:
        return self.lines[id(element)]


def _parse_xml(raw: bytes, source: str) -> _Xml:
    """The element tree of ``raw`` with each element's line; namespaces dropped; DTD entities refused."""
    builder = ElementTree.TreeBuilder()
    lines: dict[int, int] = {}
    parser = expat.ParserCreate(namespace_separator="}")

    def start(tag: str, attrs: dict[str, str]) -> None:
        element = builder.start(tag.rpartition("}")[2], attrs)
        lines[id(element)] = parser.CurrentLineNumber

    def refuse_entity(*_: object) -> None:
        raise DataError("entity declarations are not allowed in a roster", source=source,
                        location=parser.CurrentLineNumber)

    parser.StartElementHandler = start
    parser.EndElementHandler = lambda tag: builder.end(tag.rpartition("}")[2])
    parser.CharacterDataHandler = builder.data
    parser.EntityDeclHandler = refuse_entity
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    try:
        parser.Parse(raw, True)
    except expat.ExpatError as err:
        raise DataError(f"not a roster: not valid XML ({expat.errors.messages[err.code]})", source=source,
                        location=err.lineno) from None
    root = builder.close()
    return _Xml(root, lines)


def _roster_bytes(raw: bytes, source: str) -> bytes:
    """The XML of a roster: ``raw`` itself, or the one ``.ros`` inside a zipped ``.rosz``."""
    if not raw.startswith(b"PK"):
        return raw
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as archive:
            members = [info for info in archive.infolist() if not info.is_dir()]
            if len(members) != 1:
                names = ", ".join(info.filename for info in members) or "nothing"
                raise DataError(f"a .rosz holds one roster, this one holds {names}", source=source)
            (member,) = members
            if member.file_size > MAX_ROSTER_BYTES:
                raise DataError(f"{member.filename} is {member.file_size} bytes, too large for a roster",
                                source=source)
            return archive.read(member)
    except zipfile.BadZipFile as err:
        raise DataError(f"not a roster: a damaged zip file ({err})", source=source) from None


# ---------------------------------------------------------------------------------------------------------
# The roster -> a ForceList
# ---------------------------------------------------------------------------------------------------------


class _Aircraft(msgspec.Struct, frozen=True):
    """One aircraft read from the roster, and where: for locating rule breaches."""

    entry: AircraftEntry
    line: int
    selection: str


def _children(element: ElementTree.Element, group: str, item: str) -> list[ElementTree.Element]:
    found = element.find(group)
    return [] if found is None else found.findall(item)


def _number(xml: _Xml, selection: ElementTree.Element, source: str, where: str) -> int:
    text = selection.get("number", "1")
    try:
        number = int(float(text))
    except ValueError:
        number = 0
    if number < 1 or str(number) not in (text, text.removesuffix(".0")):
        raise DataError(f"{where}: number is {text!r}, not a whole number of selections", source=source,
                        location=xml.line(selection), field="number")
    return number


def _points_limit(xml: _Xml) -> int | None:
    for limit in _children(xml.root, "costLimits", "costLimit"):
        if _key(limit.get("name", "")) in ("pts", "points") or limit.get("typeId") == "points":
            try:
                value = float(limit.get("value", "0"))
            except ValueError:
                return None
            return int(value) if value > 0 else None
    return None


def _aircraft(xml: _Xml, selection: ElementTree.Element, names: _Names, catalogue: Catalogue, source: str,
              index: int) -> list[_Aircraft]:
    name = selection.get("name", "")
    where = f"selection {index + 1} {name!r}"
    aircraft_id = names.aircraft.get(_key(name))
    if aircraft_id is None:
        known = ", ".join(a.name for a in catalogue.aircraft.values())
        raise DataError(f"{where}: no aircraft {name!r} in the Squadron Lists of this ruleset (p.36-47; it has "
                        f"{known})", source=source, location=xml.line(selection), field="name")
    profile = catalogue.aircraft[aircraft_id]
    count = _number(xml, selection, source, where)
    weapons: list[str] = []
    upgrades: list[str] = []
    for child in _children(selection, "selections", "selection"):
        child_name = child.get("name", "")
        child_where = f"{where} > {child_name!r}"
        taken = _number(xml, child, source, child_where)
        if taken % count:
            raise DataError(f"{child_where}: {taken} taken for {count} aircraft, which do not share them evenly; "
                            "list the aircraft one by one", source=source, location=xml.line(child),
                            field="number")
        kind, ident = _classify(child_name, profile, names)
        if kind == "upgrade":
            upgrades += [ident] * (taken // count)
        elif kind == "weapon":
            weapons += [ident] * (taken // count)
        elif kind is None:
            raise DataError(f"{child_where}: not a weapon or upgrade a {profile.name} can take in the Squadron "
                            f"Lists of this ruleset ({_offers(profile, catalogue)})", source=source,
                            location=xml.line(child), field="name")
    custom = (selection.get("customName") or "").strip() or None
    entry = AircraftEntry(aircraft=aircraft_id, weapons=tuple(weapons), upgrades=tuple(upgrades), name=custom)
    return [_Aircraft(entry, xml.line(selection), name)] * count


def _classify(name: str, profile: AircraftProfile, names: _Names) -> tuple[str | None, str]:
    """("upgrade" | "weapon" | "fixed" | "reference" | None, id) for a selection under an aircraft."""
    key = _key(name)
    if name.strip().lower().startswith(_REFERENCE_PREFIX):
        return "reference", ""
    if key in names.upgrade:
        return "upgrade", names.upgrade[key]
    weapon = names.weapon.get(key)
    if weapon is not None:
        return ("fixed" if weapon in profile.weapons else "weapon"), weapon
    return None, ""


def _offers(profile: AircraftProfile, catalogue: Catalogue) -> str:
    weapons = sorted({catalogue.weapons[c.weapon].name for g in profile.additional_weapons for c in g.choices})
    upgrades = [u.name for u in catalogue.upgrades_of(profile.faction)]
    return f"weapons: {', '.join(weapons) or 'none'}; upgrades: {', '.join(upgrades) or 'none'}"


def _read(raw: bytes, source: str, catalogue: Catalogue) -> tuple[ForceList, list[_Aircraft], _Xml]:
    xml = _parse_xml(_roster_bytes(raw, source), source)
    if xml.root.tag != "roster":
        raise DataError(f"not a roster: the file is a BattleScribe {xml.root.tag!r}, not a 'roster'",
                        source=source, location=xml.line(xml.root))
    system = xml.root.get("gameSystemName", "")
    if system and "aeronautica" not in system.lower():
        raise DataError(f"a roster for {system!r}, not for Aeronautica Imperialis", source=source,
                        location=xml.line(xml.root), field="gameSystemName")
    forces = _children(xml.root, "forces", "force")
    if not forces:
        raise DataError("the roster has no force", source=source, location=xml.line(xml.root))
    if len(forces) > 1:
        lists = ", ".join(repr(f.get("catalogueName", "?")) for f in forces)
        raise RuleError(f"{source} line {xml.line(forces[1])}: the roster has {len(forces)} forces ({lists}); "
                        "a force contains aircraft from a single Squadron List", rule="Building a Force", page=9)
    (force,) = forces
    names = _Names(catalogue)
    list_name = force.get("catalogueName", "")
    faction = names.faction.get(_key(list_name))
    if faction is None:
        known = ", ".join(f.name for f in catalogue.factions.values())
        raise DataError(f"no Squadron List {list_name!r} in this ruleset (it has {known})", source=source,
                        location=xml.line(force), field="catalogueName")
    read: list[_Aircraft] = []
    for index, selection in enumerate(_children(force, "selections", "selection")):
        if selection.get("name", "").strip().lower().startswith(_REFERENCE_PREFIX):
            continue
        read += _aircraft(xml, selection, names, catalogue, source, index)
    name = (xml.root.get("name") or force.get("name") or Path(source).stem).strip()
    result = ForceList(name=name, faction=faction, aircraft=tuple(a.entry for a in read),
                       points_limit=_points_limit(xml))
    return result, read, xml


def _located(err: RuleError, read: list[_Aircraft], source: str, roster_line: int) -> RuleError:
    """``err`` (from force_breaches, which names "aircraft N (...)") located at its roster selection."""
    match = re.match(r"aircraft (\d+) ", err.detail)
    if match and 0 < int(match.group(1)) <= len(read):
        found = read[int(match.group(1)) - 1]
        where = f"{source} line {found.line} ({found.selection})"
    else:
        where = f"{source} line {roster_line}"
    return RuleError(f"{where}: {err.detail}", rule=err.rule, page=err.page)


def parse_roster(raw: bytes, source: str = "<roster>", catalogue: Catalogue | None = None, *,
                 check_points: bool = False) -> ForceList:
    """The force list of a roster's bytes (``.ros`` XML or zipped ``.rosz``), checked against the
    force-building rules of ``catalogue`` (default: the 2019 Squadron Lists).

    An unreadable or unrecognised entry raises DataError (file, line, selection); a breach of the rules
    raises RuleError (rule, page) located at the roster selection. The agreed points limit is checked only
    with ``check_points`` (points differ between rule versions: the caller's version checks them).
    """
    catalogue = catalogue if catalogue is not None else load_catalogue()
    force, read, xml = _read(raw, source, catalogue)
    checked = force if check_points else msgspec.structs.replace(force, points_limit=None)
    breaches = force_breaches(checked, catalogue)
    if breaches:
        raise _located(breaches[0], read, source, xml.line(xml.root))
    return force


def load_roster(path: str | os.PathLike, catalogue: Catalogue | None = None, *,
                check_points: bool = False) -> ForceList:
    """The force list of a roster file (see :func:`parse_roster`); a missing file is a DataError naming it."""
    source = os.fspath(path)
    return parse_roster(read_data_file(source), source, catalogue, check_points=check_points)
