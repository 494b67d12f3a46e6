"""Aeronautica's answers to the tools (:mod:`aero_events.core.interface`): narration, the outcome, the
scenarios a matchup or the demo plays, the bots, the secret command, the legacy command table.

``AeronauticaRules`` delegates its interface methods here (the methods at the end of ruleset.py), so the
tools (demo, simulate, regress, play...) never import this package: they ask the ruleset.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

import msgspec

from aero_events.core import DataError, Envelope, is_core_event
from aero_events.core.interface import BotInfo, DecisionPoint, Outcome, Scenario, VersionInfo
from aero_events.hexgrid import Board

from . import legacy_commands, narrate
from .commands import (
    ActivateAircraft,
    AdjustAltitude,
    ChooseFirstMover,
    ChooseManoeuvre,
    FireWeapons,
    PassFiring,
    PlaceAircraft,
    RollOff,
    SetThrottle,
)
from .deployment import face_off
from .forces import AircraftEntry, ForceList, force_points, load_force
from .scenarios.dogfight import dogfight_setup
from .state import DESTROYED, DISENGAGED, GAME_OVER, GameState
from .versions import register_from_metadata

# ---------------------------------------------------------------------------------------------------------
# Narration
# ---------------------------------------------------------------------------------------------------------


def describe_event(event: Any, state: Any = None) -> str:
    """One line for an event, as the demo tells it (narrate.py); '' for bookkeeping."""
    if is_core_event(event):
        return ""
    return narrate.describe(event) or ""


def narrate_game(envelopes: Iterable[Envelope]) -> Iterator[str]:
    """The demo's account of a game (narrate.py), the session's own records left out."""
    return narrate.narrate(envelope for envelope in envelopes if not is_core_event(envelope.event))


def describe_command(command: Any) -> str:
    """A command in English: ``imperium-1: Throttle +1``; other commands as their name and fields."""
    match command:
        case ChooseManoeuvre(aircraft=aircraft, manoeuvre=manoeuvre):
            return f"{aircraft}: Manoeuvre token {manoeuvre} face down"
        case ChooseFirstMover(player=player, first=first):
            return f"{player} has {first} move first"
        case ActivateAircraft(aircraft=aircraft):
            return f"{aircraft} moves"
        case SetThrottle(aircraft=aircraft, change=change):
            return f"{aircraft}: Throttle {change:+d}"
        case AdjustAltitude(aircraft=aircraft, change=change):
            return f"{aircraft}: Altitude {change:+d}" if change else f"{aircraft} holds its Altitude"
        case PassFiring(player=player):
            return f"{player} passes (Firing)"
        case FireWeapons(aircraft=aircraft, shots=shots):
            return f"{aircraft} fires {len(shots)} weapon(s)"
        case RollOff(player=player):
            return f"{player} rolls off for set-up"
        case PlaceAircraft(aircraft=aircraft, hex=hex, facing=facing, speed=speed, altitude=altitude):
            return f"{aircraft} placed at ({hex.q},{hex.r}) facing {facing}, Speed {speed}, Altitude {altitude}"
    fields = msgspec.to_builtins(command)
    name = str(fields.pop("command", type(command).__name__)).removeprefix("ai.")
    fields.pop("player", None)
    return name + "".join(f" {key}={value}" for key, value in fields.items())


def describe_state(state: GameState) -> list[str]:
    """Every aircraft in a line (``aero play``'s ``s``)."""
    lines = [f"turn {state.turn}, {state.phase.replace('_', ' ')}"]
    for a in state.aircraft.values():
        marks = "".join(m for m, on in (("S", a.stalled), ("X", a.spinning)) if on)
        lines.append(f"  {a.id:12} {a.status:10} hex ({a.hex[0]},{a.hex[1]}) facing {a.facing} "
                     f"speed {a.speed} alt {a.altitude} structure {a.structure} {marks}")
    return lines


def describe_setup(rules: Any, setup: Any, bots: Mapping[str, str]) -> list[str]:
    """Each side's force before the game: ``imperium (greedy bot): Veil Squadron, 4 aircraft, 100 points``."""
    lines = []
    for side in setup.sides:
        points = force_points(side.force, rules.catalogue)
        lines.append(f"{side.player} ({bots.get(side.player, '?')} bot): {side.force.name}, "
                     f"{len(side.force.aircraft)} aircraft, {points.total} points")
    return lines


# ---------------------------------------------------------------------------------------------------------
# The outcome (Ending the Game and Victory points, p.31-32: victory.py records them in the state)
# ---------------------------------------------------------------------------------------------------------


def outcome(state: GameState) -> Outcome:
    """The winner and Victory points of a finished game (p.32), or the standing of one under way."""
    finished = state.phase == GAME_OVER
    scores = {player: float(state.victory_points.get(player, 0)) for player in state.players}
    reason = state.end_reason or ""
    return Outcome(finished=finished, winner=state.winner, draw=finished and state.winner is None, scores=scores,
                   reason=reason)


def statistics(state: GameState) -> dict[str, dict[str, int]]:
    """Aircraft destroyed and disengaged per side."""
    lost = {player: 0 for player in state.players}
    disengaged = {player: 0 for player in state.players}
    for aircraft in state.aircraft.values():
        if aircraft.status == DESTROYED:
            lost[aircraft.owner] += 1
        elif aircraft.status == DISENGAGED:
            disengaged[aircraft.owner] += 1
    return {"aircraft lost": lost, "aircraft disengaged": disengaged}


# ---------------------------------------------------------------------------------------------------------
# Scenarios and matchups
# ---------------------------------------------------------------------------------------------------------

DEMO_PLAYERS = ("imperium", "orks")
DEMO_POINTS = 100


def demo_forces() -> tuple[ForceList, ForceList]:
    """Two 100-point forces from the Squadron Lists (p.38-47): four Thunderbolts with Skystrike missiles,
    four Dakkajets with Rokkits and a Fighta Bommer."""
    thunderbolts = ForceList(name="Veil Squadron", faction="imperial_navy", points_limit=DEMO_POINTS,
                             aircraft=(AircraftEntry(aircraft="thunderbolt", weapons=("skystrike_missiles",) * 2),)
                             * 4)
    orks = ForceList(name="Da Red Skull Kommandos", faction="ork_air_waaagh", points_limit=DEMO_POINTS,
                     aircraft=(AircraftEntry(aircraft="dakkajet", weapons=("rokkits",) * 2),) * 4
                     + (AircraftEntry(aircraft="fighta_bommer"),))
    return thunderbolts, orks


#: The longest game a matchup may ask for (the rulebook's is 12 turns, p.31).
MAX_LAST_TURN = 1000


class MatchupOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A matchup's options for the face-off and the Dogfight: two force lists (the object or its file) and
    how the games are set up."""

    forces: tuple[ForceList, ForceList]
    players: tuple[str, str] = DEMO_PLAYERS
    board: str = "3x3"
    #: the game ends after this turn (p.31: 12); at least 1, and at most :data:`MAX_LAST_TURN`
    last_turn: Annotated[int, msgspec.Meta(ge=1, le=MAX_LAST_TURN)] = 12
    points: int | None = None
    check_points: bool = True
    weather: str = "none"


def prepare_options(options: Mapping[str, Any], base_dir: str | None) -> dict[str, Any]:
    """The options checked, with force files (paths relative to ``base_dir``) read in."""
    forces = options.get("forces")
    if not isinstance(forces, list | tuple) or len(forces) != 2:
        raise DataError("a matchup has exactly two forces", source="matchup", field="forces")
    loaded = []
    for force in forces:
        if isinstance(force, str):
            path = Path(force) if base_dir is None or Path(force).is_absolute() else Path(base_dir) / force
            loaded.append(msgspec.to_builtins(load_force(path)))
        else:
            loaded.append(force)
    try:
        checked = msgspec.convert({**options, "forces": loaded}, MatchupOptions)
    except msgspec.ValidationError as err:
        detail, _, where = str(err).rpartition(" - at ")
        field = ".".join(part for part in where.strip("`$").replace("[", ".").replace("]", "").split(".") if part)
        raise DataError(detail or str(err), source="matchup", field=field or None) from None
    if checked.players[0] == checked.players[1]:
        raise DataError("the two players need different names", source="matchup", field="players")
    try:
        Board.preset(checked.board)
    except ValueError as err:
        raise DataError(str(err), source="matchup", field="board") from None
    return msgspec.to_builtins(checked)


def _options(options: Mapping[str, Any]) -> MatchupOptions:
    return msgspec.convert(dict(options), MatchupOptions)


def build_face_off(rules: Any, options: Mapping[str, Any], seed: int) -> Any:
    """Both forces placed along the south and north edges (deployment.face_off)."""
    chosen = _options(options)
    first, second = (chosen.players[0], chosen.forces[0]), (chosen.players[1], chosen.forces[1])
    setup = face_off(first, second, rules.catalogue, board=chosen.board, last_turn=chosen.last_turn,
                     check_points=chosen.check_points)
    return setup if chosen.weather == "none" else msgspec.structs.replace(setup, weather=chosen.weather)


def build_dogfight(rules: Any, options: Mapping[str, Any], seed: int) -> Any:
    """The Dogfight (p.34-35): a roll-off, then the players (bots here) place their aircraft in turn;
    ``points`` is the agreed points value."""
    chosen = _options(options)
    first, second = (chosen.players[0], chosen.forces[0]), (chosen.players[1], chosen.forces[1])
    return dogfight_setup(first, second, chosen.points if chosen.points is not None else 0, board=chosen.board,
                          weather=chosen.weather, catalogue=rules.catalogue, check_points=chosen.check_points)


def demo_options() -> dict[str, Any]:
    """The demo's Dogfight: the two 100-point forces on a 4'x4' Area of Engagement (p.9)."""
    return {"forces": [msgspec.to_builtins(force) for force in demo_forces()], "players": list(DEMO_PLAYERS),
            "points": DEMO_POINTS, "board": "4x4"}


def scenarios(rules: Any) -> dict[str, Scenario]:
    """The face-off and the Dogfight, in the order a matchup file's ``scenario`` lists them."""
    return {
        "face-off": Scenario(name="face-off", players=DEMO_PLAYERS,
                             description="both forces placed along the south and north edges, last turn 12",
                             build=functools.partial(build_face_off, rules), prepare=prepare_options,
                             default_options={**demo_options(), "board": "3x3"}),
        "dogfight": Scenario(name="dogfight", players=DEMO_PLAYERS,
                             description="The Dogfight (p.34-35): a set-up roll-off, then the aircraft are "
                                         "placed in turn",
                             build=functools.partial(build_dogfight, rules), prepare=prepare_options,
                             default_options=demo_options()),
    }


#: What ``aero demo`` plays: of seeds 1-79, seed 22's greedy-against-random Dogfight shows the most of the
#: rules (24 shots, damage, Stalls, Spins, Tailing, over 6 turns).
DEMO = ("dogfight", {}, ("greedy", "random"))
DEMO_SEED = 22


def demo_for(rules: Any) -> tuple[str, dict[str, Any], tuple[str, str]]:
    """The demo under ``rules``: the Dogfight's agreed points limit (p.9, p.34) is the smallest multiple of ten
    that both demo forces fit under this version's points, each within ten points of it: 100 under the 2019
    points, 110 under the 2020 update's, where the Veil Squadron costs 108."""
    totals = [force_points(force, rules.catalogue).total for force in demo_forces()]
    limit = max(DEMO_POINTS, -(-max(totals) // 10) * 10)
    name, options, bots = DEMO
    return name, ({**options, "points": limit} if limit != DEMO_POINTS else options), bots


# ---------------------------------------------------------------------------------------------------------
# Bots, secrets, legacy records, variants
# ---------------------------------------------------------------------------------------------------------


def bots() -> dict[str, BotInfo]:
    from aero_events.bots.random_bot import RandomBot

    from .baseline_bot import BaselineBot

    baseline = BotInfo(name="baseline", description="random among the choices that do not throw the game away "
                                                    "(no flying off the board, no Stall, Crash or Breaking Up by "
                                                    "choice)", make=lambda r, seed: BaselineBot(seed))
    return {
        "greedy": BotInfo(name="greedy", description="scores each option one step ahead: expected damage dealt "
                                                     "and received, the edge, Stalls", make=lambda r, seed: _greedy_bot(seed)),
        "baseline": baseline,
        # What aero simulate and aero compare play unless told (aero_events.bots.default_bot).
        "default": msgspec.structs.replace(baseline, name="default",
                                           description="the baseline bot, played unless --bots says otherwise"),
        "random": BotInfo(name="random", description="chooses uniformly among the legal commands",
                          make=lambda r, seed: RandomBot(seed)),
    }


def _greedy_bot(seed: int | str) -> Any:
    """A greedy bot; its module (and numpy) imported when one is made, not when the bots are listed."""
    from .bots import GreedyBot

    return GreedyBot(seed)


def is_secret_command(command: Any) -> bool:
    """A Manoeuvre token is placed face down (p.13): the command that places it is as secret as the token."""
    return isinstance(command, ChooseManoeuvre)


def legacy_command_candidates(point: DecisionPoint) -> Sequence[Any]:
    return legacy_commands.candidates(point)


def variant_from_metadata(name: str, metadata: Mapping[str, Any]) -> Any | None:
    """A user's variant, rebuilt from the definition a game's metadata carries (versions.py)."""
    registered = register_from_metadata(metadata)
    if registered != name:
        return None
    from .versions import VersionedRules

    return VersionedRules(name)


def variant_from_file(path: str) -> Any:
    """A user's variant file (versions.load_variant: JSON or TOML, validated and registered)."""
    from .versions import load_variant

    return load_variant(path)


def versions(extra: Sequence[str] = ()) -> list[VersionInfo]:
    """The package's versions and the variants loaded in this process (data/versions.json, versions.py)."""
    from .versions import build_version, known_versions

    found = []
    for name in known_versions():
        built = build_version(name)
        definition = built.definition
        changes = [f"{collection}.{entry_id}: {', '.join(f'{k}={v}' for k, v in fields.items())}"
                   for collection in ("aircraft", "weapons", "upgrades")
                   for entry_id, fields in getattr(definition, collection).items()]
        changes += [f"option {key}={value}" for key, value in definition.options.items()]
        found.append(VersionInfo(name=name, data_version=built.catalogue.data_version, based_on=definition.base or "",
                                 changes=tuple(changes), description=definition.description))
    return found
