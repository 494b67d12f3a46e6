"""The whole-game record (``.aero``), in the spirit of chess's PGN: headers, then the moves, with comments
and variations. Parse and write.

::

    [Event "Club night"]
    [Date "2024.05.01"]
    [GameId "table-20240501-1"]
    [Ruleset "aeronautica/wov-2019"]
    [Scenario "The Dogfight"]
    [Players "imperium - orks"]
    [Forces "imperium=Veil Squadron(imperial_navy): thunderbolt+2*skystrike_missiles; orks=..."]
    [Points "25"]
    [Board "3x3"]
    [Dice "manual"]
    [Salts "table-20240501-1"]
    [Result "*"]

    imperium rolloff [rolloff 4,2]
    imperium-1 @9,15N S4 A3
    orks-1 @10,1S S6 A4
    1. imperium-1 M3
       orks-1 M2 [init 3,5]
       orks first imperium
       imperium-1 go T+1 R1f0 =@10,11N A0 {tailing missed by one hex}
       orks-1 go T0 L2f1 =@8,5SE A-1 [crash 4]
       imperium-1 fire twin_lascannons>orks-1 [hit 5,2] [dmg 4] =orks-1:-1
       (undo-1:
         3. imperium-1 fire quad_autocannons>orks-1 [hit 6,6,1] [dmg 2,5] =orks-1:-1 {[%note better]})
       orks pass

The example is an Aeronautica game; the format is any ruleset's:

* **Headers** (:mod:`.headers`): one ``[Name "value"]`` per line, then a blank line. ``[Ruleset]`` names the
  ruleset (:mod:`aero_events.core.registry`); the setup's headers are the ruleset's (its recorder guide's
  ``setup_headers``; by default one ``[Setup]`` of JSON).
* **Steps**: one command each, written in the ruleset's notation
  (:meth:`~aero_events.core.interface.Notation.words`; by default the command's JSON as one quoted word),
  then the dice it rolled (``[hit 5,2]``, in the order the rules rolled them, including the dice of the
  steps it set off: the initiative after the last token, the End phase after the last firing; a pool draw
  as the dice that picked its items, :mod:`.steps`) and optional result marks (``=orks-1:-1``), which are
  checked. Salts the record cannot derive follow the step (:mod:`.salts`).
* ``N.`` starts turn N (checked against the notation's ``turn``); layout and line breaks are free.
* ``{text}`` is a comment on the step before it (or on the start of its line); ``{[%note text]}`` an
  annotation (any ``%name``); ``{[%label text]}`` at the start of a variation is its branch's label.
* ``(name: ...)`` is a variation: the branch ``name``, forked where it is written (after the step before
  it), holding its own steps. Variations nest. The root line is the branch ``main``.

A **viewer's copy** (``aero export GAME FILE.aero --player P``, ``write_record(..., viewer=P)``) is the record as
player P may see it: another player's secret order is written as a comment naming who gave it and its
commitment (:func:`~.steps.secret_step_text`), never its words; the dice that chose another player's secret
(a damage token drawn face down) are left out; result marks are derived from the events as P sees them; no
salt is written, nor the ``[Salts]`` or ``[Seed]`` seed. Its ``[Viewer "P"]`` header says so, and reading it is refused:
it no longer holds the whole game, so it cannot be replayed or imported as it.

Reading a record plays it through the rules (:func:`replay_record`): every step is applied with the dice
written after it, so an illegal move, a roll with the wrong number of dice or a die showing 7 is refused
at its line and column (:class:`~.errors.RecordError`), and nothing is kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from aero_events.core import (
    AeroError,
    DiceError,
    Game,
    GameSession,
    RuleError,
    encode_event,
)
from aero_events.core.dice import faces_on_tape
from aero_events.core.ids import name_problem
from aero_events.core.interface import NotationError as CoreNotationError
from aero_events.core.registry import get_ruleset
from aero_events.core.secrets import SecretEvent, redact
from aero_events.core.session import Branch, StateCheckpoint, issued_command
from aero_events.core.state_shape import CheckpointCheck

from . import steps
from .errors import RecordError, RecordWriteError
from .headers import (
    Header,
    HeaderError,
    created_from_values,
    date_headers,
    header_line,
    metadata_from_values,
    metadata_headers,
    read_header,
    salt_seed,
)
from .lexer import BRACKET, CLOSE, COMMENT, OPEN, WORD, LexError, Token, escape_comment, tokenize
from .salts import COMMANDS, RecordSalts, derived_salt, is_command_secret, is_ruleset_secret, is_salt
from .steps import Boundary

DEFAULT_RULESET = "aeronautica/wov-2019"
RECORD_SUFFIX = ".aero"


@dataclass(frozen=True)
class Annotation:
    """A comment or annotation on a branch, after event ``seq`` (the end of the step it follows).

    ``kind`` is ``comment`` for ``{text}``, or the name of an annotation command (``note`` for
    ``[%note text]``).
    """

    branch: str
    seq: int
    kind: str
    text: str


@dataclass
class Variation:
    """A line of play in the text: the main line, or a ``(name: ...)`` variation and its items."""

    name: str
    opener: Token | None
    items: list[Token | Variation] = field(default_factory=list)
    kind: str = "variation"


@dataclass
class RecordDocument:
    """A parsed record: its headers (by name) and its main line."""

    source: str
    headers: dict[str, Header]
    main: Variation

    def values(self) -> dict[str, str]:
        return {name: header.value for name, header in self.headers.items()}


# ---------------------------------------------------------------- parsing


def parse_record(text: str, source: str = "<record>") -> RecordDocument:
    """The headers and the tree of lines of a record; syntax errors raise :class:`RecordError`."""
    lines = text.splitlines()
    headers: dict[str, Header] = {}
    index = 0
    while index < len(lines) and not lines[index].strip():
        index += 1
    while index < len(lines) and lines[index].startswith("["):
        read = read_header(lines[index].rstrip(), index + 1)
        if not isinstance(read, Header):
            message, column = read
            raise RecordError(message, source=source, line=index + 1, column=column)
        if read.name in headers:
            raise RecordError(f"[{read.name}] is given twice (first on line {headers[read.name].line})",
                              source=source, line=index + 1, column=2)
        headers[read.name] = read
        index += 1
    movetext = "\n".join(lines[index:])
    try:
        tokens = tokenize(movetext, first_line=index + 1)
    except LexError as err:
        raise RecordError(err.message, source=source, line=err.line, column=err.column) from err
    return RecordDocument(source, headers, _tree(tokens, source))


def _tree(tokens: Sequence[Token], source: str) -> Variation:
    main = Variation("main", None)
    stack = [main]
    position = 0
    while position < len(tokens):
        token = tokens[position]
        position += 1
        if token.kind == OPEN:
            name = tokens[position] if position < len(tokens) else None
            if name is None or name.kind != WORD or not name.value.endswith(":") or len(name.value) < 2:
                raise RecordError("a variation starts with its branch's name and a colon, like (undo-1: ...)",
                                  source=source, line=token.line, column=token.column + 1)
            position += 1
            variation = Variation(name.value[:-1], token)
            stack[-1].items.append(variation)
            stack.append(variation)
        elif token.kind == CLOSE:
            if len(stack) == 1:
                raise RecordError("')' closes no variation", source=source, line=token.line, column=token.column)
            stack.pop()
        else:
            if steps.is_dice_group(token):
                try:
                    steps.read_dice_group(token)
                except steps.NotationError as err:
                    raise _error(source, err.message, err.token or token, err.offset) from err
            stack[-1].items.append(token)
    if len(stack) > 1:
        opener = stack[-1].opener
        assert opener is not None
        raise RecordError(f"the variation {stack[-1].name!r} opened here is never closed with ')'",
                          source=source, line=opener.line, column=opener.column)
    return main


def _error(source: str, message: str, token: Token, offset: int = 0) -> RecordError:
    line, column = token.at(offset)
    return RecordError(message, source=source, line=line, column=column)


def _comment_parts(value: str) -> list[tuple[str, str]]:
    """A comment's annotation commands (``[%name text]``) and its remaining text, as (kind, text)."""
    import re

    parts = [(match[1], match[2].strip()) for match in re.finditer(r"\[%(\w+)\s*([^\]]*)\]", value)]
    rest = " ".join(re.sub(r"\[%\w+[^\]]*\]", " ", value).split())
    return ([("comment", rest)] if rest else []) + parts


# ---------------------------------------------------------------- replaying


@dataclass
class ReplayedRecord:
    """A record played through its rules: the game with every branch, its annotations, the branch play goes
    on with (``Current``), and when it was created."""

    game: Game
    annotations: list[Annotation]
    current: str | None
    created: datetime | None


class _RecordDiceProblem(DiceError):
    """Dice written in a record that do not fit the roll the rules make; ``token`` is where."""

    def __init__(self, message: str, token: Token):
        super().__init__(message)
        self.token = token


class RecordedDice:
    """The dice of one step, as written after it: handed to the rules roll by roll, each checked against
    the roll asked for (its purpose's label, its number of dice)."""

    def __init__(self, notation: Any) -> None:
        self.notation = notation
        self.groups: list[steps.DiceGroup] = []
        self.used = 0
        self.verb: Token | None = None

    def load(self, groups: list[steps.DiceGroup], verb: Token) -> None:
        self.groups, self.used, self.verb = list(groups), 0, verb

    def draw(self, count: int, sides: int, purpose: str = "", roller: str | None = None) -> list[int]:
        label = self.notation.dice_label(purpose)
        if self.used >= len(self.groups):
            assert self.verb is not None
            raise _RecordDiceProblem(f"the rules roll {count} D{sides} for {purpose} here; the record gives no "
                                     f"dice for it (write [{label} ...] after the step)", self.verb)
        group = self.groups[self.used]
        self.used += 1
        if group.label is not None and group.label != label:
            raise _RecordDiceProblem(f"this roll is for {purpose} ([{label} ...]); the record says "
                                     f"[{group.label} ...]: are dice missing or out of order?", group.token)
        if group.sides != sides:
            raise _RecordDiceProblem(f"{purpose}: D{sides} are rolled, the record gives D{group.sides}", group.token)
        if len(group.faces) != count:
            raise _RecordDiceProblem(f"{purpose}: {count} dice needed, {len(group.faces)} given", group.token)
        return list(group.faces)


def replay_record(document: RecordDocument, *, game_id: str | None = None,
                  record_commands: bool = True) -> ReplayedRecord:
    """Play a parsed record through its ruleset; any problem raises :class:`RecordError` at its place.

    ``record_commands=False`` replays as games were recorded before commands were (no ``CommandIssued``),
    to check the record of such a game (:func:`write_record`)."""
    return _Replayer(document, game_id, record_commands).run()


def read_record(text: str, source: str = "<record>", *, game_id: str | None = None,
                record_commands: bool = True) -> ReplayedRecord:
    """Parse and replay a record's text."""
    return replay_record(parse_record(text, source), game_id=game_id, record_commands=record_commands)


class _Replayer:
    def __init__(self, document: RecordDocument, game_id: str | None, record_commands: bool = True):
        self.document = document
        self.source = document.source
        self.values = document.values()
        self.default_game_id = game_id
        self.record_commands = record_commands
        self.annotations: list[Annotation] = []

    def header_error(self, name: str, message: str, offset: int | None = None) -> RecordError:
        header = self.document.headers.get(name)
        if header is None:
            return RecordError(message, source=self.source, line=1, column=1)
        return RecordError(f"[{name}]: {message}", source=self.source, line=header.line,
                           column=header.column + (offset or 0))

    def run(self) -> ReplayedRecord:
        values = self.values
        if "Viewer" in values:
            raise self.header_error("Viewer", f"this record is {values['Viewer']}'s copy of the game (exported with "
                                              "--player): other players' secret orders are left out of it, so it "
                                              "cannot be replayed or imported as the full game")
        ruleset_name = values.get("Ruleset", DEFAULT_RULESET)
        try:
            rules = get_ruleset(ruleset_name)
        except KeyError as err:
            raise self.header_error("Ruleset", str(err).strip("'\"")) from err
        self.notation = rules.notation()
        try:
            setup = rules.recorder_guide().setup_from_headers(values)
            metadata = metadata_from_values(values)
            created = created_from_values(values)
        except HeaderError as err:
            raise self.header_error(err.name, err.message, err.offset) from err
        self.seed = salt_seed(metadata)  # the [Salts] header, else the digital dice's seed, else the default
        metadata["salt_seed"] = self.seed
        game_id = values.get("GameId") if "GameId" in values else self.default_game_id
        if not game_id:
            raise self.header_error("GameId", "the record names no game: give [GameId \"...\"]")
        if (problem := name_problem(game_id)) is not None:
            raise self.header_error("GameId", f"invalid game id: {problem}")
        try:
            game = Game(rules, setup, game_id, metadata)
        except (RuleError, KeyError, ValueError) as err:  # a board or force the ruleset cannot set up
            header = "Setup" if "Setup" in values else "Board" if "board" in str(err).lower() else "Forces"
            raise self.header_error(header, str(err).strip("'\"")) from err
        self.game = game
        self.rules = rules
        self._play(self.document.main, self._session("main"))
        self._check_result()
        current = values.get("Current")
        if current is not None and current not in game.branches:
            raise self.header_error("Current", f"no branch {current!r} in the record "
                                               f"(branches: {', '.join(game.branches)})")
        return ReplayedRecord(game, self.annotations, current, created)

    def _session(self, branch: str) -> GameSession:
        return GameSession(self.rules, dice=RecordedDice(self.notation), salts=RecordSalts(self.seed, branch),
                           game=self.game, branch=branch, record_commands=self.record_commands)

    def _check_result(self) -> None:
        """The result is the current branch's (``Current``, else main)."""
        if "Result" not in self.values:
            return
        played = self.game.branches.get(self.values.get("Current", "main"), self.game.main)
        actual = result_text(self.rules, played.state_at(played.head_seq))
        if self.values["Result"] != actual:
            raise self.header_error("Result", f"the record's branch {played.id} ends with {actual!r}, not "
                                              f"{self.values['Result']!r}")

    def _play(self, variation: Variation, session: GameSession) -> None:
        items = variation.items
        subject: str | None = None
        position = 0
        while position < len(items):
            item = items[position]
            if isinstance(item, Variation):
                self._fork(item, session)
                position += 1
                continue
            if item.kind == COMMENT:
                self._comment(item, session)
                position += 1
                continue
            if item.kind == BRACKET:
                if steps.is_dice_group(item):
                    raise _error(self.source, "dice are written after the step that rolled them; these follow "
                                              "no step", item)
                self._comment(item, session)
                position += 1
                continue
            turn = steps.is_turn_marker(item)
            if turn is not None:
                actual = self.notation.turn(session.state)
                if actual != turn:
                    now = f"in turn {actual}" if actual is not None else "before its first turn"
                    raise _error(self.source, f"turn {turn} is marked here, but the game is {now}", item)
                position += 1
                continue
            if steps.is_mark(item):
                raise _error(self.source, "a result mark follows the step it is about; this one follows none", item)
            position, subject = self._step(items, position, session, subject)

    def _step(self, items: list[Any], position: int, session: GameSession, subject: str | None
              ) -> tuple[int, str | None]:
        state = session.state
        words = steps.step_words(items, position)
        if not words:
            raise _error(self.source, "a step is expected here", items[position])
        try:
            step = self.notation.read(state, words, subject)
        except CoreNotationError as err:
            token = err.token if isinstance(err, steps.NotationError) and err.token is not None else \
                words[err.word] if err.word is not None and err.word < len(words) else words[-1]
            raise _error(self.source, err.message, token, err.offset) from err
        verb = words[min(step.verb, len(words) - 1)]
        end = position + step.end
        groups: list[steps.DiceGroup] = []
        marks: list[Token] = []
        while end < len(items) and isinstance(items[end], Token):
            token = items[end]
            if steps.is_dice_group(token):
                groups.append(steps.read_dice_group(token))
            elif steps.is_mark(token):
                marks.append(token)
            else:
                break
            end += 1
        dice = session.dice
        assert isinstance(dice, RecordedDice)
        dice.load(groups, verb)
        salts, command_salts = session.salts, session.command_salts
        assert isinstance(salts, RecordSalts) and isinstance(command_salts, RecordSalts)
        explicit = list(step.salts)
        for salt in explicit:
            if not is_salt(salt):
                raise _error(self.source, f"~{salt}: a salt is 32 hex digits (the record writes those of the "
                                          "secrets it cannot derive from its [Salts] seed)", verb)
        if explicit and session.record_commands and self.rules.is_secret_command(step.command):
            command_salts.use_next(explicit[:1])
            explicit = explicit[1:]
        salts.use_next(explicit)
        try:
            envelopes = session.apply(step.command)
            unused = [*command_salts.unused(), *salts.unused()]
        except _RecordDiceProblem as err:
            raise _error(self.source, str(err), err.token) from err
        except RuleError as err:
            text = self.notation.format(state, step.command)
            raise _error(self.source, f"{text} is refused: {err}", verb) from err
        except (DiceError, AeroError) as err:
            raise _error(self.source, str(err), verb) from err
        finally:
            salts.use_next([])
            command_salts.use_next([])
        if unused:
            raise _error(self.source, f"this step sealed fewer secrets than the salts written after it: "
                                      f"~{unused[0]} is left over", verb)
        if dice.used < len(groups):
            left = groups[dice.used]
            raise _error(self.source, f"the rules rolled {dice.used} time(s) for this step; the dice "
                                      f"[{left.token.value}] are left over", left.token)
        if marks:
            expected = self.notation.marks([env.event for env in envelopes], step.subject)
            written = [mark.raw for mark in marks]
            if written != expected:
                index = next((i for i, (a, b) in enumerate(zip(written, expected)) if a != b),
                             min(len(written), len(expected)))
                where = marks[min(index, len(marks) - 1)]
                raise _error(self.source, f"the record says {' '.join(written)}; the rules give "
                                          f"{' '.join(expected) or 'no result marks'}", where)
        return end, step.subject

    def _comment(self, token: Token, session: GameSession) -> None:
        value = token.value if token.kind == COMMENT else f"[{token.value}]"
        for kind, text in _comment_parts(value):
            if kind == "label":
                session.branch.label = text
            else:
                self.annotations.append(Annotation(session.branch.id, session.seq, kind, text))

    def _fork(self, variation: Variation, session: GameSession) -> None:
        assert variation.opener is not None
        if variation.name in self.game.branches:
            raise _error(self.source, f"there is already a branch called {variation.name!r}", variation.opener, 1)
        self.game.fork(session.branch.id, session.seq, variation.name)
        self._play(variation, self._session(variation.name))


def result_text(rules: Any, state: Any) -> str:
    """``*`` while the game goes on, else the winner (the ruleset's ``outcome``) or ``draw``."""
    if not rules.is_over(state):
        return "*"
    return rules.outcome(state).winner or "draw"


# ---------------------------------------------------------------- writing


def write_record(game: Game, *, annotations: Sequence[Annotation] = (), created: datetime | None = None,
                 current: str | None = None, verify: bool = True, viewer: str | None = None) -> str:
    """The record of a whole game: headers, the main line, every other branch as a variation.

    With ``verify`` the text is read back and replayed, and must give every branch's events exactly;
    otherwise :class:`RecordWriteError` (it would not round-trip). With ``viewer`` (one of the game's
    players) it is that player's copy (see the module docstring), which is not read back: it cannot be.
    """
    if viewer is not None:
        players = list(game.ruleset.players(game.initial_state))
        if viewer not in players:
            raise RecordWriteError(f"game {game.id} has no player {viewer!r}; its players are {', '.join(players)}")
    writer = _Writer(game, annotations, viewer)
    text = writer.text(created, current)
    if verify and viewer is None:
        _verify(game, text)
    return text


def records_commands(game: Game) -> bool:
    """Whether the game's commands are recorded (``CommandIssued``); games stored before they were are not."""
    for branch in game.branches.values():
        for env in branch.own:
            if issued_command(env.event) is not None:
                return True
    return not any(branch.own for branch in game.branches.values())


def _withheld_rolls(rolls: Sequence[steps.Roll], events: Sequence[Any], viewer: str) -> set[int]:
    """The indices of the rolls whose faces drew another player's secret (they come off the tape in the
    order of the events that hold them); every roll when the two do not line up."""
    hidden: list[bool] = []
    for event in events:
        secret = isinstance(event, SecretEvent) and event.owner != viewer
        hidden.extend([secret] * len(faces_on_tape(event)))
    if not any(hidden):
        return set()
    if sum(len(roll.faces) for roll in rolls) != len(hidden):
        return set(range(len(rolls)))
    withheld, position = set(), 0
    for index, roll in enumerate(rolls):
        if any(hidden[position: position + len(roll.faces)]):
            withheld.add(index)
        position += len(roll.faces)
    return withheld


class _Writer:
    def __init__(self, game: Game, annotations: Sequence[Annotation], viewer: str | None = None):
        self.game = game
        self.viewer = viewer
        self.rules = game.ruleset
        self.notation = self.rules.notation()
        self.seed = salt_seed(game.metadata)
        self.annotations: dict[tuple[str, int], list[Annotation]] = {}
        self.steps: dict[str, list[Boundary]] = {}
        self._lines: dict[str, list[Boundary]] = {}
        for branch in game.branches.values():
            self.steps[branch.id] = self._own_steps(branch)
        for note in annotations:
            self.annotations.setdefault(self._anchor(note), []).append(note)
        self.children: dict[tuple[str, int], list[Branch]] = {}
        for branch in game.branches.values():
            if branch.parent is not None:
                self.children.setdefault((branch.parent.id, branch.fork_seq), []).append(branch)

    def _line_steps(self, branch: Branch) -> list[Boundary]:
        """Every command of the branch's line of play (its ancestors' included)."""
        if branch.id not in self._lines:
            try:
                self._lines[branch.id] = steps.command_boundaries(self.rules, self.game.setup, branch.envelopes())
            except AeroError as err:
                raise RecordWriteError(f"branch {branch.id!r}: {err}") from err
        return self._lines[branch.id]

    def _own_steps(self, branch: Branch) -> list[Boundary]:
        decisions = self._line_steps(branch)
        if branch.parent is not None:
            ends = {0} | {decision.last_seq for decision in self._line_steps(branch.parent)}
            if branch.fork_seq not in ends:
                raise RecordWriteError(f"branch {branch.id!r} forks at event {branch.fork_seq}, inside a command: a "
                                       "record writes whole commands")
            if branch.fork_seq < branch.parent.fork_seq:
                raise RecordWriteError(f"branch {branch.id!r} forks {branch.parent.id!r} at event {branch.fork_seq}, "
                                       f"before that branch's own events begin ({branch.parent.fork_seq + 1}): "
                                       "a record writes a variation inside the line it leaves")
        return [decision for decision in decisions if decision.first_seq > branch.fork_seq]

    def _anchor(self, note: Annotation) -> tuple[str, int]:
        """Where a note is written: after the step ending at its seq, or the step holding it."""
        branch = self.game.branches.get(note.branch)
        if branch is None:
            return ("main", 0)
        if note.seq <= branch.fork_seq:
            return (branch.id, branch.fork_seq)
        for decision in self.steps[branch.id]:
            if decision.first_seq <= note.seq <= decision.last_seq:
                return (branch.id, decision.last_seq)
        own = self.steps[branch.id]
        return (branch.id, own[-1].last_seq if own else branch.fork_seq)

    def text(self, created: datetime | None, current: str | None) -> str:
        lines = [header_line(name, value) for name, value in self.headers(created, current).items()]
        lines.append("")
        lines.extend(self.line(self.game.main, depth=0))
        return "\n".join(lines) + "\n"

    def headers(self, created: datetime | None, current: str | None) -> dict[str, str]:
        game = self.game
        metadata_part = metadata_headers(game.metadata)
        headers = {"Event": metadata_part.pop("Event", "?")}
        if "Site" in metadata_part:
            headers["Site"] = metadata_part.pop("Site")
        headers.update(date_headers(created) if created is not None else {"Date": "????.??.??"})
        headers["GameId"] = game.id
        headers["Ruleset"] = self.rules.name
        headers["DataVersion"] = str(self.rules.data_version)
        headers.update(self.rules.recorder_guide().setup_headers(game.setup))
        if self.viewer is not None:  # a seed gives every die, those of secret draws too (store/viewer.py)
            metadata_part.pop("Seed", None)
        for name in ("Dice", "Seed"):
            if name in metadata_part:
                headers[name] = metadata_part.pop(name)
        metadata_part.pop("Salts", None)
        if self.viewer is None:
            headers["Salts"] = self.seed
        else:  # the salts follow from the seed, and the secrets from the salts
            headers["Viewer"] = self.viewer
        if current is not None and current != "main":
            headers["Current"] = current
        played = game.branches.get(current or "main", game.main)
        headers["Result"] = result_text(self.rules, played.state_at(played.head_seq))
        headers.update(metadata_part)
        return headers

    def line(self, branch: Branch, depth: int) -> list[str]:
        indent = "    " * depth
        out: list[str] = []
        current: list[str] = []
        marker: int | None = None
        previous_subject: str | None = None
        previous_kind: tuple[str, str] | None = None
        notation = self.notation

        def flush() -> None:
            if current:
                out.append(indent + " ".join(current))
                current.clear()

        opening = []
        if branch.label != branch.id:
            opening.append("{" + f"[%label {escape_comment(branch.label)}]" + "}")
        opening += self._notes(branch.id, branch.fork_seq)
        if opening:
            current.extend(opening)
            flush()
        self._variations(branch.id, branch.fork_seq, depth, out)
        counts = {None: 0, COMMANDS: 0}
        for decision in self.steps[branch.id]:
            before = branch.state_at(decision.first_seq - 1)
            command = decision.command
            subject = notation.subject(command)
            envelopes = list(branch.envelopes(decision.first_seq, decision.last_seq))
            events = [env.event for env in envelopes]
            salts, differs = [], False
            for event in [e for e in events if is_command_secret(e)] + [e for e in events if is_ruleset_secret(e)]:
                label = COMMANDS if is_command_secret(event) else None
                counts[label] += 1
                salts.append(event.salt)
                differs = differs or event.salt != derived_salt(self.seed, branch.id, counts[label], label)
            explicit = salts if differs and self.viewer is None else []
            secret = steps.is_secret_step(self.rules, command)
            kind = (type(command).__name__, command.player)
            turn = notation.turn(before)
            turn_starts = turn is not None and turn != marker
            same_line = (current and not turn_starts and subject is not None
                         and (subject == previous_subject or (kind == previous_kind and secret)))
            if not same_line:
                flush()
                if turn_starts:
                    marker = turn
                    current.append(f"{turn}.")
                elif marker is not None:
                    current.append("  ")
            with_subject = subject is None or not same_line or subject != previous_subject
            hidden_order = self.viewer is not None and secret and command.player != self.viewer
            if hidden_order:
                words = ["{" + escape_comment(steps.secret_step_text(command, subject, events)) + "}"]
            else:
                words = notation.words(before, command, with_subject=with_subject, salts=explicit)
            try:
                rolls = steps.step_rolls(self.rules, before, command, envelopes)
            except AeroError as err:
                raise RecordWriteError(f"branch {branch.id!r}, event {decision.first_seq}: {err}") from err
            if self.viewer is not None:
                withheld = _withheld_rolls(rolls, events, self.viewer)
                if withheld:
                    rolls = [roll for index, roll in enumerate(rolls) if index not in withheld]
                    words.append("{" + f"{len(withheld)} roll(s) withheld: another player's secret" + "}")
                events = [redact(event, self.viewer) for event in events]
            words += steps.rolls_text(notation, rolls)
            words += notation.marks(events, subject)
            words += self._notes(branch.id, decision.last_seq)
            current.append(" ".join(words))
            previous_subject, previous_kind = subject, kind
            if (branch.id, decision.last_seq) in self.children:
                flush()
                self._variations(branch.id, decision.last_seq, depth, out)
                previous_subject = None
        flush()
        return out

    def _notes(self, branch: str, seq: int) -> list[str]:
        notes = []
        for note in self.annotations.get((branch, seq), []):
            text = escape_comment(note.text)
            notes.append("{" + (text if note.kind == "comment" else f"[%{note.kind} {text}]") + "}")
        return notes

    def _variations(self, branch: str, seq: int, depth: int, out: list[str]) -> None:
        for child in self.children.get((branch, seq), []):
            inner = self.line(child, depth + 1)
            out.append("    " * depth + f"  ({child.id}:")
            if inner:
                out.extend(inner)
                out[-1] += ")"
            else:
                out[-1] += ")"


def _same_checkpoint(check: CheckpointCheck, ours: Any, theirs: Any, copy: Branch) -> bool:
    """Whether two checkpoints of one turn hash the same state, ours in the shape the game was recorded with."""
    return type(ours.event) is StateCheckpoint and type(theirs.event) is StateCheckpoint and \
        ours.event.turn == theirs.event.turn and check.matches(copy.state_at(theirs.seq), ours.event.state_hash)


def _verify(game: Game, text: str) -> None:
    """Read ``text`` back and check that it gives every branch of ``game`` event for event."""
    try:
        replayed = read_record(text, f"<record of {game.id}>", game_id=game.id,
                               record_commands=records_commands(game)).game
    except RecordError as err:
        raise RecordWriteError(f"the record written for game {game.id} does not read back: {err}") from err
    for branch in game.branches.values():
        # a game recorded with an older state shape holds checkpoints of it; the record's are of the current one
        check = CheckpointCheck.for_game(game.ruleset, game.metadata)
        copy = replayed.branches.get(branch.id)
        if copy is None or (copy.parent.id if copy.parent else None) != (branch.parent.id if branch.parent else None) \
                or copy.fork_seq != branch.fork_seq:
            raise RecordWriteError(f"the record of game {game.id} does not give branch {branch.id!r} its place")
        if len(copy.own) != len(branch.own):
            raise RecordWriteError(f"the record of game {game.id} gives branch {branch.id!r} {len(copy.own)} events, "
                                   f"not {len(branch.own)}")
        for ours, theirs in zip(branch.own, copy.own, strict=True):
            if encode_event(ours.event) != encode_event(theirs.event) and not _same_checkpoint(check, ours, theirs, copy) \
                    or ours.actor != theirs.actor:
                raise RecordWriteError(f"the record of game {game.id} gives event {ours.seq} of branch "
                                       f"{branch.id!r} differently ({theirs.type} for {ours.type})")
