"""Argument guards shared by every layer of the suite.

It lives in ``limits`` because ``limits`` is the bottom layer (DESIGN.md: imports only go down),
so ``simulations`` and ``proofs_checks`` can import it without creating an upward dependency.
Each guard raises ``ValueError`` naming the argument and repeating the offending value.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

__all__ = [
    "check_choice",
    "check_finite_array",
    "check_int",
    "check_positive",
    "check_probability",
    "check_probability_vector",
    "check_real",
]


def check_real(name, value, *, low=None, high=None, low_open=False, high_open=False):
    """Return ``value`` as a float after checking it is a finite real within the given bounds."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a real number, got {name}={value!r}")
    try:
        v = float(value)
    except OverflowError:  # an int (or Fraction) beyond the float range, e.g. 10**400
        v = math.inf if value > 0 else -math.inf
    if not math.isfinite(v):
        raise ValueError(f"{name} must be finite, got {name}={value!r}")
    if low is not None and (v <= low if low_open else v < low):
        op = ">" if low_open else ">="
        raise ValueError(f"{name} must be {op} {low}, got {name}={value!r}")
    if high is not None and (v >= high if high_open else v > high):
        op = "<" if high_open else "<="
        raise ValueError(f"{name} must be {op} {high}, got {name}={value!r}")
    return v


def check_positive(name, value):
    """Finite and strictly positive (epsilon, beta, scales, clipping levels)."""
    return check_real(name, value, low=0.0, low_open=True)


def check_probability(name, value, *, allow_one=False):
    """A probability in [0, 1) (delta, failure probabilities), or [0, 1] with ``allow_one``."""
    return check_real(name, value, low=0.0, high=1.0, high_open=not allow_one)


def check_int(name, value, *, low=None):
    """An integer (Python or numpy, floats with integral value rejected) at least ``low``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer, got {name}={value!r}")
    v = int(value)
    if low is not None and v < low:
        raise ValueError(f"{name} must be an integer >= {low}, got {name}={value!r}")
    return v


def check_finite_array(name, values):
    """``values`` as a float array after checking every entry is finite (no NaN, no ±inf)."""
    arr = np.asarray(values, dtype=float)
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite, got {name}={values!r}")
    return arr


def check_choice(name, value, choices):
    """One of a fixed set of names."""
    if value not in choices:
        raise ValueError(f"{name} must be one of {sorted(choices)}, got {name}={value!r}")
    return value


def check_probability_vector(name, p, *, size=None, atol=1e-9):
    """A non-negative vector (or stack of vectors along the last axis) summing to one."""
    arr = np.asarray(p, dtype=float)
    if arr.ndim == 0:
        raise ValueError(f"{name} must be an array of probabilities, got {name}={p!r}")
    if size is not None and arr.shape[-1] != size:
        raise ValueError(f"{name} must have {size} entries along its last axis, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)) or np.any(arr < 0):
        raise ValueError(f"{name} must be finite and non-negative, got {name}={p!r}")
    sums = arr.sum(axis=-1)
    if np.any(np.abs(sums - 1.0) > atol * max(1, arr.shape[-1])):
        raise ValueError(f"{name} must sum to 1 (within {atol}), got sums {sums!r}")
    return arr
