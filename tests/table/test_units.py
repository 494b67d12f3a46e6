"""Integer units: centi-mm lengths and centidegree angles, converted exactly."""

from fractions import Fraction

import pytest

from aero_events.table import CENTI_MM, FULL_TURN, cm, degrees, heading, inches, mm, signed_angle, to_mm


def test_one_inch_is_2540_centi_mm_exactly():
    assert inches(1) == 2540
    assert inches("0.5") == 1270
    assert inches(Fraction(1, 4)) == 635


def test_metric_helpers_scale_by_100_and_1000():
    assert CENTI_MM == 1
    assert mm(1) == 100
    assert mm("126.6") == 12660  # WoG straight card, WINGS-OF-GLORY-DATA section 2
    assert cm(30) == 30000
    assert cm("2.5") == 2500  # BFG blast marker diameter default


def test_inexact_measures_round_half_to_even():
    assert inches(Fraction(1, 3)) == 847  # 846.67
    assert mm(Fraction(1, 200)) == 0  # 0.5 centi-mm rounds to even 0
    assert mm(Fraction(3, 200)) == 2  # 1.5 rounds to even 2


def test_floats_are_read_exactly_and_bools_refused():
    assert mm(0.25) == 25
    with pytest.raises(TypeError):
        mm(True)


def test_headings_normalise_into_one_turn():
    assert heading(-90) == 27000
    assert heading(360) == 0
    assert degrees(-35) == -3500
    assert signed_angle(27000) == -9000
    assert signed_angle(18000) == 18000
    assert FULL_TURN == 36000
    assert to_mm(12660) == 126.6
