"""The rate experiments on the count-level path: equality with the point-level trial, the three risk
terms, the aligned-grid geometry, bad input, and verdicts that do not change with the seed.

Expected values: the point-level trial (an independent simulator: N points sampled and binned), the
closed-form within-cell variance of the bump (``h^{2β}(‖φ‖₂² − ‖φ‖₁²)`` per unit volume, 003 eq. (121)),
and the quadrature of :func:`simulations.laws.holder_tsybakov.bump_box_integrals`.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

import simulations.laws.holder_tsybakov as H
from simulations.experiments import RunContext
from simulations.experiments.rates import classification as rates_classification
from simulations.experiments.rates import heavy_tailed as rates_heavy_tailed
from simulations.experiments.rates import regression as rates_regression
from simulations.experiments.rates.machinery import (PROFILES, RateCase, RatePoint, case_trials, construction, estimator,
                                           fit_case, fixed_bump_count, grid_for_case, predicted_terms, rate_trial,
                                           rate_trial_point_level, run_rate_grids, tuned_scale)
from simulations.experiments.rates.terms import TERMS, count_level_terms, expected_terms

SMALL = [
    RatePoint(algorithm="local_classification", d=1, beta=1.0, eps=1.0, N=300, g=5, gamma=1.0, C_M=2.0),
    RatePoint(algorithm="central_classification", d=2, beta=0.5, eps=0.2, N=400, g=3, gamma=1.0, C_M=2.0),
    RatePoint(algorithm="central_regression", d=1, beta=1.0, eps=0.5, N=200, g=4),
    RatePoint(algorithm="central_regression_heavy_tailed", d=1, beta=0.5, eps=0.5, N=300, g=4, p=4.0, M_p=4.0),
]


@pytest.mark.parametrize("pt", SMALL, ids=lambda p: p.algorithm)
def test_rate_trial_count_level_matches_point_level(pt):
    """KS two-sample test of 500 vs 500 trials (law re-drawn in each, as in the experiments), α = 1e-4:
    critical sup-distance 2.23·sqrt(2/500) = 0.141, so a shift of 0.2 is found with power > 0.9."""
    count = [rate_trial(pt, t, 5)["excess"] for t in range(500)]
    point = [rate_trial_point_level(pt, t, 6)["excess"] for t in range(500)]
    assert stats.ks_2samp(count, point).pvalue > 1e-4


def test_terms_add_up_and_bias_is_the_within_cell_variance():
    d, g, beta = 2, 8, 0.5
    law = H.BumpRegression.lower_bound(d=d, h=1 / g, beta=beta, rng=np.random.default_rng(1))
    pt = RatePoint(algorithm="central_regression", d=d, beta=beta, eps=0.01, N=10 ** 8, g=g)
    rng = np.random.default_rng(2)
    runs = [count_level_terms(law, estimator(pt), pt.N, rng, rng, rng) for _ in range(400)]
    for out in runs:
        assert out["excess"] == pytest.approx(sum(out[t] for t in TERMS), rel=1e-12)
    h = 1 / g  # every cube carries a bump and bins = cubes: ∫(η − cell mean)² = h^{2β}(‖φ‖₂² − ‖φ‖₁²)
    assert runs[0]["bias"] == pytest.approx(h ** (2 * beta) * (H.bump_l2sq(d) - H.bump_l1(d) ** 2), rel=1e-9)
    # privacy term: E[W²] of the Laplace(2/(n_l ε)) noise, 8/(ε n_l)² with n_l ≈ N h^d (relative sd of n_l 1e-3);
    # sampling term: ∑_l P_l Var(Y|B_l)/n_l = ∑_l (1 − m_l²)/N for ±1 labels with cell means m_l. Within 5 se.
    m, _ = law.cell_moments(g)
    for term, expected in (("privacy", 8.0 / (pt.eps * pt.N * h ** d) ** 2), ("sampling", np.sum(1 - m ** 2) / pt.N)):
        x = np.array([r[term] for r in runs])
        assert abs(x.mean() - expected) < 5 * x.std(ddof=1) / np.sqrt(x.size) + 1e-3 * expected, term


def test_aligned_geometry_is_the_quadrature():
    for d, g in ((1, 7), (2, 5), (3, 3)):
        cell, cube, I1, I2 = H._piece_geometry(d, g, g)
        b, _, lo, hi = H._axis_pieces(g, g)
        idx = np.indices((b.size,) * d).reshape(d, -1)
        q1, q2 = H.bump_box_integrals(lo[idx].T, hi[idx].T)
        assert np.array_equal(cell, cube) and np.allclose(I1, q1, atol=1e-14) and np.allclose(I2, q2, atol=1e-14)


def test_privacy_branch_refuses_eps_N_below_one():
    case = RateCase(algorithm="central_regression", d=1, beta=1.0, eps=1e-4, n_start=1e6, branch="privacy")
    assert tuned_scale(case, 1e6) == pytest.approx(1e-1)  # (εN)^{-1/(d+β)} = 100^{-1/2}
    with pytest.raises(ValueError, match=r"eps \* N must be >= 1.*eps\*N=0\.5"):
        tuned_scale(case, 5e3)


# ------------------------------------------------------------------------------- seed stability
def _stable_cases():
    """Three quick-profile cases, one per count-level reference kind: local classification (rate),
    central regression on the privacy branch (rate, plus 003's printed exponent), central classification
    with Theorem 4's own tuning (three-term prediction). The whole quick profile of all rate experiments
    takes minutes; these run the same grids, trials, fits and verdict functions."""
    pick = lambda cs, **kw: next(c for c in cs if all(getattr(c, k) == v for k, v in kw.items()))  # noqa: E731
    return [pick(rates_classification._local_cases(), d=1, beta=0.5),
            pick(rates_regression._central_cases(), d=1, beta=1.0, branch="privacy"),
            pick(rates_classification._central_cases(), d=2, beta=0.5, reference="predicted")]


def test_quick_profile_verdicts_do_not_change_with_the_seed():
    sizes = PROFILES["quick"]
    cases = _stable_cases()
    verdicts = []
    for seed in (0, 1, 2):
        ctx = RunContext(profile="quick", seed=seed, progress=False)  # no cache: every seed computed
        grids, per_point, _ = run_rate_grids(ctx, cases, sizes)
        it = iter(per_point)
        row = []
        for c, grid in zip(cases, grids):
            f = fit_case(c, grid, [next(it)["excess"] for _ in grid], seed=seed, key=c.label, margin=sizes.margin,
                         predicted=None if c.reference == "rate" else [predicted_terms(p) for p in grid])
            row.append((f.verdict, f.printed_verdict))  # holds / excluded / inconclusive (one rule, one margin)
        verdicts.append(row)
    assert verdicts[0] == verdicts[1] == verdicts[2], verdicts


def test_smoke_profile_derived_verdict_does_not_change_with_the_seed():
    """issue 23: the derived-exponent verdict of one count-level case at the smoke profile (3 points, 8 trials,
    one decade, margin 0.1), root seeds 0-4. At this size the bootstrap CI is ~0.3 wide, wider than the
    band (2 × 0.1), so the verdict may only be inconclusive; what matters is that no seed turns it into a
    hold or a failure."""
    sizes = PROFILES["smoke"]
    case = _stable_cases()[0]  # local classification, d = 1, β = 1/2
    verdicts = []
    for seed in range(5):
        (grid,), per_point, _ = run_rate_grids(RunContext(profile="smoke", seed=seed, progress=False), [case], sizes)
        f = fit_case(case, grid, [r["excess"] for r in per_point], seed=seed, key=case.label, margin=sizes.margin)
        verdicts.append(f.verdict)
    assert len(set(verdicts)) == 1, verdicts


@pytest.mark.parametrize("pt", [
    RatePoint(algorithm="central_classification", d=1, beta=1.0, eps=1e-3, N=10 ** 6, g=12, gamma=1.0, C_M=2.0),
    RatePoint(algorithm="central_regression", d=2, beta=0.5, eps=1e-3, N=10 ** 6, g=10),
], ids=lambda p: p.algorithm)
def test_predicted_terms_match_the_simulated_means(pt):
    """The three-term expansion (normal approximation of the counts, n_l ≈ N h^d) against the count-level
    means on the same law: within 5 standard errors plus 3% (the expansion's own error at n_l ≈ 10^5)."""
    law = construction(pt, np.random.default_rng(3))
    pred = expected_terms(law, estimator(pt), pt.N, pt.eps)
    rng = np.random.default_rng(4)
    runs = [count_level_terms(law, estimator(pt), pt.N, rng, rng, rng) for _ in range(600)]
    for t in TERMS:
        x = np.array([r[t] for r in runs])
        assert abs(x.mean() - pred[t]) <= 5 * x.std(ddof=1) / np.sqrt(x.size) + 0.03 * abs(pred[t]) + 1e-15, t


def test_fixed_bump_cases_get_the_longer_grid_and_more_trials():
    """issue 23: classification cases with γβ = d (003 eq. (37): C_M h^{γβ−d} = C_M = 2 bumps at every N) get
    ``trials_fixed_bumps`` trials and ``decades_fixed_bumps`` decades at the quick profile; the central cases
    keep their own cap of 4 decades (εN <= 10^6); every other case keeps the profile's count-level sizes."""
    sizes = PROFILES["quick"]
    cases = rates_classification._local_cases() + rates_classification._central_cases()
    fixed = [c for c in cases if fixed_bump_count(c)]
    assert {(c.d, c.beta, c.privacy) for c in fixed} == {(1, 1.0, "local"), (1, 1.0, "central")}
    for c in cases:
        grid = grid_for_case(c, sizes)
        span = np.log10(grid[-1].N / grid[0].N)
        if fixed_bump_count(c):
            assert case_trials(c, sizes) == sizes.trials_fixed_bumps == 400
            assert span >= (4.0 if c.privacy == "central" else sizes.decades_fixed_bumps) - 0.05
            assert span <= (4.75 if c.privacy == "central" else 7.75)
        else:
            assert case_trials(c, sizes) == sizes.trials_counts
            assert span <= sizes.decades_counts + 0.75  # g rounded outwards at both ends
    knn_line, knn_plane = (c for c in rates_regression._local_cases() if c.beta == 0.5)  # d = 1, d = 2
    # issue 35: the d = 1 k-NN cells of local regression run 4x the line trials, at every profile
    assert rates_regression.LOCAL_MORE_TRIALS == {(1, 0.5): 4, (1, 1.0): 4}
    assert not fixed_bump_count(knn_line) and case_trials(knn_line, sizes) == 4 * sizes.trials_line == 4 * 192
    assert case_trials(knn_plane, sizes) == sizes.trials == 48
    paper = PROFILES["paper"]  # the paper profile runs one trial count per k-NN cell, times the cell's factor
    assert case_trials(knn_line, paper) == 4 * paper.trials and case_trials(knn_plane, paper) == paper.trials
    cases = rates_heavy_tailed._cases()
    more = [c for c in cases if c.trials_factor > 1 and c.kind == "bins"]  # the spread heavy-tailed central cells
    assert {(c.d, c.beta, c.p) for c in more} == set(rates_heavy_tailed.CENTRAL_MORE_TRIALS)
    assert all(case_trials(c, sizes) == c.trials_factor * sizes.trials_counts for c in more)
    local = {(c.d, c.beta, c.p): case_trials(c, sizes) for c in cases if c.kind != "bins"}
    for key, n in local.items():  # issue 35: every d = 1 cell x8 (line trials), d = 2, β = 1, p = 2 x10
        base = sizes.trials_line if key[0] == 1 else sizes.trials
        assert n == rates_heavy_tailed.LOCAL_MORE_TRIALS.get(key, 1) * base
    assert local[(1, 1.0, 2.0)] == 8 * 192 and local[(2, 1.0, 2.0)] == 480 and local[(2, 0.5, 2.0)] == 48


def test_fixed_bump_verdict_is_the_same_at_two_seeds():
    """issue 23: local classification, d = 1, β = 1 at the quick profile was inconclusive at 5 of 6 root seeds
    (4 decades, 100 trials: CI ±0.021 around −0.680, the band −2/3 ± 0.03). With the fixed-bump sizes
    (7 decades, 400 trials) the expected CI half-width is about 0.007 and the fit about −0.668 (−0.671 at the
    paper profile), so the CI lies inside the band by >= 3 standard errors: the verdict is "holds" at both
    seeds (root seeds 0-4 and the default all gave holds when this was written)."""
    sizes = PROFILES["quick"]
    case = next(c for c in rates_classification._local_cases() if (c.d, c.beta) == (1, 1.0))
    verdicts = []
    for seed in (0, 4):
        (grid,), per_point, _ = run_rate_grids(RunContext(profile="quick", seed=seed, progress=False), [case], sizes)
        f = fit_case(case, grid, [r["excess"] for r in per_point], seed=seed, key=case.label, margin=sizes.margin)
        verdicts.append(f.verdict)
    assert verdicts == ["holds", "holds"], verdicts
