"""The table recorder: a game played on a real table, entered as it happens, stored answer by answer.

It is independent of the terminal: it talks through ``ask(prompt) -> answer`` and ``say(line)``, so a
test scripts it and ``aero record`` (aero_events/cli/record_commands.py) wires it to standard input and
output.

At each decision point it says whose decision it is and offers the legal commands, numbered, in the move
notation (:mod:`.notation`), with a hint (the hex a manoeuvre ends in, the Speed a throttle gives). The
person answers with

* a number from the list (in the Choose Manoeuvres phase: the manoeuvre's own number),
* a step in the notation (``L1+2f1,0``, ``imperium-1 @9,15N S4 A3``, ``fire twin_lascannons>orks-1``):
  checked by the rules before anything is recorded, so a mistyped manoeuvre or an illegal path is refused
  with the rule and its page,
* words that narrow the list down (set-up placements run to thousands; an empty answer shows all again),
* ``board`` (the hexes and the aircraft, :mod:`.board_text`), ``log`` (the last steps), ``note TEXT`` (an
  annotation on the last step), ``undo`` / ``undo N`` (take back commands, :mod:`.undo`), ``help``,
  ``quit``.

The dice the rules need are asked for roll by roll, as rolled (:mod:`.table_dice`), or rolled on screen.

Every applied command's events are appended to the store at once, in one transaction, with the expected
sequence number: a crash loses at most the answer being typed, and ``aero record --resume GAME`` goes on
from there.

Secret choices: the Manoeuvre tokens (p.13) are placed face down at the table; once both players have
placed theirs, the recorder asks for each aircraft's token in turn and records it. At a table the tokens
keep the secret; the record only notes the choices (their salts derive from the game, :mod:`.salts`).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from aero_events.core import AeroError, Command, Game, GameSession, RuleError
from aero_events.rulesets.aeronautica import movement
from aero_events.rulesets.aeronautica.commands import (
    ActivateAircraft,
    AdjustAltitude,
    ChooseManoeuvre,
    ManoeuvrePlan,
    SetThrottle,
)
from aero_events.rulesets.aeronautica.narrate import describe
from aero_events.rulesets.aeronautica.state import (
    ALTITUDE,
    CHOOSE_MANOEUVRES,
    FIRING,
    GROUND,
    MANOEUVRE,
    MOVEMENT,
    SET_UP,
    TAILING_FIRE,
    THROTTLE,
)
from aero_events.store import EventStore
from aero_events.store.branches import fork_branch
from aero_events.store.database import transaction

from . import journal, notation
from .board_text import board_text
from .headers import salt_seed
from .lexer import LexError, tokenize
from .record_format import Annotation
from .salts import RecordSalts, own_secrets
from .table_dice import CommandCancelled, Stop, TableDice
from .undo import Boundary, fork_source, next_undo_name, recover_boundaries, undo_point

PAGE = 30
HELP = """Answer with a number from the list, a step in the notation, or words to narrow the list down.
  board        the hexes and every aircraft          log        the last steps recorded
  note TEXT    a note on the last step               undo [N]   take back the last N commands (default 1)
  help         this text                             quit       stop (everything is stored; --resume goes on)
  (empty)      show every choice again
At a dice prompt: the faces as rolled (5 2 6), r to roll them here, cancel to take the command back, quit."""


@dataclass
class Decision:
    """Whose choice it is, the legal commands offered, the subject a typed step defaults to, the keys
    that pick an option besides its number, and what to call the decision."""

    player: str
    options: Sequence[Command]
    subject: str | None
    title: str
    keys: dict[str, int] = field(default_factory=dict)


class TableRecorder:
    """Records one game (one branch at a time) into the store, command by command."""

    def __init__(self, store: EventStore, session: GameSession, *, ask: Callable[[str], str],
                 say: Callable[[str], None], dice: TableDice, boundaries: list[Boundary] | None = None):
        self.store = store
        self.session = session
        self.ask = ask
        self.say = say
        self.dice = dice
        self.boundaries = boundaries if boundaries is not None else recover_boundaries(session)
        self.current_decision: Decision | None = None
        self._announced_choose: tuple[str, int] | None = None

    # ---------------------------------------------------------------- starting

    @classmethod
    def new_game(cls, store: EventStore, rules: Any, setup: Any, *, game_id: str, metadata: dict[str, Any],
                 ask: Callable[[str], str], say: Callable[[str], None], digital: bool = False,
                 seed: int | str | None = None) -> TableRecorder:
        """Store a new game (no events yet) and a recorder for its main branch.

        The Manoeuvre tokens' salts derive from the game id (``metadata["salt_seed"]``); digital dice
        use ``seed`` (random if None), kept in the metadata.
        """
        metadata = dict(metadata)
        metadata.setdefault("salt_seed", game_id)
        metadata["dice"] = "digital" if digital else "manual"
        if digital:
            metadata["seed"] = seed if seed is not None else secrets.token_hex(4)
        dice = TableDice(ask, say, digital=digital,
                         seed=metadata.get("seed", seed if seed is not None else secrets.token_hex(4)))
        game = Game(rules, setup, game_id, metadata)
        session = GameSession(rules, dice=dice, salts=RecordSalts(str(metadata["salt_seed"]), "main"), game=game)
        store.create_game(game)
        journal.set_current_branch(store, game_id, "main")
        return cls(store, session, ask=ask, say=say, dice=dice, boundaries=[])

    @classmethod
    def resume(cls, store: EventStore, game_id: str, branch: str | None = None, *, ask: Callable[[str], str],
               say: Callable[[str], None], digital: bool = False, seed: int | str | None = None) -> TableRecorder:
        """A recorder going on with a stored game, on ``branch`` (default: the current one)."""
        game_id = store.resolve_game_id(game_id)
        branch = branch or journal.current_branch(store, game_id) or "main"
        game = store.load_game(game_id)
        if branch not in game.branches:
            raise AeroError(f"game {game_id} has no branch {branch!r}; its branches: {', '.join(game.branches)}")
        digital = digital or game.metadata.get("dice") == "digital"
        dice = TableDice(ask, say, digital=digital,
                         seed=seed if seed is not None else game.metadata.get("seed", secrets.token_hex(4)))
        salts = RecordSalts(salt_seed(game.metadata), branch, own_secrets(game.branches[branch]))
        session = GameSession(game.ruleset, dice=dice, salts=salts, game=game, branch=branch)
        journal.set_current_branch(store, game_id, branch)
        return cls(store, session, ask=ask, say=say, dice=dice)

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
                state = self.session.state
                self.say(f"\nThe game is over: {state.end_reason}; "
                         + (f"{state.winner} wins." if state.winner else "a draw."))
                if not self._after_the_end():
                    return 0
        except (Stop, EOFError, KeyboardInterrupt):
            self.say(f"\nStopped after event {self.session.seq} of branch {self.session.branch.id}. Everything "
                     f"answered is stored; go on with: aero record --resume {self.game_id}")
            return 0

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
                self.say(board_text(self.session.state, self.session.ruleset))
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
        while True:
            answer = self.ask("> ").strip()
            outcome = self._answer(answer, decision, shown)
            if outcome is True:
                return
            if isinstance(outcome, list):
                shown = outcome
                self._show(decision, shown)

    def decision(self) -> Decision:
        """The decision the game waits for: the first player (in the game's order) with legal commands.

        In the Choose Manoeuvres phase, one aircraft at a time: both players have placed their tokens
        face down at the table; the recorder notes each in turn.
        """
        state = self.session.state
        rules = self.session.ruleset
        for player in state.players:
            options = self.session.legal_commands(player)
            if not options:
                continue
            if state.phase == CHOOSE_MANOEUVRES:
                self._announce_choose(state)
                aircraft = options[0].aircraft
                mine = [c for c in options if c.aircraft == aircraft]
                return Decision(player, mine, aircraft, f"{aircraft} ({player}): which Manoeuvre token? (p.13)",
                                keys={str(c.manoeuvre): i for i, c in enumerate(mine)})
            return Decision(player, options, self._default_subject(state, player), self._title(state, player, rules))
        raise AeroError(f"no player has a legal command at turn {state.turn}, {state.phase}: the game is stuck")

    def _announce_choose(self, state: Any) -> None:
        key = (self.session.branch.id, state.turn)
        if self._announced_choose != key:
            self._announced_choose = key
            self.say(f"\nTurn {state.turn}: Choose Manoeuvres (p.13). Both players place their tokens face down; "
                     "once both have, enter them (the tokens keep the secret at the table).")

    @staticmethod
    def _default_subject(state: Any, player: str) -> str:
        if state.active is not None:
            return state.active
        if state.volley is not None:
            return state.volley.aircraft
        return player

    def _title(self, state: Any, player: str, rules: Any) -> str:
        turn = f"Turn {state.turn}"
        if state.phase == SET_UP:
            if state.rolled_off is None:
                return f"Set-up: roll off (p.34); {player} asks unless you type '{state.opponent(player)} rolloff'"
            first = self.session.legal_commands(player)[0]
            return (f"Set-up: {player} places an aircraft (p.34): type it like '{notation.step_text(first, state)}' "
                    "(hex q,r and facing, Speed, Altitude)")
        if state.phase == MOVEMENT:
            if state.first_mover is None:
                return f"{turn}: {player} won the initiative and chooses who moves first (p.14)"
            if state.active is None:
                return f"{turn}: {player} moves an aircraft (p.14)"
            aircraft = state.aircraft[state.active]
            profile = rules.profile(aircraft)
            if state.step == THROTTLE:
                return (f"{turn}: {aircraft.id} Throttle (p.15): Speed {aircraft.speed}, Throttle {profile.throttle}, "
                        f"Speed {profile.min_speed}-{profile.max_speed}")
            if state.step == MANOEUVRE:
                shown = aircraft.revealed
                name = rules.manoeuvres.get(shown).name if shown is not None and shown in rules.manoeuvres else "none"
                return f"{turn}: {aircraft.id} flies Ace Manoeuvre {shown} ({name}) at Speed {aircraft.speed} (p.16-17)"
            if state.step == ALTITUDE:
                return f"{turn}: {aircraft.id} climbs, holds or dives (p.18): Altitude {aircraft.altitude}"
            if state.step == GROUND:
                return f"{turn}: {aircraft.id} is landed: taxi or take off (p.19)"
        if state.phase in (FIRING, TAILING_FIRE):
            which = "Tailing Fire (p.13, p.23)" if state.phase == TAILING_FIRE else "Firing (p.20-21)"
            if state.volley is not None and state.volley.pending is not None:
                return f"{turn}: {player} keeps the roll or re-rolls it (p.37, p.45)"
            if state.return_fire is not None:
                return f"{turn}: {player}'s Tail Gunner may return fire (p.24)"
            return f"{turn}, {which}: {player} fires an aircraft, or passes"
        return f"{turn}, {state.phase.replace('_', ' ')}: {player} to choose"

    # ---------------------------------------------------------------- showing choices

    def _label(self, decision: Decision, index: int, hints: dict[Any, str]) -> str:
        command = decision.options[index]
        text = notation.step_text(command, self.session.state)
        hint = self._hint(command, hints)
        return f"{text}   {hint}" if hint else text

    def _hints(self, decision: Decision) -> dict[Any, str]:
        """Where each way of flying the manoeuvre ends (p.16-17), by plan."""
        state = self.session.state
        if state.phase != MOVEMENT or state.active is None or state.step != MANOEUVRE:
            return {}
        aircraft = state.aircraft[state.active]
        flights = movement.manoeuvre_flights(self.session.ruleset, aircraft)
        hints: dict[Any, str] = {}
        for flight in flights:
            end = flight.path[-1] if flight.path else aircraft.hex
            hints[(flight.side, tuple(flight.stage_hexes), tuple(flight.facings))] = \
                f"-> {notation.pose_text(end, flight.final_facing)}"
        if len(flights) == 1:
            hints[(None, (), ())] = next(iter(hints.values()))
        return hints

    def _hint(self, command: Command, hints: dict[Any, str]) -> str:
        state = self.session.state
        rules = self.session.ruleset
        match command:
            case ManoeuvrePlan(side=side, stage_hexes=stage_hexes, facings=facings):
                return hints.get((side, tuple(stage_hexes), tuple(facings)), "")
            case SetThrottle(aircraft=aircraft, change=change):
                return f"Speed {state.aircraft[aircraft].speed + change}"
            case AdjustAltitude(aircraft=aircraft, change=change):
                return f"Altitude {state.aircraft[aircraft].altitude + change}"
            case ChooseManoeuvre(manoeuvre=number) if number in rules.manoeuvres:
                return rules.manoeuvres.get(number).name
            case ActivateAircraft(aircraft=aircraft):
                a = state.aircraft[aircraft]
                return f"at {notation.pose_text(a.hex, a.facing)}, Speed {a.speed}, Altitude {a.altitude}"
        return ""

    def _show(self, decision: Decision, shown: list[int]) -> None:
        self.say(f"\n{decision.title}")
        hints = self._hints(decision)
        numbered = {index: key for key, index in decision.keys.items()}
        for position, index in enumerate(shown[:PAGE], start=1):
            key = numbered.get(index, str(position))
            self.say(f"  {key:>3}. {self._label(decision, index, hints)}")
        if len(shown) > PAGE:
            self.say(f"  ... {len(shown) - PAGE} more: type words to narrow the list down (e.g. a hex '9,15' or "
                     "a facing 'N'), or type the step itself")

    # ---------------------------------------------------------------- answers

    def _answer(self, answer: str, decision: Decision, shown: list[int]) -> bool | list[int] | None:
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
            self.say(board_text(self.session.state, self.session.ruleset))
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
            return self._apply(decision.options[decision.keys[answer]])
        if answer.isdigit() and decision.keys and decision.subject is not None:
            # A manoeuvre this aircraft cannot fly: the rules say why (Ace Manoeuvres, p.10).
            return self._apply(ChooseManoeuvre(player=decision.player, aircraft=decision.subject,
                                               manoeuvre=int(answer)))
        if answer.isdigit() and not decision.keys:
            number = int(answer)
            if 1 <= number <= min(len(shown), PAGE):
                return self._apply(decision.options[shown[number - 1]])
            self.say(f"  {number} is not in the list (1-{min(len(shown), PAGE)})")
            return None
        command, problem = self._read_step(answer, decision)
        if command is not None:
            return self._apply(command)
        narrowed = self._narrow(answer, decision)
        if narrowed:
            return narrowed
        self.say(f"  {problem}" if problem else f"  nothing matches {answer!r}; an empty line shows every choice")
        return None

    def _read_step(self, answer: str, decision: Decision) -> tuple[Command | None, str | None]:
        """The answer as one step of the notation, or why it is not one."""
        try:
            tokens = tokenize(answer)
        except LexError as err:
            return None, err.message
        if not tokens:
            return None, None
        try:
            step = notation.read_step(tokens, 0, self.session.state, decision.subject)
        except notation.NotationError as err:
            return None, err.message
        if step.end != len(tokens):
            return None, f"{tokens[step.end].raw!r}: one step at a time (and the dice when they are asked for)"
        if step.salts:
            return None, "salts (~...) belong in records; at the table just type the token, like M7"
        return step.command, None

    def _narrow(self, answer: str, decision: Decision) -> list[int]:
        wanted = answer.lower().split()
        state = self.session.state
        return [index for index, command in enumerate(decision.options)
                if all(word in notation.step_text(command, state).lower() for word in wanted)]

    def _apply(self, command: Command) -> bool | None:
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
        try:
            self.store.append(self.game_id, session.branch.id, envelopes, expected_seq=before)
        except AeroError as err:
            self.say(f"  NOT RECORDED: {err}. Reloading the game as stored.")
            self._reload()
            return True
        self.boundaries.append(Boundary(command, before + 1, session.seq))
        for env in envelopes:
            line = describe(env.event)
            if line and env.type != "DiceRolled":
                self.say(line)
        self.say(f"  recorded: {self._step_line(command, state_before, envelopes)}")
        return True

    def _step_line(self, command: Command, state: Any, envelopes: Sequence[Any]) -> str:
        words = [notation.step_text(command, state)]
        words += [notation.dice_text(env.event) for env in envelopes if env.type == "DiceRolled" and env.event.count]
        words += notation.result_marks([env.event for env in envelopes], notation.command_subject(command))
        return " ".join(words)

    def _reload(self) -> None:
        game = self.store.load_game(self.game_id)
        branch = self.session.branch.id
        salts = RecordSalts(salt_seed(game.metadata), branch, own_secrets(game.branches[branch]))
        self.session = GameSession(game.ruleset, dice=self.dice, salts=salts, game=game, branch=branch)
        self.boundaries = recover_boundaries(self.session)

    def _log(self, count: int = 10) -> None:
        if not self.boundaries:
            self.say("  nothing recorded yet")
            return
        for boundary in self.boundaries[-count:]:
            state = self.session.state_at(boundary.first_seq - 1)
            envelopes = self.session.events(boundary.first_seq, boundary.last_seq)
            self.say(f"  {boundary.first_seq:>5}-{boundary.last_seq:<5} {self._step_line(boundary.command, state, envelopes)}")

    def _note(self, text: str) -> None:
        if not text:
            self.say("  note what? type: note TEXT")
            return
        note = Annotation(self.session.branch.id, self.session.seq, "note", text)
        journal.add_annotation(self.store, self.game_id, note)
        self.say(f"  noted after event {note.seq}: {text}")

    def _undo(self, count: int) -> bool | None:
        """Take back the last ``count`` commands: a new branch forks before them (see :mod:`.undo`)."""
        if not 1 <= count <= len(self.boundaries):
            self.say(f"  there are {len(self.boundaries)} command(s) to take back")
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
            self.say(f"  taken back: {notation.step_text(boundary.command, state)}")
        del self.boundaries[-count:]
        salts = RecordSalts(salt_seed(session.game.metadata), name)
        self.session = GameSession(session.ruleset, dice=self.dice, salts=salts, game=session.game, branch=name)
        self.say(f"  {session.branch.id} keeps those commands (abandoned); the game goes on on branch {name}, "
                 f"after event {at_seq}.")
        return True
