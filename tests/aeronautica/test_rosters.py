"""BattleScribe / NewRecruit rosters (.ros, .rosz) read as force lists: Building a Force (p.9) and the
Squadron Lists (p.36-47) applied to what the player built, with every refusal located in the roster file."""

from __future__ import annotations

import io
import zipfile
from xml.sax.saxutils import quoteattr

import pytest

from aero_events.core.errors import DataError, RuleError
from aero_events.rulesets.aeronautica.forces import AircraftEntry, ForceList, load_force
from aero_events.rulesets.aeronautica.rosters import load_roster, parse_roster

NS = "http://www.battlescribe.net/schema/rosterSchema"


def selection(name: str, *children: str, number: int = 1, kind: str = "upgrade", custom: str | None = None) -> str:
    """One <selection> of a roster, on its own lines (so errors can be located by line)."""
    custom_attr = f" customName={quoteattr(custom)}" if custom else ""
    inner = f"\n<selections>\n{''.join(children)}</selections>\n" if children else ""
    return (f'<selection id="s-{abs(hash(name)) % 9999}" name={quoteattr(name)} entryId="e" number="{number}" '
            f'type="{kind}"{custom_attr}>{inner}</selection>\n')


def aircraft(name: str, *children: str, number: int = 1, custom: str | None = None) -> str:
    return selection(name, *children, number=number, kind="model", custom=custom)


def roster(*selections: str, catalogue: str = "Imperial Navy", limit: float | None = 100.0,
           name: str = "Veil Squadron", extra_forces: tuple[str, ...] = ()) -> bytes:
    """A roster as BattleScribe writes one: costs, cost limits, one force per catalogue."""
    limits = f'<costLimits>\n<costLimit name="pts" typeId="points" value="{limit}"/>\n</costLimits>\n' \
        if limit is not None else ""
    forces = "".join(
        f'<force id="f{i}" name="Squadron" entryId="fe" catalogueId="c{i}" catalogueRevision="14" '
        f"catalogueName={quoteattr(cat)}>\n<selections>\n{body}</selections>\n</force>\n"
        for i, (cat, body) in enumerate(((catalogue, "".join(selections)),
                                         *((c, "") for c in extra_forces))))
    return (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            f'<roster id="r1" name={quoteattr(name)} battleScribeVersion="2.03" gameSystemId="df04-c447-f12b-fae8" '
            f'gameSystemName="Aeronautica Imperialis" gameSystemRevision="20" xmlns="{NS}">\n'
            f'<costs>\n<cost name="pts" typeId="points" value="95.0"/>\n</costs>\n{limits}'
            f"<forces>\n{forces}</forces>\n</roster>\n").encode()


def line_of(raw: bytes, text: str) -> int:
    return raw.decode().splitlines().index(next(line for line in raw.decode().splitlines() if text in line)) + 1


def veil_squadron() -> bytes:
    """Two Thunderbolts (one an Imperial Ace with Skystrike Missiles), a Marauder with Hellstrikes; the fixed
    weapons are listed as BattleScribe lists them."""
    return roster(
        aircraft("Thunderbolt", selection("Twin Lascannons"), selection("Quad Autocannons"),
                 selection("Pair of Skystrike Missiles", number=2), selection("Imperial Ace"),
                 selection("Ejector Seats"), custom="Red Two"),
        aircraft("Thunderbolt", selection("Twin Lascannons"), selection("Quad Autocannons")),
        aircraft("Marauder", selection("Pair of Hellstrike Missiles", number=2), selection("Lascannon")),
        selection("[Reference] Autonomous Weapons"),
    )


VEIL = ForceList(
    name="Veil Squadron", faction="imperial_navy", points_limit=100,
    aircraft=(
        AircraftEntry("thunderbolt", ("skystrike_missiles",) * 2, ("imperial_ace", "ejector_seats"), "Red Two"),
        AircraftEntry("thunderbolt"),
        AircraftEntry("marauder", ("hellstrike_missiles",) * 2),
    ),
)


def test_force_list_p36_read_from_a_ros_roster():
    """Force List (p.36): each aircraft with its additional weapons and upgrades; the roster's name and its
    points limit; fixed weapons and reference entries are not choices."""
    assert parse_roster(veil_squadron(), "veil.ros") == VEIL


def test_a_zipped_rosz_roster_reads_as_its_ros(tmp_path):
    """NewRecruit and BattleScribe save .rosz: a zip holding the one .ros."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("Veil Squadron.ros", veil_squadron())
    path = tmp_path / "veil.rosz"
    path.write_bytes(buffer.getvalue())
    assert load_roster(path) == VEIL


def test_a_rosz_with_two_files_is_refused():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("a.ros", veil_squadron())
        archive.writestr("b.ros", veil_squadron())
    with pytest.raises(DataError, match="holds one roster, this one holds a.ros, b.ros"):
        parse_roster(buffer.getvalue(), "two.rosz")


def test_load_force_accepts_a_roster_wherever_a_force_file_is_read(tmp_path):
    """load_force (used by aero record --forces and the matchup files) reads .ros like JSON."""
    path = tmp_path / "veil.ros"
    path.write_bytes(veil_squadron())
    assert load_force(path) == VEIL


def test_ork_bsdata_spellings_map_to_the_squadron_list_p44():
    """BSData's "Ork Air Waaagh!", "Extra Armor" and "Pair of Rokkits" are the Ork Air Waaagh! list's (p.44)."""
    raw = roster(aircraft("Dakkajet", selection("Quad Big Shootas"), selection("Pair of Rokkits", number=2),
                          selection("Extra Armor"), selection("Fly Boss")),
                 aircraft("Fighta Bommer", selection("Pair of Big Bombs", number=2)),
                 catalogue="Ork Air Waaagh!", name="Waaagh! Nafgurz", limit=None)
    assert parse_roster(raw, "orks.ros") == ForceList(
        name="Waaagh! Nafgurz", faction="ork_air_waaagh", points_limit=None,
        aircraft=(AircraftEntry("dakkajet", ("rokkits",) * 2, ("extra_armour", "fly_boss")),
                  AircraftEntry("fighta_bommer", ("big_bombs",) * 2)))


def test_a_selection_of_several_aircraft_shares_its_weapons_evenly():
    """number="2" is two identical aircraft; their four Rokkits are two each."""
    raw = roster(aircraft("Dakkajet", selection("Pair of Rokkits", number=4), number=2),
                 catalogue="Ork Air Waaagh!", limit=None)
    force = parse_roster(raw, "orks.ros")
    assert force.aircraft == (AircraftEntry("dakkajet", ("rokkits",) * 2),) * 2


def test_weapons_that_do_not_split_evenly_are_refused_at_their_line():
    raw = roster(aircraft("Dakkajet", selection("Pair of Rokkits", number=3), number=2),
                 catalogue="Ork Air Waaagh!", limit=None)
    with pytest.raises(DataError) as err:
        parse_roster(raw, "orks.ros")
    assert err.value.location == line_of(raw, "Pair of Rokkits")
    assert "3 taken for 2 aircraft" in str(err.value) and "orks.ros" in str(err.value)


def test_an_aircraft_not_in_the_squadron_lists_is_named_with_its_line():
    """The Marauder Destroyer is in later books, not in the 2019 Squadron Lists (p.36-47)."""
    raw = roster(aircraft("Thunderbolt"), aircraft("Marauder Destroyer"))
    with pytest.raises(DataError) as err:
        parse_roster(raw, "veil.ros")
    assert err.value.location == line_of(raw, "Marauder Destroyer")
    assert "selection 2 'Marauder Destroyer'" in str(err.value)
    assert "Thunderbolt Fighter" in str(err.value)  # what the list does have


def test_an_upgrade_the_ruleset_does_not_know_is_named_with_its_line():
    """A Crew upgrade (Ace Gunna) from a later book is not silently dropped."""
    raw = roster(aircraft("Dakkajet", selection("Ace Gunna")), catalogue="Ork Air Waaagh!")
    with pytest.raises(DataError) as err:
        parse_roster(raw, "orks.ros")
    assert err.value.location == line_of(raw, "Ace Gunna")
    assert "'Dakkajet' > 'Ace Gunna'" in str(err.value) and "Fly Boss" in str(err.value)


def test_an_unknown_squadron_list_is_refused():
    with pytest.raises(DataError, match="no Squadron List 'Tau Air Caste'"):
        parse_roster(roster(aircraft("Barracuda"), catalogue="Tau Air Caste"), "tau.ros")


def test_building_a_force_p9_a_single_squadron_list():
    """"A force can contain any combination of aircraft from a single Squadron List" (p.9)."""
    raw = roster(aircraft("Thunderbolt"), extra_forces=("Ork Air Waaagh!",))
    with pytest.raises(RuleError) as err:
        parse_roster(raw, "mixed.ros")
    assert (err.value.rule, err.value.page) == ("Building a Force", 9)
    assert "'Imperial Navy', 'Ork Air Waaagh!'" in str(err.value)


def test_imperial_ace_p37_one_aircraft_per_force():
    """Imperial Ace "may only be taken by one aircraft within a force" (p.37)."""
    raw = roster(aircraft("Thunderbolt", selection("Imperial Ace")), aircraft("Thunderbolt", selection("Imperial Ace")))
    with pytest.raises(RuleError) as err:
        parse_roster(raw, "veil.ros")
    assert (err.value.rule, err.value.page) == ("Imperial Ace", 37)
    assert "veil.ros line" in str(err.value)


def test_aircraft_upgrades_p36_no_more_than_two_located_at_the_aircraft():
    """No aircraft may take more than two upgrades (p.36); the breach names the roster line of the aircraft."""
    raw = roster(aircraft("Thunderbolt"),
                 aircraft("Thunderbolt", selection("Ejector Seats"), selection("Armoured Cockpit"),
                          selection("Infra-red Targeting"), custom="Overloaded"))
    with pytest.raises(RuleError) as err:
        parse_roster(raw, "veil.ros")
    assert (err.value.rule, err.value.page) == ("Aircraft Upgrades", 36)
    assert f"veil.ros line {line_of(raw, 'Overloaded')} (Thunderbolt)" in str(err.value)


def test_fighta_bommer_p46_either_rokkits_and_wing_bombs_or_big_bombs():
    """The Fighta Bommer takes EITHER up to three Rokkits / Wing Bombs OR up to two Big Bombs (p.46)."""
    raw = roster(aircraft("Fighta Bommer", selection("Pair of Rokkits"), selection("Pair of Big Bombs")),
                 catalogue="Ork Air Waaagh!")
    with pytest.raises(RuleError) as err:
        parse_roster(raw, "orks.ros")
    assert (err.value.rule, err.value.page) == ("Additional Weaponry", 46)


def test_a_weapon_the_aircraft_cannot_take_p38():
    """A Thunderbolt's additional weapons are Hellstrike, Skystrike or Wing Bombs (p.38), not Rokkits."""
    raw = roster(aircraft("Thunderbolt", selection("Pair of Rokkits")))
    with pytest.raises(RuleError) as err:
        parse_roster(raw, "veil.ros")
    assert (err.value.rule, err.value.page) == ("Additional Weaponry", 38)


def test_building_a_force_p9_points_limit_checked_when_asked():
    """A force may not be more than the agreed points limit (p.9); the roster's limit is the agreed one. Only
    checked on request: points differ between the 2019 and 2020 lists."""
    raw = roster(aircraft("Thunderbolt"), aircraft("Thunderbolt"), limit=30.0)
    assert parse_roster(raw, "veil.ros").points_limit == 30
    with pytest.raises(RuleError, match="42 points, more than the agreed limit of 30") as err:
        parse_roster(raw, "veil.ros", check_points=True)
    assert (err.value.rule, err.value.page) == ("Building a Force", 9)


def test_a_roster_without_a_limit_has_none():
    assert parse_roster(roster(aircraft("Thunderbolt"), limit=0.0), "veil.ros").points_limit is None


def test_not_xml_is_refused_with_its_line():
    with pytest.raises(DataError) as err:
        parse_roster(b'<?xml version="1.0"?>\n<roster>\n<forces>\n</roster>\n', "broken.ros")
    assert err.value.location == 4 and "not valid XML" in str(err.value)


def test_a_roster_of_another_game_is_refused():
    raw = roster(aircraft("Intercessor Squad")).replace(b'"Aeronautica Imperialis"', b'"Warhammer 40,000 10th Edition"')
    with pytest.raises(DataError, match="a roster for 'Warhammer 40,000 10th Edition', not for Aeronautica"):
        parse_roster(raw, "marines.ros")


def test_a_catalogue_is_not_a_roster():
    raw = b'<?xml version="1.0"?>\n<catalogue xmlns="http://www.battlescribe.net/schema/catalogueSchema"/>\n'
    with pytest.raises(DataError, match="is a BattleScribe 'catalogue', not a 'roster'"):
        parse_roster(raw, "Imperial_Navy.cat")


def test_entity_declarations_are_refused():
    raw = b'<?xml version="1.0"?>\n<!DOCTYPE roster [<!ENTITY a "aaaa">]>\n<roster>&a;</roster>\n'
    with pytest.raises(DataError, match="entity declarations are not allowed"):
        parse_roster(raw, "bomb.ros")


def test_a_missing_roster_file_is_named(tmp_path):
    missing = tmp_path / "nowhere.ros"
    with pytest.raises(DataError) as err:
        load_force(missing)
    assert str(missing) in str(err.value) and "Errno" not in str(err.value)
