"""Wings of Glory commands as people write them (``aero record``, the ``.aero`` record format).

One command a line, words separated by spaces; plane and piece ids as the scenario names them::

    spitfire-1 plans 12                 PLANNING / SETUP: card 12 of its deck, face down
    floor 2                             ALTITUDE: the floor moves to 2
    spitfire-1 fires at bf109-1         FIRING with the first gun (gun 0)
    bf110-1 fires gun 1 at spitfire-2   another gun (its index in the plane's profile)
        ... with perfect aim            Perfect Aim: claim the extra A token
        ... sniping B                   Sniper: draw two B tokens and choose
    sniper gives token 1                Sniper: hand the opponent the second of the two tokens drawn
    hurricane-1 ignores token 0         Luck of the Devil / LUCKY: ignore a token just drawn
    launch pac-1                        PARACHUTE AND CABLE
    do17-1 bombs radar                  LEVEL BOMBING / DIVE BOMBING
    ju87-1 jettisons                    FULL LOAD: drop the load without attacking
    bf110-2 photographs radar           PHOTO RECONNAISSANCE
    he111-1 launches torpedo            TORPEDOS
    done                                the player has finished this fire sub-phase or the bomb phase

Reading is by shape only: whether the command is legal is for the rules to say when it is applied.
"""

from __future__ import annotations

from typing import Any

from aero_events.core import RuleError
from aero_events.core.interface import Notation

from . import commands as c

_GRAMMAR = ("<plane> plans <card>", "floor <n>",
            "<plane> fires [gun <n>] at <target> [with perfect aim] [sniping <letter>]", "sniper gives token <n>", "<plane> ignores token <n>", "launch <pac>",
            "<plane> bombs <target>", "<plane> jettisons", "<plane> photographs <target>",
            "<plane> launches torpedo", "done")


def _number(word: str, what: str) -> int:
    if not word.isdigit():
        raise RuleError(f"{what} is a whole number, not {word!r}", rule="Notation")
    return int(word)


class WingsOfGloryNotation(Notation):
    """``spitfire-1 plans 12``, ``spitfire-1 fires at bf109-1``, ``done``: see the module's table."""

    def format(self, state: Any, command: Any) -> str:
        if isinstance(command, c.PlanCard):
            return f"{command.plane} plans {command.card}"
        if isinstance(command, c.ChangeFloor):
            return f"floor {command.floor}"
        if isinstance(command, c.Fire):
            gun = f" gun {command.gun}" if command.gun else ""
            aim = " with perfect aim" if command.perfect_aim else ""
            sniping = f" sniping {command.sniper}" if command.sniper is not None else ""
            return f"{command.plane} fires{gun} at {command.target}{aim}{sniping}"
        if isinstance(command, c.SniperPick):
            return f"sniper gives token {command.choice}"
        if isinstance(command, c.UseLuck):
            return f"{command.plane} ignores token {command.index}"
        if isinstance(command, c.LaunchPac):
            return f"launch {command.pac}"
        if isinstance(command, c.DropBombs):
            return f"{command.plane} bombs {command.target}"
        if isinstance(command, c.JettisonLoad):
            return f"{command.plane} jettisons"
        if isinstance(command, c.TakePhoto):
            return f"{command.plane} photographs {command.target}"
        if isinstance(command, c.LaunchTorpedo):
            return f"{command.plane} launches torpedo"
        if isinstance(command, c.Done):
            return "done"
        raise TypeError(f"{type(command).__name__} is not a Wings of Glory command")

    def parse(self, state: Any, player: str, text: str) -> Any:
        words = text.split()
        if not words:
            raise RuleError("an empty command; " + self.help(), rule="Notation")
        if len(words) >= 2 and words[1] in _PLANE_VERBS:
            return _PLANE_VERBS[words[1]](player, words[0], words[2:], text)
        head, rest = words[0], words[1:]
        if head == "floor" and len(rest) == 1:
            return c.ChangeFloor(player=player, floor=_number(rest[0], "the floor"))
        if head == "sniper" and rest[:2] == ["gives", "token"] and len(rest) == 3:
            return c.SniperPick(player=player, choice=_number(rest[2], "the token"))
        if head == "launch" and len(rest) == 1:
            return c.LaunchPac(player=player, pac=rest[0])
        if head == "done" and not rest:
            return c.Done(player=player)
        raise RuleError(f"cannot read {text.strip()!r}; " + self.help(), rule="Notation")

    def subject(self, command: Any) -> str | None:
        """The plane a command is about (the recorder shows it; None for a player's own step)."""
        return getattr(command, "plane", None)

    def help(self) -> str:
        return "Wings of Glory commands: " + "; ".join(_GRAMMAR) + "."


def _fire(player: str, plane: str, rest: list[str], text: str) -> c.Fire:
    gun = 0
    if rest[:1] == ["gun"] and len(rest) >= 2:
        gun, rest = _number(rest[1], "the gun"), rest[2:]
    if len(rest) < 2 or rest[0] != "at":
        raise RuleError(f"cannot read {text.strip()!r}: a shot is '<plane> fires [gun <n>] at <target>'",
                        rule="Notation")
    target, rest = rest[1], rest[2:]
    perfect_aim = rest[:3] == ["with", "perfect", "aim"]
    if perfect_aim:
        rest = rest[3:]
    sniper = None
    if rest[:1] == ["sniping"] and len(rest) == 2:
        sniper, rest = rest[1], []
    if rest:
        raise RuleError(f"cannot read {' '.join(rest)!r} after the shot in {text.strip()!r}", rule="Notation")
    return c.Fire(player=player, plane=plane, gun=gun, target=target, perfect_aim=perfect_aim, sniper=sniper)


def _exact(count: int, text: str, shape: str) -> None:
    if count:
        raise RuleError(f"cannot read {text.strip()!r}: it is written '{shape}'", rule="Notation")


def _plans(player: str, plane: str, rest: list[str], text: str) -> c.PlanCard:
    _exact(len(rest) != 1, text, "<plane> plans <card>")
    return c.PlanCard(player=player, plane=plane, card=_number(rest[0], "the card"))


def _ignores(player: str, plane: str, rest: list[str], text: str) -> c.UseLuck:
    _exact(len(rest) != 2 or rest[0] != "token", text, "<plane> ignores token <n>")
    return c.UseLuck(player=player, plane=plane, index=_number(rest[1], "the token"))


def _bombs(player: str, plane: str, rest: list[str], text: str) -> c.DropBombs:
    _exact(len(rest) != 1, text, "<plane> bombs <target>")
    return c.DropBombs(player=player, plane=plane, target=rest[0])


def _jettisons(player: str, plane: str, rest: list[str], text: str) -> c.JettisonLoad:
    _exact(len(rest) != 0, text, "<plane> jettisons")
    return c.JettisonLoad(player=player, plane=plane)


def _photographs(player: str, plane: str, rest: list[str], text: str) -> c.TakePhoto:
    _exact(len(rest) != 1, text, "<plane> photographs <target>")
    return c.TakePhoto(player=player, plane=plane, target=rest[0])


def _launches(player: str, plane: str, rest: list[str], text: str) -> c.LaunchTorpedo:
    _exact(rest != ["torpedo"], text, "<plane> launches torpedo")
    return c.LaunchTorpedo(player=player, plane=plane)


_PLANE_VERBS = {"plans": _plans, "fires": _fire, "ignores": _ignores, "bombs": _bombs, "jettisons": _jettisons,
                "photographs": _photographs, "launches": _launches}
