"""Warhammer Fantasy flying-rules commands as players write them (``aero record``, the ``.aero`` record format).

One command a line; units by their ids, as the narration names them; lengths in inches (``4in``, ``4"`` or a bare
``4``), headings in degrees on the table (``towards 90``, ``facing 45.5``)::

    n-pegasi vanguard 8in towards 90              Special Rules: Vanguard, a normal move on the ground
    n-pegasi vanguard takes off                   ... or the Take Off
    end vanguard                                  the player has made its Vanguard moves
    n-spears moves 4in towards 90                 host Movement: turn to the heading, then move
    n-spears marches 8in towards 90               ... a march (up to twice M)
    n-spears reforms 5 files facing 180           host Movement: a reform instead of moving
    s-wyvern takes off [then flies 6in towards 90]  Take Off, then a Fly move in the air
    s-wyvern moves 6in towards 90 then takes off  Take Off after a ground move ("in either order")
    s-harpies lands [then moves 4in towards 0]    Land, then a ground move
    s-harpies flies 4in towards 0 then lands      Land after a Fly move
    s-harpies flies 10in towards 45 [in 5 files] [joining s-wyvern]  Fly ("Unit reform is allowed", joining)
    s-harpies soars 20in towards 45               Soar (2M)
    s-harpies flies high                          Fly High: the unit leaves the battle
    s-spears charges n-spears                     host charge on the ground
    n-pegasi intercepts s-harpies                 Intercept: an air-to-air charge
    n-pegasi swoops on the left flank of s-spears Swoop: an air-to-ground charge onto a flank
    hold | stand and shoot | flee                 the charged unit's reaction
    challenge with n-captain | no challenge       host Challenges: the question put to the player
    accept with s-wyvern | refuse                 ... and the answer to a challenge
    n-archers shoots at s-harpies                 Shooting Phase
    n-wizard casts arcane_dart at s-wyvern        Magic Phase: the spell's id (data/lore.json)
    n-captain leaves its unit 4in towards 90      host: a character leaves the unit it joined
    end phase                                     end the phase

Lengths and headings are written as the shortest decimal that reads back as the very same table units (1/100
mm, 1/100 degree), so a written command is the command. Reading is by shape only: whether the command is legal
is for the rules to say when it is applied.
"""

from __future__ import annotations

from typing import Any

from aero_events.core import RuleError
from aero_events.core.interface import Notation
from aero_events.core.orders import reaction_choices
from aero_events.core.table_words import heading_text, length_text, read_heading, read_length

from . import commands as c
from .charges import FLEE, HOLD, STAND_AND_SHOOT
from .combat import NO_CHALLENGE, REFUSE

_GRAMMAR = (
    "<unit> vanguard [takes off] [<length> towards <degrees>]",
    "end vanguard",
    "<unit> moves|marches <length> towards <degrees>",
    "<unit> reforms <n> files facing <degrees>",
    "<unit> takes off [then flies <length> towards <degrees>]",
    "<unit> moves <length> towards <degrees> then takes off",
    "<unit> lands [then moves <length> towards <degrees>]",
    "<unit> flies <length> towards <degrees> then lands",
    "<unit> flies|soars <length> towards <degrees> [in <n> files] [joining <unit>]",
    "<unit> flies high",
    "<unit> charges|intercepts <target>",
    "<unit> swoops on the left|right flank of <target>",
    "the charged unit's reaction: hold, stand and shoot, flee",
    "a challenge: challenge with <character>, no challenge, accept with <character>, refuse",
    "<unit> shoots at <target>",
    "<wizard> casts <spell> at <target>",
    "<character> leaves its unit <length> towards <degrees>",
    "end phase",
)

#: Reactions the rules may offer whatever the state (the charged unit's; the challenge answers without a name).
_REACTIONS = {HOLD, STAND_AND_SHOOT, FLEE, NO_CHALLENGE, REFUSE}
_NAMED_REACTIONS = ("challenge with ", "accept with ")



def _whole(word: str, what: str) -> int:
    if not word.isdigit():
        raise RuleError(f"{what} is a whole number, not {word!r}", rule="Notation")
    return int(word)


def _move_text(distance: int, heading: int) -> str:
    return f"{length_text(distance)} towards {heading_text(heading)}"


class WhfbFlyingNotation(Notation):
    """``n-spears moves 4in towards 90``, ``n-pegasi swoops on the left flank of s-spears``, ``hold``: see the
    module's table."""

    def format(self, state: Any, command: Any) -> str:
        if isinstance(command, c.VanguardMove):
            text = f"{command.unit} vanguard" + (" takes off" if command.take_off else "")
            if command.distance or command.heading:
                text += " " + _move_text(command.distance, command.heading)
            return text
        if isinstance(command, c.EndVanguard):
            return "end vanguard"
        if isinstance(command, c.Move):
            verb = "marches" if command.march else "moves"
            return f"{command.unit} {verb} {_move_text(command.distance, command.heading)}"
        if isinstance(command, c.Reform):
            return f"{command.unit} reforms {command.files} files facing {heading_text(command.heading)}"
        if isinstance(command, c.TakeOff):
            move = _move_text(command.distance, command.heading)
            if command.ground_first:
                return f"{command.unit} moves {move} then takes off"
            return f"{command.unit} takes off" + (f" then flies {move}" if command.distance or command.heading else "")
        if isinstance(command, c.Land):
            move = _move_text(command.distance, command.heading)
            if command.ground_first:
                return f"{command.unit} lands then moves {move}"
            return f"{command.unit} flies {move} then lands" if command.distance or command.heading else \
                f"{command.unit} lands"
        if isinstance(command, (c.Fly, c.Soar)):
            verb = "flies" if isinstance(command, c.Fly) else "soars"
            text = f"{command.unit} {verb} {_move_text(command.distance, command.heading)}"
            text += f" in {command.files} files" if command.files else ""
            return text + (f" joining {command.join}" if command.join else "")
        if isinstance(command, c.FlyHigh):
            return f"{command.unit} flies high"
        if isinstance(command, c.Charge):
            return f"{command.unit} charges {command.target}"
        if isinstance(command, c.Intercept):
            return f"{command.unit} intercepts {command.target}"
        if isinstance(command, c.Swoop):
            return f"{command.unit} swoops on the {command.flank} flank of {command.target}"
        if isinstance(command, c.React):
            return command.choice
        if isinstance(command, c.Shoot):
            return f"{command.unit} shoots at {command.target}"
        if isinstance(command, c.CastSpell):
            return f"{command.unit} casts {command.spell} at {command.target}"
        if isinstance(command, c.LeaveUnit):
            return f"{command.unit} leaves its unit {_move_text(command.distance, command.heading)}"
        if isinstance(command, c.EndPhase):
            return "end phase"
        raise TypeError(f"{type(command).__name__} is not a command of the Warhammer flying rules")

    def parse(self, state: Any, player: str, text: str) -> Any:
        words = text.split()
        if not words:
            raise RuleError("an empty command; " + self.help(), rule="Notation")
        said = " ".join(words)
        if _is_reaction(state, player, said):
            return c.React(player=player, choice=said)
        if words == ["end", "vanguard"]:
            return c.EndVanguard(player=player)
        if words == ["end", "phase"]:
            return c.EndPhase(player=player)
        if len(words) >= 2 and words[1] in _VERBS:
            return _VERBS[words[1]](player, words[0], words[2:], text)
        verb = words[1] if len(words) >= 2 else words[0]
        raise RuleError(f"cannot read {verb!r} in {said!r}; " + self.help(), rule="Notation")

    def subject(self, command: Any) -> str | None:
        """The unit a command is about (None for a reaction or ending a phase)."""
        return getattr(command, "unit", None)

    def help(self) -> str:
        return ("Warhammer flying-rules commands (lengths in inches, headings in degrees): " + "; ".join(_GRAMMAR)
                + ".")


def _is_reaction(state: Any, player: str, said: str) -> bool:
    """Whether ``said`` answers a reaction window: one the rules offer now, or one they may offer."""
    if said in _REACTIONS or said.startswith(_NAMED_REACTIONS):
        return True
    reactions = getattr(state, "reactions", None)
    return reactions is not None and said in reaction_choices(reactions, player)


def _shape(text: str, shape: str) -> RuleError:
    return RuleError(f"cannot read {' '.join(text.split())!r}: it is written '{shape}'", rule="Notation")


def _move(rest: list[str], text: str, shape: str) -> tuple[int, int]:
    """``<length> towards <degrees>`` as (distance, heading)."""
    if len(rest) != 3 or rest[1] != "towards":
        raise _shape(text, shape)
    return read_length(rest[0]), read_heading(rest[2])


def _vanguard(player: str, unit: str, rest: list[str], text: str) -> c.VanguardMove:
    shape = "<unit> vanguard [takes off] [<length> towards <degrees>]"
    take_off = rest[:2] == ["takes", "off"]
    rest = rest[2:] if take_off else rest
    distance, heading = _move(rest, text, shape) if rest else (0, 0)
    return c.VanguardMove(player=player, unit=unit, heading=heading, distance=distance, take_off=take_off)


def _moves(player: str, unit: str, rest: list[str], text: str) -> c.Move | c.TakeOff:
    shape = "<unit> moves <length> towards <degrees> [then takes off]"
    if rest[3:] == ["then", "takes", "off"]:
        distance, heading = _move(rest[:3], text, shape)
        return c.TakeOff(player=player, unit=unit, heading=heading, distance=distance, ground_first=True)
    distance, heading = _move(rest, text, shape)
    return c.Move(player=player, unit=unit, heading=heading, distance=distance)


def _marches(player: str, unit: str, rest: list[str], text: str) -> c.Move:
    distance, heading = _move(rest, text, "<unit> marches <length> towards <degrees>")
    return c.Move(player=player, unit=unit, heading=heading, distance=distance, march=True)


def _reforms(player: str, unit: str, rest: list[str], text: str) -> c.Reform:
    if len(rest) != 4 or rest[1:3] != ["files", "facing"]:
        raise _shape(text, "<unit> reforms <n> files facing <degrees>")
    return c.Reform(player=player, unit=unit, heading=read_heading(rest[3]),
                    files=_whole(rest[0], "the number of files"))


def _takes(player: str, unit: str, rest: list[str], text: str) -> c.TakeOff:
    shape = "<unit> takes off [then flies <length> towards <degrees>]"
    if rest == ["off"]:
        return c.TakeOff(player=player, unit=unit)
    if rest[:3] != ["off", "then", "flies"]:
        raise _shape(text, shape)
    distance, heading = _move(rest[3:], text, shape)
    return c.TakeOff(player=player, unit=unit, heading=heading, distance=distance)


def _lands(player: str, unit: str, rest: list[str], text: str) -> c.Land:
    shape = "<unit> lands [then moves <length> towards <degrees>]"
    if not rest:
        return c.Land(player=player, unit=unit)
    if rest[:2] != ["then", "moves"]:
        raise _shape(text, shape)
    distance, heading = _move(rest[2:], text, shape)
    return c.Land(player=player, unit=unit, heading=heading, distance=distance, ground_first=True)


def _in_the_air(kind: type, verb: str):
    """Fly or Soar, with its reform and joining; ``flies`` also reads Fly High and a Fly move then Land."""

    def in_the_air(player: str, unit: str, rest: list[str], text: str):
        shape = f"<unit> {verb} <length> towards <degrees> [in <n> files] [joining <unit>]"
        if kind is c.Fly and rest == ["high"]:
            return c.FlyHigh(player=player, unit=unit)
        if kind is c.Fly and rest[3:] == ["then", "lands"]:
            distance, heading = _move(rest[:3], text, "<unit> flies <length> towards <degrees> then lands")
            return c.Land(player=player, unit=unit, heading=heading, distance=distance)
        distance, heading = _move(rest[:3], text, shape)
        rest = rest[3:]
        files, join = 0, ""
        if rest[:1] == ["in"] and rest[2:3] == ["files"]:
            files, rest = _whole(rest[1], "the number of files"), rest[3:]
        if rest[:1] == ["joining"] and len(rest) >= 2:
            join, rest = rest[1], rest[2:]
        if rest:
            raise RuleError(f"cannot read {rest[0]!r} in {' '.join(text.split())!r}: it is written '{shape}'",
                            rule="Notation")
        return kind(player=player, unit=unit, heading=heading, distance=distance, files=files, join=join)

    return in_the_air


def _at_target(kind: type, verb: str):
    def at_target(player: str, unit: str, rest: list[str], text: str):
        if len(rest) != 1:
            raise _shape(text, f"<unit> {verb} <target>")
        return kind(player=player, unit=unit, target=rest[0])

    return at_target


def _swoops(player: str, unit: str, rest: list[str], text: str) -> c.Swoop:
    if len(rest) != 6 or rest[:2] != ["on", "the"] or rest[3:5] != ["flank", "of"]:
        raise _shape(text, "<unit> swoops on the left|right flank of <target>")
    return c.Swoop(player=player, unit=unit, target=rest[5], flank=rest[2])


def _shoots(player: str, unit: str, rest: list[str], text: str) -> c.Shoot:
    if len(rest) != 2 or rest[0] != "at":
        raise _shape(text, "<unit> shoots at <target>")
    return c.Shoot(player=player, unit=unit, target=rest[1])


def _casts(player: str, unit: str, rest: list[str], text: str) -> c.CastSpell:
    if len(rest) != 3 or rest[1] != "at":
        raise _shape(text, "<wizard> casts <spell> at <target>")
    return c.CastSpell(player=player, unit=unit, target=rest[2], spell=rest[0])


def _leaves(player: str, unit: str, rest: list[str], text: str) -> c.LeaveUnit:
    shape = "<character> leaves its unit <length> towards <degrees>"
    if rest[:2] != ["its", "unit"]:
        raise _shape(text, shape)
    distance, heading = _move(rest[2:], text, shape)
    return c.LeaveUnit(player=player, unit=unit, heading=heading, distance=distance)


_VERBS = {"vanguard": _vanguard, "moves": _moves, "marches": _marches, "reforms": _reforms, "takes": _takes,
          "lands": _lands, "flies": _in_the_air(c.Fly, "flies"), "soars": _in_the_air(c.Soar, "soars"),
          "charges": _at_target(c.Charge, "charges"), "intercepts": _at_target(c.Intercept, "intercepts"),
          "swoops": _swoops, "shoots": _shoots, "casts": _casts, "leaves": _leaves}
