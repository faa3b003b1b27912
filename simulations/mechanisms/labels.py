"""Input guards shared by the label randomizers: labels in range, priors per example.

Labels are 0-based class indices ``0 .. K-1`` (the papers write ``[K] = {1, ..., K}``).
"""

from __future__ import annotations

import numpy as np

from limits.validation import check_int, check_positive, check_probability_vector

__all__ = ["PRIOR_EPS_FACTOR", "check_labels", "check_num_classes_epsilon", "check_priors", "prior_sum_tolerance"]


def check_num_classes_epsilon(num_classes, epsilon) -> None:
    """K an integer >= 2 and ε > 0 finite (the common parameters of every label randomizer)."""
    check_int("num_classes", num_classes, low=2)
    check_positive("epsilon", epsilon)


def check_labels(labels, num_classes: int) -> np.ndarray:
    """Return ``labels`` as a 1-D int64 array after checking they are integers in ``[0, K)``."""
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
    """The allowed |sum - 1| of one prior row of this dtype over K classes (see :data:`PRIOR_EPS_FACTOR`)."""
    eps = np.finfo(dtype).eps if np.issubdtype(dtype, np.floating) else 0.0
    return max(1e-9, PRIOR_EPS_FACTOR * float(eps)) * max(1, num_classes)


def check_priors(prior, num_classes: int, n: int | None = None) -> np.ndarray:
    """A prior of shape (K,) or one prior per example of shape (n, K); rows non-negative, summing to 1.

    Any real dtype is accepted. Rows must sum to 1 within :func:`prior_sum_tolerance` of their dtype
    (float32 from a softmax: 16 * 1.2e-7 * K); lower-precision floating rows (float16, float32) are
    then renormalized in float64, float64 rows are returned as given. Negative, NaN or infinite
    entries and sums beyond the tolerance are refused with a ``ValueError``.
    """
    raw = np.asarray(prior)
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
        arr = check_probability_vector("prior", raw if raw.dtype != object else prior, size=num_classes)
    if arr.ndim > 2 or (arr.ndim == 2 and n is not None and arr.shape[0] != n):
        raise ValueError(f"prior must have shape ({num_classes},) or ({n}, {num_classes}), got {arr.shape}")
    return arr
