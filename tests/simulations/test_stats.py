"""Summaries of trials: Student-t intervals and the log–log slope fit with its bootstrap CI."""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

import numpy as np
import pytest
from scipy import stats as sps

from hypothesis import given, settings
from hypothesis import strategies as st

from simulations.engine import TrialResults
from simulations.stats import (EXCLUDED, HOLDS, INCONCLUSIVE, bound_verdict, fit_loglog_slope, holds_from,
                               interval_verdict, ratio_interval, summarize, t_interval)


# ------------------------------------------------------------------------------ t interval
@pytest.mark.parametrize("n", [2, 3, 10, 57])
@pytest.mark.parametrize("confidence", [0.5, 0.9, 0.95, 0.999])
def test_t_interval_matches_scipy_and_statistics(n, confidence):
    x = np.random.default_rng(n).gamma(2.0, size=n)
    mean, std, count, lo, hi = t_interval(x, confidence)
    ref_mean, ref_std = statistics.fmean(x.tolist()), statistics.stdev(x.tolist())
    ref_lo, ref_hi = sps.t.interval(confidence, df=n - 1, loc=ref_mean, scale=ref_std / np.sqrt(n))
    assert count == n
    assert mean == pytest.approx(ref_mean, rel=1e-13)
    assert std == pytest.approx(ref_std, rel=1e-12)
    assert (lo, hi) == (pytest.approx(ref_lo, rel=1e-12), pytest.approx(ref_hi, rel=1e-12))


def test_t_interval_coverage_at_a_fixed_seed():
    # 2000 normal samples of size 5: coverage count ~ Binomial(2000, 0.95); the bounds below hold
    # with probability > 0.999 (two-sided) when the interval is exact.
    rng = np.random.default_rng(7)
    hits = sum(lo <= 1.0 <= hi for lo, hi in (t_interval(rng.normal(1.0, 3.0, size=5))[3:] for _ in range(2000)))
    lo_ok, hi_ok = sps.binom.ppf([0.0005, 0.9995], 2000, 0.95)
    assert lo_ok <= hits <= hi_ok


def test_ratio_interval_by_hand():
    # means 2.0 and 1.0, sample variances 0.08/3 and 0.02/3, n = 4 each:
    # se(ln r) = sqrt((0.08/3)/(4·4) + (0.02/3)/(4·1)) = sqrt(1/300), t_{3, 0.975} = 3.182446305284263
    r, lo, hi = ratio_interval([2.0, 2.2, 1.8, 2.0], [1.0, 1.1, 0.9, 1.0])
    half = 3.182446305284263 * (1 / 300) ** 0.5
    assert r == pytest.approx(2.0, rel=1e-14)
    assert (lo, hi) == (pytest.approx(2.0 * np.exp(-half), rel=1e-12), pytest.approx(2.0 * np.exp(half), rel=1e-12))


def test_ratio_interval_coverage_at_a_fixed_seed():
    # true ratio 1.5 of two gamma means (CV 0.25, n = 12 and 8): the delta-method interval on ln r is
    # approximate, so only require coverage within [0.92, 0.99] of 2000 draws (nominal 0.95).
    rng = np.random.default_rng(11)
    hits = 0
    for _ in range(2000):
        _, lo, hi = ratio_interval(rng.gamma(16.0, 1.5 / 16, size=12), rng.gamma(16.0, 1.0 / 16, size=8))
        hits += lo <= 1.5 <= hi
    assert 0.92 * 2000 <= hits <= 0.99 * 2000


@pytest.mark.parametrize("num, den", [([1.0], [1.0, 2.0]), ([1.0, np.nan], [1.0, 2.0]), ([-1.0, -2.0], [1.0, 2.0]),
                                      ([1.0, 2.0], [0.0, 0.0])])
def test_ratio_interval_refuses_bad_samples(num, den):
    with pytest.raises(ValueError, match="numerator|denominator"):
        ratio_interval(num, den)


def test_t_interval_degenerate_cases():
    mean, std, n, lo, hi = t_interval([4.0])
    assert (mean, n) == (4.0, 1) and np.isnan(std) and np.isnan(lo) and np.isnan(hi)
    assert t_interval([2.0, 2.0, 2.0])[1:] == (0.0, 3, 2.0, 2.0)


@pytest.mark.parametrize("values, confidence", [([], 0.95), ([1.0, np.nan], 0.95), ([1.0, 2.0], 1.0),
                                                ([1.0, 2.0], 0.0), ([1.0, 2.0], "high")])
def test_t_interval_invalid(values, confidence):
    with pytest.raises(ValueError):
        t_interval(values, confidence)


# -------------------------------------------------------------------------------- summarize
@dataclass(frozen=True)
class Cfg:
    N: int
    eps: float
    grid: tuple = (1, 2)


def _results():
    rng = np.random.default_rng(0)
    per = [{"risk": rng.random(6), "vec": rng.random((6, 2))}, {"risk": rng.random(6), "vec": rng.random((6, 2))}]
    return TrialResults(configs=[Cfg(100, 0.5), Cfg(1000, 1.0)], n_trials=6, per_config=per)


def test_summarize_tidy_columns_and_values():
    res = _results()
    table = summarize(res)
    assert list(table) == ["N", "eps", "grid", "metric", "n_trials", "mean", "std", "ci_low", "ci_high"]
    assert table["metric"] == ["risk", "vec[0]", "vec[1]"] * 2
    assert table["N"] == [100] * 3 + [1000] * 3 and table["grid"] == ["[1,2]"] * 6
    for row, (i, col) in enumerate([(0, None), (0, 0), (0, 1), (1, None), (1, 0), (1, 1)]):
        v = res.per_config[i]["risk"] if col is None else res.per_config[i]["vec"][:, col]
        assert table["mean"][row] == pytest.approx(statistics.fmean(v.tolist()), rel=1e-13)
        assert table["std"][row] == pytest.approx(statistics.stdev(v.tolist()), rel=1e-12)
        assert table["n_trials"][row] == 6
    only = summarize(res, metrics=["risk"])
    assert only["metric"] == ["risk", "risk"]
    with pytest.raises(ValueError, match="metric"):
        summarize(res, metrics=["nope"])


def test_summarize_rejects_clashing_field_names():
    @dataclass(frozen=True)
    class Clash:
        mean: float

    res = TrialResults(configs=[Clash(1.0)], n_trials=2, per_config=[{"risk": np.ones(2)}])
    with pytest.raises(ValueError, match="clash"):
        summarize(res)


# -------------------------------------------------------------------------------- slope fit
N_GRID = np.array([100, 250, 630, 1600, 4000, 10000])


def test_slope_exact_power_law_is_recovered_exactly():
    # no noise: every trial equals 3 N^{-2/3}; every bootstrap replicate gives the same slope
    vals = [np.full(5, 3.0 * n ** (-2 / 3)) for n in N_GRID]
    fit = fit_loglog_slope(N_GRID, vals, rng=0, n_boot=50)
    assert fit.slope == pytest.approx(-2 / 3, abs=1e-12)
    assert fit.intercept == pytest.approx(np.log(3.0), abs=1e-10)
    assert fit.ci_low == pytest.approx(-2 / 3, abs=1e-12) and fit.ci_high == pytest.approx(-2 / 3, abs=1e-12)


def test_slope_ci_coverage_with_multiplicative_noise():
    # risk_i = c N^{-a} * E_i with E_i ~ Exponential(1): E[risk] = c N^{-a} exactly, so the true
    # slope of log E[risk] is -a. Percentile bootstrap intervals are approximate; we accept true
    # coverage down to 0.90 with a 0.1 % one-sided false-alarm level over 100 data sets.
    rng = np.random.default_rng(2024)
    a, hits = 0.5, 0
    for _ in range(100):
        vals = [0.7 * n ** (-a) * rng.exponential(size=50) for n in N_GRID]
        fit = fit_loglog_slope(N_GRID, vals, rng=rng, n_boot=400)
        hits += fit.contains(-a)
        assert fit.ci_low < fit.slope < fit.ci_high
    assert hits >= sps.binom.ppf(0.001, 100, 0.90)


def test_slope_bootstrap_is_deterministic_under_a_seed():
    rng = np.random.default_rng(5)
    vals = [n ** -1.0 * rng.exponential(size=20) for n in N_GRID]
    f1 = fit_loglog_slope(N_GRID, vals, rng=11, n_boot=300)
    f2 = fit_loglog_slope(N_GRID, vals, rng=np.random.default_rng(11), n_boot=300)
    f3 = fit_loglog_slope(N_GRID, vals, rng=12, n_boot=300)
    assert f1 == f2
    assert (f3.ci_low, f3.ci_high) != (f1.ci_low, f1.ci_high) and f3.slope == f1.slope


def test_slope_accepts_ragged_trials_and_counts_invalid_replicates():
    # at the largest N, one positive trial among zeros: some resampled means are 0 (log = -inf)
    vals = [np.array([1.0, 2.0, 3.0]), np.array([0.5, 0.4]), np.array([0.0, 0.0, 0.0, 0.9])]
    fit = fit_loglog_slope([10, 100, 1000], vals, rng=3, n_boot=500)
    assert 0 < fit.n_invalid < 500
    # P(a replicate misses the one positive trial) = (3/4)^4; n_invalid ~ Binomial(500, (3/4)^4), and
    # 3.3 standard errors is a two-sided 1e-3 normal-approximation band
    assert fit.n_invalid / 500 == pytest.approx(0.75 ** 4, abs=3.3 * np.sqrt(0.75 ** 4 * (1 - 0.75 ** 4) / 500))
    assert np.isfinite(fit.ci_low) and np.isfinite(fit.ci_high)


@pytest.mark.parametrize("N, values, kw, match", [
    ([10], [[1.0]], {}, "N must"),
    ([10, 10], [[1.0], [2.0]], {}, "N must"),
    ([10, -1], [[1.0], [2.0]], {}, "N must"),
    ([10, 100], [[1.0]], {}, "one array per N"),
    ([10, 100], [[1.0], []], {}, "non-empty"),
    ([10, 100], [[1.0], [0.0, 0.0]], {}, "> 0"),
    ([10, 100], [[1.0], [np.inf]], {}, "finite"),
    ([10, 100], [[1.0], [2.0]], {"n_boot": 0}, "n_boot"),
    ([10, 100], [[1.0], [2.0]], {"confidence": 1.0}, "confidence"),
])
def test_slope_invalid(N, values, kw, match):
    with pytest.raises(ValueError, match=match):
        fit_loglog_slope(N, values, rng=0, **kw)


# ----------------------------------------------------------------- the one decision rule (issue 23)
# Values on the grid k/8 are exact binary fractions: sums and differences below are exact, so the
# properties hold with equality at the band edges too (no float rounding to hide a wrong <= / <).
_GRID = st.integers(-40, 40).map(lambda k: k / 8)
_MARGIN = st.integers(0, 16).map(lambda k: k / 8)
_RULE = settings(max_examples=100, deadline=None, derandomize=True, database=None)
_RANK = {EXCLUDED: 0, INCONCLUSIVE: 1, HOLDS: 2}


def _ci(a, b):
    return min(a, b), max(a, b)


@_RULE
@given(_GRID, _GRID, _GRID, _MARGIN)
def test_interval_verdict_is_the_band_definition(value, a, b, margin):
    """holds iff the CI lies inside [value − margin, value + margin]; excluded iff it is disjoint from it;
    inconclusive otherwise (the three are exclusive and exhaustive)."""
    lo, hi = _ci(a, b)
    inside = value - margin <= lo and hi <= value + margin
    disjoint = hi < value - margin or lo > value + margin
    expected = HOLDS if inside else (EXCLUDED if disjoint else INCONCLUSIVE)
    assert interval_verdict(value, lo, hi, margin) == expected


@_RULE
@given(_GRID, _GRID, _GRID, _MARGIN, _GRID)
def test_interval_verdict_symmetries(value, a, b, margin, shift):
    """The rule favours neither side: reflecting everything about 0, or shifting it, keeps the verdict."""
    lo, hi = _ci(a, b)
    v = interval_verdict(value, lo, hi, margin)
    assert interval_verdict(-value, -hi, -lo, margin) == v
    assert interval_verdict(value + shift, lo + shift, hi + shift, margin) == v


@_RULE
@given(_GRID, _GRID, _GRID, _MARGIN, _MARGIN)
def test_interval_verdict_is_monotone_in_the_margin(value, a, b, m1, m2):
    """A wider band never turns a verdict back: excluded -> inconclusive -> holds as the margin grows."""
    lo, hi = _ci(a, b)
    small, large = sorted((m1, m2))
    assert _RANK[interval_verdict(value, lo, hi, small)] <= _RANK[interval_verdict(value, lo, hi, large)]


@_RULE
@given(_GRID, _GRID, _GRID, _GRID, _MARGIN)
def test_two_values_farther_apart_than_two_margins_cannot_both_hold(v1, v2, a, b, margin):
    """With the same CI and margin, a derived exponent holds and a printed one (more than 2 margins away) is
    then excluded-or-inconclusive, never also holding: accepting one and excluding the other use one rule."""
    lo, hi = _ci(a, b)
    if abs(v1 - v2) > 2 * margin:
        assert not (interval_verdict(v1, lo, hi, margin) == HOLDS == interval_verdict(v2, lo, hi, margin))
    if interval_verdict(v1, lo, hi, margin) == HOLDS and abs(v1 - v2) > 2 * margin + (hi - lo):
        assert interval_verdict(v2, lo, hi, margin) == EXCLUDED


@_RULE
@given(_GRID, _GRID, _GRID, _MARGIN)
def test_bound_verdict_is_the_one_sided_band_definition(bound, a, b, margin):
    lo, hi = _ci(a, b)
    edge = bound + margin  # at_most: the band (-inf, bound + margin]
    assert bound_verdict(bound, lo, hi, margin, side="at_most") == (
        HOLDS if hi <= edge else (EXCLUDED if lo > edge else INCONCLUSIVE))
    # at_least is at_most reflected about 0
    assert bound_verdict(-bound, -hi, -lo, margin, side="at_least") == bound_verdict(bound, lo, hi, margin,
                                                                                    side="at_most")
    # a one-sided band is a two-sided one whose far edge lies beyond the interval (exact on this grid)
    far = min(lo, edge) - 1.0
    assert bound_verdict(bound, lo, hi, margin, side="at_most") == interval_verdict((far + edge) / 2, lo, hi,
                                                                                   (edge - far) / 2)


@pytest.mark.parametrize("verdict", [interval_verdict, lambda v, lo, hi, m: bound_verdict(v, lo, hi, m, side="at_most"),
                                     lambda v, lo, hi, m: bound_verdict(v, lo, hi, m, side="at_least")],
                         ids=["interval", "at_most", "at_least"])
@pytest.mark.parametrize("lo, hi", [(np.nan, 0.1), (-0.1, np.nan), (np.nan, np.nan), (-np.inf, 0.0)])
def test_verdict_without_an_interval_is_inconclusive(verdict, lo, hi):
    assert verdict(0.0, lo, hi, 0.03) == INCONCLUSIVE


@pytest.mark.parametrize("args, kw, match", [
    ((np.nan, -1.0, 1.0, 0.1), {}, "value must be finite"),
    ((np.inf, -1.0, 1.0, 0.1), {}, "value must be finite"),
    (("0.5", -1.0, 1.0, 0.1), {}, "value must be a real number"),
    ((0.0, -1.0, 1.0, -0.01), {}, "margin must be >= 0"),
    ((0.0, -1.0, 1.0, np.inf), {}, "margin must be finite"),
    ((0.0, 1.0, -1.0, 0.1), {}, r"ci_low must be <= ci_high, got ci_low=1.0, ci_high=-1.0"),
])
def test_interval_verdict_guards_name_the_argument(args, kw, match):
    with pytest.raises(ValueError, match=match):
        interval_verdict(*args, **kw)


@pytest.mark.parametrize("args, kw, match", [
    ((np.nan, -1.0, 1.0, 0.1), {"side": "at_most"}, "bound must be finite"),
    ((0.0, -1.0, 1.0, -1.0), {"side": "at_most"}, "margin must be >= 0"),
    ((0.0, 1.0, -1.0, 0.1), {"side": "at_least"}, "ci_low must be <= ci_high"),
    ((0.0, -1.0, 1.0, 0.1), {"side": "below"}, "side must be one of .*got side='below'"),
])
def test_bound_verdict_guards_name_the_argument(args, kw, match):
    with pytest.raises(ValueError, match=match):
        bound_verdict(*args, **kw)


def test_holds_from_maps_verdicts_to_claim_holds():
    assert [holds_from(v) for v in (HOLDS, EXCLUDED, INCONCLUSIVE)] == [True, False, None]
    assert [holds_from(v, claim_is=EXCLUDED) for v in (HOLDS, EXCLUDED, INCONCLUSIVE)] == [False, True, None]
    with pytest.raises(ValueError, match="verdict must be one of .*got verdict='fails'"):
        holds_from("fails")
    with pytest.raises(ValueError, match="claim_is must be 'holds' or 'excluded', got claim_is='inconclusive'"):
        holds_from(HOLDS, claim_is=INCONCLUSIVE)


def test_clopper_pearson_ends_solve_the_binomial_tails():
    """The ends are defined by the binomial tails (Clopper and Pearson 1934): P(Bin(n, lo) >= k) = α/2 and
    P(Bin(n, hi) <= k) = α/2, checked with scipy's binomial distribution, not the beta quantiles used inside;
    at k = 0 the upper end solves (1 - p)^n = α/2 and at k = n the lower end p^n = α/2."""
    from scipy.stats import binom

    from simulations.stats import clopper_pearson
    share, lo, hi = clopper_pearson(8, 10)
    assert share == 0.8
    assert binom.sf(7, 10, lo) == pytest.approx(0.025, rel=1e-9) and binom.cdf(8, 10, hi) == pytest.approx(0.025, rel=1e-9)
    assert clopper_pearson(0, 20)[1:] == (0.0, pytest.approx(1 - 0.025 ** (1 / 20), rel=1e-12))
    assert clopper_pearson(20, 20)[1:] == (pytest.approx(0.025 ** (1 / 20), rel=1e-12), 1.0)
    # a tiny tail: the upper end at confidence 1 - 2e-12 keeps its relative accuracy
    assert binom.cdf(3, 50, clopper_pearson(3, 50, confidence=1 - 2e-12)[2]) == pytest.approx(1e-12, rel=1e-6)
    for bad in ((11, 10), (-1, 10), (1, 0)):
        with pytest.raises(ValueError):
            clopper_pearson(*bad)
