"""Input guards shared by the label randomizers: labels in range, priors per example.

Labels are 0-based class indices ``0 .. K-1`` (the papers write ``[K] = {1, ..., K}``).
"""

from __future__ import annotations

import numpy as np

from limits._validation import check_int, check_positive, check_probability_vector

__all__ = ["check_labels", "check_num_classes_epsilon", "check_priors"]


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


def check_priors(prior, num_classes: int, n: int | None = None) -> np.ndarray:
    """A prior of shape (K,) or one prior per example of shape (n, K); rows non-negative, summing to 1."""
    arr = check_probability_vector("prior", prior, size=num_classes)
    if arr.ndim > 2 or (arr.ndim == 2 and n is not None and arr.shape[0] != n):
        raise ValueError(f"prior must have shape ({num_classes},) or ({n}, {num_classes}), got {arr.shape}")
    return arr
