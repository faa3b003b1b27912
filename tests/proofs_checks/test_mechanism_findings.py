"""Tests of ``proofs_checks.proof_steps.mechanism_findings``: every number the checks report is
re-derived here by hand (closed forms written out below, Fractions where the arithmetic is rational),
never copied from the checks' output."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from proofs_checks import findings
from proofs_checks.dp import max_privacy_loss, privacy_loss_witness
from proofs_checks.proof_steps import CHECKS, run_check
from proofs_checks.proof_steps.mechanism_findings import (brute_force_posterior, label_dependent_topk_channel,
                                                          small_value_mass, smooth_bump, stability_delta)
from simulations.laws.holder_tsybakov import bump
from simulations.mechanisms import ALIBI, RRTopK, RRWithPrior

NEW = {"001-alg1-delta-exact": "constant", "001-alg1-log-base": "privacy", "003-thm1-lower-bump-margin": "domain",
       "004-alg1-tie-break": "privacy", "004-sec32-objective-index": "typo", "000-sec2-alibi-complexity": "typo"}


@pytest.mark.parametrize("check_id,severity", sorted(NEW.items()))
def test_each_new_check_fails_with_one_finding_of_its_severity(check_id, severity):
    r = run_check(check_id)
    assert not r.passed and len(r.findings) == 1
    assert r.findings[0].severity == severity and check_id in r.findings[0].evidence


def test_findings_list_carries_the_new_discrepancies():
    got = {f["check_id"]: f for f in findings("smoke")}
    for cid, sev in NEW.items():
        assert got[cid]["severity"] == sev and got[cid]["origin"] == "proof_steps"
    assert "loose by 4x" in got["001-alg1-delta-exact"]["derived"]
    assert "under-specified" in got["004-alg1-tie-break"]["derived"]


def test_exponential_mechanism_check_passes_without_finding():
    r = run_check("003-eq17-exact-loss")
    assert r.passed and not r.findings and "003-eq17-exact-loss" in CHECKS


# ---- 001 Algorithm 1 --------------------------------------------------------------------------------

@pytest.mark.parametrize("eps", [0.1, 0.5, 1.0, 2.0, 8.0])
@pytest.mark.parametrize("delta", [1e-9, 1e-5, 1e-2])
def test_stability_delta_is_a_quarter_of_delta(eps, delta):
    # a count of 1 is released w.p. 1/2 exp(-(threshold - 1)/(2/eps)) = 1/2 exp(-ln(2/delta)) = delta/4
    assert math.isclose(stability_delta(eps, delta), delta / 4, rel_tol=1e-9)


@pytest.mark.parametrize("eps", [0.5, 1.0, 2.0])
@pytest.mark.parametrize("delta", [1e-5, 1e-3])
def test_stability_delta_with_log10_threshold(eps, delta):
    # threshold - 1 = (2/eps) log10(2/delta): release w.p. 1/2 exp(-log10(2/delta)) = 1/2 (delta/2)^(1/ln 10)
    expected = 0.5 * (delta / 2) ** (1 / math.log(10))
    assert math.isclose(stability_delta(eps, delta, "10"), expected, rel_tol=1e-9)
    if delta == 1e-5:  # 1/2 (5e-6)^0.4343 = 1/2 exp(-5.3010) = 2.493e-3, 249x the claimed delta
        assert 2.49e-3 < stability_delta(eps, delta, "10") < 2.50e-3


def test_stability_delta_rejects_unknown_base():
    with pytest.raises(ValueError, match="log_base"):
        stability_delta(1.0, 1e-5, "2")


# ---- 003 eq. (35)-(37) ------------------------------------------------------------------------------

def test_smooth_bump_satisfies_eq35():
    u = np.arange(-700, 701) / 1000  # exact ±1/2 on the grid
    v = smooth_bump(u)
    assert v.min() >= 0 and v.max() <= 1 and smooth_bump(0.0) == 1.0
    assert np.all(v[np.abs(u) >= 0.5] == 0) and np.all(v[np.abs(u) < 0.5] > 0)


@pytest.mark.parametrize("s", [0.5, 1e-2, 1e-4, 1e-8, 1e-12])
def test_smooth_bump_small_value_mass_closed_form(s):
    # exp(1 - 1/(1 - 4u^2)) < s  <=>  4u^2 > 1 - 1/(1 + L), L = ln(1/s): mass 1 - sqrt(L/(1+L))
    L = math.log(1 / s)
    assert math.isclose(small_value_mass(smooth_bump, s), 1 - math.sqrt(L / (1 + L)), rel_tol=1e-9)


@pytest.mark.parametrize("s", [0.5, 1e-2, 1e-4, 1e-8])
def test_suite_bump_small_value_mass_is_s_over_2(s):
    # min(1, 4(1/2 - |u|)) < s  <=>  |u| > 1/2 - s/4: mass s/2 (d = 1)
    got = small_value_mass(lambda u: bump(np.asarray(u)[..., None]), s)
    assert math.isclose(got, s / 2, rel_tol=1e-6)


def test_smooth_bump_ratio_grows_without_bound():
    # P/s ~ 1/(2 s ln(1/s)): at s = 1e-8, L = 18.42, P = 1 - sqrt(18.42/19.42) = 0.02608 -> ratio 2.6e6
    r = [small_value_mass(smooth_bump, s) / s for s in (1e-2, 1e-4, 1e-8)]
    assert r[0] < r[1] < r[2] and 2.60e6 < r[2] < 2.62e6


# ---- 004 Algorithms 1-2: tie-break ---------------------------------------------------------------------

@pytest.mark.parametrize("eps", [0.25, 1.0, math.log(3)])
def test_label_dependent_tie_break_channel_and_loss(eps):
    keep, other = math.exp(eps) / (math.exp(eps) + 1), 1 / (math.exp(eps) + 1)
    # prior (1/2, 1/4, 1/4), k = 2: Y = {0, 1} for y = 0, 1 and Y = {0, 2} for y = 2 (y wins the tie)
    expected = np.array([[keep, other, 0], [other, keep, 0], [other, 0, keep]])
    P = label_dependent_topk_channel(3, eps, 2, (0.5, 0.25, 0.25))
    np.testing.assert_allclose(P, expected, rtol=1e-12, atol=0)
    loss, (y, y2, z) = privacy_loss_witness(P)
    assert math.isinf(loss) and P[y, z] > 0 and P[y2, z] == 0
    # prior-only rule: Y = {0, 1} for every y; worst ratio keep/other = e^eps
    assert math.isclose(max_privacy_loss(RRTopK(3, eps, 2).channel_matrix((0.5, 0.25, 0.25))), eps, rel_tol=1e-12)


def test_label_dependent_tie_break_is_dp_without_a_boundary_tie():
    # distinct priors: the tie-break never acts, the channel is RRTop-k's, loss eps (keep/other)
    P = label_dependent_topk_channel(3, 1.0, 2, (0.5, 0.3, 0.2))
    assert math.isclose(max_privacy_loss(P), 1.0, rel_tol=1e-12)


# ---- 004 Section 3.2 ------------------------------------------------------------------------------------

def test_objective_over_K_and_over_k():
    # eps = ln 2: w_1 = 1/2, w_2 = (2/3)(0.8) = 8/15, w_3 = (2/4)(1) = 1/2 -> k* = 2, Y = {2, 1}
    p = (0.2, 0.3, 0.5)
    P = RRWithPrior(3, math.log(2)).channel_matrix(p)
    over_K = sum(p[y] * P[y, y] for y in range(3))
    over_k = sum(p[y] * P[y, y] for y in range(2))  # label 0 is outside Y: q[0|0] = 0; q[1|1] = 2/3
    assert math.isclose(over_K, float(Fraction(8, 15)), rel_tol=1e-12)
    assert math.isclose(over_k, float(Fraction(3, 10) * Fraction(2, 3)), rel_tol=1e-12)


# ---- 003 Theorem 4 ------------------------------------------------------------------------------------------

def test_exponential_exact_loss_hand_case():
    # K = 2, n = 2, eps = 2 ln 2 (weights e^(eps n_j/2) = 2^(n_j)): D = (1, 1) -> D' = (0, 2):
    # P(a|D) = 1/2, P(a|D') = 1/(1 + 4) -> ratio 5/2 < e^eps = 4
    from simulations.mechanisms.exponential import exponential_worst_loss

    assert math.isclose(exponential_worst_loss(math.log(2), 2, 2), math.log(5 / 2), rel_tol=1e-12)
    assert "eps/2 at n = 1" in run_check("003-eq17-exact-loss").derived


# ---- 000 Section 2: ALIBI -------------------------------------------------------------------------------------

def test_alibi_posterior_hand_case():
    # K = 2, eps = 2 (scale 1), o = (1, 0), uniform prior: f(o|0) ∝ e^0, f(o|1) ∝ e^(-|1| - |0 - 1|) = e^-2
    o = np.array([[1.0, 0.0]])
    expected = np.array([[1 / (1 + math.exp(-2)), math.exp(-2) / (1 + math.exp(-2))]])
    np.testing.assert_allclose(brute_force_posterior(o, 2.0, [0.5, 0.5]), expected, rtol=1e-13)
    np.testing.assert_allclose(ALIBI(2, 2.0).soft_labels(o), expected, rtol=1e-13)


def test_alibi_posterior_with_prior_hand_case():
    # K = 3, eps = 2, o = (0, 0, 0): every class has likelihood ∝ e^-1, so the posterior is the prior
    prior = np.array([0.2, 0.3, 0.5])
    np.testing.assert_allclose(brute_force_posterior(np.zeros((1, 3)), 2.0, prior)[0], prior, rtol=1e-13)
