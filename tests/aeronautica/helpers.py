"""Shared builders for the Movement tests: games set up with aircraft where a test wants them, driven
through the public commands.

Positions are given as offset ``(column, row)`` on a ``Board.rectangle`` board named like ``"16x16h"``
(see :func:`~aero_events.rulesets.aeronautica.setup.board_for`), so a test reads like the table: column 0
is the west edge, row 0 the north edge. Dice are :class:`ManualDice`: a test enters the faces it wants
(Initiative first, two faces, re-rolled on ties) and a roll nobody entered fails loudly.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import msgspec

from aero_events.core import Envelope, Event, GameSession, ManualDice, RuleError
from aero_events.hexgrid import Hex
from aero_events.rulesets.aeronautica import AeronauticaRules, RuleOptions
from aero_events.rulesets.aeronautica.commands import (
    ActivateAircraft,
    AdjustAltitude,
    ChooseFirstMover,
    ChooseManoeuvre,
    ManoeuvrePlan,
    PassFiring,
    SetThrottle,
)
from aero_events.rulesets.aeronautica.forces import AircraftEntry, ForceList
from aero_events.rulesets.aeronautica.profiles import (
    AircraftProfile,
    Catalogue,
    build_catalogue,
    load_catalogue,
)
from aero_events.rulesets.aeronautica.setup import GameSetup, Placement, SideSetup, board_for
from aero_events.rulesets.aeronautica.state import FIRING, TAILING_FIRE

IMPERIUM, ORKS = "imperium", "orks"
N, NE, SE, S, SW, NW = range(6)
FACTIONS = {IMPERIUM: "imperial_navy", ORKS: "ork_air_waaagh"}


@dataclass(frozen=True)
class Plane:
    """One aircraft to place: profile id, offset (column, row), facing, Speed, Altitude."""

    profile: str
    at: tuple[int, int]
    facing: int = N
    speed: int = 4
    altitude: int = 3
    name: str | None = None


def placement(board: str, plane: Plane) -> Placement:
    hex = board_for(board).from_offset(*plane.at)
    return Placement(hex=hex, facing=plane.facing, speed=plane.speed, altitude=plane.altitude)


def game_setup(imperium: Sequence[Plane], orks: Sequence[Plane], *, board: str = "16x16h",
               last_turn: int = 12) -> GameSetup:
    """A GameSetup with these aircraft placed (points not checked: test forces are any size)."""
    sides = []
    for player, planes in ((IMPERIUM, imperium), (ORKS, orks)):
        force = ForceList(name=f"{player} test force", faction=FACTIONS[player],
                          aircraft=tuple(AircraftEntry(aircraft=p.profile, name=p.name) for p in planes))
        sides.append(SideSetup(player=player, force=force,
                               placements=tuple(placement(board, p) for p in planes)))
    return GameSetup(sides=(sides[0], sides[1]), board=board, last_turn=last_turn, check_points=False)


def reserve_setup(last_turn: int = 12, board: str = "16x16h") -> GameSetup:
    """imperium-1 (a Thunderbolt) flies; imperium-2 (a Thunderbolt) is held in reserve (p.33); orks-1 (a
    Dakkajet) flies."""
    imperium = ForceList(name="imperium", faction="imperial_navy",
                         aircraft=(AircraftEntry(aircraft="thunderbolt"), AircraftEntry(aircraft="thunderbolt")))
    orks = ForceList(name="orks", faction="ork_air_waaagh", aircraft=(AircraftEntry(aircraft="dakkajet"),))
    return GameSetup(sides=(
        SideSetup(player=IMPERIUM, force=imperium, reserves=(1,),
                  placements=(placement(board, Plane("thunderbolt", (12, 14), facing=N, speed=2)),)),
        SideSetup(player=ORKS, force=orks,
                  placements=(placement(board, Plane("dakkajet", (3, 1), facing=S, speed=4)),))),
        board=board, check_points=False, last_turn=last_turn)


def hex_at(board: str, column: int, row: int) -> Hex:
    return board_for(board).from_offset(column, row)


def catalogue_with(*profiles: AircraftProfile) -> Catalogue:
    """The default catalogue plus ``profiles`` (validated like any data)."""
    base = load_catalogue()
    return build_catalogue(factions=base.factions.values(), aircraft=[*base.aircraft.values(), *profiles],
                           weapons=base.weapons.values(), upgrades=base.upgrades.values(),
                           data_version=base.data_version + "+tests", source="tests/aeronautica/helpers.py")


def variant(base: str, new_id: str, **changes) -> AircraftProfile:
    """A copy of a default profile under a new id with some characteristics changed."""
    profile = load_catalogue().aircraft[base]
    return msgspec.structs.replace(profile, id=new_id, name=f"Test {new_id}", **changes)


#: A Thunderbolt that knows all eight Ace Manoeuvres and flies Speed 1-6 (for manoeuvre 7 and 8 tests).
ACE = variant("thunderbolt", "ace", ace_manoeuvres=(1, 2, 3, 4, 5, 6, 7, 8), min_speed=1)
#: A Thunderbolt with Min Speed 0 that knows all eight manoeuvres: it can Hover (p.16), cannot Stall (p.18).
HOVER = variant("thunderbolt", "hoverer", min_speed=0, ace_manoeuvres=(1, 2, 3, 4, 5, 6, 7, 8))
#: A Thunderbolt with the Rocket Boosters special rule (p.37).
BOOSTER = variant("thunderbolt", "booster", special_rules=("rocket_boosters",))


def make_rules(options: RuleOptions | None = None) -> AeronauticaRules:
    """The 2019 ruleset with the default data plus the test profiles above."""
    return AeronauticaRules(catalogue=catalogue_with(ACE, HOVER, BOOSTER), options=options)


class Table:
    """A session with manual dice and the small steps of a turn as methods."""

    def __init__(self, imperium: Sequence[Plane], orks: Sequence[Plane], *, board: str = "16x16h",
                 rules: AeronauticaRules | None = None, last_turn: int = 12):
        self.rules = rules or make_rules()
        self.dice = ManualDice()
        self.session = GameSession(self.rules, game_setup(imperium, orks, board=board, last_turn=last_turn),
                                   dice=self.dice, game_id="test")

    # ---- reading
    @property
    def state(self):
        return self.session.state

    def aircraft(self, aircraft_id: str):
        return self.state.aircraft[aircraft_id]

    def legal(self, player: str) -> list:
        return self.session.legal_commands(player)

    # ---- playing
    def apply(self, command) -> list[Event]:
        return [env.event for env in self.session.apply(command) if not env.event.core_event]

    def refused(self, command) -> RuleError:
        """Apply a command that must be refused; check nothing was appended; return the error."""
        before = self.session.seq
        try:
            self.session.apply(command)
        except RuleError as err:
            assert self.session.seq == before, "a refused command appended events"
            return err
        raise AssertionError(f"{command} was accepted")

    def choose(self, manoeuvres: Mapping[str, int], initiative: tuple[int, ...] = (6, 1)) -> list[Event]:
        """Choose a manoeuvre for each aircraft (Initiative dice entered before the last choice)."""
        self.dice.enter(initiative)
        events: list[Event] = []
        for aircraft_id, number in manoeuvres.items():
            owner = self.aircraft(aircraft_id).owner
            events += self.apply(ChooseManoeuvre(player=owner, aircraft=aircraft_id, manoeuvre=number))
        return events

    def start_movement(self, manoeuvres: Mapping[str, int], first: str = IMPERIUM,
                       initiative: tuple[int, ...] = (6, 1)) -> list[Event]:
        """Choose manoeuvres, roll Initiative, pass any Tailing Fire, and have the winner choose ``first``."""
        events = self.choose(manoeuvres, initiative)
        events += self.pass_firing(TAILING_FIRE)
        events += self.apply(ChooseFirstMover(player=self.state.initiative, first=first))
        return events

    def move(self, aircraft_id: str, throttle: int = 0, side: str | None = None,
             stage_hexes: Iterable[int] = (), facings: Iterable[int] = (), altitude: int | None = 0,
             dice: Iterable[int] = ()) -> list[Event]:
        """Activate, Throttle, fly the plan and (unless ``altitude`` is None) adjust Altitude."""
        player = self.aircraft(aircraft_id).owner
        self.dice.enter(dice)
        events = self.apply(ActivateAircraft(player=player, aircraft=aircraft_id))
        events += self.apply(SetThrottle(player=player, aircraft=aircraft_id, change=throttle))
        events += self.apply(ManoeuvrePlan(player=player, aircraft=aircraft_id, side=side,
                                           stage_hexes=tuple(stage_hexes), facings=tuple(facings)))
        if altitude is not None and self.state.active == aircraft_id:
            events += self.apply(AdjustAltitude(player=player, aircraft=aircraft_id, change=altitude))
        return events

    def pass_firing(self, phase: str = FIRING) -> list[Event]:
        """Whoever is to fire in the Firing (or Tailing Fire) phase passes, until the phase is over."""
        events: list[Event] = []
        while self.state.phase == phase and self.state.to_act is not None:
            events += self.apply(PassFiring(player=self.state.to_act))
        return events


def of_type(events: Iterable[Event | Envelope], cls: type) -> list:
    """The events of one type, in order (envelopes are unwrapped)."""
    out = []
    for item in events:
        event = item.event if isinstance(item, Envelope) else item
        if isinstance(event, cls):
            out.append(event)
    return out


def one(events: Iterable[Event | Envelope], cls: type):
    found = of_type(events, cls)
    assert len(found) == 1, f"expected one {cls.__name__}, got {found}"
    return found[0]


def walk(start: Hex, *directions: int) -> tuple[Hex, ...]:
    """The hexes entered stepping from ``start`` through each hexside in turn."""
    path = []
    hex = start
    for direction in directions:
        hex = hex.neighbour(direction)
        path.append(hex)
    return tuple(path)
