"""The statistics of a simulation: win rates with confidence intervals, and tests of differences.

Written with :mod:`math` alone (no SciPy), each a textbook formula:

* :func:`wilson_interval`: the Wilson score interval for a proportion (Wilson 1927), which stays inside
  [0, 1] and behaves at 0 or n successes, unlike the normal ("Wald") interval.
* :func:`two_proportion_z_test`: are two win rates different? The pooled two-proportion z-test, two-sided.
* :func:`paired_t_test`: is the mean of paired differences (the same seeds under two rulesets) zero?
  Student's t with n - 1 degrees of freedom; its distribution function is the regularised incomplete
  beta function, evaluated by Lentz's continued fraction (Numerical Recipes, 6.4).
* :func:`holm_adjusted`: p-values adjusted for testing several differences at once (Holm 1979), so that
  the chance of calling any true null "significant" stays under the level (the family-wise error rate).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: The two-sided 95% normal quantile.
Z_95 = 1.959963984540054
#: The significance level of ``aero compare``.
ALPHA = 0.05


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval for ``successes`` out of ``trials`` (default 95%)."""
    if trials <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= trials:
        raise ValueError(f"{successes} successes out of {trials} trials")
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z / (1 + z2 / trials) * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    return (max(0.0, centre - half), min(1.0, centre + half))


def normal_two_sided_p(z: float) -> float:
    """P(|Z| >= |z|) for a standard normal Z."""
    return math.erfc(abs(z) / math.sqrt(2))


@dataclass(frozen=True)
class TestResult:
    """A test statistic, its two-sided p-value, and whether p < ``ALPHA``."""

    statistic: float
    p_value: float

    @property
    def significant(self) -> bool:
        return self.p_value < ALPHA


def two_proportion_z_test(successes_a: int, trials_a: int, successes_b: int, trials_b: int) -> TestResult:
    """The pooled two-proportion z-test of p_a = p_b, two-sided. No difference to test: z 0, p 1."""
    if trials_a <= 0 or trials_b <= 0:
        return TestResult(0.0, 1.0)
    pooled = (successes_a + successes_b) / (trials_a + trials_b)
    variance = pooled * (1 - pooled) * (1 / trials_a + 1 / trials_b)
    difference = successes_a / trials_a - successes_b / trials_b
    if variance == 0:
        return TestResult(0.0, 1.0)
    z = difference / math.sqrt(variance)
    return TestResult(z, normal_two_sided_p(z))


def _beta_continued_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny, epsilon = 1e-300, 3e-16
    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c if abs(1 + aa / c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c if abs(1 + aa / c) > tiny else tiny
        step = d * c
        h *= step
        if abs(step - 1) < epsilon:
            break
    return h


def regularized_incomplete_beta(a: float, b: float, x: float) -> float:
    """I_x(a, b), for a, b > 0 and 0 <= x <= 1."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log(1 - x)
    if x < (a + 1) / (a + b + 2):
        return math.exp(log_front) * _beta_continued_fraction(a, b, x) / a
    return 1 - math.exp(log_front) * _beta_continued_fraction(b, a, 1 - x) / b


def student_t_two_sided_p(t: float, degrees: int) -> float:
    """P(|T| >= |t|) for Student's t with ``degrees`` degrees of freedom."""
    if degrees <= 0:
        return 1.0
    return regularized_incomplete_beta(degrees / 2, 0.5, degrees / (degrees + t * t))


def paired_t_test(differences: Sequence[float]) -> TestResult:
    """Student's paired t-test that the mean of ``differences`` is 0, two-sided.

    Fewer than two differences, or all equal to zero: nothing to test (t 0, p 1). All equal and not zero:
    a difference with no spread at all (t infinite, p 0).
    """
    n = len(differences)
    if n < 2:
        return TestResult(0.0, 1.0)
    mean = sum(differences) / n
    variance = sum((d - mean) ** 2 for d in differences) / (n - 1)
    if variance == 0:
        return TestResult(0.0, 1.0) if mean == 0 else TestResult(math.copysign(math.inf, mean), 0.0)
    t = mean / math.sqrt(variance / n)
    return TestResult(t, student_t_two_sided_p(t, n - 1))


#: The name ``aero compare`` gives its multiple-comparison correction.
HOLM = "Holm-Bonferroni"


def holm_adjusted(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (Holm 1979, "A simple sequentially rejective multiple test
    procedure"), in the order given: the k-th smallest of m p-values is multiplied by m - k + 1, capped at 1,
    and made no smaller than the adjusted value before it. Rejecting where the adjusted value is below the
    level keeps the family-wise error rate under that level, for any dependence between the tests."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [1.0] * m
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted
