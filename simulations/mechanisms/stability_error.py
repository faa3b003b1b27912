"""Exact accuracy of the stability-based histogram (001 Algorithm 1, Theorem 2.4's utility part).

For a cell of count ``c >= 1`` Algorithm 1 releases ``ĉ = c + W`` (``W ~ Lap(b)``, ``b = 2/ε``) if
``c + W >= T = b ln(2/δ) + 1`` and ``ĉ = 0`` otherwise; a cell of count 0 is released as 0 whatever
the noise. So ``|ĉ − c| = |W|`` on release and ``c`` on suppression, and with ``t = T − c``

* ``E[|W|; W >= t] = ½ (t + b) e^{−t/b}`` for ``t >= 0``, ``b − ½ (|t| + b) e^{−|t|/b}`` for ``t < 0``;
* ``P(W < t) = 1 − ½ e^{−t/b}`` for ``t >= 0``, ``½ e^{−|t|/b}`` for ``t < 0``.

Adding ``E[|W|; W >= t] + c P(W < t)`` and simplifying (``c − |t| = T`` when ``c > T``)::

    E|ĉ − c| = c + ½ e^{−(T−c)/b} (T − 2c + b)     for 1 <= c <= T,
    E|ĉ − c| = b + ½ e^{−(c−T)/b} (T − b)          for c >= T,            and 0 for c = 0.

Theorem 2.4 states ``E|ĉ − c| <= O((1/ε) min{ln(1/δ), c})``; :func:`constant_ratio` is the ratio
``ε E|ĉ − c| / min{ln(1/δ), c}`` whose supremum over ``c >= 1`` (:func:`sup_constant_ratio`, exact)
is the constant that the O hides at (ε, δ); :func:`constant_ratio_bounds` brackets it by hand-derived
bounds that tend to 2 as δ -> 0. Laplace noise is analysed in idealized real arithmetic.

References: 001 Algorithm 1, Theorem 2.4 (Bun et al. 2019).
"""

from __future__ import annotations

import math

import numpy as np

from limits.validation import check_positive, check_real

__all__ = ["abs_error_variance", "constant_ratio", "constant_ratio_bounds", "expected_abs_error", "sup_constant_ratio"]


def _check_eps_delta(epsilon, delta) -> tuple[float, float]:
    epsilon = check_positive("epsilon", epsilon)
    delta = check_real("delta", delta, low=0.0, high=1.0, low_open=True, high_open=True)
    return epsilon, delta


def _check_counts(counts, low: int = 0) -> np.ndarray:
    c = np.asarray(counts)
    if c.dtype == bool or not np.issubdtype(c.dtype, np.integer) or (c.size and c.min() < low):
        raise ValueError(f"counts must be integers >= {low}, got counts={counts!r}")
    return c.astype(np.int64)


def _scale_threshold(epsilon: float, delta: float) -> tuple[float, float]:
    b = 2.0 / epsilon
    return b, b * math.log(2.0 / delta) + 1.0


def expected_abs_error(counts, epsilon: float, delta: float) -> np.ndarray:
    """Exact ``E|ĉ(x) − count(x)|`` of 001 Algorithm 1 per cell, in closed form.

    Parameters
    ----------
    counts : array_like of int >= 0, any shape
        True counts ``count_S(x)``.
    epsilon : float > 0
    delta : float in (0, 1)

    Returns
    -------
    numpy.ndarray of float, the shape of ``counts``
        0 where the count is 0 (Theorem 2.4: ``ĉ(x) = 0`` then); see the module docstring otherwise.

    Raises
    ------
    ValueError
        If ``counts`` holds anything but non-negative integers, ``epsilon <= 0`` or ``delta`` is not
        in (0, 1).

    References
    ----------
    001 Algorithm 1 (lines 3-8), Theorem 2.4.

    Examples
    --------
    >>> import math
    >>> e = expected_abs_error([0, 1, 10**6], 1.0, 1e-6)
    >>> float(e[0]), round(float(e[2]), 12)        # zero count: exactly 0; far above T: E|W| = b = 2/ε
    (0.0, 2.0)
    >>> T = 2 * math.log(2e6) + 1                   # count 1: suppressed unless W >= T - 1 (prob. δ/4)
    >>> math.isclose(float(e[1]), 1 + 1e-6 / 4 * (T - 2 + 2), rel_tol=1e-12)
    True
    """
    epsilon, delta = _check_eps_delta(epsilon, delta)
    c = _check_counts(counts).astype(float)
    b, T = _scale_threshold(epsilon, delta)
    with np.errstate(over="ignore", invalid="ignore"):
        below = c + 0.5 * np.exp(-(T - np.minimum(c, T)) / b) * (T - 2.0 * c + b)
        above = b + 0.5 * np.exp(-(np.maximum(c, T) - T) / b) * (T - b)
    return np.where(c == 0, 0.0, np.where(c <= T, below, above))


def abs_error_variance(counts, epsilon: float, delta: float) -> np.ndarray:
    """Exact ``Var|ĉ(x) − count(x)|`` of 001 Algorithm 1 per cell (sizes Monte Carlo samples).

    ``E|ĉ − c|² = E[W²; W >= t] + c² P(W < t)`` with ``t = T − c`` and, for ``W ~ Lap(b)``,
    ``E[W²; W >= t] = ½ e^{−t/b}(t² + 2bt + 2b²)`` (``t >= 0``), ``2b² − ½ e^{−|t|/b}(t² + 2b|t| + 2b²)``
    (``t < 0``); minus the square of :func:`expected_abs_error`.

    Parameters
    ----------
    counts : array_like of int >= 0, any shape
    epsilon : float > 0
    delta : float in (0, 1)

    Returns
    -------
    numpy.ndarray of float, the shape of ``counts`` (0 where the count is 0)

    Raises
    ------
    ValueError
        As :func:`expected_abs_error`.

    References
    ----------
    001 Algorithm 1 (lines 3-8).

    Examples
    --------
    >>> v = abs_error_variance([0, 10**6], 1.0, 1e-6)  # far above T: Var|W| = 2b² − b² = b² = 4
    >>> float(v[0]), round(float(v[1]), 9)
    (0.0, 4.0)
    """
    epsilon, delta = _check_eps_delta(epsilon, delta)
    c = _check_counts(counts).astype(float)
    b, T = _scale_threshold(epsilon, delta)
    t = T - c
    a = np.abs(t)
    with np.errstate(over="ignore", invalid="ignore"):
        tail = 0.5 * np.exp(-a / b)
        second = np.where(t >= 0, tail * (t * t + 2 * b * t + 2 * b * b) + c * c * (1 - tail),
                          2 * b * b - tail * (t * t + 2 * b * a + 2 * b * b) + c * c * tail)
    mean = expected_abs_error(counts, epsilon, delta)
    return np.where(c == 0, 0.0, np.maximum(second - mean * mean, 0.0))


def constant_ratio(counts, epsilon: float, delta: float) -> np.ndarray:
    """``ε E|ĉ − c| / min{ln(1/δ), c}`` per count ``c >= 1``: the constant of Theorem 2.4's O at c.

    Parameters
    ----------
    counts : array_like of int >= 1
    epsilon : float > 0
    delta : float in (0, 1)

    Returns
    -------
    numpy.ndarray of float, the shape of ``counts``

    Raises
    ------
    ValueError
        On a count below 1 (the bound is about non-empty cells) or invalid ``epsilon`` / ``delta``.

    References
    ----------
    001 Theorem 2.4.

    Examples
    --------
    >>> r = constant_ratio([1, 10**6], 1.0, 1e-6)  # c = 1: E ≈ 1, ratio ≈ ε; c -> ∞: E -> b, ratio -> 2 / ln(1/δ)
    >>> round(float(r[0]), 5), math.isclose(float(r[1]), 2 / math.log(1e6), rel_tol=1e-12)
    (1.00001, True)
    """
    epsilon, delta = _check_eps_delta(epsilon, delta)
    c = _check_counts(counts, low=1)
    return epsilon * expected_abs_error(c, epsilon, delta) / np.minimum(math.log(1.0 / delta), c)


def sup_constant_ratio(epsilon: float, delta: float) -> tuple[float, int]:
    """Exact ``sup_{c >= 1} ε E|ĉ − c| / min{ln(1/δ), c}`` and the count that attains it.

    Beyond ``c0 = max(T, ln(1/δ))`` the ratio is ``ε E / ln(1/δ)`` with ``E = b + ½ e^{−(c−T)/b}(T − b)``
    non-increasing in c (``T >= b``), so the supremum over all integers ``c >= 1`` is the maximum over
    ``1 .. ceil(c0)``, computed from the closed form.

    Parameters
    ----------
    epsilon : float > 0
    delta : float in (0, 1/2]
        (``T >= b`` needs ``ln(2/δ) >= 1 − ε/2``; δ <= 1/2 suffices for every ε.)

    Returns
    -------
    (float, int)
        The supremum and its argmax (the smallest count attaining it).

    Raises
    ------
    ValueError
        On invalid ``epsilon``, or ``delta`` outside (0, 1/2].

    References
    ----------
    001 Theorem 2.4.

    Examples
    --------
    >>> value, c = sup_constant_ratio(1.0, 1e-6)
    >>> round(value, 3), c, round(2 * math.log(2e6) + 1, 1)  # the worst count sits below T
    (1.785, 26, 30.0)
    """
    epsilon, delta = _check_eps_delta(epsilon, delta)
    if delta > 0.5:
        raise ValueError(f"delta must be <= 1/2, got delta={delta}")
    b, T = _scale_threshold(epsilon, delta)
    c = np.arange(1, int(math.ceil(max(T, math.log(1.0 / delta)))) + 2)
    r = constant_ratio(c, epsilon, delta)
    k = int(np.argmax(r))
    return float(r[k]), int(c[k])


def constant_ratio_bounds(epsilon: float, delta: float) -> tuple[float, float]:
    """Hand-derived ``(lower, upper)`` bounds on :func:`sup_constant_ratio`; both tend to 2 as δ -> 0.

    With ``L = ln(1/δ)``, ``b = 2/ε``, ``T = b ln(2/δ) + 1`` and ``ε <= 2``, ``δ <= 1/2``:

    * upper: for ``c >= L``, ``E|ĉ − c| <= T`` (on ``c <= T`` it is at most ``max(c, (T + b)/2)``, above
      at most ``(T + b)/2``), so the ratio is ``<= εT/L = 2 + (2 ln 2 + ε)/L``; for ``c < L`` (< T),
      ``E <= c + ½ e^{−(T−c)/b}(T + b)`` and ``e^{−(T−c)/b} <= ½ δ^{1−ε/2}``, so the ratio is
      ``<= ε + (2L + 2 ln 2 + ε + 2) δ^{1−ε/2} / 4``. The upper bound is the larger of the two.
    * lower: ``|ĉ − c| >= c`` on suppression, so ``E >= c P(W < T − c) = c (1 − ½ e^{−(T−c)/b})``; at
      ``c_* = floor(T − b ln L)`` this gives ``ε c_* (1 − ½ e^{−(T−c_*)/b}) / min{L, c_*}`` (→ 2).

    Neither uses the closed form of :func:`expected_abs_error`, so they check it.

    Parameters
    ----------
    epsilon : float in (0, 2]
    delta : float in (0, 1/e)
        (``L > 1`` so that ``ln L > 0``.)

    Returns
    -------
    (float, float)

    Raises
    ------
    ValueError
        If ``epsilon`` is not in (0, 2] or ``delta`` not in (0, 1/e).

    References
    ----------
    001 Theorem 2.4.

    Examples
    --------
    >>> lo, hi = constant_ratio_bounds(1.0, 1e-12)
    >>> lo <= sup_constant_ratio(1.0, 1e-12)[0] <= hi, round(lo, 3), round(hi, 3)
    (True, 1.813, 2.086)
    """
    epsilon, delta = _check_eps_delta(epsilon, delta)
    if epsilon > 2:
        raise ValueError(f"epsilon must be <= 2 for these bounds, got epsilon={epsilon}")
    if not delta < math.exp(-1):
        raise ValueError(f"delta must be < 1/e for these bounds, got delta={delta}")
    b, T = _scale_threshold(epsilon, delta)
    L = math.log(1.0 / delta)
    upper = max(2.0 + (2.0 * math.log(2.0) + epsilon) / L,
                epsilon + (2.0 * L + 2.0 * math.log(2.0) + epsilon + 2.0) * delta ** (1.0 - epsilon / 2.0) / 4.0)
    c_star = max(1, math.floor(T - b * math.log(L)))
    lower = epsilon * c_star * (1.0 - 0.5 * math.exp(-(T - c_star) / b)) / min(L, c_star)
    return lower, upper
