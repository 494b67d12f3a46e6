"""Recording an Aeronautica game at a real table: the parts of ``aero record`` and of the ``.aero`` record
that only Aeronautica has, given to the tools through :class:`AeronauticaRecorderGuide` (the ruleset's
:meth:`~aero_events.core.interface.ToolInterface.recorder_guide`).

* **Decisions** (:meth:`AeronauticaRecorderGuide.decision`): whose choice it is and what to call it, with the
  rulebook's page; in Choose Manoeuvres (p.13) one aircraft's token at a time, a *secret* order that each
  player types unseen; hints beside the choices (where a way of flying a manoeuvre ends, the Speed a
  Throttle gives).
* **Forces typed in** from the catalogue's choices (Building a Force, p.9; Squadron Lists, p.36-47): the
  faction, then each aircraft with its additional weapons and upgrades. Every choice is offered numbered
  from the catalogue, so an aircraft of another list or a weapon the aircraft cannot take cannot be typed
  in; what only the whole force can break (the points limit, p.9; one Imperial Ace or Fly Boss per force,
  p.37 and p.44) is checked when the player says ``done``, each breach shown with its rule and page.
* **Force lists in one line**, for a record's ``[Forces "..."]`` header:
  ::

      imperium=Veil Squadron(imperial_navy): 4*thunderbolt+2*skystrike_missiles; orks=Da Red Skull
      Kommandos(ork_air_waaagh): 4*dakkajet+2*rokkits, fighta_bommer/fly_boss

  Each side is ``player=force name(faction): entries``, sides separated by ``;``. Each entry is an aircraft
  profile id, then ``+weapon`` for each additional weapon (``+2*rokkits`` for two), ``/upgrade`` for each
  upgrade, and ``="name"`` when the airframe has its own name; ``4*`` in front repeats an entry. Ids are
  those of the catalogue (rulesets/aeronautica/data). The points limit is the record's ``[Points]``.

  A force list this cannot express (a name holding ``;`` or ``(``...) is written in full JSON instead
  (the ``[Setup]`` header); :func:`forces_text` returns None for it.
* **The setup's headers** (:func:`setup_headers`, :func:`setup_from_values`): ``Scenario`` (``The Dogfight``,
  p.34-35), ``Players`` (in the game's order; the first sets up on the south edge), ``Forces``, ``Points``
  (the agreed points value, p.34; ``-`` when not checked), ``Board`` (``3x3``, ``4x4``, ``8x4``, p.9),
  ``Weather`` (``none``, ``roll``, ``bad_weather``, ``night_fighting``, p.33), ``Edges`` (``south - north``),
  ``Reserves`` (by aircraft id, p.33-34), and ``Setup`` (the whole setup as JSON) when those cannot say it.
* **The board in text** (:func:`board_text`):

  The Area of Engagement is drawn one offset row per line, two characters per hex (flat-top hexes in the
  board's odd-q layout, README "Hexes"): odd columns sit half a hex lower on the table than the line shows.
  Column numbers are axial ``q``; row numbers are offset rows, so the axial hex of column ``q``, row ``row``
  is ``(q, row - (q - q % 2) / 2)``; the table gives both for every aircraft.

  Markers: the first player's aircraft are ``A B C ...``, the second's ``a b c ...``, each followed by an
  arrow for its facing (``↑ ↗ ↘ ↓ ↙ ↖`` for N NE SE S SW NW); ``*`` an Autonomous weapon (p.25), ``#`` a hex
  of terrain (p.33), ``+`` a ground target, ``.`` an empty hex. Aircraft not on the board (destroyed,
  disengaged, in reserve, not yet set up) are listed in the table only.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Mapping, Sequence
from itertools import groupby
from pathlib import Path
from typing import Any

import msgspec

from aero_events.core import RuleError
from aero_events.core.errors import AeroError, DataError
from aero_events.core.interface import HeaderError, RecorderGuide, TableDecision, quote_word

from . import movement
from .commands import ActivateAircraft, AdjustAltitude, ChooseManoeuvre, ManoeuvrePlan, SetThrottle
from .forces import AircraftEntry, ForceList, force_breaches, force_points, load_checked_force
from .notation import FACINGS, pose_text, step_text
from .profiles import AircraftProfile, Catalogue
from .scenarios.dogfight import DOGFIGHT, check_points_value, dogfight_setup
from .setup import GameSetup, SideSetup, aircraft_ids
from .state import (
    ALTITUDE,
    CHOOSE_MANOEUVRES,
    FIRING,
    FLYING,
    GROUND,
    LANDED,
    MANOEUVRE,
    MOVEMENT,
    SET_UP,
    TAILING_FIRE,
    THROTTLE,
    GameState,
)

BOARDS = ("3x3", "4x4", "8x4")


# ---------------------------------------------------------------- force lists in one line

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
        text += "=" + (entry.name if _PLAIN_NAME.match(entry.name) else quote_word(entry.name))
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
            entry = _read_entry(entry_match, catalogue, at)
            entries.extend([entry] * int(entry_match["count"] or 1))
        if catalogue is not None and match["faction"] not in catalogue.factions:
            raise ForceTextError(f"no Squadron List {match['faction']!r} (known: {', '.join(catalogue.factions)})",
                                 offset + match.start("faction"))
        sides.append((match["player"], ForceList(name=match["name"], faction=match["faction"],
                                                 aircraft=tuple(entries))))
    if len(sides) != 2:
        raise ForceTextError(f"a Dogfight has two forces, separated by ';'; found {len(sides)}", 0)
    return sides


def _read_entry(match: re.Match[str], catalogue: Catalogue | None, at: int) -> AircraftEntry:
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


# ---------------------------------------------------------------- forces typed in

DONE = "done"


def _pick(ask: Callable[[str], str], say: Callable[[str], None], prompt: str, options: Sequence[str],
          ids: Sequence[str]) -> int:
    """The index of the option chosen by number or by id."""
    for number, option in enumerate(options, start=1):
        say(f"  {number:3}. {option}")
    while True:
        answer = ask(prompt).strip()
        if answer.isdigit() and 1 <= int(answer) <= len(options):
            return int(answer) - 1
        if answer in ids:
            return list(ids).index(answer)
        say(f"  choose 1-{len(options)} (or type the id)")


def _numbers(answer: str, limit: int) -> list[int] | None:
    """``"1 1 3"`` as indices (from 0), or None if any is not a choice."""
    picked = []
    for piece in answer.replace(",", " ").split():
        if not piece.isdigit() or not 1 <= int(piece) <= limit:
            return None
        picked.append(int(piece) - 1)
    return picked


def _weapon_choices(profile: AircraftProfile) -> list[tuple[str, int]]:
    seen: dict[str, int] = {}
    for group in profile.additional_weapons:
        for choice in group.choices:
            seen.setdefault(choice.weapon, choice.points)
    return list(seen.items())


def _ask_entry(profile: AircraftProfile, catalogue: Catalogue, ask: Callable[[str], str],
           say: Callable[[str], None]) -> AircraftEntry:
    weapons: tuple[str, ...] = ()
    choices = _weapon_choices(profile)
    if choices:
        slots = " OR ".join(f"up to {group.slots} from {group.name}" for group in profile.additional_weapons)
        say(f"  additional weapons for the {profile.name} ({slots}):")
        for number, (weapon, points) in enumerate(choices, start=1):
            say(f"  {number:3}. {catalogue.weapons[weapon].name if weapon in catalogue.weapons else weapon} "
                f"(+{points} pts)")
        while True:
            picked = _numbers(ask("  weapons (numbers, repeat one to take it twice; empty for none)? "),
                              len(choices))
            if picked is not None:
                weapons = tuple(choices[i][0] for i in picked)
                break
            say(f"  type numbers 1-{len(choices)} separated by spaces")
    upgrades: tuple[str, ...] = ()
    offered = [u for u in catalogue.upgrades_of(profile.faction) if u.id not in profile.forbidden_upgrades]
    if offered:
        say(f"  upgrades (at most {profile.max_upgrades}):")
        for number, upgrade in enumerate(offered, start=1):
            say(f"  {number:3}. {upgrade.name} (+{upgrade.points} pts, p.{upgrade.page})")
        while True:
            picked = _numbers(ask("  upgrades (numbers; empty for none)? "), len(offered))
            if picked is not None:
                upgrades = tuple(offered[i].id for i in picked)
                break
            say(f"  type numbers 1-{len(offered)} separated by spaces")
    return AircraftEntry(aircraft=profile.id, weapons=weapons, upgrades=upgrades)


def build_force(player: str, points: int, catalogue: Catalogue, ask: Callable[[str], str],
                say: Callable[[str], None]) -> ForceList:
    """Ask for ``player``'s force, aircraft by aircraft, until it is legal at ``points`` (p.9)."""
    factions = list(catalogue.factions.values())
    say(f"\n{player}'s force: which Squadron List?")
    faction = factions[_pick(ask, say, "faction? ", [f"{f.name} ({f.id})" for f in factions],
                             [f.id for f in factions])]
    name = ask(f"name of {player}'s force (empty: {faction.name})? ").strip() or faction.name
    aircraft_list = list(catalogue.aircraft_of(faction.id))
    entries: list[AircraftEntry] = []
    while True:
        force = ForceList(name=name, faction=faction.id, aircraft=tuple(entries), points_limit=points)
        total = force_points(force, catalogue).total if entries else 0
        say(f"\n{player}: {len(entries)} aircraft, {total} of {points} points. Add an aircraft, "
            f"'remove N', or '{DONE}':")
        for number, profile in enumerate(aircraft_list, start=1):
            say(f"  {number:3}. {profile.name} ({profile.id}, {profile.points} pts, {profile.aircraft_class})")
        answer = ask("aircraft? ").strip()
        if answer == DONE:
            breaches = force_breaches(force, catalogue)
            if not breaches:
                return force
            for breach in breaches:
                say(f"  not yet legal: {breach}")
            continue
        if answer.startswith("remove "):
            index = answer.split()[1]
            if index.isdigit() and 1 <= int(index) <= len(entries):
                removed = entries.pop(int(index) - 1)
                say(f"  removed {removed.aircraft}")
            else:
                say(f"  remove 1-{len(entries)}")
            continue
        ids = [profile.id for profile in aircraft_list]
        if answer.isdigit() and 1 <= int(answer) <= len(aircraft_list):
            profile = aircraft_list[int(answer) - 1]
        elif answer in ids:
            profile = aircraft_list[ids.index(answer)]
        else:
            say(f"  choose 1-{len(aircraft_list)}, 'remove N' or '{DONE}'")
            continue
        entry = _ask_entry(profile, catalogue, ask, say)
        alone = ForceList(name=name, faction=faction.id, aircraft=(entry,))
        problems = force_breaches(alone, catalogue)
        if problems:
            for problem in problems:
                say(f"  refused: {problem}")
            continue
        entries.append(entry)
        for number, taken in enumerate(entries, start=1):
            extras = "".join(f" +{w}" for w in taken.weapons) + "".join(f" /{u}" for u in taken.upgrades)
            say(f"  {number}. {taken.aircraft}{extras}")


# ---------------------------------------------------------------- the setup's headers


def setup_headers(setup: GameSetup) -> dict[str, str]:
    """The compact headers of a setup, and ``Setup`` (JSON) when they would not rebuild it exactly."""
    headers: dict[str, str] = {"Scenario": DOGFIGHT.name if setup.scenario == DOGFIGHT.id else setup.scenario,
                               "Players": " - ".join(side.player for side in setup.sides)}
    compact = forces_text([(side.player, _without_limit(side.force)) for side in setup.sides])
    points = setup.sides[0].force.points_limit if setup.check_points else None
    if compact is not None:
        headers["Forces"] = compact
    headers["Points"] = str(points) if points is not None else "-"
    headers["Board"] = setup.board
    if setup.weather != "none":
        headers["Weather"] = setup.weather
    if tuple(setup.edges) != ("south", "north"):
        headers["Edges"] = " - ".join(setup.edges)
    held = [aircraft_ids(side)[index] for side in setup.sides for index in side.reserves]
    if held:
        headers["Reserves"] = ", ".join(held)
    try:
        rebuilt = setup_from_values(headers, None) if compact is not None else None
    except (HeaderError, RuleError):
        rebuilt = None
    if rebuilt != setup:
        headers["Setup"] = msgspec.json.encode(setup).decode()
    return headers


def _without_limit(force: Any) -> Any:
    return msgspec.structs.replace(force, points_limit=None)


def setup_from_values(values: dict[str, str], catalogue: Catalogue | None) -> GameSetup:
    """The setup the headers describe (``Setup`` JSON if given, else a Dogfight built from the others).

    Raises :class:`HeaderError` naming the header at fault (and where in it), or RuleError from the
    Dogfight's own checks (p.9, p.34).
    """
    if "Setup" in values:
        try:
            return msgspec.json.decode(values["Setup"], type=GameSetup)
        except msgspec.DecodeError as err:
            raise HeaderError(f"the setup is not a game setup: {err}", "Setup") from err
    for required in ("Players", "Forces"):
        if required not in values:
            raise HeaderError(f"a record needs a [{required} \"...\"] header (or the whole [Setup])", required)
    scenario = values.get("Scenario", DOGFIGHT.name)
    if scenario != DOGFIGHT.name:
        raise HeaderError(f"the headers describe The Dogfight (p.34-35); for {scenario!r} give the whole [Setup]",
                          "Scenario")
    players = [part.strip() for part in values["Players"].split(" - ")]
    if len(players) != 2 or not all(players):
        raise HeaderError("two players, separated by ' - ': [Players \"imperium - orks\"]", "Players")
    try:
        sides = parse_forces_text(values["Forces"], catalogue)
    except ForceTextError as err:
        raise HeaderError(err.message, "Forces", err.offset) from err
    if [player for player, _ in sides] != players:
        raise HeaderError(f"the forces are {' and '.join(p for p, _ in sides)}'s; the players are "
                          f"{' and '.join(players)}, in that order", "Forces")
    points_text = values.get("Points", "-")
    check_points = points_text != "-"
    if check_points and not points_text.isdigit():
        raise HeaderError(f"the points value is a number (or '-'), not {points_text!r}", "Points")
    points = int(points_text) if check_points else 0
    if check_points:
        try:
            check_points_value(points)
        except RuleError as err:
            raise HeaderError(str(err), "Points") from err
    edges = tuple(part.strip() for part in values.get("Edges", "south - north").split(" - "))
    if len(edges) != 2:
        raise HeaderError("two edges, separated by ' - ': [Edges \"south - north\"]", "Edges")
    reserves = _reserves(values.get("Reserves", ""), sides)
    try:
        return dogfight_setup(sides[0], sides[1], points, board=values.get("Board", "3x3"), reserves=reserves,
                              weather=values.get("Weather", "none"), edges=edges, catalogue=catalogue,
                              check_points=check_points)
    except RuleError as err:
        header = "Reserves" if "Reserves" in err.rule and "Reserves" in values else "Forces"
        raise HeaderError(str(err), header) from err
    except (KeyError, ValueError) as err:
        raise HeaderError(str(err).strip("'\""), "Board" if "board" in str(err) else "Forces") from err


def _reserves(text: str, sides: list[tuple[str, Any]]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    wanted = [name.strip() for name in text.split(",") if name.strip()]
    held: list[list[int]] = [[], []]
    for name in wanted:
        for side_index, (player, force) in enumerate(sides):
            ids = aircraft_ids(SideSetup(player=player, force=force, placements=()))
            if name in ids:
                held[side_index].append(ids.index(name))
                break
        else:
            raise HeaderError(f"no aircraft {name!r} to hold in reserve", "Reserves", text.find(name))
    return tuple(held[0]), tuple(held[1])


# ---------------------------------------------------------------- the board in text

ARROWS = ("↑", "↗", "↘", "↓", "↙", "↖")


def markers(state: GameState) -> dict[str, str]:
    """A letter per aircraft: upper case for the first player's, lower case for the second's."""
    letters: dict[str, str] = {}
    for player, alphabet in zip(state.players, (string.ascii_uppercase, string.ascii_lowercase), strict=True):
        for index, aircraft in enumerate(state.side(player)):
            letters[aircraft.id] = alphabet[index % 26]
    return letters


def board_lines(state: GameState, rules: Any) -> list[str]:
    """The hex map, one offset row per line, with column numbers above."""
    board = rules.board(state)
    letters = markers(state)
    cells: dict[tuple[int, int], str] = {}
    for feature in state.terrain:
        for hex in feature.hexes:
            cells[board.to_offset(hex)] = "# "
    for target in state.ground_targets:
        cells[board.to_offset(target.hex)] = "+ "
    for weapon in state.autonomous.values():
        cells[board.to_offset(weapon.hex)] = "*" + ARROWS[weapon.facing]
    for aircraft in state.aircraft.values():
        if aircraft.status in (FLYING, LANDED):
            cells[board.to_offset(aircraft.hex)] = letters[aircraft.id] + ARROWS[aircraft.facing]
    margin = "     "
    tens = "".join(f"{column // 10 if column >= 10 else ' '} " for column in range(board.columns))
    ones = "".join(f"{column % 10} " for column in range(board.columns))
    lines = [margin + tens.rstrip(), margin + ones.rstrip()] if board.columns > 10 else [margin + ones.rstrip()]
    for row in range(board.rows):
        line = []
        for column in range(board.columns):
            if row < board.rows_in_column(column):
                line.append(cells.get((column, row), ". "))
            else:
                line.append("  ")
        lines.append(f"{row:>3}  " + "".join(line).rstrip())
    return lines


def aircraft_table(state: GameState, rules: Any) -> list[str]:
    """One line per aircraft: marker, id, player, status, hex and offset cell, facing, Speed, Altitude,
    Structure, and Stall / Spin / Manoeuvre token / Tailing."""
    board = rules.board(state)
    letters = markers(state)
    header = ("", "aircraft", "player", "status", "hex", "col,row", "facing", "Speed", "Alt", "Structure", "")
    rows = [header]
    for aircraft in state.aircraft.values():
        on_board = aircraft.status in (FLYING, LANDED)
        column, row = board.to_offset(aircraft.hex) if on_board else ("", "")
        flags = []
        if aircraft.stalled:
            flags.append("STALL")
        if aircraft.spinning:
            flags.append("SPIN")
        if aircraft.revealed is not None:
            flags.append(f"M{aircraft.revealed}")
        elif aircraft.commitment is not None:
            flags.append("token down")
        if aircraft.tailing:
            flags.append(f"tailing {aircraft.tailing}")
        rows.append((
            letters[aircraft.id], aircraft.id, aircraft.owner, aircraft.status,
            f"{aircraft.hex[0]},{aircraft.hex[1]}" if on_board else "-",
            f"{column},{row}" if on_board else "-",
            FACINGS[aircraft.facing] if on_board else "-",
            str(aircraft.speed), str(aircraft.altitude), f"{aircraft.structure}/{aircraft.starting_structure}",
            " ".join(flags),
        ))
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    return ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
            for row in rows]


def situation(state: GameState) -> str:
    """Turn, phase and who acts: ``turn 2, movement: orks to act (orks-1 moving)``."""
    text = f"turn {state.turn}, {state.phase.replace('_', ' ')}"
    if state.to_act:
        text += f": {state.to_act} to act"
    if state.active:
        text += f" ({state.active} moving)"
    if state.weather:
        text += f"; weather {state.weather.replace('_', ' ')}"
    return text


def board_text(state: GameState, rules: Any) -> str:
    """The whole picture: situation, map, legend and aircraft table."""
    lines = [situation(state), *board_lines(state, rules),
             "     (odd columns sit half a hex lower; hex q,r = column q, row r + (q - q % 2) / 2)", ""]
    lines += aircraft_table(state, rules)
    return "\n".join(lines)


# ---------------------------------------------------------------- the recorder's guide


class AeronauticaRecorderGuide(RecorderGuide):
    """How ``aero record`` records an Aeronautica game (the module notes): decisions with their pages, the
    Manoeuvre tokens as secret orders, the hex board in text, a Dogfight set up from forces, and the
    compact setup headers of a record."""

    def decision(self, state: GameState) -> TableDecision | None:
        """The first player (in the game's order) with legal commands decides.

        In the Choose Manoeuvres phase (p.13) one aircraft at a time: every player places their tokens face
        down at once, so each types theirs unseen (``secret``), the first player's aircraft first."""
        rules = self.ruleset
        for player in state.players:
            options = rules.legal_commands(state, player)
            if not options:
                continue
            if state.phase == CHOOSE_MANOEUVRES:
                aircraft = options[0].aircraft
                mine = [c for c in options if c.aircraft == aircraft]
                return TableDecision(
                    player=player, options=mine, subject=aircraft, secret=True,
                    title=f"{aircraft} ({player}): which Manoeuvre token? (p.13)",
                    keys={str(c.manoeuvre): i for i, c in enumerate(mine)},
                    unlisted=lambda answer, who=player, which=aircraft: ChooseManoeuvre(
                        player=who, aircraft=which, manoeuvre=int(answer)) if answer.isdigit() else None,
                    announce=(("choose manoeuvres", state.turn),
                              (f"\nTurn {state.turn}: Choose Manoeuvres (p.13). Every player places their tokens "
                              "face down at once: each types theirs in turn, unseen, while the others look away.")))
            return TableDecision(player=player, options=options, subject=_default_subject(state, player),
                                 title=self._title(state, player))
        return None

    def _title(self, state: GameState, player: str) -> str:
        rules = self.ruleset
        turn = f"Turn {state.turn}"
        if state.phase == SET_UP:
            if state.rolled_off is None:
                return f"Set-up: roll off (p.34); {player} asks unless you type '{state.opponent(player)} rolloff'"
            first = rules.legal_commands(state, player)[0]
            return (f"Set-up: {player} places an aircraft (p.34): type it like '{step_text(first, state)}' "
                    "(hex q,r and facing, Speed, Altitude)")
        if state.phase == MOVEMENT:
            if state.first_mover is None:
                return f"{turn}: {player} won the initiative and chooses who moves first (p.14)"
            if state.active is None:
                return f"{turn}: {player} moves an aircraft (p.14)"
            aircraft = state.aircraft[state.active]
            profile = rules.profile(aircraft)
            if state.step == THROTTLE:
                return (f"{turn}: {aircraft.id} Throttle (p.15): Speed {aircraft.speed}, Throttle {profile.throttle}, "
                        f"Speed {profile.min_speed}-{profile.max_speed}")
            if state.step == MANOEUVRE:
                shown = aircraft.revealed
                name = rules.manoeuvres.get(shown).name if shown is not None and shown in rules.manoeuvres else "none"
                return f"{turn}: {aircraft.id} flies Ace Manoeuvre {shown} ({name}) at Speed {aircraft.speed} (p.16-17)"
            if state.step == ALTITUDE:
                return f"{turn}: {aircraft.id} climbs, holds or dives (p.18): Altitude {aircraft.altitude}"
            if state.step == GROUND:
                return f"{turn}: {aircraft.id} is landed: taxi or take off (p.19)"
        if state.phase in (FIRING, TAILING_FIRE):
            which = "Tailing Fire (p.13, p.23)" if state.phase == TAILING_FIRE else "Firing (p.20-21)"
            if state.volley is not None and state.volley.pending is not None:
                return f"{turn}: {player} keeps the roll or re-rolls it (p.37, p.45)"
            if state.return_fire is not None:
                return f"{turn}: {player}'s Tail Gunner may return fire (p.24)"
            return f"{turn}, {which}: {player} fires an aircraft, or passes"
        return f"{turn}, {state.phase.replace('_', ' ')}: {player} to choose"

    def hints(self, state: GameState, decision: TableDecision) -> Callable[[Any], str]:
        """Where each way of flying the manoeuvre ends (p.16-17), the Speed a Throttle gives (p.15), the
        Altitude a climb or dive gives (p.18), a token's manoeuvre, an aircraft's pose when activated."""
        rules = self.ruleset
        ends: dict[Any, str] = {}
        if state.phase == MOVEMENT and state.active is not None and state.step == MANOEUVRE:
            active = state.aircraft[state.active]
            flights = movement.manoeuvre_flights(rules, active)
            for flight in flights:
                end = flight.path[-1] if flight.path else active.hex
                ends[(flight.side, tuple(flight.stage_hexes), tuple(flight.facings))] = \
                    f"-> {pose_text(end, flight.final_facing)}"
            if len(flights) == 1:
                ends[(None, (), ())] = next(iter(ends.values()))

        def hint(command: Any) -> str:
            match command:
                case ManoeuvrePlan(side=side, stage_hexes=stage_hexes, facings=facings):
                    return ends.get((side, tuple(stage_hexes), tuple(facings)), "")
                case SetThrottle(aircraft=aircraft, change=change):
                    return f"Speed {state.aircraft[aircraft].speed + change}"
                case AdjustAltitude(aircraft=aircraft, change=change):
                    return f"Altitude {state.aircraft[aircraft].altitude + change}"
                case ChooseManoeuvre(manoeuvre=number) if number in rules.manoeuvres:
                    return rules.manoeuvres.get(number).name
                case ActivateAircraft(aircraft=aircraft):
                    a = state.aircraft[aircraft]
                    return f"at {pose_text(a.hex, a.facing)}, Speed {a.speed}, Altitude {a.altitude}"
            return ""

        return hint

    def board(self, state: GameState) -> str:
        return board_text(state, self.ruleset)

    def new_setup(self, options: Mapping[str, Any], ask: Callable[[str], str], say: Callable[[str], None]
                  ) -> GameSetup:
        """A Dogfight (p.34-35) between two forces: ``options`` may give ``forces`` (two force files),
        ``players`` (two names; default the files' names), ``points`` (25-250, p.34) and ``board`` (p.9);
        what they do not give is asked, the forces typed in from the catalogue's choices."""
        catalogue = self.ruleset.catalogue
        paths = options.get("forces")
        forces = [load_checked_force(path, catalogue) for path in paths] if paths else None
        defaults = [Path(path).stem for path in paths] if paths else ["first", "second"]
        names = list(options["players"]) if options.get("players") else [
            _ask_default(ask, f"name of the {which} player{where}", default)
            for which, where, default in zip(("first", "second"), (" (sets up on the south edge)", ""), defaults,
                                             strict=True)]
        if names[0] == names[1]:
            raise AeroError("the two players need different names")
        points = options.get("points")
        if points is None:
            default = max(25, *(f.points_limit or force_points(f, catalogue).total for f in forces)) if forces \
                else 100
            points = _ask_number(ask, say, "the agreed points value (25-250, p.34)", default)
        if forces is None:
            forces = [build_force(name, points, catalogue, ask, say) for name in names]
        board = options.get("board") or _ask_choice(ask, say, "the Area of Engagement (p.9)", BOARDS, "3x3")
        try:
            return dogfight_setup((names[0], forces[0]), (names[1], forces[1]), points, board=board,
                                  catalogue=catalogue)
        except RuleError as breach:  # the two files together break a rule: both named
            if not paths:
                raise
            raise DataError(str(breach), source=" and ".join(str(path) for path in paths)) from None

    def setup_headers(self, setup: GameSetup) -> dict[str, str]:
        return setup_headers(setup)

    def setup_from_headers(self, values: Mapping[str, str]) -> GameSetup:
        return setup_from_values(dict(values), self.ruleset.catalogue)


def _default_subject(state: GameState, player: str) -> str:
    if state.active is not None:
        return state.active
    if state.volley is not None:
        return state.volley.aircraft
    return player


def _ask_default(ask: Callable[[str], str], question: str, default: str) -> str:
    return ask(f"{question} [{default}]? ").strip() or default


def _ask_number(ask: Callable[[str], str], say: Callable[[str], None], question: str, default: int) -> int:
    while True:
        answer = ask(f"{question} [{default}]? ").strip()
        if not answer:
            return default
        if answer.isdigit():
            return int(answer)
        say("  a number, please")


def _ask_choice(ask: Callable[[str], str], say: Callable[[str], None], question: str, choices: tuple[str, ...],
                default: str) -> str:
    while True:
        answer = ask(f"{question}, {' / '.join(choices)} [{default}]? ").strip() or default
        if answer in choices:
            return answer
        say(f"  one of {', '.join(choices)}")
