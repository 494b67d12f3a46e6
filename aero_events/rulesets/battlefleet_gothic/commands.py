"""The commands of Battlefleet Gothic (tags ``bfg.*``). Lengths in 1/100 mm, angles in 1/100 degree."""

from __future__ import annotations

from aero_events.core import Command


class RollOff(Command, frozen=True, tag="bfg.RollOff"):
    """Begin the battle: roll starting Leadership (p.10) and for the first turn (p.13)."""


class ChooseTurnOrder(Command, frozen=True, tag="bfg.ChooseTurnOrder"):
    """The winner of the roll-off moves first or second (p.13)."""

    go_first: bool


class GiveOrder(Command, frozen=True, tag="bfg.GiveOrder"):
    """Take a Command check for a special order before the ship moves (p.11)."""

    ship: str
    order: str


class MoveShip(Command, frozen=True, tag="bfg.MoveShip"):
    """Move a ship (p.15-17): straight ``legs`` with ``turns`` between them (len(turns) == len(legs) - 1),
    positive turns to starboard (clockwise)."""

    ship: str
    legs: tuple[int, ...]
    turns: tuple[int, ...] = ()
    screen: tuple[str, ...] = ()  # fighter waves in base contact that move with it (p.29)


class FireWeapons(Command, frozen=True, tag="bfg.FireWeapons"):
    """Fire weapons batteries and/or lances at one target (p.18-21); ``amounts`` splits fire (p.21),
    empty means all that remains of each weapon."""

    ship: str
    target: str
    weapons: tuple[str, ...]
    amounts: tuple[int, ...] = ()
    squadron: tuple[tuple[str, str], ...] = ()  # (ship, weapons battery) of squadron mates firing with it (p.20)


class FireNovaCannon(Command, frozen=True, tag="bfg.FireNovaCannon"):
    """Place the nova cannon template centred at (x, y) (p.21)."""

    ship: str
    x: int
    y: int


class LaunchTorpedoes(Command, frozen=True, tag="bfg.LaunchTorpedoes"):
    """Launch a torpedo salvo from the base on ``heading`` inside the weapon's arc (p.27-28); ``kind`` is a
    torpedo kind of ``ordnance.json`` ("boarding", p.28, needs ``RuleOptions(hit_and_run=True)``), and
    ``ignore_hulks`` the boarding salvo's election to pass hulks (p.28)."""

    ship: str
    weapon: str
    heading: int
    kind: str = "standard"
    ignore_hulks: bool = False


class SteerTorpedoes(Command, frozen=True, tag="bfg.SteerTorpedoes"):
    """A boarding salvo's turn of up to 45 degrees at the start of the ordnance phase, not in the turn it was
    launched (p.28); positive to starboard. ``ignore_hulks``: the salvo passes hulks (p.28)."""

    marker: str
    turn: int
    ignore_hulks: bool = True


class EndShooting(Command, frozen=True, tag="bfg.EndShooting"):
    """The player has fired every ship they want to (p.18)."""


class React(Command, frozen=True, tag="bfg.React"):
    """The target's owner in a reaction window: Brace for Impact (p.23) and/or fire turrets (p.29)."""

    ship: str
    brace: bool
    turrets: bool = True


class RemoveBlastMarkers(Command, frozen=True, tag="bfg.RemoveBlastMarkers"):
    """Blast Marker Removal (p.31): which markers go."""

    markers: tuple[int, ...]


class Surrender(Command, frozen=True, tag="bfg.Surrender"):
    """A side gives up (Ending the Battle, p.13)."""


class LaunchAttackCraft(Command, frozen=True, tag="bfg.LaunchAttackCraft"):
    """Launch a wave from the launch bays: how many fighter and bomber squadrons (p.29)."""

    ship: str
    fighters: int
    bombers: int
    assault_boats: int = 0  # p.30; needs RuleOptions(hit_and_run=True)


class MoveAttackCraft(Command, frozen=True, tag="bfg.MoveAttackCraft"):
    """Move a wave in the ordnance phase to (x, y), through the points ``via`` first (craft turn freely,
    p.29), the whole path at most its speed."""

    marker: str
    x: int
    y: int
    fighters: int | None = None  # split the wave (p.30): the squadrons that move; None for all
    bombers: int | None = None
    assault_boats: int | None = None
    via: tuple[tuple[int, int], ...] = ()


class BraceForImpact(Command, frozen=True, tag="bfg.BraceForImpact"):
    """Brace in one's own turn, before any attack (p.12 "at any time during either player's turn"); only
    under ``RuleOptions(brace_timing="any_time")``."""

    ship: str


class RecallAttackCraft(Command, frozen=True, tag="bfg.RecallAttackCraft"):
    """Remove one's own wave from play to free the fleet ordnance limit (p.27)."""

    marker: str
