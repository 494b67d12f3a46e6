"""The component data: planes, decks and card geometry, token pools, sizes, arcs, ground and naval pieces.

Everything the 2017 text assumes you own (WINGS-OF-GLORY-DATA.md) is read from ``data/*.json`` and
validated here: a malformed file raises :class:`~aero_events.core.errors.DataError` naming the file, the
entry and the field. Each figure keeps its confidence mark (``conf``: S sourced, D derived, R
reconstruction) so a player who measures the real components can replace what was reconstructed: pass
another folder to :func:`load_catalogue`.

Card geometry (data page section 2): a right-hand card template gives where the plane's rear-edge centre
ends (``ex``, ``ey``) from the arrow's start on the front blue line, and the heading change ``theta``;
left cards mirror ``ex`` and ``theta``. The base centre moves by the rigid transform

    dx = s * ex + (L/2) * sin(theta),  dy = L/2 + s * ey + (L/2) * cos(theta),  dtheta = theta

with ``s`` the deck's length factor for that template. All results are integers of 1/100 mm and
1/100 degree. ``speed`` chooses the card's dark (``high``, default) or white (``low``) endpoint where it
has both (the text has no speed: the choice is the data page's assumption, option ``speed_variant``).
"""

from __future__ import annotations

import json
import os
from decimal import Decimal
from pathlib import Path
from typing import Any

import msgspec

from aero_events.core.errors import DataError, read_data_file
from aero_events.table.trig import COS, SIN, round_scaled

from .geometry import Transform, arc_pieces

DATA = Path(__file__).parent / "data"
CONFIDENCE = ("S", "D", "R")
SPECIALS = (None, "smoke", "fire", "rudder_left", "rudder_right", "crew_hit", "engine")
KINDS = ("straight", "stall", "climb", "dive", "immelmann", "dive_bomb", "bank", "turn", "sideslip")
ARC_NAMES_FOR_GUNS = ("front", "rear", "beam_left", "beam_right", "turret")


class Card(msgspec.Struct, frozen=True, kw_only=True):
    """One manoeuvre card of a deck: ``number`` on the card, its template and direction, and its move as
    a rigid transform of the base (1/100 mm, 1/100 degree). ``card_right``/``card_forward`` place the
    card's centre in the base frame when it is laid on the front blue line (for the swept region)."""

    number: int
    template: str
    kind: str
    direction: str | None
    steep: bool
    red: bool
    dx: int
    dy: int
    dtheta: int
    card_right: int
    card_forward: int
    conf: str

    @property
    def move(self) -> Transform:
        """The card's move as a rigid motion in the base's frame (``pose.then(card.move)``)."""
        return Transform.of(self.dx, self.dy, self.dtheta)

    @property
    def label(self) -> str:
        turn = f" {self.direction}" if self.direction else ""
        return f"{self.number} {self.template.replace('_', ' ')}{turn}"


class Deck(msgspec.Struct, frozen=True):
    id: str
    composition: str
    cards: tuple[Card, ...]
    conf: str

    def card(self, number: int) -> Card:
        return self.cards[number - 1]


class Gun(msgspec.Struct, frozen=True):
    name: str
    arc: str
    crew: int
    short: str
    long: str
    fixed: bool
    fires_higher: bool
    fires_lower: bool


class PlaneProfile(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    side: str
    plane_class: str
    deck: str
    damage_points: int
    ceiling: int
    climb_rate: int
    engines: int
    crew: tuple[str, ...]
    base: str
    loads: tuple[str, ...]
    camera: bool
    torpedo: bool
    dive_bomber: bool
    guns: tuple[Gun, ...]
    conf: dict[str, str]

    @property
    def bombardier(self) -> int:
        """The crewman who bombs, photographs or drops the torpedo: the bombardier, else the pilot."""
        return self.crew.index("bombardier") if "bombardier" in self.crew else 0


class TokenKind(msgspec.Struct, frozen=True):
    """A damage token face: ``letter``, ``points`` and a special symbol (or None)."""

    name: str
    letter: str
    points: int
    special: str | None


class TargetProfile(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    fire: str
    guns: tuple[str, ...]
    silence_points: int | None
    sink_bomb_damage: int | None
    sink_strafing_points: int | None
    moves: bool
    moving_target: bool
    hazard: bool
    width: int
    length: int


class Catalogue(msgspec.Struct, frozen=True, kw_only=True):
    data_version: str
    figures: dict[str, int]
    figure_conf: dict[str, str]
    arcs: dict[str, tuple[tuple[int, int], ...]]
    arc_sectors: dict[str, tuple[tuple[int, int], ...]]
    templates: dict[str, dict[str, Any]]
    decks: dict[str, Deck]
    planes: dict[str, PlaneProfile]
    tokens: dict[str, TokenKind]
    pools: dict[str, dict[str, int]]
    targets: dict[str, TargetProfile]
    speed: str

    def base_width(self, profile: PlaneProfile) -> int:
        return self.figures["base_twin_width" if profile.base == "twin" else "base_single_width"]


# ---------------------------------------------------------------- validation helpers


def _read(path: Path) -> dict[str, Any]:
    raw = read_data_file(path)
    try:
        value = json.loads(raw, parse_float=Decimal)
    except ValueError as exc:
        raise DataError(f"not valid JSON: {exc}", source=os.fspath(path)) from None
    if not isinstance(value, dict):
        raise DataError("the file must hold a JSON object", source=os.fspath(path))
    return value


def _get(entry: Any, name: str, kinds: type | tuple[type, ...], path: Path, location: str,
         default: Any = ..., nullable: bool = False) -> Any:
    if not isinstance(entry, dict):
        raise DataError("the entry must be a JSON object", source=os.fspath(path), location=location)
    if name not in entry:
        if default is not ...:
            return default
        raise DataError("missing", source=os.fspath(path), location=location, field=name)
    value = entry[name]
    if value is None and nullable:
        return None
    if isinstance(value, bool) and bool not in (kinds if isinstance(kinds, tuple) else (kinds,)):
        raise DataError(f"expected {_kind_name(kinds)}, got {value!r}", source=os.fspath(path), location=location,
                        field=name)
    if not isinstance(value, kinds):
        raise DataError(f"expected {_kind_name(kinds)}, got {value!r}", source=os.fspath(path), location=location,
                        field=name)
    return value


def _kind_name(kinds: type | tuple[type, ...]) -> str:
    kinds = kinds if isinstance(kinds, tuple) else (kinds,)
    return " or ".join(k.__name__ for k in kinds)


def _conf(entry: dict[str, Any], path: Path, location: str, name: str = "conf") -> str:
    conf = _get(entry, name, str, path, location)
    if conf not in CONFIDENCE:
        raise DataError(f"a confidence mark is S, D or R, not {conf!r}", source=os.fspath(path), location=location,
                        field=name)
    if conf == "R" and entry.get("reconstruction") is not True:
        raise DataError("a reconstruction (R) must say \"reconstruction\": true", source=os.fspath(path),
                        location=location, field="reconstruction")
    return conf


def _centi(value: Decimal | int, scale: Decimal | int = 1) -> int:
    """A measure in mm or degrees as an int of hundredths, rounded half-to-even."""
    return int((Decimal(value) * Decimal(scale) * 100).to_integral_value())


# ---------------------------------------------------------------- loaders


def load_components(path: Path) -> tuple[dict[str, int], dict[str, str], dict[str, tuple[tuple[int, int], ...]],
                                         dict[str, tuple[tuple[int, int], ...]], str]:
    data = _read(path)
    version = _get(data, "data_version", str, path, "file")
    figures: dict[str, int] = {}
    conf: dict[str, str] = {}
    required = ("card_width", "card_length", "base_single_width", "base_twin_width", "base_length",
                "rear_arrow_tip", "ruler_length", "ruler_width", "stand_clearance", "aa_range",
                "aa_friendly_exclusion", "ship_speed", "torpedo_move")
    entries = _get(data, "figures", dict, path, "file")
    for name in required:
        entry = _get(entries, name, dict, path, "figures")
        value = _get(entry, "value", (int, Decimal), path, name)
        if value < 0:
            raise DataError("a size cannot be negative", source=os.fspath(path), location=name, field="value")
        figures[name] = _centi(value)
        conf[name] = _conf(entry, path, name)
    if figures["ruler_width"] != 0:
        raise DataError("the engine lays the ruler as a line: only a ruler width of 0 is supported",
                        source=os.fspath(path), location="ruler_width", field="value")
    arcs: dict[str, tuple[tuple[int, int], ...]] = {}
    sectors_by_arc: dict[str, tuple[tuple[int, int], ...]] = {}
    for name, entry in _get(data, "arcs", dict, path, "file").items():
        _conf(entry, path, name)
        sectors = _get(entry, "sectors", list, path, name)
        parsed = []
        for sector in sectors:
            if (not isinstance(sector, list) or len(sector) != 2
                    or not all(isinstance(v, (int, Decimal)) and not isinstance(v, bool) for v in sector)
                    or sector[0] >= sector[1] or sector[1] - sector[0] > 360):
                raise DataError(f"a sector is [start, end] in degrees, start < end, at most 360 apart; got {sector!r}",
                                source=os.fspath(path), location=name, field="sectors")
            parsed.append((_centi(sector[0]), _centi(sector[1])))
        arcs[name] = arc_pieces(parsed)
        # (bearing from the nose, half-angle) of each sector, as aero_events.table.Sector takes them
        sectors_by_arc[name] = tuple(((start + end) // 2, (end - start) // 2) for start, end in parsed)
    for name in ARC_NAMES_FOR_GUNS:
        if name not in arcs:
            raise DataError("missing", source=os.fspath(path), location="arcs", field=name)
    return figures, conf, arcs, sectors_by_arc, version


def load_templates(path: Path) -> tuple[dict[str, dict[str, Any]], str]:
    data = _read(path)
    version = _get(data, "data_version", str, path, "file")
    templates: dict[str, dict[str, Any]] = {}
    for name, entry in _get(data, "templates", dict, path, "file").items():
        kind = _get(entry, "kind", str, path, name)
        if kind not in KINDS:
            raise DataError(f"kind must be one of {', '.join(KINDS)}", source=os.fspath(path), location=name,
                            field="kind")
        parsed: dict[str, Any] = {"kind": kind, "conf": _conf(entry, path, name)}
        for flag in ("steep", "red", "directional"):
            parsed[flag] = _get(entry, flag, bool, path, name)
        scale = _get(entry, "scale", str, path, name)
        if scale not in ("s", "s_turn", "none"):
            raise DataError("scale is s, s_turn or none", source=os.fspath(path), location=name, field="scale")
        parsed["scale"] = scale
        for speed in ("high", "low"):
            end = _get(entry, speed, list, path, name, nullable=True)
            if end is not None and (len(end) != 3 or not all(isinstance(v, (int, Decimal)) and not isinstance(v, bool)
                                                              for v in end)):
                raise DataError("an endpoint is [ex, ey, theta] (mm, mm, degrees)", source=os.fspath(path),
                                location=name, field=speed)
            parsed[speed] = end
        if parsed["high"] is None and parsed["low"] is None:
            raise DataError("a card needs at least one endpoint", source=os.fspath(path), location=name, field="high")
        start_x = _get(entry, "start_x", list, path, name)
        if len(start_x) != 2 or not all(isinstance(v, (int, Decimal)) and 0 <= v <= 1 for v in start_x):
            raise DataError("start_x is [high, low], fractions of the card width", source=os.fspath(path),
                            location=name, field="start_x")
        parsed["start_x"] = start_x
        templates[name] = parsed
    return templates, version


def build_card(number: int, template_id: str, template: dict[str, Any], direction: str | None, s: Decimal,
               s_turn: Decimal, speed: str, figures: dict[str, int], conf: str) -> Card:
    """A card's move from its template (module notes): the high or low endpoint, scaled, mirrored for L."""
    end, index = (template["high"], 0) if speed == "high" else (template["low"], 1)
    if end is None:  # a card with one endpoint flies it at either speed
        end, index = (template["low"], 1) if template["high"] is None else (template["high"], 0)
    factor = {"s": s, "s_turn": s_turn, "none": Decimal(1)}[template["scale"]]
    ex, ey = _centi(end[0], factor), _centi(end[1], factor)
    theta = _centi(end[2])
    half = figures["base_length"] // 2
    dx = ex + round_scaled(half * SIN[theta % 36000])
    dy = half + ey + round_scaled(half * COS[theta % 36000])
    width = figures["card_width"]
    card_right = _centi((Decimal("0.5") - template["start_x"][index]) * width / 100)
    card_forward = half + figures["card_length"] // 2
    if direction == "L":
        dx, theta, card_right = -dx, -theta, -card_right
    return Card(number=number, template=template_id, kind=template["kind"], direction=direction,
                steep=template["steep"], red=template["red"], dx=dx, dy=dy, dtheta=theta % 36000,
                card_right=card_right, card_forward=card_forward, conf=conf)


def load_decks(path: Path, templates: dict[str, dict[str, Any]], figures: dict[str, int],
               speed: str) -> tuple[dict[str, Deck], str]:
    data = _read(path)
    version = _get(data, "data_version", str, path, "file")
    compositions = _get(data, "compositions", dict, path, "file")
    for name, entry in compositions.items():
        _conf(entry, path, name)
        cards = _get(entry, "cards", list, path, name)
        for i, card in enumerate(cards, 1):
            if (not isinstance(card, list) or len(card) != 2 or card[0] not in templates
                    or card[1] not in (None, "L", "R")):
                raise DataError(f"card {i} must be [template, direction] with a known template and direction "
                                f"L, R or null; got {card!r}", source=os.fspath(path), location=name, field="cards")
            if templates[card[0]]["directional"] != (card[1] is not None):
                raise DataError(f"card {i} ({card[0]}) {'needs' if templates[card[0]]['directional'] else 'has no'} "
                                "direction", source=os.fspath(path), location=name, field="cards")
    decks: dict[str, Deck] = {}
    for name, entry in _get(data, "decks", dict, path, "file").items():
        conf = _conf(entry, path, name)
        composition = _get(entry, "composition", str, path, name)
        if composition not in compositions:
            raise DataError(f"unknown composition {composition!r}", source=os.fspath(path), location=name,
                            field="composition")
        factors = {}
        for factor in ("s", "s_turn"):
            value = _get(entry, factor, (int, Decimal), path, name)
            if not 0 < value <= 2:
                raise DataError("a length factor lies in (0, 2]", source=os.fspath(path), location=name, field=factor)
            factors[factor] = Decimal(value)
        cards = tuple(build_card(i, template, templates[template], direction, factors["s"], factors["s_turn"],
                                 speed, figures, conf)
                      for i, (template, direction) in enumerate(compositions[composition]["cards"], 1))
        if not any(card.kind == "straight" for card in cards):
            raise DataError("a deck needs a straight (ILLEGAL MANOEUVRES replaces a card with it)",
                            source=os.fspath(path), location=name, field="composition")
        decks[name] = Deck(id=name, composition=composition, cards=cards, conf=conf)
    return decks, version


def load_tokens(path: Path) -> tuple[dict[str, TokenKind], dict[str, dict[str, int]], str]:
    data = _read(path)
    version = _get(data, "data_version", str, path, "file")
    kinds: dict[str, TokenKind] = {}
    pools: dict[str, dict[str, int]] = {}
    for letter, entry in _get(data, "letters", dict, path, "file").items():
        _conf(entry, path, letter)
        counts: dict[str, int] = {}
        for row in _get(entry, "tokens", list, path, letter):
            if (not isinstance(row, list) or len(row) != 3 or not isinstance(row[0], int) or row[0] < 1
                    or not isinstance(row[1], int) or row[1] < 0 or row[2] not in SPECIALS):
                raise DataError(f"a token row is [count >= 1, points >= 0, special in {SPECIALS}]; got {row!r}",
                                source=os.fspath(path), location=letter, field="tokens")
            name = f"{letter}-{row[1]}-{row[2] or 'plain'}"
            kinds[name] = TokenKind(name=name, letter=letter, points=row[1], special=row[2])
            counts[name] = counts.get(name, 0) + row[0]
        if not counts:
            raise DataError("a letter needs tokens", source=os.fspath(path), location=letter, field="tokens")
        pools[letter] = counts
    for letter in ("A", "B", "C"):
        if letter not in pools:
            raise DataError("the rules draw A, B and C tokens", source=os.fspath(path), location="letters",
                            field=letter)
    return kinds, pools, version


def load_planes(path: Path, decks: dict[str, Deck], arcs: dict[str, Any], pools: dict[str, Any]
                ) -> tuple[dict[str, PlaneProfile], str]:
    data = _read(path)
    version = _get(data, "data_version", str, path, "file")
    planes: dict[str, PlaneProfile] = {}
    for pid, entry in _get(data, "planes", dict, path, "file").items():
        deck = _get(entry, "deck", str, path, pid)
        if deck not in decks:
            raise DataError(f"unknown deck {deck!r}", source=os.fspath(path), location=pid, field="deck")
        crew = tuple(_get(entry, "crew", list, path, pid))
        if not crew or crew[0] != "pilot" or not all(isinstance(c, str) for c in crew):
            raise DataError("the crew is a list of roles starting with the pilot", source=os.fspath(path),
                            location=pid, field="crew")
        numbers = {}
        for name in ("damage_points", "ceiling", "climb_rate", "engines"):
            numbers[name] = _get(entry, name, int, path, pid)
            if numbers[name] < 1:
                raise DataError("must be at least 1", source=os.fspath(path), location=pid, field=name)
        if numbers["engines"] > 4:
            raise DataError("the Engine Damage table covers 1 to 4 engines", source=os.fspath(path), location=pid,
                            field="engines")
        plane_class = _get(entry, "class", str, path, pid)
        if plane_class not in ("fighter", "bomber"):
            raise DataError("class is fighter or bomber", source=os.fspath(path), location=pid, field="class")
        base = _get(entry, "base", str, path, pid)
        if base not in ("single", "twin"):
            raise DataError("base is single or twin", source=os.fspath(path), location=pid, field="base")
        guns = []
        for i, gun in enumerate(_get(entry, "guns", list, path, pid)):
            where = f"{pid}.guns[{i}]"
            arc = _get(gun, "arc", str, path, where)
            if arc not in arcs:
                raise DataError(f"unknown arc {arc!r}", source=os.fspath(path), location=where, field="arc")
            crewman = _get(gun, "crew", int, path, where)
            if not 0 <= crewman < len(crew):
                raise DataError(f"no crewman {crewman}", source=os.fspath(path), location=where, field="crew")
            bands = {}
            for band in ("short", "long"):
                bands[band] = _get(gun, band, str, path, where)
                if any(letter not in pools for letter in bands[band]):
                    raise DataError(f"tokens are letters of the pools ({''.join(sorted(pools))})",
                                    source=os.fspath(path), location=where, field=band)
            guns.append(Gun(name=_get(gun, "name", str, path, where), arc=arc, crew=crewman, short=bands["short"],
                            long=bands["long"], fixed=_get(gun, "fixed", bool, path, where),
                            fires_higher=_get(gun, "fires_higher", bool, path, where),
                            fires_lower=_get(gun, "fires_lower", bool, path, where)))
        conf = _get(entry, "conf", dict, path, pid)
        for field, mark in conf.items():
            if mark not in CONFIDENCE:
                raise DataError(f"a confidence mark is S, D or R, not {mark!r}", source=os.fspath(path),
                                location=pid, field=f"conf.{field}")
        if "R" in conf.values() and entry.get("reconstruction") is not True:
            raise DataError("a profile with R figures must say \"reconstruction\": true", source=os.fspath(path),
                            location=pid, field="reconstruction")
        loads = tuple(_get(entry, "loads", list, path, pid))
        if any(load not in ("bombs", "drop_tanks") for load in loads):
            raise DataError("loads are bombs or drop_tanks", source=os.fspath(path), location=pid, field="loads")
        planes[pid] = PlaneProfile(
            id=pid, name=_get(entry, "name", str, path, pid), side=_get(entry, "side", str, path, pid),
            plane_class=plane_class, deck=deck, crew=crew, base=base, loads=loads,
            camera=_get(entry, "camera", bool, path, pid), torpedo=_get(entry, "torpedo", bool, path, pid),
            dive_bomber=_get(entry, "dive_bomber", bool, path, pid, default=False), guns=tuple(guns), conf=conf,
            **numbers)
    return planes, version


def load_targets(path: Path, arcs: dict[str, Any]) -> tuple[dict[str, TargetProfile], str]:
    data = _read(path)
    version = _get(data, "data_version", str, path, "file")
    targets: dict[str, TargetProfile] = {}
    for tid, entry in _get(data, "targets", dict, path, "file").items():
        fire = _get(entry, "fire", str, path, tid)
        if fire not in ("none", "troops", "aa"):
            raise DataError("fire is none, troops or aa", source=os.fspath(path), location=tid, field="fire")
        guns = tuple(_get(entry, "guns", list, path, tid))
        if any(g not in arcs for g in guns):
            raise DataError("guns name arcs of components.json", source=os.fspath(path), location=tid, field="guns")
        targets[tid] = TargetProfile(
            id=tid, name=_get(entry, "name", str, path, tid), fire=fire, guns=guns,
            silence_points=_get(entry, "silence_points", int, path, tid, default=None),
            sink_bomb_damage=_get(entry, "sink_bomb_damage", int, path, tid, default=None),
            sink_strafing_points=_get(entry, "sink_strafing_points", int, path, tid, default=None),
            moves=_get(entry, "moves", bool, path, tid), moving_target=_get(entry, "moving_target", bool, path, tid),
            hazard=_get(entry, "hazard", bool, path, tid, default=False),
            width=_centi(_get(entry, "width", int, path, tid)), length=_centi(_get(entry, "length", int, path, tid)))
    return targets, version


def load_catalogue(folder: str | os.PathLike | None = None, speed: str = "high") -> Catalogue:
    """Every data file of ``folder`` (default: the package's ``data/``), validated; ``speed`` is the
    card endpoint flown (``high`` or ``low``, option ``speed_variant``)."""
    if speed not in ("high", "low"):
        raise DataError("speed_variant is high or low", source="options", field="speed_variant")
    root = Path(folder) if folder is not None else DATA
    figures, figure_conf, arcs, arc_sectors, v1 = load_components(root / "components.json")
    templates, v2 = load_templates(root / "manoeuvres.json")
    decks, v3 = load_decks(root / "decks.json", templates, figures, speed)
    tokens, pools, v4 = load_tokens(root / "damage_tokens.json")
    planes, v5 = load_planes(root / "planes.json", decks, arcs, pools)
    targets, v6 = load_targets(root / "targets.json", arcs)
    return Catalogue(data_version=f"{v1}+{v2}+{v3}+{v4}+{v5}+{v6}", figures=figures, figure_conf=figure_conf,
                     arcs=arcs, arc_sectors=arc_sectors, templates=templates, decks=decks, planes=planes, tokens=tokens, pools=pools,
                     targets=targets, speed=speed)
