"""The linear programs behind the optimality of RRWithPrior (004 Section 3.2, Theorem 3).

Theorem 3 of 004 says that among all ε-DP label randomizers R, RRWithPrior maximizes
Obj_p(R) = P_{y~p}[R(y) = y]. Its proof bounds Obj_p(R) by the optimum of **LP1** (maximize
Σ_y p_y q[y|y] over channels q, subject to the ε-DP constraints (2) and the row sums (3)), then by
the relaxation **LP2** (constraints (4) and (5), on the diagonal q[y|y] only), whose vertices give
max_k w_k with w_k = e^ε/(e^ε+k−1) · Σ_{top-k} p (004 Algorithm 2). This module solves both LPs
with cvxpy, so the chain LP1 = LP2 = max_k w_k is checked numerically rather than assumed, and gives
the closed form :func:`rrwithprior_value` written from the paper, independently of the mechanism
code in ``simulations`` (it is the oracle the mechanism is tested against).

Formulations of LP1 (``method``)
--------------------------------
``"naive"``
    Constraint (2) literally: q[ỹ|y] <= e^ε q[ỹ|y'] for every ỹ and every ordered pair y != y'
    (the pairs y = y' are vacuous): K²(K−1) inequalities.
``"envelope"``
    Per output ỹ, envelopes l_ỹ <= q[ỹ|y] <= u_ỹ for all y and u_ỹ <= e^ε l_ỹ: 2K² + K inequalities.
``"substitution"`` (the ``"efficient"`` form before issue 20; kept as the channel-variable reference)
    The envelope form with u_ỹ = e^ε l_ỹ and the substitution q[ỹ|y] = l_ỹ + r[y, ỹ]:
    0 <= r[y, ỹ] <= (e^ε − 1) l_ỹ. The lower envelope becomes the variable bound r >= 0, leaving K²
    inequalities and K equalities. Dual simplex needs ~K² iterations: 0.2 s at K = 100, 3.6 s at
    K = 300, 210 s at K = 1000 (HiGHS seconds alone; ``benchmarks/bench_lp.py``).
``"efficient"`` (default)
    LP1 projected onto (x, l), x_y = q[y|y] the diagonal and l_ỹ the lower envelope, with
    S_y = Σ_{ỹ≠y} l_ỹ = L − l_y (L = Σ l an auxiliary variable)::

        maximize  Σ_y p_y x_y   over x, l >= 0, L
        (a)  l_y <= x_y <= e^ε l_y                    for every y
        (b)  S_y <= 1 − x_y <= e^ε S_y                 for every y
             L = Σ_ỹ l_ỹ

    2K + 1 variables, 4K + 1 rows, O(K) nonzeros: milliseconds at K = 1000. The optimal channel is
    rebuilt from (x, l) by :func:`channel_from_envelope` (the (⇐) half of the proof below).

Equivalence (all four have the same optimum; the first three the same set of channels q, the fourth
its image under q -> (diag q, column minima)):

* naive = envelope = substitution. If q satisfies (2), put l_ỹ = min_y q[ỹ|y] and
  u_ỹ = max_y q[ỹ|y]; (2) at the pair (argmax, argmin) gives u_ỹ <= e^ε l_ỹ, so (q, u, l) is
  envelope-feasible, and r = q − l satisfies 0 <= r <= u − l <= (e^ε − 1) l. Conversely, an
  envelope-feasible point has q[ỹ|y] <= u_ỹ <= e^ε l_ỹ <= e^ε q[ỹ|y'] for all y, y', i.e. (2); and a
  substitution-feasible (l, r) gives q = l + r with l_ỹ <= q[ỹ|y] <= e^ε l_ỹ, the envelope form with
  u = e^ε l.
* substitution = efficient (a projection of LP1 that still implies 004's (4), so it lies between
  LP1 and LP2 in the proof of Theorem 3). (⇒) If q is LP1-feasible, take x = diag q and l_ỹ = min_y q[ỹ|y] >= 0.
  By (2) every entry of column ỹ lies in [l_ỹ, e^ε l_ỹ]: for the diagonal entry this is (a); summed
  over the off-diagonal entries ỹ != y of row y, which add up to 1 − x_y by (3), it is (b).
  (⇐) If (x, l) satisfies (a), (b), put T_y = 1 − x_y and, for ỹ != y,
  q[ỹ|y] = (T_y / S_y) l_ỹ (q[ỹ|y] = 0 when S_y = 0, where (b) forces T_y = 0), q[y|y] = x_y. By (b)
  T_y / S_y ∈ [1, e^ε], so with (a) every entry of column ỹ lies in [l_ỹ, e^ε l_ỹ]: max/min <= e^ε
  in each column, which is (2); row y sums to x_y + T_y = 1, which is (3); q >= 0. Both maps keep
  the diagonal, so the set of diagonals {diag q : q LP1-feasible} is the projection of the efficient
  polytope on x, and since the objective Σ_y p_y q[y|y] depends on the diagonal alone, the optima
  coincide for every prior. (Putting the upper half of (a), l_ỹ >= e^{−ε} x_ỹ, into the lower half
  of (b), S_y <= 1 − x_y, gives x_y + e^{−ε} Σ_{ỹ≠y} x_ỹ <= 1, which is 004's (4): LP2 relaxes this
  projection exactly as Theorem 3's proof relaxes LP1.)

The tests check the equalities on many priors (values to 1e-9 and against the closed form), the
projections by support functions in random directions, and both directions of the proof on points.

LP2 (``formulation="lp2"``) has variables x_y = q[y|y] only. ``method="naive"`` writes (4) as the
dense K×K system x_y + e^{−ε} Σ_{ỹ≠y} x_ỹ <= 1; ``"efficient"`` introduces the total s = Σ_ỹ x_ỹ
and writes (1 − e^{−ε}) x_y + e^{−ε} s <= 1: O(K) nonzeros, which solves K = 1000 in well under a
second.

Numerics: every LP1 row of the form a <= e^ε b is passed as e^{−ε/2} a <= e^{ε/2} b, HiGHS runs
with feasibility tolerances 1e-10, and ε is capped at :data:`EPS_MAX_LP`; the comments at those
constants give the failures each one prevents. The solver's channel is polished
(:func:`polish_channel`) so that it passes the exact DP check.

Paper note: 004 writes the objective of Obj_p, LP1 and LP2 as a sum over y ∈ [k]; it must be
y ∈ [K] (all labels; k is not yet defined there). Everything else in the proof of Theorem 3 (the
implication (2)+(3) => (4), the vertex solutions q[y|y] = e^ε/(e^ε+|Y|−1) on Y, and the reduction
to max_k w_k) is confirmed here to solver precision.

References
----------
004 Section 3.2: Theorem 3, LP1 (eqs. (2)–(3)), LP2 (eqs. (4)–(5)); 004 Algorithms 1–2.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from limits.validation import check_choice, check_int, check_positive, check_real
from simulations.mechanisms.labels import check_priors

from .dp import as_channel, max_privacy_loss, mechanism_kind, within

__all__ = ["EPS_MAX_LP", "FORMULATIONS", "LP1_METHODS", "LP1_CHANNEL_METHODS", "LP2_METHODS", "DEFAULT_SOLVER",
           "LPResult", "channel_from_envelope", "dp_violation", "lp1_polytope", "lp1_projection", "polish_channel",
           "rrwithprior_k", "rrwithprior_lp", "UtilityGap", "rrwithprior_value", "rrwithprior_weights",
           "utility_gap"]

FORMULATIONS = ("lp1", "lp2")
LP1_METHODS = ("efficient", "substitution", "envelope", "naive")
# The LP1 forms with the channel q as (an affine image of) variables: lp1_polytope builds these.
# "efficient" has only the diagonal and the lower envelope (lp1_projection, channel_from_envelope).
LP1_CHANNEL_METHODS = ("substitution", "envelope", "naive")
LP2_METHODS = ("efficient", "naive")
# Largest ε accepted by the LPs. Their rows carry e^{±ε/2} (LP1) or e^{−ε} (LP2); beyond this,
# HiGHS reports 'unbounded' on the naive LP1 (ε ≈ 30), or, worse, drops coefficients under its
# 1e-9 matrix threshold and returns a wrong 'optimal' value (naive LP1 at ε = 40: 4% off).
# At ε = 25 the optimal channel is the identity up to (K − 1)e^{−25} ≈ 1e-11 · K anyway.
EPS_MAX_LP = 25.0

# HiGHS (dual simplex) returns a vertex: exact zeros and optima agreeing with the closed form to
# ~1e-13, so the optimal channel passes the exact DP check without slack. CLARABEL (interior
# point) is faster on the slow formulations but stops ~1e-8 (up to 3e-6 relative at ε = 0.05,
# K = 100) inside the polytope; see benchmarks/bench_lp.py.
DEFAULT_SOLVER = "HIGHS"
# One thread (deterministic, and "one core" is the stated budget). Feasibility tolerances 1e-10
# instead of HiGHS's 1e-7: the DP rows carry e^{±ε/2}, and with the defaults all three LP1 forms
# stop at a neighbouring vertex for large ε (e.g. w_2 when w_1 = 1 is optimal, relative gap
# e^{−ε} = 4.5e-5 at ε = 10: the scaled reduced cost falls under 1e-7; 32 of 240 solves wrong at
# ε in 5..20, K = 6), and leave DP violated by ~1e-7.
_DEFAULT_OPTIONS = {"HIGHS": {"highs_options": {"threads": 1, "primal_feasibility_tolerance": 1e-10,
                                                "dual_feasibility_tolerance": 1e-10}}}


_HIGHS_BANNER_SWALLOWED = False


def _swallow_highs_banner() -> None:
    """Keep HiGHS's copyright banner off stdout (it appeared in ``paper_repro.py``'s output).

    HiGHS (highspy 1.16) writes ``Running HiGHS ...: Copyright ...`` to the C-level stdout once per
    process, from the constructor of the first ``Highs`` object, before any option can be set: cvxpy
    builds that object inside ``Problem.solve`` and only then sets ``log_to_console`` (= ``verbose``,
    False by default), so neither ``output_flag=False`` nor ``log_to_console=False`` in the solver
    options reaches it. Here the first ``Highs`` object is built with file descriptor 1 pointed at
    ``os.devnull`` for the duration of that constructor alone; later solves print nothing (cvxpy's
    ``verbose=False``), and ``solver_options={"verbose": True}`` still shows the solver log. A no-op
    after the first call, when highspy is missing, or when the process has no file descriptor 1.
    """
    global _HIGHS_BANNER_SWALLOWED
    if _HIGHS_BANNER_SWALLOWED:
        return
    _HIGHS_BANNER_SWALLOWED = True
    try:
        import highspy
    except ImportError:
        return
    import os
    import sys

    try:
        if sys.stdout is not None:
            sys.stdout.flush()  # Python's pending output goes out before fd 1 is redirected
        saved = os.dup(1)
    except (OSError, ValueError):
        return
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 1)
            try:
                highspy.Highs()
                try:  # the banner is flushed by HiGHS; flush C stdio anyway before fd 1 is restored
                    import ctypes

                    ctypes.CDLL(None).fflush(None)
                except (OSError, AttributeError, TypeError):
                    pass
            finally:
                os.dup2(saved, 1)
    finally:
        os.close(saved)


# ---------------------------------------------------------------- the closed form (the oracle)

def _check_prior(prior) -> np.ndarray:
    """One prior of shape (K,), K >= 1, by the suite's one prior rule
    (:func:`simulations.mechanisms.labels.check_priors`: any real dtype, float32 within its own
    rounding tolerance and renormalized in float64), so the closed form, the LPs and utility_gap accept
    exactly the priors the mechanisms accept."""
    try:
        shape = np.shape(prior)
    except ValueError:  # a ragged nested sequence
        raise ValueError(f"prior must be a 1-D probability vector, got prior={prior!r}") from None
    if len(shape) != 1:
        raise ValueError(f"prior must be a 1-D probability vector, got shape {shape}")
    return check_priors(prior, shape[0])


def rrwithprior_weights(prior, epsilon) -> np.ndarray:
    """w_k = e^ε/(e^ε + k − 1) · Σ_{ỹ ∈ Y_k} p_ỹ for k = 1..K (004 Algorithm 2, step 1).

    Parameters
    ----------
    prior : array_like, shape (K,)
        A probability vector p, by the suite's one prior rule
        (:func:`simulations.mechanisms.labels.check_priors`): any real dtype; float64 rows sum to 1
        within 1e-9 K, float32 rows (a softmax) within 16 eps32 K and are renormalized in float64.
    epsilon : float
        ε > 0.

    Returns
    -------
    w : ndarray, shape (K,)
        ``w[k - 1]`` = w_k. Y_k is any set of k labels of largest prior mass; ties do not change w_k.

    Raises
    ------
    ValueError
        A prior that is not one probability vector (shape, dtype, sign, sum), or ε not > 0 and finite.

    References
    ----------
    004 Algorithm 2; the identity P[RRTop-k(y) = y | y ~ p] = w_k below 004 Algorithm 1.

    Examples
    --------
    >>> rrwithprior_weights([0.5, 0.3, 0.2], math.log(3))  # e^ε = 3: 0.5, 3/4 * 0.8, 3/5 * 1
    array([0.5, 0.6, 0.6])
    """
    p = _check_prior(prior)
    epsilon = check_positive("epsilon", epsilon)
    top_mass = np.cumsum(np.sort(p)[::-1])
    k = np.arange(1, p.size + 1)
    # e^ε/(e^ε + k − 1) written as 1/(1 + (k − 1)e^{−ε}): no overflow at large ε
    return top_mass / (1.0 + (k - 1) * np.exp(-epsilon))


def rrwithprior_value(prior, epsilon) -> float:
    """The optimum max_k w_k = Obj_p(RRWithPrior) (004 Algorithm 2; Theorem 3's bound).

    Parameters
    ----------
    prior : array_like, shape (K,)
        As in :func:`rrwithprior_weights` (float32 priors accepted, as by the mechanisms).
    epsilon : float > 0

    Returns
    -------
    float
        max_k w_k, the largest expected accuracy P_{y~p}[R(y) = y] of an ε-DP label randomizer.

    Raises
    ------
    ValueError
        As :func:`rrwithprior_weights`.

    References
    ----------
    004 Algorithm 2 and the end of the proof of Theorem 3.

    Examples
    --------
    >>> p = np.array([0.5, 0.3, 0.2], dtype=np.float32)  # float32: the same rule as the mechanisms
    >>> round(rrwithprior_value(p, math.log(3)), 7)
    0.6
    """
    return float(np.max(rrwithprior_weights(prior, epsilon)))


def rrwithprior_k(prior, epsilon) -> int:
    r""":math:`k^* = \arg\max_k w_k` (004 Algorithm 2, step 2); the smallest maximizer when several tie.

    Parameters
    ----------
    prior : array_like, shape (K,)
        A probability vector, by the rule of :func:`rrwithprior_weights` (float32 accepted).
    epsilon : float > 0
        ε.

    Returns
    -------
    int
        :math:`k^* \in \{1, ..., K\}`.

    Raises
    ------
    ValueError
        As :func:`rrwithprior_weights`.

    References
    ----------
    004 Algorithm 2.

    Examples
    --------
    Prior (0.6, 0.3, 0.1) at :math:`e^\varepsilon = 3`:
    :math:`w = (0.6, \tfrac34 \cdot 0.9, \tfrac35 \cdot 1) = (0.6, 0.675, 0.6)`.

    >>> rrwithprior_k([0.6, 0.3, 0.1], math.log(3))
    2
    """
    return int(np.argmax(rrwithprior_weights(prior, epsilon))) + 1


# ---------------------------------------------------------------- utility gap of any randomizer

@dataclass(frozen=True, slots=True)
class UtilityGap:
    r"""Accuracy of a label randomizer on one prior against the ε-DP optimum (004 Theorem 3).

    A negative gap is possible only for a randomizer that is not ε-DP.

    Parameters
    ----------
    accuracy : float
        :math:`\sum_y p_y P(\text{output} = y \mid y)`.
    optimum : float
        :math:`\max_k w_k` (= LP1 = LP2, 004 Theorem 3).
    gap : float
        optimum - accuracy (>= 0 for every ε-DP randomizer, up to rounding).
    relative_gap : float
        gap / optimum.
    k_star : int
        :math:`k^*` of the prior (:func:`rrwithprior_k`).
    loss : float
        The exact privacy loss of the randomizer's channel for this prior.
    private : bool
        Whether the loss is <= ε.
    explanation : str
        The comparison in words.

    References
    ----------
    004 Theorem 3, Algorithm 2.

    Examples
    --------
    RRWithPrior attains the optimum: prior (0.6, 0.3, 0.1), :math:`e^\varepsilon = 3`, accuracy
    :math:`w_2 = 0.675`.

    >>> from simulations.mechanisms import RRWithPrior
    >>> g = utility_gap(RRWithPrior(3, math.log(3)), [0.6, 0.3, 0.1], math.log(3))
    >>> round(g.accuracy, 12), round(g.gap, 12), g.k_star, g.private
    (0.675, 0.0, 2, True)
    """

    accuracy: float
    optimum: float
    gap: float
    relative_gap: float
    k_star: int
    loss: float
    private: bool
    explanation: str


def utility_gap(mechanism, prior, epsilon) -> UtilityGap:
    """How far a label randomizer's expected accuracy on ``prior`` is from the ε-DP optimum.

    Parameters
    ----------
    mechanism : the channel for this prior: an array-like (K, K) P(output | label) with outputs in
        the label space, a callable ``prior -> channel``, or an object with ``channel_matrix(prior)``
        (e.g. :class:`simulations.mechanisms.RRWithPrior`) or ``channel_matrix()``.
    prior : array_like, shape (K,)
        A probability vector, by the rule of :func:`rrwithprior_weights` (float32 accepted).
    epsilon : float > 0.

    Returns
    -------
    UtilityGap: accuracy Σ_y p_y P[y, y] against the optimum max_k w_k of 004 Theorem 3 (the LP
    value, :func:`rrwithprior_value`), with the channel's exact privacy loss.

    Raises
    ------
    ValueError
        An invalid prior or ε, a black-box sampler, or a channel that is not (K, K) with rows
        summing to 1.

    References
    ----------
    004 Theorem 3, Algorithm 2, LP1-LP2 (Section 3.2).

    Examples
    --------
    >>> from simulations.mechanisms import RandomizedResponse
    >>> g = utility_gap(RandomizedResponse(3, math.log(3)), np.float32([0.5, 0.3, 0.2]), math.log(3))
    >>> round(g.accuracy, 12), round(g.optimum, 7)  # RR keeps w.p. 3/5; optimum w_2 = w_3 = 0.6
    (0.6, 0.6)
    """
    p = _check_prior(prior)
    epsilon = check_positive("epsilon", epsilon)
    K = p.size
    kind = mechanism_kind(mechanism)
    if kind == "sampler":
        raise ValueError("mechanism is a black-box sampler: utility_gap needs its channel (array, prior -> channel, "
                         "or an object with channel_matrix)")
    if kind == "channel":
        P = mechanism.channel_matrix() if hasattr(mechanism, "channel_matrix") else mechanism
    else:
        P = (mechanism.channel_matrix if hasattr(mechanism, "channel_matrix") else mechanism)(p)
    P = as_channel(P, name="mechanism's channel", num_rows=K)
    if P.shape[1] != K:
        raise ValueError(f"mechanism's channel must output labels (shape ({K}, {K})), got shape {P.shape}")
    accuracy = float(p @ np.diag(P))
    optimum = rrwithprior_value(p, epsilon)
    loss = max_privacy_loss(P)
    gap = optimum - accuracy
    private = within(loss, epsilon)
    expl = (f"accuracy {accuracy:.12g} vs the epsilon-DP optimum max_k w_k = {optimum:.12g} (k* = "
            f"{rrwithprior_k(p, epsilon)}): gap {gap:.6g} ({gap / optimum:.3%} of the optimum); channel loss "
            f"{loss:.12g} {'<=' if private else '>'} epsilon = {epsilon:g}")
    return UtilityGap(accuracy=accuracy, optimum=optimum, gap=gap, relative_gap=gap / optimum,
                      k_star=rrwithprior_k(p, epsilon), loss=loss, private=private, explanation=expl)


# ---------------------------------------------------------------- the LPs

@dataclass(frozen=True, slots=True)
class LPResult:
    r"""Solution of LP1 or LP2 (:func:`rrwithprior_lp`).

    Parameters
    ----------
    value : float
        The optimal objective :math:`\sum_y p_y q[y|y]`.
    channel : ndarray, shape (K, K), or None
        LP1: the optimal channel q[y, ỹ] = P(output ỹ | label y) (rows y, columns ỹ), polished
        (:func:`polish_channel`) so that it is exactly ε-DP; rows sum to 1 within the solver's
        tolerance. LP2: ``None`` — LP2 is a relaxation whose points need not be channels; its
        variables are in ``diagonal``.
    diagonal : ndarray, shape (K,)
        q[y|y] (LP1: the channel's diagonal; LP2: its variables :math:`x_y`).
    status : str
        cvxpy's status; always ``"optimal"`` (anything else raises).
    solver : str
        The cvxpy solver used.
    solve_time : float
        Seconds spent in the solver, as the solver reports it.
    wall_time : float
        Seconds for building, compiling and solving the problem.
    formulation : {"lp1", "lp2"}
        Which LP.
    method : str
        The formulation's method (:data:`LP1_METHODS`, :data:`LP2_METHODS`).
    epsilon : float
        ε.
    n_constraints : int
        Scalar linear constraints passed to the solver (variable bounds r >= 0, q >= 0 not counted):
        LP1 4K + 1 (efficient), K² + K (substitution), 2K² + 2K (envelope), K²(K − 1) + K (naive).
    polish_change : float, default 0.0
        Largest absolute change the polish made to an entry of the solver's channel (0.0 for LP2);
        of the order of the solver's feasibility tolerance. LP1 ``"efficient"``: the change from the
        channel built from the solver's (x, l) as returned to the one built after moving (x, l) onto
        the polytope (:func:`channel_from_envelope`) and polishing.

    References
    ----------
    004 Section 3.2: Theorem 3, LP1 (eqs. (2)-(3)), LP2 (eqs. (4)-(5)).

    Examples
    --------
    Prior (0.6, 0.3, 0.1), :math:`e^\varepsilon = 3`: LP1 = :math:`\max_k w_k = w_2 = 0.675`
    (004 Theorem 3); the optimal channel keeps labels 0 and 1 with probability 3/4, as RRTop-2.

    >>> res = rrwithprior_lp([0.6, 0.3, 0.1], math.log(3))
    >>> round(res.value, 9), res.diagonal.round(9).tolist(), res.n_constraints   # 4K + 1
    (0.675, [0.75, 0.75, 0.0], 13)
    """

    value: float
    channel: np.ndarray | None
    diagonal: np.ndarray
    status: str
    solver: str
    solve_time: float
    wall_time: float
    formulation: str
    method: str
    epsilon: float
    n_constraints: int
    polish_change: float = 0.0


def polish_channel(channel, epsilon) -> np.ndarray:
    r"""Make a solver's LP1 channel exactly ε-DP by the smallest clipping of its entries.

    Per column ỹ, with :math:`l_{\tilde y} = \min_y q[\tilde y|y]` (negative round-off first set to
    0), entries are clipped to at most :math:`e^\varepsilon l_{\tilde y}`, so every column satisfies
    max/min <= :math:`e^\varepsilon`: constraint (2) holds exactly, in particular a column holding a
    0 and solver noise of 1e-14 becomes all-zero instead of having infinite privacy loss. Each entry
    moves by at most the solver's additive violation of (2) (:func:`dp_violation`, ~1e-10 with the
    default tolerances). Rows are not renormalized: rescaling rows by different factors would perturb
    the ratios again.

    Parameters
    ----------
    channel : array_like, shape (K, K)
        Any finite non-empty 2-D shape is accepted (inputs x outputs).
    epsilon : float > 0
        ε.

    Returns
    -------
    ndarray, same shape as ``channel``
        The polished channel.

    Raises
    ------
    ValueError
        If ε <= 0, or ``channel`` is not a finite non-empty 2-D array.

    References
    ----------
    004 Section 3.2, LP1 constraint (2).

    Examples
    --------
    >>> from proofs_checks.dp import max_privacy_loss
    >>> q = [[0.5, 0.5, 0.0], [0.5, 0.5 - 1e-14, 1e-14]]
    >>> max_privacy_loss(q), polish_channel(q, 1.0)[:, 2].tolist()
    (inf, [0.0, 0.0])
    """
    epsilon = check_positive("epsilon", epsilon)
    q = np.asarray(channel, dtype=float)
    if q.ndim != 2 or q.size == 0 or not np.all(np.isfinite(q)):
        raise ValueError(f"channel must be a finite non-empty 2-D array, got shape {q.shape}")
    q = np.maximum(q, 0.0)
    return np.minimum(q, np.exp(epsilon) * q.min(axis=0, keepdims=True))


def lp1_polytope(num_classes: int, epsilon: float, method: str = "substitution"):
    """The feasible set of LP1 (004 eqs. (2)–(3)) as cvxpy objects, in a form with the channel q.

    Parameters
    ----------
    num_classes : int
        K >= 1.
    epsilon : float
        ε > 0.
    method : {"substitution", "envelope", "naive"}
        :data:`LP1_CHANNEL_METHODS` (module docstring). ``"substitution"`` is the form that
        ``method="efficient"`` solved before issue 20; the ``"efficient"`` form has no channel
        variables and is built by :func:`lp1_projection`.

    Returns
    -------
    q : cvxpy Expression, shape (K, K)
        The channel q[y, ỹ] (a variable, or l + r for ``"substitution"``).
    constraints : list of cvxpy constraints
    n_constraints : int
        Scalar constraints, variable sign bounds not counted.

    Raises
    ------
    ValueError
        K not an integer >= 1, ε not > 0 and finite, or ``method`` not one of
        :data:`LP1_CHANNEL_METHODS` (``"efficient"`` included: see :func:`lp1_projection`).

    References
    ----------
    004 Section 3.2, LP1: constraints (2) (ε-DP) and (3) (rows sum to 1).

    Examples
    --------
    >>> q, constraints, n = lp1_polytope(3, 1.0)
    >>> q.shape, n  # K² envelope rows and K row sums
    ((3, 3), 12)
    """
    import cvxpy as cp

    K = check_int("num_classes", num_classes, low=1)
    epsilon = check_positive("epsilon", epsilon)
    if method == "efficient":
        raise ValueError("method='efficient' has no channel variables (LP1 projected onto the diagonal and the "
                         "lower envelope): use lp1_projection, or one of "
                         f"{list(LP1_CHANNEL_METHODS)} here")
    check_choice("method", method, LP1_CHANNEL_METHODS)
    _swallow_highs_banner()  # the caller solves it, most likely with HiGHS (a no-op after the first call)
    # Rows a <= e^ε b are written e^{−ε/2} a <= e^{ε/2} b: coefficients centred on 1 let HiGHS
    # solve the naive form up to ε ≈ 25 (unscaled it fails from ε ≈ 14, reporting 'unbounded').
    h = np.exp(-epsilon / 2)
    if method == "substitution":
        # q = l + r with 0 <= r <= (e^ε − 1) l per column (module docstring)
        l = cp.Variable((1, K), nonneg=True)
        r = cp.Variable((K, K), nonneg=True)
        q = r + np.ones((K, 1)) @ l
        return q, [cp.sum(q, axis=1) == 1,                    # (3)
                   h * r <= np.expm1(epsilon) * h * l], K * K + K  # (2) via the envelope
    q = cp.Variable((K, K), nonneg=True)
    cons = [cp.sum(q, axis=1) == 1]                           # (3)
    if method == "naive":
        y, y2 = np.nonzero(~np.eye(K, dtype=bool))            # all ordered pairs y != y'
        if y.size:
            cons.append(h * q[y, :] <= np.exp(epsilon / 2) * q[y2, :])  # (2): K²(K−1) rows at once
        return q, cons, K * K * (K - 1) + K
    u = cp.Variable((1, K), nonneg=True)                      # envelope
    l = cp.Variable((1, K), nonneg=True)
    return q, cons + [q >= l, q <= u, h * u <= np.exp(epsilon / 2) * l], 2 * K * K + 2 * K


def lp1_projection(num_classes: int, epsilon: float):
    """LP1 projected onto its diagonal and lower envelope (the ``"efficient"`` form) as cvxpy objects.

    The feasible set {(x, l) : x = diag q, l <= column minima of q, q LP1-feasible}: variables
    x_y = q[y|y], l_ỹ >= 0 and the total L = Σ l, with (S_y = L − l_y)

    (a) l_y <= x_y <= e^ε l_y and (b) S_y <= 1 − x_y <= e^ε S_y for every y.

    The module docstring proves that {x : (x, l) feasible for some l} = {diag q : q satisfies 004's
    (2), (3), q >= 0}, so maximizing Σ_y p_y x_y here is LP1, with 2K + 1 variables and O(K) nonzeros
    instead of K² variables.

    Parameters
    ----------
    num_classes : int
        K >= 1.
    epsilon : float
        ε > 0.

    Returns
    -------
    x : cvxpy Variable, shape (K,)
        The diagonal q[y|y] (non-negative).
    l : cvxpy Variable, shape (K,)
        The lower envelope l_ỹ (non-negative).
    constraints : list of cvxpy constraints
    n_constraints : int
        Scalar constraints (4K + 1), variable sign bounds not counted.

    Raises
    ------
    ValueError
        K not an integer >= 1, or ε not > 0 and finite.

    References
    ----------
    004 Section 3.2: LP1 (eqs. (2)–(3)) and, for the relaxation of (b), eq. (4) of LP2 in the proof
    of Theorem 3.

    Examples
    --------
    >>> import cvxpy as cp
    >>> x, l, constraints, n = lp1_projection(3, math.log(3))
    >>> problem = cp.Problem(cp.Maximize(np.array([0.5, 0.3, 0.2]) @ x), constraints)
    >>> value = problem.solve(solver="HIGHS", highs_options={"threads": 1})  # one thread, as rrwithprior_lp
    >>> round(float(value), 9), n  # max_k w_k = 0.6 (004 Theorem 3)
    (0.6, 13)
    """
    import cvxpy as cp

    K = check_int("num_classes", num_classes, low=1)
    epsilon = check_positive("epsilon", epsilon)
    _swallow_highs_banner()  # the caller solves it, most likely with HiGHS (a no-op after the first call)
    h = np.exp(-epsilon / 2)  # rows a <= e^ε b written e^{−ε/2} a <= e^{ε/2} b, as in lp1_polytope
    x = cp.Variable(K, nonneg=True)
    l = cp.Variable(K, nonneg=True)
    L = cp.Variable()
    S = L - l                                                 # S_y = Σ_{ỹ≠y} l_ỹ (scalar broadcast: K nonzeros)
    return x, l, [l <= x, h * x <= l / h,                     # (a): column ỹ = y holds its diagonal entry
                  S <= 1 - x, h * (1 - x) <= S / h,           # (b): the off-diagonal entries of row y
                  L == cp.sum(l)], 4 * K + 1


def channel_from_envelope(diagonal, lower, epsilon) -> np.ndarray:
    """An exactly ε-DP channel with a given diagonal, from a point (x, l) of :func:`lp1_projection`.

    The (⇐) half of the equivalence proof (module docstring): row y gets q[y|y] = x_y and
    q[ỹ|y] = (T_y / S_y) l_ỹ off the diagonal, T_y = 1 − x_y, S_y = Σ_{ỹ≠y} l_ỹ. A solver's point
    satisfies (a), (b) only to its tolerance, so it is first moved onto the polytope: l >= 0 is
    rescaled so that L = Σ l satisfies L <= 1 <= e^ε L (the condition for (a), (b) to admit a
    diagonal), and each x_y is clipped into [max(l_y, 1 − e^ε S_y), min(e^ε l_y, 1 − S_y)], the set
    (a) ∩ (b) for that row; an exactly feasible point is left unchanged.

    Parameters
    ----------
    diagonal : array_like, shape (K,)
        x_y = q[y|y].
    lower : array_like, shape (K,)
        l_ỹ, a lower envelope of the columns (e.g. the column minima of an LP1-feasible channel).
    epsilon : float
        ε > 0.

    Returns
    -------
    ndarray, shape (K, K)
        q[y, ỹ] = P(output ỹ | label y): non-negative, rows summing to 1 to rounding, every column
        within [l_ỹ, e^ε l_ỹ] (so ε-DP, 004 eq. (2), up to one rounding; :func:`polish_channel`
        removes that).

    Raises
    ------
    ValueError
        Shapes that differ or are not (K,), non-finite entries, ε not > 0, or Σ max(l, 0) = 0
        (no channel has a zero lower envelope in every column).

    References
    ----------
    004 Section 3.2, LP1 (eqs. (2)–(3)); proof of Theorem 3.

    Examples
    --------
    >>> e = 3.0  # e^ε; RRWithPrior's optimum for p = (0.5, 0.3, 0.2) with k = 2: x = (3/4, 3/4, 0)
    >>> channel_from_envelope([0.75, 0.75, 0.0], [0.25, 0.25, 0.0], math.log(e))
    array([[0.75, 0.25, 0.  ],
           [0.25, 0.75, 0.  ],
           [0.5 , 0.5 , 0.  ]])
    """
    epsilon = check_positive("epsilon", epsilon)
    x = np.asarray(diagonal, dtype=float)
    l = np.asarray(lower, dtype=float)
    if x.ndim != 1 or x.shape != l.shape or x.size == 0:
        raise ValueError(f"diagonal and lower must both have shape (K,), got {x.shape} and {l.shape}")
    if not (np.all(np.isfinite(x)) and np.all(np.isfinite(l))):
        raise ValueError("diagonal and lower must be finite")
    e = np.exp(epsilon)
    l = np.maximum(l, 0.0)
    total = l.sum()
    if total <= 0.0:
        raise ValueError("lower must have a positive entry: L = Σ l satisfies e^{-ε} <= L <= 1 on LP1")
    l = l / max(total, 1.0) if total > 1.0 else (l / (e * total) if e * total < 1.0 else l)
    off = np.broadcast_to(l, (l.size, l.size)).copy()
    np.fill_diagonal(off, 0.0)
    S = off.sum(axis=1)                                       # Σ_{ỹ≠y} l_ỹ, without the cancellation of L − l_y
    lo = np.maximum(l, 1.0 - e * S)
    hi = np.minimum(e * l, 1.0 - S)
    x = np.minimum(np.maximum(x, lo), np.maximum(hi, lo))     # (a) ∩ (b); lo > hi only by rounding
    T = 1.0 - x
    with np.errstate(divide="ignore", invalid="ignore"):
        scale = np.where(S > 0.0, np.clip(T / S, 1.0, e), 0.0)
    q = scale[:, None] * off
    np.fill_diagonal(q, x)
    return q


def _lp2(p: np.ndarray, epsilon: float, method: str):
    """LP2 (004 eqs. (4)–(5)); returns (problem, the variables x, constraint count)."""
    import cvxpy as cp

    K = p.size
    x = cp.Variable(K, nonneg=True)                           # (5)
    a = np.exp(-epsilon)
    if method == "naive":
        A = (1.0 - a) * np.eye(K) + a * np.ones((K, K))      # row y: x_y + e^{−ε} Σ_{ỹ≠y} x_ỹ
        cons, n = [A @ x <= 1], K
    else:
        s = cp.Variable()
        cons, n = [(1.0 - a) * x + a * s <= 1, s == cp.sum(x)], K + 1
    return cp.Problem(cp.Maximize(p @ x), cons), x, n


def rrwithprior_lp(prior, epsilon, formulation: str = "lp1", *, method: str = "efficient",
                   solver: str | None = None, solver_options: dict | None = None) -> LPResult:
    """Solve 004's LP1 (the best ε-DP channel for prior p) or its relaxation LP2 with cvxpy.

    Parameters
    ----------
    prior : array_like, shape (K,)
        The prior p over the K labels (non-negative, sums to 1; zeros allowed), by the rule of
        :func:`rrwithprior_weights` (float32 accepted).
    epsilon : float
        Privacy parameter, 0 < ε <= :data:`EPS_MAX_LP` (25; see there why).
    formulation : {"lp1", "lp2"}
    method : {"efficient", "substitution", "envelope", "naive"} for LP1, {"efficient", "naive"} for LP2
        Equivalent formulations of the same LP (module docstring, with the proofs). LP1
        ``"efficient"`` solves LP1 projected onto (diagonal, lower envelope) (:func:`lp1_projection`)
        and rebuilds the channel with :func:`channel_from_envelope`: K = 1000 in well under a
        second; ``"substitution"`` (the channel-variable form it replaced) takes minutes there.
    solver : str, optional
        An installed cvxpy solver; default ``"HIGHS"`` (single thread).
    solver_options : dict, optional
        Keyword arguments for ``cvxpy.Problem.solve`` (replace the defaults for that solver).

    Returns
    -------
    LPResult

    Raises
    ------
    ValueError
        Invalid prior, ε, formulation, method or solver.
    RuntimeError
        The solver does not report ``"optimal"`` (the status is in the message).

    Notes
    -----
    Nothing is written to stdout: HiGHS's one-time copyright banner is swallowed at its source
    (``_swallow_highs_banner``) and cvxpy runs with ``verbose=False`` unless ``solver_options`` say
    otherwise.

    References
    ----------
    004 Section 3.2, LP1 (eqs. (2)–(3)) and LP2 (eqs. (4)–(5)).

    Examples
    --------
    >>> res = rrwithprior_lp([0.5, 0.3, 0.2], math.log(3))  # LP1 = max_k w_k = 0.6 (004 Theorem 3)
    >>> round(res.value, 9), res.status
    (0.6, 'optimal')
    """
    import cvxpy as cp  # here, not at module level: it takes ~1 s to import

    p = _check_prior(prior)
    epsilon = check_real("epsilon", epsilon, low=0.0, low_open=True, high=EPS_MAX_LP)
    check_choice("formulation", formulation, FORMULATIONS)
    check_choice("method", method, LP1_METHODS if formulation == "lp1" else LP2_METHODS)
    solver = DEFAULT_SOLVER if solver is None else solver
    check_choice("solver", solver, tuple(cp.installed_solvers()))
    opts = dict(_DEFAULT_OPTIONS.get(solver, {}) if solver_options is None else solver_options)

    t0 = time.perf_counter()
    if formulation == "lp1" and method == "efficient":
        x, l, cons, n = lp1_projection(p.size, epsilon)
        problem = cp.Problem(cp.Maximize(p @ x), cons)
    elif formulation == "lp1":
        q, cons, n = lp1_polytope(p.size, epsilon, method)
        problem = cp.Problem(cp.Maximize(p @ cp.diag(q)), cons)
    else:
        problem, x, n = _lp2(p, epsilon, method)
    if solver == "HIGHS":
        _swallow_highs_banner()
    try:
        try:
            problem.solve(solver=solver, **opts)
        except cp.error.SolverError:
            if solver != "HIGHS":
                raise
            # HiGHS keeps one thread scheduler per process, sized by the first solve: after a solve
            # elsewhere with another thread count, a solve with threads = 1 fails ("Option 'threads'
            # is set to 1 but the scheduler has already been initialized to use 2 threads").
            # Reset it and retry once; any other failure fails again.
            import highspy

            highspy.Highs.resetThreadScheduler(False)
            problem.solve(solver=solver, **opts)
    except cp.error.SolverError as exc:
        raise RuntimeError(f"{solver} failed on {formulation} ({method}), K={p.size}, epsilon={epsilon}: {exc}") from exc
    wall = time.perf_counter() - t0
    if problem.status != cp.OPTIMAL:
        raise RuntimeError(f"{solver} returned status {problem.status!r} on {formulation} ({method}), "
                           f"K={p.size}, epsilon={epsilon}; expected 'optimal'")
    polish_change = 0.0
    if formulation == "lp1" and method == "efficient":
        xs, ls = np.asarray(x.value, dtype=float), np.asarray(l.value, dtype=float)
        # raw: the channel of the proof's (⇐) map at the solver's point as returned, without the
        # projection onto the polytope that channel_from_envelope makes first
        raw = np.broadcast_to(ls, (p.size, p.size)).copy()
        np.fill_diagonal(raw, 0.0)
        S = raw.sum(axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            raw *= np.where(S > 0, (1.0 - xs) / S, 0.0)[:, None]
        np.fill_diagonal(raw, xs)
        channel = polish_channel(channel_from_envelope(xs, ls, epsilon), epsilon)
        polish_change = float(np.max(np.abs(channel - raw)))
        diagonal = np.diag(channel).copy()
        channel.setflags(write=False)
    elif formulation == "lp1":
        raw = np.asarray(q.value, dtype=float)
        channel = polish_channel(raw, epsilon)
        polish_change = float(np.max(np.abs(channel - raw)))
        diagonal = np.diag(channel).copy()
        channel.setflags(write=False)
    else:
        channel = None
        diagonal = np.maximum(np.asarray(x.value, dtype=float), 0.0)
    diagonal.setflags(write=False)
    stats = problem.solver_stats
    return LPResult(value=float(problem.value), channel=channel, diagonal=diagonal, status=problem.status,
                    solver=solver, solve_time=float(stats.solve_time if stats.solve_time is not None else wall),
                    wall_time=wall, formulation=formulation, method=method, epsilon=epsilon, n_constraints=n,
                    polish_change=polish_change)


def dp_violation(channel, epsilon) -> float:
    r"""Largest additive violation of 004 LP1 constraint (2): max over columns of (max - e^ε min).

    :math:`\max_{\tilde y}(\max_y q[\tilde y|y] - e^\varepsilon \min_y q[\tilde y|y])`.

    This is how LP solvers measure feasibility (absolute, ~1e-9 for HiGHS); <= 0 means the channel
    is exactly ε-DP. Complements :func:`proofs_checks.dp.check_channel`, which reports the
    multiplicative loss and is infinite when solver noise leaves a tiny positive entry in a
    column that should contain a zero.

    Parameters
    ----------
    channel : array_like, shape (K, M)
        The channel q (rows y).
    epsilon : float > 0
        ε.

    Returns
    -------
    float
        The violation (negative when every column has slack).

    Raises
    ------
    ValueError
        If ε <= 0.

    References
    ----------
    004 Section 3.2, LP1 constraint (2).

    Examples
    --------
    Randomized response at :math:`e^\varepsilon = 3` (004 eq. (1)) checked at ε = ln 2:
    0.75 - 2 x 0.25 = 0.25.

    >>> round(dp_violation([[0.75, 0.25], [0.25, 0.75]], math.log(2)), 12)
    0.25
    """
    epsilon = check_positive("epsilon", epsilon)
    q = np.asarray(channel, dtype=float)
    return float(np.max(q.max(axis=0) - np.exp(epsilon) * q.min(axis=0)))
