"""The commands of Million-Colored Sun (tags ``mcs.*``). Lengths 1/100 mm, headings 1/100 degree."""

from __future__ import annotations

from aero_events.core import Command


class ChooseAction(Command, frozen=True, tag="mcs.ChooseAction"):
    """AIRBORNE ACTIONS: one action in the Hero phase (``mode`` names the new mode for SHIFT MOVEMENT MODE)."""

    model: str
    action: str
    mode: str | None = None


class PlaceReturning(Command, frozen=True, tag="mcs.PlaceReturning"):
    """MOVING OFF THE BOARD: place a returning model touching one of your board edges, facing any direction."""

    model: str
    x: int
    y: int
    heading: int


class FlyManoeuvre(Command, frozen=True, tag="mcs.FlyManoeuvre"):
    """AIRBORNE MOVEMENT: fly ``manoeuvre``; then PILOT INPUT ``pilot_distance`` along table heading
    ``pilot_heading`` (None: none); with a BOMBING RUN, drop a bomb ``bomb_at`` along the flight path."""

    model: str
    manoeuvre: str
    pilot_heading: int | None = None
    pilot_distance: int = 0
    bomb_at: int | None = None


class MoveModel(Command, frozen=True, tag="mcs.MoveModel"):
    """A ground or FLY move of the host: ``distance`` along table heading ``heading`` (``run``: roll a D6 more)."""

    model: str
    heading: int
    distance: int
    run: bool = False


class Shoot(Command, frozen=True, tag="mcs.Shoot"):
    model: str
    weapon: str
    target: str


class DeclareCharge(Command, frozen=True, tag="mcs.DeclareCharge"):
    model: str
    target: str


class Fight(Command, frozen=True, tag="mcs.Fight"):
    model: str
    target: str


class EndPhase(Command, frozen=True, tag="mcs.EndPhase"):
    """End the phase (in the combat phase: fight no more with your remaining models)."""
