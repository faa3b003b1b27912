"""004 Theorem 3 checked numerically: LP1 optimum = LP2 optimum = max_k w_k = Obj_p(RRWithPrior).

Independent references: the closed form is checked against exact (Fraction) enumeration of every
vertex of LP2 named in the proof of Theorem 3 (all non-empty label sets Y), and against values
derived by hand (uniform prior: plain randomized response; point mass: 1; two labels). The LP
optima are then compared with the closed form; the LP-optimal channels are checked for ε-DP by exact
enumeration (``proofs_checks.dp.check_channel``) and for feasibility by plain numpy, independently of
cvxpy; the three LP1 formulations with channel variables are shown to describe the same polytope by
comparing their support functions in random directions, and the projected ("efficient") form to have
the same set of diagonals (issue 20: its optimum equals the reference LP1's to 1e-9 on many priors, and
both directions of the projection proof are checked on points).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

import proofs_checks
from proofs_checks.dp import check_channel
from proofs_checks.experiments.rrwithprior_lp import PRIOR_KINDS, sample_prior
from proofs_checks.rrwithprior_lp import (EPS_MAX_LP, LP1_CHANNEL_METHODS, LP1_METHODS, channel_from_envelope,
                                          dp_violation, lp1_polytope, lp1_projection, polish_channel, rrwithprior_k,
                                          rrwithprior_lp, rrwithprior_value, rrwithprior_weights)

RTOL = 1e-6  # the issue's agreement target between LP optima and the closed form
EPSILONS = (0.05, 0.5, 2.0, 10.0)
KINDS = ("near_uniform", "peaked", "sparse", "ties")
_EXPERIMENT_KIND = {"near_uniform": "dirichlet(100)", "peaked": "dirichlet(0.1)", "sparse": "sparse", "ties": "ties"}


def make_prior(kind: str, K: int, seed: int) -> np.ndarray:
    """A fixed-seed prior: near_uniform = Dirichlet(100), peaked = Dirichlet(0.1), sparse (zeros on
    two thirds of the labels), ties (masses proportional to integers in {1, 2, 3})."""
    return sample_prior(_EXPERIMENT_KIND[kind], K, np.random.default_rng([seed, K, KINDS.index(kind)]))


HIGHS_OPTIONS = {"threads": 1, "primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}


def satisfies_lp1(q, eps, tol=1e-9) -> bool:
    """Constraints (2), (3) and q >= 0 of 004 LP1, checked entry by entry with numpy."""
    q = np.asarray(q)
    dp = q[:, None, :] <= np.exp(eps) * q[None, :, :] + tol  # [y, y', ỹ]
    return bool(np.all(q >= -tol) and np.allclose(q.sum(axis=1), 1.0, atol=tol) and dp.all())


# ---------------------------------------------------------------- the closed form

def _subsets_optimum(p: list[Fraction], a: Fraction) -> Fraction:
    """max over non-empty Y of a/(a + |Y| − 1) Σ_Y p: LP2's vertices in the proof of Theorem 3."""
    K = len(p)
    return max(a / (a + len(Y) - 1) * sum(p[i] for i in Y)
               for r in range(1, K + 1) for Y in itertools.combinations(range(K), r))


@pytest.mark.parametrize("a", [Fraction(21, 20), Fraction(3, 2), Fraction(3), Fraction(1000)])
@pytest.mark.parametrize("seed", range(4))
def test_closed_form_equals_exact_vertex_enumeration(a, seed):
    rng = np.random.default_rng(seed)
    K = int(rng.integers(1, 8))
    counts = [int(c) for c in rng.integers(0, 6, size=K)]
    counts[0] += 1  # at least one positive mass
    total = sum(counts)
    p = [Fraction(c, total) for c in counts]
    expected = _subsets_optimum(p, a)
    got = rrwithprior_value([float(x) for x in p], math.log(a))
    assert got == pytest.approx(float(expected), rel=1e-12)


@pytest.mark.parametrize("K", [1, 2, 5, 100])
@pytest.mark.parametrize("eps", EPSILONS)
def test_closed_form_uniform_prior_is_randomized_response(K, eps):
    # w_k = e^ε/(e^ε+k−1) · k/K increases in k, so k* = K and the value is RR's e^ε/(e^ε+K−1)
    p = np.full(K, 1.0 / K)
    assert rrwithprior_value(p, eps) == pytest.approx(math.exp(eps) / (math.exp(eps) + K - 1), rel=1e-13)
    assert rrwithprior_k(p, eps) == K


@pytest.mark.parametrize("eps", EPSILONS)
def test_closed_form_point_mass_and_two_labels(eps):
    assert rrwithprior_value([0.0, 1.0, 0.0], eps) == 1.0
    assert rrwithprior_k([0.0, 1.0, 0.0], eps) == 1
    for p1 in (0.5, 0.7, 0.95):
        assert rrwithprior_value([p1, 1 - p1], eps) == pytest.approx(max(p1, 1 / (1 + math.exp(-eps))), rel=1e-14)


def test_weights_match_algorithm_2():
    p = np.array([0.1, 0.5, 0.15, 0.25])
    eps = 1.0
    e = math.exp(eps)
    top = [0.5, 0.75, 0.9, 1.0]
    expected = [e / (e + k - 1) * top[k - 1] for k in range(1, 5)]
    np.testing.assert_allclose(rrwithprior_weights(p, eps), expected, rtol=1e-14)


# ---------------------------------------------------------------- LP optima = closed form

@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("K", [2, 3, 5, 10])
@pytest.mark.parametrize("eps", EPSILONS)
def test_every_formulation_attains_the_closed_form_small_K(kind, K, eps):
    p = make_prior(kind, K, seed=1)
    expected = rrwithprior_value(p, eps)
    for formulation, method in [("lp1", "naive"), ("lp1", "envelope"), ("lp1", "substitution"), ("lp1", "efficient"),
                                ("lp2", "naive"), ("lp2", "efficient")]:
        res = rrwithprior_lp(p, eps, formulation, method=method)
        assert res.status == "optimal"
        assert res.value == pytest.approx(expected, rel=RTOL), (formulation, method)


@pytest.mark.parametrize("kind", ["near_uniform", "peaked", "sparse"])
@pytest.mark.parametrize("K", [30, 100])
@pytest.mark.parametrize("eps", [0.05, 1.0, 10.0])
def test_efficient_lp1_and_lp2_attain_the_closed_form_large_K(kind, K, eps):
    p = make_prior(kind, K, seed=2)
    expected = rrwithprior_value(p, eps)
    assert rrwithprior_lp(p, eps).value == pytest.approx(expected, rel=RTOL)
    assert rrwithprior_lp(p, eps, "lp2").value == pytest.approx(expected, rel=RTOL)


def test_lp2_handles_K_1000():
    p = make_prior("peaked", 1000, seed=3)
    res = rrwithprior_lp(p, 1.0, "lp2")
    assert res.value == pytest.approx(rrwithprior_value(p, 1.0), rel=RTOL)
    assert res.channel is None and res.diagonal.shape == (1000,)


@pytest.mark.parametrize("eps", [0.05, 1.0, 10.0])
def test_lp2_solution_is_the_vertex_of_the_proof(eps):
    # distinct masses and no tie among the w_k: the vertex is q[y|y] = e^ε/(e^ε+k*−1) on Y_{k*}
    p = np.array([0.4, 0.05, 0.3, 0.1, 0.15])
    k = rrwithprior_k(p, eps)
    w = rrwithprior_weights(p, eps)
    assert np.sum(np.isclose(w, w.max(), rtol=1e-9)) == 1
    expected = np.zeros(5)
    top = np.argsort(-p)[:k]
    expected[top] = math.exp(eps) / (math.exp(eps) + k - 1)
    np.testing.assert_allclose(rrwithprior_lp(p, eps, "lp2").diagonal, expected, atol=1e-9)


def test_exact_tie_between_k_values():
    # ε = ln 3, p = (3/4, 1/4): w_1 = 3/4 and w_2 = 3/(3+1) · 1 = 3/4
    eps = math.log(3.0)
    assert rrwithprior_value([0.75, 0.25], eps) == pytest.approx(0.75, rel=1e-15)
    for f in ("lp1", "lp2"):
        assert rrwithprior_lp([0.75, 0.25], eps, f).value == pytest.approx(0.75, rel=RTOL)


def test_single_label():
    res = rrwithprior_lp([1.0], 1.0)
    assert res.value == pytest.approx(1.0) and np.allclose(res.channel, [[1.0]])


def test_other_solver_agrees():
    p = make_prior("peaked", 8, seed=4)
    res = rrwithprior_lp(p, 1.0, solver="CLARABEL")
    assert res.solver == "CLARABEL"
    assert res.value == pytest.approx(rrwithprior_value(p, 1.0), rel=RTOL)


# ---------------------------------------------------------------- the optimal channel

@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("K,method", [(2, "naive"), (6, "naive"), (6, "envelope"), (6, "substitution"),
                                      (6, "efficient"), (40, "substitution"), (40, "efficient"), (1, "efficient"),
                                      (300, "efficient")])
@pytest.mark.parametrize("eps", EPSILONS)
def test_optimal_channel_is_an_exactly_dp_channel(kind, K, method, eps):
    p = make_prior(kind, K, seed=5)
    res = rrwithprior_lp(p, eps, method=method)
    q = res.channel
    assert q.shape == (K, K)
    assert np.all(q >= 0) and np.allclose(q.sum(axis=1), 1.0, atol=1e-9)
    # the polish only removes solver noise; afterwards ε-DP holds exactly (relative 1e-9 of dp.TOL)
    assert res.polish_change <= 1e-9
    assert dp_violation(q, eps) <= 0.0
    assert check_channel(q, eps).holds
    assert p @ np.diag(q) == pytest.approx(res.value, rel=1e-9)


def test_polish_channel_zeroes_noise_in_a_column_that_must_be_zero():
    eps = 1.0
    q = np.array([[0.6, 0.4, 1e-14], [0.4, 0.6, 0.0]])
    assert check_channel(q, eps).epsilon_actual == math.inf
    polished = polish_channel(q, eps)
    assert polished[0, 2] == 0.0 and check_channel(polished, eps).holds
    np.testing.assert_array_equal(polished[:, :2], q[:, :2])


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("K", [2, 4, 7, 50])
@pytest.mark.parametrize("eps", EPSILONS)
def test_rrwithprior_channel_attains_the_lp_optimum(kind, K, eps):
    from simulations.mechanisms import RRWithPrior
    from simulations.mechanisms.randomized_response import K_STAR_RTOL

    p = make_prior(kind, K, seed=6)
    channel = RRWithPrior(K, eps).channel_matrix(p)
    accuracy = float(p @ np.diag(channel))
    # k* is chosen within a relative K_STAR_RTOL (1e-12) of max_k w_k; 1e-14 covers summation order
    assert abs(accuracy - rrwithprior_value(p, eps)) <= (K_STAR_RTOL + 1e-14) * rrwithprior_value(p, eps)
    assert accuracy == pytest.approx(rrwithprior_lp(p, eps).value, rel=RTOL)
    assert satisfies_lp1(channel, eps)  # a feasible point of LP1 attaining its optimum


# ---------------------------------------------------------------- the formulations are equivalent

@pytest.mark.parametrize("K", [2, 3, 4])
@pytest.mark.parametrize("eps", [0.1, 1.0, 5.0])
def test_lp1_formulations_have_the_same_support_function(K, eps):
    """Same maximum of random linear functionals <C, q> over the three feasible sets with channel
    variables: the sets of channels coincide (a closed convex set is the intersection of its supporting
    half-spaces)."""
    import cvxpy as cp

    rng = np.random.default_rng([7, K, int(10 * eps)])
    for _ in range(4):
        C = rng.normal(size=(K, K))
        values = []
        for method in LP1_CHANNEL_METHODS:
            q, cons, _ = lp1_polytope(K, eps, method)
            prob = cp.Problem(cp.Maximize(cp.sum(cp.multiply(C, q))), cons)
            prob.solve(solver="HIGHS", highs_options=HIGHS_OPTIONS)
            assert prob.status == "optimal"
            assert satisfies_lp1(q.value, eps)
            values.append(prob.value)
        np.testing.assert_allclose(values, values[0], rtol=1e-8, atol=1e-9)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("eps", [0.05, 1.0, 10.0])
def test_naive_and_efficient_lp1_agree(kind, eps):
    p = make_prior(kind, 8, seed=8)
    naive = rrwithprior_lp(p, eps, method="naive")
    efficient = rrwithprior_lp(p, eps, method="efficient")
    assert naive.value == pytest.approx(efficient.value, rel=1e-9)
    # each optimum is feasible for the other formulation's constraints (here checked as LP1 itself)
    assert satisfies_lp1(naive.channel, eps) and satisfies_lp1(efficient.channel, eps)
    assert naive.n_constraints == 8 * 8 * 7 + 8 and efficient.n_constraints == 4 * 8 + 1
    assert rrwithprior_lp(p, eps, method="substitution").n_constraints == 8 * 8 + 8


# ---------------------------------------------------------------- issue 20: the projected ("efficient") LP1

def _issue20_prior(variant: str, K: int, seed: int) -> np.ndarray:
    """Dirichlet(1) priors, unsorted / sorted decreasing / sorted increasing, with ties (masses in
    {1, 2, 3}), with zeros (two thirds of the labels), and with ties and zeros together."""
    rng = np.random.default_rng([20, seed, K, ISSUE20_VARIANTS.index(variant)])
    if variant in ("unsorted", "sorted_desc", "sorted_asc"):
        p = rng.dirichlet(np.ones(K))
        return {"unsorted": p, "sorted_desc": np.sort(p)[::-1], "sorted_asc": np.sort(p)}[variant]
    w = rng.integers(1, 4, size=K).astype(float) if variant != "zeros" else rng.dirichlet(np.ones(K))
    if variant in ("zeros", "ties_zeros"):
        w[rng.permutation(K)[: (2 * K) // 3]] = 0.0
        if not w.any():
            w[0] = 1.0
    return w / w.sum()


ISSUE20_VARIANTS = ("unsorted", "sorted_desc", "sorted_asc", "ties", "zeros", "ties_zeros")


@pytest.mark.parametrize("K", [2, 3, 5, 10, 30, 100])
@pytest.mark.parametrize("eps", [0.1, 1.0, 4.0])
def test_efficient_lp1_equals_the_reference_lp1_and_the_closed_form(K, eps):
    """The projected LP1 (method "efficient") and the channel-variable LP1 it replaced ("substitution",
    proven equal to the literal constraint (2) below) have the same optimum to 1e-9, and both equal
    max_k w_k (004 Theorem 3) to 1e-9, on Dirichlet priors sorted and unsorted, with ties and zeros."""
    for variant in ISSUE20_VARIANTS:
        for seed in range(2 if K <= 30 else 1):
            p = _issue20_prior(variant, K, seed)
            closed = rrwithprior_value(p, eps)
            efficient = rrwithprior_lp(p, eps)
            reference = rrwithprior_lp(p, eps, method="substitution")
            case = (variant, seed, K, eps)
            assert efficient.method == "efficient" and reference.method == "substitution"
            assert abs(efficient.value - reference.value) <= 1e-9, case
            assert abs(efficient.value - closed) <= 1e-9 and abs(reference.value - closed) <= 1e-9, case
            # the rebuilt channel attains the optimum and is exactly ε-DP
            assert abs(p @ np.diag(efficient.channel) - closed) <= 1e-9, case
            assert dp_violation(efficient.channel, eps) <= 0.0 and satisfies_lp1(efficient.channel, eps), case


@pytest.mark.parametrize("K", [300, 1000])
def test_efficient_lp1_large_K(K):
    # K = 1000 took 210 s of HiGHS time in the substitution form; the projection solves it at once
    for eps in (0.1, 1.0, 4.0):
        p = _issue20_prior("unsorted", K, 0)
        res = rrwithprior_lp(p, eps)
        assert abs(res.value - rrwithprior_value(p, eps)) <= 1e-9
        q = res.channel
        assert np.all(q >= 0) and np.abs(q.sum(axis=1) - 1).max() <= 1e-9 and dp_violation(q, eps) <= 0.0
        assert res.polish_change <= 1e-9 and res.n_constraints == 4 * K + 1


@pytest.mark.parametrize("K", [1, 2, 3, 5])
@pytest.mark.parametrize("eps", [0.1, 1.0, 5.0])
def test_projection_has_the_same_set_of_diagonals(K, eps):
    """Support functions of {diag q} in random directions c (mixed signs, so every face is probed, not
    only the faces a prior p >= 0 reaches) agree between the projected form and the three forms with
    channel variables: the four have the same set of diagonals, hence the same optimum for every
    objective Σ_y c_y q[y|y] (004 LP1's objective is c = p)."""
    import cvxpy as cp

    rng = np.random.default_rng([21, K, int(10 * eps)])
    for _ in range(5):
        c = rng.normal(size=K)
        x, _, cons, _ = lp1_projection(K, eps)
        prob = cp.Problem(cp.Maximize(c @ x), cons)
        prob.solve(solver="HIGHS", highs_options=HIGHS_OPTIONS)
        assert prob.status == "optimal"
        values = [prob.value]
        for method in LP1_CHANNEL_METHODS:
            q, cons, _ = lp1_polytope(K, eps, method)
            prob = cp.Problem(cp.Maximize(c @ cp.diag(q)), cons)
            prob.solve(solver="HIGHS", highs_options=HIGHS_OPTIONS)
            assert prob.status == "optimal"
            values.append(prob.value)
        np.testing.assert_allclose(values, values[0], rtol=1e-9, atol=1e-9)


def _projection_holds(x, l, eps, tol=1e-12) -> bool:
    """Constraints (a) and (b) of the projected LP1 (module docstring), by numpy."""
    S = l.sum() - l
    e = math.exp(eps)
    return bool(np.all(l >= -tol) and np.all(l <= x + tol) and np.all(x <= e * l + tol)
                and np.all(S <= 1 - x + tol) and np.all(1 - x <= e * S + tol))


@pytest.mark.parametrize("K", [2, 3, 6, 20])
@pytest.mark.parametrize("eps", [0.1, 1.0, 4.0])
def test_projection_forward_direction_on_channels(K, eps):
    """(⇒) of the proof: every LP1-feasible q gives (diag q, column minima) satisfying (a), (b).
    Channels: randomized response, RRWithPrior, and random convex combinations of LP1 vertices."""
    import cvxpy as cp

    from simulations.mechanisms import RandomizedResponse, RRWithPrior

    rng = np.random.default_rng([22, K, int(10 * eps)])
    channels = [RandomizedResponse(K, eps).channel_matrix(),
                RRWithPrior(K, eps).channel_matrix(rng.dirichlet(np.full(K, 0.3)))]
    q, cons, _ = lp1_polytope(K, eps, "naive" if K <= 6 else "substitution")
    vertices = []
    for _ in range(3):
        prob = cp.Problem(cp.Maximize(cp.sum(cp.multiply(rng.normal(size=(K, K)), q))), cons)
        prob.solve(solver="HIGHS", highs_options=HIGHS_OPTIONS)
        vertices.append(polish_channel(q.value, eps))
    w = rng.dirichlet(np.ones(3))
    channels += vertices + [sum(wi * v for wi, v in zip(w, vertices))]
    for P in channels:
        assert satisfies_lp1(P, eps)
        assert _projection_holds(np.diag(P), P.min(axis=0), eps, tol=1e-9)


@pytest.mark.parametrize("K", [1, 2, 3, 10, 200])
@pytest.mark.parametrize("eps", [0.1, 1.0, 4.0, 20.0])
def test_projection_backward_direction_on_random_points(K, eps):
    """(⇐) of the proof, channel_from_envelope: random points (x, l) of the projected polytope (drawn
    by numpy: L = Σ l in [e^{-ε}, 1], each x_y uniform in its interval of (a) ∩ (b)) give a channel
    with diagonal x that satisfies 004's (2) and (3) exactly (to rounding)."""
    rng = np.random.default_rng([23, K, int(10 * eps)])
    e = math.exp(eps)
    for trial in range(10):
        l = rng.dirichlet(np.full(K, 0.5)) * rng.uniform(1 / e, 1.0)
        if trial % 3 == 0 and K > 1:
            l[rng.permutation(K)[: K // 2]] = 0.0  # zeros in the lower envelope
            l *= rng.uniform(1 / e, 1.0) / l.sum()
        S = l.sum() - l
        lo, hi = np.maximum(l, 1 - e * S), np.minimum(e * l, 1 - S)
        assert np.all(lo <= hi + 1e-15)
        x = lo + rng.uniform(size=K) * np.maximum(hi - lo, 0.0)
        assert _projection_holds(x, l, eps)
        P = channel_from_envelope(x, l, eps)
        np.testing.assert_allclose(np.diag(P), x, rtol=0, atol=1e-15)
        assert np.all(P >= 0) and np.abs(P.sum(axis=1) - 1).max() <= 1e-15 + K * 2.0**-52
        assert dp_violation(P, eps) <= 1e-15 and satisfies_lp1(P, eps, tol=1e-15)
        assert np.all(P.min(axis=0) >= l * (1 - 1e-15))  # l is a lower envelope of the columns
        assert check_channel(polish_channel(P, eps), eps).holds


def test_channel_from_envelope_repairs_solver_noise_and_refuses_bad_input():
    # a point violating (a), (b) by 1e-11 is moved onto the polytope, then the channel is exact
    eps = 1.0
    x, l = np.array([0.75 + 1e-11, 0.75, 0.0]), np.array([0.25, 0.25 - 1e-11, -1e-12])
    P = channel_from_envelope(x, l, math.log(3))
    assert np.abs(P.sum(axis=1) - 1).max() <= 1e-15 and dp_violation(P, math.log(3)) <= 1e-15
    with pytest.raises(ValueError, match="shape"):
        channel_from_envelope([0.5, 0.5], [0.5], eps)
    with pytest.raises(ValueError, match="finite"):
        channel_from_envelope([0.5, np.nan], [0.5, 0.5], eps)
    with pytest.raises(ValueError, match="positive"):
        channel_from_envelope([0.5, 0.5], [0.0, 0.0], eps)
    with pytest.raises(ValueError, match="eps"):
        channel_from_envelope([1.0], [1.0], 0.0)


def test_lp1_polytope_has_no_efficient_form():
    assert LP1_METHODS == ("efficient",) + LP1_CHANNEL_METHODS
    with pytest.raises(ValueError, match="lp1_projection"):
        lp1_polytope(3, 1.0, "efficient")
    q, _, n = lp1_polytope(3, 1.0)  # the default is the substitution form
    assert q.shape == (3, 3) and n == 12


def test_lp1_solves_after_a_highs_solve_with_another_thread_count():
    # HiGHS sizes one thread scheduler per process at its first solve; a threads = 1 solve after a
    # threads = 2 one failed ("scheduler has already been initialized"): rrwithprior_lp resets and retries
    import subprocess
    import sys
    from pathlib import Path

    code = ("import cvxpy as cp\n"
            "x = cp.Variable(2, nonneg=True)\n"
            "cp.Problem(cp.Maximize(cp.sum(x)), [x <= 1]).solve(solver='HIGHS', highs_options={'threads': 2})\n"
            "from proofs_checks.rrwithprior_lp import rrwithprior_lp, rrwithprior_value\n"
            "for method in ('efficient', 'naive'):\n"
            "    r = rrwithprior_lp([0.5, 0.3, 0.2], 1.0, method=method)\n"
            "    assert abs(r.value - rrwithprior_value([0.5, 0.3, 0.2], 1.0)) < 1e-9\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         cwd=Path(__file__).resolve().parents[2])
    assert out.returncode == 0, out.stderr


# ---------------------------------------------------------------- public API and bad input

def test_exported_from_package():
    assert proofs_checks.rrwithprior_lp is rrwithprior_lp
    assert proofs_checks.rrwithprior_value is rrwithprior_value


def test_result_fields():
    res = rrwithprior_lp([0.5, 0.3, 0.2], 1.0, "lp1", method="naive")
    assert (res.formulation, res.method, res.solver, res.status) == ("lp1", "naive", "HIGHS", "optimal")
    assert res.epsilon == 1.0 and res.solve_time >= 0 and res.wall_time >= res.solve_time
    with pytest.raises(AttributeError):
        res.value = 0.0  # frozen
    with pytest.raises(ValueError):
        res.channel[0, 0] = 1.0  # read-only


@pytest.mark.parametrize("prior", [[0.5, 0.6], [-0.1, 1.1], [[0.5, 0.5]], [], [np.nan, 1.0], 1.0])
def test_bad_prior(prior):
    with pytest.raises(ValueError, match="prior"):
        rrwithprior_lp(prior, 1.0)
    with pytest.raises(ValueError, match="prior"):
        rrwithprior_value(prior, 1.0)


@pytest.mark.parametrize("eps", [0.0, -1.0, math.inf, math.nan, "1"])
def test_bad_eps(eps):
    with pytest.raises(ValueError, match="eps"):
        rrwithprior_lp([0.5, 0.5], eps)
    with pytest.raises(ValueError, match="eps"):
        rrwithprior_value([0.5, 0.5], eps)


@pytest.mark.parametrize("kw,match", [({"formulation": "lp3"}, "formulation"), ({"method": "fast"}, "method"),
                                      ({"formulation": "lp2", "method": "envelope"}, "method"),
                                      ({"solver": "NOT_A_SOLVER"}, "solver")])
def test_bad_names(kw, match):
    with pytest.raises(ValueError, match=match):
        rrwithprior_lp([0.5, 0.5], 1.0, **kw)


def test_non_optimal_status_fails_loudly():
    p = make_prior("peaked", 10, seed=9)
    with pytest.warns(UserWarning), pytest.raises(RuntimeError, match="user_limit"):
        rrwithprior_lp(p, 1.0, solver_options={"highs_options": {"simplex_iteration_limit": 0}})


# ---------------------------------------------------------------- the experiment

def test_smoke_experiment_runs_and_every_claim_holds(smoke_run):
    # paper_repro.py's rrwithprior_lp at the smoke profile: the test run's one smoke run (tests/conftest.py)
    run = smoke_run("rrwithprior_lp")
    record, folder = run.record, run.folder
    assert "error" not in record
    assert len(record["claims"]) == 7
    assert all(c["holds"] for c in record["claims"]), [c for c in record["claims"] if not c["holds"]]
    assert (folder / "rrwithprior_lp.png").exists() and (folder / "agreement.csv").exists()
    header = (folder / "agreement.csv").read_text().splitlines()[0]
    assert "time" not in header  # timings stay out of the data files


def test_sample_prior_kinds():
    for kind in PRIOR_KINDS:
        p = sample_prior(kind, 12, np.random.default_rng(0))
        assert p.shape == (12,) and np.all(p >= 0) and p.sum() == pytest.approx(1.0)
    assert np.count_nonzero(sample_prior("sparse", 12, np.random.default_rng(0))) == 4
    with pytest.raises(ValueError, match="kind"):
        sample_prior("gaussian", 12, np.random.default_rng(0))


@pytest.mark.parametrize("formulation,method", [("lp1", "naive"), ("lp1", "envelope"), ("lp1", "efficient"),
                                                ("lp2", "naive"), ("lp2", "efficient")])
def test_largest_accepted_epsilon(formulation, method):
    # ε = EPS_MAX_LP still solves to the closed form; beyond it the LP is refused (the closed form is not)
    p = make_prior("peaked", 6, seed=10)
    res = rrwithprior_lp(p, EPS_MAX_LP, formulation, method=method)
    assert res.value == pytest.approx(rrwithprior_value(p, EPS_MAX_LP), rel=RTOL)
    with pytest.raises(ValueError, match="eps"):
        rrwithprior_lp(p, EPS_MAX_LP + 1, formulation, method=method)
    # w_K = Σ p / (1 + (K − 1)e^{−100}): the whole mass, up to rounding
    assert rrwithprior_value(p, 100.0) == pytest.approx(1.0, rel=1e-12)


# ---------------------------------------------------------------- issue 19: one prior rule, a silent solver

def _softmax32(K, seed):
    x = np.random.default_rng(seed).normal(size=K).astype(np.float32)
    e = np.exp(x - x.max())
    return (e / e.sum()).astype(np.float32)


@pytest.mark.parametrize("K", [3, 10, 100])
def test_float32_priors_follow_the_mechanisms_rule(K):
    # a float32 softmax sums to 1 only within ~K * 1.2e-7: refused by the closed form, the LP and utility_gap
    # before, accepted by the mechanisms and check_label_dp; now all use simulations' check_priors
    from simulations.mechanisms import RRWithPrior
    from simulations.mechanisms.labels import check_priors

    p32 = _softmax32(K, K)
    p64 = p32.astype(np.float64) / p32.astype(np.float64).sum()  # the renormalization the rule states
    np.testing.assert_array_equal(check_priors(p32, K), p64)
    assert rrwithprior_value(p32, 1.0) == rrwithprior_value(p64, 1.0)
    assert rrwithprior_k(p32, 1.0) == rrwithprior_k(p64, 1.0) == RRWithPrior(K, 1.0).k_star(p32)
    assert rrwithprior_lp(p32, 1.0).value == pytest.approx(rrwithprior_value(p64, 1.0), rel=RTOL)
    g = proofs_checks.utility_gap(RRWithPrior(K, 1.0), p32, 1.0)
    assert abs(g.gap) < 1e-12 and g.private


@pytest.mark.parametrize("prior", [np.array([True, False]), np.array(["0.5", "0.5"]), np.array([0.5 + 0j, 0.5]),
                                   np.array(["0.5", 0.5], dtype=object)])
def test_non_real_priors_are_refused_everywhere(prior):
    from simulations.mechanisms import RRWithPrior

    for fn in (lambda: rrwithprior_value(prior, 1.0), lambda: rrwithprior_lp(prior, 1.0),
               lambda: RRWithPrior(2, 1.0).channel_matrix(prior)):
        with pytest.raises(ValueError, match="prior must hold real numbers"):
            fn()


def test_an_lp_solve_prints_nothing_on_stdout():
    # HiGHS printed its copyright banner from the first Highs() object of the process (C++ stdout, so the
    # check is on file descriptor 1 of a fresh interpreter: within this session the banner may be long gone)
    import subprocess
    import sys

    code = ("from proofs_checks.rrwithprior_lp import rrwithprior_lp\n"
            "r1 = rrwithprior_lp([0.5, 0.3, 0.2], 1.0)\n"
            "r2 = rrwithprior_lp([0.5, 0.3, 0.2], 1.0, 'lp2')\n"
            "assert abs(r1.value - r2.value) < 1e-9\n")
    from pathlib import Path

    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         cwd=Path(__file__).resolve().parents[2])
    assert out.returncode == 0, out.stderr
    assert out.stdout == "", out.stdout


def test_an_lp_solve_prints_nothing_capfd(capfd):
    # file-descriptor level, in this process: no solver log for any solve (the once-per-process banner is
    # checked in a fresh interpreter above; here it may have been swallowed by an earlier test already)
    rrwithprior_lp([0.6, 0.4], 0.5)
    rrwithprior_lp([0.6, 0.4], 0.5, "lp2", method="naive")
    assert capfd.readouterr().out == ""
