"""The table recorder: a game played on a real table, entered as it happens, stored answer by answer.

It records any registered ruleset. What it asks, and how the choices read, is the ruleset's: its recorder
guide (:meth:`~aero_events.core.interface.ToolInterface.recorder_guide`: whose decision it is, a title,
hints, the board in text) and its notation (:meth:`~aero_events.core.interface.ToolInterface.notation`).

It is independent of the terminal: it talks through ``ask(prompt) -> answer``, ``ask_secret(prompt) ->
answer`` (an answer not echoed: getpass at a terminal) and ``say(line)``, so a test scripts it and ``aero
record`` (aero_events/cli/record_commands.py) wires it to standard input and output.

At each decision point it says whose decision it is and offers the legal commands, numbered, in the
ruleset's notation, with the guide's hints. The person answers with

* a number from the list (or one of the decision's own keys: a Manoeuvre token's number),
* a step in the notation (Aeronautica: ``L1+2f1,0``, ``imperium-1 @9,15N S4 A3``): checked by the rules
  before anything is recorded, so a mistyped or illegal step is refused with the rule and its page,
* words that narrow the list down (set-up placements run to thousands; an empty answer shows all again),
* ``board`` (the guide's board text), ``log`` (the last steps), ``note TEXT`` (an annotation on the last
  step), ``undo`` / ``undo N`` (take back commands, :mod:`.undo`), ``help``, ``quit``.

The dice the rules need are asked for roll by roll, as rolled (:mod:`.table_dice`), or rolled on screen;
items drawn from a pool (damage tokens, cards) are typed by name.

Every applied command's events are appended to the store at once, in one transaction, with the expected
sequence number: a crash loses at most the answer being typed, and ``aero record --resume GAME`` goes on
from there.

**A busy database** (issue 16 item 10): when another process holds the DuckDB file (an ``aero`` command, a
SQL client), the recorder does not stop. The command's events wait in memory, in order; the player is told
("database busy: 2 commands waiting to be written"), play goes on, and every later answer tries again (after
a pause that doubles up to :data:`MAX_RETRY_PAUSE`). Each waiting command is appended with its expected
sequence number, first to last, so none is lost or written twice. ``undo`` waits for them to be written;
stopping (``quit``, the end of input, Ctrl-C, the game's end) waits until they are, and a second Ctrl-C
gives up on them, naming the commands that were not stored so that they can be typed again after
``--resume``. (No journal file: the commands live only in this process, like the answer being typed.)

**Stopping**: ``quit`` and the end of input return exit code 0, Ctrl-C :data:`EXIT_INTERRUPTED` (130); all
three print how to go on (``aero record --resume GAME --branch B --db PATH``, runnable as printed).

**Simultaneous secret orders** (Aeronautica's Manoeuvre tokens, p.13; Wings of Glory's planned cards): when
the guide marks a decision ``secret``, every player types their orders in turn through ``ask_secret`` while
the others look away. The answer is not echoed, the recorder never shows it (nor narrows the list by it),
and what it says of the order, then and in ``log`` or ``undo``, is only who gave one and its commitment,
as the other players' view of the log shows it (:func:`aero_events.core.redact`). The order is revealed
when the rules reveal it. The salts derive from the game (:mod:`.salts`).
"""

from __future__ import annotations

import os
import secrets
import shlex
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from aero_events.core import (
    AeroError,
    Command,
    DataError,
    DiceRolled,
    Game,
    GameSession,
    RuleError,
    SecretEvent,
)
from aero_events.core.events import is_core_event
from aero_events.core.interface import NotationError, TableDecision
from aero_events.store import EventStore
from aero_events.store.branches import fork_branch
from aero_events.store.database import transaction
from aero_events.store.errors import StoreBusy

from . import journal, steps
from .headers import salt_seed
from .lexer import LexError, tokenize
from .record_format import Annotation
from .salts import RecordSalts, branch_salts
from .table_dice import CommandCancelled, Stop, TableDice
from .undo import Boundary, fork_source, next_undo_name, recover_boundaries, undo_point

PAGE = 30
#: How long each background try waits for a busy database (seconds).
BUSY_ATTEMPT = 1.0
#: The longest pause between two tries at writing the waiting commands (seconds).
MAX_RETRY_PAUSE = 30.0
#: The exit code of a recording stopped by Ctrl-C (128 + SIGINT, as shells report it).
EXIT_INTERRUPTED = 130
HELP = """Answer with a number from the list, a step in the notation, or words to narrow the list down.
  board        the table and every piece                log        the last steps recorded
  note TEXT    a note on the last step               undo [N]   take back the last N commands (default 1)
  help         this text                             quit       stop (everything is stored; --resume goes on)
  (empty)      show every choice again
At a dice prompt: the faces as rolled (5 2 6), r to roll them here, cancel to take the command back, quit.
At a draw prompt: the names of the items drawn (unseen), r to draw them here, cancel, quit.
A secret order is typed unseen: the others look away, and the screen never shows it."""


def _full_path(path: str) -> str:
    """A store's path as a hint prints it: in full, so that the command runs from any folder."""
    return path if path == ":memory:" else os.path.abspath(path)


def new_salt_seed() -> str:
    """A table game's salt seed: 128 random bits (never derived from the game id, which every player sees)."""
    return secrets.token_hex(16)


def typed_json_command(ruleset: Any, answer: str, player: str) -> tuple[Command | None, str | None]:
    """``answer`` as a command of ``ruleset`` given as its JSON encoding (``{"command": ..., "player": ...}``)
    by ``player``, or None and what is wrong with it (None too when it is not JSON of a command at all)."""
    import msgspec

    if not answer.lstrip().startswith("{"):
        return None, None
    try:
        data = msgspec.json.decode(answer)
    except msgspec.DecodeError:
        return None, None
    if not isinstance(data, dict) or "command" not in data:
        return None, None
    try:
        command = ruleset.decode_command(data)
    except DataError as err:
        return None, f"not a command of this game: {err.detail}"
    except (AeroError, KeyError, ValueError, TypeError) as err:
        return None, f"not a command of this game: {err}"
    if not isinstance(command, Command):
        return None, None
    if command.player != player:
        return None, f"that is {command.player}'s command; {player} is to choose"
    return command, None


class TableRecorder:
    """Records one game (one branch at a time) into the store, command by command."""

    def __init__(self, store: EventStore, session: GameSession, *, ask: Callable[[str], str],
                 say: Callable[[str], None], dice: TableDice, boundaries: list[Boundary] | None = None,
                 ask_secret: Callable[[str], str] | None = None):
        self.store = store
        self.session = session
        self.ask = ask
        self.ask_secret = ask_secret or ask
        self.say = say
        self.dice = dice
        self.boundaries = boundaries if boundaries is not None else recover_boundaries(session)
        self.current_decision: TableDecision | None = None
        #: commands applied but not yet written (the database was busy): (branch, expected seq, envelopes, text)
        self.waiting: list[tuple[str, int, list[Any], str]] = []
        self._busy = False
        self._told_busy = False
        self._closed = False
        self._writing = threading.RLock()
        self._retrying: threading.Thread | None = None
        self._announced: set[Any] = set()
        self._secret_turn: tuple[Any, ...] | None = None

    @property
    def guide(self) -> Any:
        return self.session.ruleset.recorder_guide()

    @property
    def notation(self) -> Any:
        return self.session.ruleset.notation()

    # ---------------------------------------------------------------- starting

    @classmethod
    def new_game(cls, store: EventStore, rules: Any, setup: Any, *, game_id: str, metadata: dict[str, Any],
                 ask: Callable[[str], str], say: Callable[[str], None], digital: bool = False,
                 seed: int | str | None = None, ask_secret: Callable[[str], str] | None = None) -> TableRecorder:
        """Store a new game (no events yet) and a recorder for its main branch.

        The secrets' salts derive from a random salt seed (``metadata["salt_seed"]``, kept in the organiser's
        copy and left out of a player's copy of an export): a seed the opponent could guess (the game id)
        would let them try every choice against a commitment (issue 16, item 3). Digital dice use ``seed``
        (random if None), kept in the metadata.
        """
        metadata = dict(metadata)
        metadata.setdefault("salt_seed", new_salt_seed())
        # Digital dice draw 128 random bits too: the faces of a secret draw follow from the seed, and a short
        # seed could be found by trying every one against the public rolls.
        metadata["dice"] = "digital" if digital else "manual"
        if digital:
            metadata["seed"] = seed if seed is not None else secrets.token_hex(16)
        dice = TableDice(ask, say, digital=digital, ask_secret=ask_secret,
                         seed=metadata.get("seed", seed if seed is not None else secrets.token_hex(16)))
        game = Game(rules, setup, game_id, metadata)
        session = GameSession(rules, dice=dice, salts=RecordSalts(str(metadata["salt_seed"]), "main"), game=game)
        store.create_game(game)
        journal.set_current_branch(store, game_id, "main")
        return cls(store, session, ask=ask, say=say, dice=dice, boundaries=[], ask_secret=ask_secret)

    @classmethod
    def resume(cls, store: EventStore, game_id: str, branch: str | None = None, *, ask: Callable[[str], str],
               say: Callable[[str], None], digital: bool = False, seed: int | str | None = None,
               ask_secret: Callable[[str], str] | None = None) -> TableRecorder:
        """A recorder going on with a stored game, on ``branch`` (default: the current one)."""
        game_id = store.resolve_game_id(game_id)
        branch = branch or journal.current_branch(store, game_id) or "main"
        game = store.load_game(game_id)
        if branch not in game.branches:
            raise AeroError(f"game {game_id} has no branch {branch!r}; its branches: {', '.join(game.branches)}")
        digital = digital or game.metadata.get("dice") == "digital"
        dice = TableDice(ask, say, digital=digital, ask_secret=ask_secret,
                         seed=seed if seed is not None else game.metadata.get("seed", secrets.token_hex(16)))
        salts = branch_salts(salt_seed(game.metadata), game.branches[branch])
        session = GameSession(game.ruleset, dice=dice, salts=salts, game=game, branch=branch)
        journal.set_current_branch(store, game_id, branch)
        return cls(store, session, ask=ask, say=say, dice=dice, ask_secret=ask_secret)

    # ---------------------------------------------------------------- the loop

    @property
    def game_id(self) -> str:
        return self.session.game_id

    def run(self) -> int:
        """Ask and record until the game is over or the person stops; returns the exit code (0)."""
        session = self.session
        self.say(f"Recording game {self.game_id} on branch {session.branch.id}, after event {session.seq} "
                 f"(type help for the commands).")
        try:
            while True:
                while not self.session.is_over():
                    self.step()
                outcome = self.session.ruleset.outcome(self.session.state)
                result = f"{outcome.winner} wins." if outcome.winner else "a draw."
                self.say(f"\nThe game is over: {outcome.reason + '; ' if outcome.reason else ''}{result}")
                if not self._after_the_end():
                    self._finish_writing()
                    return 0
        except (Stop, EOFError, KeyboardInterrupt) as stop:
            return self._stopped(stop)

    def _stopped(self, stop: BaseException) -> int:
        """Write what waits, say how to go on, and return the exit code (130 for Ctrl-C, else 0)."""
        from aero_events.cli.common import aero_command  # the hint as the user can type it

        interrupted = isinstance(stop, KeyboardInterrupt)
        why = "Ctrl-C" if interrupted else "the input ended" if isinstance(stop, EOFError) else "quit"
        try:
            self._finish_writing()
        except KeyboardInterrupt:
            interrupted = True
        with self._writing:  # no background try is half way through: what waits now is what is lost
            self._closed = True
            branch = self.session.branch.id
            lost = [text for waiting_branch, _, _, text in self.waiting if waiting_branch == branch]
            stored = self.waiting[0][1] if self.waiting else self.session.seq
        resume = (f"{aero_command()} record --resume {shlex.quote(self.game_id)} --branch {shlex.quote(branch)} "
                  f"--db {shlex.quote(_full_path(self.store.path))}")
        if lost:
            self.say(f"\nStopped ({why}) with the database still busy: {len(lost)} command(s) were NOT stored: "
                     f"{'; '.join(lost)}. Everything before them is stored (event {stored} of branch {branch}); "
                     f"go on with: {resume} and type them again.")
        else:
            self.say(f"\nStopped after event {stored} of branch {branch} ({why}). Everything answered is stored; "
                     f"go on with: {resume}")
        return EXIT_INTERRUPTED if interrupted else 0

    # ---------------------------------------------------------------- writing (a busy database)

    def _write_waiting(self, *, patient: bool = False) -> bool:
        """Append the waiting commands, first to last; True when none is left waiting.

        The first write waits as long as the store's ``--wait``; if the database stays busy the commands are
        left waiting and a background thread tries again, after pauses that double up to
        :data:`MAX_RETRY_PAUSE`, while the player goes on (later commands join the queue at once). Another
        store error is raised. ``patient`` makes one more try that waits the full ``--wait``."""
        with self._writing:
            if not self.waiting:
                return True
            if self._busy and not patient:
                self._start_retrying()
                return False
            try:
                self._write_now(self.store.lock_timeout)
            except StoreBusy:
                self._busy = True
                self._start_retrying()
                return False
            self._busy = False
            return True

    def _write_now(self, wait: float) -> None:
        store = type(self.store)(self.store.path, lock_timeout=wait)
        while self.waiting:
            branch, expected, envelopes, _ = self.waiting[0]
            store.append(self.game_id, branch, envelopes, expected_seq=expected)
            self.waiting.pop(0)

    def _start_retrying(self) -> None:
        if self._retrying is None or not self._retrying.is_alive():
            self._retrying = threading.Thread(target=self._retry, name="aero-record-retry", daemon=True)
            self._retrying.start()

    def _retry(self) -> None:
        """The background tries: until nothing waits (or a store error the next command will report)."""
        pause = 0.5
        while True:
            time.sleep(pause)
            with self._writing:
                if not self.waiting or self._closed:
                    return
                try:
                    self._write_now(BUSY_ATTEMPT)
                except StoreBusy:
                    pause = min(pause * 2, MAX_RETRY_PAUSE)
                    continue
                except AeroError:
                    self._busy = False  # the next write meets it again and says so
                    return
                self._busy = False
                return

    def _finish_writing(self) -> None:
        """Wait until every waiting command is written (Ctrl-C gives up: KeyboardInterrupt)."""
        pause = 0.5
        while not self._write_waiting(patient=True):
            self.say(f"  database busy: {len(self.waiting)} command(s) waiting to be written; trying again in "
                     f"{pause:g} s (Ctrl-C gives up on them)")
            time.sleep(pause)
            pause = min(pause * 2, 5.0)

    def _say_waiting(self) -> None:
        if self.waiting:
            self._told_busy = True
            self.say(f"  database busy (another program holds {self.store.path}): {len(self.waiting)} command(s) "
                     "waiting to be written; they will be, in order, as soon as it is free")

    def _after_the_end(self) -> bool:
        """Once the game is over the last commands may still be taken back (True: play goes on)."""
        while True:
            answer = self.ask("undo [N] takes back the last commands, board / log / note TEXT; Enter to finish: ")
            words = answer.split()
            head = words[0].lower() if words else ""
            if head == "undo" and (len(words) == 1 or (len(words) == 2 and words[1].isdigit())):
                if self._undo(int(words[1]) if len(words) == 2 else 1):
                    return True
            elif head in ("board", "b"):
                self.say(self.guide.board(self.session.state))
            elif head == "log":
                self._log()
            elif head == "note":
                self._note(answer[len(words[0]):].strip())
            else:
                return False

    def step(self) -> None:
        """One decision: show it, read answers until one is recorded (or a meta-command is done)."""
        decision = self.decision()
        self.current_decision = decision
        shown = list(range(len(decision.options)))
        self._show(decision, shown)
        ask = self.ask_secret if decision.secret else self.ask
        while True:
            answer = ask("> " if not decision.secret else f"{decision.player}, type it unseen > ").strip()
            if self._told_busy and not self.waiting:
                self._told_busy = False
                self.say("  the database is free again: every waiting command is written")
            outcome = self._answer(answer, decision, shown)
            if outcome is True:
                return
            if isinstance(outcome, list):
                shown = outcome
                self._show(decision, shown)

    def decision(self) -> TableDecision:
        """The decision the game waits for (the ruleset's recorder guide says whose, and how it reads)."""
        state = self.session.state
        decision = self.guide.decision(state)
        if decision is None:
            turn, phase = self.session.ruleset.clock(state)
            raise AeroError(f"no player has a legal command at turn {turn}, {phase}: the game is stuck")
        if decision.announce is not None:
            key = (self.session.branch.id, decision.announce[0])
            if key not in self._announced:
                self._announced.add(key)
                self.say(decision.announce[1])
        if decision.secret:
            turn_key = (self.session.branch.id, self.session.ruleset.clock(state), decision.player)
            if self._secret_turn != turn_key:
                self._secret_turn = turn_key
                others = [p for p in self.session.ruleset.players(state) if p != decision.player]
                self.say(f"\n{decision.player}: your secret orders now; {', '.join(others) or 'everyone else'} "
                         "look away. What you type is not shown.")
        return decision

    # ---------------------------------------------------------------- showing choices

    def _text(self, command: Command) -> str:
        return self.notation.format(self.session.state, command)

    def _show(self, decision: TableDecision, shown: list[int]) -> None:
        self.say(f"\n{decision.title}")
        hint = self.guide.hints(self.session.state, decision)
        numbered = {index: key for key, index in decision.keys.items()}
        for position, index in enumerate(shown[:PAGE], start=1):
            command = decision.options[index]
            key = numbered.get(index, str(position))
            text, extra = self._text(command), hint(command)
            self.say(f"  {key:>3}. {text}   {extra}" if extra else f"  {key:>3}. {text}")
        if len(shown) > PAGE:
            self.say(f"  ... {len(shown) - PAGE} more: type words to narrow the list down, or type the step itself")

    # ---------------------------------------------------------------- answers

    def _answer(self, answer: str, decision: TableDecision, shown: list[int]) -> bool | list[int] | None:
        """True: a command was recorded (or the line of play changed); a list: show these options; None:
        ask again."""
        words = answer.split()
        head = words[0].lower() if words else ""
        if not answer:
            return list(range(len(decision.options)))
        if head in ("help", "?"):
            self.say(HELP)
            return None
        if head in ("quit", "q", "stop"):
            raise Stop
        if head in ("board", "b"):
            self.say(self.guide.board(self.session.state))
            return None
        if head == "log":
            self._log()
            return None
        if head == "note":
            self._note(answer[len(words[0]):].strip())
            return None
        if head == "undo" and (len(words) == 1 or (len(words) == 2 and words[1].isdigit())):
            return self._undo(int(words[1]) if len(words) == 2 else 1)
        if answer in decision.keys:
            return self._apply(decision.options[decision.keys[answer]], decision)
        if decision.keys and decision.unlisted is not None:
            unlisted = decision.unlisted(answer)
            if unlisted is not None:  # not among the choices: the rules say why
                return self._apply(unlisted, decision)
        if answer.isdigit() and not decision.keys:
            number = int(answer)
            if 1 <= number <= min(len(shown), PAGE):
                return self._apply(decision.options[shown[number - 1]], decision)
            self.say(f"  {number} is not in the list (1-{min(len(shown), PAGE)})")
            return None
        command, problem = self._read_step(answer, decision)
        if command is not None:
            return self._apply(command, decision)
        if decision.secret:  # never narrow by, nor repeat, what was typed unseen
            self.say("  that is not one of the choices (what you typed is not shown); an empty line lists them")
            return None
        narrowed = self._narrow(answer, decision)
        if narrowed:
            return narrowed
        self.say(f"  {problem}" if problem else f"  nothing matches {answer!r}; an empty line shows every choice")
        return None

    def _read_step(self, answer: str, decision: TableDecision) -> tuple[Command | None, str | None]:
        """The answer as one step of the notation, or why it is not one."""
        state = self.session.state
        try:
            tokens = tokenize(answer)
        except LexError as err:
            tokens, problem = [], err.message
        else:
            problem = None
        words = steps.step_words(tokens, 0)
        if words:
            try:
                step = self.notation.read(state, words, decision.subject)
            except NotationError as err:
                problem = err.message
            else:
                if step.end != len(tokens):
                    return None, (f"{tokens[step.end].raw!r}: one step at a time (and the dice when they are "
                                  "asked for)")
                if step.salts:
                    return None, "salts (~...) belong in records; at the table just type the order itself"
                return step.command, None
        try:  # the notation's own reading of a typed line (the default JSON notation's, say)
            return self.notation.parse(state, decision.player, answer), None
        except RuleError:
            # A command typed as the JSON the list shows, but not in the list: the rules decide it (as they do
            # a record's quoted step), so a refusal names the rule rather than "nothing matches".
            command, why = typed_json_command(self.session.ruleset, answer, decision.player)
            return command, why or problem

    def _narrow(self, answer: str, decision: TableDecision) -> list[int]:
        wanted = answer.lower().split()
        return [index for index, command in enumerate(decision.options)
                if all(word in self._text(command).lower() for word in wanted)]

    def _apply(self, command: Command, decision: TableDecision | None = None) -> bool | None:
        """Decide, apply, and append at once; a refused command records nothing."""
        session = self.session
        before = session.seq
        state_before = session.state
        self.dice.start_command(session.branch.id, before)
        try:
            envelopes = session.apply(command)
        except RuleError as err:
            self.say(f"  refused: {err}")
            return None
        except CommandCancelled as err:
            self.say(f"  {err}")
            return None
        self.waiting.append((session.branch.id, before, envelopes, self._text(command)
                             if not steps.is_secret_step(session.ruleset, command) else "a secret order"))
        try:
            self._write_waiting()
        except AeroError as err:
            self.waiting.clear()
            self.say(f"  NOT RECORDED: {err}. Reloading the game as stored.")
            self._reload()
            return True
        self.boundaries.append(Boundary(command, before + 1, session.seq))
        state = state_before
        for env in envelopes:
            line = steps.seen_line(session.ruleset, env.event, state)
            state = session.state_at(env.seq)
            if line:
                self.say(line)
        self.say(f"  recorded: {self._step_line(command, state_before, envelopes)}")
        self._say_waiting()
        return True

    def _step_line(self, command: Command, state: Any, envelopes: Sequence[Any]) -> str:
        """A step as the table may see it: in the notation with its dice and marks, or a secret order as
        its commitment (with the dice it set off)."""
        rules = self.session.ruleset
        notation = self.notation
        events = [env.event for env in envelopes]
        subject = notation.subject(command)
        if steps.has_secrets(events):  # the dice that drew a secret would tell it: only the open rolls
            rolls = steps.rolls_text(notation, [steps.Roll(e.purpose, e.sides, tuple(e.faces)) for e in events
                                                if type(e) is DiceRolled])
            hidden = sum(1 for e in events if isinstance(e, SecretEvent) and not is_core_event(e))
            if not steps.is_secret_step(rules, command):
                rolls.append(f"(+{hidden} kept face down)")
        else:
            rolls = steps.rolls_text(notation, steps.step_rolls(rules, state, command, envelopes))
        if steps.is_secret_step(rules, command):
            return " ".join([steps.secret_step_text(command, subject, events), *rolls])
        return " ".join([notation.format(state, command), *rolls, *notation.marks(events, subject)])

    def _reload(self) -> None:
        game = self.store.load_game(self.game_id)
        branch = self.session.branch.id
        salts = branch_salts(salt_seed(game.metadata), game.branches[branch])
        self.session = GameSession(game.ruleset, dice=self.dice, salts=salts, game=game, branch=branch)
        self.boundaries = recover_boundaries(self.session)

    def _log(self, count: int = 10) -> None:
        if not self.boundaries:
            self.say("  nothing recorded yet")
            return
        for boundary in self.boundaries[-count:]:
            state = self.session.state_at(boundary.first_seq - 1)
            envelopes = self.session.events(boundary.first_seq, boundary.last_seq)
            self.say(f"  {boundary.first_seq:>5}-{boundary.last_seq:<5} "
                     f"{self._step_line(boundary.command, state, envelopes)}")

    def _note(self, text: str) -> None:
        if not text:
            self.say("  note what? type: note TEXT")
            return
        note = Annotation(self.session.branch.id, self.session.seq, "note", text)
        if not self._write_waiting(patient=True):
            self.say("  not noted: the database is busy and the commands before the note wait to be written")
            return
        try:
            journal.add_annotation(self.store, self.game_id, note)
        except StoreBusy:
            self.say("  not noted: the database is busy; try again in a moment")
            return
        self.say(f"  noted after event {note.seq}: {text}")

    def _undo(self, count: int) -> bool | None:
        """Take back the last ``count`` commands: a new branch forks before them (see :mod:`.undo`)."""
        if not 1 <= count <= len(self.boundaries):
            self.say(f"  there are {len(self.boundaries)} command(s) to take back")
            return None
        if not self._write_waiting(patient=True):
            self.say(f"  the database is busy and {len(self.waiting)} command(s) wait to be written: undo once "
                     "they are")
            return None
        session = self.session
        at_seq = undo_point(self.boundaries, count)
        source = fork_source(session.branch, at_seq)
        name = next_undo_name(session.game)
        label = f"{name}: takes back {count} command(s) of {session.branch.id} after event {at_seq}"
        with self.store.connection() as conn, transaction(conn):
            fork_branch(conn, self.game_id, source.id, at_seq, name, label=label)
            journal.write_current_branch(conn, self.game_id, name)
        session.game.fork(source.id, at_seq, name).label = label
        taken = self.boundaries[-count:]
        for boundary in taken:
            state = session.state_at(boundary.first_seq - 1)
            events = [env.event for env in session.events(boundary.first_seq, boundary.last_seq)]
            if steps.is_secret_step(session.ruleset, boundary.command):
                text = steps.secret_step_text(boundary.command, self.notation.subject(boundary.command), events)
            else:
                text = self.notation.format(state, boundary.command)
            self.say(f"  taken back: {text}")
        del self.boundaries[-count:]
        salts = RecordSalts(salt_seed(session.game.metadata), name)
        self.session = GameSession(session.ruleset, dice=self.dice, salts=salts, game=session.game, branch=name)
        self.say(f"  {session.branch.id} keeps those commands (a variation now); the game goes on on branch "
                 f"{name}, the game's main line, after event {at_seq}.")
        return True
