"""The minimax lower bounds of 003 Theorems 1, 3, 5, 7, 9, 11 as numbers: the proofs' own steps, evaluated.

Each proof builds a packing family (bumps ``η_v = Σ_k v_k φ((x − c_k)/h) h^β`` on cubes of side ``h`` in
``[0, 1]^d``, uniform features so ``f = c = 1``; 003 eqs. (36), (121), (156)), bounds the excess risk
below by ``(loss of one wrong cube) × Σ_k P(v̂_k ≠ v_k)`` (eqs. (42), (127), (143)) and bounds the
per-cube testing error below:

* **local label DP** (Theorems 1, 5, 9; Appendices B, F, J): Assouad's lemma, Tsybakov (2009) Theorem
  2.12(iv) (003 eq. (45)): ``E ρ_H(v̂, v) >= (m/2) max(e^{−δ}/2, 1 − √(δ/2))`` where ``δ`` bounds the
  KL divergence of the N privatized samples between neighbouring ``v`` (eq. (44)):
  ``δ <= N [(e^ε − 1)² ∧ 3] h^{2β+d} ‖φ‖₂²`` (eqs. (46)-(48)) or, for the three-point law,
  ``N (e^ε − 1)² h^{2β+d} ‖φ‖₂² T^{−2}`` (eq. (161));
* **central label DP** (Theorems 3, 7, 11; Appendices D, H, L): Lemma 1 / Lemma 3 (group privacy: a
  group of ``l`` changed labels moves probabilities by at most ``e^{lε}``, and ``lε <= ln 2``) with the
  Berry–Esseen step (94)-(97): ``P(V̂_k ≠ V_k) >= (1/12) P(16 C_E² < n_k < n_max)`` where
  ``n_max = ln 2 /(ε h^β)`` (``T ln 2/(ε h^β)`` with labels ±T) and ``n_k ~ Bin(N, h^d)`` is the count in
  cube k (eqs. (96)-(99)).

The bound is then ``cubes × loss_per_cube × per_cube_error``, the explicit form of eqs. (43), (99),
(127), (143), (163), and of Appendix L, valid for every N, ε and h allowed by the construction. It is a
lower bound on the minimax excess risk over the packing family at that h, hence over the class
``F`` of 003 Assumptions 1–3. Assouad's bound, and the Bayesian argument of eq. (86), hold for the
**average** over ``v`` drawn uniformly from the hypercube, not only for the worst ``v``: an
estimator's mean excess risk over uniformly drawn ``v`` can be compared with it directly.

Constants and choices (the proofs leave them open; each is a keyword):

* ``f = c = 1`` (uniform features on the unit cube), as the suite's constructions; this also makes
  the missing ``c`` in eqs. (46)(d), (47), (86) harmless.
* ``φ``: the suite's plateau bump ``φ(u) = min(1, 4(1/2 − ‖u‖_∞))_+`` (:func:`plateau_bump_norms`),
  which satisfies eq. (35) and, through its linear edge, the margin condition (37) for γ <= 1; a
  C^∞ bump would violate it (see :mod:`simulations.laws.holder_tsybakov`). Other bumps: ``phi_norms``.
* ``C_M`` of eq. (37) (bumps ``m = C_M h^{γβ−d}``, capped at the ``floor(1/h)^d`` disjoint cubes):
  default 1, the neutral choice; it only scales the classification bounds.
* ``h``: ``"proof"`` is the proof's rule — eq. (49), (128), (162) with an unspecified constant ``c_h``
  (default 1) for the local theorems; eq. (100) ``2N h^d = ln 2/(ε h^β)``, (101) for Theorems 3 and 7,
  and (186)-(188) with (159) for Theorem 11 (there the proof fixes the constant). ``"optimal"`` is the h
  maximizing the explicit bound: closed form for the local theorems (the bound is
  ``s^a max(e^{−s}/2, 1 − √(s/2))`` times an N-power in ``s = δ``, maximized at
  ``s = 8a²/(2a+1)²`` or ``s = a``, :func:`assouad_optimum`), a log-grid search for the central ones.
  A float evaluates the bound on the family at that h (what an experiment that draws the family
  at a given h needs). A rule's h is capped at the largest h the construction allows:
  ``h^β <= 1/2`` (``|η_v| <= 1/2``, used by eq. (47)(b)) and, for the three-point law, ``T^p >= M_p``.
* ``berry_esseen``: Berry–Esseen's absolute constant ``C_0 = 0.56`` for independent, non-identically
  distributed summands (Shevtsova 2010), times the Lyapunov ratio of the labels: ``C_E = C_0 ρ/σ³``
  with ``ρ`` the largest third absolute central moment and ``σ²`` the smallest variance over the
  label laws of the family (``|mean| <= h^β``). For labels ±1, ``C_E = C_0 (1 − h^{2β})^{−3/2}``. For the
  three-point law of Theorem 11 ``ρ/σ³ ≍ (T^p/M_p)^{1/2}`` grows with T: 003 calls ``C_E`` an absolute
  constant, which it is not there (the window ``16 C_E² < n_k < n_max`` stays non-empty only for
  ``ε`` below about ``2 ln 2/(16 C_0²) ≈ 0.28``).
* The count window's probability: the Chernoff bounds the proof invokes after eq. (100),
  ``P(n <= a) <= exp(−(μ−a)²/(2μ))`` (a < μ) and ``P(n >= b) <= exp(−(b−μ)²/(b+μ))`` (b > μ), with
  ``μ = N h^d``, a rigorous lower bound on the binomial probability.
* Eq. (46)(c), ``KL <= (e^ε − 1)² TV²`` with the TV of the *label* laws: it holds with constant 1
  (``KL <= χ² <= (e^ε−1)² TV²``, since ``|m_v(z) − m_v'(z)| <= (e^ε − 1) min_y q(z|y) TV``); 003 cites
  Duchi et al.'s Theorem 1, which states ``4(e^ε − 1)²`` for the symmetrized sum. Checked on random
  channels by ``proofs_checks`` (check ``003-eq46c-ldp-kl``).
* Theorem 9's non-private branch (not in 003, which states the KL bound for small ε only): the
  same step as eq. (47) on the three-point law gives ``KL <= 3 η² T^{p−2}/M_p`` per x (ratio
  ``|η|/T <= M_p T^{−p}/2`` by eq. (159)); ``δ`` uses the smaller of the two.
* Eq. (126): the loss of a wrong sign in one cube is taken as printed, ``½ h^{2β+d} ‖φ‖₂²``; the
  argument of (125) gives twice that (``(a−b)² + (a+b)² >= 2b²``), so the regression bounds are
  conservative by a factor 2, as printed.

``nonprivate`` is the non-private term of each theorem (eqs. (103), (145), the second term of (25)):
Theorem 1's or 5's argument with the non-private KL bound 3 (eq. (47)) at its optimal h; for the
heavy-tailed theorems with labels ±1 (which satisfy Assumption 3 when ``M_p >= 1``; 0 otherwise).
:attr:`LowerBound.minimax` is the larger of the two, the explicit lower bound on the minimax risk.

References: 003 Theorems 1, 3, 5, 7, 9, 11; Appendices B (eqs. (35)-(51)), D (eqs. (86)-(104), Lemma
1), F (eqs. (121)-(130)), H (eqs. (143)-(146)), J (eqs. (156)-(163)), L (Lemma 3, eqs. (183)-(189));
Tsybakov (2009) Theorem 2.12; Shevtsova (2010) for C_0 = 0.56.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Callable

import numpy as np

from ._args import check_params, check_privacy, check_task
from .validation import check_choice, check_int, check_positive, check_real

__all__ = ["BERRY_ESSEEN_C0", "LowerBound", "assouad_optimum", "lower_bound", "plateau_bump_norms",
           "theorem1_bound", "theorem3_bound", "theorem5_bound", "theorem7_bound", "theorem9_bound",
           "theorem11_bound"]

#: Berry–Esseen constant for sums of independent, non-identically distributed variables (Shevtsova 2010)
BERRY_ESSEEN_C0 = 0.56

_LN2 = math.log(2.0)


@dataclass(frozen=True, slots=True)
class LowerBound:
    """One evaluated lower bound and its ingredients.

    Returned by :func:`lower_bound` and the ``theorem*_bound`` functions; the parameters are kept as
    attributes. Instances are frozen; nothing is validated here (the functions that build them do).

    Parameters
    ----------
    theorem : str
        ``"003 Theorem 1"`` ... ``"003 Theorem 11"``.
    N, epsilon, h : float
        Sample size, privacy parameter and the cube side the bound is evaluated at.
    cubes : float
        m, the number of cubes carrying a sign (Theorems 1, 3: ``C_M h^{γβ−d}`` capped; Theorems 5, 7,
        9, 11: all ``floor(1/h)^d`` cubes), or the value passed.
    loss_per_cube : float
        Excess risk a wrong sign in one cube costs at least: ``½ h^{β+d} ‖φ‖₁`` (eq. (42)) or
        ``½ h^{2β+d} ‖φ‖₂²`` (eq. (126)).
    per_cube_error : float
        Lower bound on the probability of a wrong sign in one cube, averaged over uniform v:
        ``½ max(e^{−δ}/2, 1 − √(δ/2))`` (Assouad, eq. (45)) or ``(1/12) P(window)`` (eq. (97)-(99)).
    divergence : float
        Local: ``δ``, the bound on the KL divergence of the N privatized samples between neighbouring
        hypotheses (eq. (48), (161)). Central: the group-privacy log-ratio budget ``l ε`` of the largest
        group Lemma 1/3 changes, ``ln 2`` by construction of ``n_max``.
    bound : float
        ``cubes × loss_per_cube × per_cube_error``: the lower bound on the minimax excess risk over the
        packing family at h (and over the class).
    nonprivate : float
        The non-private term of the theorem (see the module text), a lower bound for every estimator.
    T : float or None
        Atoms ±T of the three-point law (Theorems 9, 11, eq. (159)).
    count_window : tuple of float or None
        Central: ``(16 C_E², n_max)``, the window of cube counts where (97) applies.
    count_probability : float or None
        Central: Chernoff lower bound on ``P(16 C_E² < n_k < n_max)``.
    berry_esseen : float or None
        Central: ``C_E``.

    References
    ----------
    003 Theorems 1, 3, 5, 7, 9, 11: eqs. (43), (99), (127), (143), (163) and Appendix L (the product
    ``cubes × loss_per_cube × per_cube_error``); eq. (45) (Assouad's per-cube error).

    Examples
    --------
    With ``δ = 0`` Assouad's per-cube error is ``½ max(1/2, 1) = ½``; 4 cubes losing 0.01 each give
    ``4 · 0.01 · ½ = 0.02``, and the minimax bound is the larger of that and the non-private term:

    >>> lb = LowerBound(theorem="003 Theorem 5", N=100.0, epsilon=1.0, h=0.25, cubes=4.0, loss_per_cube=0.01,
    ...                 per_cube_error=0.5, divergence=0.0, bound=0.02, nonprivate=0.005)
    >>> lb.minimax, lb.T is None
    (0.02, True)
    """

    theorem: str
    N: float
    epsilon: float
    h: float
    cubes: float
    loss_per_cube: float
    per_cube_error: float
    divergence: float
    bound: float
    nonprivate: float
    T: float | None = None
    count_window: tuple | None = None
    count_probability: float | None = None
    berry_esseen: float | None = None

    @property
    def minimax(self) -> float:
        """``max(bound, nonprivate)``: the explicit lower bound on the minimax excess risk.

        Returns
        -------
        float
            The private bound or the theorem's non-private term, whichever is larger (both hold for every
            estimator, so their maximum does too).

        References
        ----------
        003 Theorems 1, 3, 5, 7, 9, 11 (each a maximum of a private and a non-private term, e.g. eq. (25)).

        Examples
        --------
        >>> lb = theorem5_bound(1e6, 1.0, d=1, beta=1.0, h="optimal")
        >>> lb.minimax == max(lb.bound, lb.nonprivate)
        True
        """
        return max(self.bound, self.nonprivate)


# ---------------------------------------------------------------------------------------- pieces
def plateau_bump_norms(d: int) -> tuple[float, float]:
    """``(‖φ‖₁, ‖φ‖₂²)`` of the plateau bump ``φ(u) = min(1, 4(1/2 − ‖u‖_∞))_+`` on ``[−1/2, 1/2]^d``.

    With ``F(r) = (2r)^d`` the volume of ``{‖u‖_∞ <= r}``, integration by parts gives
    ``‖φ‖₁ = 4 ∫_{1/4}^{1/2} (2r)^d dr`` and ``‖φ‖₂² = 32 ∫_{1/4}^{1/2} (1/2 − r)(2r)^d dr``, evaluated here in
    exact rational arithmetic.

    Parameters
    ----------
    d : int >= 1
        Dimension.

    Returns
    -------
    (float, float)

    Raises
    ------
    ValueError
        If ``d`` is not an integer >= 1.

    References
    ----------
    003 eq. (35) (support and range of φ), eq. (42) (‖φ‖₁), eq. (46)(d) (‖φ‖₂²).

    Examples
    --------
    >>> plateau_bump_norms(1)   # 1/2 + 2·(1/8); 1/2 + 2·(1/24)
    (0.75, 0.6666666666666666)
    """
    return _plateau_bump_norms(_check_d(d))


@lru_cache(maxsize=64)
def _plateau_bump_norms(d: int) -> tuple[float, float]:
    a, b = Fraction(1, 4), Fraction(1, 2)

    def prim(r, k):  # ∫ (2r)^d r^k dr antiderivative
        return Fraction(2) ** d * r ** (d + k + 1) / (d + k + 1)

    l1 = 4 * (prim(b, 0) - prim(a, 0))
    l2 = 32 * (Fraction(1, 2) * (prim(b, 0) - prim(a, 0)) - (prim(b, 1) - prim(a, 1)))
    return float(l1), float(l2)


def assouad_optimum(a: float) -> float:
    """The ``s > 0`` maximizing ``s^a max(e^{−s}/2, 1 − √(s/2))``.

    The explicit local bounds are ``const × N^{−a'} × s^a g(s)`` in ``s = δ`` (the KL bound), with
    ``g(s) = max(e^{−s}/2, 1 − √(s/2))`` from eq. (45) and ``a`` the rate exponent. The maximum of a
    maximum is the larger of the two maxima: ``s^a (1 − √(s/2))`` peaks at ``s = 8a²/(2a+1)²`` (set
    ``r = √(s/2)``: ``a(1 − r) = r/2``) and ``s^a e^{−s}/2`` at ``s = a``.

    Parameters
    ----------
    a : float > 0

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If ``a`` is not a positive finite real.

    References
    ----------
    003 eq. (45) (Tsybakov 2009, Theorem 2.12(iv)), eq. (49), (128), (162).

    Examples
    --------
    >>> round(assouad_optimum(2 / 3), 6)   # 8(4/9)/(7/3)^2 = 32/49
    0.653061
    """
    a = check_positive("a", a)
    s1 = 8.0 * a * a / (2.0 * a + 1.0) ** 2
    f1 = s1 ** a * (1.0 - math.sqrt(s1 / 2.0))
    f2 = a ** a * math.exp(-a) / 2.0
    return s1 if f1 >= f2 else a


def _assouad_error(delta: float) -> float:
    """Per-cube error of eq. (45): ``½ max(e^{−δ}/2, 1 − √(δ/2))``."""
    return 0.5 * max(0.5 * math.exp(-delta), 1.0 - math.sqrt(delta / 2.0))


def _expm1_sq_log(eps: float) -> float:
    """``ln (e^ε − 1)²`` without overflow."""
    return 2.0 * (math.log(math.expm1(eps)) if eps < 700.0 else eps)


def _check_d(d):
    return check_int("d", d, low=1)


def _check_common(task, N, epsilon, d, beta, gamma, p, M_p, phi_norms, C_M):
    """Validate the shared arguments; returns (N, eps, params, (l1, l2), C_M, M_p)."""
    N = check_real("N", N, low=1.0)
    epsilon = check_positive("epsilon", epsilon)
    prm = check_params(task, beta=beta, d=d, gamma=gamma, p=p)
    if prm.beta > 1.0:
        raise ValueError("beta must be <= 1 (003 Assumption 1(a): a Hölder exponent above 1 forces a constant "
                         f"function), got beta={beta!r}")
    if phi_norms is None:
        if prm.gamma is not None and prm.gamma > 1.0:
            raise ValueError("gamma must be <= 1 with the plateau bump (its linear edge gives the margin condition "
                             f"(37) for gamma <= 1 only; pass phi_norms for another bump), got gamma={gamma!r}")
        norms = _plateau_bump_norms(prm.d)
    else:
        if not isinstance(phi_norms, (tuple, list)) or len(phi_norms) != 2:
            raise ValueError(f"phi_norms must be a pair (||phi||_1, ||phi||_2^2), got phi_norms={phi_norms!r}")
        l1 = check_real("phi_norms[0]", phi_norms[0], low=0.0, high=1.0, low_open=True)
        l2 = check_real("phi_norms[1]", phi_norms[1], low=0.0, high=1.0, low_open=True)
        if l2 > l1:
            raise ValueError("phi_norms must satisfy ||phi||_2^2 <= ||phi||_1 (0 <= phi <= 1), "
                             f"got phi_norms={phi_norms!r}")
        norms = (l1, l2)
    C_M = check_positive("C_M", C_M)
    M_p = None if M_p is None else check_positive("M_p", M_p)
    return N, epsilon, prm, norms, C_M, M_p


def _h_max(beta: float, p: float | None = None, M_p: float | None = None) -> float:
    """Largest admissible h: ``h^β <= 1/2`` and, with the three-point law, ``h^β <= M_p^{1/p}/2`` (T^p >= M_p)."""
    cap = 0.5 if p is None else 0.5 * min(1.0, M_p ** (1.0 / p))
    return min(1.0, cap ** (1.0 / beta))


def _check_h(h, beta, p=None, M_p=None) -> float:
    h = check_real("h", h, low=0.0, high=1.0, low_open=True)
    hmax = _h_max(beta, p, M_p)
    if h > hmax * (1.0 + 1e-12):
        what = "h**beta <= 1/2 (|eta_v| <= 1/2, 003 eq. (47)(b))" if p is None else \
            "h**beta <= min(1, M_p**(1/p))/2 (|eta_v| <= 1/2, eq. (47)(b), and T**p >= M_p, eq. (156))"
        raise ValueError(f"h must satisfy {what}, i.e. h <= {hmax:.6g}, got h={h!r}")
    return min(h, hmax)


def _check_scale(h: float, d: int, source: str) -> float:
    """A cube side whose ``floor(1/h)^d`` cubes and powers stay in the float range (``d ln(1/h) <= 600``)."""
    if not (h > 0.0) or d * math.log(1.0 / h) > 600.0:
        raise ValueError(f"h must be > 0 with floor(1/h)**d <= 1e260 (a float-representable family), got h={h!r} "
                         f"({source})")
    return h


def _grid_cubes(h: float, d: int) -> float:
    """``floor(1/h)^d``: disjoint cubes of side h in [0, 1]^d (tolerating rounding of 1/h)."""
    return float(math.floor(1.0 / h + 1e-9) ** d)


def _check_cubes(cubes, G: float) -> float:
    c = check_real("cubes", cubes, low=0.0, low_open=True)
    if c > G * (1.0 + 1e-12):
        raise ValueError(f"cubes must be <= floor(1/h)**d = {G:g} (disjoint cubes of side h), got cubes={cubes!r}")
    return c


def _bumps(C_M, h, gamma, beta, d, G) -> float:
    """``m = min(G, max(1, floor(C_M h^{γβ−d})))``, eq. (37) with equality (up to the integer part)."""
    x = C_M * h ** (gamma * beta - d)
    return float(min(G, max(1.0, math.floor(x + 1e-9))))


def _three_point_T(M_p, p, h, beta) -> float:
    """003 eq. (159): ``T = (M_p h^{−β}/2)^{1/(p−1)}``."""
    return (0.5 * M_p * h ** (-beta)) ** (1.0 / (p - 1.0))


# ------------------------------------------------------------------------------- local (Assouad)
def _assouad_bound(theorem, N, eps, h, cubes, loss, kl_per_sample, nonprivate, T=None) -> LowerBound:
    delta = N * kl_per_sample
    err = _assouad_error(delta)
    return LowerBound(theorem=theorem, N=N, epsilon=eps, h=h, cubes=cubes, loss_per_cube=loss, per_cube_error=err,
                      divergence=delta, bound=cubes * loss * err, nonprivate=nonprivate, T=T)


def _local_kappa(eps: float) -> float:
    """``(e^ε − 1)² ∧ 3`` of eq. (48)."""
    return 3.0 if eps > 2.0 else min(math.expm1(eps) ** 2, 3.0)


def _log_product(N: float, factor: float, log_factor: Callable[[], float], *rest: float) -> float:
    """``ln(N · factor · rest)``, as the plain product while ``factor`` is a normal float, else in logs.

    ``factor`` is ε² or ``(e^ε − 1)²``: it loses precision below ε = 1e-140 (subnormal below
    ε ≈ 1.5e-154) and underflows to 0 below ε ≈ 1.5e-162 ("math domain error"); there
    ``log_factor()`` (its logarithm, computed without forming it) takes over. Above, the plain
    product keeps the results bit for bit.
    """
    if factor >= 1e-280:  # the product stays a normal float (N >= 1, the norms are not tiny)
        return math.log(math.prod((N, factor) + rest))
    return math.log(N) + log_factor() + sum(math.log(r) for r in rest)


def _nonprivate_classification(N, prm, norms, C_M) -> float:
    """Theorem 1's argument with KL coefficient 3 (eq. (47)) at its optimal h: the standard term (103)."""
    l1, l2 = norms
    b, d, g = prm.beta, prm.d, prm.gamma
    s = assouad_optimum(b * (g + 1.0) / (2.0 * b + d))
    h = min(math.exp((math.log(s) - math.log(N * 3.0 * l2)) / (2.0 * b + d)), _h_max(b))
    if d * math.log(1.0 / h) > 600.0:
        return 0.0  # a valid (trivial) bound where the family leaves the float range
    G = _grid_cubes(h, d)
    m = _bumps(C_M, h, g, b, d, G)
    return m * 0.5 * h ** (b + d) * l1 * _assouad_error(N * 3.0 * h ** (2.0 * b + d) * l2)


def _nonprivate_regression(N, prm, norms) -> float:
    """Theorem 5's argument with KL coefficient 3 (eq. (47)) at its optimal h: the standard term (145)."""
    l1, l2 = norms
    b, d = prm.beta, prm.d
    s = assouad_optimum(2.0 * b / (2.0 * b + d))
    h = min(math.exp((math.log(s) - math.log(N * 3.0 * l2)) / (2.0 * b + d)), _h_max(b))
    if d * math.log(1.0 / h) > 600.0:
        return 0.0  # a valid (trivial) bound where the family leaves the float range
    return _grid_cubes(h, d) * 0.5 * h ** (2.0 * b + d) * l2 * _assouad_error(N * 3.0 * h ** (2.0 * b + d) * l2)


def _choose_h(h, *, log_proof, log_optimal, beta, d, p=None, M_p=None, c_h=1.0) -> float:
    if isinstance(h, str):
        check_choice("h", h, ("proof", "optimal"))
        c_h = check_positive("c_h", c_h)
        log_h = log_proof + math.log(c_h) if h == "proof" else log_optimal
        # clamped at e^700: a tiny ε sends log h far above 0 (h is then capped at h_max anyway)
        return _check_scale(min(math.exp(min(max(log_h, -745.0), 700.0)), _h_max(beta, p, M_p)), d,
                            f"the {h!r} rule at these N, epsilon")
    return _check_scale(_check_h(h, beta, p, M_p), d, "as given")


def theorem1_bound(N, epsilon, *, d, beta, gamma, C_M=1.0, h="proof", c_h=1.0, cubes=None,
                   phi_norms=None) -> LowerBound:
    """003 Theorem 1 (local label DP, classification): the explicit bound of Appendix B.

    ``R − R* >= m · ½ h^{β+d} ‖φ‖₁ · ½ max(e^{−δ}/2, 1 − √(δ/2))`` (eqs. (42), (43), (45)) with
    ``δ = N [(e^ε − 1)² ∧ 3] h^{2β+d} ‖φ‖₂²`` (eq. (48)) and ``m = C_M h^{γβ−d}`` bumps (eq. (37), integer
    part, at least 1, at most ``floor(1/h)^d``). Rate: ``h ≍ (N(ε² ∧ 1))^{−1/(2β+d)}`` gives
    ``(N(ε² ∧ 1))^{−β(γ+1)/(2β+d)}`` (eqs. (49)-(51)).

    Parameters
    ----------
    N : float >= 1
        Sample size.
    epsilon : float > 0
        Local label DP parameter.
    d : int >= 1
    beta : float in (0, 1]
        Hölder exponent (Assumption 1(a)).
    gamma : float in [0, 1]
        Margin exponent (Assumption 1(b)); above 1 only with ``phi_norms``.
    C_M : float > 0, default 1
        Constant of eq. (37).
    h : {"proof", "optimal"} or float, default "proof"
        ``"proof"``: eq. (49) ``h = c_h (N(ε² ∧ 1))^{−1/(2β+d)}``; ``"optimal"``: the maximizer of the
        bound (with m continuous, :func:`assouad_optimum`); a float: that h. Rules are capped at
        ``2^{−1/β}`` (``h^β <= 1/2``).
    c_h : float > 0, default 1
        The unspecified constant of eq. (49) (used with ``h="proof"``).
    cubes : float, optional
        m instead of eq. (37) (e.g. the mean bump count of a randomly rounded construction).
    phi_norms : (float, float), optional
        ``(‖φ‖₁, ‖φ‖₂²)`` of another bump; default :func:`plateau_bump_norms`.

    Returns
    -------
    LowerBound

    Raises
    ------
    ValueError
        On an invalid argument (named, with its value), a float h with ``h^β > 1/2``, or ``cubes``
        above ``floor(1/h)^d``.

    References
    ----------
    003 Theorem 1, eq. (10); Appendix B, eqs. (35)-(51).

    Examples
    --------
    >>> lb = theorem1_bound(1e6, 1.0, d=1, beta=1.0, gamma=1.0)   # h = 10^-2, δ = N (e − 1)² h³ · 2/3
    >>> lb.cubes, round(lb.h, 4), round(lb.divergence, 4), round((math.e - 1) ** 2 * 2 / 3, 4)
    (1.0, 0.01, 1.9683, 1.9683)
    """
    N, eps, prm, (l1, l2), C_M, _ = _check_common("classification", N, epsilon, d, beta, gamma, None, None,
                                                   phi_norms, C_M)
    b, d, g = prm.beta, prm.d, prm.gamma
    kappa = _local_kappa(eps)
    log_proof = -_log_product(N, min(eps * eps, 1.0), lambda: 2.0 * math.log(eps)) / (2.0 * b + d)
    s = assouad_optimum(b * (g + 1.0) / (2.0 * b + d))
    log_opt = (math.log(s) - _log_product(N, kappa, lambda: 2.0 * math.log(math.expm1(eps)), l2)) / (2.0 * b + d)
    h = _choose_h(h, log_proof=log_proof, log_optimal=log_opt, beta=b, d=d, c_h=c_h)
    G = _grid_cubes(h, d)
    m = _bumps(C_M, h, g, b, d, G) if cubes is None else _check_cubes(cubes, G)
    return _assouad_bound("003 Theorem 1", N, eps, h, m, 0.5 * h ** (b + d) * l1, kappa * h ** (2.0 * b + d) * l2,
                          _nonprivate_classification(N, prm, (l1, l2), C_M))


def theorem5_bound(N, epsilon, *, d, beta, h="proof", c_h=1.0, cubes=None, phi_norms=None) -> LowerBound:
    """003 Theorem 5 (local label DP, regression with labels ±1): the explicit bound of Appendix F.

    ``R − R* >= G · ½ h^{2β+d} ‖φ‖₂² · ½ max(e^{−δ}/2, 1 − √(δ/2))`` (eqs. (126)-(127) with (45)), all
    ``G = floor(1/h)^d`` cubes signed (eq. (121)-(122)), ``δ = N [(e^ε − 1)² ∧ 3] h^{2β+d} ‖φ‖₂²`` (the
    labels are the ±1 labels of Appendix B, so eq. (48) carries over). Rate: ``h ≍ (N(ε ∧ 1)²)^{−1/(2β+d)}``
    (eq. (128)) gives ``(N(ε ∧ 1)²)^{−2β/(2β+d)}`` (eq. (130)).

    Parameters
    ----------
    N, epsilon, d, beta, c_h, cubes, phi_norms
        As :func:`theorem1_bound` (``cubes`` defaults to every cube).
    h : {"proof", "optimal"} or float, default "proof"
        ``"proof"``: eq. (128) ``h = c_h (N(ε ∧ 1)²)^{−1/(2β+d)}``; ``"optimal"``: the maximizer.

    Returns
    -------
    LowerBound

    Raises
    ------
    ValueError
        As :func:`theorem1_bound`.

    References
    ----------
    003 Theorem 5, eq. (19); Appendix F, eqs. (121)-(130); Appendix B eqs. (45)-(48).

    Examples
    --------
    >>> lb = theorem5_bound(1e6, 1.0, d=1, beta=1.0, h="optimal")
    >>> round(lb.divergence, 4)   # = assouad_optimum(2/3) = 32/49
    0.6531
    """
    N, eps, prm, (l1, l2), _, _ = _check_common("regression", N, epsilon, d, beta, None, None, None, phi_norms, 1.0)
    b, d = prm.beta, prm.d
    kappa = _local_kappa(eps)
    log_proof = -_log_product(N, min(eps, 1.0) ** 2, lambda: 2.0 * math.log(eps)) / (2.0 * b + d)
    s = assouad_optimum(2.0 * b / (2.0 * b + d))
    log_opt = (math.log(s) - _log_product(N, kappa, lambda: 2.0 * math.log(math.expm1(eps)), l2)) / (2.0 * b + d)
    h = _choose_h(h, log_proof=log_proof, log_optimal=log_opt, beta=b, d=d, c_h=c_h)
    G = _grid_cubes(h, d)
    m = G if cubes is None else _check_cubes(cubes, G)
    return _assouad_bound("003 Theorem 5", N, eps, h, m, 0.5 * h ** (2.0 * b + d) * l2,
                          kappa * h ** (2.0 * b + d) * l2, _nonprivate_regression(N, prm, (l1, l2)))


def theorem9_bound(N, epsilon, *, d, beta, p, M_p=1.0, h="proof", c_h=1.0, cubes=None, phi_norms=None) -> LowerBound:
    """003 Theorem 9 (local label DP, heavy-tailed labels): the explicit bound of Appendix J.

    Labels ``{−T, 0, T}`` with ``P(Y = ±T) = (M_p/T^p ± η_v/T)/2`` (eq. (156)), ``T = (M_p h^{−β}/2)^{1/(p−1)}``
    (eq. (159)). ``R − R* >= G · ½ h^{2β+d} ‖φ‖₂² · ½ max(e^{−δ}/2, 1 − √(δ/2))`` with
    ``δ = N h^{2β+d} ‖φ‖₂² min((e^ε − 1)² T^{−2}, 3 T^{p−2}/M_p)``: the first is eq. (161), the second the
    non-private bound of eq. (47)'s step on this law (not in 003; it only matters for ε above
    ``ln(1 + √3)``). Rate: ``h ≍ (N(e^ε − 1)²)^{−(p−1)/(2pβ+d(p−1))}`` (eq. (162)) gives
    ``(N(e^ε − 1)²)^{−2β(p−1)/(2pβ+d(p−1))}`` (eq. (163)).

    Parameters
    ----------
    N, epsilon, d, beta, c_h, cubes, phi_norms
        As :func:`theorem5_bound`.
    p : float >= 2
        Moment order (Assumption 3).
    M_p : float > 0, default 1
        The p-th moment bound of Assumption 3, ``E|Y|^p = M_p`` (eq. (157)).
    h : {"proof", "optimal"} or float, default "proof"
        ``"proof"``: eq. (162) with constant ``c_h``; ``"optimal"``: the maximizer of the bound with the
        KL bound of eq. (161). Capped so that ``h^β <= min(1, M_p^{1/p})/2``.

    Returns
    -------
    LowerBound

    Raises
    ------
    ValueError
        As :func:`theorem1_bound`; also for a float h with ``T^p < M_p``.

    References
    ----------
    003 Theorem 9, eq. (25); Appendix J, eqs. (156)-(163).

    Examples
    --------
    >>> lb = theorem9_bound(1e6, 0.5, d=1, beta=1.0, p=2.0, M_p=4.0, h=0.1)
    >>> lb.T, lb.cubes   # T = (4 · 10 / 2)^1
    (20.0, 10.0)
    """
    N, eps, prm, (l1, l2), _, M_p = _check_common("regression_heavy_tailed", N, epsilon, d, beta, None, p, M_p,
                                                   phi_norms, 1.0)
    b, d, p = prm.beta, prm.d, prm.p
    log_c = _expm1_sq_log(eps)
    D = 2.0 * p * b + d * (p - 1.0)
    log_proof = -(math.log(N) + log_c) * (p - 1.0) / D
    b_exp = 2.0 * b + d + 2.0 * b / (p - 1.0)  # δ ∝ h^{b_exp} (eq. (161) with (159))
    s = assouad_optimum(2.0 * b / b_exp)
    log_K = math.log(N) + log_c + math.log(l2) - (2.0 / (p - 1.0)) * math.log(0.5 * M_p)
    log_opt = (math.log(s) - log_K) / b_exp
    h = _choose_h(h, log_proof=log_proof, log_optimal=log_opt, beta=b, d=d, p=p, M_p=M_p, c_h=c_h)
    T = _three_point_T(M_p, p, h, b)
    G = _grid_cubes(h, d)
    m = G if cubes is None else _check_cubes(cubes, G)
    log_priv = log_c - 2.0 * math.log(T)
    log_np = math.log(3.0) + (p - 2.0) * math.log(T) - math.log(M_p)
    kl = math.exp(min(log_priv, log_np)) * h ** (2.0 * b + d) * l2
    nonprivate = _nonprivate_regression(N, prm, (l1, l2)) if M_p >= 1.0 else 0.0
    return _assouad_bound("003 Theorem 9", N, eps, h, m, 0.5 * h ** (2.0 * b + d) * l2, kl, nonprivate, T=T)


# ------------------------------------------------------------------- central (Lemma 1 / Lemma 3)
def _chernoff_window(N, h, d, lo, hi):
    """Chernoff lower bound on ``P(lo < n < hi)`` for ``n ~ Bin(N, h^d)`` (arrays)."""
    mu = N * h ** d
    with np.errstate(over="ignore", invalid="ignore", divide="ignore", under="ignore"):
        low_tail = np.where(lo < mu, np.exp(-(mu - lo) * ((mu - lo) / (2.0 * mu))), 1.0)
        ratio = np.where(np.isinf(hi), 1.0, (hi - mu) / (hi + mu))
        high_tail = np.where(hi > mu, np.exp(-(hi - mu) * ratio), 1.0)
        prob = np.clip(1.0 - low_tail - high_tail, 0.0, 1.0)
    return np.where(np.isfinite(prob), prob, 0.0)


def _central_pieces(N, eps, h, *, d, beta, labels, M_p=None, p=None, C0=BERRY_ESSEEN_C0):
    """Per h (array): (T, C_E, n_lo, n_hi, window probability)."""
    hb = h ** beta
    if labels == "pm1":
        T = np.ones_like(h)
        C_E = C0 / (1.0 - hb ** 2) ** 1.5  # ρ <= 1 − μ⁴ <= 1, σ² = 1 − μ² >= 1 − h^{2β}
    else:
        T = (0.5 * M_p / hb) ** (1.0 / (p - 1.0))
        q = M_p / T ** p
        rho = q * (T + hb) ** 3 + hb ** 3  # E|Y − μ|³ over |μ| <= h^β
        C_E = C0 * rho / (T * T * q - hb ** 2) ** 1.5
    n_lo = 16.0 * C_E ** 2
    n_hi = T * _LN2 / (eps * hb)  # Lemma 1 / 3: a_k <= h^β < T ln 2/(ε n_k)
    return T, C_E, n_lo, n_hi, _chernoff_window(N, h, d, n_lo, n_hi)


def _central_bound(theorem, task, N, eps, prm, norms, C_M, h_arg, c_h, cubes, *, labels, M_p=None, C0):
    l1, l2 = norms
    b, d, p = prm.beta, prm.d, prm.p
    hmax = _h_max(b, p, M_p)
    if labels == "pm1":  # eq. (100): 2 N h^d = ln 2 / (ε h^β)
        log_proof = (math.log(_LN2) - math.log(2.0 * eps * N)) / (b + d)
    else:  # eqs. (186)-(188) with (159) and (100)'s constant: 2 N h^d = T ln 2 / (ε h^β)
        D = p * b + d * (p - 1.0)
        log_proof = (math.log(0.5 * M_p) / (p - 1.0) + math.log(_LN2) - math.log(2.0 * eps * N)) * (p - 1.0) / D

    def evaluate(hs):
        with np.errstate(all="ignore"):
            out = _evaluate(hs)
        return (*out[:-1], np.where(np.isfinite(out[-1]), out[-1], 0.0))

    def _evaluate(hs):
        hs = np.asarray(hs, dtype=float)
        G = np.floor(1.0 / hs + 1e-9) ** d
        if cubes is not None:
            m = np.full_like(hs, cubes)
        elif task == "classification":
            m = np.minimum(G, np.maximum(1.0, np.floor(C_M * hs ** (prm.gamma * b - d) + 1e-9)))
        else:
            m = G
        loss = 0.5 * hs ** (b + d) * l1 if task == "classification" else 0.5 * hs ** (2.0 * b + d) * l2
        T, C_E, n_lo, n_hi, prob = _central_pieces(N, eps, hs, d=d, beta=b, labels=labels, M_p=M_p, p=p, C0=C0)
        return m, loss, T, C_E, n_lo, n_hi, prob, m * loss * prob / 12.0

    if isinstance(h_arg, str):
        check_choice("h", h_arg, ("proof", "optimal"))
        c_h = check_positive("c_h", c_h)
        h = _check_scale(min(math.exp(min(max(log_proof, -745.0), 700.0)) * c_h, hmax), d,
                         f"the {h_arg!r} rule at these N, epsilon")
        if h_arg == "optimal":  # log-grid search around the proof's h (the window makes the bound non-smooth)
            lo = max(math.log(h) - 3.0, -600.0 / d)
            grid = np.exp(np.linspace(lo, min(math.log(h) + 3.0, math.log(hmax)), 4001))
            vals = evaluate(grid)[-1]
            h = float(grid[int(np.argmax(vals))]) if np.max(vals) > 0 else h
    else:
        h = _check_scale(_check_h(h_arg, b, p, M_p), d, "as given")
    if cubes is not None:
        cubes = _check_cubes(cubes, _grid_cubes(h, d))
    m, loss, T, C_E, n_lo, n_hi, prob, bound = (float(np.asarray(x)) for x in evaluate(np.array(h)))
    if task == "classification":
        nonprivate = _nonprivate_classification(N, prm, norms, C_M)
    else:
        nonprivate = _nonprivate_regression(N, prm, norms) if (M_p is None or M_p >= 1.0) else 0.0
    return LowerBound(theorem=theorem, N=N, epsilon=eps, h=h, cubes=m, loss_per_cube=loss, per_cube_error=prob / 12.0,
                      divergence=_LN2, bound=bound, nonprivate=nonprivate, T=None if labels == "pm1" else T,
                      count_window=(n_lo, n_hi), count_probability=prob, berry_esseen=C_E)


def _check_c0(berry_esseen):
    return check_positive("berry_esseen", berry_esseen)


def theorem3_bound(N, epsilon, *, d, beta, gamma, C_M=1.0, h="proof", c_h=1.0, cubes=None, phi_norms=None,
                   berry_esseen=BERRY_ESSEEN_C0) -> LowerBound:
    """003 Theorem 3 (central label DP, classification): the explicit bound of Appendix D.

    ``R − R* >= m · ½ h^{β+d} ‖φ‖₁ · (1/12) P(16 C_E² < n_k < ln 2/(ε h^β))`` (eqs. (86), (97)-(99)), with
    ``n_k ~ Bin(N, h^d)`` (Chernoff lower bound) and the group-privacy Lemma 1. Proof's h: eq. (100)
    ``2 N h^d = ln 2/(ε h^β)``, i.e. ``h = (ln 2/(2εN))^{1/(β+d)}`` (eq. (101)), giving the privacy term
    ``(εN)^{−β(γ+1)/(β+d)}`` (eq. (102)); ``nonprivate`` is eq. (103).

    Parameters
    ----------
    N, epsilon, d, beta, gamma, C_M, cubes, phi_norms
        As :func:`theorem1_bound` (``epsilon``: central label DP).
    h : {"proof", "optimal"} or float, default "proof"
        ``"proof"``: eq. (100) (times ``c_h``); ``"optimal"``: the maximizer over a log grid of ±3 nats
        around it; a float: that h.
    c_h : float > 0, default 1
    berry_esseen : float > 0, default :data:`BERRY_ESSEEN_C0`
        ``C_0`` of the Berry–Esseen step (94); ``C_E = C_0 (1 − h^{2β})^{−3/2}``.

    Returns
    -------
    LowerBound

    Raises
    ------
    ValueError
        As :func:`theorem1_bound`.

    References
    ----------
    003 Theorem 3, eq. (16); Appendix D, eqs. (86)-(104), Lemma 1.

    Examples
    --------
    >>> lb = theorem3_bound(1e8, 1e-3, d=1, beta=1.0, gamma=1.0)
    >>> round(2 * lb.N * lb.h ** 1, 6) == round(lb.count_window[1], 6)   # eq. (100)
    True
    """
    N, eps, prm, norms, C_M, _ = _check_common("classification", N, epsilon, d, beta, gamma, None, None, phi_norms, C_M)
    return _central_bound("003 Theorem 3", "classification", N, eps, prm, norms, C_M, h, c_h, cubes, labels="pm1",
                          C0=_check_c0(berry_esseen))


def theorem7_bound(N, epsilon, *, d, beta, h="proof", c_h=1.0, cubes=None, phi_norms=None,
                   berry_esseen=BERRY_ESSEEN_C0) -> LowerBound:
    """003 Theorem 7 (central label DP, regression with labels ±1): the explicit bound of Appendix H.

    ``R − R* >= G · ½ h^{2β+d} ‖φ‖₂² · (1/12) P(16 C_E² < n_k < ln 2/(ε h^β))`` (eq. (143) with Appendix D's
    (97)-(99)), h from eq. (100)-(101), giving the privacy term ``(εN)^{−2β/(d+β)}`` (eq. (144)) — not the
    ``(εN)^{−2β/(d+2β)}`` printed in 003 Table 1; ``nonprivate`` is eq. (145).

    Parameters
    ----------
    N, epsilon, d, beta, h, c_h, cubes, phi_norms, berry_esseen
        As :func:`theorem3_bound` (``cubes`` defaults to every cube).

    Returns
    -------
    LowerBound

    Raises
    ------
    ValueError
        As :func:`theorem1_bound`.

    References
    ----------
    003 Theorem 7, eq. (22); Appendix H, eqs. (143)-(146); Appendix D.

    Examples
    --------
    >>> lb = theorem7_bound(1e8, 1e-3, d=1, beta=1.0)
    >>> round(lb.count_probability, 6), lb.per_cube_error == lb.count_probability / 12
    (1.0, True)
    """
    N, eps, prm, norms, _, _ = _check_common("regression", N, epsilon, d, beta, None, None, None, phi_norms, 1.0)
    return _central_bound("003 Theorem 7", "regression", N, eps, prm, norms, 1.0, h, c_h, cubes, labels="pm1",
                          C0=_check_c0(berry_esseen))


def theorem11_bound(N, epsilon, *, d, beta, p, M_p=1.0, h="proof", c_h=1.0, cubes=None, phi_norms=None,
                    berry_esseen=BERRY_ESSEEN_C0) -> LowerBound:
    """003 Theorem 11 (central label DP, heavy-tailed labels): the explicit bound of Appendix L.

    The three-point law of eq. (156) with ``T`` of eq. (159); Lemma 3 (labels moved from −T to T) gives
    ``P(V̂_k ≠ V_k) >= (1/12) P(16 C_E² < n_k < T ln 2/(ε h^β))``, so
    ``R − R* >= G · ½ h^{2β+d} ‖φ‖₂² · (1/12) P(...)``. Proof's h: (100)'s balance ``2N h^d = T ln 2/(ε h^β)``
    with T from (159), i.e. eq. (186)-(188) ``h = ((M_p/2)^{1/(p−1)} ln 2/(2εN))^{(p−1)/(pβ+d(p−1))}``, giving
    ``(εN)^{−2β(p−1)/(pβ+d(p−1))}`` (eq. (189)). ``C_E = C_0 ρ/σ³`` of the three-point law grows like
    ``(T^p/M_p)^{1/2}`` (see the module text).

    Parameters
    ----------
    N, epsilon, d, beta, h, c_h, cubes, phi_norms, berry_esseen
        As :func:`theorem7_bound`.
    p, M_p
        As :func:`theorem9_bound`.

    Returns
    -------
    LowerBound

    Raises
    ------
    ValueError
        As :func:`theorem9_bound`.

    References
    ----------
    003 Theorem 11, eq. (27); Appendix L, Lemma 3, eqs. (183)-(189); eq. (156)-(159).

    Examples
    --------
    >>> lb = theorem11_bound(1e9, 1e-4, d=1, beta=1.0, p=2.0, M_p=4.0)
    >>> round(lb.count_window[1] / (lb.N * lb.h), 6)   # n_max = 2 μ at the proof's h
    2.0
    """
    N, eps, prm, norms, _, M_p = _check_common("regression_heavy_tailed", N, epsilon, d, beta, None, p, M_p,
                                                phi_norms, 1.0)
    return _central_bound("003 Theorem 11", "regression_heavy_tailed", N, eps, prm, norms, 1.0, h, c_h, cubes,
                          labels="three_point", M_p=M_p, C0=_check_c0(berry_esseen))


# ------------------------------------------------------------------------------------ dispatcher
_THEOREMS = {
    ("classification", "local"): theorem1_bound,
    ("classification", "central"): theorem3_bound,
    ("regression", "local"): theorem5_bound,
    ("regression", "central"): theorem7_bound,
    ("regression_heavy_tailed", "local"): theorem9_bound,
    ("regression_heavy_tailed", "central"): theorem11_bound,
}


def lower_bound(task, privacy, N, epsilon, **kwargs) -> LowerBound:
    """The explicit lower bound of the 003 theorem for ``(task, privacy)``.

    ``("classification", "local")`` → :func:`theorem1_bound`, ``("classification", "central")`` →
    :func:`theorem3_bound`, ``("regression", ...)`` → Theorems 5 / 7, ``("regression_heavy_tailed", ...)``
    → Theorems 9 / 11. Keyword arguments go to that function.

    Parameters
    ----------
    task : {"classification", "regression", "regression_heavy_tailed"}
    privacy : {"local", "central"}
        003 proves lower bounds for these two models only.
    N, epsilon : float
    **kwargs
        ``d``, ``beta`` and the theorem's other keywords.

    Returns
    -------
    LowerBound

    Raises
    ------
    ValueError
        For an unknown task, a privacy model without a lower-bound theorem, or a bad keyword value.

    References
    ----------
    003 Theorems 1, 3, 5, 7, 9, 11.

    Examples
    --------
    >>> lower_bound("regression", "central", 1e8, 1e-3, d=1, beta=1.0).theorem
    '003 Theorem 7'
    """
    task = check_task(task)
    privacy = check_privacy(privacy)
    if privacy not in ("local", "central"):
        raise ValueError(f"privacy must be 'local' or 'central' (003 proves lower bounds for these), got "
                         f"privacy={privacy!r}")
    return _THEOREMS[(task, privacy)](N, epsilon, **kwargs)
