"""``wings-of-glory/bob-2017``: "Battle of Britain: Tactical Rules for Wings Of Glory" (2017-11-14) as a decider.

The parts of the turn live in their own modules; this one wires them to the core's Ruleset contract and
answers the tools (narration, outcome, scene, scenarios, bots, secret commands, per-player views).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any, ClassVar, Literal

import msgspec

from aero_events.core import Command, DiceCup, DiceRolled, Event, RuleError, Ruleset, chain_commands
from aero_events.core.interface import BotInfo, Notation, Outcome, Scenario, SqlView
from aero_events.core.scene import LineOfFire, Marker, PathFlown, Piece, Rect, Scene, Table, Template

from . import damage, firing, missions, movement, planning, turn
from .commands import PlanCard
from .data import Catalogue, load_catalogue
from .setup import GameSetup, build_initial_state, scenario_setup
from .state import OVER, GameState, player_view
from .turn import Emitter, advance

#: The parts of the turn: each a module with HANDLERS, evolve(rules, state, event) and legal_commands.
PARTS = (turn, planning, movement, firing, damage, missions)

_HANDLERS: dict[type, Callable[..., None]] = {}
for _part in PARTS:
    for _command, _handler in _part.HANDLERS.items():
        if _command in _HANDLERS:
            raise TypeError(f"{_command.__name__} is handled by two parts of the turn")
        _HANDLERS[_command] = _handler

#: event type -> the evolve of the part that applies it (filled as events are first met)
_ROUTES: dict[type, Any] = {}


def _unchanged(rules: Any, state: GameState, event: Event) -> GameState:
    """A core event (state checkpoint, issued command) or a dice roll: the events that follow carry its effect."""
    return state


class RuleOptions(msgspec.Struct, frozen=True, kw_only=True):
    """Where the text is open or players disagree; a variant file changes them (README, "Rule options").

    ``speed_variant``: the card endpoint flown, "high" (dark, default) or "low" (WINGS-OF-GLORY-DATA.md s.2).
    ``illegal_plans``: "refuse" an illegal plan (default) or "penalise" it when revealed (ILLEGAL MANOEUVRES),
    for recording a real table where a player erred.
    ``dive_climb_counters``: on a Dive the player keeps ("keep", default) or removes ("remove") all counters.
    """

    speed_variant: Annotated[Literal["high", "low"], msgspec.Meta(
        description="the card endpoint flown: the high (dark) or the low speed "
                    "(WINGS-OF-GLORY-DATA.md s.2)")] = "high"
    illegal_plans: Annotated[Literal["refuse", "penalise"], msgspec.Meta(
        description="an illegal plan is refused, or accepted and penalised when revealed (ILLEGAL "
                    "MANOEUVRES)")] = "refuse"
    dive_climb_counters: Annotated[Literal["keep", "remove"], msgspec.Meta(
        description="on a Dive the player keeps, or removes, all climb counters (ALTITUDE, Dive)")] = "keep"


#: What this version is, for ``aero versions``.
THIS_VERSION = ("Battle of Britain: Tactical Rules for Wings of Glory (2017-11-14): planned manoeuvre cards, "
                "damage tokens, bombing, photo reconnaissance and torpedoes.")


class WingsOfGloryRules(Ruleset):
    name: ClassVar[str] = "wings-of-glory/bob-2017"
    version_description: ClassVar[str] = THIS_VERSION
    setup_type: ClassVar[type] = GameSetup
    #: The options a variant file changes (core/interface.py ``VariantDefinition``), read via self.options.
    options_type: ClassVar[type] = RuleOptions

    def __init__(self, catalogue: Catalogue | None = None, options: RuleOptions | None = None):
        self.options = options or RuleOptions()
        if self.options.illegal_plans not in ("refuse", "penalise"):
            raise ValueError("illegal_plans is refuse or penalise")
        if self.options.dive_climb_counters not in ("keep", "remove"):
            raise ValueError("dive_climb_counters is keep or remove")
        self.catalogue = catalogue or load_catalogue(speed=self.options.speed_variant)

    @property
    def data_version(self) -> str:
        return self.catalogue.data_version

    # ---------------------------------------------------------------- the contract

    def initial_state(self, setup: GameSetup) -> GameState:
        return build_initial_state(setup, self.catalogue)

    def players(self, state: GameState) -> Sequence[str]:
        return state.players

    def clock(self, state: GameState) -> tuple[int, str]:
        return state.turn, state.subphase or state.phase

    def is_over(self, state: GameState) -> bool:
        return state.phase == OVER

    def view(self, state: GameState, player: str | None) -> dict[str, Any]:
        return player_view(state, player)

    def decide(self, state: GameState, command: Command, dice: DiceCup) -> list[Event]:
        if state.phase == OVER:
            raise RuleError("the game is over", rule="GAME TURN", page=None)
        if command.player not in state.players:
            raise RuleError(f"{command.player!r} is not playing this game", rule="Players")
        handler = _HANDLERS.get(type(command))
        if handler is None:
            raise RuleError(f"{type(command).__name__} is not a command of this ruleset", rule="Commands")
        out = Emitter(state, self.evolve, dice.salts)
        handler(self, out, command, dice)
        advance(self, out, dice)
        return out.events

    def evolve(self, state: GameState, event: Event) -> GameState:
        apply = _ROUTES.get(type(event))  # each part answers by event type alone: route once, then directly
        if apply is not None:
            return apply(self, state, event)
        if type(event).core_event or type(event) is DiceRolled:
            _ROUTES[type(event)] = _unchanged
            return state
        for part in PARTS:
            new = part.evolve(self, state, event)
            if new is not None:
                _ROUTES[type(event)] = part.evolve
                return new
        if type(event).__name__ in ("SecretDiceRolled",):
            return state
        raise TypeError(f"{self.name} cannot apply {type(event).__name__}")

    #: core events (a checkpoint, an issued command) are routed to ``_unchanged`` above, so the core's own
    #: wrapper that skips them (``Ruleset.__init_subclass__``) is not needed around this evolve
    evolve.skips_core_events = True  # type: ignore[attr-defined]

    def fold(self, state: GameState, events) -> GameState:
        """Apply ``events`` in order (the same as ``evolve`` one by one, routed without a call in between)."""
        routes = _ROUTES
        evolve = self.evolve
        for event in events:
            apply = routes.get(type(event))
            state = evolve(state, event) if apply is None else apply(self, state, event)
        return state

    def legal_commands(self, state: GameState, player: str) -> Sequence[Command]:
        if state.phase == OVER:
            return []
        return chain_commands(part.legal_commands(self, state, player) for part in PARTS)

    # ---------------------------------------------------------------- the tools

    def is_secret_command(self, command: Any) -> bool:
        """PLANNING: a card is planned face down."""
        return isinstance(command, PlanCard)

    def notation(self) -> Notation:
        """``spitfire-1 plans 12``, ``spitfire-1 fires at bf109-1``, ``done`` (see :mod:`.notation`)."""
        from .notation import WingsOfGloryNotation

        return WingsOfGloryNotation(self)

    def sides(self, state: GameState) -> Sequence[str]:
        return tuple(state.players)

    def describe_event(self, event: Any, state: Any = None) -> str:
        from .narrate import describe_event
        return describe_event(self, event, state)

    def describe_command(self, command: Any, state: Any = None) -> str:
        from .narrate import describe_command
        return describe_command(self, command, state)

    def outcome(self, state: GameState) -> Outcome:
        scores = missions.scores(self, state) if state.phase != OVER else dict(state.scores)
        if state.phase != OVER:
            return Outcome(finished=False, scores={k: float(v) for k, v in scores.items()},
                           reason=f"turn {state.turn}, {state.subphase or state.phase}")
        return Outcome(finished=True, winner=state.winner, draw=state.winner is None,
                       scores={k: float(v) for k, v in scores.items()}, reason=state.end_reason)

    def scene(self, state: GameState, viewer: str | None = None, events: Sequence[Any] = (),
              focus: str | None = None) -> Scene:
        return build_scene(self, state, viewer)

    def sql_views(self) -> Sequence[SqlView]:
        from .views import sql_views
        return sql_views()

    def demo_scenario(self) -> tuple[str, dict[str, Any], tuple[str, ...]] | None:
        """``aero demo``: the Battle of Britain dogfight between two hunter bots."""
        return "dogfight", {}, ("hunter", "hunter")

    def score_name(self) -> str:
        return "VP"

    def statistics(self, state: GameState) -> dict[str, dict[str, int]]:
        lost: dict[str, int] = {side: 0 for side in state.players}
        left: dict[str, int] = {side: 0 for side in state.players}
        for plane in state.planes.values():
            if plane.status in ("shot_down", "crashed"):
                lost[plane.side] += 1
            elif plane.status in ("out", "returned"):
                left[plane.side] += 1
        return {"planes lost": lost, "planes off the table": left}

    def describe_setup(self, setup: GameSetup, bots: Mapping[str, str]) -> list[str]:
        lines = [(f"Wings of Glory, Battle of Britain tactical rules: scenario {setup.scenario}, "
                  f"{setup.last_turn} turns.")]
        for player in setup.players:
            planes = ", ".join(f"{p.id} ({self.catalogue.planes[p.profile].name}, altitude {p.level})"
                               for p in setup.planes if p.owner == player)
            lines.append(f"{player} ({bots.get(player, '?')} bot): {planes}")
        return lines

    def corpus(self):
        """The golden corpus plan (``corpus.py``)."""
        from .corpus import plan

        return plan(self)

    def scenarios(self) -> Mapping[str, Scenario]:
        def builder(name: str):
            return lambda options, seed: scenario_setup(name, self.catalogue, dict(options))

        return {
            "dogfight": Scenario(name="dogfight", players=("RAF", "Luftwaffe"), build=builder("dogfight"),
                                 description="Spitfires and a Hurricane against Bf 109s and a Bf 110"),
            "bombing": Scenario(name="bombing", players=("RAF", "Luftwaffe"), build=builder("bombing"),
                                description="Do 17s with Bf 109 escorts against a radar station, AA and balloons"),
            "convoy": Scenario(name="convoy", players=("RAF", "Luftwaffe"), build=builder("convoy"),
                               description="Ju 87s and a torpedo He 111 with escorts against a Channel convoy"),
        }

    def bots(self) -> Mapping[str, BotInfo]:
        from .bots import HunterBot, LegalRandomBot
        return {
            "random": BotInfo(name="random", description="plans legal cards and fires at random",
                              make=lambda ruleset, seed: LegalRandomBot(seed)),
            "hunter": BotInfo(name="hunter", description="seeks firing and tailing positions and fires its best shot",
                              make=lambda ruleset, seed: HunterBot(ruleset, seed)),
        }


def _mm(value: int) -> float:
    return value / 100


def model_name(full_name: str) -> str:
    """A plane's model without its maker, as players call it ("Supermarine Spitfire Mk.I" -> "Spitfire Mk.I",
    "Boulton Paul Defiant Mk.I" -> "Defiant Mk.I"): the board prints a type short, and the maker alone
    ("Supermarine") names no plane. A name from no maker in :data:`PLANE_MAKERS` is kept whole."""
    for maker in PLANE_MAKERS:
        if full_name.startswith(maker + " "):
            return full_name[len(maker) + 1:]
    return full_name


#: The makers that begin the planes' names in ``data/planes.json`` (a maker may have two words).
PLANE_MAKERS = ("Boulton Paul", "Bristol", "Dornier", "Fiat", "Hawker", "Heinkel", "Junkers", "Messerschmitt",
                "Supermarine")


#: How a scene's caption names the phase (the text's turn sequence: 1 planning, 2 movement, 3a-3c firing).
_PHASE_WORDS = {"setup": "set-up", "plan": "planning", "move": "movement", "3a": "firing 3a (aces)",
                "3b": "firing 3b", "3c": "firing 3c (novices and wounded)", "bomb": "bombing and actions",
                "end": "end of the turn", "over": "game over"}


def build_scene(rules: WingsOfGloryRules, state: GameState, viewer: str | None) -> Scene:
    """Planes with heading, altitude pegs and climb counters, smoke and fire; the card flown as a path; lines
    of fire; ground pieces, clouds and torpedoes; the table as a rectangle in mm. Secrets stay hidden."""
    from . import pieces as lookups

    pieces_out = []
    for plane in sorted(state.planes.values(), key=lambda p: p.id):
        prof = lookups.profile(rules, plane)
        tags = tuple(tag for tag, on in (("smoke", plane.smoke > 0), ("fire", plane.flames > 0),
                                         ("loaded", plane.loaded), ("rudder jammed", plane.rudder_plans > 0),
                                         ("illegal manoeuvre", plane.illegal)) if on)
        pegs = plane.level - state.floor
        damage_text = (f"{plane.damage}/{prof.damage_points} damage" if viewer == plane.owner
                       else f"{len(plane.tokens)} tokens")
        pieces_out.append(Piece(
            id=plane.id, side=plane.side, label=plane.id, x=_mm(plane.pose.x), y=_mm(plane.pose.y),
            heading=plane.pose.heading / 100,
            footprint=Rect(width=_mm(rules.catalogue.base_width(prof)),
                           length=_mm(rules.catalogue.figures["base_length"])),
            kind="plane", level=plane.level,
            level_label=f"altitude {plane.level} ({pegs} pegs) + {plane.climb} climb",
            status={"flying": "active", "shot_down": "destroyed", "crashed": "destroyed", "out": "off-table",
                    "returned": "disengaged"}[plane.status],
            hover=f"{plane.id}: {prof.name}, {damage_text}, card flown {plane.executed or '-'}", tags=tags,
            model=model_name(prof.name), detail=f"Alt {plane.level} · climb {plane.climb} · {damage_text}"))
    markers = []
    for target in sorted(state.targets.values(), key=lambda t: t.id):
        prof = rules.catalogue.targets[target.kind]
        if target.kind == "pac" and target.phases_left <= 0:
            continue
        status = "sunk" if target.sunk else "silenced" if target.silenced else "active"
        markers.append(Marker(kind=target.kind, x=_mm(target.pose.x), y=_mm(target.pose.y),
                              heading=target.pose.heading / 100,
                              shape=Rect(width=_mm(prof.width), length=_mm(prof.length)),
                              label=target.id, side=target.side,
                              hover=f"{prof.name}: {target.damage} strafing points, {target.bomb_damage} bomb "
                                    f"damage, {status}"))
    for torpedo in sorted(state.torpedoes.values(), key=lambda t: t.id):
        markers.append(Marker(kind="torpedo", x=_mm(torpedo.pose.x), y=_mm(torpedo.pose.y),
                              heading=torpedo.pose.heading / 100, shape=Rect(width=10.0, length=40.0),
                              label=torpedo.id, side=torpedo.side))
    templates = tuple(Template(kind="cloud", points=tuple((_mm(x), _mm(y)) for x, y in cloud.points),
                               label=f"cloud at altitude {cloud.level}") for cloud in state.clouds)
    paths = tuple(PathFlown(piece=p.id, points=tuple((_mm(x), _mm(y)) for x, y in p.path),
                            label=p.executed) for p in sorted(state.planes.values(), key=lambda p: p.id) if p.path)
    shots = tuple(LineOfFire(shooter=s.shooter, target=s.target, start=(_mm(s.start[0]), _mm(s.start[1])),
                             end=(_mm(s.end[0]), _mm(s.end[1])), outcome="hit", label=s.outcome)
                  for s in state.shots)
    return Scene(table=Table(width=_mm(state.table[0]), height=_mm(state.table[1]), name=state.scenario),
                 pieces=tuple(pieces_out), markers=tuple(markers), templates=templates, paths=paths,
                 lines_of_fire=shots, sides=tuple(state.players),
                 caption=f"Turn {state.turn}, {_PHASE_WORDS.get(state.subphase or state.phase, state.phase)}")
