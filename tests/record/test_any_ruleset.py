"""The record format and the table recorder for rulesets other than Aeronautica: the test-only Pawns
(tests/support/plugin_ruleset.py, its own notation), Bidding (no notation: the core's JSON) and Sealed
Orders (simultaneous secret orders and damage tokens drawn face down). A game round-trips through its
record event for event; a secret order typed at the recorder is read unseen and never shown."""

from __future__ import annotations

import re

import pytest

from aero_events.bots import RandomBot, play
from aero_events.core import GameSession, SeededDice, encode_event
from aero_events.core.registry import register_ruleset
from aero_events.core.secrets import REPRODUCIBLE_SALTS
from aero_events.core.session import SecretCommandIssued
from aero_events.record import journal
from aero_events.record.errors import RecordError
from aero_events.record.record_format import read_record, write_record
from aero_events.record.recorder import TableRecorder
from aero_events.record.transfer import import_record, record_text
from aero_events.store import EventStore
from tests.support import bidding, sealed_orders
from tests.support.plugin_ruleset import NAME as PAWNS
from tests.support.plugin_ruleset import CentreBot, PawnRules, PawnSetup

register_ruleset(bidding.BiddingRules.name, bidding.BiddingRules)
register_ruleset(sealed_orders.SealedOrdersRules.name, sealed_orders.SealedOrdersRules)


def _same_events(game, copy) -> None:
    assert set(copy.branches) == set(game.branches)
    for name, branch in game.branches.items():
        other = copy.branches[name]
        assert (other.parent.id if other.parent else None, other.fork_seq) == \
            (branch.parent.id if branch.parent else None, branch.fork_seq)
        assert [encode_event(e.event) for e in other.envelopes()] == [encode_event(e.event) for e in branch.envelopes()]
        assert [e.actor for e in other.envelopes()] == [e.actor for e in branch.envelopes()]


def _pawns_game():
    """A seeded Pawns game with a what-if branch played with salts the record cannot derive."""
    session = GameSession(PawnRules(), PawnSetup(), dice=SeededDice(3), metadata={"seed": 3, REPRODUCIBLE_SALTS: True}, game_id="pawns-1")
    play(session, {"red": CentreBot(1), "blue": RandomBot(2)})
    fork = session.fork(8, "what-if")  # after red's first move (events 6-8)
    play(fork, {"red": RandomBot(5), "blue": RandomBot(6)})
    return session.game


def test_a_game_of_a_plugin_ruleset_round_trips_through_its_record_in_its_own_notation():
    game = _pawns_game()
    text = write_record(game)
    assert f'[Ruleset "{PAWNS}"]' in text and '[Setup "{\\"width\\":600,\\"height\\":400,\\"turns\\":3}"]' in text
    assert '[Result "red"]' in text or '[Result "blue"]' in text or '[Result "draw"]' in text
    assert re.search(r'\n1\. red "order advance"\n   blue "order (advance|hold)"\n   red "red-\d [NESW]+" '
                     r'\[move d8:\d\]\n  \(what-if:\n', text)
    # the what-if branch's salts are not the record's to derive: each secret order carries its two (the
    # recorded command's, then the sealed order's)
    assert re.search(r'red "order (advance|hold)" ~[0-9a-f]{32} ~[0-9a-f]{32}\n', text)
    replayed = read_record(text).game
    _same_events(game, replayed)
    assert write_record(replayed) == text


def test_a_ruleset_without_a_notation_is_recorded_as_the_json_of_its_commands():
    session = GameSession(bidding.BiddingRules(), None, dice=SeededDice(9), metadata={"seed": 9, REPRODUCIBLE_SALTS: True}, game_id="bids")
    bidding.play_scripted_game(session, reroll_turns=(1,))
    text = write_record(session.game)
    assert '[Ruleset "test/bidding"]' in text and '[Setup "null"]' in text
    assert '\n1. alice "{\\"command\\":\\"Bid\\",\\"amount\\":2,\\"player\\":\\"alice\\"}"\n' in text
    assert '[bid-roll ' in text  # the default dice label: the purpose, slugged
    _same_events(session.game, read_record(text).game)


def test_a_record_step_of_the_json_notation_that_the_rules_refuse_is_refused_at_its_line():
    session = GameSession(bidding.BiddingRules(), None, dice=SeededDice(9), metadata={"seed": 9, REPRODUCIBLE_SALTS: True}, game_id="bids")
    bidding.play_scripted_game(session)
    text = write_record(session.game)
    bad = text.replace('\\"amount\\":2,', '\\"amount\\":7,', 1)
    where = bad.index('"{\\"command\\":\\"Bid\\",\\"amount\\":7,')
    line, column = bad[:where].count("\n") + 1, where - bad.rfind("\n", 0, where)
    with pytest.raises(RecordError, match="a bid is 1 to 3, not 7") as caught:
        read_record(bad, "bad.aero")
    assert (caught.value.line, caught.value.column) == (line, column)  # at the step's text


# ---------------------------------------------------------------- the recorder


class Table:
    """Answers the recorder for a test ruleset: ``orders`` for each secret prompt (typed unseen), the first
    choice otherwise, ``faces`` at dice prompts and ``names`` at draw prompts; keeps what was asked openly,
    what unseen, and every line said."""

    def __init__(self, orders, faces=(3, 5, 2, 6, 1, 4), names=(), extra=None, choices=(), notes=()):
        self.orders = list(orders)
        self.notes = [f"note {note}" for note in notes]
        self.choices = list(choices)
        self.faces = list(faces)
        self.names = list(names)
        self.extra = extra or {}
        self.open_prompts: list[tuple[str, str]] = []
        self.secret_prompts: list[tuple[str, str]] = []
        self.said: list[str] = []
        self.answers: list[str] = []  # every answer, open or unseen, in order
        self.recorder: TableRecorder | None = None

    def say(self, line: str) -> None:
        self.said.append(line)

    def ask(self, prompt: str) -> str:
        answer = self._answer(prompt, secret=False)
        self.open_prompts.append((prompt, answer))
        self.answers.append(answer)
        return answer

    def ask_secret(self, prompt: str) -> str:
        answer = self._answer(prompt, secret=True)
        self.secret_prompts.append((prompt, answer))
        self.answers.append(answer)
        return answer

    def _answer(self, prompt: str, secret: bool) -> str:
        count = len(self.open_prompts) + len(self.secret_prompts)
        if count in self.extra:
            return self.extra[count]
        if self.recorder.session.is_over():
            return ""
        if " rolls " in prompt:
            face = self.faces.pop(0)
            self.faces.append(face)
            return str(face)
        if " draws " in prompt:
            return self.names.pop(0)
        if secret:
            return self.orders.pop(0)
        if prompt == "> " and self.notes:  # at the first open decisions
            return self.notes.pop(0)
        return self.choices.pop(0) if self.choices else "1"


def _record(store, rules, setup, table, game_id="table-game"):
    recorder = TableRecorder.new_game(store, rules, setup, game_id=game_id, metadata={}, ask=table.ask,
                                      say=table.say, ask_secret=table.ask_secret)
    table.recorder = recorder
    assert recorder.run() == 0
    return recorder


def test_a_secret_order_typed_at_the_recorder_is_read_unseen_and_never_shown_to_the_other_player(tmp_path):
    store = EventStore(tmp_path / "pawns.duckdb")
    secret_orders = ["order advance", "order hold"] * 3
    table = Table(secret_orders, extra={})
    recorder = _record(store, PawnRules(), PawnSetup(), table)
    # every order was typed through ask_secret, and nothing else was
    assert [answer for _, answer in table.secret_prompts] == ["order advance", "order hold"] * 3
    assert all("type it unseen" in prompt for prompt, _ in table.secret_prompts)
    assert not any("order" in answer for _, answer in table.open_prompts)
    # what the screen shows of an order before the reveal: who gave one and its commitment, never the order
    first_reveal = next(i for i, line in enumerate(table.said) if line.startswith("orders revealed: "))
    before = [line for line in table.said[:first_reveal] if not re.match(r"^ +\d+\. order (advance|hold)$", line)]
    assert "  recorded: red: an order given face down (commitment " in "\n".join(before)
    assert "\nred: your secret orders now; blue look away. What you type is not shown." in before
    assert not any("advance" in line or "hold" in line for line in before), before
    assert any(line.startswith("  recorded: blue: an order given face down (commitment ") for line in table.said)
    # the other player's view of the log shows the recorded order as a commitment only
    session = recorder.session
    red_order = next(env for env in session.events() if isinstance(env.event, SecretCommandIssued)
                     and env.event.owner == "red")
    seen_by_blue = next(env for env in session.events_for("blue") if env.seq == red_order.seq)
    assert seen_by_blue.event.type_name() == "Redacted" and seen_by_blue.event.commitment == \
        red_order.event.commitment and "command" not in seen_by_blue.event.public
    assert session.events_for("red")[red_order.seq - 1].event == red_order.event
    # the log the recorder shows hides the orders too
    log_table = Table([], extra={0: "log", 1: "quit"})
    log_table.recorder = TableRecorder.resume(store, "table-game", ask=log_table.ask, say=log_table.say,
                                              ask_secret=log_table.ask_secret)
    log_table.recorder.run()
    shown = [line for line in log_table.said if "order" in line]
    assert shown and all("an order given face down (commitment" in line for line in shown)
    # and the stored game is whole: its record round-trips
    _same_events(store.load_game("table-game"), read_record(record_text(store, "table-game")).game)


def test_an_order_typed_at_a_terminal_goes_through_getpass_and_is_not_echoed(monkeypatch, capsys):
    from aero_events.cli import record_commands

    asked = []
    monkeypatch.setattr("sys.stdin.isatty", lambda: True, raising=False)
    monkeypatch.setattr(record_commands.getpass, "getpass", lambda prompt: asked.append(prompt) or "order hold")
    assert record_commands.read_secret_line("red, type it unseen > ") == "order hold"
    assert asked == ["red, type it unseen > "]
    assert "order hold" not in capsys.readouterr().out


def test_damage_tokens_drawn_at_the_table_are_typed_by_name_unseen_and_checked_against_the_pool(tmp_path):
    """Sealed Orders: both attack; bob takes alice's attack (two tokens), alice braces against bob's (one);
    each names the tokens drawn, unseen; a name that is not in the pool is refused and asked again."""
    store = EventStore(tmp_path / "sealed.duckdb")
    rules = sealed_orders.SealedOrdersRules()
    setup = sealed_orders.SealedSetup(turns=1)
    # orders: attack, attack (typed unseen); then reveal, alice attacks, bob takes it, bob attacks, alice braces
    table = Table(["1", "1"], names=["hit-1 hit-9", "hit-1 hit-2", "hit-0"], choices=["1", "1", "2", "1", "1"])
    recorder = _record(store, rules, setup, table)
    draws = [(prompt, answer) for prompt, answer in table.secret_prompts if " draws " in prompt]
    assert [answer for _, answer in draws] == ["hit-1 hit-9", "hit-1 hit-2", "hit-0"]
    assert "draws 2 from damage for damage from alice" in draws[0][0]
    said = "\n".join(table.said)
    assert "refused: damage from alice: 'hit-9' is not in pool 'damage'" in said
    shown = [line for line in table.said if not line.startswith("  refused: ")]  # a refusal names the pool's kinds
    assert not any("hit-" in line for line in shown), [line for line in shown if "hit-" in line]
    assert "kept face down" in said  # the draws are said to be made, face down
    state = recorder.session.state
    assert state.damage == {"bob": ("hit-1", "hit-2"), "alice": ("hit-0",)}
    # the record writes each draw as the dice that picked the items, and replays them to the same events
    text = record_text(store, "table-game")
    # hit-1 is 2nd of hit-0, 3 hit-1, 2 hit-2 (a D6); hit-2 then 4th of five (a D5); hit-0 1st of four (a D4)
    assert '"take\\",\\"player\\":\\"bob\\"}" [damage-from-alice 2] [damage-from-alice d5:4]\n' in text
    assert '"brace\\",\\"player\\":\\"alice\\"}" [damage-from-bob d4:1]\n' in text
    _same_events(store.load_game("table-game"), read_record(text).game)


def test_a_plugin_rulesets_table_game_is_exported_and_imported_whole(tmp_path):
    store = EventStore(tmp_path / "pawns.duckdb")
    table = Table(["order advance", "order advance"] * 3, notes=["a long way"])
    _record(store, PawnRules(), PawnSetup(turns=3), table, game_id="pawns-table")
    path = tmp_path / "pawns-table.aero"
    path.write_text(record_text(store, "pawns-table"))
    other = EventStore(tmp_path / "other.duckdb")
    assert import_record(other, path) == "pawns-table"
    assert other.state_hash("pawns-table") == store.state_hash("pawns-table") and other.verify("pawns-table").ok
    assert [note.text for note in journal.annotations(store, "pawns-table")] == ["a long way"]
    assert journal.annotations(other, "pawns-table") == journal.annotations(store, "pawns-table")
    assert "{[%note a long way]}" in path.read_text()


def test_aero_record_records_a_plugin_rulesets_game_typed_on_standard_input(tmp_path, monkeypatch, capsys):
    """``aero record --ruleset pawns``: the setup is the ruleset's only scenario, the orders are read like
    any answer from a pipe (no terminal echoes them), and the game stored is the one recorded directly."""
    import io

    from aero_events.cli import main

    reference = EventStore(tmp_path / "reference.duckdb")
    table = Table(["order advance", "order hold"] * 3)
    _record(reference, PawnRules(), PawnSetup(), table, game_id="typed")
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{answer}\n" for answer in table.answers)))
    db = tmp_path / "cli.duckdb"
    assert main(["record", "--ruleset", "pawns", "--db", str(db), "--game", "typed"]) == 0
    out = capsys.readouterr().out
    assert "Turn 1, orders: red gives a secret order" in out and "The game is over: after turn 3" in out
    store = EventStore(db)
    assert store.load_game("typed").setup == PawnSetup()
    assert store.state_hash("typed") == reference.state_hash("typed") and store.verify("typed").ok
