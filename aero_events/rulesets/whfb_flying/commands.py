"""The commands of a battle (tags prefixed ``whfb.``). Lengths in 1/100 mm, headings in 1/100 degree."""

from __future__ import annotations

from aero_events.core import Command


class VanguardMove(Command, frozen=True, kw_only=True, tag="whfb.VanguardMove"):
    """Special Rules: Vanguard "may be used to make a normal move on the ground, or perform the Take off"."""

    unit: str
    heading: int
    distance: int
    take_off: bool = False


class EndVanguard(Command, frozen=True, kw_only=True, tag="whfb.EndVanguard"):
    pass


class Move(Command, frozen=True, kw_only=True, tag="whfb.Move"):
    """A host move on the ground (a unit on foot, or a flyer that is landed): turn to ``heading`` (a wheel for a
    ranked unit, free for skirmishers), then ``distance`` forward; ``march`` allows twice M."""

    unit: str
    heading: int
    distance: int
    march: bool = False


class Reform(Command, frozen=True, kw_only=True, tag="whfb.Reform"):
    """A host reform on the ground: a new facing and number of files, instead of moving."""

    unit: str
    heading: int
    files: int


class TakeOff(Command, frozen=True, kw_only=True, tag="whfb.TakeOff"):
    """Take Off: reach 10"; "can Fly or move on the ground at their normal M ... in either order"
    (``ground_first``: the ground move comes before the take off)."""

    unit: str
    heading: int = 0
    distance: int = 0
    ground_first: bool = False


class Land(Command, frozen=True, kw_only=True, tag="whfb.Land"):
    """Land: leave 10"; with a Fly or ground move of M before or after (``ground_first``: land, then move)."""

    unit: str
    heading: int = 0
    distance: int = 0
    ground_first: bool = False


class Fly(Command, frozen=True, kw_only=True, tag="whfb.Fly"):
    """Fly: a normal move in the air; ``files`` other than 0 reforms the unit ("Unit reform is allowed"); ``join``
    names a friendly unit in the air that a flying character flies into and joins ("Unit joining is allowed")."""

    unit: str
    heading: int
    distance: int
    files: int = 0
    join: str = ""


class Soar(Command, frozen=True, kw_only=True, tag="whfb.Soar"):
    """Soar: 2M in the air; "No Unit reforms or joining allowed" (``files`` and ``join`` must be empty)."""

    unit: str
    heading: int
    distance: int
    files: int = 0
    join: str = ""


class FlyHigh(Command, frozen=True, kw_only=True, tag="whfb.FlyHigh"):
    """Fly High as a move: the unit leaves the battle, as if it fled off the table."""

    unit: str


class Charge(Command, frozen=True, kw_only=True, tag="whfb.Charge"):
    """A host charge on the ground."""

    unit: str
    target: str


class Intercept(Command, frozen=True, kw_only=True, tag="whfb.Intercept"):
    """Intercept: an air-to-air charge, 2M + D6."""

    unit: str
    target: str


class Swoop(Command, frozen=True, kw_only=True, tag="whfb.Swoop"):
    """Swoop: an air-to-ground charge onto the ``flank`` ("left" or "right") of a ground unit."""

    unit: str
    target: str
    flank: str


class React(Command, frozen=True, kw_only=True, tag="whfb.React"):
    """The charged unit's reaction: "hold", "stand and shoot" or "flee"."""

    choice: str


class Shoot(Command, frozen=True, kw_only=True, tag="whfb.Shoot"):
    unit: str
    target: str


class CastSpell(Command, frozen=True, kw_only=True, tag="whfb.CastSpell"):
    """Magic Phase: ``unit`` (a wizard) casts ``spell`` (an id of the lore, ``data/lore.json``) at ``target``;
    magic missiles and direct damage spells follow the shooting rules, close combat spells the close combat
    rules ("depending upon the spell type")."""

    unit: str
    target: str
    spell: str


class LeaveUnit(Command, frozen=True, kw_only=True, tag="whfb.LeaveUnit"):
    """Host: a character that joined a unit leaves it and moves on its own, ``distance`` along ``heading`` (a Fly
    move when the unit is in the air)."""

    unit: str
    heading: int
    distance: int


class EndPhase(Command, frozen=True, kw_only=True, tag="whfb.EndPhase"):
    pass
