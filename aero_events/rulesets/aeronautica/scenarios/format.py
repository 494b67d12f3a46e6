"""The scenario format of the rulebook (p.33) as data, and the map features scenarios place (p.33).

Every scenario is presented as Background, Forces, Set-up, Special Rules and
Victory Conditions (p.33, "Scenario Format"). :class:`Scenario` holds those five
parts as plain msgspec data, so a scenario other than the Dogfight (the text names
six, p.32, but gives only the Dogfight) can be written as a JSON file and loaded
with :func:`load_scenario`.

The Structs placed on the Area of Engagement by a scenario live here too, because
the game state holds them: terrain with a height (Terrain Height, p.33), ground
targets (p.33) and landing zones (p.33). This module imports nothing from the
rest of the ruleset, so ``state.py`` can use it.
"""

from __future__ import annotations

from pathlib import Path

import msgspec

from aero_events.core.errors import read_data_file
from aero_events.hexgrid import Hex

# ---------------------------------------------------------------- what a scenario places (p.33)


class TerrainFeature(msgspec.Struct, frozen=True, kw_only=True):
    """A hill, mountain, hive spire or landing platform given an Altitude level (Terrain Height, p.33).

    "A hill for example may be Altitude 1 or 2, whilst a mountain or other terrain
    feature may be as high as Altitude 3 or 4" (p.33). ``hexes`` are the hexes the
    feature covers: an aircraft's base touching any of them touches the terrain.
    """

    name: str
    level: int
    hexes: tuple[Hex, ...]


class GroundTarget(msgspec.Struct, frozen=True, kw_only=True):
    """A ground-based objective (p.33): a bunker, a squad awaiting extraction, a stranded crew...

    ``owner`` is the player defending it (None: nobody's). The scenario says how many
    Victory points it is worth (``victory_points``) and to whom: here, to the
    opponent of ``owner`` once it is destroyed (text silent; a scenario may differ).
    ``structure`` is what the Air-to-Ground rules (p.26-27) wear down.
    """

    id: str
    name: str
    hex: Hex
    owner: str | None = None
    structure: int = 1
    victory_points: int = 0


class LandingZone(msgspec.Struct, frozen=True, kw_only=True):
    """A landing zone marker and the distance around it within which aircraft must land (p.33).

    The text gives the distance in inches from the marker's edge; on a grid of 2-inch
    hexes (p.9) the scenario gives it here as ``radius`` in hexes around the marker's
    hex (0: the marker's hex alone). ``player`` is the side it serves (None: both).
    ``vp_per_point`` is the Victory points won per point of Transport delivered: the
    scenario states it (p.37), and the example "an aircraft with a Transport
    characteristic of 2 may earn 2 Victory points" gives the default of 1.
    """

    name: str
    hex: Hex
    radius: int = 0
    player: str | None = None
    vp_per_point: int = 1

    def contains(self, hex: Hex) -> bool:
        """Whether ``hex`` lies within the zone (hex distance from the marker at most ``radius``)."""
        dq, dr = hex[0] - self.hex[0], hex[1] - self.hex[1]
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2 <= self.radius

    def serves(self, player: str) -> bool:
        return self.player is None or self.player == player


# ---------------------------------------------------------------- the scenario format (p.33)


class ForcesRules(msgspec.Struct, frozen=True, kw_only=True):
    """Forces (p.33): the points players agree on, and any recommendation or restriction.

    ``below_limit`` is how far under the agreed points a force may be (p.9: up to 10).
    ``recommended_classes`` is a recommendation, not a restriction (the Dogfight says
    "Only Scouts, Fighters and Bombers are recommended", p.34), so it is not enforced.
    """

    min_points: int | None = None
    max_points: int | None = None
    below_limit: int = 10
    recommended_classes: tuple[str, ...] = ()


class SetUpRules(msgspec.Struct, frozen=True, kw_only=True):
    """Set-up (p.33): where each side deploys and how.

    ``edges`` are the two sides' edges (players set up on opposite sides, p.34);
    aircraft deploy within ``depth`` hexes of their edge and Ground Defences within
    ``ground_defence_depth``; ``roll_off``: the winner of a roll-off places first and
    the players then alternate, one aircraft at a time (p.34); ``choose_speed_altitude``:
    both players choose the Speed and Altitude of each aircraft before placing it.
    """

    edges: tuple[str, str] = ("south", "north")
    depth: int = 3
    ground_defence_depth: int = 6
    roll_off: bool = True
    alternate: bool = True
    choose_speed_altitude: bool = True


class ReserveRules(msgspec.Struct, frozen=True, kw_only=True):
    """Reserves as a scenario allows them (p.33-34): how many aircraft and what share of the force's points.

    The Dogfight: "a maximum of two aircraft in reserve. The combined cost of these may
    be no more than 25% of the total points value of the force" (p.34).
    """

    max_aircraft: int = 2
    max_percent_of_points: int = 25


class SpecialRules(msgspec.Struct, frozen=True, kw_only=True):
    """Special Rules (p.33). ``optional`` names the rules used only "if both players agree".

    Known names: ``reserves``, ``night_fighting``, ``bad_weather``, ``underdog``,
    ``terrain_height``, ``ground_targets``, ``landing_zones``.
    """

    rules: tuple[str, ...] = ()
    optional: tuple[str, ...] = ()
    reserves: ReserveRules | None = None
    underdog_margin: int | None = None


class VictoryConditions(msgspec.Struct, frozen=True, kw_only=True):
    """Victory Conditions (p.33): how the game ends and how the winner is found (p.31-32)."""

    last_turn: int = 12
    insurmountable_losses: bool = True
    last_aircraft_flying: bool = True
    victory_points: bool = True
    text: str = ""


class Scenario(msgspec.Struct, frozen=True, kw_only=True):
    """A scenario in the rulebook's format (p.33): Background, Forces, Set-up, Special Rules, Victory Conditions."""

    id: str
    name: str
    page: int | str | None
    background: str
    forces: ForcesRules
    set_up: SetUpRules
    special_rules: SpecialRules
    victory_conditions: VictoryConditions
    source: str = ""


def parse_scenario(raw: bytes | str, source: str = "<string>") -> Scenario:
    """A Scenario from JSON text in the format above; a malformed one is a DataError naming the field."""
    from aero_events.rulesets.aeronautica.profiles import JsonDocument

    doc = JsonDocument(raw, source)
    scenario = doc.decode(Scenario)
    if not scenario.id.strip():
        raise doc.error("id is empty", ("id",))
    if scenario.set_up.depth < 1:
        raise doc.error(f"a deployment depth is 1 hex or more, not {scenario.set_up.depth}", ("set_up", "depth"))
    if scenario.set_up.edges[0] == scenario.set_up.edges[1]:
        raise doc.error("the two sides need different edges", ("set_up", "edges"))
    if scenario.victory_conditions.last_turn < 1:
        raise doc.error("the last turn is 1 or more", ("victory_conditions", "last_turn"))
    return scenario


def load_scenario(path: str | Path) -> Scenario:
    """Read a scenario written in the format of p.33 from a JSON file."""
    raw = read_data_file(path)
    return parse_scenario(raw, str(path))


def encode_scenario(scenario: Scenario) -> bytes:
    """The scenario as JSON (the inverse of :func:`parse_scenario`)."""
    return msgspec.json.format(msgspec.json.encode(scenario), indent=2)
