"""004 Theorem 3 checked numerically: LP1 optimum = LP2 optimum = max_k w_k = Obj_p(RRWithPrior).

Independent references: the closed form is checked against exact (Fraction) enumeration of every
vertex of LP2 named in the proof of Theorem 3 (all non-empty label sets Y), and against values
derived by hand (uniform prior: plain randomized response; point mass: 1; two labels). The LP
optima are then compared with the closed form; the LP-optimal channels are checked for ε-DP by exact
enumeration (``proofs_checks.dp.check_channel``) and for feasibility by plain numpy, independently of
cvxpy; the three LP1 formulations are shown to describe the same polytope by comparing their
support functions in random directions.
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
from proofs_checks.rrwithprior_lp import (EPS_MAX_LP, dp_violation, lp1_polytope, polish_channel, rrwithprior_k,
                                          rrwithprior_lp, rrwithprior_value, rrwithprior_weights)

RTOL = 1e-6  # the agreement target between LP optima and the closed form
EPSILONS = (0.05, 0.5, 2.0, 10.0)
KINDS = ("near_uniform", "peaked", "sparse", "ties")
_EXPERIMENT_KIND = {"near_uniform": "dirichlet(100)", "peaked": "dirichlet(0.1)", "sparse": "sparse", "ties": "ties"}


def make_prior(kind: str, K: int, seed: int) -> np.ndarray:
    """A fixed-seed prior: near_uniform = Dirichlet(100), peaked = Dirichlet(0.1), sparse (zeros on
    two thirds of the labels), ties (masses proportional to integers in {1, 2, 3})."""
    return sample_prior(_EXPERIMENT_KIND[kind], K, np.random.default_rng([seed, K, KINDS.index(kind)]))


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
    for formulation, method in [("lp1", "naive"), ("lp1", "envelope"), ("lp1", "efficient"),
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
@pytest.mark.parametrize("K,method", [(2, "naive"), (6, "naive"), (6, "envelope"), (6, "efficient"),
                                      (40, "efficient")])
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
    """Same maximum of random linear functionals <C, q> over the three feasible sets: the sets of
    channels coincide (a closed convex set is the intersection of its supporting half-spaces)."""
    import cvxpy as cp

    rng = np.random.default_rng([7, K, int(10 * eps)])
    for _ in range(4):
        C = rng.normal(size=(K, K))
        values = []
        for method in ("naive", "envelope", "efficient"):
            q, cons, _ = lp1_polytope(K, eps, method)
            prob = cp.Problem(cp.Maximize(cp.sum(cp.multiply(C, q))), cons)
            prob.solve(solver="HIGHS", highs_options={"primal_feasibility_tolerance": 1e-10,
                                                      "dual_feasibility_tolerance": 1e-10})
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
    assert naive.n_constraints == 8 * 8 * 7 + 8 and efficient.n_constraints == 8 * 8 + 8


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

def test_smoke_experiment_runs_and_every_claim_holds(tmp_path):
    # The smoke experiment test: paper_repro.py's rrwithprior_lp at the smoke profile.
    import proofs_checks.experiments  # noqa: F401  (registers the experiment)
    from simulations.experiments import REGISTRY, RunContext
    from simulations.experiments.runner import run_experiment

    record = run_experiment(REGISTRY["rrwithprior_lp"], RunContext(profile="smoke", progress=False), tmp_path)
    assert "error" not in record
    assert len(record["claims"]) == 7
    assert all(c["holds"] for c in record["claims"]), [c for c in record["claims"] if not c["holds"]]
    folder = tmp_path / "rrwithprior_lp"
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
