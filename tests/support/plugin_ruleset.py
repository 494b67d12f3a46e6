"""Pawns: a small ruleset that exists only under tests/, to prove that a ruleset plugs into every tool.

It registers itself at run time (:func:`~aero_events.core.registry.register_ruleset`), as a package
outside this repository would, under ``pawns/v1`` (the default of the family ``pawns``). Importing this
module is all a test needs to do.

The game (its own "rulebook", cited by heading in the docstrings below):

* **The table**: a rectangle of ``width`` by ``height`` millimetres (600 x 400 by default); positions are
  integer millimetres, x to the right, y up the table. The *objective* is a circle of radius
  ``OBJECTIVE_RADIUS`` mm at the table's centre.
* **Sides**: ``red`` starts with two pawns on its base line (y = 50), ``blue`` with two on the far one
  (y = height - 50).
* **Orders**: each turn begins with both players giving a secret order, ``advance`` or ``hold``, face
  down; when both are given they are revealed together.
* **Movement**: then the players move their pawns one at a time, the one who has moved fewer pawns first
  (red on a tie). A move picks one of eight compass directions and rolls a D8: the pawn goes
  ``BASE_DISTANCE[order] + 5 x the die`` mm that way, stopping at the table's edge.
* **Scoring**: when every pawn has moved, each pawn within the objective scores its side one point.
* **The end**: after ``turns`` turns (3 by default) the side with more points wins; equal points are a draw.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import msgspec

from aero_events.core import Command, DiceCup, DiceRolled, Event, RuleError, Ruleset, SecretEvent
from aero_events.core.errors import DataError
from aero_events.core.interface import BotInfo, Notation, Outcome, Scenario, SqlView
from aero_events.core.registry import register_ruleset
from aero_events.core.scene import Circle, Marker, Piece, Scene, Table

NAME = "pawns/v1"
SIDES = ("red", "blue")
ORDERS = ("advance", "hold")
#: Movement: how far a pawn goes before the die's 5 mm per pip, by its side's order.
BASE_DISTANCE = {"advance": 40, "hold": 15}
MM_PER_PIP = 5
DRIFT_DIE = 8
OBJECTIVE_RADIUS = 100
PAWN_RADIUS = 15
#: The eight compass directions, clockwise from north, as (name, dx, dy) per 1000 mm.
DIRECTIONS: tuple[tuple[str, int, int], ...] = (
    ("N", 0, 1000), ("NE", 707, 707), ("E", 1000, 0), ("SE", 707, -707),
    ("S", 0, -1000), ("SW", -707, -707), ("W", -1000, 0), ("NW", -707, 707))
DIRECTION_NAMES = tuple(name for name, _, _ in DIRECTIONS)


class PawnSetup(msgspec.Struct, frozen=True, kw_only=True):
    width: int = 600
    height: int = 400
    turns: int = 3


class Pawn(msgspec.Struct, frozen=True):
    id: str
    side: str
    x: int
    y: int


class PawnState(msgspec.Struct, frozen=True, kw_only=True):
    setup: PawnSetup
    pawns: tuple[Pawn, ...]
    turn: int = 1
    phase: str = "orders"
    #: The orders given this turn, side -> order: secret until ``revealed`` (see ``view``).
    orders: dict[str, str] = {}
    revealed: bool = False
    moved: tuple[str, ...] = ()
    points: dict[str, int] = msgspec.field(default_factory=lambda: {side: 0 for side in SIDES})
    over: bool = False

    def pawn(self, pawn_id: str) -> Pawn:
        for pawn in self.pawns:
            if pawn.id == pawn_id:
                return pawn
        raise KeyError(pawn_id)


# ---------------------------------------------------------------- commands


class GiveOrder(Command, frozen=True, tag="pawns.GiveOrder"):
    """Orders: ``advance`` or ``hold``, given face down."""

    order: str


class MovePiece(Command, frozen=True, tag="pawns.MovePiece"):
    """Movement: move one pawn in one of the eight compass directions (0 = N, clockwise)."""

    piece: str
    direction: int


# ---------------------------------------------------------------- events


class OrderSealed(SecretEvent, frozen=True, tag="pawns.OrderSealed"):
    """A side's order, face down: only its owner reads it until the orders are revealed."""

    secret_fields: ClassVar[tuple[str, ...]] = ("order",)
    order: str


class OrdersRevealed(Event, frozen=True, tag="pawns.OrdersRevealed"):
    orders: dict[str, str]


class PawnMoved(Event, frozen=True, tag="pawns.PawnMoved"):
    piece: str
    direction: int
    distance: int
    x: int
    y: int


class TurnEnded(Event, frozen=True, tag="pawns.TurnEnded"):
    scored: dict[str, int]
    game_over: bool


# ---------------------------------------------------------------- the ruleset


def start_positions(setup: PawnSetup) -> tuple[Pawn, ...]:
    """Sides: two pawns each on its base line, at a third and two thirds of the width."""
    xs = (setup.width // 3, 2 * setup.width // 3)
    return tuple(Pawn(f"{side}-{n + 1}", side, x, 50 if side == "red" else setup.height - 50)
                 for side in SIDES for n, x in enumerate(xs))


def on_objective(setup: PawnSetup, pawn: Pawn) -> bool:
    dx, dy = pawn.x - setup.width // 2, pawn.y - setup.height // 2
    return dx * dx + dy * dy <= OBJECTIVE_RADIUS * OBJECTIVE_RADIUS


def destination(setup: PawnSetup, pawn: Pawn, direction: int, distance: int) -> tuple[int, int]:
    """Movement: ``distance`` mm along the compass direction, stopping at the table's edge (integers)."""
    _, dx, dy = DIRECTIONS[direction]
    x = min(max(pawn.x + dx * distance // 1000, 0), setup.width)
    y = min(max(pawn.y + dy * distance // 1000, 0), setup.height)
    return x, y


def next_mover(state: PawnState) -> str | None:
    """Movement: the side that has moved fewer pawns, red on a tie; None when every pawn has moved."""
    left = {side: [p for p in state.pawns if p.side == side and p.id not in state.moved] for side in SIDES}
    done = {side: sum(1 for p in state.pawns if p.side == side and p.id in state.moved) for side in SIDES}
    waiting = [side for side in SIDES if left[side]]
    if not waiting:
        return None
    return min(waiting, key=lambda side: (done[side], SIDES.index(side)))


class PawnNotation(Notation):
    """``order advance``, ``red-1 NE``: how people write Pawns moves."""

    def format(self, state: Any, command: Any) -> str:
        if isinstance(command, GiveOrder):
            return f"order {command.order}"
        if isinstance(command, MovePiece):
            return f"{command.piece} {DIRECTION_NAMES[command.direction]}"
        return super().format(state, command)

    def parse(self, state: Any, player: str, text: str) -> Any:
        words = text.split()
        if len(words) == 2 and words[0] == "order":
            if words[1] not in ORDERS:
                raise RuleError(f"an order is advance or hold, not {words[1]!r}", rule="Orders")
            return GiveOrder(player=player, order=words[1])
        if len(words) == 2 and words[1].upper() in DIRECTION_NAMES:
            return MovePiece(player=player, piece=words[0], direction=DIRECTION_NAMES.index(words[1].upper()))
        raise RuleError(f"{text.strip()!r} is neither 'order advance|hold' nor 'PAWN DIRECTION'", rule="Notation")

    def help(self) -> str:
        return "order advance | order hold | PAWN N|NE|E|SE|S|SW|W|NW (e.g. red-1 NE)"


class CentreBot:
    """Always advances, and moves the first pawn it may straight towards the objective."""

    name = "centre"

    def __init__(self, seed: int | str = 0):
        self.seed = seed

    def choose(self, session: Any, player: str, options: Sequence[Any]) -> Any:
        state = session.state
        orders = [c for c in options if isinstance(c, GiveOrder)]
        if orders:
            return next(c for c in orders if c.order == "advance")
        centre = (state.setup.width // 2, state.setup.height // 2)

        def distance_after(command: MovePiece) -> tuple[int, str, int]:
            x, y = destination(state.setup, state.pawn(command.piece), command.direction, 40)
            return ((x - centre[0]) ** 2 + (y - centre[1]) ** 2, command.piece, command.direction)

        return min(options, key=distance_after)


class PawnRules(Ruleset):
    """Pawns (see the module's docstring for the rules)."""

    name: ClassVar[str] = NAME
    setup_type: ClassVar[type] = PawnSetup
    #: Movement: the base distance by order (a variant of the rules may change it).
    base_distance: ClassVar[dict[str, int]] = BASE_DISTANCE

    # ------------------------------------------------------------ the decider contract

    def initial_state(self, setup: PawnSetup | None) -> PawnState:
        setup = setup or PawnSetup()
        return PawnState(setup=setup, pawns=start_positions(setup))

    def players(self, state: PawnState) -> tuple[str, ...]:
        return SIDES

    def clock(self, state: PawnState) -> tuple[int, str]:
        return state.turn, state.phase

    def is_over(self, state: PawnState) -> bool:
        return state.over

    def decide(self, state: PawnState, command: Command, dice: DiceCup) -> list[Event]:
        if state.over:
            raise RuleError("the game is over", rule="The end")
        if command.player not in SIDES:
            raise RuleError(f"{command.player!r} is not playing", rule="Sides")
        if isinstance(command, GiveOrder):
            if state.phase != "orders" or command.player in state.orders:
                raise RuleError("each side gives one order, at the start of the turn", rule="Orders")
            if command.order not in ORDERS:
                raise RuleError(f"an order is advance or hold, not {command.order!r}", rule="Orders")
            events: list[Event] = [OrderSealed(owner=command.player, order=command.order).sealed(dice.salts.next())]
            if len(state.orders) == 1:
                events.append(OrdersRevealed(orders={**state.orders, command.player: command.order}))
            return events
        if isinstance(command, MovePiece):
            if state.phase != "move" or next_mover(state) != command.player:
                raise RuleError(f"it is not {command.player}'s move", rule="Movement")
            try:
                pawn = state.pawn(command.piece)
            except KeyError:
                raise RuleError(f"there is no pawn {command.piece!r}", rule="Movement") from None
            if pawn.side != command.player or pawn.id in state.moved:
                raise RuleError(f"{pawn.id} is not a pawn {command.player} may move now", rule="Movement")
            if not 0 <= command.direction < len(DIRECTIONS):
                raise RuleError("a direction is 0 (N) to 7 (NW)", rule="Movement")
            roll = dice.roll(1, sides=DRIFT_DIE, purpose="move", roller=command.player)
            distance = self.base_distance[state.orders[command.player]] + MM_PER_PIP * roll.faces[0]
            x, y = destination(state.setup, pawn, command.direction, distance)
            events = [roll, PawnMoved(piece=pawn.id, direction=command.direction, distance=distance, x=x, y=y)]
            if len(state.moved) + 1 == len(state.pawns):
                after = [Pawn(p.id, p.side, x, y) if p.id == pawn.id else p for p in state.pawns]
                scored = {side: sum(1 for p in after if p.side == side and on_objective(state.setup, p))
                          for side in SIDES}
                events.append(TurnEnded(scored=scored, game_over=state.turn >= state.setup.turns))
            return events
        raise RuleError(f"{type(command).__name__} is not a Pawns command", rule="Commands")

    def evolve(self, state: PawnState, event: Event) -> PawnState:
        replace = msgspec.structs.replace
        if type(event) is DiceRolled:
            return state
        if isinstance(event, OrderSealed):
            return replace(state, orders={**state.orders, event.owner: event.order})
        if isinstance(event, OrdersRevealed):
            return replace(state, orders=dict(event.orders), revealed=True, phase="move")
        if isinstance(event, PawnMoved):
            pawns = tuple(Pawn(p.id, p.side, event.x, event.y) if p.id == event.piece else p for p in state.pawns)
            return replace(state, pawns=pawns, moved=(*state.moved, event.piece))
        if isinstance(event, TurnEnded):
            points = {side: state.points[side] + event.scored.get(side, 0) for side in SIDES}
            if event.game_over:
                return replace(state, points=points, moved=(), orders={}, revealed=False, phase="over", over=True)
            return replace(state, points=points, turn=state.turn + 1, phase="orders", orders={}, revealed=False,
                           moved=())
        raise TypeError(f"{NAME} cannot apply {type(event).__name__}")

    def legal_commands(self, state: PawnState, player: str) -> list[Command]:
        if state.over:
            return []
        if state.phase == "orders":
            return [] if player in state.orders else [GiveOrder(player=player, order=o) for o in ORDERS]
        if next_mover(state) != player:
            return []
        return [MovePiece(player=player, piece=p.id, direction=d) for p in state.pawns
                if p.side == player and p.id not in state.moved for d in range(len(DIRECTIONS))]

    def view(self, state: PawnState, player: str | None) -> PawnState:
        """Orders: another side's order is hidden until both are revealed."""
        if state.revealed:
            return state
        return msgspec.structs.replace(state, orders={s: o for s, o in state.orders.items() if s == player})

    # ------------------------------------------------------------ the tools' interface

    def is_secret_command(self, command: Any) -> bool:
        return isinstance(command, GiveOrder)

    def describe_event(self, event: Any, state: Any = None) -> str:
        if isinstance(event, OrderSealed):
            return f"{event.owner} gives an order face down"
        if isinstance(event, OrdersRevealed):
            return "orders revealed: " + ", ".join(f"{side} {order}" for side, order in sorted(event.orders.items()))
        if isinstance(event, PawnMoved):
            return (f"{event.piece} moves {event.distance} mm {DIRECTION_NAMES[event.direction]} "
                    f"to ({event.x}, {event.y})")
        if isinstance(event, TurnEnded):
            scored = ", ".join(f"{side} +{n}" for side, n in event.scored.items())
            return f"=== turn ends: {scored}" + (" — game over" if event.game_over else "")
        if isinstance(event, DiceRolled):
            return ""
        return super().describe_event(event, state)

    def describe_command(self, command: Any, state: Any = None) -> str:
        if isinstance(command, GiveOrder):
            return f"{command.player} orders {command.order}"
        if isinstance(command, MovePiece):
            return f"{command.player} moves {command.piece} {DIRECTION_NAMES[command.direction]}"
        return super().describe_command(command, state)

    def outcome(self, state: PawnState) -> Outcome:
        """The end: more points wins, equal points are a draw."""
        scores = {side: float(state.points[side]) for side in SIDES}
        red, blue = state.points["red"], state.points["blue"]
        leader = "red" if red > blue else "blue" if blue > red else None
        reason = f"after turn {min(state.turn, state.setup.turns)}: red {red}, blue {blue} points"
        if not state.over:
            return Outcome(finished=False, scores=scores, reason=reason)
        return Outcome(finished=True, winner=leader, draw=leader is None, scores=scores, reason=reason)

    def scene(self, state: PawnState, viewer: str | None = None) -> Scene:
        setup = state.setup
        pieces = tuple(Piece(id=p.id, side=p.side, label=p.id, x=float(p.x), y=float(p.y),
                             footprint=Circle(radius=float(PAWN_RADIUS)), kind="pawn",
                             hover=f"{p.id} at ({p.x}, {p.y}) mm" + (" · moved" if p.id in state.moved else ""))
                       for p in state.pawns)
        objective = Marker(kind="objective", x=setup.width / 2, y=setup.height / 2,
                           shape=Circle(radius=float(OBJECTIVE_RADIUS)), label="objective",
                           hover="a pawn here scores 1 point at the end of the turn")
        return Scene(table=Table(width=float(setup.width), height=float(setup.height), name="pawns table"),
                     pieces=pieces, markers=(objective,), sides=SIDES, turn=state.turn,
                     caption=f"Turn {state.turn}, {state.phase}")

    def sql_views(self) -> Sequence[SqlView]:
        return (SqlView(
            name="pawns_moves",
            sql="select e.game, e.branch, e.seq, e.turn, e.actor as side, "
                "json_extract_string(e.payload, '$.piece') as piece, "
                "cast(json_extract(e.payload, '$.distance') as integer) as distance_mm "
                "from events e join games g on g.id = e.game "
                "where g.ruleset like 'pawns/%' and e.type = 'pawns.PawnMoved'",
            description="every pawn's move: who, how far (mm)"),)

    def notation(self) -> Notation:
        return PawnNotation(self)

    def scenarios(self) -> Mapping[str, Scenario]:
        return {"meeting": Scenario(
            name="meeting",
            description="two pawns a side race for the objective in the middle of the table",
            players=SIDES,
            build=build_meeting,
            default_options={"width": 600, "height": 400, "turns": 3})}

    def bots(self) -> Mapping[str, BotInfo]:
        return {"centre": BotInfo(name="centre", description="advances and heads for the objective",
                                  make=lambda ruleset, seed: CentreBot(seed))}

    def score_name(self) -> str:
        return "points"

    def sides(self, state: PawnState) -> Sequence[str]:
        return SIDES

    def piece_ids(self, state: PawnState) -> Sequence[str]:
        return tuple(p.id for p in state.pawns)

    def demo_scenario(self) -> tuple[str, dict[str, Any], tuple[str, ...]]:
        return "meeting", {}, ("centre", "random")

    def describe_setup(self, setup: PawnSetup, bots: Mapping[str, str]) -> list[str]:
        return [f"{side} ({bot} bot): 2 pawns on a {setup.width} x {setup.height} mm table, {setup.turns} turns"
                for side, bot in bots.items()]


def build_meeting(options: Mapping[str, Any], seed: int) -> PawnSetup:
    """The meeting scenario's setup from a matchup's options (width, height in mm; turns; the players, which
    are always red and blue)."""
    unknown = set(options) - {"width", "height", "turns", "players"}
    if unknown:
        raise DataError(f"the meeting scenario has no option {min(unknown)!r}", source="pawns/v1",
                        field=min(unknown))
    if tuple(options.get("players", SIDES)) != SIDES:
        raise DataError("Pawns is played by red and blue", source="pawns/v1", field="players")
    try:
        setup = PawnSetup(width=int(options.get("width", 600)), height=int(options.get("height", 400)),
                          turns=int(options.get("turns", 3)))
    except (TypeError, ValueError) as err:
        raise DataError(f"a meeting option is not a whole number: {err}", source="pawns/v1") from err
    if setup.width < 200 or setup.height < 200 or setup.turns < 1:
        raise DataError("the table is at least 200 x 200 mm and the game at least one turn", source="pawns/v1")
    return setup


register_ruleset(NAME, PawnRules, default=True)
