"""Win-rate intervals and significance tests, checked against numbers worked out by hand."""

from __future__ import annotations

import math

import pytest

from aero_events.sim.stats import (
    ALPHA,
    Z_95,
    holm_adjusted,
    normal_two_sided_p,
    paired_t_test,
    regularized_incomplete_beta,
    student_t_two_sided_p,
    two_proportion_z_test,
    wilson_interval,
)


def test_wilson_interval_of_3_wins_in_10_games_by_hand():
    # p = 0.3, n = 10, z = 1.95996: z^2/n = 0.384146, centre = (0.3 + 0.192073) / 1.384146 = 0.355507,
    # half width = 1.95996 / 1.384146 * sqrt(0.021 + 0.0096036) = 0.247715 -> (0.107791, 0.603222).
    low, high = wilson_interval(3, 10)
    assert low == pytest.approx(0.107791, abs=1e-6)
    assert high == pytest.approx(0.603222, abs=1e-6)


def test_wilson_interval_at_the_extremes_stays_inside_0_and_1():
    # 0 of 10: centre = half width = 0.192073 / 1.38415 = 0.138766 -> (0, 0.277533).
    assert wilson_interval(0, 10) == (0.0, pytest.approx(0.277533, abs=1e-6))
    low, high = wilson_interval(10, 10)
    assert low == pytest.approx(1 - 0.277533, abs=1e-6) and high == pytest.approx(1.0)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_wilson_interval_narrows_with_more_games():
    small, large = wilson_interval(30, 100), wilson_interval(300, 1000)
    assert small[1] - small[0] > large[1] - large[0]
    assert small[0] < 0.3 < small[1] and large[0] < 0.3 < large[1]


def test_two_proportion_z_test_by_hand():
    # 60/100 against 45/100: pooled 0.525, se = sqrt(0.525 * 0.475 * (2/100)) = 0.0706222,
    # z = 0.15 / 0.0706222 = 2.12398, two-sided p = erfc(2.12398 / sqrt 2) = 0.033672.
    result = two_proportion_z_test(60, 100, 45, 100)
    assert result.statistic == pytest.approx(2.12398, abs=1e-5)
    assert result.p_value == pytest.approx(0.033672, abs=1e-6)
    assert result.significant
    assert not two_proportion_z_test(50, 100, 45, 100).significant
    assert two_proportion_z_test(0, 10, 0, 10).p_value == 1.0


def test_the_normal_and_t_tails_match_the_tables():
    assert normal_two_sided_p(Z_95) == pytest.approx(0.05, abs=1e-9)
    # Two-sided 5% critical values of Student's t: df 1: 12.706, df 4: 2.776, df 9: 2.262, df 30: 2.042.
    for t, df in ((12.7062, 1), (2.77645, 4), (2.26216, 9), (2.04227, 30)):
        assert student_t_two_sided_p(t, df) == pytest.approx(0.05, abs=2e-5)
    assert regularized_incomplete_beta(2, 3, 0.4) == pytest.approx(0.5248, abs=1e-4)  # 1 - sum_{k<2} C(4,k) .4^k .6^(4-k)


def test_paired_t_test_by_hand():
    # differences 1..5: mean 3, sample sd sqrt(2.5), se sqrt(2.5 / 5) = 0.707107, t = 4.24264 (df 4), p = 0.013236.
    result = paired_t_test([1, 2, 3, 4, 5])
    assert result.statistic == pytest.approx(4.24264, abs=1e-5)
    assert result.p_value == pytest.approx(0.013236, abs=1e-5)
    assert paired_t_test([0, 0, 0]).p_value == 1.0
    assert paired_t_test([2, 2, 2]).p_value == 0.0 and math.isinf(paired_t_test([2, 2, 2]).statistic)
    assert paired_t_test([1]).p_value == 1.0


def test_holm_adjusts_the_sorted_p_values_step_down_and_keeps_their_order():
    """Holm (1979): the k-th smallest of m p-values times m - k + 1, never below the one before, at most 1.
    By hand for 0.01, 0.04, 0.03, 0.005: sorted 0.005 x4 = 0.02, 0.01 x3 = 0.03, 0.03 x2 = 0.06,
    0.04 x1 = 0.04 -> 0.06 (monotone)."""
    assert holm_adjusted([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm_adjusted([0.5, 0.9]) == [1.0, 1.0]
    assert holm_adjusted([0.2]) == [0.2] and holm_adjusted([]) == []


def test_holm_is_less_strict_than_bonferroni_but_stricter_than_no_correction():
    p_values = [0.004, 0.012, 0.02, 0.3]
    adjusted = holm_adjusted(p_values)
    assert [p < ALPHA for p in p_values] == [True, True, True, False]
    assert [p < ALPHA for p in adjusted] == [True, True, True, False]  # 0.016, 0.036, 0.04, 0.3
    assert [4 * p < ALPHA for p in p_values] == [True, True, False, False]  # Bonferroni loses the third
    assert holm_adjusted([0.02, 0.03, 0.04]) == pytest.approx([0.06, 0.06, 0.06])  # none survives three tests
