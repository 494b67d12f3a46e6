"""The golden corpus: recorded bot games in ``replays/`` that every change to the rules is checked against.

``aero corpus --out replays/`` plays the scenarios of :data:`SCENARIOS` with fixed seeds, keeping a game
whenever it covers something no kept game covers yet, until the corpus covers

* every aircraft type of the package's data (``aircraft:<id>``),
* every weapon special rule (``weapon_rule:<rule>``, p.24-25), each in the use it is about: Extra
  Damage doubling a Damage dice, Tail Gunner return fire, a Bombing Run with a Ground Attack weapon,
  Aerial Attack at an aircraft, Ground-to-Air Fire and an Effective Altitude from a Ground Defence, an
  Autonomous weapon launched (the last three need the ``corpus/ground-war`` variant, ``ground-war.json``
  beside this module: no shipped profile has them);
* every End phase outcome (p.29-30): ``end:stall_recovered``, ``end:spin_entered``,
  ``end:spin_recovered``, ``end:spin_crash``, ``end:tailing``;
* an occupied hex flown through (p.17 step 6), and the 2020 roll for it under ``aeronautica/faq-2020``.

The search is deterministic (seeds 1, 2, 3... per scenario), so regenerating rewrites identical files
unless the rules changed; ``git diff replays/`` then shows what did. Each game is a JSON Lines file in
the export format (:mod:`.jsonl`); ``MANIFEST.json`` lists the files, their seeds, what each covers and
each final state hash. :func:`check_game` replays a corpus game under its own ruleset: folding its
events (checkpoint hashes and the final hash must match) and deciding its recovered commands again
(every event must match), failing at the first event that changed.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path

import msgspec

from aero_events.bots import GreedyBot, RandomBot, play
from aero_events.core import Envelope, GameSession, ManualDice, ReplayMismatch, SeededDice
from aero_events.core.secrets import SaltSource
from aero_events.rulesets.aeronautica import AeronauticaRules
from aero_events.rulesets.aeronautica.forces import AircraftEntry, ForceList
from aero_events.rulesets.aeronautica.profiles import WEAPON_SPECIAL_RULES, load_catalogue
from aero_events.rulesets.aeronautica.scenarios.dogfight import dogfight_setup
from aero_events.rulesets.aeronautica.scenarios.format import GroundTarget
from aero_events.rulesets.aeronautica.setup import GameSetup, Placement, SideSetup, board_for
from aero_events.rulesets.aeronautica.state import GameState
from aero_events.rulesets.aeronautica.versions import (
    DEFAULT_VERSION,
    FAQ_2020,
    parse_variant,
    register_variant,
    rules_for,
    variant_metadata,
)

from .jsonl import write_game_jsonl
from .recorded import RecordedGame, from_jsonl
from .rerun import rerun

MANIFEST = "MANIFEST.json"
GROUND_WAR = "corpus/ground-war"
#: Every corpus file says it was created at this moment, so regenerating gives identical bytes.
CREATED = datetime(2020, 1, 1, tzinfo=UTC)
PLAYERS = ("imperium", "orks")
BOTS: dict[str, Callable[[str], object]] = {"greedy": GreedyBot, "random": RandomBot}

END_PHASE_OUTCOMES = ("end:stall_recovered", "end:spin_entered", "end:spin_recovered", "end:spin_crash",
                      "end:tailing")
MOVEMENT_ITEMS = ("movement:occupied_hex", "faq-2020:occupied_hex_roll")


def required_coverage() -> frozenset[str]:
    """Everything the corpus must cover (see the module docstring)."""
    aircraft = {f"aircraft:{aircraft_id}" for aircraft_id in load_catalogue().aircraft}
    rules = {f"weapon_rule:{rule}" for rule in WEAPON_SPECIAL_RULES}
    return frozenset(aircraft | rules | set(END_PHASE_OUTCOMES) | set(MOVEMENT_ITEMS))


def ground_war_rules() -> AeronauticaRules:
    """The ``corpus/ground-war`` variant (``ground-war.json``): a Ground Defence and an Autonomous weapon."""
    raw = resources.files("aero_events.regress").joinpath("ground-war.json").read_bytes()
    return register_variant(parse_variant(raw, "aero_events/regress/ground-war.json"))


def corpus_rules(name: str) -> AeronauticaRules:
    return ground_war_rules() if name == GROUND_WAR else rules_for(name)


# ---------------------------------------------------------------------------------------------------------
# What a game covers
# ---------------------------------------------------------------------------------------------------------


def coverage(rules: AeronauticaRules, initial: GameState, envelopes: Iterable[Envelope]) -> set[str]:
    """The corpus items one line of play covers."""
    items: set[str] = set()
    weapons = rules.catalogue.weapons
    profiles = {aircraft.id: aircraft.profile for aircraft in initial.aircraft.values()}
    state_weapons = {aircraft.id: aircraft.weapons for aircraft in initial.aircraft.values()}
    volley_kind = None
    for envelope in envelopes:
        event, kind = envelope.event, envelope.type
        if kind == "ai.AircraftActivated":
            items.add(f"aircraft:{profiles[event.aircraft]}")
        elif kind == "ai.VolleyDeclared":
            volley_kind = event.kind
        elif kind == "ai.WeaponFired":
            weapon = weapons[event.weapon]
            if weapon.has_rule("tail_gunner") and volley_kind == "tail_gunner" and event.dice:
                items.add("weapon_rule:tail_gunner")
            if weapon.has_rule("ground_attack") and event.attack == "bombing" and event.dice:
                items.add("weapon_rule:ground_attack")
            if weapon.has_rule("aerial_attack") and event.attack in ("air", "ground_to_air") and event.dice:
                items.add("weapon_rule:aerial_attack")
            if weapon.has_rule("ground_to_air") and event.attack == "ground_to_air" and event.dice:
                items.add("weapon_rule:ground_to_air")
                if weapon.has_rule("effective_altitude"):
                    items.add("weapon_rule:effective_altitude")
        elif kind == "ai.AutonomousLaunched":
            items.add("weapon_rule:autonomous")
        elif kind == "ai.DamageRolled" and event.weapon_index is not None and event.structure > event.damaging:
            weapon = weapons[state_weapons[event.aircraft][event.weapon_index]]
            if weapon.has_rule("extra_damage"):
                items.add("weapon_rule:extra_damage")
        elif kind == "ai.StallRecovered":
            items.add("end:stall_recovered")
        elif kind == "ai.SpinEntered":
            items.add("end:spin_entered")
        elif kind == "ai.SpinRecovered":
            items.add("end:spin_recovered")
        elif kind == "ai.AircraftDestroyed" and event.cause == "crashed in a spin":
            items.add("end:spin_crash")
        elif kind == "ai.TailingDetermined" and event.target is not None:
            items.add("end:tailing")
        elif kind == "ai.ManoeuvreFlown" and event.pushed:
            items.add("movement:occupied_hex")
        elif kind == "ai.OccupiedHexRolled":
            items.add("faq-2020:occupied_hex_roll")
    return items


# ---------------------------------------------------------------------------------------------------------
# The scenarios
# ---------------------------------------------------------------------------------------------------------


def _entry(aircraft: str, *weapons: str, upgrades: Sequence[str] = ()) -> AircraftEntry:
    return AircraftEntry(aircraft=aircraft, weapons=tuple(weapons), upgrades=tuple(upgrades))


IMPERIAL_WING = ForceList(name="Corpus Imperial wing", faction="imperial_navy", aircraft=(
    _entry("thunderbolt", "skystrike_missiles", "wing_bombs", upgrades=("imperial_ace",)),
    _entry("thunderbolt_fury", "hellstrike_missiles", "hellstrike_missiles", upgrades=("flares_or_chaff_launchers",)),
    _entry("marauder", "skystrike_missiles", upgrades=("armoured_cockpit", "ejector_seats")),
))
ORK_MOB = ForceList(name="Corpus Ork mob", faction="ork_air_waaagh", aircraft=(
    _entry("dakkajet", "rokkits", "wing_bombs", upgrades=("fly_boss",)),
    _entry("fighta_bommer", "big_bombs", "big_bombs", upgrades=("extra_armour", "belching_smoke")),
    _entry("dakkajet", "rokkits", upgrades=("wazmek_speshul",)),
))
GROUND_WAR_DEFENDERS = ForceList(name="Corpus flak line", faction="imperial_navy", aircraft=(
    _entry("thunderbolt"),
    _entry("corpus_flak_emplacement"),
    _entry("corpus_flak_emplacement"),
))
GROUND_WAR_RAIDERS = ForceList(name="Corpus raiders", faction="ork_air_waaagh", aircraft=(
    _entry("fighta_bommer", "big_bombs"),
    _entry("dakkajet", "wing_bombs"),
    _entry("dakkajet"),
))


def _bunkers(board: str) -> tuple[GroundTarget, ...]:
    """A bunker a few hexes in from each side's edge, worth 10 Victory points to the other side."""
    area = board_for(board)
    column = area.columns // 2
    return (
        GroundTarget(id="imperial-bunker", name="Imperial bunker", hex=area.from_offset(column - 2,
                     area.rows_in_column(column - 2) - 5), owner=PLAYERS[0], structure=2, victory_points=10),
        GroundTarget(id="ork-bunker", name="Ork bunker", hex=area.from_offset(column + 2, 4), owner=PLAYERS[1],
                     structure=2, victory_points=10),
    )


def _placed(board: str, forces: tuple[ForceList, ForceList], rules: AeronauticaRules) -> GameSetup:
    """Both forces placed along their edges (south, north) facing each other; Ground Defences four rows in."""
    area = board_for(board)
    sides = []
    for player, force, north in ((PLAYERS[0], forces[0], False), (PLAYERS[1], forces[1], True)):
        placements = []
        count = len(force.aircraft)
        for index, entry in enumerate(force.aircraft):
            profile = rules.catalogue.aircraft[entry.aircraft]
            column = min(max(round((index + 1) * area.columns / (count + 1)), 0), area.columns - 1)
            depth = 4 if profile.is_ground_defence else 1
            row = depth if north else area.rows_in_column(column) - 1 - depth
            hex = area.from_offset(column, row)
            if profile.is_ground_defence:
                placements.append(Placement(hex=hex, facing=3 if north else 0, speed=0, altitude=0))
            else:
                placements.append(Placement(hex=hex, facing=3 if north else 0,
                                            speed=(profile.min_speed + profile.max_speed) // 2,
                                            altitude=max(1, (profile.max_altitude + 1) // 2)))
        sides.append(SideSetup(player=player, force=force, placements=tuple(placements)))
    return GameSetup(sides=(sides[0], sides[1]), board=board, check_points=False,
                     ground_targets=_bunkers(board))


@dataclass(frozen=True)
class CorpusScenario:
    """One kind of corpus game: a ruleset, two forces and how they are set up, the bots, and what it is for."""

    name: str
    ruleset: str
    description: str
    build: Callable[[AeronauticaRules], GameSetup]
    bots: tuple[str, str]
    targets: frozenset[str] = field(default_factory=frozenset)


def _dogfight(rules: AeronauticaRules) -> GameSetup:
    return dogfight_setup((PLAYERS[0], IMPERIAL_WING), (PLAYERS[1], ORK_MOB), 75, board="3x3",
                          ground_targets=_bunkers("3x3"), catalogue=rules.catalogue, check_points=False)


SCENARIOS: tuple[CorpusScenario, ...] = (
    CorpusScenario(
        name="dogfight-2019", ruleset=DEFAULT_VERSION,
        description="The Dogfight (p.34-35) with every aircraft type, set up by the bots in turn, bunkers to bomb",
        build=_dogfight, bots=("greedy", "random"),
        targets=frozenset(required_coverage() - {"faq-2020:occupied_hex_roll", "weapon_rule:ground_to_air",
                                                 "weapon_rule:effective_altitude", "weapon_rule:autonomous"}),
    ),
    CorpusScenario(
        name="faq-2020", ruleset=FAQ_2020,
        description="The same forces placed along their edges under the 2020 update (the occupied-hex roll)",
        build=lambda rules: _placed("3x3", (IMPERIAL_WING, ORK_MOB), rules), bots=("random", "greedy"),
        targets=frozenset({"faq-2020:occupied_hex_roll"}),
    ),
    CorpusScenario(
        name="ground-war", ruleset=GROUND_WAR,
        description="Flak emplacements and an Autonomous missile (the corpus/ground-war variant) against raiders",
        build=lambda rules: _placed("3x3", (GROUND_WAR_DEFENDERS, GROUND_WAR_RAIDERS), rules),
        bots=("random", "greedy"),
        targets=frozenset({"weapon_rule:ground_to_air", "weapon_rule:effective_altitude", "weapon_rule:autonomous"}),
    ),
)


def scenario(name: str) -> CorpusScenario:
    for candidate in SCENARIOS:
        if candidate.name == name:
            return candidate
    raise KeyError(f"unknown corpus scenario {name!r}; known: {', '.join(s.name for s in SCENARIOS)}")


def play_scenario(scenario: CorpusScenario, seed: int) -> GameSession:
    """One seeded bot game of ``scenario``, played to its end."""
    rules = corpus_rules(scenario.ruleset)
    metadata: dict[str, object] = {"corpus": scenario.name, "seed": seed, "bots": list(scenario.bots),
                                   "description": scenario.description}
    variant = variant_metadata(rules)
    if variant is not None:
        metadata["variant"] = variant
    session = GameSession(rules, scenario.build(rules), dice=SeededDice(f"corpus:{scenario.name}:{seed}"),
                          game_id=f"corpus-{scenario.name}-{seed}", metadata=metadata)
    bots = {player: BOTS[name](f"corpus:{scenario.name}:{seed}:{player}")
            for player, name in zip(PLAYERS, scenario.bots, strict=True)}
    play(session, bots)
    return session


# ---------------------------------------------------------------------------------------------------------
# Generating and checking
# ---------------------------------------------------------------------------------------------------------


class ManifestGame(msgspec.Struct, frozen=True, kw_only=True):
    """One corpus file: its game, how it was made, what it covers and its final state hash."""

    file: str
    game_id: str
    scenario: str
    ruleset: str
    data_version: str
    seed: int
    bots: tuple[str, str]
    events: int
    covers: tuple[str, ...]
    final_state_hash: str


class Manifest(msgspec.Struct, frozen=True, kw_only=True):
    """``replays/MANIFEST.json``."""

    generated_by: str
    games: tuple[ManifestGame, ...]
    coverage: dict[str, list[str]]
    missing: tuple[str, ...]


def generate(out: str | os.PathLike, *, max_seeds: int = 30, say: Callable[[str], None] = print) -> Manifest:
    """Search seeds scenario by scenario until the corpus covers :func:`required_coverage`; write the games
    and ``MANIFEST.json`` to ``out`` (files of an earlier corpus that are no longer in it are removed)."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    required = required_coverage()
    covered: dict[str, list[str]] = {}
    kept: list[ManifestGame] = []
    for spec in SCENARIOS:
        kept_here = 0
        for seed in range(1, max_seeds + 1):
            if kept_here and not (spec.targets - covered.keys()):
                break
            session = play_scenario(spec, seed)
            items = coverage(session.ruleset, session.state_at(0), session.events())
            new = (items & required) - covered.keys()
            if not new and kept_here:
                continue
            name = f"{spec.name}-seed{seed}.jsonl"
            count = write_game_jsonl(session.game, folder / name, created=CREATED)
            for item in sorted(items & required):
                covered.setdefault(item, []).append(name)
            kept.append(ManifestGame(file=name, game_id=session.game_id, scenario=spec.name,
                                     ruleset=session.ruleset.name, data_version=str(session.ruleset.data_version),
                                     seed=seed, bots=spec.bots, events=count, covers=tuple(sorted(items & required)),
                                     final_state_hash=session.state_hash()))
            kept_here += 1
            say(f"{name}: {count} events, new: {', '.join(sorted(new)) or '-'}")
    missing = tuple(sorted(required - covered.keys()))
    manifest = Manifest(generated_by="aero corpus --out replays/", games=tuple(kept),
                        coverage={item: covered[item] for item in sorted(covered)}, missing=missing)
    _remove_stale(folder, {game.file for game in kept})
    (folder / MANIFEST).write_bytes(msgspec.json.format(msgspec.json.encode(manifest), indent=2) + b"\n")
    if missing:
        say(f"not covered: {', '.join(missing)}")
    return manifest


def _remove_stale(folder: Path, keep: set[str]) -> None:
    previous = folder / MANIFEST
    if not previous.exists():
        return
    try:
        listed = [game["file"] for game in json.loads(previous.read_text())["games"]]
    except (ValueError, KeyError, TypeError):
        return
    for name in listed:
        if name not in keep and (folder / name).exists():
            (folder / name).unlink()


def read_manifest(folder: str | os.PathLike) -> Manifest:
    path = Path(folder) / MANIFEST
    return msgspec.json.decode(path.read_bytes(), type=Manifest)


class CorpusMismatch(AssertionError):
    """A corpus game that no longer replays identically under its own ruleset."""


def check_game(folder: str | os.PathLike, entry: ManifestGame) -> RecordedGame:
    """Replay one corpus game under its own ruleset; raise :class:`CorpusMismatch` naming the first change.

    1. Fold the recorded events (``GameSession.record``): every checkpoint hash and the final state hash
       must match the manifest.
    2. Decide the recovered commands again with the recorded dice: every event must match.
    """
    path = Path(folder) / entry.file
    game = from_jsonl(path)
    rules = game.own_rules()  # a variant's definition travels in the game's metadata
    session = GameSession(rules, game.setup(rules), dice=ManualDice(), salts=SaltSource("corpus"),
                          game_id=game.game_id)
    try:
        session.record(game.envelopes)
    except ReplayMismatch as err:
        raise CorpusMismatch(f"{entry.file}: folding the recorded events under {rules.name}: {err}") from None
    if session.state_hash() != entry.final_state_hash:
        raise CorpusMismatch(f"{entry.file}: the final state hash is {session.state_hash()[:12]}, the manifest "
                             f"says {entry.final_state_hash[:12]}")
    report = rerun(game, rules, own_rules=rules)
    if report.error is not None:
        raise CorpusMismatch(f"{entry.file}: {report.error}")
    if not report.identical:
        divergence = report.divergence
        if divergence is not None:
            at = divergence.where
            raise CorpusMismatch(
                f"{entry.file}: the first event that changed is seq {at.seq} (turn {at.turn}, {at.phase} phase): "
                f"recorded {divergence.old.text if divergence.old else 'nothing'}; now "
                f"{divergence.new.text if divergence.new else 'nothing'}")
        raise CorpusMismatch(f"{entry.file}: {report.state_difference or report.stopped or 'not identical'}")
    return game
