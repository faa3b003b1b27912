"""Tests of the local-full-DP count-level mechanisms (:mod:`simulations.mechanisms.joint`) and of the
``rates_local_full_dp`` experiment (003 Remark 1(2))."""

from __future__ import annotations

import math

import numpy as np
import pytest

from simulations.experiments.rates.local_full_dp import (FullDPPoint, compute, full_dp_trial, grid,
                                                         reference_exponent)
from simulations.mechanisms.joint import (joint_index, joint_rr_channel, joint_rr_counts, joint_vector_channel,
                                          joint_vector_sums)


def test_joint_rr_counts_mean_is_the_channel():
    """E[output counts] = channelᵀ n exactly (004 eq. (1)); 20000 draws, each mean within 5 standard errors."""
    n = np.array([[5, 0], [2, 7], [0, 1]])
    eps = 0.8
    P = joint_rr_channel(3, 2, eps)
    draws = np.stack([joint_rr_counts(n, eps, np.random.default_rng(s)).ravel() for s in range(20000)])
    expect = n.ravel() @ P
    se = draws.std(axis=0) / math.sqrt(len(draws))
    assert np.all(np.abs(draws.mean(axis=0) - expect) < 5 * se + 1e-12)
    assert np.all(draws.sum(axis=1) == n.sum())


def test_joint_rr_single_record_law():
    """One record at (cell 1, label 0), M = 4, e^ε = 3: output frequencies (1/6, 1/6, 1/2, 1/6) by hand."""
    out = np.stack([joint_rr_counts([[0, 0], [1, 0]], math.log(3), np.random.default_rng(s)).ravel()
                    for s in range(24000)])
    freq = out.mean(axis=0)
    expect = np.array([1 / 6, 1 / 6, 1 / 2, 1 / 6])
    assert np.all(np.abs(freq - expect) < 5 * np.sqrt(expect * (1 - expect) / len(out)))


def test_joint_vector_sums_mean():
    """E[S_j] = a n_j + b (N − n_j), (a, b) = (e^(ε/2), 1)/(1 + e^(ε/2)) (003 eq. (12))."""
    n = np.array([[4, 1], [0, 3]])
    eps = 1.0
    a = math.exp(eps / 2) / (1 + math.exp(eps / 2))
    draws = np.stack([joint_vector_sums(n, eps, np.random.default_rng(s)).ravel() for s in range(20000)])
    expect = a * n.ravel() + (1 - a) * (n.sum() - n.ravel())
    se = draws.std(axis=0) / math.sqrt(len(draws))
    assert np.all(np.abs(draws.mean(axis=0) - expect) < 5 * se)


def test_guards_and_index():
    assert joint_index([1], [1], 3).tolist() == [4]
    with pytest.raises(ValueError, match="labels"):
        joint_index([0], [2], 2)
    with pytest.raises(ValueError, match="num_cells"):
        joint_vector_channel(9, 2, 1.0)
    with pytest.raises(ValueError, match="epsilon"):
        joint_rr_counts([[1, 0]], -1.0, 0)


def test_reference_exponents_by_hand():
    """β(γ+1)/(2β+2d) and β(γ+1)/(2β+3d) at γ = 1: (d, β) = (2, 1): 2/6 and 2/8."""
    assert reference_exponent("vector", 2, 1.0) == pytest.approx(-1 / 3)
    assert reference_exponent("rr", 2, 1.0) == pytest.approx(-1 / 4)
    assert reference_exponent("vector", 1, 0.5) == pytest.approx(-1 / 3)


def test_grid_solves_the_tuning():
    """N = g^(2β+2d)/ε² (vector), g^(2β+3d)/ε² (RR), ε = 1."""
    assert all(p.N == p.g ** 4 for p in grid("vector", 1, 1.0, "quick"))
    assert all(p.N == p.g ** 8 for p in grid("rr", 2, 1.0, "quick"))


def test_trial_is_reproducible_and_learns_at_large_signal():
    """Same seed, same trial. At N = 10^9 on g = 4 cubes (d = 1, β = 1) the joint vector mechanism's cell counts
    have SNR ≍ √N h^(β+d) ≈ 2000: every cell is classified right, excess 0."""
    pt = FullDPPoint("vector", 1, 1.0, 256, 4)
    assert full_dp_trial(pt, 3, 7) == full_dp_trial(pt, 3, 7)
    big = FullDPPoint("vector", 1, 1.0, 10 ** 9, 4)
    assert all(full_dp_trial(big, t, 0)["excess"] == 0.0 for t in range(5))


def test_smoke_run_claims():
    from simulations.experiments.base import RunContext

    res = compute(RunContext(profile="smoke", progress=False))
    kinds = sorted({c.kind for c in res.claims})
    assert kinds == ["beyond", "paper"]  # the smoke margin 0.1 makes no erratum claim (bands overlap)
    assert len(res.tables["slopes"]["fitted"]) == 9


def test_regression_trial_converges_to_the_bin_bias():
    """At N = 10^13 on g = 4 cubes the privatized cell means are the exact ones (noise var ≈ 7.8/(N h^2) ≈ 1e-11),
    so the excess risk is the partition's bias ∫(η − cell mean)², computed here from the law's exact cell masses
    (cell mean = P(Y = 1, cell) − P(Y = −1, cell) over P(cell))."""
    from simulations.engine import trial_streams
    from simulations.estimators.count_level import cell_label_law
    from simulations.laws import BumpRegression

    pt = FullDPPoint("vector_regression", 1, 1.0, 10 ** 13, 4)
    out = full_dp_trial(pt, 0, 5)
    data, _, _ = trial_streams(pt, 0, 5)
    law = BumpRegression.lower_bound(d=1, h=0.25, beta=1.0, rng=data)
    m, values = cell_label_law(law, 4)
    bias = law.excess_risk_partition(m @ values / m.sum(axis=1), 4)
    assert bias > 0 and out["excess"] == pytest.approx(bias, rel=1e-3)
    assert reference_exponent("vector_regression", 2, 1.0) == pytest.approx(-1 / 3)
