"""Argument guards shared by every layer of the suite.

It lives in ``limits`` because ``limits`` is the bottom layer (docs/design.md: imports only go down),
so ``simulations`` and ``proofs_checks`` can import it without creating an upward dependency.
Each guard raises ``ValueError`` naming the argument and repeating the offending value.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

__all__ = [
    "MAX_ENTRIES",
    "check_choice",
    "check_finite_array",
    "check_int",
    "check_positive",
    "check_probability",
    "check_probability_vector",
    "check_real",
    "check_size",
]

#: The most array entries (or draws) a function builds before refusing up front: 10^8 float64 entries
#: are 800 MB, about what a laptop can hold beside everything else; pass a larger ``limit`` to go further.
MAX_ENTRIES = 10**8


def check_real(name, value, *, low=None, high=None, low_open=False, high_open=False):
    """Return ``value`` as a float after checking it is a finite real within the given bounds.

    Parameters
    ----------
    name : str
        The argument's name, used in the error message.
    value : numbers.Real
        The value to check (``bool`` is refused; an int beyond the float range counts as infinite).
    low, high : float, optional
        Bounds; ``None`` for no bound.
    low_open, high_open : bool, default False
        Make the bound strict (``value > low`` instead of ``value >= low``; likewise for ``high``).

    Returns
    -------
    float
        ``value`` as a float.

    Raises
    ------
    ValueError
        If ``value`` is not a real number, not finite, or outside the bounds; the message names the
        argument and repeats its value.

    Examples
    --------
    >>> check_real("beta", 2)
    2.0
    >>> check_real("beta", 0, low=0.0, low_open=True)
    Traceback (most recent call last):
    ...
    ValueError: beta must be > 0.0, got beta=0
    """
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
    """Return ``value`` as a float after checking it is finite and strictly positive.

    For epsilon, beta, scales, clipping levels.

    Parameters
    ----------
    name : str
        The argument's name, used in the error message.
    value : numbers.Real
        The value to check.

    Returns
    -------
    float
        ``value`` as a float.

    Raises
    ------
    ValueError
        If ``value`` is not a finite real > 0.

    Examples
    --------
    >>> check_positive("epsilon", 0.5)
    0.5
    """
    return check_real(name, value, low=0.0, low_open=True)


def check_probability(name, value, *, allow_one=False):
    """Return ``value`` as a float after checking it is a probability in [0, 1), or [0, 1].

    For delta and failure probabilities.

    Parameters
    ----------
    name : str
        The argument's name, used in the error message.
    value : numbers.Real
        The value to check.
    allow_one : bool, default False
        Accept 1 (the interval is then [0, 1]).

    Returns
    -------
    float
        ``value`` as a float.

    Raises
    ------
    ValueError
        If ``value`` is not a finite real in the interval.

    Examples
    --------
    >>> check_probability("delta", 1.0, allow_one=True)
    1.0
    """
    return check_real(name, value, low=0.0, high=1.0, high_open=not allow_one)


def check_int(name, value, *, low=None):
    """Return ``value`` as an int after checking it is an integer at least ``low``.

    Parameters
    ----------
    name : str
        The argument's name, used in the error message.
    value : numbers.Integral
        A Python or numpy integer; floats, even with an integral value, and ``bool`` are refused.
    low : int, optional
        Smallest accepted value; ``None`` for no bound.

    Returns
    -------
    int
        ``value`` as a Python int.

    Raises
    ------
    ValueError
        If ``value`` is not an integer or is below ``low``.

    Examples
    --------
    >>> check_int("d", 3, low=1)
    3
    >>> check_int("d", 3.0)
    Traceback (most recent call last):
    ...
    ValueError: d must be an integer, got d=3.0
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer, got {name}={value!r}")
    v = int(value)
    if low is not None and v < low:
        raise ValueError(f"{name} must be an integer >= {low}, got {name}={value!r}")
    return v


def check_finite_array(name, values):
    """Return ``values`` as a float array after checking every entry is finite (no NaN, no ±inf).

    Parameters
    ----------
    name : str
        The argument's name, used in the error message.
    values : array_like
        Anything ``np.asarray(values, dtype=float)`` accepts.

    Returns
    -------
    ndarray of float
        The values, same shape.

    Raises
    ------
    ValueError
        If an entry is NaN or infinite.

    Examples
    --------
    >>> check_finite_array("x", [1, 2.5])
    array([1. , 2.5])
    """
    arr = np.asarray(values, dtype=float)
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite, got {name}={values!r}")
    return arr


def check_choice(name, value, choices):
    """Return ``value`` after checking it is one of ``choices``.

    Parameters
    ----------
    name : str
        The argument's name, used in the error message.
    value : object
        The value to check.
    choices : collection
        The accepted values.

    Returns
    -------
    object
        ``value`` unchanged.

    Raises
    ------
    ValueError
        If ``value`` is not in ``choices`` (the message lists them, sorted).

    Examples
    --------
    >>> check_choice("privacy", "local", ("local", "central"))
    'local'
    """
    if value not in choices:
        raise ValueError(f"{name} must be one of {sorted(choices)}, got {name}={value!r}")
    return value


def check_probability_vector(name, p, *, size=None, atol=1e-9):
    """Return ``p`` as a float array after checking it is a probability vector (or a stack of them).

    Parameters
    ----------
    name : str
        The argument's name, used in the error message.
    p : array_like, ndim >= 1
        Non-negative finite entries summing to one along the last axis.
    size : int, optional
        Required length of the last axis.
    atol : float, default 1e-9
        Tolerance on each sum, scaled by ``max(1, p.shape[-1])``.

    Returns
    -------
    ndarray of float
        ``p`` as an array, same shape.

    Raises
    ------
    ValueError
        If ``p`` is a scalar, has the wrong length, has a negative or non-finite entry, or a sum differs
        from 1 by more than the tolerance.

    Examples
    --------
    >>> check_probability_vector("prior", [0.25, 0.75], size=2)
    array([0.25, 0.75])
    """
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


def check_size(name, value, limit=MAX_ENTRIES, *, size=None, what="entries"):
    """Return ``value`` as an int after checking the work it asks for is at most ``limit``.

    For the size of an array about to be built, or a number of draws about to be made: a request
    beyond ``limit`` is refused up front with a ``ValueError`` naming the argument, instead of a
    ``MemoryError`` (or hours of work) later.

    Parameters
    ----------
    name : str
        The argument's name, used in the error message.
    value : numbers.Integral
        The argument (Python ints: any magnitude).
    limit : int, default :data:`MAX_ENTRIES`
        The largest size accepted.
    size : int, optional
        The size ``value`` asks for, when it is not ``value`` itself (e.g. ``K * K`` entries of a
        channel for ``num_classes=K``).
    what : str, default "entries"
        What is counted, for the message (``"draws"``, ``"channel entries"``).

    Returns
    -------
    int
        ``value`` as a Python int.

    Raises
    ------
    ValueError
        If ``value`` is not an integer or the size exceeds ``limit``; the message names the argument
        and repeats its value.

    Examples
    --------
    >>> check_size("n", 1000)
    1000
    >>> check_size("num_classes", 10**7, size=10**14, what="channel entries")
    Traceback (most recent call last):
    ...
    ValueError: num_classes=10000000 would need 100000000000000 channel entries, more than the limit of 100000000: refused up front (it cannot fit in memory)
    """
    v = check_int(name, value)
    n = v if size is None else int(size)
    if n > limit:
        raise ValueError(f"{name}={value!r} would need {n} {what}, more than the limit of {limit}: refused up front "
                         f"(it cannot fit in memory)")
    return v
