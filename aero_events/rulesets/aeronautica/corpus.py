"""Aeronautica's golden corpus (``aero corpus``, ``replays/``): the scenarios, what the corpus must cover and
what one game covers. The search, the files and the checks are the tool's (``aero_events/regress/corpus.py``);
``AeronauticaRules.corpus()`` hands it :data:`PLAN`.

The corpus covers

* every aircraft type of the package's data (``aircraft:<id>``),
* every weapon special rule (``weapon_rule:<rule>``, p.24-25), each in the use it is about: Extra
  Damage doubling a Damage dice, Tail Gunner return fire, a Bombing Run with a Ground Attack weapon,
  Aerial Attack at an aircraft, Ground-to-Air Fire and an Effective Altitude from a Ground Defence, an
  Autonomous weapon launched (the last three need the ``corpus/ground-war`` variant, ``ground-war.json``
  in ``aero_events/regress/``: no shipped profile has them);
* every End phase outcome (p.29-30): ``end:stall_recovered``, ``end:spin_entered``,
  ``end:spin_recovered``, ``end:spin_crash``, ``end:tailing``;
* an occupied hex flown through (p.17 step 6), and the 2020 roll for it under ``aeronautica/faq-2020``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from importlib import resources

from aero_events.core import Envelope
from aero_events.core.interface import CorpusPlan, CorpusScenario

from .forces import AircraftEntry, ForceList
from .profiles import WEAPON_SPECIAL_RULES, load_catalogue
from .ruleset import AeronauticaRules
from .scenarios.dogfight import dogfight_setup
from .scenarios.format import GroundTarget
from .setup import GameSetup, Placement, SideSetup, board_for
from .state import GameState
from .versions import DEFAULT_VERSION, FAQ_2020, parse_variant, register_variant, rules_for

GROUND_WAR = "corpus/ground-war"
PLAYERS = ("imperium", "orks")
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
    raw = resources.files("aero_events.regress").joinpath("ground-war.json").read_bytes()  # its data file
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


TAILED_BOMBERS = ForceList(name="Corpus tailed bombers", faction="imperial_navy", aircraft=(
    _entry("marauder"),
    _entry("marauder"),
))
TAILING_FIGHTERS = ForceList(name="Corpus tailing fighters", faction="ork_air_waaagh", aircraft=(
    _entry("dakkajet"),
    _entry("dakkajet"),
))


def _tail_chase(rules: AeronauticaRules) -> GameSetup:
    """Two Marauders (a Rear Turret: Tail Gunner, p.24) flying north, each with a Dakkajet two hexes straight
    behind it at the same Altitude and Speed: a Tailing position from the first End phase (p.30), so the
    Dakkajets fire in the next Tailing Fire phase and the Marauders may return fire."""
    area = board_for("3x3")
    columns = (area.columns // 3, 2 * area.columns // 3)
    ahead = [Placement(hex=area.from_offset(column, area.rows_in_column(column) - 10), facing=0, speed=4, altitude=3)
             for column in columns]
    behind = [Placement(hex=area.from_offset(column, area.rows_in_column(column) - 8), facing=0, speed=4, altitude=3)
              for column in columns]
    return GameSetup(sides=(SideSetup(player=PLAYERS[0], force=TAILED_BOMBERS, placements=tuple(ahead)),
                            SideSetup(player=PLAYERS[1], force=TAILING_FIGHTERS, placements=tuple(behind))),
                     board="3x3", check_points=False)


LOW_WING = ForceList(name="Corpus low wing", faction="imperial_navy", aircraft=(
    _entry("thunderbolt"), _entry("marauder"), _entry("thunderbolt_fury"),
))
LOW_MOB = ForceList(name="Corpus low mob", faction="ork_air_waaagh", aircraft=(
    _entry("dakkajet"), _entry("fighta_bommer"), _entry("dakkajet"),
))


def _low_and_slow(rules: AeronauticaRules) -> GameSetup:
    """Two forces without upgrades placed along their edges as in :func:`_placed`, but at Altitude 1 and Min Speed: a throttle
    cut Stalls (p.17), a failed Stall recovery Spins at Altitude 1 and a failed Spin recovery crashes (p.29)."""
    placed = _placed("3x3", (LOW_WING, LOW_MOB), rules)
    sides = []
    for side in placed.sides:
        placements = tuple(
            Placement(hex=placement.hex, facing=placement.facing, altitude=1,
                      speed=rules.catalogue.aircraft[entry.aircraft].min_speed)
            for entry, placement in zip(side.force.aircraft, side.placements, strict=True))
        sides.append(SideSetup(player=side.player, force=side.force, placements=placements))
    return GameSetup(sides=(sides[0], sides[1]), board=placed.board, check_points=False,
                     ground_targets=placed.ground_targets)


def _dogfight(rules: AeronauticaRules) -> GameSetup:
    return dogfight_setup((PLAYERS[0], IMPERIAL_WING), (PLAYERS[1], ORK_MOB), 75, board="3x3",
                          ground_targets=_bunkers("3x3"), catalogue=rules.catalogue, check_points=False)


SCENARIOS: tuple[CorpusScenario, ...] = (
    CorpusScenario(
        name="dogfight-2019", ruleset=DEFAULT_VERSION,
        description="The Dogfight (p.34-35) with every aircraft type, set up by the bots in turn, bunkers to bomb",
        build=_dogfight, bots=("greedy", "random"), players=PLAYERS,
        targets=frozenset(required_coverage() - {"faq-2020:occupied_hex_roll", "weapon_rule:ground_to_air",
                                                 "weapon_rule:effective_altitude", "weapon_rule:autonomous",
                                                 "weapon_rule:tail_gunner"}),
    ),
    CorpusScenario(
        name="faq-2020", ruleset=FAQ_2020,
        description="The same forces placed along their edges under the 2020 update (the occupied-hex roll)",
        build=lambda rules: _placed("3x3", (IMPERIAL_WING, ORK_MOB), rules), bots=("random", "greedy"),
        players=PLAYERS, targets=frozenset({"faq-2020:occupied_hex_roll"}),
    ),
    CorpusScenario(
        name="ground-war", ruleset=GROUND_WAR,
        description="Flak emplacements and an Autonomous missile (the corpus/ground-war variant) against raiders",
        build=lambda rules: _placed("3x3", (GROUND_WAR_DEFENDERS, GROUND_WAR_RAIDERS), rules),
        bots=("random", "greedy"), players=PLAYERS,
        targets=frozenset({"weapon_rule:ground_to_air", "weapon_rule:effective_altitude", "weapon_rule:autonomous"}),
    ),
    CorpusScenario(
        name="tail-chase", ruleset=DEFAULT_VERSION,
        description="Marauders with a Dakkajet on each one's tail: Tailing Fire and Tail Gunner return fire (p.24)",
        build=_tail_chase, bots=("greedy", "greedy"), players=PLAYERS,
        targets=frozenset({"weapon_rule:tail_gunner"}),
    ),
    CorpusScenario(
        name="low-and-slow", ruleset=DEFAULT_VERSION,
        description="The same forces along their edges at Altitude 1 and Min Speed: Stalls, Spins and a crash (p.29)",
        build=_low_and_slow, bots=("random", "random"), players=PLAYERS,
        targets=frozenset({"end:spin_crash"}),
    ),
)


PLAN = CorpusPlan(scenarios=SCENARIOS, required=required_coverage(), coverage=coverage, rules_for=corpus_rules)
