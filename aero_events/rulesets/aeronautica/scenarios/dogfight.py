"""The Dogfight (rulebook p.34-35), in the scenario format of p.33, and a builder for its games.

* **Background**: two air combat patrols meet unexpectedly in the skies.
* **Forces**: a points value agreed between 25 and 250 (p.34); each force may be up
  to 10 points below it, never above (p.9). Only Scouts, Fighters and Bombers are
  *recommended* (not enforced).
* **Set-up**: opposite sides; from the winner of a roll-off, players take turns to
  place an aircraft within three hexes of their edge, Ground Defences within six, with
  the Speed and Altitude they choose (p.34). Played as commands in the set-up phase
  (:mod:`.set_up`: :class:`RollOff`, :class:`PlaceAircraft`), or given as placements,
  which are then checked against the same zones.
* **Special rules** (p.34-35): Reserves if both players agree (at most two aircraft, at
  most 25% of the force's points; arrival :mod:`..reserves`); Night Fighting and/or Bad
  Weather if both agree (:mod:`..weather`); Underdog: a force 5 or more points smaller
  has the initiative in the first turn (``turn.roll_initiative``).
* **Victory conditions**: 12 turns, until one side is forced to disengage, or until only
  one player has aircraft left operating; then Victory points (p.31-32, :mod:`..victory`).

The optional rules the text gives for any game (p.33) may be added: Terrain Height,
ground targets and landing zones.

Choices where the text is silent:

* The first force sets up on the south edge and the second on the north unless
  ``edges`` says otherwise ("opposite sides", p.34).
* The Underdog compares the forces' total points, reserves included (the "force" of
  p.35); a difference of 1 to 4 points is rolled for as normal, like no difference.
* The Area of Engagement defaults to 3'x3' ("a small dogfight between one or two
  aircraft per player", p.32); pass ``board="4x4"`` (the average) or ``"8x4"`` for more.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from aero_events.core import RuleError
from aero_events.hexgrid import Edge, Hex

from ..forces import ForceList, force_points, validate_force
from ..profiles import Catalogue, load_catalogue
from ..setup import GameSetup, Placement, SideSetup, board_for
from .format import (
    ForcesRules,
    GroundTarget,
    LandingZone,
    ReserveRules,
    Scenario,
    SetUpRules,
    SpecialRules,
    TerrainFeature,
    VictoryConditions,
)

#: The Dogfight in the format of p.33.
DOGFIGHT = Scenario(
    id="dogfight",
    name="The Dogfight",
    page="34-35",
    background="Two air combat patrols meet unexpectedly in the skies. The encounter is fast and deadly.",
    forces=ForcesRules(min_points=25, max_points=250, below_limit=10,
                       recommended_classes=("Scout", "Fighter", "Bomber")),
    set_up=SetUpRules(edges=("south", "north"), depth=3, ground_defence_depth=6, roll_off=True, alternate=True,
                      choose_speed_altitude=True),
    special_rules=SpecialRules(rules=("underdog",), optional=("reserves", "night_fighting", "bad_weather"),
                               reserves=ReserveRules(max_aircraft=2, max_percent_of_points=25),
                               underdog_margin=5),
    victory_conditions=VictoryConditions(
        last_turn=12, insurmountable_losses=True, last_aircraft_flying=True, victory_points=True,
        text="The game lasts for 12 turns, until one side is forced to disengage, or until only one player has "
             "aircraft left operating in the Area of Engagement. When the game ends, calculate Victory points "
             "to determine the winner."),
    source="Aeronautica Imperialis: Wings of Vengeance rulebook (Games Workshop, 2019), pp.34-35.",
)

FORCES_RULE = ("The Dogfight: Forces", 34)
RESERVES_RULE = ("The Dogfight: Reserves", 34)


def check_points_value(points: int, scenario: Scenario = DOGFIGHT) -> None:
    """The agreed points value lies between 25 and 250 (p.34)."""
    low, high = scenario.forces.min_points, scenario.forces.max_points
    if (low is not None and points < low) or (high is not None and points > high):
        raise RuleError(f"players agree a points value between {low} and {high}, not {points}",
                        rule=FORCES_RULE[0], page=FORCES_RULE[1])


def check_reserves(player: str, force: ForceList, reserves: Sequence[int], catalogue: Catalogue,
                   scenario: Scenario = DOGFIGHT) -> None:
    """At most two aircraft in reserve, costing together at most 25% of the force's points (p.34)."""
    limits = scenario.special_rules.reserves
    if not reserves:
        return
    if limits is None:
        raise RuleError(f"{scenario.name} has no Reserves", rule="Reserves", page=33)
    if len(reserves) > limits.max_aircraft:
        raise RuleError(f"{player} keeps {len(reserves)} aircraft in reserve; at most {limits.max_aircraft}",
                        rule=RESERVES_RULE[0], page=RESERVES_RULE[1])
    points = force_points(force, catalogue)
    if not all(0 <= i < len(points.aircraft) for i in reserves):
        raise RuleError(f"{player}'s reserves {tuple(reserves)} are not aircraft of the force", rule="Reserves",
                        page=33)
    held = sum(points.aircraft[i].total for i in reserves)
    if held * 100 > points.total * limits.max_percent_of_points:
        raise RuleError(f"{player}'s reserves cost {held} points, more than {limits.max_percent_of_points}% of "
                        f"the force's {points.total}", rule=RESERVES_RULE[0], page=RESERVES_RULE[1])


def check_placements(player: str, force: ForceList, placements: Sequence[Placement], reserves: Sequence[int],
                     edge: Edge, board: str, catalogue: Catalogue, scenario: Scenario = DOGFIGHT) -> None:
    """Given placements keep to the set-up zones: three hexes from the edge, six for Ground Defences (p.34)."""
    area = board_for(board)
    placed = [entry for i, entry in enumerate(force.aircraft) if i not in reserves]
    if len(placements) != len(placed):
        raise RuleError(f"{player} has {len(placed)} aircraft to place but {len(placements)} placements",
                        rule="Set-up", page=34)
    for entry, place in zip(placed, placements, strict=True):
        ground = catalogue.aircraft[entry.aircraft].is_ground_defence
        depth = scenario.set_up.ground_defence_depth if ground else scenario.set_up.depth
        if not area.is_within(Hex(*place.hex), edge, depth):
            raise RuleError(f"{player}'s {entry.name or entry.aircraft} at {tuple(place.hex)} is not within "
                            f"{depth} hexes of the {edge} edge", rule="Set-up", page=34)


def dogfight_setup(
    first: tuple[str, ForceList],
    second: tuple[str, ForceList],
    points: int,
    *,
    board: str = "3x3",
    placements: tuple[Sequence[Placement], Sequence[Placement]] | None = None,
    reserves: tuple[Sequence[int], Sequence[int]] = ((), ()),
    weather: str = "none",
    edges: tuple[str, str] = ("south", "north"),
    terrain: Sequence[TerrainFeature] = (),
    ground_targets: Sequence[GroundTarget] = (),
    landing_zones: Sequence[LandingZone] = (),
    catalogue: Catalogue | None = None,
    check_points: bool = True,
    scenario: Scenario = DOGFIGHT,
) -> GameSetup:
    """A Dogfight (p.34-35) between two ``(player, force)`` at the agreed ``points``.

    Without ``placements`` the game starts with the set-up phase: a :class:`RollOff`, then
    alternate :class:`PlaceAircraft` commands. With them (one sequence per side, in force
    order, reserves left out) the set-up zones are checked and the game starts at turn 1
    (after the roll-off, if the weather must be rolled). ``reserves`` are indices into each
    force; ``weather`` is ``"none"``, ``"roll"`` (the D6 table, p.33), ``"bad_weather"`` or
    ``"night_fighting"``. ``check_points=False`` skips the points checks (test forces).
    """
    catalogue = catalogue or load_catalogue()
    if check_points:
        check_points_value(points, scenario)
    sides = []
    for index, ((player, force), held) in enumerate(zip((first, second), reserves, strict=True)):
        force = msgspec.structs.replace(force, points_limit=points) if check_points else force
        if check_points:
            validate_force(force, catalogue)
        check_reserves(player, force, held, catalogue, scenario)
        given: tuple[Placement, ...] = ()
        if placements is not None:
            given = tuple(placements[index])
            check_placements(player, force, given, held, Edge(edges[index]), board, catalogue, scenario)
        sides.append(SideSetup(player=player, force=force, placements=given, reserves=tuple(held)))
    return GameSetup(
        sides=(sides[0], sides[1]), board=board, last_turn=scenario.victory_conditions.last_turn,
        scenario=scenario.id, check_points=check_points,
        deployment="placed" if placements is not None else "alternate",
        edges=edges, deployment_depth=scenario.set_up.depth,
        ground_defence_depth=scenario.set_up.ground_defence_depth, weather=weather,
        underdog_margin=scenario.special_rules.underdog_margin, terrain=tuple(terrain),
        ground_targets=tuple(ground_targets), landing_zones=tuple(landing_zones),
    )
