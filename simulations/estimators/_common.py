"""Argument handling shared by the estimators (fitted-state check, features, labels, rng)."""

from __future__ import annotations

import numpy as np
from sklearn.exceptions import NotFittedError

from simulations.seeding import check_generator

__all__ = ["check_features", "check_finite_rows", "check_fitted", "check_real_labels", "check_rng"]


def check_features(X, *, unit_cube: bool, d: int | None = None, name: str = "estimator") -> np.ndarray:
    """``X`` as a C-contiguous float array of shape (n, d); finite, and in [0, 1]^d if ``unit_cube``.

    ``d`` (the ``n_features_in_`` of a fitted estimator called ``name``) is checked with scikit-learn's message.
    """
    arr = np.ascontiguousarray(X, dtype=float)
    if arr.ndim != 2 or arr.shape[1] < 1:
        raise ValueError(f"X must have shape (n, d) with d >= 1, got shape {arr.shape}")
    if d is not None and arr.shape[1] != d:
        raise ValueError(f"X has {arr.shape[1]} features, but {name} is expecting {d} features as input "
                         f"(as in fit), got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError("X must be finite")
    if unit_cube and arr.size and (arr.min() < 0.0 or arr.max() > 1.0):
        raise ValueError(f"X must lie in [0, 1]^d, got min {arr.min()} and max {arr.max()}")
    return arr


def check_finite_rows(X, *, d: int | None = None, name: str = "estimator") -> np.ndarray:
    """``X`` of shape (n, ...) as a finite float array of shape (n, p), trailing axes flattened (images).

    ``d`` (the ``n_features_in_`` of a fitted estimator called ``name``) is checked with scikit-learn's message.
    """
    arr = np.asarray(X, dtype=float)
    if arr.ndim < 1:
        raise ValueError(f"X must have at least one axis (rows), got shape {arr.shape}")
    arr = arr.reshape(arr.shape[0], -1)
    if d is not None and arr.shape[1] != d:
        raise ValueError(f"X has {arr.shape[1]} features, but {name} is expecting {d} features as input")
    if not np.all(np.isfinite(arr)):
        raise ValueError("X must be finite (no NaN or inf)")
    return arr


def check_real_labels(y, n: int) -> np.ndarray:
    """``y`` as a finite float array of shape (n,) (regression labels)."""
    y = np.asarray(y, dtype=float)
    if y.shape != (n,) or not np.all(np.isfinite(y)):
        raise ValueError(f"y must be a finite real array of shape ({n},), got shape {y.shape}")
    return y


def check_rng(rng, *, required: bool):
    """A Generator (ints and SeedSequences are turned into one); ``None`` only when not required."""
    if rng is None:
        if required:
            raise ValueError("rng is required: the private algorithm is randomized (pass a numpy Generator)")
        return None
    return check_generator(rng)


def check_fitted(est, attr: str):
    """:class:`sklearn.exceptions.NotFittedError` (a ValueError) unless ``fit`` has set ``attr`` on ``est``."""
    if not hasattr(est, attr):
        raise NotFittedError(f"{type(est).__name__} is not fitted yet: call fit first")
