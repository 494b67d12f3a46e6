"""A scripted table for the recorder's tests: two small forces, set-up positions facing each other, and a
player that answers every question the recorder asks (choices in the notation, dice as rolled)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from aero_events.hexgrid import Hex
from aero_events.record.recorder import TableRecorder
from aero_events.rulesets.aeronautica import AeronauticaRules, notation
from aero_events.rulesets.aeronautica.commands import (
    AcceptRoll,
    AdjustAltitude,
    FireWeapons,
    PlaceAircraft,
    RollOff,
    SetThrottle,
)
from aero_events.rulesets.aeronautica.forces import AircraftEntry, ForceList, encode_force
from aero_events.rulesets.aeronautica.scenarios.dogfight import dogfight_setup
from aero_events.rulesets.aeronautica.state import CHOOSE_MANOEUVRES, FIRING, SET_UP, TAILING_FIRE
from aero_events.store import EventStore

PLAYERS = ("imperium", "orks")
POINTS = 25
BOARD = "3x3"
GAME_ID = "table-test"

#: Where each aircraft is set up (p.34): in the middle of its edge's zone, nose towards the enemy.
PLACEMENTS = {"imperium-1": (Hex(9, 11), 0, 4, 3), "orks-1": (Hex(10, -3), 3, 5, 3)}
#: Faces the dice show, in turn (no two neighbours equal, so roll-offs end at once).
FACES = (5, 3, 6, 2, 4, 1, 6, 5, 2, 3, 1, 4)

_DICE_PROMPT = re.compile(r"rolls (a|\d+) D(\d+) for")


def forces() -> tuple[ForceList, ForceList]:
    """A Thunderbolt (21 points, p.38) against a Dakkajet with Rokkits (20 points, p.45)."""
    imperium = ForceList(name="Lone Wolf", faction="imperial_navy", aircraft=(AircraftEntry(aircraft="thunderbolt"),))
    orks = ForceList(name="Da Kult", faction="ork_air_waaagh",
                     aircraft=(AircraftEntry(aircraft="dakkajet", weapons=("rokkits", "rokkits")),))
    return imperium, orks


def write_force_files(folder: Path) -> tuple[Path, Path]:
    paths = []
    for player, force in zip(PLAYERS, forces(), strict=True):
        path = folder / f"{player}.json"
        path.write_bytes(encode_force(force))
        paths.append(path)
    return paths[0], paths[1]


def cli_arguments(db: Path, folder: Path) -> list[str]:
    first, second = write_force_files(folder)
    return ["record", "--db", str(db), "--forces", str(first), str(second), "--players", *PLAYERS,
            "--points", str(POINTS), "--board", BOARD, "--game", GAME_ID]


def new_setup(rules: AeronauticaRules):
    imperium, orks = forces()
    return dogfight_setup((PLAYERS[0], imperium), (PLAYERS[1], orks), POINTS, board=BOARD, catalogue=rules.catalogue)


class ScriptedTable:
    """Answers the recorder: each decision in the notation, each roll from :data:`FACES`.

    ``prompts`` and ``answers`` keep every question and answer, ``seqs`` the session's last event when each
    was asked and (with ``watch_store``) ``heads`` the store's, so a test can replay the answers or kill a
    process after any of them. ``before_answer(n, prompt, recorder)`` may give an answer of its own (a board request,
    an undo, a wrong die) to the n-th question.
    """

    def __init__(self, store: EventStore, before_answer: Callable[[int, str, TableRecorder], str | None] | None = None,
                 watch_store: bool = False):
        self.store = store
        self.recorder: TableRecorder | None = None
        self.prompts: list[str] = []
        self.answers: list[str] = []
        self.seqs: list[int] = []
        self.heads: list[int] = []
        self.said: list[str] = []
        self.secret: list[int] = []  # which answers were asked for unseen (ask_secret)
        self.before_answer = before_answer
        self.watch_store = watch_store
        self._faces = 0

    def say(self, line: str) -> None:
        self.said.append(line)

    def ask(self, prompt: str) -> str:
        assert self.recorder is not None
        session = self.recorder.session
        self.prompts.append(prompt)
        self.seqs.append(session.seq)
        if self.watch_store:
            self.heads.append(self.store.head(session.game_id, session.branch.id))
        special = self.before_answer(len(self.answers), prompt, self.recorder) if self.before_answer else None
        answer = special if special is not None else self._answer(prompt)
        self.answers.append(answer)
        return answer

    def ask_secret(self, prompt: str) -> str:
        """A question whose answer the recorder reads unseen (a secret order): answered like any other."""
        self.secret.append(len(self.answers))
        return self.ask(prompt)

    def _answer(self, prompt: str) -> str:
        assert self.recorder is not None
        if self.recorder.session.is_over():
            return ""  # finish
        dice = _DICE_PROMPT.search(prompt)
        if dice:
            count = 1 if dice[1] == "a" else int(dice[1])
            faces = [FACES[(self._faces + i) % len(FACES)] for i in range(count)]
            self._faces += count
            return " ".join(map(str, faces))
        assert self.recorder is not None and self.recorder.current_decision is not None
        state = self.recorder.session.state
        decision = self.recorder.current_decision
        options = list(decision.options[:2000])
        player = decision.player
        if state.phase == SET_UP and state.rolled_off is None:
            return notation.step_text(RollOff(player=player), state)
        if state.phase == SET_UP:
            aircraft = next(a for a in state.side(player) if a.status == "undeployed")
            hex, facing, speed, altitude = PLACEMENTS[aircraft.id]
            return notation.step_text(PlaceAircraft(player=player, aircraft=aircraft.id, hex=hex, facing=facing,
                                                    speed=speed, altitude=altitude), state)
        if state.phase == CHOOSE_MANOEUVRES:
            return next(iter(decision.keys))  # the first manoeuvre's own number
        preferred = [c for c in options if isinstance(c, SetThrottle) and c.change == 0] \
            + [c for c in options if isinstance(c, AdjustAltitude) and c.change == 0] \
            + [c for c in options if isinstance(c, AcceptRoll)]
        if state.phase in (FIRING, TAILING_FIRE):
            preferred += [c for c in options if isinstance(c, FireWeapons) and c.shots]
        chosen = preferred[0] if preferred else options[0]
        return notation.step_text(chosen, state)


def is_dice_prompt(prompt: str) -> bool:
    return bool(_DICE_PROMPT.search(prompt))


def record_scripted_game(store: EventStore, before_answer: Callable[[int, str, TableRecorder], str | None] | None = None,
                         game_id: str = GAME_ID, watch_store: bool = False, digital: bool = False,
                         seed: int | None = None) -> ScriptedTable:
    """A whole game recorded through the recorder's ask/say, as the CLI would set it up."""
    rules = AeronauticaRules()
    table = ScriptedTable(store, before_answer, watch_store)
    recorder = TableRecorder.new_game(store, rules, new_setup(rules), game_id=game_id,
                                      metadata={"recorder": "aero record"}, ask=table.ask, say=table.say,
                                      digital=digital, seed=seed, ask_secret=table.ask_secret)
    table.recorder = recorder
    assert recorder.run() == 0
    return table
