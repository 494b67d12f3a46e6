"""The commands of ``wings-of-glory/bob-2017`` (tags ``wog.*``). A planned card is a secret command."""

from __future__ import annotations

from aero_events.core import Command


class PlanCard(Command, frozen=True, tag="wog.PlanCard"):
    """SETUP / PLANNING: put card ``card`` (its number in the plane's deck) face down in the console."""

    plane: str
    card: int


class ChangeFloor(Command, frozen=True, tag="wog.ChangeFloor"):
    """ALTITUDE: before a move any player may change the floor."""

    floor: int


class Fire(Command, frozen=True, tag="wog.Fire"):
    """FIRING: ``plane`` fires gun ``gun`` (its index in the profile) at ``target`` (a plane or a ground piece).

    ``perfect_aim``: a Perfect Aim ace claims the extra A token; ``sniper``: a Sniper ace draws two tokens of
    this letter and chooses one.
    """

    plane: str
    gun: int
    target: str
    perfect_aim: bool = False
    sniper: str | None = None


class SniperPick(Command, frozen=True, tag="wog.SniperPick"):
    """Sniper: give the opponent token ``choice`` (0 or 1) of the two drawn."""

    choice: int


class UseLuck(Command, frozen=True, tag="wog.UseLuck"):
    """Luck of the Devil / LUCKY: ignore one token just drawn (``index`` among the plane's pending tokens)."""

    plane: str
    index: int


class LaunchPac(Command, frozen=True, tag="wog.LaunchPac"):
    """PARACHUTE AND CABLE: launch the PAC during a fire phase."""

    pac: str


class DropBombs(Command, frozen=True, tag="wog.DropBombs"):
    """LEVEL BOMBING / DIVE BOMBING on ``target`` after fire is resolved."""

    plane: str
    target: str


class JettisonLoad(Command, frozen=True, tag="wog.JettisonLoad"):
    """FULL LOAD: drop the bombs or drop tanks without attacking (bomb phase)."""

    plane: str


class TakePhoto(Command, frozen=True, tag="wog.TakePhoto"):
    """PHOTO RECONNAISSANCE of ``target``."""

    plane: str
    target: str


class LaunchTorpedo(Command, frozen=True, tag="wog.LaunchTorpedo"):
    """TORPEDOS: launched after a straight at altitude one."""

    plane: str


class Done(Command, frozen=True, tag="wog.Done"):
    """The player has finished this step (a fire sub-phase, the bomb phase)."""
