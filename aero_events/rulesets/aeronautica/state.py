"""The state of a game of Aeronautica Imperialis: immutable Structs, folded from events.

The state is the referee's view (it holds every secret); :func:`player_view`
strips what a player may not see (p.13: Manoeuvre tokens are placed face down).
"""

from __future__ import annotations

import operator
from typing import Any

import msgspec

from aero_events.core import DiceRolled
from aero_events.hexgrid import Hex, Pose

from .scenarios.format import GroundTarget, LandingZone, TerrainFeature

# Phases of a turn (p.13-14), in order.
CHOOSE_MANOEUVRES = "choose_manoeuvres"
INITIATIVE = "initiative"
TAILING_FIRE = "tailing_fire"
MOVEMENT = "movement"
FIRING = "firing"
END = "end"
GAME_OVER = "game_over"
PHASES = (CHOOSE_MANOEUVRES, INITIATIVE, TAILING_FIRE, MOVEMENT, FIRING, END)

# Steps of one aircraft's movement (p.15).
THROTTLE = "throttle"
MANOEUVRE = "manoeuvre"
ALTITUDE = "altitude"
GROUND = "ground"  # a landed aircraft: taxi or take off (p.19)

# Where an aircraft is.
FLYING = "flying"
LANDED = "landed"
DESTROYED = "destroyed"
DISENGAGED = "disengaged"
RESERVE = "reserve"
UNDEPLOYED = "undeployed"  # not yet set up: the set-up phase places it (p.34)

# Phases before turn 1 and at the start of a turn (scenarios part, p.33-34).
SET_UP = "set_up"
ARRIVALS = "reserves"  # arrived reserves are placed, before Choose Manoeuvres (p.33)


class AircraftState(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One aircraft on (or off) the Area of Engagement.

    The state Structs here are not tracked by the garbage collector (``gc=False``): they are immutable
    trees (no reference cycles), and a session keeps the state after every event, so tracking them made
    each collection walk every state of every game in memory.

    ``manoeuvre`` and ``salt`` are the face-down token (secret until revealed);
    ``commitment`` is what the opponent sees of it.
    """

    id: str
    owner: str
    profile: str
    hex: Hex
    facing: int
    speed: int
    altitude: int
    structure: int
    status: str = FLYING
    # What it carries (p.10-11, p.36-47): weapon ids (standard, additional, from upgrades) with the
    # ammunition left in each (None: unlimited), its upgrades, its total points and starting Structure.
    weapons: tuple[str, ...] = ()
    ammo: tuple[int | None, ...] = ()
    upgrades: tuple[str, ...] = ()
    points: int = 0
    starting_structure: int = 0
    stalled: bool = False
    spinning: bool = False
    disengaged_how: str | None = None  # "accidental" | "voluntary" (p.17)
    # This turn:
    commitment: str | None = None
    manoeuvre: int | None = None
    salt: str | None = None
    revealed: int | None = None
    moved: bool = False
    may_land: bool = False
    took_off_turn: int | None = None
    path: tuple[Hex, ...] = ()
    # Firing (p.20-25):
    fired: bool = False
    tailing: str | None = None  # the aircraft it is Tailing, determined in the End phase (p.30)
    tail_gunner_used: bool = False  # once per turn (p.24)
    # Once per game (p.37, p.44):
    reroll_used: bool = False
    decoy_used: bool = False  # Flares or Chaff Launchers / Belching Smoke
    # End phase, victory and scenarios part (p.29-37):
    ground_defence: bool = False  # a Ground Defence (p.8): static, at Altitude 0, never chooses or moves
    crew_escaped: bool | None = None  # Ejector Seats (p.37): None until rolled after its destruction
    cargo_delivered: int = 0  # Transport points landed or dropped as Jump Troops (p.37)
    # The rules audit (issue 19):
    entered_turn: int = 1  # the turn it entered play (1, or a reserve's arrival): its Fuel counts from it (p.11)
    no_token: bool = False  # Hovering, it took no Manoeuvre token this turn (p.16): Speed stays 0
    tailing_candidates: tuple[str, ...] = ()  # RuleOptions(tailing_choice="player"): every enemy it tails (p.30)

    @property
    def damaged(self) -> bool:
        return self.structure < self.starting_structure

    @property
    def pose(self) -> Pose:
        return Pose(self.hex, self.facing)

    @property
    def in_play(self) -> bool:
        """On the Area of Engagement: flying or landed."""
        return self.status in (FLYING, LANDED)


class GameState(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """Everything the rules need between two events."""

    players: tuple[str, str]
    board: str
    last_turn: int
    aircraft: dict[str, AircraftState]
    turn: int = 1
    phase: str = CHOOSE_MANOEUVRES
    initiative: str | None = None
    initiative_rolls: int = 0
    first_mover: str | None = None
    to_act: str | None = None
    active: str | None = None
    step: str | None = None
    passed: tuple[str, ...] = ()
    disengagement_turn: bool = False
    winner: str | None = None
    end_reason: str | None = None
    # End phase, victory and scenarios part (p.29-37); see scenarios/, victory.py, reserves.py, weather.py:
    edges: dict[str, str] = msgspec.field(default_factory=dict)  # each player's deployment edge (p.34)
    deployment_depth: int = 3  # aircraft set up within this many hexes of their edge (p.34)
    ground_defence_depth: int = 6  # Ground Defences within this many (p.34)
    rolled_off: str | None = None  # the winner of the set-up roll-off (p.34)
    weather_rule: str = "none"  # "none" | "roll" | "bad_weather" | "night_fighting" (p.33)
    weather: str | None = None  # the conditions: "exceptional_visibility" | "bad_weather" | "night_fighting"
    night_fighting: bool = False  # Night Fighting in force everywhere (p.33)
    cloud_level: int | None = None  # Bad Weather: at this Altitude or below, Night Fighting rules (p.33)
    underdog: str | None = None  # has the initiative in turn 1 (the Dogfight's Underdog rule, p.35)
    arriving: tuple[str, ...] = ()  # reserves that arrived this turn and wait to be placed (p.33)
    terrain: tuple[TerrainFeature, ...] = ()  # Terrain Height (p.33)
    ground_targets: tuple[GroundTarget, ...] = ()  # p.33
    ground_targets_destroyed: dict[str, str | None] = msgspec.field(default_factory=dict)  # target -> by
    landing_zones: tuple[LandingZone, ...] = ()  # p.33
    transport_vp: dict[str, int] = msgspec.field(default_factory=dict)  # tally of troops delivered (p.37)
    victory_points: dict[str, int] = msgspec.field(default_factory=dict)  # scored when the game ends (p.32)
    # Firing part (p.20-28), see firing.py, ground.py, autonomous.py: the volley being resolved, a Tail
    # Gunner's pending return fire (p.24), and the Autonomous weapons in play (p.25).
    volley: Volley | None = None
    return_fire: ReturnFire | None = None
    autonomous: dict[str, AutonomousWeapon] = msgspec.field(default_factory=dict)
    autonomous_launched: int = 0
    # Imperial Ace / Fly Boss (p.37, p.45) outside a volley: a roll waiting for AcceptRoll or UseReroll, and the
    # End phase steps already resolved this End phase (so the phase resumes where the roll paused it).
    pending_roll: AutoRoll | None = None
    end_phase_done: tuple[str, ...] = ()

    def side(self, player: str) -> list[AircraftState]:
        return [a for a in self.aircraft.values() if a.owner == player]

    def opponent(self, player: str) -> str:
        first, second = self.players
        return second if player == first else first

    def occupied(self, exclude: str | None = None) -> set[Hex]:
        """Hexes holding another aircraft in play (p.7 'The Infinite Skies', p.17).

        A Ground Defence (or ground target) does not push a moving aircraft on: its model is
        moved aside and the aircraft ends Directly Overhead it (p.17 step 6, p.21). Landed
        aircraft are aircraft on their bases and do occupy their hex.
        """
        return {a.hex for a in self.aircraft.values() if a.in_play and a.id != exclude and not a.ground_defence}


_replace = msgspec.structs.replace


class FoldScope:
    """The mark of one :meth:`AeronauticaRules.fold`'s working copy: a reducer given it changes the state in place.

    A fold returns only its last state: the states between two of its events are seen by nobody but the next
    reducer (the "transient" of persistent data structures). So the fold thaws the state once, when it meets its
    first event that has a reducer (:func:`thaw`: the state and every aircraft as plain ``__slots__`` drafts,
    :class:`StateDraft` and :class:`AircraftDraft`, in a new mapping), its reducers change those drafts in place
    (``state.step = ...``, ``aircraft.moved = True``, :func:`replaced`, the mapping's items), and it freezes the
    last one back into a :class:`GameState` (:func:`freeze`). A reducer that takes no scope is given a frozen
    state and its new state is thawed again (the fold's ``without_scope``, ruleset.py).

    Only drafts are changed in place, never the state the fold started from (it is read, not changed), nor
    anything ``evolve`` gave: ``evolve`` passes no scope, so every state it returns is a new one and every state
    it was given stays as it was (tests/aeronautica/test_fold_speed.py).

    Reducers write the in-place branch out (``if scope is not None: state.step = ...``) rather than call one
    helper taking the fields as keywords on their hottest events (that helper cost about 0.45 us a call, some 7%
    of the fold, issue 18's replay figure); the rare ones call :func:`replaced`.
    """

    __slots__ = ()


def _draft_class(struct: type, members: dict[str, Any], given: tuple[str, ...] = ()) -> Any:
    """A plain ``__slots__`` class with ``struct``'s fields (from ``__struct_fields__``, in their order), the Struct
    it was thawed from (``_thawed_from``) and ``members`` (what the reducers and the rules they call read of a
    state or an aircraft besides its fields: properties, methods), with ``thaw(struct) -> draft`` and
    ``freeze(draft, *given) -> struct`` generated for it from the field names, as dataclasses generates its
    ``__init__`` (a draft's attribute store costs about a third of ``msgspec.structs.force_setattr``'s, issue 18).

    ``freeze`` gives the Struct it was thawed from when no field changed (a field is changed when it holds
    another object), else a copy of that Struct with the changed fields set: building a Struct of forty
    keywords cost about five times as much. ``freeze`` takes the ``given`` fields as arguments in place of the
    draft's."""
    names = struct.__struct_fields__
    draft = type(f"{struct.__name__}Draft", (), {"__slots__": (*names, "_thawed_from"), "__module__": __name__,
                                                  **members,
                                                  "__doc__": f"A fold's own, changeable {struct.__name__}."})
    stores = "".join(f"    d.{name} = s.{name}\n" for name in names)
    changes = "".join(f"    if {name if name in given else 'd.' + name} is not o.{name}:\n"
                      f"        if s is None:\n            s = copy(o)\n"
                      f"        force(s, {name!r}, {name if name in given else 'd.' + name})\n" for name in names)
    source = (f"def thaw(s):\n    d = new(draft)\n    d._thawed_from = s\n{stores}    return d\n"
              f"def freeze(d{''.join(', ' + name for name in given)}):\n    o = d._thawed_from\n    s = None\n"
              f"{changes}    return o if s is None else s\n")
    namespace = {"new": object.__new__, "draft": draft, "copy": struct.__copy__,
                 "force": msgspec.structs.force_setattr}
    exec(source, namespace)  # noqa: S102 - generated from the Struct's own field names
    draft.thaw = staticmethod(namespace["thaw"])
    draft.freeze = staticmethod(namespace["freeze"])
    return draft


#: A fold's own aircraft: :class:`AircraftState`'s fields and properties (``damaged``, ``pose``, ``in_play``).
AircraftDraft = _draft_class(AircraftState, {name: member for name, member in vars(AircraftState).items()
                                             if isinstance(member, property)})
#: A fold's own state: :class:`GameState`'s fields and the methods reducers call (``side``, ``opponent``,
#: ``occupied``).
StateDraft = _draft_class(GameState, {name: vars(GameState)[name] for name in ("side", "opponent", "occupied")},
                          given=("aircraft", "volley"))

_thaw_aircraft = AircraftDraft.thaw
_freeze_aircraft = AircraftDraft.freeze
_thaw_state = StateDraft.thaw
_freeze_state = StateDraft.freeze


def thaw(state: GameState) -> Any:
    """A fold's own draft of ``state`` (see :class:`FoldScope`): a :class:`StateDraft` with a new aircraft
    mapping (in the same order) of an :class:`AircraftDraft` of every aircraft. The other fields are shared:
    no reducer changes them in place."""
    draft = _thaw_state(state)
    draft.aircraft = {key: _thaw_aircraft(aircraft) for key, aircraft in state.aircraft.items()}
    return draft


def freeze(draft: Any) -> GameState:
    """The :class:`GameState` of a fold's draft (:func:`thaw`), its aircraft frozen in the same order (the mapping
    it was thawed from when every aircraft is the one it was thawed from); a ``GameState`` (a fold that met no
    event with a reducer) as it is."""
    if type(draft) is not StateDraft:
        return draft
    thawed_from = draft._thawed_from.aircraft
    mapping = {}
    kept = len(draft.aircraft) == len(thawed_from)
    for key, aircraft in draft.aircraft.items():
        frozen = mapping[key] = _freeze_aircraft(aircraft)
        if kept and frozen is not thawed_from.get(key):
            kept = False
    volley = draft.volley
    return _freeze_state(draft, thawed_from if kept else mapping,
                         freeze_volley(volley) if type(volley) is VolleyDraft else volley)


def replaced(obj: Any, scope: FoldScope | None, **fields: Any) -> Any:
    """``obj`` (a state or an aircraft) with ``fields`` changed: in a fold (``scope`` given) the fold's own draft,
    changed in place; else a new Struct (``msgspec.structs.replace``)."""
    if scope is None:
        return _replace(obj, **fields)
    for name, value in fields.items():
        setattr(obj, name, value)
    return obj


def with_aircraft(state: GameState, aircraft: AircraftState, scope: FoldScope | None = None) -> GameState:
    """The state with one aircraft replaced (states are immutable; in a fold, see :class:`FoldScope`)."""
    if scope is not None:
        state.aircraft[aircraft.id] = aircraft  # the fold's own mapping: the aircraft keeps its place
        return state
    mapping = state.aircraft.copy()  # the same order: the aircraft keeps its place
    mapping[aircraft.id] = aircraft
    return _replace(state, aircraft=mapping)


def evolve_by_table(reducers: dict[type, Any], what: str) -> Any:
    """A part's ``evolve(rules, state, event)`` over its table of reducers by event type: the state after an
    event of ``what``, None for an event not its own (the ruleset's dispatch reads the table itself)."""

    def evolve(rules: Any, state: GameState, event: Any) -> GameState | None:
        reducer = reducers.get(type(event))
        return reducer(rules, state, event) if reducer is not None else None

    evolve.__doc__ = f"Reducers for {what}; None when the event is not one of them."
    return evolve


def aircraft_with(state: GameState, aircraft: AircraftState,
                  scope: FoldScope | None = None) -> dict[str, AircraftState]:
    """The state's aircraft with one replaced, in the same order (a new mapping: states share none they
    change, except in a fold, see :class:`FoldScope`), for a reducer that changes other fields of the state
    in the same ``replace``."""
    mapping = state.aircraft if scope is not None else state.aircraft.copy()
    mapping[aircraft.id] = aircraft
    return mapping


def player_view(state: GameState, player: str | None) -> dict[str, Any]:
    """The state as ``player`` sees it: the other side's face-down manoeuvres only as commitments."""
    shown = msgspec.to_builtins(state)
    for aircraft in shown["aircraft"].values():
        if aircraft["owner"] != player and aircraft.get("revealed") is None:
            aircraft.pop("manoeuvre", None)
            aircraft.pop("salt", None)
    return shown


def hides_from(state: GameState, player: str | None) -> bool:
    """True when :func:`player_view` hides something from ``player``: a Manoeuvre token of another player's
    aircraft placed face down and not yet revealed (p.13). (It drops the token's fields whatever they hold; an
    aircraft with no token placed hides nothing.)"""
    return any(aircraft.owner != player and aircraft.revealed is None
               and (aircraft.manoeuvre is not None or aircraft.salt is not None)
               for aircraft in state.aircraft.values())


# ---------------------------------------------------------------- firing part (p.20-28)


class PendingRoll(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A roll made for ``aircraft`` that its player may re-roll once per game (Imperial Ace p.37, Fly Boss
    p.45): the volley waits for AcceptRoll or UseReroll."""

    aircraft: str
    player: str
    weapon_index: int
    stage: str  # "to_hit" | "damage"
    roll: DiceRolled


class AutoRoll(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A roll made for ``aircraft`` outside its firing (Stall or Spin recovery, the facing after a Spin, a
    Crash, Breaking Up, Ejector Seats, its armour roll) that its player may re-roll once per game (p.37, p.45): ``step`` names
    the rule that continues with whichever roll stands."""

    aircraft: str
    player: str
    step: str
    roll: DiceRolled
    losses: tuple[int, ...] = ()  # an armour roll: the Structure each damaging hit would take
    weapon_index: int | None = None  # an armour roll: the volley's weapon whose damage it is against


class ShotProgress(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One weapon of a volley on its way through the Firing sequence (p.20): to hit, then damage."""

    weapon_index: int
    target: str
    attack: str = ""
    hits: int = 0
    rolled: bool = False  # the roll to hit is resolved (HitsScored)
    done: bool = False  # the damage is resolved (DamageRolled), or there was none to roll


class Volley(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """The firing of one aircraft being resolved (p.20-23): every to-hit roll, then every damage roll."""

    aircraft: str
    player: str
    kind: str  # "firing" | "tailing" | "tail_gunner"
    shots: tuple[ShotProgress, ...] = ()
    pending: PendingRoll | None = None
    open: bool = False  # Autonomous weapons placed one by one (LaunchAutonomous); FireWeapons closes it
    launched: int = 0  # Autonomous weapons placed in this firing (at most two, p.25)


#: A fold's own volley (:class:`FoldScope`): :class:`Volley`'s fields, its ``shots`` a list of :class:`ShotDraft`.
VolleyDraft = _draft_class(Volley, {}, given=("shots",))
#: A fold's own shot of its volley: :class:`ShotProgress`'s fields.
ShotDraft = _draft_class(ShotProgress, {})
_thaw_shot = ShotDraft.thaw
_freeze_shot = ShotDraft.freeze


def thaw_volley(volley: Volley) -> Any:
    """A fold's own draft of ``volley`` (:class:`FoldScope`), thawed when a reducer first changes a shot of it: its
    shots change in place as the Firing sequence resolves them (p.20-23) rather than a new tuple and a new Volley
    for each roll."""
    draft = VolleyDraft.thaw(volley)
    draft.shots = [_thaw_shot(shot) for shot in volley.shots]
    return draft


def freeze_volley(draft: Any) -> Volley:
    """The :class:`Volley` of a draft (:func:`thaw_volley`): the one it was thawed from when no shot changed."""
    shots = tuple(_freeze_shot(shot) for shot in draft.shots)
    before = draft._thawed_from.shots
    if len(shots) == len(before) and all(map(operator.is_, shots, before)):
        shots = before
    return VolleyDraft.freeze(draft, shots)


class ReturnFire(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """Tail Gunner (p.24): ``aircraft`` may return fire at ``target``, the Tailing aircraft that fired on it."""

    aircraft: str
    player: str
    target: str


class AutonomousWeapon(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """An Autonomous weapon in flight (p.25): where it is, where it points, when it last moved.

    ``pending_hexes`` is the D3+3 rolled at the end of a Movement phase, waiting for its owner to steer.
    """

    id: str
    owner: str
    firer: str
    weapon: str
    weapon_index: int
    hex: Hex
    facing: int
    launched_turn: int
    moved_turn: int
    pending_hexes: int | None = None
