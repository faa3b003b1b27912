"""Count-level exact simulator (simulations.estimators.count_level) against the point-level path.

Expected values are obtained independently of the code under test:

* exact enumeration: the law of the fitted cell values for N = 2-4 points on 2 cells, computed by
  enumerating every sequence of per-point outcomes (cell, label, mechanism output) with
  probabilities from numerical quadrature of ``law.eta`` (scipy ``quad``, not the law's closed-form
  cell integrals) and the mechanisms' defining formulas (003 eqs. (12), (17), (23), (28)); both
  simulators are then tested against it by chi-square / Kolmogorov-Smirnov goodness of fit;
* two-sample Kolmogorov-Smirnov tests of the excess-risk distributions of the two simulators on
  small cases of every partition estimator, with a negative control (the same test applied to a
  count-level simulator with a perturbed ε must reject) that shows the tests have power.

All at fixed seeds. Thresholds: p-values > 1e-4 for "agree" (a false alarm rate 1e-4 per test),
p < 1e-6 for the negative controls.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import integrate, stats

from simulations.estimators import (BinMajorityClassifier, BinMeanRegressor, ExponentialBinClassifier,
                                    LaplaceBinMeanRegressor, VectorBinClassifier)
from simulations.estimators.count_level import (cell_label_law, draw_cell_counts, fit_count_level, fit_from_counts,
                                                laplace_sum, randomized_response_counts, vector_mechanism_sums)
from simulations.laws import BumpClassification, BumpRegression, ThreePointRegression
from simulations.laws.holder_tsybakov import BumpField
from simulations.mechanisms import VectorMechanism


def _cls_law(K=2, rho=0.0):
    f = BumpField(d=1, g=2, beta=1.0, signs=np.array([1, -1]), amplitude=1.6)
    return BumpClassification(field=f, num_classes=K, rho=rho)


def _quad_masses_cls(law, bins=2):
    """P(X in cell l, Y = j) by quadrature of law.eta (independent of cell_class_mass)."""
    out = np.empty((bins, law.num_classes))
    for l in range(bins):
        for j in range(law.num_classes):
            out[l, j] = integrate.quad(lambda x: law.eta(np.array([[x]]))[0, j], l / bins, (l + 1) / bins,
                                       points=[l / bins + 0.125, l / bins + 0.25, l / bins + 0.375], limit=200)[0]
    return out


def _argmax_uniform(scores):
    """Distribution of the argmax with uniform tie-breaking: dict class -> probability."""
    m = max(scores)
    tied = [j for j, s in enumerate(scores) if s == m]
    return {j: 1.0 / len(tied) for j in tied}


def _exact_cls_pmf(law, N, mechanism, epsilon):
    """Exact pmf of (c_0, c_1) for 2 cells by enumeration of every point sequence."""
    K = law.num_classes
    masses = _quad_masses_cls(law)
    outcomes = [(l, j) for l in range(2) for j in range(K)]
    pmf = {}
    if mechanism == "vector":
        a = math.exp(epsilon / 2) / (1 + math.exp(epsilon / 2))
        b = 1 - a
        zs = list(itertools.product((0, 1), repeat=K))
        per_point = [((l, j, z), masses[l, j] * np.prod([(a if z[i] else 1 - a) if i == j else (b if z[i] else 1 - b)
                                                         for i in range(K)]))
                     for (l, j) in outcomes for z in zs]
        for seq in itertools.product(per_point, repeat=N):
            prob = np.prod([q for _, q in seq])
            S = np.zeros((2, K), dtype=int)
            for (l, _, z), _ in seq:
                S[l] += z
            d0, d1 = _argmax_uniform(list(S[0])), _argmax_uniform(list(S[1]))
            for c0, p0 in d0.items():
                for c1, p1 in d1.items():
                    pmf[(c0, c1)] = pmf.get((c0, c1), 0.0) + prob * p0 * p1
        return pmf
    for seq in itertools.product(outcomes, repeat=N):
        prob = np.prod([masses[l, j] for l, j in seq])
        n = np.zeros((2, K), dtype=int)
        for l, j in seq:
            n[l, j] += 1
        dists = []
        for l in range(2):
            if mechanism == "exponential":
                w = np.exp(epsilon * n[l] / 2.0)
                dists.append({j: w[j] / w.sum() for j in range(K)})
            else:
                dists.append(_argmax_uniform(list(n[l])))
        for c0, p0 in dists[0].items():
            for c1, p1 in dists[1].items():
                pmf[(c0, c1)] = pmf.get((c0, c1), 0.0) + prob * p0 * p1
    return pmf


def _gof_pvalue(samples, pmf):
    keys = sorted(pmf)
    obs = np.array([sum(1 for s in samples if s == k) for k in keys], float)
    exp = np.array([pmf[k] for k in keys]) * len(samples)
    assert obs.sum() == len(samples), "a sample fell outside the enumerated support"
    keep = exp > 5  # pool the rare cells
    o = np.append(obs[keep], obs[~keep].sum())
    e = np.append(exp[keep], exp[~keep].sum())
    if e[-1] == 0:
        o, e = o[:-1], e[:-1]
    return stats.chisquare(o, e).pvalue


CLS_CASES = [
    ("vector", VectorBinClassifier, dict(num_classes=2, epsilon=1.0), 2, 0.0, 3),
    ("vector", VectorBinClassifier, dict(num_classes=3, epsilon=2.0), 3, 0.3, 2),
    ("exponential", ExponentialBinClassifier, dict(num_classes=2, epsilon=1.5), 2, 0.0, 4),
    ("exponential", ExponentialBinClassifier, dict(num_classes=3, epsilon=1.0), 3, 0.3, 3),
    ("majority", BinMajorityClassifier, dict(num_classes=3), 3, 0.3, 3),
]


@pytest.mark.parametrize("mech,cls,kw,K,rho,N", CLS_CASES, ids=[f"{c[0]}-K{c[3]}-N{c[5]}" for c in CLS_CASES])
def test_classifier_cell_values_match_exact_enumeration(mech, cls, kw, K, rho, N):
    law = _cls_law(K, rho)
    pmf = _exact_cls_pmf(law, N, mech, kw.get("epsilon"))
    assert sum(pmf.values()) == pytest.approx(1.0, abs=1e-9)
    rng = np.random.default_rng(2026)
    count = [tuple(fit_count_level(cls(h=0.5, **kw), law, N, rng, rng).cell_values_) for _ in range(8000)]
    point = []
    for _ in range(2000):
        X, Y = law.sample(N, rng)
        point.append(tuple(cls(h=0.5, random_state=rng, **kw).fit(X, Y).cell_values_))
    assert _gof_pvalue(count, pmf) > 1e-4
    assert _gof_pvalue(point, pmf) > 1e-4


def _exact_value_cdf(law, N, T_clip, epsilon, cell):
    """Exact CDF of the fitted value of ``cell`` (2 cells): enumerate the multinomial count table
    (quadrature masses), Laplace(2T/(n ε)) around the clipped mean; 0 for an empty cell."""
    masses = np.empty((2, 3))
    for l in range(2):
        for m, sgn in enumerate((-1, 0, 1)):
            def dens(x, sgn=sgn):
                pl, p0, mi = law.probabilities(law.eta(np.array([[x]])))
                return float({-1: mi, 0: p0, 1: pl}[sgn][0])
            masses[l, m] = integrate.quad(dens, l / 2, (l + 1) / 2, points=[l / 2 + 0.125, l / 2 + 0.25, l / 2 + 0.375],
                                          limit=200)[0]
    vals = np.clip(np.array([-law.T, 0.0, law.T]), -T_clip, T_clip)
    flat = masses.ravel()
    comps = []  # (probability, mean, scale or None for the atom at 0 of an empty cell)
    for seq in itertools.product(range(6), repeat=N):
        prob = np.prod(flat[list(seq)])
        n = np.bincount(seq, minlength=6).reshape(2, 3)[cell]
        if n.sum() == 0:
            comps.append((prob, 0.0, None))
        else:
            comps.append((prob, float(n @ vals) / n.sum(), 2 * T_clip / (n.sum() * epsilon)))

    atom = sum(prob for prob, _, b in comps if b is None)

    def cdf_nonempty(t):  # CDF of the value given a non-empty cell (continuous: KS applies exactly)
        t = np.asarray(t, float)
        out = np.zeros_like(t)
        for prob, mu, b in comps:
            if b is not None:
                out += prob * stats.laplace.cdf(t, mu, b)
        return out / (1.0 - atom)
    return atom, cdf_nonempty


def test_clipped_laplace_bin_mean_matches_exact_enumeration():
    f = BumpField(d=1, g=2, beta=1.0, signs=np.array([1, -1]), amplitude=1.6)
    law = ThreePointRegression(field=f, p=4.0, M_p=4.0, T=1.5)
    eps, Tc, N = 0.8, 1.2, 4
    rng = np.random.default_rng(7)
    count = np.array([fit_count_level(LaplaceBinMeanRegressor(h=0.5, epsilon=eps, T=Tc, clip=True), law, N, rng,
                                      rng).cell_values_ for _ in range(8000)])
    point = []
    for _ in range(2000):
        X, Y = law.sample(N, rng)
        point.append(LaplaceBinMeanRegressor(h=0.5, epsilon=eps, T=Tc, clip=True, random_state=rng).fit(X, Y).cell_values_)
    point = np.array(point)
    for cell in (0, 1):
        atom, cdf = _exact_value_cdf(law, N, Tc, eps, cell)
        assert atom == pytest.approx(0.5 ** N, rel=1e-9)  # an empty cell releases exactly 0
        for sample in (count[:, cell], point[:, cell]):
            zero = sample == 0.0
            assert stats.binomtest(int(zero.sum()), zero.size, atom).pvalue > 1e-4
            assert stats.kstest(sample[~zero], cdf).pvalue > 1e-4


# ---------------------------------------------------------------------- two-sample tests, all estimators
def _bump_cls(d, g, K, rng):
    return BumpClassification.lower_bound(d=d, h=1.0 / g, beta=1.0, gamma=1.0, rng=rng, C_M=2.0, num_classes=K,
                                          rho=0.2 if K > 2 else 0.0)


TWO_SAMPLE = [
    # (id, law factory, estimator factory, N)
    ("vector-thm2", lambda r: _bump_cls(2, 3, 3, r), lambda e: VectorBinClassifier(num_classes=3, epsilon=e, h=1 / 3), 300),
    ("exponential-thm4", lambda r: _bump_cls(1, 4, 2, r), lambda e: ExponentialBinClassifier(num_classes=2, epsilon=e, h=0.25), 200),
    ("majority", lambda r: _bump_cls(1, 5, 2, r), lambda e: BinMajorityClassifier(num_classes=2, h=0.2), 150),
    ("binmean", lambda r: BumpRegression.lower_bound(d=1, h=0.2, beta=1.0, rng=r), lambda e: BinMeanRegressor(h=0.2), 100),
    ("laplace-thm8", lambda r: BumpRegression.lower_bound(d=2, h=1 / 3, beta=0.5, rng=r),
     lambda e: LaplaceBinMeanRegressor(h=1 / 3, epsilon=e, T=1.0), 200),
    ("clipped-thm12", lambda r: ThreePointRegression.lower_bound(d=1, h=0.25, beta=1.0, p=4.0, M_p=4.0, rng=r),
     lambda e: LaplaceBinMeanRegressor(h=0.25, epsilon=e, T=1.0, clip=True), 300),
]


@pytest.mark.parametrize("name,make_law,make_est,N", TWO_SAMPLE, ids=[c[0] for c in TWO_SAMPLE])
def test_two_simulators_have_the_same_risk_distribution(name, make_law, make_est, N):
    """KS two-sample, 1500 vs 1500 excess risks at a fixed law, α = 1e-4: critical value
    c(α)·sqrt(2/1500) = 0.081 with c(α) = sqrt(−ln(α/2)/2) = 2.23, so a sup-CDF difference of 0.12 or
    more is detected with power > 0.9 (the statistic's null spread is ≈ 0.02). The negative control
    shows the statistic does move for a wrong simulator (ε / 4, or N / 2 for the baselines)."""
    law = make_law(np.random.default_rng(11))
    eps = 0.7
    rng = np.random.default_rng(12)
    n = 1500
    count, point, wrong = [], [], []
    for _ in range(n):
        est = fit_count_level(make_est(eps), law, N, rng, rng)
        count.append(law.excess_risk_partition(est.cell_values_, est.bins_))
        X, Y = law.sample(N, rng)
        est = make_est(eps).set_params(random_state=rng).fit(X, Y)
        point.append(law.excess_risk_partition(est.cell_values_, est.bins_))
    assert stats.ks_2samp(count, point).pvalue > 1e-4
    if name in ("majority", "binmean"):  # no ε: the negative control halves N
        for _ in range(n):
            est = fit_count_level(make_est(eps), law, N // 2, rng, rng)
            wrong.append(law.excess_risk_partition(est.cell_values_, est.bins_))
    else:
        for _ in range(n):
            est = fit_count_level(make_est(eps / 4.0), law, N, rng, rng)
            wrong.append(law.excess_risk_partition(est.cell_values_, est.bins_))
    assert stats.ks_2samp(wrong, point).pvalue < 1e-6


# ----------------------------------------------------------------------------- per-point mechanisms
def test_vector_sums_match_point_level_bits():
    mech = VectorMechanism(num_classes=3, epsilon=1.0)
    counts = np.array([[3, 1, 0], [0, 2, 5]])
    labels = np.repeat(np.tile(np.arange(3), 2), counts.ravel())
    cell = np.repeat(np.repeat(np.arange(2), 3), counts.ravel())
    rng = np.random.default_rng(3)
    draws = np.array([vector_mechanism_sums(counts, mech, rng) for _ in range(4000)])
    ref = []
    for _ in range(4000):
        Z = mech.sample(labels, rng).astype(int)
        ref.append(np.stack([Z[cell == l].sum(axis=0) for l in range(2)]))
    ref = np.array(ref)
    a, b = mech.flip_probabilities()
    mean = counts * a + (counts.sum(axis=1, keepdims=True) - counts) * b  # eq. (12) by hand
    assert np.allclose(draws.mean(axis=0), mean, atol=5 * np.sqrt(7 * 0.25 / 4000))
    for l, j in itertools.product(range(2), range(3)):
        obs = np.bincount(draws[:, l, j], minlength=8)
        exp = np.bincount(ref[:, l, j], minlength=8)
        assert stats.chi2_contingency(np.stack([obs, exp])[:, (obs + exp) > 0]).pvalue > 1e-4


def test_randomized_response_counts_match_per_label_draws():
    C = np.array([[0.7, 0.2, 0.1], [0.1, 0.6, 0.3]])
    counts = np.array([[4, 2], [0, 3]])
    rng = np.random.default_rng(4)
    draws = np.array([randomized_response_counts(counts, C, rng) for _ in range(5000)])
    assert np.all(draws.sum(axis=2) == counts.sum(axis=1))  # every point gets one output
    ref = []
    for _ in range(5000):
        out = np.zeros((2, 3), int)
        for l in range(2):
            for y in range(2):
                z = rng.choice(3, size=counts[l, y], p=C[y])
                out[l] += np.bincount(z, minlength=3)
        ref.append(out)
    ref = np.array(ref)
    for l, j in itertools.product(range(2), range(3)):
        obs, exp = np.bincount(draws[:, l, j], minlength=7), np.bincount(ref[:, l, j], minlength=7)
        assert stats.chi2_contingency(np.stack([obs, exp])[:, (obs + exp) > 0]).pvalue > 1e-4


def test_laplace_sum_is_exact_and_not_laplace():
    rng = np.random.default_rng(5)
    n, b = 4, 0.5
    s = laplace_sum(np.full(20000, n), b, rng)
    direct = rng.laplace(0.0, b, size=(20000, n)).sum(axis=1)
    assert stats.ks_2samp(s, direct).pvalue > 1e-4
    # a single Laplace with the same variance 2 n b^2 is a different law (lighter tails of the sum)
    single = rng.laplace(0.0, b * math.sqrt(n), size=20000)
    assert stats.ks_2samp(s, single).pvalue < 1e-6
    assert np.all(laplace_sum(np.zeros(3, int), b, rng) == 0.0)


def test_count_table_is_multinomial_with_the_law_masses():
    law = _cls_law(2)
    masses, values = cell_label_law(law, 2)
    assert values is None and np.allclose(masses, _quad_masses_cls(law), atol=1e-10)
    reg = BumpRegression(field=BumpField(d=1, g=2, beta=1.0, signs=np.array([1, -1]), amplitude=1.6))
    m, v = cell_label_law(reg, 2)
    assert list(v) == [-1.0, 1.0]
    q = integrate.quad(lambda x: (1 + reg.eta(np.array([[x]]))[0]) / 2, 0, 0.5, points=[0.125, 0.25, 0.375])[0]
    assert m[0, 1] == pytest.approx(q, abs=1e-10)
    c = draw_cell_counts(masses, 10 ** 10, np.random.default_rng(0))
    assert c.sum() == 10 ** 10 and c.dtype == np.int64
    # each count is Binomial(N, P): within 6 sd
    assert np.all(np.abs(c - 1e10 * masses) < 6 * np.sqrt(1e10 * masses * (1 - masses)))


def test_count_level_cost_is_independent_of_N():
    law = BumpRegression.lower_bound(d=1, h=0.01, beta=1.0, rng=np.random.default_rng(0))
    est = fit_count_level(LaplaceBinMeanRegressor(h=0.01, epsilon=1e-4, T=1.0), law, 10 ** 10,
                          np.random.default_rng(1), np.random.default_rng(2))
    assert est.counts_.sum() == 10 ** 10 and est.cell_values_.shape == (100,)
    assert law.excess_risk_partition(est.cell_values_, est.bins_) < 1e-2


# ----------------------------------------------------------------------------------------- bad input
def test_bad_input_names_argument_and_value():
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match=r"cell_probabilities must sum to 1, got sum=0\.9"):
        draw_cell_counts(np.array([[0.5, 0.4]]), 10, rng)
    with pytest.raises(ValueError, match=r"counts must be >= 0.*-1"):
        fit_from_counts(BinMajorityClassifier(num_classes=2, h=0.5), np.array([[1, -1], [2, 0]]), rng, d=1)
    with pytest.raises(ValueError, match=r"counts must be >= 0.*-2"):
        vector_mechanism_sums(np.array([[1, -2]]), VectorMechanism(num_classes=2, epsilon=1.0), rng)
    for h in (0.0, 1.5, -0.1):
        with pytest.raises(ValueError, match=rf"h must be .*got h={h}"):
            fit_count_level(BinMeanRegressor(h=h), BumpRegression.lower_bound(d=1, h=0.5, beta=1.0, rng=rng), 10,
                            rng, rng)
    with pytest.raises(ValueError, match=r"N must be an integer >= 0, got N=-5"):
        draw_cell_counts(np.array([[0.5, 0.5]]), -5, rng)
