r"""The best (ε, δ)-label-DP randomizer for a prior: three LPs, a closed form, and an exact check.

004 Theorem 3 finds the ε-DP label randomizer R maximizing Obj_p(R) = P_{y~p}[R(y) = y]
(RRWithPrior, value max_k w_k, w_k = e^ε/(e^ε + k − 1) · Σ_{top-k} p). The papers do not treat
(ε, δ) label randomizers; this module asks the same question with the δ of 001 Definition 2.2:
maximize Σ_y p_y M[y, y] over channels M (rows P(· | y), outputs = labels) such that for every
ordered pair (y, y') the hockey-stick divergence

    H(y, y') = Σ_z max(0, M[y, z] − e^ε M[y', z]) <= δ.

Outputs outside the labels do not help: merging them into labels is post-processing (still
(ε, δ)-DP) and does not lower P(ỹ = y), so M can be taken K x K.

The suite's theorem: OPT(p, ε, δ) = δ + (1 − δ) max_k w_k  (δ <= 1)
------------------------------------------------------------------------
(>=) The mixture M = δ I + (1 − δ) R*, R* RRWithPrior's channel (:func:`mixture_channel`):
row y of M exceeds e^ε times row y' only at z = y, by δ + (1 − δ)(R*[y, y] − e^ε R*[y', y]) <= δ
(R* is ε-DP), so H <= δ; its accuracy is δ + (1 − δ) max_k w_k.
(<=) Take the event {y} in the hockey stick: M[y, y] − e^ε M[y', y] <= H(y, y') <= δ, so
M[y', y] >= e^{−ε} (x_y − δ)_+ with x = diag M; row y' sums to 1, hence the **relaxation**

    x_{y'} + e^{−ε} Σ_{y ≠ y'} (x_y − δ)_+ <= 1    for every y'.                     (R)

Let A = {y : x_y > δ} and u_y = x_y − δ on A. Then Σ p_y x_y <= δ + Σ_{y∈A} p_y u_y, and (R) at
y' ∈ A reads u_{y'} + e^{−ε} Σ_{y∈A∖{y'}} u_y <= 1 − δ: u / (1 − δ) is feasible for 004's LP2 on
the labels A (eq. (4)), whose optimum for the weights p|_A is max_{k<=|A|} e^ε/(e^ε+k−1) · (top-k
mass of p in A) <= max_k w_k (004 Theorem 3's vertex argument holds for any non-negative weights).
So Σ p_y x_y <= δ + (1 − δ) max_k w_k. (Uniform prior, independently: averaging an optimal M over
the label permutations keeps it feasible (the constraint set is convex and permutation-invariant)
and optimal, so M = a I + b (J − I); H = a − e^ε b <= δ with a + (K−1) b = 1 gives the keep
probability a = (e^ε + δ(K−1)) / (e^ε + K − 1), :func:`uniform_keep_probability`; the theorem's
value is the same number.) How much δ buys in accuracy is therefore exactly δ (1 − max_k w_k).

The three LPs (``method``)
--------------------------
``"general"``
    The definition, linear with slacks s[y, y', z] >= M[y, z] − e^ε M[y', z], s >= 0,
    Σ_z s[y, y', z] <= δ: K² + K²(K − 1) variables. 0.03 s at K = 10, 0.8 s at K = 20, 13 s at
    K = 30, 630 s at K = 40 (HiGHS, one thread, here): the reference for K <= 20.
``"structured"`` (default)
    The channels whose column z lies in [l_z, e^ε l_z] off the diagonal, with the diagonal entry
    x_z in [l_z, e^ε l_z + δ]. Every such channel is (ε, δ)-DP: H(y, y') can be positive only at
    z = y, where it is x_y − e^ε M[y', y] <= x_y − e^ε l_y <= δ. As 004's LP1 in
    :func:`proofs_checks.rrwithprior_lp.lp1_projection`, it projects onto (x, l) with
    S_y = Σ_{z≠y} l_z: (a') l_y <= x_y <= e^ε l_y + δ, (b) S_y <= 1 − x_y <= e^ε S_y; the channel is
    rebuilt by :func:`channel_from_structured`. 2K + 1 variables, 4K + 1 rows: a restriction (value
    <= OPT) that contains the mixture above, hence attains OPT. ~0.05 s at K = 100 (build + solve).
``"relaxation"``
    (R) with u_y >= x_y − δ, u >= 0, 0 <= x <= 1 and U = Σ u: an upper bound (value >= OPT), O(K)
    rows, no channel. Structured = relaxation = OPT certifies the optimum at any K; the general LP
    checks both where it runs.

The exact check is :func:`proofs_checks.exact_hockey_stick.exact_hockey_stick` (integers, a rational
lower bound on e^ε); :func:`polish_approx_channel` gives the solver's channel the 1e-12 of slack that
it needs, by mixing with the uniform channel.

References
----------
004 Section 3.2 (Theorem 3, LP1 eqs. (2)–(3), LP2 eqs. (4)–(5)), Algorithm 2; 001 Definition 2.2
((ε, δ)-DP); 003 Definition 3 (local label DP).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from limits.validation import (check_choice, check_int, check_positive, check_probability, check_real,
                               check_size)

from .rrwithprior_lp import DEFAULT_SOLVER, EPS_MAX_LP, _DEFAULT_OPTIONS, _check_prior, _swallow_highs_banner
from .rrwithprior_lp import rrwithprior_value

__all__ = ["APPROX_METHODS", "ApproxLPResult", "GENERAL_MAX_SLACKS", "POLISH_SLACK", "approx_optimum",
           "approx_randomizer_lp", "channel_from_structured", "mixture_channel", "polish_approx_channel", "uniform_keep_probability"]

APPROX_METHODS = ("structured", "general", "relaxation")
# The general LP's slack variables K²(K − 1): beyond 10^6 (K ~ 100) HiGHS needs hours here (630 s at
# K = 40, 6.2e4 slacks), so larger K is refused up front; the structured LP gives the same optimum.
GENERAL_MAX_SLACKS = 10**6
# Slack (absolute, in H) left by polish_approx_channel: above the float rounding of H (K ulps of
# e^ε, ~2e-13 at K = 100, ε = 2) and of the exact check's row fix, so that the rationalized
# channel passes exactly; its cost in accuracy is ~1e-12 K/(e^ε − 1) (~1e-10 at K = 100, ε = 0.5).
POLISH_SLACK = 1e-12


def approx_optimum(prior, epsilon, delta) -> float:
    """OPT(p, ε, δ) = δ + (1 − δ) max_k w_k: the largest P(ỹ = y) of an (ε, δ)-label-DP randomizer.

    Parameters
    ----------
    prior : array_like, shape (K,)
        The prior p (the suite's one prior rule, as :func:`proofs_checks.rrwithprior_lp.rrwithprior_weights`).
    epsilon : float
        ε > 0.
    delta : float
        0 <= δ <= 1.

    Returns
    -------
    float
        The optimum (the module docstring proves it; at δ = 0 it is 004 Theorem 3's max_k w_k).

    Raises
    ------
    ValueError
        An invalid prior, ε or δ.

    References
    ----------
    004 Theorem 3 and Algorithm 2 (δ = 0); the (ε, δ) extension is the suite's (module docstring).

    Examples
    --------
    Prior (0.5, 0.3, 0.2) at e^ε = 3: max_k w_k = 0.6, so δ = 0.1 buys 0.1 x 0.4:

    >>> round(approx_optimum([0.5, 0.3, 0.2], math.log(3), 0.1), 12)
    0.64
    """
    delta = check_probability("delta", delta, allow_one=True)
    return delta + (1.0 - delta) * rrwithprior_value(prior, epsilon)


def uniform_keep_probability(num_classes, epsilon, delta) -> float:
    """Keep probability (e^ε + δ(K − 1)) / (e^ε + K − 1) of the (ε, δ)-optimal channel, uniform prior.

    Derived by symmetrization (module docstring): the optimal channel is a I + b (J − I) with the
    hockey stick a − e^ε b = δ; independent of :func:`approx_optimum`, which it equals.

    Parameters
    ----------
    num_classes : int
        K >= 1.
    epsilon : float
        ε > 0.
    delta : float
        0 <= δ <= 1.

    Returns
    -------
    float
        a; P(ỹ = y) of the optimum for the uniform prior.

    Raises
    ------
    ValueError
        K not an integer >= 1, ε not > 0, δ not in [0, 1].

    References
    ----------
    004 eq. (1) (δ = 0: randomized response); the suite's derivation for δ > 0.

    Examples
    --------
    >>> round(uniform_keep_probability(4, math.log(3), 0.1), 12)  # (3 + 0.3) / 6
    0.55
    """
    K = check_int("num_classes", num_classes, low=1)
    epsilon = check_positive("epsilon", epsilon)
    delta = check_probability("delta", delta, allow_one=True)
    return (1.0 + delta * (K - 1) * math.exp(-epsilon)) / (1.0 + (K - 1) * math.exp(-epsilon))


def mixture_channel(prior, epsilon, delta) -> np.ndarray:
    """The channel δ I + (1 − δ) R* (R* = RRWithPrior's for the prior): (ε, δ)-DP and optimal.

    Parameters
    ----------
    prior : array_like, shape (K,), K >= 2
        The prior p.
    epsilon : float
        ε > 0.
    delta : float
        0 <= δ <= 1.

    Returns
    -------
    ndarray, shape (K, K)
        Rows P(ỹ | y): "reveal the label with probability δ, else run RRWithPrior".

    Raises
    ------
    ValueError
        An invalid prior (or K < 2), ε or δ.

    References
    ----------
    004 Algorithm 2 (R*); the module docstring (optimality).

    Examples
    --------
    >>> mixture_channel([0.9, 0.1], math.log(3), 0.5).tolist()  # R* outputs label 0 always (k* = 1)
    [[1.0, 0.0], [0.5, 0.5]]
    """
    from simulations.mechanisms import RRWithPrior

    p = _check_prior(prior)
    delta = check_probability("delta", delta, allow_one=True)
    R = RRWithPrior(p.size, epsilon).channel_matrix(p)
    return delta * np.eye(p.size) + (1.0 - delta) * R


def channel_from_structured(diagonal, lower, epsilon, delta) -> np.ndarray:
    """The channel of a point (x, l) of the structured LP: (ε, δ)-DP by construction.

    The solver's point is first moved onto the polytope: l >= 0 is rescaled so that L = Σ l lies in
    [e^{−ε}(1 − δ), 1] (the condition for (a'), (b) to admit a diagonal), and x_y is clipped into
    [max(l_y, 1 − e^ε S_y), min(e^ε l_y + δ, 1 − S_y)]. Then row y is x_y on the diagonal and
    (T_y / S_y) l_z off it (T_y = 1 − x_y, the ratio clipped into [1, e^ε]).

    Parameters
    ----------
    diagonal : array_like, shape (K,)
        x_y = M[y, y].
    lower : array_like, shape (K,)
        l_z, the lower envelope of column z off the diagonal.
    epsilon : float
        ε > 0.
    delta : float
        0 <= δ <= 1.

    Returns
    -------
    ndarray, shape (K, K)
        Non-negative, rows summing to 1 up to rounding, H(y, y') <= δ up to rounding.

    Raises
    ------
    ValueError
        Shapes that differ or are not (K,), non-finite entries, ε or δ invalid, Σ max(l, 0) = 0.

    References
    ----------
    004 Section 3.2 (LP1's envelope form, ``rrwithprior_lp.channel_from_envelope``), with δ.

    Examples
    --------
    K = 2, e^ε = 3, δ = 0.1: l = (1/4, 1/4), x = (3/4 + 0.1, 3/4 + 0.1) is not feasible for (b)
    (T = 0.15 < S = 0.25), so x is clipped to 1 − S = 3/4:

    >>> channel_from_structured([0.85, 0.85], [0.25, 0.25], math.log(3), 0.1)
    array([[0.75, 0.25],
           [0.25, 0.75]])
    """
    epsilon = check_positive("epsilon", epsilon)
    delta = check_probability("delta", delta, allow_one=True)
    x, l = np.asarray(diagonal, dtype=float), np.asarray(lower, dtype=float)
    if x.ndim != 1 or x.shape != l.shape or x.size == 0 or not (np.all(np.isfinite(x)) and np.all(np.isfinite(l))):
        raise ValueError(f"diagonal and lower must be finite arrays of shape (K,), got {x.shape} and {l.shape}")
    e = math.exp(epsilon)
    l = np.maximum(l, 0.0)
    total = l.sum()
    if total <= 0.0:
        raise ValueError("lower must have a positive entry")
    low = (1.0 - delta) / e
    l = l / total if total > 1.0 else (l * (low / total) if total < low else l)
    off = np.broadcast_to(l, (l.size, l.size)).copy()
    np.fill_diagonal(off, 0.0)
    S = off.sum(axis=1)
    lo = np.maximum(l, 1.0 - e * S)
    hi = np.minimum(e * l + delta, 1.0 - S)
    x = np.minimum(np.maximum(x, lo), np.maximum(hi, lo))
    with np.errstate(divide="ignore", invalid="ignore"):
        scale = np.where(S > 0.0, np.clip((1.0 - x) / S, 1.0, e), 0.0)
    q = scale[:, None] * off
    np.fill_diagonal(q, x)
    return q


def _pair_hockey_sticks(channel: np.ndarray, e: float) -> np.ndarray:
    """H[y, y'] = Σ_z max(0, M[y, z] − e M[y', z]) for all ordered pairs (float, vectorized over y')."""
    return np.stack([np.maximum(0.0, row[None, :] - e * channel).sum(axis=1) for row in channel])


def polish_approx_channel(channel, epsilon, delta) -> np.ndarray:
    """A solver's channel made a valid stochastic matrix with max H <= δ − :data:`POLISH_SLACK`.

    Negative round-off is clipped and rows renormalized; then, if max H > δ − slack, the channel is
    mixed with the uniform channel U: (1 − t) M + t U. Mixing scales every H by (1 − t) and lowers
    each positive term by t (e^ε − 1)/K, so t = (η + slack)/(δ + η + (e^ε − 1)/K) with
    η = max H − δ suffices; t is of the order of the solver's tolerance (1e-10) and the accuracy
    drops by at most t.

    Parameters
    ----------
    channel : array_like, shape (K, K)
        Non-negative up to round-off, rows summing to 1 up to round-off.
    epsilon : float
        ε > 0.
    delta : float
        0 <= δ <= 1.

    Returns
    -------
    ndarray, shape (K, K)

    Raises
    ------
    ValueError
        A channel that is not finite, square and non-empty with positive rows; ε or δ invalid.

    References
    ----------
    001 Definition 2.2; 004 Section 3.2 (``rrwithprior_lp.polish_channel``, the δ = 0 analogue).

    Examples
    --------
    Randomized response at e^ε = 3 has H = 0 at ε = ln 3; asked for ε = ln 2, δ = 0.2 (H = 0.25)
    it is mixed with U until H = 0.2 − 1e-12:

    >>> M = polish_approx_channel([[0.75, 0.25], [0.25, 0.75]], math.log(2), 0.2)
    >>> round(float(M[0, 0] - 2 * M[1, 0]), 9)
    0.2
    """
    epsilon = check_positive("epsilon", epsilon)
    delta = check_probability("delta", delta, allow_one=True)
    M = np.maximum(np.asarray(channel, dtype=float), 0.0)
    if M.ndim != 2 or M.shape[0] != M.shape[1] or M.size == 0 or not np.all(np.isfinite(M)) or np.any(M.sum(1) <= 0):
        raise ValueError(f"channel must be a finite square non-empty array with positive rows, got shape {M.shape}")
    M = M / M.sum(axis=1, keepdims=True)
    K, e = M.shape[0], math.exp(epsilon)
    eta = float(_pair_hockey_sticks(M, e).max()) - delta
    if eta + POLISH_SLACK <= 0.0 or K == 1:
        return M
    t = min(1.0, (eta + 2 * POLISH_SLACK) / (delta + eta + (e - 1.0) / K))
    return (1.0 - t) * M + t / K


@dataclass(frozen=True, slots=True)
class ApproxLPResult:
    """Solution of one (ε, δ) LP (:func:`approx_randomizer_lp`).

    Parameters
    ----------
    value : float
        The solver's optimum of Σ_y p_y M[y, y] (``"relaxation"``: an upper bound on it).
    channel : ndarray, shape (K, K), or None
        The polished channel (:func:`polish_approx_channel`); None for ``"relaxation"``.
    channel_value : float
        Σ_y p_y M[y, y] of ``channel`` (NaN for ``"relaxation"``); below ``value`` by the polish only.
    method : str
        One of :data:`APPROX_METHODS`.
    epsilon, delta : float
        The privacy parameters.
    n_variables, n_constraints : int
        Scalar variables and rows passed to the solver (sign bounds not counted).
    wall_time : float
        Seconds to build, compile and solve.

    References
    ----------
    004 Section 3.2 (LP1); the module docstring (the (ε, δ) forms).

    Examples
    --------
    >>> r = approx_randomizer_lp([0.5, 0.3, 0.2], math.log(3), 0.1)
    >>> round(r.value, 9), r.n_variables, r.n_constraints   # δ + (1 − δ) 0.6
    (0.64, 7, 13)
    """

    value: float
    channel: np.ndarray | None
    channel_value: float
    method: str
    epsilon: float
    delta: float
    n_variables: int
    n_constraints: int
    wall_time: float


def _general(p: np.ndarray, epsilon: float, delta: float):
    import cvxpy as cp

    K, h = p.size, math.exp(-epsilon / 2)   # rows a <= e^ε b + s written e^{−ε/2} a <= e^{ε/2} b + e^{−ε/2} s
    M = cp.Variable((K, K), nonneg=True)
    y, y2 = np.nonzero(~np.eye(K, dtype=bool))
    cons = [cp.sum(M, axis=1) == 1]
    n_var = K * K
    if y.size:
        s = cp.Variable((y.size, K), nonneg=True)
        cons += [h * M[y, :] <= M[y2, :] / h + h * s, cp.sum(s, axis=1) <= delta]
        n_var += y.size * K
    return cp.Problem(cp.Maximize(p @ cp.diag(M)), cons), M, n_var, K + y.size * (K + 1)


def _structured(p: np.ndarray, epsilon: float, delta: float):
    import cvxpy as cp

    K, h = p.size, math.exp(-epsilon / 2)
    x, l, L = cp.Variable(K, nonneg=True), cp.Variable(K, nonneg=True), cp.Variable()
    S = L - l
    cons = [l <= x, h * x <= l / h + h * delta,           # (a'): the diagonal may exceed e^ε l by δ
            S <= 1 - x, h * (1 - x) <= S / h,              # (b): the off-diagonal entries of row y
            L == cp.sum(l)]
    return cp.Problem(cp.Maximize(p @ x), cons), (x, l), 2 * K + 1, 4 * K + 1


def _relaxation(p: np.ndarray, epsilon: float, delta: float):
    import cvxpy as cp

    K, a = p.size, math.exp(-epsilon)
    x, u, U = cp.Variable(K, nonneg=True), cp.Variable(K, nonneg=True), cp.Variable()
    cons = [x <= 1, u >= x - delta, x + a * (U - u) <= 1, U == cp.sum(u)]   # (R)
    return cp.Problem(cp.Maximize(p @ x), cons), None, 2 * K + 1, 3 * K + 1


def approx_randomizer_lp(prior, epsilon, delta, method: str = "structured", *, solver: str | None = None,
                         solver_options: dict | None = None) -> ApproxLPResult:
    """Solve for the best (ε, δ)-label-DP randomizer of a prior (the LPs of the module docstring).

    Parameters
    ----------
    prior : array_like, shape (K,)
        The prior p (the suite's one prior rule; zeros allowed).
    epsilon : float
        0 < ε <= :data:`proofs_checks.rrwithprior_lp.EPS_MAX_LP`.
    delta : float
        0 <= δ <= 1.
    method : {"structured", "general", "relaxation"}
        ``"general"``: the definition with K³ slacks (K <= 20 in seconds); ``"structured"``: the
        O(K) restriction (a channel at K = 100 in milliseconds); ``"relaxation"``: the O(K) upper
        bound (R).
    solver : str, optional
        A cvxpy solver; default HiGHS, one thread, feasibility tolerances 1e-10 (as LP1's).
    solver_options : dict, optional
        Keyword arguments for ``cvxpy.Problem.solve`` (replace the defaults).

    Returns
    -------
    ApproxLPResult

    Raises
    ------
    ValueError
        Invalid prior, ε, δ, method or solver; ``"general"`` with more than
        :data:`GENERAL_MAX_SLACKS` slack variables (K > 100).
    RuntimeError
        The solver does not report ``"optimal"``.

    References
    ----------
    004 Section 3.2 (LP1, Theorem 3); 001 Definition 2.2.

    Examples
    --------
    Uniform prior, K = 4, e^ε = 3, δ = 0.1: keep probability (3 + 0.3)/6 = 0.55 by all three LPs:

    >>> [round(approx_randomizer_lp([0.25] * 4, math.log(3), 0.1, m).value, 9) for m in APPROX_METHODS]
    [0.55, 0.55, 0.55]
    """
    import cvxpy as cp

    p = _check_prior(prior)
    epsilon = check_real("epsilon", epsilon, low=0.0, low_open=True, high=EPS_MAX_LP)
    delta = check_probability("delta", delta, allow_one=True)
    check_choice("method", method, APPROX_METHODS)
    if method == "general":
        check_size("len(prior)", p.size, GENERAL_MAX_SLACKS, size=p.size**2 * (p.size - 1),
                   what="slack variables of the general LP (use method='structured')")
    solver = DEFAULT_SOLVER if solver is None else solver
    check_choice("solver", solver, tuple(cp.installed_solvers()))
    opts = dict(_DEFAULT_OPTIONS.get(solver, {}) if solver_options is None else solver_options)
    _swallow_highs_banner()
    t0 = time.perf_counter()
    problem, var, n_var, n_con = {"general": _general, "structured": _structured,
                                  "relaxation": _relaxation}[method](p, epsilon, delta)
    try:
        problem.solve(solver=solver, **opts)
    except cp.error.SolverError as exc:
        raise RuntimeError(f"{solver} failed on the {method} (ε, δ) LP, K={p.size}, epsilon={epsilon}, "
                           f"delta={delta}: {exc}") from exc
    wall = time.perf_counter() - t0
    if problem.status != cp.OPTIMAL:
        raise RuntimeError(f"{solver} returned status {problem.status!r} on the {method} (ε, δ) LP, K={p.size}, "
                           f"epsilon={epsilon}, delta={delta}; expected 'optimal'")
    channel, channel_value = None, math.nan
    if method != "relaxation":
        raw = (channel_from_structured(var[0].value, var[1].value, epsilon, delta) if method == "structured"
               else np.asarray(var.value, dtype=float))
        channel = polish_approx_channel(raw, epsilon, delta)
        channel.setflags(write=False)
        channel_value = float(p @ np.diag(channel))
    return ApproxLPResult(value=float(problem.value), channel=channel, channel_value=channel_value, method=method,
                          epsilon=epsilon, delta=delta, n_variables=n_var, n_constraints=n_con, wall_time=wall)
