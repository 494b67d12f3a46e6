"""Builders for the firing tests: positioned games that start in the Tailing Fire or Firing phase.

A :class:`Range` is a game whose initial state is built here, aircraft by aircraft (any Altitude, tokens,
upgrades, weapons), on a 30 x 30 hex board; positions are axial offsets from the centre hex ``C`` (flat-top,
N = (0, -1), NE = (1, -1), SE = (1, 0), S = (0, 1), SW = (-1, 1), NW = (-1, 0)). The phase is opened by
folding a real ``PhaseBegan`` event, so whose turn it is comes from the rules, not from the test.
Dice are :class:`ManualDice`: a test enters the faces it wants, and a roll nobody entered fails loudly.

The test catalogue adds to the default data what no shipped profile has (p.8, p.25, p.28): a Ground
Defence with Ground-to-Air weapons and an Autonomous weapon (an aircraft carries it through its
``weapons``).
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from aero_events.core import Envelope, Event, GameSession, ManualDice, RuleError
from aero_events.hexgrid import Hex
from aero_events.rulesets.aeronautica import AeronauticaRules
from aero_events.rulesets.aeronautica.commands import AcceptRoll, FireWeapons, PassFiring, UseReroll
from aero_events.rulesets.aeronautica.events import PhaseBegan, Shot
from aero_events.rulesets.aeronautica.profiles import (
    AircraftProfile,
    FireArcs,
    WeaponProfile,
    WeaponSpecialRule,
    build_catalogue,
    load_catalogue,
)
from aero_events.rulesets.aeronautica.scenarios.format import GroundTarget
from aero_events.rulesets.aeronautica.state import (
    FIRING,
    FLYING,
    MOVEMENT,
    TAILING_FIRE,
    AircraftState,
    GameState,
)
from tests.aeronautica.helpers import IMPERIUM, ORKS, of_type, one

__all__ = ["IMPERIUM", "ORKS", "of_type", "one"]

N, NE, SE, S, SW, NW = range(6)
BOARD = "30x30h"
C = Hex(15, 8)  # the centre of the board: offset (15, 15)


def at(dq: int, dr: int) -> Hex:
    """The hex at axial offset (dq, dr) from the centre."""
    return Hex(C.q + dq, C.r + dr)


# ---------------------------------------------------------------- test profiles (p.8, p.25, p.28)

FLAK = WeaponProfile(
    id="test_flak", name="Test Flak", fire_arc=FireArcs(arcs=("all_round",)), firepower=(3, 3, 3), damage=4,
    special_rules=(WeaponSpecialRule(rule="ground_to_air"), WeaponSpecialRule(rule="effective_altitude", value=2),
                   WeaponSpecialRule(rule="aerial_attack")))
LONG_FLAK = WeaponProfile(
    id="test_long_flak", name="Test Long Flak", fire_arc=FireArcs(arcs=("all_round",)), firepower=(2, 2, 2),
    damage=4, special_rules=(WeaponSpecialRule(rule="ground_to_air"),))
SEEKER = WeaponProfile(
    id="test_seeker", name="Test Seeker Missile", fire_arc=FireArcs(arcs=("front", "left", "right")),
    firepower=(0, 0, 0), damage=3, ammo=2,
    special_rules=(WeaponSpecialRule(rule="autonomous"), WeaponSpecialRule(rule="extra_damage", value=6)))
FLAK_EMPLACEMENT = AircraftProfile(
    id="test_flak_emplacement", name="Test Flak Emplacement", faction="imperial_navy",
    aircraft_class="Ground Defence", points=10, structure=2, throttle=0, ace_manoeuvres=(), min_speed=0,
    max_speed=0, max_altitude=0, handling=4, weapons=("test_flak", "test_long_flak"))


def make_rules() -> AeronauticaRules:
    """The 2019 rules on the default data plus the test profiles above."""
    base = load_catalogue()
    catalogue = build_catalogue(
        factions=base.factions.values(), aircraft=[*base.aircraft.values(), FLAK_EMPLACEMENT],
        weapons=[*base.weapons.values(), FLAK, LONG_FLAK, SEEKER], upgrades=base.upgrades.values(),
        data_version=base.data_version + "+firing-tests", source="tests/aeronautica/firing_helpers.py")
    return StateRules(catalogue=catalogue)


class StateRules(AeronauticaRules):
    """The rules, with a game's 'setup' being its initial GameState (tests position everything)."""

    def initial_state(self, setup: GameState) -> GameState:  # type: ignore[override]
        return setup


RULES = make_rules()


def rules_with(**options) -> AeronauticaRules:
    """The test rules (catalogue above) played with some RuleOptions changed."""
    from aero_events.rulesets.aeronautica import RuleOptions

    return StateRules(catalogue=RULES.catalogue, options=RuleOptions(**options))


def plane(aircraft_id: str, profile: str, hex: Hex, facing: int = N, *, altitude: int = 3, speed: int = 4,
          weapons: Iterable[str] | None = None, upgrades: Iterable[str] = (), owner: str | None = None,
          **changes) -> AircraftState:
    """An aircraft in the air; the owner is read from the id's prefix (``imperium-1``, ``orks-2``)."""
    profile_data = RULES.profile(AircraftState(id=aircraft_id, owner="", profile=profile, hex=hex, facing=facing,
                                               speed=speed, altitude=altitude, structure=1,
                                               upgrades=tuple(upgrades)))
    weapon_ids = tuple(profile_data.weapons if weapons is None else weapons)
    owner = owner or aircraft_id.split("-")[0]
    structure = changes.pop("structure", profile_data.structure)
    ammo = changes.pop("ammo", tuple(RULES.catalogue.weapons[w].ammo for w in weapon_ids))
    return AircraftState(id=aircraft_id, owner=owner, profile=profile, hex=hex, facing=facing, speed=speed,
                         altitude=altitude, structure=structure, starting_structure=profile_data.structure,
                         weapons=weapon_ids, ammo=ammo, upgrades=tuple(upgrades), points=profile_data.points,
                         **changes)


def ground_defence(aircraft_id: str, hex: Hex, **changes) -> AircraftState:
    """A Ground Defence (p.8): static, Altitude 0, firing Ground-to-Air (p.28)."""
    return plane(aircraft_id, "test_flak_emplacement", hex, altitude=0, speed=0, ground_defence=True, **changes)


def bunker(target_id: str, hex: Hex, owner: str | None = ORKS, structure: int = 2) -> GroundTarget:
    """A scenario's ground target (p.24, p.33)."""
    return GroundTarget(id=target_id, name=target_id.title(), hex=hex, owner=owner, structure=structure)


class Range:
    """A positioned game opened at the start of a Firing (or Tailing Fire) phase.

    With ``phase=MOVEMENT`` (and ``active``/``step`` in ``state_changes``) it starts with the last aircraft
    to move at its Altitude step, so the real Movement-to-Firing transition can be played.
    """

    def __init__(self, *aircraft: AircraftState, ground_targets: Iterable[GroundTarget] = (), phase: str = FIRING,
                 first: str | None = IMPERIUM, initiative: str | None = None, turn: int = 2,
                 rules: AeronauticaRules | None = None, **state_changes):
        state = GameState(players=(IMPERIUM, ORKS), board=BOARD, last_turn=12,
                          aircraft={a.id: msgspec.structs.replace(a, moved=a.id != state_changes.get("active"))
                                    for a in aircraft}, turn=turn,
                          phase=MOVEMENT, initiative=initiative or first,
                          first_mover=None if phase == TAILING_FIRE else first,
                          ground_targets=tuple(ground_targets), **state_changes)
        self.rules = rules or RULES
        self.dice = ManualDice()
        self.session = GameSession(self.rules, state, dice=self.dice, game_id="firing-test", checkpoints=False)
        self.record(PhaseBegan(phase=phase))

    # ---- reading
    @property
    def state(self) -> GameState:
        return self.session.state

    def aircraft(self, aircraft_id: str) -> AircraftState:
        return self.state.aircraft[aircraft_id]

    def legal(self, player: str) -> list:
        return self.session.legal_commands(player)

    def fire_options(self, aircraft_id: str) -> list[tuple[Shot, ...]]:
        """The volleys offered for one aircraft (FireWeapons commands' shots)."""
        owner = self.aircraft(aircraft_id).owner
        return [c.shots for c in self.legal(owner) if isinstance(c, FireWeapons) and c.aircraft == aircraft_id]

    # ---- playing
    def record(self, *events: Event) -> None:
        """Fold events as if they had happened (a position the tests want), without deciding them."""
        state, seq = self.session.state, self.session.seq
        envelopes = []
        for event in events:
            seq += 1
            turn, phase = self.rules.clock(state)
            envelopes.append(Envelope(game_id=self.session.game_id, branch_id=self.session.branch.id, seq=seq,
                                      turn=turn, phase=phase, actor=None, event=event))
            state = self.rules.evolve(state, event)
        self.session.record(envelopes)

    def apply(self, command, dice: Iterable[int] = ()) -> list[Event]:
        self.dice.enter(dice)
        return [env.event for env in self.session.apply(command) if not env.event.core_event]

    def fire(self, aircraft_id: str, *shots: Shot | tuple[int, str], dice: Iterable[int] = ()) -> list[Event]:
        """Fire ``aircraft_id``: each shot a :class:`Shot` or ``(weapon_index, target)``."""
        owner = self.aircraft(aircraft_id).owner
        made = tuple(s if isinstance(s, Shot) else Shot(weapon_index=s[0], target=s[1]) for s in shots)
        return self.apply(FireWeapons(player=owner, aircraft=aircraft_id, shots=made), dice)

    def pass_(self, player: str | None = None) -> list[Event]:
        return self.apply(PassFiring(player=player or self.state.to_act))

    def accept(self, aircraft_id: str) -> list[Event]:
        return self.apply(AcceptRoll(player=self.aircraft(aircraft_id).owner, aircraft=aircraft_id))

    def reroll(self, aircraft_id: str, dice: Iterable[int]) -> list[Event]:
        return self.apply(UseReroll(player=self.aircraft(aircraft_id).owner, aircraft=aircraft_id), dice)

    def refused(self, command, dice: Iterable[int] = ()) -> RuleError:
        """Apply a command that must be refused; check nothing was appended; return the error."""
        before = self.session.seq
        self.dice.enter(dice)
        try:
            self.session.apply(command)
        except RuleError as err:
            assert self.session.seq == before, "a refused command appended events"
            return err
        raise AssertionError(f"{command} was accepted")

    def refused_fire(self, aircraft_id: str, *shots: Shot | tuple[int, str]) -> RuleError:
        owner = self.aircraft(aircraft_id).owner
        made = tuple(s if isinstance(s, Shot) else Shot(weapon_index=s[0], target=s[1]) for s in shots)
        return self.refused(FireWeapons(player=owner, aircraft=aircraft_id, shots=made))


def rolls(events: Iterable[Event], purpose: str = ""):
    """The DiceRolled events among ``events`` whose purpose starts with ``purpose``."""
    from aero_events.core import DiceRolled

    return [e for e in events if isinstance(e, DiceRolled) and e.purpose.startswith(purpose)]


__all__ += [
    "BOARD",
    "FLYING",
    "NE",
    "NW",
    "RULES",
    "SE",
    "SW",
    "C",
    "N",
    "Range",
    "S",
    "at",
    "bunker",
    "ground_defence",
    "plane",
    "rolls",
    "rules_with",
]
