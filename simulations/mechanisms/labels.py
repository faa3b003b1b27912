"""Input guards shared by the label randomizers: labels in range, priors per example.

Labels are 0-based class indices ``0 .. K-1`` (the papers write ``[K] = {1, ..., K}``).
"""

from __future__ import annotations

import numbers

import numpy as np

from limits.validation import check_int, check_positive, check_probability_vector

__all__ = ["PRIOR_EPS_FACTOR", "check_labels", "check_num_classes_epsilon", "check_priors", "prior_sum_tolerance"]


def check_num_classes_epsilon(num_classes, epsilon) -> None:
    """Check the common parameters of every label randomizer: K an integer >= 2 and ε > 0 finite.

    Parameters
    ----------
    num_classes : int
        K, the number of classes; must be an integer >= 2.
    epsilon : float
        Privacy parameter; must be finite and > 0.

    Raises
    ------
    ValueError
        If ``num_classes`` is not an integer >= 2 or ``epsilon`` is not finite and > 0 (the message
        names the argument and its value).

    References
    ----------
    004 eq. (1) (K-ary RR with parameter ε); docs/design.md, style contract: plain guard clauses that repeat the value.

    Examples
    --------
    >>> check_num_classes_epsilon(10, 1.0)
    >>> check_num_classes_epsilon(1, 1.0)
    Traceback (most recent call last):
    ...
    ValueError: num_classes must be ...
    """
    check_int("num_classes", num_classes, low=2)
    check_positive("epsilon", epsilon)


def check_labels(labels, num_classes: int) -> np.ndarray:
    """Return ``labels`` as a 1-D int64 array after checking they are integers in ``[0, K)``.

    Parameters
    ----------
    labels : array_like of int, shape (N,)
        Class indices, 0-based (the papers' label y in [K] is ``y - 1`` here).
    num_classes : int
        K.

    Returns
    -------
    ndarray of int64, shape (N,)
        The labels (no copy when already int64).

    Raises
    ------
    ValueError
        If ``labels`` is not 1-D, not of an integer dtype, or has an entry outside ``[0, K)``.

    References
    ----------
    004 Section 2 (labels in [K] = {1, ..., K}, here 0 .. K-1).

    Examples
    --------
    >>> check_labels([0, 2, 1], 3).tolist()
    [0, 2, 1]
    >>> check_labels([0, 3], 3)
    Traceback (most recent call last):
    ...
    ValueError: labels must lie in [0, 3), got min 0 and max 3
    """
    arr = np.asarray(labels)
    if arr.ndim != 1:
        raise ValueError(f"labels must be a 1-D array, got shape {arr.shape}")
    if arr.size and not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"labels must be integers, got dtype {arr.dtype}")
    arr = arr.astype(np.int64, copy=False)
    if arr.size and (arr.min() < 0 or arr.max() >= num_classes):
        raise ValueError(f"labels must lie in [0, {num_classes}), got min {arr.min()} and max {arr.max()}")
    return arr


# Row-sum tolerance of a prior, per class and relative to its dtype's machine epsilon: a float32
# softmax sums to 1 within a few K * 1.2e-7, so float32 rows are accepted within 16 * eps32 * K
# (1.9e-6 K) and renormalized in float64; float64 rows keep the 1e-9 * K tolerance of
# ``check_probability_vector`` (and are used as given).
PRIOR_EPS_FACTOR = 16


def prior_sum_tolerance(dtype, num_classes: int) -> float:
    r"""The allowed :math:`|\sum_j p_j - 1|` of one prior row of this dtype over K classes.

    :math:`\max(10^{-9}, 16\,\epsilon_{\text{dtype}}) \cdot \max(1, K)` with :math:`\epsilon_{\text{dtype}}`
    the machine epsilon of a floating dtype (0 otherwise); see :data:`PRIOR_EPS_FACTOR`.

    Parameters
    ----------
    dtype : numpy dtype or type
        The prior's dtype.
    num_classes : int
        K.

    Returns
    -------
    float
        The tolerance.

    References
    ----------
    No paper source: the prior-validation rule of the suite (a float32 softmax must be accepted).

    Examples
    --------
    float64: :math:`10^{-9} \cdot 10`; float32: :math:`16 \cdot 2^{-23} \cdot 10 = 10 / 2^{19}`.

    >>> prior_sum_tolerance(np.float64, 10) == 1e-9 * 10
    True
    >>> prior_sum_tolerance(np.float32, 10) == 10 / 2**19
    True
    """
    eps = np.finfo(dtype).eps if np.issubdtype(dtype, np.floating) else 0.0
    return max(1e-9, PRIOR_EPS_FACTOR * float(eps)) * max(1, num_classes)


def check_priors(prior, num_classes: int, n: int | None = None) -> np.ndarray:
    """A prior of shape (K,) or one prior per example of shape (n, K); rows non-negative, summing to 1.

    The one prior rule of the suite (the mechanisms, :func:`proofs_checks.check_label_dp`,
    :func:`proofs_checks.rrwithprior_value`, :func:`proofs_checks.rrwithprior_lp` and
    :func:`proofs_checks.utility_gap` all call it):

    * any real numeric dtype is accepted (integers, float16/32/64, longdouble, and object arrays of
      real numbers such as ``fractions.Fraction``); booleans, complex numbers and strings are refused;
    * entries must be finite and non-negative;
    * each row must sum to 1 within :func:`prior_sum_tolerance` of its dtype: 1e-9 K for float64
      (and for integer, longdouble and object input), 16 eps_dtype K for lower-precision floats
      (float32 from a softmax: 1.9e-6 K);
    * the result is float64; lower-precision floating rows are renormalized in float64 (so they sum
      to 1 to float64 rounding), float64 rows are returned as given.

    Parameters
    ----------
    prior : array_like, shape (K,) or (n, K)
    num_classes : int
        K, the length of the last axis.
    n : int, optional
        The number of examples a 2-D prior must have rows for.

    Returns
    -------
    ndarray of float64, shape (K,) or (n, K)

    Raises
    ------
    ValueError
        A non-numeric, boolean or complex dtype, a ragged array, a wrong shape, negative / NaN /
        infinite entries, or a row sum beyond the tolerance (the message names ``prior``).

    References
    ----------
    004 Algorithms 1-2 (the prior p of RRTop-k and RRWithPrior).

    Examples
    --------
    >>> check_priors(np.array([0.25, 0.75], dtype=np.float32), 2).dtype
    dtype('float64')
    """
    try:
        raw = np.asarray(prior)
    except ValueError as exc:  # ragged nested sequences
        raise ValueError(f"prior must be a rectangular array of probabilities, got prior={prior!r} ({exc})") from None
    if raw.dtype == bool or raw.dtype.kind not in "iufO":
        raise ValueError(f"prior must hold real numbers, got dtype {raw.dtype} (prior={prior!r})")
    if np.issubdtype(raw.dtype, np.floating) and np.finfo(raw.dtype).eps > np.finfo(np.float64).eps:
        arr = np.asarray(raw, dtype=float)
        if arr.ndim == 0 or arr.shape[-1] != num_classes:
            raise ValueError(f"prior must have {num_classes} entries along its last axis, got shape {arr.shape}")
        if not np.all(np.isfinite(arr)) or np.any(arr < 0):
            raise ValueError(f"prior must be finite and non-negative, got prior={prior!r}")
        sums = arr.sum(axis=-1, keepdims=True)
        tol = prior_sum_tolerance(raw.dtype, num_classes)
        if np.any(np.abs(sums - 1.0) > tol):
            raise ValueError(f"prior must sum to 1 (within {tol:.3g} for dtype {raw.dtype}), got sums {sums.ravel()!r}")
        arr = arr / sums
    else:
        if raw.dtype == object:
            if not all(isinstance(x, numbers.Real) and not isinstance(x, bool) for x in raw.ravel()):
                raise ValueError(f"prior must hold real numbers, got prior={prior!r}")
            try:
                arr = np.asarray(raw, dtype=float)
            except OverflowError:  # e.g. an int beyond the float range: not a probability anyway
                raise ValueError(f"prior must hold probabilities, got prior={prior!r}") from None
        else:
            arr = raw
        arr = check_probability_vector("prior", arr, size=num_classes)
    if arr.ndim > 2 or (arr.ndim == 2 and n is not None and arr.shape[0] != n):
        raise ValueError(f"prior must have shape ({num_classes},) or ({n}, {num_classes}), got {arr.shape}")
    return arr
