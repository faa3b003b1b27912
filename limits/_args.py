"""Argument checks shared by the rate, complexity and tuning functions (built on ``limits.validation``)."""

from __future__ import annotations

import math

from dataclasses import dataclass

import numpy as np

from .validation import check_choice, check_int, check_positive, check_real

TASKS = ("classification", "regression", "regression_heavy_tailed")
PRIVACY = ("local", "central", "local_full", "none")
VARIANTS = ("derived", "printed")


@dataclass(frozen=True, slots=True)
class Params:
    """Validated smoothness parameters (``gamma``/``p`` are None where the task does not use them)."""

    beta: float
    d: int
    gamma: float | None
    p: float | None
    K: int


def check_task(task):
    return check_choice("task", task, TASKS)


def check_privacy(privacy):
    return check_choice("privacy", privacy, PRIVACY)


def check_variant(variant):
    return check_choice("variant", variant, VARIANTS)


def check_params(task, *, beta, d, gamma=None, p=None, num_classes=2) -> Params:
    """Check (beta, d, gamma, p, num_classes) for ``task``: gamma is required for classification, p for heavy tails.

    A gamma or p given to a task that does not use it is still checked, then ignored.
    """
    beta = check_positive("beta", beta)
    d = check_int("d", d, low=1)
    K = check_int("num_classes", num_classes, low=2)
    if gamma is None:
        if task == "classification":
            raise ValueError("gamma (Tsybakov margin exponent, 003 Assumption 1(b)) is required for "
                             "task='classification', got gamma=None")
    else:
        gamma = check_real("gamma", gamma, low=0.0)
    if p is None:
        if task == "regression_heavy_tailed":
            raise ValueError("p (moment order, 003 Assumption 3) is required for "
                             "task='regression_heavy_tailed', got p=None")
    else:
        p = check_real("p", p, low=2.0)
    return Params(beta=beta, d=d, gamma=gamma if task == "classification" else None,
                  p=p if task == "regression_heavy_tailed" else None, K=K)


def check_array(name, value, *, low, low_open):
    """A real scalar or array, finite, every element above ``low``; returns (ndarray, is_scalar)."""
    if np.ndim(value) == 0:
        if isinstance(value, np.ndarray):
            value = value.item()
        v = check_real(name, value, low=low, low_open=low_open)
        return np.asarray(v, dtype=float), True
    arr = np.asarray(value)
    if arr.dtype == bool or not (np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)):
        raise ValueError(f"{name} must be real numbers, got {name}={value!r}")
    arr = arr.astype(float)
    if arr.size == 0:
        raise ValueError(f"{name} must not be empty, got {name}={value!r}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite (all elements), got {name}={value!r}")
    bad = arr <= low if low_open else arr < low
    if np.any(bad):
        op = ">" if low_open else ">="
        raise ValueError(f"{name} must be {op} {low} (all elements), got {name}={value!r}")
    return arr, False


def check_N(N):
    return check_array("N", N, low=1.0, low_open=False)


def check_epsilon(epsilon, privacy):
    """epsilon > 0 is required for the private models; for privacy='none' it is optional (checked if given)."""
    if epsilon is None:
        if privacy != "none":
            raise ValueError(f"epsilon is required (> 0) for privacy={privacy!r}, got epsilon=None")
        return None, True
    return check_array("epsilon", epsilon, low=0.0, low_open=True)


def log_K(K: int) -> float:
    """ln K, the logarithmic factor of 003 Theorems 2 and 4 (their proofs carry ln(2K) ≍ ln K)."""
    return math.log(K)


