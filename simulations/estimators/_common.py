"""Argument handling shared by the estimators (fitted-state check, features, labels, rng)."""

from __future__ import annotations

import numpy as np

from simulations.seeding import check_generator

__all__ = ["check_features", "check_fitted", "check_real_labels", "check_rng"]


def check_features(X, *, unit_cube: bool, d: int | None = None) -> np.ndarray:
    """``X`` as a C-contiguous float array of shape (n, d); finite, and in [0, 1]^d if ``unit_cube``."""
    arr = np.ascontiguousarray(X, dtype=float)
    if arr.ndim != 2 or arr.shape[1] < 1:
        raise ValueError(f"X must have shape (n, d) with d >= 1, got shape {arr.shape}")
    if d is not None and arr.shape[1] != d:
        raise ValueError(f"X must have {d} columns (as in fit), got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError("X must be finite")
    if unit_cube and arr.size and (arr.min() < 0.0 or arr.max() > 1.0):
        raise ValueError(f"X must lie in [0, 1]^d, got min {arr.min()} and max {arr.max()}")
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
    """ValueError unless ``fit`` has set the learned attribute ``attr`` on ``est``."""
    if not hasattr(est, attr):
        raise ValueError(f"{type(est).__name__} is not fitted yet: call fit first")
