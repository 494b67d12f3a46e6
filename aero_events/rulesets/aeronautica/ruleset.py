"""Aeronautica Imperialis: Wings of Vengeance (2019) as a decider: decide, evolve, legal commands.

The parts of the turn live in their own modules (:mod:`.turn`, :mod:`.movement`,
:mod:`.altitude`, :mod:`.firing`, :mod:`.end_phase`); this module wires them to the
core's :class:`Ruleset` contract.
"""

from __future__ import annotations

import functools
import types
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Literal

import msgspec

from aero_events.core import Command, DiceCup, DiceRolled, Event, RuleError, Ruleset, chain_commands
from aero_events.hexgrid import Board

from . import altitude, end_phase, firing, movement, rerolls, reserves, transports, turn, victory, weather
from .commands import AcceptRoll, ChooseManoeuvre, UseReroll
from .manoeuvres import ManoeuvreTable, load_manoeuvres
from .profiles import AircraftProfile, Catalogue, apply_upgrades, load_catalogue
from .scenarios import set_up, terrain
from .setup import GameSetup, board_for, build_initial_state
from .state import GAME_OVER, AircraftState, FoldScope, GameState, freeze, hides_from, player_view, thaw
from .turn import Emitter, advance
from .victory import VictoryChart

#: The parts of the turn, each a module with ``HANDLERS`` (command type -> handler),
#: ``evolve(rules, state, event)`` (None for events not its own) and
#: ``legal_commands(rules, state, player)``. A new part is one more module here.
PARTS = (turn, movement, altitude, rerolls, firing, end_phase,
         victory, set_up, weather, reserves, transports, terrain)  # end phase, victory and scenarios (p.29-37)

_HANDLERS: dict[type, Callable[..., None]] = {}
for _part in PARTS:
    for _command, _handler in _part.HANDLERS.items():
        if _command in _HANDLERS:
            raise TypeError(f"{_command.__name__} is handled by two parts of the turn")
        _HANDLERS[_command] = _handler


def _names_read(code: types.CodeType) -> set[str]:
    """The global and attribute names a function's code (and the code nested in it) reads."""
    names = set(code.co_names)
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            names |= _names_read(constant)
    return names


def parts_for(event_type: type) -> tuple[Callable[..., GameState | None], ...]:
    """The ``evolve`` of each part that may apply an ``event_type`` event, in the order of :data:`PARTS`.

    A part applies an event only by naming its type (``isinstance(event, X)``, or a table keyed by type, as
    firing's ``_REDUCERS``), so the parts that never name it are left out: each event is offered to the one
    or two parts that may take it rather than to every part in turn. The first part that returns a state
    wins, exactly as trying every part in order would (``evolve`` falls back to that for an event no
    candidate takes, so an error says the same).
    """
    own = [cls for cls in event_type.__mro__ if isinstance(cls, type) and issubclass(cls, Event)
           and cls.__module__ != Event.__module__ and cls.__name__ not in ("SecretEvent",)]
    names = {cls.__name__ for cls in own}
    found = []
    for part in PARTS:
        table = getattr(part, "_REDUCERS", None)
        if table is not None and event_type in table:
            found.append(table[event_type])  # what the part's evolve would call for it, called directly
        elif (table is not None and any(cls in table for cls in own)) or names & _names_read(part.evolve.__code__):
            found.append(part.evolve)
    return tuple(found)


@functools.cache
def parts_offering(phase: str) -> tuple[types.ModuleType, ...]:
    """The parts whose ``legal_commands`` may offer a command in ``phase``, in the order of :data:`PARTS`: those
    whose ``COMMAND_PHASES`` names it, and those that declare no ``COMMAND_PHASES`` (asked in every phase)."""
    return tuple(part for part in PARTS if getattr(part, "COMMAND_PHASES", None) is None or phase in part.COMMAND_PHASES)


def parts_offering_at(phase: str, step: str | None) -> tuple[types.ModuleType, ...]:
    """:func:`parts_offering` in ``phase`` at the Movement phase's ``step`` (the state's ``step``): a part that
    declares ``COMMAND_STEPS`` offers commands only at those steps (the transports part drops Jump Troops at the
    Adjust Altitude step, p.37); one that declares none, at every step."""
    return tuple(part for part in parts_offering(phase)
                 if getattr(part, "COMMAND_STEPS", None) is None or step in part.COMMAND_STEPS)


#: Phase, then the state's step -> the ``legal_commands`` of the parts asked there (:func:`parts_offering_at`),
#: filled as phases and steps are met.
_ASKED: dict[str, dict[str | None, tuple[Callable[..., Sequence[Command]], ...]]] = {}


def _asked_in(phase: str, step: str | None) -> tuple[Callable[..., Sequence[Command]], ...]:
    """The ``legal_commands`` of :func:`parts_offering_at` in ``phase`` at ``step`` but the re-rolls part's: it
    offers commands only while a roll waits, which :meth:`AeronauticaRules.legal_commands` asks first."""
    asked = _ASKED.setdefault(phase, {})[step] = tuple(
        part.legal_commands for part in parts_offering_at(phase, step) if part is not rerolls)
    return asked


Reducer = Callable[[Any, GameState, Event], GameState]


def reducer_for(event_type: type) -> Reducer | None:
    """The one function that applies an ``event_type`` event, or None for a type that changes no state (a die,
    a core event such as a checkpoint or an issued command).

    An event that one part's table (``_REDUCERS``) names goes straight to that reducer, which always returns
    a state. Otherwise the parts of :func:`parts_for` are offered it in order, the first state wins, and an
    event none of them takes falls back to offering it to every part (whose error says the same as before).
    """
    if event_type is DiceRolled or event_type.core_event:
        return None
    parts = parts_for(event_type)
    if len(parts) == 1 and not _is_part_evolve(parts[0]):
        return parts[0]

    def offered(rules: Any, state: GameState, event: Event) -> GameState:
        for part in parts:
            new = part(rules, state, event)
            if new is not None:
                return new
        return _every_part(rules, state, event)

    return offered


def _is_part_evolve(function: Callable[..., Any]) -> bool:
    """A part's ``evolve`` (which returns None for events not its own), not a reducer from its table."""
    return any(function is part.evolve for part in PARTS)


def _every_part(rules: Any, state: GameState, event: Event) -> GameState:
    """The event offered to every part in turn: the first state wins, and an event none takes is an error."""
    for part in PARTS:
        new = part.evolve(rules, state, event)
        if new is not None:
            return new
    raise TypeError(f"{rules.name} cannot apply {type(event).__name__}")


FoldReducer = Callable[[Any, GameState, Event, FoldScope], GameState]


def fold_reducer_for(event_type: type) -> FoldReducer | None:
    """:func:`reducer_for` as :meth:`AeronauticaRules.fold` calls it, with the fold's :class:`FoldScope`: the
    reducer itself when it takes a ``scope`` (it then changes the fold's drafts in place), else the reducer
    called without one on the draft frozen (:func:`~.state.freeze`), its new state thawed again (a reducer
    that takes no scope reads and builds Structs, as in ``evolve``; such events are rare: re-rolls, reserves,
    Autonomous weapons, ground targets, weather)."""
    reduce = reducer_for(event_type)
    if reduce is None:
        return None
    code = getattr(reduce, "__code__", None)
    if code is not None and code.co_argcount == 4 and code.co_varnames[3] == "scope":
        return reduce

    def without_scope(rules: Any, state: GameState, event: Event, scope: FoldScope) -> GameState:
        return thaw(reduce(rules, freeze(state), event))

    return without_scope


def learnt(table: dict[type, Any], event_type: type, lookup: Callable[[type], Any]) -> Any:
    """``lookup(event_type)``, kept in ``table`` (an event type's reducer is looked up once, when first met).

    :meth:`AeronauticaRules.evolve` and :meth:`AeronauticaRules.fold` index their tables, plain dicts, and call
    this only on a ``KeyError``: the interpreter specialises indexing an exact dict (a dict subclass with a
    ``__missing__`` cost the fold about 20 ns an event, a fifth of its loop)."""
    reduce = table[event_type] = lookup(event_type)
    return reduce


class RuleOptions(msgspec.Struct, frozen=True, kw_only=True):
    """Where players (or rule versions) disagree, a named option.

    ``throttle_past_limits``: the 2019 text lets a player set the Speed dial past Min or
    Max Speed with Throttle and suffer the consequences (p.15 "may not ... safely",
    "player error is a factor"); the 2020 update forbids it.
    """

    throttle_past_limits: bool = True
    # End phase, victory and scenarios part (p.31-33):
    # ``victory_chart``: the Victory Points chart (p.32) to play with; None is data/victory.json, whose
    # Accidentally Disengaged values (lost from the text) are the 50%/100% defaults (victory.py).
    # ``cloud_cover``: under Bad Weather, Night Fighting rules apply when the firer is at or below the
    # cloud level ("firer", the text's reading) or when the firer or the target is ("either") (weather.py).
    victory_chart: VictoryChart | None = None
    cloud_cover: str = "firer"
    # Rule versions part (versions.py, data/versions.json):
    # ``occupied_hex_roll``: the 2020 update rolls a D6 for each occupied hex an aircraft flew through to reach
    # the first unoccupied hex (p.17 step 6), once its move is flown (movement.occupied_hex_rolls); 2+ nothing
    # happens, a 1 inflicts ``occupied_hex_hits`` damaging hits (illegible in the copy we have: one hit is the
    # documented default). Off, as in the 2019 text.
    # ``air_to_air_to_hit``: the D6 score air-to-air Firepower dice need (p.22, 5+), and
    # ``air_to_air_to_hit_by_range``: a score per range band ("short", "medium", "long") overriding it,
    # for variants such as "to-hit 4+ at Short range" (read by weapons.hit_requirements).
    occupied_hex_roll: bool = False
    occupied_hex_hits: int = 1
    air_to_air_to_hit: int = 5
    air_to_air_to_hit_by_range: dict[str, int] = msgspec.field(default_factory=dict)
    # Readings players disagree on (the rules audit, issue 19); each default is the reading the 2019 text
    # gives most directly, and the README of this folder says why.
    # ``stall_recovery_altitude`` (p.29 "the Altitude dial is adjusted to or remains at the Max Altitude"):
    # "max" sets Altitude to Max Altitude whatever caused the Stall (the words as printed, default); "cap"
    # reads them as a ceiling: the aircraft keeps its Altitude, brought down to Max Altitude if above it.
    stall_recovery_altitude: Literal["max", "cap"] = "max"
    # ``final_turn_disengages``: p.31 Fuel Limit says turn 12 is the last "at which point both sides must
    # disengage"; p.17 and p.31 count leaving in any turn but the Disengagement turn as Accidental. False
    # (default) keeps p.17's wording: only the Disengagement turn is voluntary; True also makes the final
    # turn (``last_turn``) one in which crossing the edge is a Voluntary Disengagement.
    final_turn_disengages: bool = False
    # ``no_effective_altitude``: a Ground-to-Air weapon printed without Effective Altitude (X) (p.25, p.28).
    # "zero" (default): accurate only up to Altitude 0, so -1 per level of the target's Altitude (the -1
    # per level of p.28 counted from the ground, which keeps such weapons weaker than rated ones);
    # "unlimited": no Effective Altitude means no such modifier at all.
    no_effective_altitude: Literal["zero", "unlimited"] = "zero"
    # ``bomb_creep_per``: Bomb Creep (p.27) "After rolling one or more successful hits, roll a D6 for any
    # other potential targets ... Roll once for damage ... as normal for the weapon". "weapon" (default):
    # each Ground Attack weapon that hit rolls its own Bomb Creep (the damage roll is "for the weapon");
    # "run": one Bomb Creep per Bombing Run (per aircraft and target in a Firing phase), with the first
    # weapon that hit.
    bomb_creep_per: Literal["weapon", "run"] = "weapon"
    # ``tailing_choice``: when an aircraft is in a Tailing position on several enemies (p.30). "closest"
    # (default): the closest, then the lowest id, is tailed, so the End phase asks nothing (p.29 lets
    # "players determine" but gives no choice); "player": every enemy it tails stays a candidate and its
    # player picks one when it fires in the Tailing Fire phase (p.13).
    tailing_choice: Literal["closest", "player"] = "closest"
    # ``autonomous_hits_firer``: p.25 "occupies a hex adjacent to any other aircraft": other than the weapon
    # itself (the text calls it an "Autonomous aircraft" in the next sentence), so the aircraft that fired it
    # can be hit too: True (default, the words as printed). False spares the firer.
    autonomous_hits_firer: bool = True
    # ``declined_return_fire_spends``: Tail Gunner (p.24) "Once per turn, when fired upon ... may immediately
    # return fire". False (default): only return fire actually made uses the turn's chance; True: declining
    # the offer uses it as well.
    declined_return_fire_spends: bool = False
    # ``ground_defences_count``: p.8 "The rules refer to 'aircraft' in most cases and this will usually
    # include ... Ground Defences". True (default): they count for Last Aircraft Flying and Insurmountable
    # Losses (p.31) like any aircraft; False: only Scouts, Fighters and Bombers count there.
    ground_defences_count: bool = True
    # ``last_aircraft_flying``: p.31 "Should it ever happen that only one player has any aircraft left in the
    # Area of Engagement for any reason, the game automatically ends"; p.29 checks it in the End phase.
    # "end_phase" (default, the End phase sequence's "Ending the Game" step, so Stall, Spin, Ejector Seats
    # and the rest of the turn are played); "immediately": the game ends as soon as it happens.
    last_aircraft_flying: Literal["end_phase", "immediately"] = "end_phase"


class AeronauticaRules(Ruleset):
    """The ``aeronautica/wov-2019`` ruleset. Variants subclass it and change data or options."""

    name: ClassVar[str] = "aeronautica/wov-2019"
    setup_type: ClassVar[type] = GameSetup

    def __init__(self, catalogue: Catalogue | None = None, manoeuvres: ManoeuvreTable | None = None,
                 options: RuleOptions | None = None):
        self.catalogue = catalogue or load_catalogue()
        self.manoeuvres = manoeuvres or load_manoeuvres()
        self.options = options or RuleOptions()
        #: Event type -> its one reducer (:func:`reducer_for`), or None for types that change nothing (core
        #: events, dice: the outcome events that follow a roll carry what it decided); filled as types are
        #: met (:func:`learnt`).
        self._dispatch: dict[type, Reducer | None] = {DiceRolled: None}
        #: The same for :meth:`fold` (:func:`fold_reducer_for`): each reducer called with the fold's scope.
        self._fold_dispatch: dict[type, FoldReducer | None] = {DiceRolled: None}

    @property
    def data_version(self) -> str:
        return f"{self.catalogue.data_version}+{self.manoeuvres.data_version}"

    # ---------------------------------------------------------------- lookups

    def profile(self, aircraft: AircraftState) -> AircraftProfile:
        """The aircraft's profile as its upgrades modify it (Wazmek Speshul, Extra Armour, p.44-45)."""
        return self._profile(aircraft.profile, aircraft.upgrades)

    @functools.lru_cache(maxsize=1024)  # noqa: B019 - the ruleset lives as long as its games
    def _profile(self, profile_id: str, upgrades: tuple[str, ...]) -> AircraftProfile:
        return apply_upgrades(self.catalogue.aircraft[profile_id], [self.catalogue.upgrades[u] for u in upgrades])

    @staticmethod
    @functools.cache
    def _board(name: str) -> Board:
        return board_for(name)

    def board(self, state: GameState) -> Board:
        return self._board(state.board)

    # ---------------------------------------------------------------- the contract

    def initial_state(self, setup: GameSetup) -> GameState:
        return build_initial_state(setup, self.catalogue)

    def players(self, state: GameState) -> Sequence[str]:
        return state.players

    def clock(self, state: GameState) -> tuple[int, str]:
        return state.turn, state.phase

    def is_over(self, state: GameState) -> bool:
        return state.phase == GAME_OVER

    def view(self, state: GameState, player: str | None) -> dict[str, Any]:
        return player_view(state, player)

    def hides_from(self, state: GameState, viewer: str | None) -> bool:
        """Another player's Manoeuvre token face down (p.13): what :meth:`view` leaves out that holds a value."""
        return hides_from(state, viewer)

    def decide(self, state: GameState, command: Command, dice: DiceCup) -> list[Event]:
        if state.phase == GAME_OVER:
            raise RuleError("the game is over", rule="Ending the Game", page=31)
        if command.player not in state.players:
            raise RuleError(f"{command.player!r} is not playing this game", rule="Players", page=None)
        if state.pending_roll is not None and not isinstance(command, (AcceptRoll, UseReroll)):
            raise RuleError(f"the roll made for {state.pending_roll.aircraft} waits for AcceptRoll or UseReroll",
                            rule="Imperial Ace / Fly Boss", page=37)
        handler = _HANDLERS.get(type(command))
        if handler is None:
            raise RuleError(f"{type(command).__name__} is not a command of this ruleset", rule="Commands")
        out = Emitter(state, self.evolve)  # its states go to the session unfolded again (core/emitter.py)
        handler(self, out, command, dice)
        advance(self, out, dice)
        return out.events

    def evolve(self, state: GameState, event: Event) -> GameState:
        """The state after ``event``: its reducer applied (:func:`reducer_for`); core events and dice change
        nothing."""
        try:
            reduce = self._dispatch[type(event)]
        except KeyError:
            reduce = learnt(self._dispatch, type(event), reducer_for)
        return state if reduce is None else reduce(self, state, event)

    evolve.skips_core_events = True  # type: ignore[attr-defined]  # they have no reducer

    def fold(self, state: GameState, events: Any) -> GameState:
        """Apply ``events`` in order: each straight to its reducer (a fold never follows a ``decide``), with
        one :class:`FoldScope`: the states between two events are seen by no one, so the fold thaws the state
        once, at its first event that has a reducer (:func:`~.state.thaw`: plain drafts of the state and its
        aircraft), its reducers change those drafts in place rather than copy a Struct for every event, and
        it freezes the last one back into a GameState (:func:`~.state.freeze`); the state it starts from, and
        every state ``evolve`` gave, stay as they were."""
        if "evolve" in vars(self) or type(self).evolve is not AeronauticaRules.evolve:
            return super().fold(state, events)  # an evolve replaced or overridden: honour it
        dispatch = self._fold_dispatch
        scope = FoldScope()
        events = iter(events)
        for event in events:  # core events and dice before the first event that changes anything
            try:
                reduce = dispatch[type(event)]
            except KeyError:
                reduce = learnt(dispatch, type(event), fold_reducer_for)
            if reduce is not None:
                state = reduce(self, thaw(state), event, scope)
                break
        for event in events:  # the rest, on the fold's own drafts
            try:
                reduce = dispatch[type(event)]
            except KeyError:
                reduce = learnt(dispatch, type(event), fold_reducer_for)
            if reduce is not None:
                state = reduce(self, state, event, scope)
        return freeze(state)

    def legal_commands(self, state: GameState, player: str) -> Sequence[Command]:
        if state.pending_roll is not None:  # only the re-roll decision (p.37, p.45)
            return rerolls.legal_commands(self, state, player)
        try:
            asked = _ASKED[state.phase][state.step]
        except KeyError:
            asked = _asked_in(state.phase, state.step)
        if len(asked) == 1:  # the usual case: one part of the turn has the decision
            return asked[0](self, state, player) or []  # an empty answer as an empty list
        if len(asked) == 2:  # the Adjust Altitude step (movement, transports): the loop below written out
            first, second = asked
            commands = first(self, state, player)
            more = second(self, state, player)
            if len(more):
                return chain_commands([commands, more]) if len(commands) else more
            return commands if len(commands) else []
        found = []
        for part_legal_commands in asked:
            commands = part_legal_commands(self, state, player)
            if len(commands):
                found.append(commands)
        if len(found) == 1:
            return found[0]
        return chain_commands(found) if found else []

    def manoeuvres_for(self, aircraft: AircraftState) -> list[int]:
        """The Ace Manoeuvres this aircraft can perform (p.10), as far as the table holds them."""
        return list(self._manoeuvres_for(aircraft.profile, aircraft.upgrades))

    @functools.lru_cache(maxsize=1024)  # noqa: B019 - the ruleset lives as long as its games
    def _manoeuvres_for(self, profile_id: str, upgrades: tuple[str, ...]) -> tuple[int, ...]:
        return tuple(n for n in self._profile(profile_id, upgrades).ace_manoeuvres if n in self.manoeuvres)

    def scene(self, state: GameState, viewer: str | None = None, events: Sequence[Any] = (),
              focus: str | None = None) -> Any:
        """The hex board as a drawable scene (see :mod:`.scene`)."""
        from .scene import aeronautica_scene

        return aeronautica_scene(self, state, viewer, events, focus)

    def step_grouping(self) -> Any:
        """A replay frame per aircraft's move, volley and End phase (see :mod:`.scene`)."""
        from .scene import AeronauticaSteps

        return AeronauticaSteps()

    def report_sections(self, timeline: Any) -> Sequence[Any]:
        """Per-aircraft statistics, damage over turns and luck against the p.7 odds (see :mod:`.scene`)."""
        from .scene import report_sections

        return report_sections(self, timeline)

    def sql_views(self) -> Sequence[Any]:
        """Aeronautica's own DuckDB views (see :mod:`.views`)."""
        from .views import sql_views

        return sql_views()


    def notation(self) -> Any:
        """The move notation of ``aero record`` and the ``.aero`` record (see :mod:`.notation`)."""
        from .notation import AeronauticaNotation

        return AeronauticaNotation(self)

    def recorder_guide(self) -> Any:
        """How ``aero record`` records a game at a table: decisions, Manoeuvre tokens typed unseen, the board in
        text, a Dogfight's forces and a record's setup headers (see :mod:`.record_setup`)."""
        from .record_setup import AeronauticaRecorderGuide

        return AeronauticaRecorderGuide(self)

    def is_secret_command(self, command: Any) -> bool:
        """A Manoeuvre token is placed face down (p.13): its command is recorded sealed, like the token."""
        return type(command) is ChooseManoeuvre or isinstance(command, ChooseManoeuvre)

    # The tools' interface (core/interface.py), answered in tools.py:

    def describe_event(self, event: Any, state: Any = None) -> str:
        from . import tools

        return tools.describe_event(event, state)

    def describe_command(self, command: Any, state: Any = None) -> str:
        from . import tools

        return tools.describe_command(command)

    def narrate(self, envelopes: Any, initial: Any = None) -> Any:
        from . import tools

        return tools.narrate_game(envelopes)

    def describe_state(self, state: GameState) -> list[str]:
        from . import tools

        return tools.describe_state(state)

    def describe_setup(self, setup: Any, bots: Any) -> list[str]:
        from . import tools

        return tools.describe_setup(self, setup, bots)

    def outcome(self, state: GameState) -> Any:
        from . import tools

        return tools.outcome(state)

    def score_name(self) -> str:
        return "VP"

    def statistics(self, state: GameState) -> dict[str, dict[str, int]]:
        from . import tools

        return tools.statistics(state)

    def sides(self, state: GameState) -> Sequence[str]:
        return state.players

    def piece_ids(self, state: GameState) -> Sequence[str]:
        return tuple(state.aircraft)

    def scenarios(self) -> Any:
        from . import tools

        return tools.scenarios(self)

    def demo_scenario(self) -> Any:
        from . import tools

        return tools.demo_for(self)

    def bots(self) -> Any:
        from . import tools

        return tools.bots()

    def legacy_command_candidates(self, point: Any) -> Sequence[Any]:
        from . import tools

        return tools.legacy_command_candidates(point)

    @classmethod
    def variant_from_metadata(cls, name: str, metadata: Any) -> Any:
        from . import tools

        return tools.variant_from_metadata(name, metadata)

    def game_metadata(self) -> dict[str, Any]:
        """A user's variant travels in its games' metadata (versions.variant_metadata)."""
        from .versions import variant_metadata

        variant = variant_metadata(self)
        return {} if variant is None else {"variant": variant}

    def corpus(self) -> Any:
        from .corpus import PLAN

        return PLAN

    @classmethod
    def variant_from_file(cls, path: str) -> Any:
        from . import tools

        return tools.variant_from_file(path)

    def versions(self) -> list[Any]:
        from . import tools

        return tools.versions()
