"""Million-Colored Sun commands as players write them (``aero record``, the ``.aero`` record format).

One command a line; models by their ids, as the narration names them; lengths in inches (``3in``, ``3"`` or a
bare ``3``), headings in degrees on the table (``towards 90``, ``facing 45.5``)::

    azure-bomber action lock-on                     AIRBORNE ACTIONS (EVADE, LOCK-ON, RECOVER, ...)
    azure-wyvern action shift-mode to fly           SHIFT MOVEMENT MODE: the new mode
    azure-fighter returns at 30in 0in facing 180    MOVING OFF THE BOARD: placed touching a board edge
    azure-fighter flies cruise-20                   AIRBORNE MOVEMENT: the manoeuvre's id (data/manoeuvres.json)
        ... pilot 3in towards 45                    PILOT INPUT: repositioned 3" along table heading 45
        ... bomb at 12.5in                          BOMBING RUN: the bomb dropped 12.5" along the flight path
    crimson-trooper-1 moves 5in towards 90          the host's ground or FLY move
    crimson-trooper-1 runs 8in towards 90           ... a run (a D6 more)
    azure-bomber shoots Tail Guns at crimson-gun    the host's shooting: the weapon by its warscroll name
    crimson-trooper-2 charges azure-gun             the host's charge (MAY NOT RUN OR DECLARE CHARGES)
    azure-wyvern fights crimson-trooper-3           the host's combat
    end phase                                       end the phase (in combat: fight no more)

Lengths and headings are written as the shortest decimal that reads back as the very same table units (1/100
mm, 1/100 degree), so a written command is the command. Reading is by shape only: whether the command is legal
is for the rules to say when it is applied.
"""

from __future__ import annotations

import re
from typing import Any

from aero_events.core import RuleError
from aero_events.core.interface import Notation
from aero_events.core.table_words import heading_text, length_text, read_heading, read_length

from . import commands as c

_GRAMMAR = ("<model> action <action> [to <mode>]", "<model> returns at <x> <y> facing <degrees>",
            "<model> flies <manoeuvre> [pilot <length> [towards <degrees>]] [bomb at <length>]",
            "<model> moves|runs <length> towards <degrees>", "<model> shoots <weapon> at <target>",
            "<model> charges <target>", "<model> fights <target>", "end phase")

_SHOT = re.compile(r"(\S+)\s+shoots\s+(.+?)\s+at\s+(\S+)")


class MillionColoredSunNotation(Notation):
    """``azure-bomber action lock-on``, ``azure-fighter flies cruise-20 pilot 3in towards 45``, ``end phase``: see
    the module's table."""

    def format(self, state: Any, command: Any) -> str:
        if isinstance(command, c.ChooseAction):
            mode = f" to {command.mode}" if command.mode is not None else ""
            return f"{command.model} action {command.action}{mode}"
        if isinstance(command, c.PlaceReturning):
            return (f"{command.model} returns at {length_text(command.x)} {length_text(command.y)} "
                    f"facing {heading_text(command.heading)}")
        if isinstance(command, c.FlyManoeuvre):
            text = f"{command.model} flies {command.manoeuvre}"
            if command.pilot_heading is not None or command.pilot_distance:
                text += f" pilot {length_text(command.pilot_distance)}"
                if command.pilot_heading is not None:
                    text += f" towards {heading_text(command.pilot_heading)}"
            if command.bomb_at is not None:
                text += f" bomb at {length_text(command.bomb_at)}"
            return text
        if isinstance(command, c.MoveModel):
            verb = "runs" if command.run else "moves"
            return f"{command.model} {verb} {length_text(command.distance)} towards {heading_text(command.heading)}"
        if isinstance(command, c.Shoot):
            return f"{command.model} shoots {command.weapon} at {command.target}"
        if isinstance(command, c.DeclareCharge):
            return f"{command.model} charges {command.target}"
        if isinstance(command, c.Fight):
            return f"{command.model} fights {command.target}"
        if isinstance(command, c.EndPhase):
            return "end phase"
        raise TypeError(f"{type(command).__name__} is not a Million-Colored Sun command")

    def parse(self, state: Any, player: str, text: str) -> Any:
        words = text.split()
        if not words:
            raise RuleError("an empty command; " + self.help(), rule="Notation")
        if words == ["end", "phase"]:
            return c.EndPhase(player=player)
        if len(words) >= 2 and words[1] in _VERBS:
            return _VERBS[words[1]](player, words[0], words[2:], text)
        verb = words[1] if len(words) >= 2 else words[0]
        raise RuleError(f"cannot read {verb!r} in {text.strip()!r}; " + self.help(), rule="Notation")

    def subject(self, command: Any) -> str | None:
        """The model a command is about (None for ending the phase)."""
        return getattr(command, "model", None)

    def help(self) -> str:
        return ("Million-Colored Sun commands (lengths in inches, headings in degrees): " + "; ".join(_GRAMMAR)
                + ".")


def _shape(text: str, shape: str) -> RuleError:
    return RuleError(f"cannot read {text.strip()!r}: it is written '{shape}'", rule="Notation")


def _action(player: str, model: str, rest: list[str], text: str) -> c.ChooseAction:
    if len(rest) == 1:
        return c.ChooseAction(player=player, model=model, action=rest[0])
    if len(rest) == 3 and rest[1] == "to":
        return c.ChooseAction(player=player, model=model, action=rest[0], mode=rest[2])
    raise _shape(text, "<model> action <action> [to <mode>]")


def _returns(player: str, model: str, rest: list[str], text: str) -> c.PlaceReturning:
    if len(rest) != 5 or rest[0] != "at" or rest[3] != "facing":
        raise _shape(text, "<model> returns at <x> <y> facing <degrees>")
    return c.PlaceReturning(player=player, model=model, x=read_length(rest[1]), y=read_length(rest[2]),
                            heading=read_heading(rest[4]))


def _flies(player: str, model: str, rest: list[str], text: str) -> c.FlyManoeuvre:
    shape = "<model> flies <manoeuvre> [pilot <length> [towards <degrees>]] [bomb at <length>]"
    if not rest:
        raise _shape(text, shape)
    manoeuvre, rest = rest[0], rest[1:]
    pilot_heading, pilot_distance, bomb_at = None, 0, None
    if rest[:1] == ["pilot"] and len(rest) >= 2:
        pilot_distance, rest = read_length(rest[1]), rest[2:]
        if rest[:1] == ["towards"] and len(rest) >= 2:
            pilot_heading, rest = read_heading(rest[1]), rest[2:]
    if rest[:2] == ["bomb", "at"] and len(rest) >= 3:
        bomb_at, rest = read_length(rest[2]), rest[3:]
    if rest:
        raise RuleError(f"cannot read {rest[0]!r} in {text.strip()!r}: it is written '{shape}'", rule="Notation")
    return c.FlyManoeuvre(player=player, model=model, manoeuvre=manoeuvre, pilot_heading=pilot_heading,
                          pilot_distance=pilot_distance, bomb_at=bomb_at)


def _mover(run: bool):
    def moves(player: str, model: str, rest: list[str], text: str) -> c.MoveModel:
        if len(rest) != 3 or rest[1] != "towards":
            raise _shape(text, f"<model> {'runs' if run else 'moves'} <length> towards <degrees>")
        return c.MoveModel(player=player, model=model, heading=read_heading(rest[2]), distance=read_length(rest[0]),
                           run=run)

    return moves


def _shoots(player: str, model: str, rest: list[str], text: str) -> c.Shoot:
    """The weapon is its warscroll name, spaces and all, so the line is matched whole."""
    match = _SHOT.fullmatch(text.strip())
    if match is None:
        raise _shape(text, "<model> shoots <weapon> at <target>")
    return c.Shoot(player=player, model=model, weapon=match[2], target=match[3])


def _at_target(kind: type, verb: str):
    def at_target(player: str, model: str, rest: list[str], text: str):
        if len(rest) != 1:
            raise _shape(text, f"<model> {verb} <target>")
        return kind(player=player, model=model, target=rest[0])

    return at_target


_VERBS = {"action": _action, "returns": _returns, "flies": _flies, "moves": _mover(False), "runs": _mover(True),
          "shoots": _shoots, "charges": _at_target(c.DeclareCharge, "charges"),
          "fights": _at_target(c.Fight, "fights")}
