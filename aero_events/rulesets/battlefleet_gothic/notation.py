"""Battlefleet Gothic commands as people write them (``aero record``, the ``.aero`` record format).

One command a line, words separated by spaces; ships, ordnance markers and weapons by the ids the set-up and
the narration give them; distances and positions in centimetres (``12.5cm``, the ``cm`` may be left off),
angles in degrees, turns to ``port`` or ``starboard``::

    roll off                                        Leadership and the first turn (p.10, p.13)
    go first / go second                            the winner of the roll-off chooses (p.13)
    imperial-1 orders all ahead full                a special order's Command check (p.11)
    imperial-1 moves 10cm turns 45 starboard 5cm    Movement (p.15-17): straight, turn, straight ...
        ... screened by wave-4                      fighters in base contact moving with it (p.29)
    imperial-1 fires port_battery and port_lance at chaos-2
        ... port_battery 4 and port_lance 1 ...     split fire: how much of each weapon (p.21)
        ... with imperial-2 port_battery            a squadron mate's battery joins in (p.20)
    imperial-1 fires nova cannon at 90,60           the template's centre (p.21)
    end shooting                                    every ship has fired that will (p.18)
    imperial-1 launches torpedoes from prow_torpedoes heading 135
        ... boarding torpedoes ... ignoring hulks   boarding torpedoes (p.28)
    imperial-1 launches 2 fighters and 2 bombers    a wave from the launch bays (p.29; "and 1 assault boat", p.30)
    wave-4 moves via 80,40 to 100,50                attack craft turn freely (p.29)
        ... with 2 fighters                         the squadrons that go when the wave splits (p.30)
    torpedoes-7 steers 30 port ignoring hulks       a boarding salvo's turn (p.28)
    recall wave-4                                   free the fleet ordnance limit (p.27)
    chaos-2 braces / chaos-2 braces and fires turrets / chaos-2 fires turrets / chaos-2 does not brace
                                                    a reaction to an attack: Brace for Impact (p.23), turrets (p.29)
    chaos-2 braces for impact                       bracing in one's own turn (p.12, ``brace_timing="any_time"``)
    remove blast markers 3 4 9 / remove no blast markers   Blast Marker Removal (p.31)
    surrender                                       Ending the Battle (p.13)

Reading is by shape only: whether the command is legal is for the rules to say when it is applied. Lengths are
exact to 1/100 mm and angles to 1/100 degree (the engine's units), so every value a command holds is written
exactly and reads back the same. A command the words cannot say (split fire whose amounts do not match its
weapons, a move whose turns do not sit between its legs) is written as its JSON, which is read back too.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from decimal import Decimal, InvalidOperation
from typing import Any, Union

import msgspec

from aero_events.core import AeroError, RuleError
from aero_events.core.interface import Notation, NotationError, NotationStep

from . import commands as cmd
from .data import CM, DEGREE

COMMANDS = (cmd.RollOff, cmd.ChooseTurnOrder, cmd.GiveOrder, cmd.MoveShip, cmd.FireWeapons, cmd.FireNovaCannon,
            cmd.LaunchTorpedoes, cmd.LaunchAttackCraft, cmd.MoveAttackCraft, cmd.EndShooting, cmd.React,
            cmd.RemoveBlastMarkers, cmd.Surrender, cmd.BraceForImpact, cmd.RecallAttackCraft, cmd.SteerTorpedoes)
_decoder = msgspec.json.Decoder(Union[COMMANDS])  # noqa: UP007

_GRAMMAR = ("roll off", "go first|second", "<ship> orders <special order>",
            "<ship> moves <cm> [turns <degrees> port|starboard [<cm>]]... [screened by <wave> [and <wave>]...]",
            ("<ship> fires <weapon> [<amount>] [and <weapon> [<amount>]]... at <ship> "
             "[with <ship> <battery> [and <ship> <battery>]...]"),
            "<ship> fires nova cannon at <x>,<y>", "end shooting",
            "<ship> launches [<kind>] torpedoes from <weapon> heading <degrees> [ignoring hulks]",
            "<ship> launches <n> fighters and <n> bombers [and <n> assault boats]",
            "<wave> moves [via <x>,<y> [and <x>,<y>]...] to <x>,<y> [with <n> fighters|bombers|assault boats ...]",
            "<salvo> steers <degrees> port|starboard [ignoring hulks]", "recall <wave>",
            "<ship> braces [and fires turrets] | fires turrets | does not brace", "<ship> braces for impact",
            "remove blast markers <n>... | remove no blast markers", "surrender")
_UNITS = "distances and positions in cm (to 0.001), angles in degrees (to 0.01), turns to port or starboard"
_CRAFT = {"fighter": "fighters", "fighters": "fighters", "bomber": "bombers", "bombers": "bombers"}
_NUMBER = re.compile(r"-?(\d+(\.\d*)?|\.\d+)")


def _fail(message: str) -> RuleError:
    return RuleError(message, rule="Notation")


def _decimal(units: int, per: int) -> str:
    """``units`` of the engine as the exact decimal a player writes (13370 at 1000 a cm: ``13.37``)."""
    return format((Decimal(units) / per).normalize(), "f")


def _cm(units: int) -> str:
    return _decimal(units, CM) + "cm"


def _point(x: int, y: int) -> str:
    return f"{_decimal(x, CM)},{_decimal(y, CM)}"


def _turn(angle: int) -> str:
    if angle == 0:
        return "0"
    return f"{_decimal(abs(angle), DEGREE)} {'starboard' if angle > 0 else 'port'}"


def _craft(count: int, kind: str) -> str:
    singular = {"fighters": "fighter", "bombers": "bomber", "assault_boats": "assault boat"}[kind]
    return f"{count} {singular if count == 1 else singular + 's'}"


def _units(word: str, per: int, what: str) -> int:
    """The engine's units in ``word`` (a decimal number of cm or degrees); exact, or a RuleError naming it."""
    if not _NUMBER.fullmatch(word):
        raise _fail(f"{what} is a number ({_UNITS}), not {word!r}")
    try:
        value = Decimal(word) * per
    except InvalidOperation:
        raise _fail(f"{what} is a number ({_UNITS}), not {word!r}") from None
    if value != value.to_integral_value():
        raise _fail(f"{word!r} is finer than the table is measured ({_UNITS})")
    return int(value)


def _whole(word: str, what: str) -> int:
    if not word.isdigit():
        raise _fail(f"{what} is a whole number, not {word!r}")
    return int(word)


class _Words:
    """The words of one command after its subject and verb, read left to right; each reader names the word it
    cannot read."""

    def __init__(self, words: list[str], text: str, verb: str):
        self.words, self.at, self.text = words, 0, text.strip()
        self.shape = "it is written " + " or ".join(f"'{shape}'" for shape in _GRAMMAR if f" {verb} " in f" {shape} ")

    def peek(self, ahead: int = 0) -> str | None:
        index = self.at + ahead
        return self.words[index] if index < len(self.words) else None

    def take(self, what: str) -> str:
        word = self.peek()
        if word is None:
            raise _fail(f"{self.text!r} ends where {what} should follow; " + self.shape)
        self.at += 1
        return word

    def expect(self, *wanted: str) -> None:
        for word in wanted:
            if self.peek() != word:
                found = f"{self.peek()!r}" if self.peek() is not None else "the end"
                raise _fail(f"{self.text!r}: {word!r} was expected, not {found}; " + self.shape)
            self.at += 1

    def accept(self, *wanted: str) -> bool:
        """Whether the next words are ``wanted`` (taken if so)."""
        if self.words[self.at:self.at + len(wanted)] == list(wanted):
            self.at += len(wanted)
            return True
        return False

    def length(self, what: str) -> int:
        word = self.take(what)
        value = _units(word.removesuffix("cm") or word, CM, what)
        self.accept("cm")
        return value

    def is_length(self) -> bool:
        word = self.peek()
        return word is not None and bool(_NUMBER.fullmatch(word.removesuffix("cm")))

    def turn(self, what: str) -> int:
        angle = _units(self.take(what), DEGREE, what)
        if self.accept("starboard"):
            return angle
        if self.accept("port"):
            return -angle
        if angle == 0:
            return 0
        found = f"{self.peek()!r}" if self.peek() is not None else "the end"
        raise _fail(f"{self.text!r}: a turn of {_decimal(angle, DEGREE)} degrees is to port or starboard, not {found}")

    def point(self, what: str) -> tuple[int, int]:
        word = self.take(what)
        x, comma, y = word.partition(",")
        if not comma:
            raise _fail(f"{what} is written <x>,<y> in cm from the table's corner, not {word!r}")
        return _units(x, CM, what), _units(y, CM, what)

    def listed(self, read: Callable[[], Any]) -> list[Any]:
        """One or more of what ``read`` reads, joined by ``and``."""
        items = [read()]
        while self.accept("and"):
            items.append(read())
        return items

    def done(self) -> None:
        if self.peek() is not None:
            rest = " ".join(self.words[self.at:])
            raise _fail(f"cannot read {rest!r} at the end of {self.text!r}; " + self.shape)


def _help() -> str:
    return "Battlefleet Gothic commands: " + "; ".join(_GRAMMAR) + f" ({_UNITS})."


class BattlefleetGothicNotation(Notation):
    """``imperial-1 moves 10cm turns 45 starboard 5cm``, ``imperial-1 fires port_battery at chaos-2``, ``roll off``:
    see the module's table."""

    def format(self, state: Any, command: Any) -> str:
        """The command's words, or its JSON when the words would not read back as the same command (an id with a
        space in it, split fire whose amounts do not match its weapons)."""
        text = _format(command)
        if text is not None:
            try:
                if self.parse(state, command.player, text) == command:
                    return text
            except RuleError:
                pass
        return super().format(state, command)

    def parse(self, state: Any, player: str, text: str) -> Any:
        command = _from_json(player, text) if text.lstrip().startswith("{") else _parse_words(player, text)
        return self._with_data_kind(command) if isinstance(command, cmd.LaunchTorpedoes) else command

    def read(self, state: Any, words: Sequence[Any], subject: str | None = None) -> NotationStep:
        """A step as a record writes it (``imperial "imperial-1 moves 10cm"``: the player, the command's text as
        one quoted word, ``~salt`` words), or as a person types it: the words unquoted, on one line, the player
        left out where the ship or marker named first says whose it is (else it is the player to choose now)."""
        players = tuple(self.ruleset.players(state))
        start = 1 if words and not words[0].quoted and words[0].value in players else 0
        if start >= len(words):
            raise NotationError(f"what does {words[0].value} do? the command follows the player" if words else
                                "a step is a command (" + "; ".join(_GRAMMAR) + ")", None)
        if words[start].quoted:
            text, end = words[start].value, start + 1
        else:
            line = getattr(words[start], "line", None)
            end = start
            while (end < len(words) and not words[end].quoted and not words[end].value.startswith("~")
                   and getattr(words[end], "line", None) == line):
                end += 1
            text = " ".join(word.value for word in words[start:end])
        player = words[0].value if start else self._player(state, text, players)
        try:
            command = self.parse(state, player, text)
        except AeroError as err:
            raise NotationError(err.detail if isinstance(err, RuleError) else str(err), start) from err
        salts_end = end
        while salts_end < len(words) and not words[salts_end].quoted and words[salts_end].value.startswith("~"):
            salts_end += 1
        salts = tuple(word.value[1:] for word in words[end:salts_end])
        return NotationStep(command=command, subject=self.subject(command), salts=salts, end=salts_end, verb=start)

    def _player(self, state: Any, text: str, players: tuple[str, ...]) -> str:
        """Whose step ``text`` is when it does not say: the owner of the ship or marker it names first, else the
        player the game waits for."""
        for name in text.split()[:2]:
            for pieces in (getattr(state, "ships", {}), getattr(state, "ordnance", {})):
                if name in pieces:
                    return pieces[name].side
        for player in players:
            if len(self.ruleset.legal_commands(state, player)):
                return player
        raise NotationError(f"whose is {text!r}? write the player first ({', '.join(players)})", 0)

    def _with_data_kind(self, command: cmd.LaunchTorpedoes) -> cmd.LaunchTorpedoes:
        """The command with its torpedo kind as the very string ``ordnance.json`` names it by, as the offered
        commands hold it: msgspec leaves a field at its default out of an event's encoding only when it is that
        default object, so a "standard" typed here must be the data's "standard" for a record to give the same
        event bytes as the game it was written from."""
        kinds = self.ruleset.data.ordnance["torpedo_kinds"].value
        kind = next((name for name in kinds if name == command.kind), command.kind)
        return msgspec.structs.replace(command, kind=kind)

    def subject(self, command: Any) -> str | None:
        """The ship or ordnance marker a command is about (None for a player's own step)."""
        return getattr(command, "ship", None) or getattr(command, "marker", None)

    def help(self) -> str:
        return _help()


def _parse_words(player: str, text: str) -> Any:
    """The command ``text`` writes for ``player`` (see the module's table), or a RuleError naming the word at fault."""
    words = re.sub(r"\s*,\s*", ",", text).split()
    if not words:
        raise _fail("an empty command; " + _help())
    if len(words) >= 2 and words[1] in _VERBS:
        return _VERBS[words[1]](player, words[0], _Words(words[2:], text, words[1]))
    head, rest = words[0], words[1:]
    if words in (["roll", "off"], ["end", "shooting"], ["surrender"]):
        return {"roll": cmd.RollOff, "end": cmd.EndShooting, "surrender": cmd.Surrender}[head](player=player)
    if head == "go" and rest in (["first"], ["second"]):
        return cmd.ChooseTurnOrder(player=player, go_first=rest == ["first"])
    if head == "recall" and len(rest) == 1:
        return cmd.RecallAttackCraft(player=player, marker=rest[0])
    if words[:4] == ["remove", "no", "blast", "markers"] and len(words) == 4:
        return cmd.RemoveBlastMarkers(player=player, markers=())
    if words[:3] == ["remove", "blast", "markers"] and len(words) > 3:
        numbers = [word for word in words[3:] if word != "and"]
        return cmd.RemoveBlastMarkers(player=player, markers=tuple(_whole(n, "a Blast marker") for n in numbers))
    raise _fail(f"cannot read {text.strip()!r}; " + _help())


def _from_json(player: str, text: str) -> Any:
    """A command written as its JSON (what this notation writes for a command its words cannot say, and what
    records of Battlefleet Gothic held before it had words)."""
    try:
        command = _decoder.decode(text.strip())
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise _fail(f"not a Battlefleet Gothic command: {exc}") from None
    if command.player != player:
        raise _fail(f"that command is {command.player}'s, not {player}'s")
    return command


def _format(command: Any) -> str | None:
    """The words of ``command``; None when they cannot say it (then it is written as JSON)."""
    match command:
        case cmd.RollOff():
            return "roll off"
        case cmd.ChooseTurnOrder():
            return "go first" if command.go_first else "go second"
        case cmd.GiveOrder():
            return f"{command.ship} orders {command.order}"
        case cmd.MoveShip():
            return _format_move(command)
        case cmd.FireWeapons():
            return _format_fire(command)
        case cmd.FireNovaCannon():
            return f"{command.ship} fires nova cannon at {_point(command.x, command.y)}"
        case cmd.EndShooting():
            return "end shooting"
        case cmd.LaunchTorpedoes():
            kind = "" if command.kind == "standard" else f"{command.kind} "
            hulks = " ignoring hulks" if command.ignore_hulks else ""
            return (f"{command.ship} launches {kind}torpedoes from {command.weapon} heading "
                    f"{_decimal(command.heading, DEGREE)}{hulks}")
        case cmd.LaunchAttackCraft():
            boats = f" and {_craft(command.assault_boats, 'assault_boats')}" if command.assault_boats else ""
            return (f"{command.ship} launches {_craft(command.fighters, 'fighters')} and "
                    f"{_craft(command.bombers, 'bombers')}{boats}")
        case cmd.MoveAttackCraft():
            via = f"via {' and '.join(_point(x, y) for x, y in command.via)} " if command.via else ""
            split = [_craft(count, kind) for kind in ("fighters", "bombers", "assault_boats")
                     if (count := getattr(command, kind)) is not None]
            craft = f" with {' and '.join(split)}" if split else ""
            return f"{command.marker} moves {via}to {_point(command.x, command.y)}{craft}"
        case cmd.SteerTorpedoes():
            hulks = " ignoring hulks" if command.ignore_hulks else ""
            return f"{command.marker} steers {_turn(command.turn)}{hulks}"
        case cmd.RecallAttackCraft():
            return f"recall {command.marker}"
        case cmd.React():
            return {(True, True): f"{command.ship} braces and fires turrets", (True, False): f"{command.ship} braces",
                    (False, True): f"{command.ship} fires turrets",
                    (False, False): f"{command.ship} does not brace"}[(command.brace, command.turrets)]
        case cmd.BraceForImpact():
            return f"{command.ship} braces for impact"
        case cmd.RemoveBlastMarkers():
            if not command.markers:
                return "remove no blast markers"
            return "remove blast markers " + " ".join(str(marker) for marker in command.markers)
        case cmd.Surrender():
            return "surrender"
    raise TypeError(f"{type(command).__name__} is not a Battlefleet Gothic command")


def _format_move(command: cmd.MoveShip) -> str | None:
    if not command.legs or len(command.turns) != len(command.legs) - 1:
        return None
    parts = [f"{command.ship} moves {_cm(command.legs[0])}"]
    for index, (turn, leg) in enumerate(zip(command.turns, command.legs[1:], strict=True)):
        last = index == len(command.turns) - 1
        parts.append(f"turns {_turn(turn)}" + ("" if last and leg == 0 else f" {_cm(leg)}"))
    if command.screen:
        parts.append("screened by " + " and ".join(command.screen))
    return " ".join(parts)


def _format_fire(command: cmd.FireWeapons) -> str | None:
    if command.amounts and len(command.amounts) != len(command.weapons):
        return None
    amounts = command.amounts or ("",) * len(command.weapons)
    weapons = " and ".join(f"{weapon} {amount}".strip() for weapon, amount in zip(command.weapons, amounts, strict=True))
    mates = " with " + " and ".join(f"{ship} {battery}" for ship, battery in command.squadron) if command.squadron else ""
    return f"{command.ship} fires {weapons + ' ' if weapons else ''}at {command.target}{mates}"


def _moves(player: str, subject: str, words: _Words) -> Any:
    if words.peek() in ("to", "via"):
        return _moves_craft(player, subject, words)
    legs, turns = [words.length("the distance moved")], []
    while words.accept("turns"):
        turns.append(words.turn("the turn"))
        legs.append(words.length("the distance moved") if words.is_length() else 0)
    screen = words.listed(lambda: words.take("a fighter wave")) if words.accept("screened", "by") else []
    words.done()
    return cmd.MoveShip(player=player, ship=subject, legs=tuple(legs), turns=tuple(turns), screen=tuple(screen))


def _moves_craft(player: str, subject: str, words: _Words) -> cmd.MoveAttackCraft:
    via = words.listed(lambda: words.point("a point on the way")) if words.accept("via") else []
    words.expect("to")
    x, y = words.point("where the wave goes")
    counts = _craft_counts(words) if words.accept("with") else {}
    words.done()
    return cmd.MoveAttackCraft(player=player, marker=subject, x=x, y=y, via=tuple(via), **counts)


def _craft_counts(words: _Words) -> dict[str, int]:
    """``2 fighters and 1 bomber and 3 assault boats`` as counts by field; each kind at most once."""
    counts: dict[str, int] = {}

    def one() -> None:
        count = _whole(words.take("a number of squadrons"), "a number of squadrons")
        kind = words.take("fighters, bombers or assault boats")
        field = _CRAFT.get(kind)
        if kind == "assault" and words.peek() in ("boat", "boats"):
            words.take("boats")
            field = "assault_boats"
        if field is None:
            raise _fail(f"{kind!r} is not a kind of attack craft (fighters, bombers, assault boats)")
        if field in counts:
            raise _fail(f"{kind!r} is counted twice in {words.text!r}")
        counts[field] = count

    words.listed(one)
    return counts


def _orders(player: str, subject: str, words: _Words) -> cmd.GiveOrder:
    order = " ".join(words.words)
    if not order:
        raise _fail(f"{words.text!r}: which special order? (all ahead full, come to new heading, burn retros, "
                    "lock on, reload ordnance)")
    return cmd.GiveOrder(player=player, ship=subject, order=order)


def _fires(player: str, subject: str, words: _Words) -> Any:
    if words.accept("turrets"):
        words.done()
        return cmd.React(player=player, ship=subject, brace=False, turrets=True)
    if words.accept("nova", "cannon"):
        words.expect("at")
        x, y = words.point("the nova cannon's aim")
        words.done()
        return cmd.FireNovaCannon(player=player, ship=subject, x=x, y=y)
    weapons: list[tuple[str, int | None]] = []
    if words.peek() != "at":
        def weapon() -> None:
            name = words.take("a weapon")
            amount = _whole(words.take("an amount"), "the amount fired") if (words.peek() or "").isdigit() else None
            weapons.append((name, amount))
        words.listed(weapon)
    words.expect("at")
    target = words.take("the target")
    squadron = words.listed(lambda: (words.take("a squadron mate"), words.take("its weapons battery"))) \
        if words.accept("with") else []
    words.done()
    given = [amount for _, amount in weapons if amount is not None]
    if given and len(given) != len(weapons):
        raise _fail(f"{words.text!r}: split fire gives an amount for every weapon, or for none")
    return cmd.FireWeapons(player=player, ship=subject, target=target, weapons=tuple(name for name, _ in weapons),
                           amounts=tuple(given), squadron=tuple(squadron))


def _launches(player: str, subject: str, words: _Words) -> Any:
    if (words.peek() or "").isdigit():
        counts = _craft_counts(words)
        words.done()
        return cmd.LaunchAttackCraft(player=player, ship=subject, fighters=counts.get("fighters", 0),
                                     bombers=counts.get("bombers", 0), assault_boats=counts.get("assault_boats", 0))
    kind = "standard" if words.peek() == "torpedoes" else words.take("the kind of torpedoes")
    words.expect("torpedoes", "from")
    weapon = words.take("the launching weapon")
    words.expect("heading")
    heading = _units(words.take("the heading"), DEGREE, "the heading")
    ignore_hulks = words.accept("ignoring", "hulks")
    words.done()
    return cmd.LaunchTorpedoes(player=player, ship=subject, weapon=weapon, heading=heading, kind=kind,
                               ignore_hulks=ignore_hulks)


def _steers(player: str, subject: str, words: _Words) -> cmd.SteerTorpedoes:
    turn = words.turn("the salvo's turn")
    ignore_hulks = words.accept("ignoring", "hulks")
    words.done()
    return cmd.SteerTorpedoes(player=player, marker=subject, turn=turn, ignore_hulks=ignore_hulks)


def _braces(player: str, subject: str, words: _Words) -> Any:
    if words.accept("for", "impact"):
        words.done()
        return cmd.BraceForImpact(player=player, ship=subject)
    turrets = words.accept("and", "fires", "turrets")
    words.done()
    return cmd.React(player=player, ship=subject, brace=True, turrets=turrets)


def _does(player: str, subject: str, words: _Words) -> cmd.React:
    words.expect("not", "brace")
    words.done()
    return cmd.React(player=player, ship=subject, brace=False, turrets=False)


_VERBS: dict[str, Callable[[str, str, _Words], Any]] = {
    "moves": _moves, "orders": _orders, "fires": _fires, "launches": _launches, "steers": _steers,
    "braces": _braces, "does": _does}
