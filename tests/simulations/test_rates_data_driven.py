"""The data-driven choice of h (issue 23 goal 3): privatized hold-out risks, private selection, laws, smoke run.

Expected values are exact: channel enumeration (vector mechanism), quadrature of the Laplace density,
mpmath for the selection's probabilities, Fractions for sensitivities, independent quadrature of the
laws' cell integrals.
"""

from __future__ import annotations

import csv
import itertools
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from scipy import integrate

import simulations.experiments  # noqa: F401  (registers the experiments)
from simulations.estimators.line_knn import LineIndex
from simulations.estimators.line_knn_path import LineKNNPath, line_knn_means
from simulations.estimators.private_selection import (ZERO_ONE_SENSITIVITY, SelectionBudget,
                                                      clipped_squared_loss_sensitivity, debiased_squared_risk,
                                                      debiased_zero_one_risk, exponential_selection,
                                                      selection_log_probabilities)
from simulations.experiments.rates.data_driven import (CASES, FineTable, central_ratio_bound, grid_points,
                                                       paired_bootstrap, trial)
from simulations.laws.benchmarks import AdditiveRegression, UniformNoise
from simulations.laws.smooth import SignLabelRegression, SineClassification, abs_sine_antiderivative
from simulations.mechanisms import LaplaceLabels, VectorMechanism
from simulations.mechanisms.vector import output_bits


# --------------------------------------------------------- local: unbiased hold-out risk estimates
@pytest.mark.parametrize("K", [2, 3])
@pytest.mark.parametrize("epsilon", [2 * math.log(3.0), 0.3])
def test_debiased_zero_one_risk_is_unbiased_over_the_vector_channel(K, epsilon):
    """For two hold-out points in one group, the expectation of the estimate over the product channel
    (enumerated with the channel matrix: 4^K outcomes) equals the 0-1 risk of the prediction, exactly."""
    mech = VectorMechanism(num_classes=K, epsilon=epsilon)
    P = mech.channel_matrix()  # (K, 2^K), column c = bits (c >> j) & 1
    bits = output_bits(K)  # (2^K, K)
    for y1, y2, c in itertools.product(range(K), range(K), range(K)):
        expectation = 0.0
        for z1, z2 in itertools.product(range(2 ** K), repeat=2):
            S = (bits[z1] + bits[z2]).astype(np.int64)[None, :]
            expectation += P[y1, z1] * P[y2, z2] * debiased_zero_one_risk(S, [2], [c], mech)
        assert expectation == pytest.approx(((y1 != c) + (y2 != c)) / 2, abs=1e-12)


def test_debiased_zero_one_risk_groups_are_sums_of_points():
    """The count-level estimate (cells of several points) equals the mean of the per-point estimates."""
    mech = VectorMechanism(num_classes=2, epsilon=1.0)
    rng = np.random.default_rng(0)
    Z = rng.integers(0, 2, size=(12, 2))
    cells = np.array([0, 0, 1, 2, 2, 2, 1, 0, 3, 3, 1, 2])
    pred = np.array([1, 0, 0, 1])
    per_point = np.mean([debiased_zero_one_risk(Z[i:i + 1], [1], [pred[cells[i]]], mech) for i in range(12)])
    S = np.stack([Z[cells == g].sum(axis=0) for g in range(4)])
    assert debiased_zero_one_risk(S, np.bincount(cells), pred, mech) == pytest.approx(per_point, abs=1e-12)


@pytest.mark.parametrize("p, y", [(0.0, 1.0), (0.7, -1.0), (-1.3, 0.4)])
def test_debiased_squared_risk_is_unbiased_over_the_laplace_density(p, y):
    """``E[(p − Z)²] − 2s² = (p − y)²``: the expectation by quadrature of the mechanism's own density."""
    mech = LaplaceLabels(T=1.0, epsilon=0.8)  # s = 2.5
    dens = lambda z: math.exp(float(mech.log_density(z, y)))
    second = sum(integrate.quad(lambda z: (p - z) ** 2 * dens(z), a, b, epsabs=1e-12, epsrel=1e-12)[0]
                 for a, b in ((-np.inf, y), (y, np.inf)))
    assert second - 2.0 * mech.scale ** 2 == pytest.approx((p - y) ** 2, abs=1e-8)
    # the implementation's arithmetic: one point gives (p − z)² − 2s²
    assert debiased_squared_risk([p], [y + 1.5], mech) == pytest.approx((p - y - 1.5) ** 2 - 2 * mech.scale ** 2)


# ---------------------------------------------------------------- central: the private selection
def _losses(preds, y):
    return [sum(int(pi != yi) for pi, yi in zip(pred, y)) for pred in preds]


def test_selection_probabilities_match_an_independent_mpmath_formula():
    losses = [3.0, 0.0, 7.5, 1.0]
    lp = selection_log_probabilities(losses, epsilon=0.7, sensitivity=4.0)
    with mpmath.workdps(40):
        w = [mpmath.exp(-mpmath.mpf("0.7") * mpmath.mpf(L) / 8) for L in losses]
        ref = [float(mpmath.log(x / sum(w))) for x in w]
    assert np.allclose(lp, ref, atol=1e-14, rtol=0)


@pytest.mark.parametrize("epsilon", [0.5, 2.0])
def test_exponential_selection_on_zero_one_losses_is_epsilon_label_dp_exactly(epsilon):
    """Every hold-out label vector of 3 binary labels against every neighbour (one label replaced), three
    fixed candidates: the exact worst log-ratio of selection probabilities (mpmath) is at most ε and more
    than ε/2; with the sensitivity halved (a planted bug) it exceeds ε."""
    preds = [(0, 0, 0), (1, 1, 1), (0, 1, 0)]

    def worst(sensitivity):
        out = mpmath.mpf(0)
        with mpmath.workdps(30):
            for y in itertools.product((0, 1), repeat=3):
                for i in range(3):
                    y2 = list(y)
                    y2[i] = 1 - y2[i]
                    for L, L2 in ((_losses(preds, y), _losses(preds, y2)),):
                        s = mpmath.mpf(epsilon) / (2 * sensitivity)
                        w = [mpmath.exp(-s * v) for v in L]
                        w2 = [mpmath.exp(-s * v) for v in L2]
                        for j in range(3):
                            out = max(out, abs(mpmath.log(w[j] / sum(w)) - mpmath.log(w2[j] / sum(w2))))
        return float(out)

    assert epsilon / 2 < worst(ZERO_ONE_SENSITIVITY) <= epsilon + 1e-12
    assert worst(ZERO_ONE_SENSITIVITY / 2) > epsilon  # planted bug: the loss scale doubled
    # and the implementation's own log-probabilities reproduce the mpmath ratios
    y, y2 = (0, 0, 0), (1, 0, 0)
    a = selection_log_probabilities(_losses(preds, y), epsilon=epsilon, sensitivity=ZERO_ONE_SENSITIVITY)
    b = selection_log_probabilities(_losses(preds, y2), epsilon=epsilon, sensitivity=ZERO_ONE_SENSITIVITY)
    assert np.max(np.abs(a - b)) <= epsilon + 1e-12


def test_clipped_squared_loss_sensitivity_is_exact_by_enumeration():
    """max |(p − y)² − (p − y')²| over p, y, y' in [−T, T] (a grid containing the extremes) is 4T², attained."""
    T = Fraction(3, 2)
    grid = [T * Fraction(k, 4) for k in range(-4, 5)]
    worst = max(abs((p - y) ** 2 - (p - y2) ** 2) for p in grid for y in grid for y2 in grid)
    assert worst == 4 * T * T == Fraction(clipped_squared_loss_sensitivity(1.5)).limit_denominator()


def test_exponential_selection_draws_from_its_probabilities():
    """Fixed seed, 3000 draws: chi-square goodness of fit at the 0.001 level (stated confidence)."""
    from scipy import stats

    losses = [2.0, 0.0, 1.0]
    p = np.exp(selection_log_probabilities(losses, epsilon=1.0, sensitivity=1.0))
    rng = np.random.default_rng(11)
    draws = np.bincount([exponential_selection(losses, epsilon=1.0, sensitivity=1.0, rng=rng) for _ in range(3000)],
                        minlength=3)
    assert stats.chisquare(draws, 3000 * p).pvalue > 1e-3


@pytest.mark.parametrize("m", [1, 3, 13])
def test_selection_budget_accounts_by_basic_composition(m):
    b = SelectionBudget(epsilon=0.3, n_candidates=m)
    assert b.epsilon_select == pytest.approx(0.15)
    assert b.epsilon_per_candidate == pytest.approx(0.15 / m)
    assert b.basic_composition_epsilon == pytest.approx(0.3, abs=1e-15)
    assert b.parallel_epsilon == pytest.approx(0.15)
    c = SelectionBudget(epsilon=1.0, n_candidates=m, select_share=0.25)
    assert c.epsilon_fit + c.epsilon_select == pytest.approx(1.0) and c.parallel_epsilon == pytest.approx(0.75)


def test_central_ratio_bound_follows_the_accounting():
    cc = next(c for c in CASES if c.algorithm == "central_classification")
    assert central_ratio_bound(cc, 12) == pytest.approx(2 * (24 / 0.8) ** cc.exponent())


# ------------------------------------------------------------------------------------- guards
@pytest.mark.parametrize("call", [
    lambda: SelectionBudget(epsilon=0.0, n_candidates=2),
    lambda: SelectionBudget(epsilon=1.0, n_candidates=0),
    lambda: SelectionBudget(epsilon=1.0, n_candidates=2, select_share=1.0),
    lambda: selection_log_probabilities([], epsilon=1.0, sensitivity=1.0),
    lambda: selection_log_probabilities([1.0, np.nan], epsilon=1.0, sensitivity=1.0),
    lambda: selection_log_probabilities([1.0], epsilon=-1.0, sensitivity=1.0),
    lambda: selection_log_probabilities([1.0], epsilon=1.0, sensitivity=0.0),
    lambda: exponential_selection([1.0], epsilon=1.0, sensitivity=1.0, rng=None),
    lambda: clipped_squared_loss_sensitivity(0.0),
    lambda: debiased_zero_one_risk([[1, 0]], [1], [0], LaplaceLabels(T=1.0, epsilon=1.0)),
    lambda: debiased_zero_one_risk([[1, 0, 0]], [1], [0], VectorMechanism(num_classes=2, epsilon=1.0)),
    lambda: debiased_zero_one_risk([[2, 0]], [1], [0], VectorMechanism(num_classes=2, epsilon=1.0)),
    lambda: debiased_zero_one_risk([[1, 0]], [1], [2], VectorMechanism(num_classes=2, epsilon=1.0)),
    lambda: debiased_zero_one_risk([[0, 0]], [0], [0], VectorMechanism(num_classes=2, epsilon=1.0)),
    lambda: debiased_squared_risk([0.0], [0.0, 1.0], LaplaceLabels(T=1.0, epsilon=1.0)),
    lambda: debiased_squared_risk([np.inf], [0.0], LaplaceLabels(T=1.0, epsilon=1.0)),
    lambda: debiased_squared_risk([0.0], [0.0], VectorMechanism(num_classes=2, epsilon=1.0)),
    lambda: line_knn_means([0.1, 0.2], [1.0, 2.0], [0.5], [3]),
    lambda: line_knn_means([0.1, 0.2], [1.0, 2.0], [0.5], [0]),
    lambda: line_knn_means([0.1, np.nan], [1.0, 2.0], [0.5], [1]),
    lambda: line_knn_means([0.1, 0.2], [1.0], [0.5], [1]),
    lambda: LineKNNPath.from_sorted([], []),
    lambda: SineClassification(d=1, amplitude=1.5),
    lambda: SignLabelRegression(AdditiveRegression(d=1, beta=0.5, noise=UniformNoise(0.0), amplitude=0.5)),
])
def test_bad_input_raises_value_error(call):
    with pytest.raises(ValueError):
        call()


# -------------------------------------------------------------------------- kNN path, fine grids
def test_line_knn_means_match_the_nearest_first_walk():
    """Both kernels (sweep for many queries, binary search for few) against LineIndex's walk."""
    rng = np.random.default_rng(5)
    X, v = rng.random(1000), rng.normal(size=1000)
    ks = np.array([1, 2, 17, 400, 1000])
    for Q in (rng.random(400), np.array([0.0, 0.37, 1.0, -0.5, 2.0])):
        ref = np.stack([LineIndex(X[:, None]).neighbour_mean(Q[:, None], int(k), v) for k in ks], axis=1)
        assert np.max(np.abs(line_knn_means(X, v, Q, ks) - ref)) < 1e-12
    order = np.argsort(X)
    assert np.array_equal(LineKNNPath.from_sorted(X[order], v[order]).means(Q, ks), line_knn_means(X, v, Q, ks))


@pytest.mark.parametrize("d, fine, bins", [(1, 12, 3), (1, 12, 1), (2, 12, 4), (3, 6, 2)])
def test_fine_table_coarsening_matches_a_reshape_sum(d, fine, bins):
    t = np.random.default_rng(d).integers(0, 9, size=(fine ** d, 2))
    r, shape = fine // bins, []
    for _ in range(d):
        shape += [bins, r]
    ref = t.reshape(*shape, 2).sum(axis=tuple(range(1, 2 * d, 2))).reshape(bins ** d, 2)
    assert np.array_equal(FineTable(t, fine, d).coarse(bins), ref)


# ----------------------------------------------------------------------------------- the laws
def test_sine_law_cell_integrals_and_bayes_risk_by_quadrature():
    law = SineClassification(d=2)
    w, A = 2 * math.pi * law.frequency, law.amplitude
    eta1 = lambda t: (1 + A * math.sin(w * t + law.phase)) / 2
    bins = 5
    masses, bayes = law.cell_class_mass(bins), law.cell_bayes_mass(bins)
    kinks = [(k * math.pi - law.phase) / w for k in range(0, 20)]  # zeros of the sine: kinks of max(η0, η1)
    for i in range(bins):  # x_1 slab i, any x_2 cell (η depends on x_1 only): cell index i * bins + j
        lo, hi = i / bins, (i + 1) / bins
        inner = [k for k in kinks if lo < k < hi] or None
        m1 = integrate.quad(eta1, lo, hi, epsabs=1e-14)[0] / bins
        mb = integrate.quad(lambda t: max(eta1(t), 1 - eta1(t)), lo, hi, epsabs=1e-14, points=inner)[0] / bins
        assert masses[i * bins + 3, 1] == pytest.approx(m1, abs=1e-12)
        assert bayes[i * bins + 3] == pytest.approx(mb, abs=1e-12)
    r = 1 - integrate.quad(lambda t: max(eta1(t), 1 - eta1(t)), 0, 1, epsabs=1e-14,
                           points=[k for k in kinks if 0 < k < 1])[0]
    assert law.bayes_risk() == pytest.approx(r, abs=1e-12)
    assert float(abs_sine_antiderivative(7.0)) == pytest.approx(integrate.quad(lambda s: abs(math.sin(s)), 0, 7)[0])


def test_sine_law_margin_condition_gamma_one():
    """Exact P(A|sin| < t) against the measure on a fine midpoint grid, and P <= C_T t (γ = 1)."""
    law = SineClassification(d=1)
    x = (np.arange(400000) + 0.5) / 400000
    margin = law.amplitude * np.abs(np.sin(2 * np.pi * law.frequency * x + law.phase))
    t = np.array([1e-3, 1e-2, 0.1, 0.5])
    assert np.allclose(law.margin_probability(t), [(margin < s).mean() for s in t], atol=2e-5)
    ratio = law.margin_probability(np.geomspace(1e-6, 0.5, 30)) / np.geomspace(1e-6, 0.5, 30)
    assert ratio.max() < 2 * 2 * law.frequency / (math.pi * law.amplitude) * 1.5  # zeros × 2/(2πνA), slack 1.5


def test_sign_label_regression_masses_and_bayes_risk():
    base = AdditiveRegression(d=1, beta=0.5, noise=UniformNoise(0.0), amplitude=0.25)
    law = SignLabelRegression(base)
    masses, values = law.cell_label_masses(16)
    mean, _ = base.cell_moments(16)
    assert masses.sum() == pytest.approx(1.0, abs=1e-12)
    assert np.allclose((masses @ values) * 16, mean, atol=1e-12)  # E[Y | cell] = mean of η over the cell
    x = (np.arange(200000) + 0.5) / 200000
    assert law.bayes_risk() == pytest.approx(1 - np.mean(base.eta(x[:, None]) ** 2), abs=1e-6)


# ------------------------------------------------------------------------------ trials and fits
def test_trial_is_a_pure_function_of_config_trial_and_seed():
    for case in CASES:
        pt = grid_points(case, "smoke")[0]
        a, b = trial(pt, 3, 11), trial(pt, 3, 11)
        assert a == b and set(a) == {"data_driven", "pinned", "oracle", "chosen_h", "oracle_h", "estimate_error"}
        assert a["data_driven"] >= 0 and a["oracle"] <= a["data_driven"] + 1e-12 or case.privacy == "central"


def test_paired_bootstrap_recovers_a_known_slope_difference():
    """a = 3 N^-0.5, b = N^-0.8 with 2% noise: difference 0.3 and log ratio ln(3 N^0.3) at the largest N."""
    rng = np.random.default_rng(2)
    N = np.array([1e3, 1e4, 1e5])
    a = [3 * n ** -0.5 * (1 + 0.02 * rng.standard_normal(50)) for n in N]
    b = [n ** -0.8 * (1 + 0.02 * rng.standard_normal(50)) for n in N]
    (d, lo, hi), (r, rlo, rhi) = paired_bootstrap(N, a, b, rng=np.random.default_rng(0), n_boot=500)
    assert lo < 0.3 < hi and hi - lo < 0.02 and d == pytest.approx(0.3, abs=0.01)
    assert rlo < math.log(3 * 1e5 ** 0.3) < rhi


# ---------------------------------------------------------------------------------- smoke run
def test_smoke_run_claims_are_well_formed(smoke_run):
    run = smoke_run("rates_data_driven")
    record = run.record
    claims = record["claims"]
    assert len(claims) == 3 * len(CASES) + 1  # three per task, and 003's printed central-regression exponent
    for c in claims:
        assert c["verdict"] in ("holds", "fails", "inconclusive")
        assert c["holds"] == {"holds": True, "fails": False, "inconclusive": None}[c["verdict"]]
        assert isinstance(c["expected"], float) and math.isfinite(c["expected"]), c
        assert isinstance(c["measured"], float) and math.isfinite(c["measured"]), c
        assert c["detail"]
    assert record["figures"] and all((run.folder / f).exists() for f in record["figures"] + record["tables"])
    with open(run.folder / "risk_vs_N.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert {r["line"] for r in rows} == {"data_driven", "pinned", "oracle"}
    assert {r["case"] for r in rows} == {c.name for c in CASES}
    assert all(float(r["mean"]) >= 0 for r in rows)
