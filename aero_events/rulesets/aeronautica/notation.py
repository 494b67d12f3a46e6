"""Aeronautica's move notation (``aero record``, the ``.aero`` record): one short step per command, in the
spirit of chess's SAN. :class:`AeronauticaNotation` is the ruleset's :class:`~aero_events.core.interface.Notation`.

A *step* is one command of :mod:`aero_events.rulesets.aeronautica.commands`: an optional *subject* (the
aircraft, player or Autonomous weapon that acts; the previous step's when left out) and a *verb* with its
arguments. Hexes are axial ``q,r``; facings are compass hexsides ``N NE SE S SW NW`` (0-5 clockwise from
north, as everywhere in the engine).

=============================  ==========================================================================
step                           command (rulebook page)
=============================  ==========================================================================
``imperium rolloff``           RollOff: the set-up roll-off, asked by imperium (p.34)
``imperium-1 @9,12N S4 A3``    PlaceAircraft: hex 9,12 facing N at Speed 4, Altitude 3 (p.34)
``imperium-3 in@0,5NE A3``     PlaceReserve: an arrived reserve enters at 0,5 facing NE, Altitude 3 (p.33)
``imperium-1 M7``              ChooseManoeuvre: token 7 placed face down (p.13); ``M7~SALT`` gives the
                               commitment's salt when it is not the one the record's ``[Salts]`` derives
``orks first imperium``        ChooseFirstMover: orks won the initiative and have imperium move first (p.14)
``imperium-1 go``              ActivateAircraft: its token is turned over (p.14)
``T+1`` ``T0`` ``T-2``         SetThrottle (p.15)
``L1+2f1,0`` ``3f0``           ManoeuvrePlan: side L/R (none for an unsided manoeuvre), hexes used by each
                               stage, then the facing value chosen at the end of each stage (p.16-17)
``straight``                   ManoeuvrePlan with no plan: too slow to complete it, or no token (p.13, p.17)
``hover:NE``                   Hover at Speed 0, turning to face NE (p.16)
``A+1`` ``A0`` ``A-1``         AdjustAltitude: climb, hold, dive (p.18)
``land`` ``takeoff``           Land, TakeOff (p.19)
``taxi:N,1,NE``                Taxi: face N, move 1 hex, then face NE (p.19)
``boost``                      RocketBoostOut (p.37)
``drop`` ``drop:2``            DropJumpTroops: all, or 2 points (p.37)
``fire W>T ...``               FireWeapons: each shot a weapon id (``W#2`` when the aircraft carries several,
                               counting its weapons from 0) and a target; ``fire`` alone holds fire
                               (p.20-21); an Autonomous weapon is placed with ``W#2@4,5NE+3`` (p.25)
``launch W#2@4,5NE+3``         LaunchAutonomous (p.25)
``keep`` ``reroll``            AcceptRoll, UseReroll: Imperial Ace / Fly Boss (p.37, p.45)
``orks pass``                  PassFiring (p.14)
``orks-auto-1 steer:2L``       SteerAutonomous: turn left after 2 hexes (``steer`` flies straight, p.25)
=============================  ==========================================================================

After a step a record writes the dice its command rolled, each roll as ``[label faces]`` (``[hit 5,2,6]``;
the label names what the roll was for, see :func:`dice_label`), then, optionally, *result marks*: facts the
rules derive, written for people and checked when a record is read: ``=@4,-2NW`` (the subject now
stands at 4,-2 facing NW), ``=orks-2:-2`` (two damaging hits), ``=orks-2:X`` (destroyed),
``=stall``, ``=spin``, ``=out`` (disengaged), ``=end:orks`` / ``=end:draw`` (the game is over).
A subject is written ``"in quotes"`` when it is not a plain word or could be read as a verb.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from aero_events.core import Command, Event, RuleError
from aero_events.core.interface import Notation, NotationError, NotationStep, quote_word
from aero_events.hexgrid import Hex

from . import events as ev
from .commands import (
    AcceptRoll,
    ActivateAircraft,
    AdjustAltitude,
    ChooseFirstMover,
    ChooseManoeuvre,
    DropJumpTroops,
    FireWeapons,
    Hover,
    Land,
    LaunchAutonomous,
    ManoeuvrePlan,
    PassFiring,
    PlaceAircraft,
    PlaceReserve,
    RocketBoostOut,
    RollOff,
    SetThrottle,
    SteerAutonomous,
    TakeOff,
    Taxi,
    UseReroll,
)
from .events import Shot
from .state import SET_UP

FACINGS = ("N", "NE", "SE", "S", "SW", "NW")
_FACING = r"(NE|NW|SE|SW|N|S)"
_PLAIN_ID = re.compile(r"^[A-Za-z][A-Za-z0-9_.\-]*$")

_PLACE = re.compile(rf"^@(-?\d+),(-?\d+){_FACING}$")
_RESERVE = re.compile(rf"^in@(-?\d+),(-?\d+){_FACING}$")
_SPEED = re.compile(r"^S(\d+)$")
_ALTITUDE_LEVEL = re.compile(r"^A(\d+)$")
_CHOOSE = re.compile(r"^M(\d+)((?:~[^~\s]+)*)$")
_THROTTLE = re.compile(r"^T([+-]?\d+)$")
_ALTITUDE = re.compile(r"^A([+-]?\d+)$")
_PLAN = re.compile(r"^([LR])?(\d+(?:\+\d+)*)f(-?\d+(?:,-?\d+)*)$")
_HOVER = re.compile(rf"^hover:{_FACING}$")
_TAXI = re.compile(rf"^taxi:{_FACING},(\d+),{_FACING}$")
_DROP = re.compile(r"^drop(?::(\d+))?$")
_STEER = re.compile(r"^steer(?::(\d+)([LRS]))?$")
_SHOT = re.compile(rf"^(?P<weapon>[A-Za-z0-9_]+)(?:#(?P<index>\d+))?(?:>(?P<target>[^@]+?))?"
                   rf"(?:@(?P<q>-?\d+),(?P<r>-?\d+)(?P<facing>{_FACING[1:-1]})?)?(?:\+(?P<hexes>\d+))?$")
_TURN_MARKER = re.compile(r"^(\d+)\.+$")

#: Verbs with no arguments, and the command each makes.
_BARE_VERBS = {"rolloff": RollOff, "pass": PassFiring, "go": ActivateAircraft, "straight": ManoeuvrePlan,
               "land": Land, "boost": RocketBoostOut, "takeoff": TakeOff, "keep": AcceptRoll,
               "reroll": UseReroll}
_KEYWORDS = frozenset({*_BARE_VERBS, "first", "fire", "launch"})
_PATTERNS = (_PLACE, _RESERVE, _CHOOSE, _THROTTLE, _ALTITUDE, _PLAN, _HOVER, _TAXI, _DROP, _STEER,
             _TURN_MARKER)

#: What each subject kind may do.
PLAYER_COMMANDS = (RollOff, ChooseFirstMover, PassFiring)
WEAPON_COMMANDS = (SteerAutonomous,)


class _WordError(Exception):
    """Raised inside the reader at the word at fault; :func:`read_step` turns it into a
    :class:`~aero_events.core.interface.NotationError` naming that word's index."""

    def __init__(self, message: str, word: Any = None):
        super().__init__(message)
        self.message = message
        self.word = word


# ---------------------------------------------------------------- small pieces


def hex_text(hex: Any) -> str:
    return f"{hex[0]},{hex[1]}"


def facing_text(facing: int) -> str:
    return FACINGS[facing]


def facing_value(name: str) -> int:
    return FACINGS.index(name)


def pose_text(hex: Any, facing: int) -> str:
    """``4,-2NW``: a hex and a facing."""
    return f"{hex_text(hex)}{facing_text(facing)}"


def is_turn_marker(word: str) -> int | None:
    """The turn number of a marker like ``3.`` (or ``3...``), else None."""
    match = _TURN_MARKER.match(word)
    return int(match.group(1)) if match else None


def looks_like_verb(word: str) -> bool:
    """Whether an unquoted word would be read as a verb (so a subject spelled so must be quoted)."""
    return word in _KEYWORDS or any(pattern.match(word) for pattern in _PATTERNS)


def subject_text(subject: str) -> str:
    """A subject as written: bare when it is a plain word no verb looks like, quoted otherwise."""
    if _PLAIN_ID.match(subject) and not looks_like_verb(subject):
        return subject
    return quote_word(subject)


def _id_text(identifier: str) -> str:
    return identifier if _PLAIN_ID.match(identifier) else quote_word(identifier)


# ---------------------------------------------------------------- dice

#: Purpose prefixes (as the rules word them) and the labels a record uses.
_DICE_LABELS = (
    ("set-up roll-off", "rolloff"), ("initiative", "init"), ("to hit", "hit"), ("damage", "dmg"),
    ("crash", "crash"), ("breaking up", "breakup"), ("stall recovery", "stall"), ("spin recovery", "spin"),
    ("facing after spin", "facing"), ("weather", "weather"), ("cloud cover", "cloud"),
    ("reserve arrival", "reserve"), ("bomb creep", "creep"), ("autonomous weapon", "auto"),
    ("occupied hex", "occupied"), ("jump troops", "jump"), ("ejector seats", "eject"),
)


def dice_label(purpose: str) -> str:
    """The one-word label of a roll's purpose: ``hit`` for "to hit: imperium-1 Twin Lascannons at orks-2",
    ``init`` for "initiative"; an upgrade's roll ("armoured_cockpit for imperium-1") is labelled by the
    upgrade; anything else by its first words, slugged."""
    text = purpose.strip().lower()
    for prefix, label in _DICE_LABELS:
        if text.startswith(prefix):
            return label
    head = text.split(":")[0].split(" for ")[0].split(" on ")[0]
    return re.sub(r"[^a-z0-9_]+", "-", head).strip("-") or "roll"


# ---------------------------------------------------------------- result marks


def result_marks(events: Iterable[Event], subject: str | None) -> list[str]:
    """The facts worth showing after a step (see the module notes), in the order they happened."""
    marks: list[str] = []

    def mark(aircraft: str, body: str, separator: str = ":") -> None:
        marks.append("=" + (body if aircraft == subject else f"{_id_text(aircraft)}{separator}{body}"))

    for event in events:
        match event:
            case ev.ManoeuvreFlown(aircraft=aircraft, hex=hex, facing=facing) | ev.Taxied(
                    aircraft=aircraft, hex=hex, facing=facing):
                mark(aircraft, "@" + pose_text(hex, facing), "")
            case ev.DamageSuffered(aircraft=aircraft, hits=hits):
                mark(aircraft, f"-{hits}")
            case ev.AircraftDestroyed(aircraft=aircraft):
                mark(aircraft, "X")
            case ev.Stalled(aircraft=aircraft):
                mark(aircraft, "stall")
            case ev.SpinEntered(aircraft=aircraft):
                mark(aircraft, "spin")
            case ev.AircraftDisengaged(aircraft=aircraft):
                mark(aircraft, "out")
            case ev.GameEnded(winner=winner):
                marks.append(f"=end:{_id_text(winner) if winner else 'draw'}")
    return marks


# ---------------------------------------------------------------- writing a step


def _weapon_text(weapons: Sequence[str], index: int) -> str:
    weapon = weapons[index] if 0 <= index < len(weapons) else f"weapon{index}"
    return weapon if weapons.count(weapon) == 1 else f"{weapon}#{index}"


def shot_text(weapons: Sequence[str], shot: Shot) -> str:
    """One shot of a volley: ``twin_lascannons>orks-2``, ``skystrike_missiles#3>orks-1``,
    ``krak_bomb#2@4,5NE+3`` (an Autonomous weapon placed)."""
    text = _weapon_text(weapons, shot.weapon_index)
    if shot.target is not None:
        text += ">" + _id_text(shot.target)
    if shot.hex is not None:
        text += "@" + hex_text(shot.hex) + (facing_text(shot.facing) if shot.facing is not None else "")
    if shot.hexes is not None:
        text += f"+{shot.hexes}"
    return text


def command_subject(command: Command) -> str:
    """Who a step names: the aircraft, the Autonomous weapon, or the player."""
    if isinstance(command, PLAYER_COMMANDS):
        return command.player
    if isinstance(command, SteerAutonomous):
        return command.weapon
    return command.aircraft  # type: ignore[attr-defined]


def step_words(command: Command, state: Any, salts: Sequence[str] = ()) -> list[str]:
    """The verb and arguments of ``command`` (without its subject), as words.

    ``state`` is the state the command is given in (the firing aircraft's weapons are read from it);
    ``salts`` are written after a manoeuvre token (``M7~salt``) when the record cannot derive them.
    """
    match command:
        case RollOff():
            return ["rolloff"]
        case PlaceAircraft(hex=hex, facing=facing, speed=speed, altitude=altitude):
            return [f"@{pose_text(hex, facing)}", f"S{speed}", f"A{altitude}"]
        case PlaceReserve(hex=hex, facing=facing, altitude=altitude):
            return [f"in@{pose_text(hex, facing)}", f"A{altitude}"]
        case ChooseManoeuvre(manoeuvre=manoeuvre):
            return [f"M{manoeuvre}" + "".join(f"~{salt}" for salt in salts)]
        case ChooseFirstMover(first=first):
            return ["first", subject_text(first)]
        case ActivateAircraft():
            return ["go"]
        case SetThrottle(change=change):
            return [f"T{change:+d}" if change else "T0"]
        case ManoeuvrePlan(side=side, stage_hexes=stage_hexes, facings=facings):
            if not stage_hexes and not facings and side is None:
                return ["straight"]
            side_text = {"left": "L", "right": "R", None: ""}[side]
            return [f"{side_text}{'+'.join(map(str, stage_hexes))}f{','.join(map(str, facings))}"]
        case Hover(facing=facing):
            return [f"hover:{facing_text(facing)}"]
        case AdjustAltitude(change=change):
            return [f"A{change:+d}" if change else "A0"]
        case Land():
            return ["land"]
        case RocketBoostOut():
            return ["boost"]
        case Taxi(facing_before=before, hexes=hexes, facing_after=after):
            return [f"taxi:{facing_text(before)},{hexes},{facing_text(after)}"]
        case TakeOff():
            return ["takeoff"]
        case DropJumpTroops(points=points):
            return ["drop" if points is None else f"drop:{points}"]
        case FireWeapons(aircraft=aircraft, shots=shots):
            weapons = list(state.aircraft[aircraft].weapons)
            return ["fire", *(shot_text(weapons, shot) for shot in shots)]
        case LaunchAutonomous(aircraft=aircraft, shot=shot):
            return ["launch", shot_text(list(state.aircraft[aircraft].weapons), shot)]
        case AcceptRoll():
            return ["keep"]
        case UseReroll():
            return ["reroll"]
        case PassFiring():
            return ["pass"]
        case SteerAutonomous(turn_at=turn_at, turn=turn):
            if not turn_at and not turn:
                return ["steer"]
            return [f"steer:{turn_at}{ {-1: 'L', 1: 'R', 0: 'S'}[turn] }"]
    raise ValueError(f"the notation has no step for {type(command).__name__}")


def step_text(command: Command, state: Any, *, with_subject: bool = True, salts: Sequence[str] = ()) -> str:
    """A whole step as one string: ``imperium-1 L1+2f1,0``."""
    words = step_words(command, state, salts)
    if with_subject:
        words = [subject_text(command_subject(command)), *words]
    return " ".join(words)


# ---------------------------------------------------------------- reading a step


def _subject_kind(state: Any, name: str) -> str | None:
    if name in state.aircraft:
        return "aircraft"
    if name in state.players:
        return "player"
    if name in getattr(state, "autonomous", {}):
        return "weapon"
    return None


def _known(state: Any) -> str:
    names = list(state.players) + list(state.aircraft)
    return ", ".join(names)


def read_step(tokens: Sequence[Any], start: int, state: Any, subject: str | None) -> NotationStep:
    """Read one step from the words at ``tokens[start:]`` in ``state`` (each word has ``value`` and
    ``quoted``, like a record's tokens); ``subject`` is the one to use when the step names none (the previous
    step's, or the aircraft whose move it is). ``end`` and ``verb`` of the result index ``tokens``.

    Raises :class:`~aero_events.core.interface.NotationError` at the word that cannot be read (an unknown
    aircraft, a malformed verb). Whether the command is legal is for the rules to say when it is applied.
    """
    try:
        return _read_step(tokens, start, state, subject)
    except _WordError as err:
        index = next((i for i, token in enumerate(tokens) if token is err.word), None)
        raise NotationError(err.message, index) from None


def _is_word(token: Any) -> bool:
    """A word of the step (a record hands only words; a token of another kind ends the step)."""
    return getattr(token, "kind", "word") == "word"


def _read_step(tokens: Sequence[Any], start: int, state: Any, subject: str | None) -> NotationStep:
    index = start
    token = tokens[index]
    if token.quoted or (not looks_like_verb(token.value) and _subject_kind(state, token.value) is not None):
        if _subject_kind(state, token.value) is None:
            raise _WordError(f"no aircraft, player or weapon {token.value!r} in this game "
                                f"(known: {_known(state)})", token)
        subject = token.value
        index += 1
        if index >= len(tokens) or not _is_word(tokens[index]):
            raise _WordError(f"{subject} does what? a step names a verb after its subject, like "
                                f"'{subject_text(subject)} go'", token)
    elif not looks_like_verb(token.value):
        if _PLAIN_ID.match(token.value) and re.search(r"\d", token.value):
            raise _WordError(f"no aircraft, player or weapon {token.value!r} in this game "
                                f"(known: {_known(state)})", token)
        raise _WordError(f"cannot read {token.value!r} as a step (see aero_events/rulesets/aeronautica/notation.py)", token)
    verb = tokens[index]
    if subject is None:
        raise _WordError(f"{verb.value!r}: whose step is it? name the aircraft or player first", verb)
    kind = _subject_kind(state, subject)
    if kind is None:
        raise _WordError(f"no aircraft, player or weapon {subject!r} in this game (known: {_known(state)})",
                            verb)
    command, salts, end = _verb(tokens, index, state, subject, kind)
    return NotationStep(command=command, subject=subject, salts=salts, end=end, verb=index)


def _player_of(state: Any, subject: str, kind: str) -> str:
    if kind == "player":
        return subject
    if kind == "weapon":
        return state.autonomous[subject].owner
    return state.aircraft[subject].owner


def _need(kind: str, wanted: str, subject: str, verb: Any) -> None:
    if kind != wanted:
        raise _WordError(f"{verb.value!r} is a step for {_a(wanted)}; {subject} is {_a(kind)}", verb)


def _a(noun: str) -> str:
    return ("an " if noun[0] in "aeiou" else "a ") + noun


def _next_word(tokens: Sequence[Any], index: int, what: str, after: Any) -> Any:
    if index >= len(tokens) or not _is_word(tokens[index]):
        raise _WordError(f"{after.value!r} needs {what} after it", after)
    return tokens[index]


def _verb(tokens: Sequence[Any], index: int, state: Any, subject: str, kind: str
          ) -> tuple[Command, tuple[str, ...], int]:
    verb = tokens[index]
    word = verb.value if not verb.quoted else ""
    player = _player_of(state, subject, kind)
    if word in _BARE_VERBS:
        cls = _BARE_VERBS[word]
        if cls in PLAYER_COMMANDS:
            _need(kind, "player", subject, verb)
            return cls(player=player), (), index + 1
        _need(kind, "aircraft", subject, verb)
        return cls(player=player, aircraft=subject), (), index + 1
    if word == "first":
        _need(kind, "player", subject, verb)
        chosen = _next_word(tokens, index + 1, "the player who moves first", verb)
        if chosen.value not in state.players:
            raise _WordError(f"{chosen.value!r} is not a player of this game ({', '.join(state.players)})",
                                chosen)
        return ChooseFirstMover(player=player, first=chosen.value), (), index + 2
    if word == "fire":
        _need(kind, "aircraft", subject, verb)
        shots = []
        end = index + 1
        while end < len(tokens) and _is_word(tokens[end]) and _is_shot(tokens[end]):
            shots.append(_read_shot(tokens[end], state, subject))
            end += 1
        return FireWeapons(player=player, aircraft=subject, shots=tuple(shots)), (), end
    if word == "launch":
        _need(kind, "aircraft", subject, verb)
        shot_token = _next_word(tokens, index + 1, "the weapon placed, like krak_bomb#2@4,5NE+3", verb)
        return (LaunchAutonomous(player=player, aircraft=subject, shot=_read_shot(shot_token, state, subject)), (),
                index + 2)
    if match := _PLACE.match(word):
        _need(kind, "aircraft", subject, verb)
        speed_token = _next_word(tokens, index + 1, "the Speed chosen, like S4", verb)
        altitude_token = _next_word(tokens, index + 2, "the Speed and the Altitude chosen, like S4 A3", verb)
        speed = _SPEED.match(speed_token.value)
        if not speed:
            raise _WordError(f"{speed_token.value!r}: the Speed the aircraft is set up at, like S4",
                                speed_token)
        altitude = _ALTITUDE_LEVEL.match(altitude_token.value)
        if not altitude:
            raise _WordError(f"{altitude_token.value!r}: the Altitude it is set up at, like A3", altitude_token)
        return (PlaceAircraft(player=player, aircraft=subject, hex=Hex(int(match[1]), int(match[2])),
                              facing=facing_value(match[3]), speed=int(speed[1]), altitude=int(altitude[1])),
                (), index + 3)
    if match := _RESERVE.match(word):
        _need(kind, "aircraft", subject, verb)
        altitude_token = _next_word(tokens, index + 1, "the Altitude chosen, like A3", verb)
        altitude = _ALTITUDE_LEVEL.match(altitude_token.value)
        if not altitude:
            raise _WordError(f"{altitude_token.value!r}: the Altitude the reserve enters at, like A3",
                                altitude_token)
        return (PlaceReserve(player=player, aircraft=subject, hex=Hex(int(match[1]), int(match[2])),
                             facing=facing_value(match[3]), altitude=int(altitude[1])), (), index + 2)
    if match := _CHOOSE.match(word):
        _need(kind, "aircraft", subject, verb)
        salts = tuple(salt for salt in match[2].split("~") if salt)
        return ChooseManoeuvre(player=player, aircraft=subject, manoeuvre=int(match[1])), salts, index + 1
    if match := _THROTTLE.match(word):
        _need(kind, "aircraft", subject, verb)
        return SetThrottle(player=player, aircraft=subject, change=int(match[1])), (), index + 1
    if match := _ALTITUDE.match(word):
        _need(kind, "aircraft", subject, verb)
        return AdjustAltitude(player=player, aircraft=subject, change=int(match[1])), (), index + 1
    if match := _PLAN.match(word):
        _need(kind, "aircraft", subject, verb)
        side = {"L": "left", "R": "right", None: None}[match[1]]
        return (ManoeuvrePlan(player=player, aircraft=subject, side=side,
                              stage_hexes=tuple(int(n) for n in match[2].split("+")),
                              facings=tuple(int(n) for n in match[3].split(","))), (), index + 1)
    if match := _HOVER.match(word):
        _need(kind, "aircraft", subject, verb)
        return Hover(player=player, aircraft=subject, facing=facing_value(match[1])), (), index + 1
    if match := _TAXI.match(word):
        _need(kind, "aircraft", subject, verb)
        return (Taxi(player=player, aircraft=subject, facing_before=facing_value(match[1]), hexes=int(match[2]),
                     facing_after=facing_value(match[3])), (), index + 1)
    if match := _DROP.match(word):
        _need(kind, "aircraft", subject, verb)
        points = int(match[1]) if match[1] else None
        return DropJumpTroops(player=player, aircraft=subject, points=points), (), index + 1
    if match := _STEER.match(word):
        _need(kind, "weapon", subject, verb)
        turn_at, turn = (int(match[1]), {"L": -1, "R": 1, "S": 0}[match[2]]) if match[1] else (0, 0)
        return SteerAutonomous(player=player, weapon=subject, turn_at=turn_at, turn=turn), (), index + 1
    raise _WordError(f"cannot read {verb.value!r} as a step (see aero_events/rulesets/aeronautica/notation.py)", verb)


def _is_shot(token: Any) -> bool:
    return bool(_SHOT.match(token.value)) and any(mark in token.value for mark in "#>@") \
        and not token.value.startswith("=")


def _read_shot(token: Any, state: Any, firer: str) -> Shot:
    match = _SHOT.match(token.value)
    if not match or not any(mark in token.value for mark in "#>@"):
        raise _WordError(f"{token.value!r}: a shot is a weapon and its target, like twin_lascannons>orks-2",
                            token)
    weapons = list(state.aircraft[firer].weapons)
    weapon = match["weapon"]
    if match["index"] is not None:
        index = int(match["index"])
        if not 0 <= index < len(weapons) or weapons[index] != weapon:
            carried = weapons[index] if 0 <= index < len(weapons) else "nothing"
            raise _WordError(f"{firer}'s weapon #{index} is {carried}, not {weapon} "
                                f"(it carries: {', '.join(f'{w}#{i}' for i, w in enumerate(weapons))})", token)
    else:
        found = [i for i, carried in enumerate(weapons) if carried == weapon]
        if not found:
            raise _WordError(f"{firer} carries no {weapon} (it carries: {', '.join(weapons)})", token)
        if len(found) > 1:
            raise _WordError(f"{firer} carries {len(found)} {weapon}: say which, "
                                + " or ".join(f"{weapon}#{i}" for i in found), token)
        index = found[0]
    target = match["target"]
    hex = Hex(int(match["q"]), int(match["r"])) if match["q"] is not None else None
    facing = facing_value(match["facing"]) if match["facing"] else None
    hexes = int(match["hexes"]) if match["hexes"] is not None else None
    return Shot(weapon_index=index, target=target, hex=hex, facing=facing, hexes=hexes)


# ---------------------------------------------------------------- the ruleset's Notation

class _Word:
    """One typed word: its text (quotes resolved) and whether it was quoted."""

    def __init__(self, value: str, quoted: bool):
        self.value = value
        self.quoted = quoted


def typed_words(text: str) -> list[_Word]:
    """The words of one typed line: white space outside double quotes separates them; ``"..."`` keeps white
    space inside a word (``fire lascannon>"Red One"``), with ``\\"`` and ``\\\\`` as escapes."""
    words: list[_Word] = []
    value: list[str] = []
    quoted = in_quotes = started = False
    escape = False
    for char in text:
        if escape:
            value.append(char)
            escape = False
        elif in_quotes and char == "\\":
            escape = True
        elif char == '"':
            in_quotes, quoted, started = not in_quotes, True, True
        elif char.isspace() and not in_quotes:
            if started:
                words.append(_Word("".join(value), quoted))
            value, quoted, started = [], False, False
        else:
            value.append(char)
            started = True
    if started:
        words.append(_Word("".join(value), quoted))
    return words


class AeronauticaNotation(Notation):
    """The notation above as the ruleset's :class:`~aero_events.core.interface.Notation`: what ``aero
    record`` lists and reads, and what the ``.aero`` record writes (steps, dice labels, result marks, turn
    markers from the first turn on)."""

    def format(self, state: Any, command: Any) -> str:
        return step_text(command, state)

    def parse(self, state: Any, player: str, text: str) -> Any:
        words = typed_words(text)
        if not words:
            raise RuleError("an empty step", rule="Notation")
        try:
            step = read_step(words, 0, state, None)
        except NotationError as err:
            raise RuleError(err.message, rule="Notation") from err
        if step.end != len(words):
            raise RuleError(f"{words[step.end].value!r}: one step at a time", rule="Notation")
        if step.command.player != player:
            raise RuleError(f"{text.strip()!r} is {step.command.player}'s step, not {player}'s", rule="Notation")
        return step.command

    def help(self) -> str:
        doc = __doc__ or ""
        return doc[doc.index("====="):doc.rindex("=====") + 5] if "=====" in doc else doc

    def subject(self, command: Any) -> str | None:
        return command_subject(command)

    def words(self, state: Any, command: Any, *, with_subject: bool = True, salts: Sequence[str] = ()) -> list[str]:
        words = step_words(command, state, salts)
        return [subject_text(command_subject(command)), *words] if with_subject else words

    def read(self, state: Any, words: Sequence[Any], subject: str | None = None) -> NotationStep:
        return read_step(words, 0, state, subject)

    def dice_label(self, purpose: str) -> str:
        return dice_label(purpose)

    def marks(self, events: Sequence[Any], subject: str | None) -> list[str]:
        return result_marks(events, subject)

    def turn(self, state: Any) -> int | None:
        """No turn is marked during the set-up (p.34); the first marker is ``1.``."""
        return None if state.phase == SET_UP else state.turn
