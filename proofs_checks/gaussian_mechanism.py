"""Exact privacy of the Gaussian mechanism of LP-Normal-SGD (004 Algorithm 6, Proposition 11).

One step of Algorithm 6 releases ``k ↦ ∇ℓ(w_t, (x_t, k)) + b_t`` with ``b_t`` the projection of
``N(0, σ² I_p)`` on ``L_t = span{∇ℓ(w_t, (x_t, k)) : k ∈ [K]}``. Every gradient lies in ``L_t``, which is
public (it depends on ``w_t`` and ``x_t`` only), and the projected noise is isotropic there, so the step
is the Gaussian mechanism in ``L_t`` with L2 sensitivity ``Δ = max_{k,k'} ‖∇ℓ(w, (x, k)) − ∇ℓ(w, (x, k'))‖``.
004's proof bounds ``Δ ≤ 2L`` (triangle inequality); for the suite's multiclass logistic loss
``∇_W ℓ = (softmax(Wx) − e_k) xᵀ`` the label difference is ``(e_{k'} − e_k) xᵀ``, so ``Δ = √2 ‖x‖``.

Its exact privacy profile (the analytic Gaussian mechanism, Balle and Wang 2018, Theorem 8; μ = Δ/σ)

    δ(ε) = Φ(μ/2 − ε/μ) − e^ε Φ(−μ/2 − ε/μ)

is the smallest δ for which one step is (ε, δ)-DP; each label is used in one step only, so it is also
the label-DP profile of the whole pass (004's post-processing argument).

References: 004 Algorithm 6, Proposition 11 and its proof (Appendix F.2); Balle and Wang (2018),
"Improving the Gaussian mechanism for differential privacy", Theorem 8.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import optimize, special

from limits.validation import check_positive, check_real

__all__ = ["gaussian_delta", "gaussian_delta_complement", "paper_constant", "smallest_sigma"]


def _mu_args(epsilon, sensitivity, sigma):
    eps = np.asarray(epsilon, dtype=float)
    if not np.all(np.isfinite(eps)) or np.any(eps < 0):
        raise ValueError(f"epsilon must be finite and >= 0, got epsilon={epsilon}")
    mu = check_positive("sensitivity", sensitivity) / check_positive("sigma", sigma)
    return eps, mu, mu / 2 - eps / mu, -mu / 2 - eps / mu


def gaussian_delta(epsilon, sensitivity: float, sigma: float):
    r"""Exact δ(ε) of the Gaussian mechanism: :math:`\Phi(\mu/2 - \varepsilon/\mu) - e^\varepsilon \Phi(-\mu/2 - \varepsilon/\mu)`.

    Parameters
    ----------
    epsilon : float or array_like of float, >= 0
        The ε at which δ is read.
    sensitivity : float > 0
        Δ, the L2 sensitivity of the released vector to one label.
    sigma : float > 0
        Standard deviation of the noise per coordinate (of the subspace the output lives in).

    Returns
    -------
    float or ndarray
        δ(ε), same shape as ``epsilon``; the mechanism is (ε, δ)-DP iff δ >= this value.

    Raises
    ------
    ValueError
        If ``epsilon`` is negative or not finite, or ``sensitivity`` / ``sigma`` are not > 0.

    References
    ----------
    004 Proposition 11 (the privacy of Algorithm 6); Balle and Wang (2018), Theorem 8.

    Examples
    --------
    At ε = 0 it is the total variation of N(0, 1) and N(μ, 1), 2Φ(μ/2) − 1; here μ = 1:

    >>> round(float(gaussian_delta(0.0, 1.0, 1.0)), 10) == round(2 * 0.6914624612740131 - 1, 10)
    True
    >>> gaussian_delta([0.5, 1.0], 1.0, 4.0).round(6).tolist()
    [0.002709, 3e-06]
    """
    eps, _, a, b = _mu_args(epsilon, sensitivity, sigma)
    out = special.ndtr(a) - np.exp(eps + special.log_ndtr(b))
    return float(out) if np.ndim(out) == 0 else out


def gaussian_delta_complement(epsilon, sensitivity: float, sigma: float):
    r""":math:`1 - \delta(\varepsilon) = \Phi(-\mu/2 + \varepsilon/\mu) + e^\varepsilon \Phi(-\mu/2 - \varepsilon/\mu)`, accurate when δ(ε) is near 1.

    Parameters
    ----------
    epsilon : float or array_like of float, >= 0
        The ε.
    sensitivity : float > 0
        Δ.
    sigma : float > 0
        σ.

    Returns
    -------
    float or ndarray
        1 − δ(ε), computed without cancellation (both terms are tails).

    Raises
    ------
    ValueError
        As :func:`gaussian_delta`.

    References
    ----------
    004 Proposition 11 ("for any ε, δ ∈ (0, 1)": δ near 1 is where this matters).

    Examples
    --------
    >>> float(gaussian_delta_complement(0.5, 2.0, 0.1)) < 1e-20
    True
    """
    eps, _, a, b = _mu_args(epsilon, sensitivity, sigma)
    out = special.ndtr(-a) + np.exp(eps + special.log_ndtr(b))
    return float(out) if np.ndim(out) == 0 else out


def smallest_sigma(epsilon: float, delta: float, sensitivity: float) -> float:
    """The smallest σ for which the Gaussian mechanism of sensitivity Δ is (ε, δ)-DP (exact profile).

    δ(ε) decreases in σ (increases in μ = Δ/σ), so this is Δ/μ* with μ* the root of δ_μ(ε) = δ.

    Parameters
    ----------
    epsilon : float > 0
        ε.
    delta : float in (0, 1)
        δ.
    sensitivity : float > 0
        Δ.

    Returns
    -------
    float
        σ_min (to relative precision 1e-12).

    Raises
    ------
    ValueError
        If an argument is out of range.

    References
    ----------
    004 Proposition 11; Balle and Wang (2018), Theorem 8 (Algorithm 1 there solves the same equation).

    Examples
    --------
    Below the classical σ = Δ √(2 ln(1.25/δ)) / ε (Dwork and Roth, Theorem A.1):

    >>> s = smallest_sigma(0.5, 1e-5, 1.0)
    >>> round(s, 4), round(math.sqrt(2 * math.log(1.25e5)) / 0.5, 4)
    (7.0318, 9.6896)
    >>> abs(gaussian_delta(0.5, 1.0, s) - 1e-5) < 1e-15
    True
    """
    eps = check_positive("epsilon", epsilon)
    delta = check_real("delta", delta, low=0.0, high=1.0, low_open=True, high_open=True)
    sens = check_positive("sensitivity", sensitivity)
    f = lambda log_mu: gaussian_delta(eps, 1.0, math.exp(-log_mu)) - delta  # noqa: E731 (μ = 1/σ at Δ = 1)
    lo, hi = -1.0, 1.0
    while f(lo) > 0:
        lo *= 2
    while f(hi) < 0:
        hi *= 2
    log_mu = optimize.brentq(f, lo, hi, xtol=1e-14, rtol=1e-13)
    return sens * math.exp(-log_mu)


def paper_constant(epsilon: float, delta: float) -> float:
    """The smallest C with which Proposition 11's σ = C L √(log 1/δ) / ε is (ε, δ)-DP at this (ε, δ).

    With the proof's sensitivity Δ = 2L (attained by the loss ±L⟨w, x⟩ of 004 Proposition 13's
    construction): C_min = σ_min(ε, δ; 2L) ε / (L √(ln 1/δ)), independent of L.

    Parameters
    ----------
    epsilon : float > 0
        ε.
    delta : float in (0, 1)
        δ.

    Returns
    -------
    float
        C_min(ε, δ); Proposition 11 needs one C >= C_min at every (ε, δ) it covers.

    Raises
    ------
    ValueError
        If an argument is out of range.

    References
    ----------
    004 Proposition 11 and its proof ("‖∇ℓ(w, (x, k)) − ∇ℓ(w, (x, k'))‖ ≤ 2L").

    Examples
    --------
    It grows towards 2√2 as δ → 0 (σ ≈ Δ √(2 ln 1/δ)/ε) and without bound as δ → 1:

    >>> round(paper_constant(0.5, 1e-12), 3), round(paper_constant(0.5, 0.999), 2), paper_constant(0.5, 1 - 1e-9) > 50
    (2.443, 4.71, True)
    """
    delta = check_real("delta", delta, low=0.0, high=1.0, low_open=True, high_open=True)
    return smallest_sigma(epsilon, delta, 2.0) * epsilon / math.sqrt(math.log(1.0 / delta))
