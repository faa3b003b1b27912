"""004 Appendix G (Theorem 17, eq. (17)-(18)) and Corollaries 6/10: the closed forms, the miss-rate law,
the exact scores of the debiased ERM, LP-RR-SGD on RRTop-k labels, and the two experiments' smoke runs.

Expected values come from the paper's formulas re-derived here (fractions, integer binomials, brute-force
enumeration, a generic optimizer), never from the code under test.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from limits.generalization import (corollary10_bound, debiased_loss_constants, rademacher_all_functions,
                                   theorem17_bound)
from simulations.laws.top_k_miss import MissRateLaw
from simulations.learning.debiased_erm import (debiased_erm_scores, label_values, one_function_violation_probability,
                                               population_gaps)
from simulations.learning.private_sgd import debiased_gradient, debiased_loss, lp_sgd_logistic, lp_sgd_logistic_reference
from simulations.mechanisms import RRTopK
from simulations.stats import clopper_pearson

E3 = math.log(3)  # e^ε = 3: p_{k,ε} = 1/(2 + k) is rational


# ---- limits.generalization ------------------------------------------------------------------------------

def _rademacher_brute(n, probs):
    """E_S E_σ sup_{f: cells -> [0,1]} (1/n) Σ σ_i f(x_i), by enumerating every sample and sign vector
    (the sup of a linear function of f is at a vertex f ∈ {0, 1}^m)."""
    m = len(probs)
    total = Fraction(0)
    for xs in itertools.product(range(m), repeat=n):
        px = math.prod(probs[x] for x in xs)
        inner = Fraction(0)
        for sig in itertools.product((-1, 1), repeat=n):
            inner += max(sum(s for s, x in zip(sig, xs) if f[x]) for f in itertools.product((0, 1), repeat=m))
        total += px * inner / 2 ** n
    return total / n


@pytest.mark.parametrize("n,probs", [(1, (Fraction(1),)), (3, (Fraction(1),)), (4, (Fraction(1, 3), Fraction(2, 3))),
                                     (5, (Fraction(1, 2), Fraction(1, 4), Fraction(1, 4)))])
def test_rademacher_all_functions_matches_enumeration(n, probs):
    exact = _rademacher_brute(n, probs)
    assert rademacher_all_functions(n, [float(p) for p in probs]) == pytest.approx(float(exact), rel=1e-12)


def test_rademacher_large_n_matches_integer_arithmetic():
    """n = 250, 8 equal cells: Σ_N C(n,N) 7^(n-N)/8^n · N C(N-1, ⌊(N-1)/2⌋)/2^(N-1), in integers."""
    n, m = 250, 8
    acc = Fraction(0)
    for N in range(1, n + 1):
        e_abs = Fraction(N * math.comb(N - 1, (N - 1) // 2), 2 ** (N - 1))
        acc += Fraction(math.comb(n, N) * (m - 1) ** (n - N), m ** n) * e_abs
    exact = m * acc / (2 * n)
    assert rademacher_all_functions(n, [1 / m] * m) == pytest.approx(float(exact), rel=1e-11)


@pytest.mark.parametrize("K,k", [(2, 2), (4, 2), (5, 3), (3, 1)])
def test_debiased_loss_range_and_lipschitz_factor(K, k):
    """Range of ℓ̃ (eq. (17)) over every ℓ ∈ {0, 1}^K and ỹ ∈ Y_k, in fractions; e^ε = 3 so p = 1/(2 + k)."""
    p = Fraction(1, 2 + k)
    Y = list(range(k))
    vals = [(l[z] - p * sum(l[y] for y in Y)) / (1 - k * p) for l in itertools.product((0, 1), repeat=K) for z in Y]
    width = max(vals) - min(vals)
    assert width == (1 + (k - 2) * p) / (1 - k * p)  # derived in limits.generalization
    got = debiased_loss_constants(k, E3)
    assert got == pytest.approx((float(p), float((1 + k * p) / (1 - k * p)), float(width)), rel=1e-13)
    # the code's eq. (17) gives the same values (it is the one the experiments use)
    for l in itertools.product((0, 1), repeat=K):
        for z in Y:
            exp = (l[z] - p * sum(l[y] for y in Y)) / (1 - k * p)
            assert debiased_loss(list(l), z, E3, candidates=Y) == pytest.approx(float(exp), abs=1e-13)


def test_theorem17_bound_is_the_printed_formula():
    """004 eq. (18) written out: 2L(1+kp)/(1-kp) R + √(log(2/β)/(2n)) + miss; corrected: width × the middle term."""
    n, k, L, R, q, beta = 1000, 2, 2.0, 0.03, 0.1, 0.05
    p = 1 / (math.e + 1)
    printed = 2 * L * (1 + k * p) / (1 - k * p) * R + math.sqrt(math.log(2 / beta) / (2 * n)) + q
    width = 1 / (1 - 2 * p)
    corrected = 2 * L * (1 + k * p) / (1 - k * p) * R + width * math.sqrt(math.log(2 / beta) / (2 * n)) + q
    kw = dict(k=k, epsilon=1.0, lipschitz=L, rademacher=R, miss_rate=q, beta=beta)
    assert theorem17_bound(n, **kw) == pytest.approx(printed, rel=1e-13)
    assert theorem17_bound(n, **kw, corrected=True) == pytest.approx(corrected, rel=1e-13)
    with pytest.raises(ValueError, match="beta"):
        theorem17_bound(n, **{**kw, "beta": 1.0})


def test_corollary10_bound_formula():
    got = corollary10_bound(np.array([100, 10000]), k=2, epsilon=0.5, diameter=6.0, lipschitz=math.sqrt(2), miss_rate=0.2)
    exp = [6 * math.sqrt(2) * (2 * math.log(n) / (0.5 * math.sqrt(n)) + 0.2) for n in (100, 10000)]
    np.testing.assert_allclose(got, exp, rtol=1e-13)
    with pytest.raises(ValueError, match="n must be >= 2"):
        corollary10_bound(1, k=2, epsilon=0.5, diameter=1.0, lipschitz=1.0, miss_rate=0.0)


# ---- the law -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("q", [Fraction(0), Fraction(1, 20), Fraction(1, 5), Fraction(2, 5), Fraction(1)])
def test_miss_rate_is_exact(q):
    """Pr[y ∉ Y_k^x] = Σ_x (1/m) Σ_{y ∉ Y_k^x} η_q(x)_y = q, from the definition in fractions; the prior's
    top-k (RRTopK.top_k, ties to the smaller label) is Y_k^x."""
    K, tops, inside = 4, ((0, 1), (2, 3), (3, 0)), (Fraction(3, 4), Fraction(1, 4))
    law = MissRateLaw(num_classes=K, tops=tops, inside=tuple(float(w) for w in inside), miss_rate=float(q))
    miss = Fraction(0)
    for x, t in enumerate(tops):
        eta = {y: ((1 - q) * inside[t.index(y)] if y in t else q / (K - len(t))) for y in range(K)}
        assert sum(eta.values()) == 1
        np.testing.assert_allclose(law.eta()[x], [float(eta[y]) for y in range(K)], rtol=0, atol=1e-15)
        miss += sum(v for y, v in eta.items() if y not in t) / len(tops)
        assert set(RRTopK(K, 1.0, 2).top_k(law.prior()[x]).tolist()) == set(t)
    assert miss == q
    assert law.exact_miss_rate() == pytest.approx(float(q), abs=1e-15)


def test_miss_rate_law_sampler_and_guards():
    law = MissRateLaw(num_classes=4, tops=((0, 1), (2, 3)), inside=(0.75, 0.25), miss_rate=0.2)
    x, y = law.sample(200_000, np.random.default_rng(3))
    for c in (0, 1):
        freq = np.bincount(y[x == c], minlength=4) / (x == c).sum()
        sd = np.sqrt(law.eta()[c] * (1 - law.eta()[c]) / (x == c).sum())
        assert np.all(np.abs(freq - law.eta()[c]) < 5 * sd)  # 5 sd: a false alarm has probability < 1e-5
    with pytest.raises(ValueError, match="miss_rate must be 0 when k = K"):
        MissRateLaw(num_classes=2, tops=((0, 1),), inside=(0.5, 0.5), miss_rate=0.1)
    with pytest.raises(ValueError, match="tops"):
        MissRateLaw(num_classes=3, tops=((0, 0),), inside=(0.5, 0.5))


# ---- the exact scores of the debiased ERM ---------------------------------------------------------------------

def test_scores_against_brute_force_over_functions():
    """U = sup_f |L̃(f; S̃) − L(f; P)| and the ERM's excess: the code's closed forms against a brute-force search
    over f ∈ {0, 1/600, ..., 1}^cells, the empirical risk built from the code's own eq. (17) (debiased_loss)."""
    law = MissRateLaw(num_classes=4, tops=((0, 1), (2, 3), (1, 3)), inside=(0.75, 0.25), miss_rate=0.3)
    rng = np.random.default_rng(5)
    x, y = law.sample(60, rng)
    z = RRTopK(4, 1.0, 2).sample(y, rng, law.prior()[x])
    got = debiased_erm_scores(x, z, law, 1.0)
    c = label_values(4)
    grid = np.linspace(0, 1, 601)
    m, n = 3, x.size
    emp = np.zeros((m, grid.size))
    for i in range(n):
        Y = sorted(law.tops[x[i]])
        for j, t in enumerate(grid):
            emp[x[i], j] += debiased_loss((t - c) ** 2, int(z[i]), 1.0, candidates=Y) / n
    pop = np.array([[(law.eta()[cell] * (t - c) ** 2).sum() / m for t in grid] for cell in range(m)])
    D = emp - pop
    U_grid = max(D.max(axis=1).sum(), -D.min(axis=1).sum())
    assert U_grid <= got["uniform_deviation"] + 1e-12
    assert got["uniform_deviation"] - U_grid < 1e-4  # the grid step is 1/600
    f_hat = grid[emp.argmin(axis=1)]
    excess_grid = (pop[np.arange(m), emp.argmin(axis=1)] - pop.min(axis=1)).sum()
    assert got["erm_excess"] == pytest.approx(excess_grid, abs=1e-4)
    assert got["deviation_at_zero"] == pytest.approx(abs(D[:, 0].sum()), abs=1e-12)
    assert f_hat.shape == (m,)
    with pytest.raises(ValueError, match="Y_k"):
        debiased_erm_scores([0], [3], law, 1.0)  # label 3 is not in Y_k of cell 0


def test_population_gaps_exact():
    """n → ∞ limits in fractions: means μ, μ' of c_y = y/3 under η and the ξ-law, and the risk gap at t = 0, 1."""
    q = Fraction(1, 5)
    tops, inside = ((0, 1), (2, 3)), (Fraction(3, 4), Fraction(1, 4))
    law = MissRateLaw(num_classes=4, tops=tops, inside=(0.75, 0.25), miss_rate=float(q))
    c = [Fraction(y, 3) for y in range(4)]
    bias, hi, lo = Fraction(0), Fraction(0), Fraction(0)
    for t in tops:
        eta = [((1 - q) * inside[t.index(y)] if y in t else q / 2) for y in range(4)]
        xi = [((1 - q) * inside[t.index(y)] + q / 2 if y in t else 0) for y in range(4)]
        mu, mu2 = sum(e * v for e, v in zip(eta, c)), sum(e * v for e, v in zip(xi, c))
        bias += (mu2 - mu) ** 2 / 2
        gap0 = sum((e - e2) * v * v for e, e2, v in zip(eta, xi, c)) / 2  # L_P − L_P' on this cell at t = 0
        gap1 = sum((e - e2) * (1 - v) ** 2 for e, e2, v in zip(eta, xi, c)) / 2  # at t = 1 (linear in t between)
        hi, lo = hi + max(gap0, gap1), lo + min(gap0, gap1)  # f chosen cell by cell
    sup, exc = population_gaps(law)
    assert exc == pytest.approx(float(bias), abs=1e-15) and bias == Fraction(4, 9) * q * q
    assert sup == pytest.approx(float(max(hi, -lo)), abs=1e-15) and max(hi, -lo) == Fraction(2, 3) * q


def test_one_function_violation_probability_exact_small_n():
    """K = k = 2, e^ε = 3 (p = 1/4), n = 40: Z ~ Bin(40, 1/2); (18) with R = 0, no miss, is violated iff
    |Z/n − 1/2| > (1 − 2p)·√(log(2/β)/(2n)); the sum of C(n, z)/2^n over those z in integers."""
    n, beta = 40, 0.05
    rhs = math.sqrt(math.log(2 / beta) / (2 * n))
    viol = sum(math.comb(n, z) for z in range(n + 1) if abs(Fraction(z, n) - Fraction(1, 2)) > Fraction(1, 2) * rhs)
    exact = Fraction(viol, 2 ** n)
    assert one_function_violation_probability(n, E3, beta) == pytest.approx(float(exact), rel=1e-12)
    rhs_c = 2 * rhs  # corrected: range width 1/(1 - 2p) = 2
    viol_c = sum(math.comb(n, z) for z in range(n + 1) if abs(Fraction(z, n) - Fraction(1, 2)) > Fraction(1, 2) * rhs_c)
    assert one_function_violation_probability(n, E3, beta, corrected=True) == pytest.approx(viol_c / 2 ** n, rel=1e-12)


def test_clopper_pearson_ends():
    f, lo, hi = clopper_pearson(0, 100)
    assert (f, lo) == (0.0, 0.0) and hi == pytest.approx(1 - 0.025 ** (1 / 100), rel=1e-10)
    f, lo, hi = clopper_pearson(100, 100)
    assert hi == 1.0 and lo == pytest.approx(0.025 ** (1 / 100), rel=1e-10)
    with pytest.raises(ValueError, match="successes"):
        clopper_pearson(5, 4)


# ---- LP-RR-SGD on RRTop-k labels (004 Corollary 10) ---------------------------------------------------------------

def test_eq7_over_top_k_is_unbiased_exactly():
    """E over RRTop-k(y) of eq. (7) with K -> k over Y_k: g(y) for y ∈ Y_k; for y ∉ Y_k (ỹ uniform on Y_k,
    the map ξ) the mean of g over Y_k. Fractions, e^ε = 3, K = 5, k = 3."""
    K, Y = 5, [1, 3, 4]
    k = len(Y)
    g = [Fraction(v, 7) for v in (3, -2, 5, 11, -6)]
    c = Fraction(3 + k - 1, 3 - 1)
    ghat = {z: c * (g[z] - sum(g[j] for j in Y) / (3 + k - 1)) for z in Y}
    for y in range(K):
        law = ({z: (Fraction(3) if z == y else Fraction(1)) / (3 + k - 1) for z in Y} if y in Y else {z: Fraction(1, k) for z in Y})
        mean = sum(law[z] * ghat[z] for z in Y)
        assert mean == (g[y] if y in Y else sum(g[j] for j in Y) / k)
    P = RRTopK(K, E3, k).channel_matrix([0.1, 0.3, 0.05, 0.25, 0.3])  # top-3 = {1, 3, 4}
    G = np.array([[float(v)] for v in g])
    for z in Y:  # the code's eq. (7) on the candidates equals the fraction
        assert debiased_gradient(G[Y], Y.index(z), E3)[0] == pytest.approx(float(ghat[z]), abs=1e-13)
    for y in Y:
        assert sum(P[y, z] * float(ghat[z]) for z in Y) == pytest.approx(float(g[y]), abs=1e-12)


def test_top_k_sgd_kernel_matches_reference_and_guards():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(400, 3))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    y = rng.integers(0, 5, size=400)
    pri = rng.dirichlet(np.ones(5), size=400)
    for k in (2, 3, 5):
        a = lp_sgd_logistic(X, y, num_classes=5, method="rr", radius=2.0, rng=7, epsilon=0.7, prior=pri, k=k)
        b = lp_sgd_logistic_reference(X, y, num_classes=5, method="rr", radius=2.0, rng=7, epsilon=0.7, prior=pri, k=k)
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-12)
    with pytest.raises(ValueError, match="prior and k go together"):
        lp_sgd_logistic(X, y, num_classes=5, method="rr", radius=2.0, rng=7, epsilon=0.7, prior=pri)
    with pytest.raises(ValueError, match="prior and k go together"):
        lp_sgd_logistic(X, y, num_classes=5, method="nonprivate", radius=2.0, rng=7, prior=pri, k=2)


def test_top_k_sgd_first_step_by_hand():
    """One step from W = 0 (softmax uniform): ĝ = c_k((s − e_z) − (k s − 1_Y)/(e^ε + k − 1)) x^T with
    c_k = (e^ε + k − 1)/(e^ε − 1), η_1 = Dε/(6kL) (Theorem 9 with k): W_2 = −η_1 ĝ (inside the ball)."""
    K, k, eps, R = 4, 2, E3, 5.0
    x = np.array([[0.6, 0.8]])
    prior = np.array([[0.1, 0.5, 0.15, 0.25]])  # Y_2 = {1, 3}
    W = lp_sgd_logistic(x, [1], num_classes=K, method="rr", radius=R, rng=11, epsilon=eps, prior=prior, k=k)
    z = RRTopK(K, eps, k).sample([1], np.random.default_rng(11), prior)[0]  # the same privacy stream
    s = np.full(K, 0.25)
    ind = np.array([0, 1, 0, 1.0])
    v = 2.0 * ((s - np.eye(K)[z]) - (k * s - ind) / 4.0)  # c_k = (3 + 1)/(3 − 1) = 2, e^ε + k − 1 = 4
    eta1 = 2 * R * eps / (6 * k * math.sqrt(2) * 1.0)
    np.testing.assert_allclose(W, -eta1 * np.outer(v, x[0]), rtol=1e-12, atol=1e-14)


# ---- the experiments -------------------------------------------------------------------------------------------

def test_population_minimum_against_a_generic_optimizer():
    """min over the ball by accelerated projected gradient (4000 steps) = 40 000 steps to 1e-12 = SLSQP to 1e-7."""
    from scipy.optimize import minimize

    from simulations.experiments.learning.prior_quality_sgd import RADIUS, law_at, population_loss, population_minimum

    for q in (0.0, 0.4):
        eta = law_at(q).eta()
        v, W = population_minimum(eta)
        assert v == pytest.approx(population_minimum(eta, steps=40_000)[0], abs=1e-12)
        res = minimize(lambda w: population_loss(w.reshape(4, 3), eta), np.zeros(12), method="SLSQP",
                       constraints=[{"type": "ineq", "fun": lambda w: RADIUS ** 2 - w @ w}],
                       options={"ftol": 1e-12, "maxiter": 1000})
        assert res.fun >= v - 1e-9 and res.fun - v < 1e-6


def test_debiased_erm_topk_rhs_column_is_the_paper_formula(smoke_run):
    """The smoke run's RHS column against 004 eq. (18) with R_n in integer arithmetic (8 equal cells)."""
    rec = smoke_run("debiased_erm_topk").record
    assert rec["claims"] == []  # no claim at the smoke profile
    import csv

    rows = list(csv.DictReader(open(smoke_run("debiased_erm_topk").folder / "theorem17.csv")))
    p = 1 / (math.e + 1)
    for r in rows:
        n, q = int(r["n"]), float(r["miss_rate"])
        acc = Fraction(0)
        for N in range(1, n + 1):
            acc += Fraction(math.comb(n, N) * 7 ** (n - N), 8 ** n) * Fraction(N * math.comb(N - 1, (N - 1) // 2), 2 ** (N - 1))
        R = float(8 * acc / (2 * n))
        rhs = 2 * 2.0 * (1 + 2 * p) / (1 - 2 * p) * R + math.sqrt(math.log(2 / 0.05) / (2 * n)) + q
        assert float(r["rhs18"]) == pytest.approx(rhs, rel=1e-10)
        assert float(r["u_mean"]) < float(r["rhs18"])


def test_prior_quality_sgd_smoke(smoke_run):
    import csv

    rec = smoke_run("prior_quality_sgd").record
    assert rec["claims"] == []
    rows = list(csv.DictReader(open(smoke_run("prior_quality_sgd").folder / "corollary10.csv")))
    for r in rows:
        k = 2 if r["method"] == "top_k" else 4
        q = float(r["miss_rate"]) if k == 2 else 0.0
        n, eps = int(r["n"]), float(r["epsilon"])
        assert float(r["bound8"]) == pytest.approx(12 * math.sqrt(2) * (k * math.log(n) / (eps * math.sqrt(n)) + q),
                                                   rel=1e-12)
        assert float(r["excess_mean"]) >= -1e-9  # the minimum over the ball is below every iterate's loss
