"""Comparing floats computed by two implementations: distances in ulp and stated error bounds.

Two implementations agree bit for bit only when they run the same IEEE operations (+, -, *, /, sqrt,
conversions: all correctly rounded) in the same order. They do not when one goes through a
transcendental function (numpy's vectorized log1p/exp/arccos on a CPU with AVX-512 vs the libm
that numba or ``math`` call), through BLAS (the summation order depends on the kernel OpenBLAS picks
for the CPU), or through a reduction whose order is numpy's business (``np.sum``/``mean`` pairwise,
``bincount``). Those comparisons use the helpers below with a bound derived next to each call
(issue 19; docs/design.md, "Performance"); exact comparisons are kept for one code path run twice and
for integer or exactly representable results.
"""

from __future__ import annotations

import numpy as np

U = 2.0 ** -53  # unit roundoff of float64: a correctly rounded operation errs by at most U·|result|


def ulp_distance(a, b) -> np.ndarray:
    """``|a − b|`` in units of ``np.spacing(max(|a|, |b|))`` (the float64 spacing at the larger
    magnitude), elementwise; 0 where ``a == b`` (infinities of one sign included) or both are NaN,
    inf where only one is NaN or infinite."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    a, b = np.broadcast_arrays(a, b)
    out = np.full(a.shape, np.inf)
    same = (a == b) | (np.isnan(a) & np.isnan(b))
    out[same] = 0.0
    finite = np.isfinite(a) & np.isfinite(b) & ~same
    big = np.maximum(np.abs(a[finite]), np.abs(b[finite]))
    out[finite] = np.abs(a[finite] - b[finite]) / np.spacing(big)
    return out


def assert_allclose_ulp(actual, desired, max_ulp: float, err_msg: str = "") -> None:
    """Assert ``ulp_distance(actual, desired) <= max_ulp`` everywhere (same shapes required)."""
    actual = np.asarray(actual, dtype=np.float64)
    desired = np.asarray(desired, dtype=np.float64)
    assert actual.shape == desired.shape, f"shapes differ: {actual.shape} vs {desired.shape}. {err_msg}"
    if actual.size == 0:
        return
    dist = ulp_distance(actual, desired)
    worst = int(np.argmax(dist))
    assert dist.flat[worst] <= max_ulp, (
        f"{np.count_nonzero(dist > max_ulp)} of {dist.size} values differ by more than {max_ulp} ulp; worst "
        f"{dist.flat[worst]:.3g} ulp at flat index {worst}: {actual.flat[worst]!r} vs {desired.flat[worst]!r}. "
        f"{err_msg}")


def assert_within(actual, desired, bound, err_msg: str = "") -> None:
    """Assert ``|actual − desired| <= bound`` elementwise (``bound`` broadcasts: one per element or one)."""
    actual = np.asarray(actual, dtype=np.float64)
    desired = np.asarray(desired, dtype=np.float64)
    assert actual.shape == desired.shape, f"shapes differ: {actual.shape} vs {desired.shape}. {err_msg}"
    if actual.size == 0:
        return
    excess = np.abs(actual - desired) - np.asarray(bound, dtype=np.float64)
    worst = int(np.argmax(excess))
    assert not np.any(np.isnan(excess)) and excess.flat[worst] <= 0, (
        f"{np.count_nonzero(~(excess <= 0))} of {excess.size} values outside the bound; worst at flat index "
        f"{worst}: {actual.flat[worst]!r} vs {desired.flat[worst]!r}, bound "
        f"{np.broadcast_to(np.asarray(bound, dtype=np.float64), excess.shape).flat[worst]!r}. {err_msg}")


def gamma(n):
    """Higham's ``γ_n = n U / (1 − n U)``: any order of summing n + 1 floats errs by at most
    ``γ_n · Σ|x_i|`` (Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed., eq. (4.4))."""
    n = np.asarray(n, dtype=np.float64)
    return n * U / (1.0 - n * U)


def min_relative_gap(values, axis: int = -1) -> float:
    """Smallest ``(v[i+1] − v[i]) / max(|v[i+1]|, tiny)`` along ``axis`` of an array sorted along it.

    Used to assert that test data has no near-ties: where the gap exceeds a few ulp, a last-bit
    difference between two implementations cannot reorder or swap the values."""
    v = np.asarray(values, dtype=np.float64)
    if v.shape[axis] < 2:
        return np.inf
    gaps = np.diff(v, axis=axis)
    scale = np.maximum(np.abs(np.delete(v, 0, axis=axis)), np.finfo(np.float64).tiny)
    return float(np.min(gaps / scale))


NEAR_TIE_REL = 1e-12  # ~4500 ulp: far above any last-bit difference between two distance computations


def assert_no_near_neighbour_ties(X, Q, k: int, rel: float = NEAR_TIE_REL) -> None:
    """Assert that, for every row of ``Q``, the ``k + 1`` smallest squared Euclidean distances to the rows
    of ``X`` (brute force) are more than ``rel`` apart relatively: then two implementations whose
    distances differ in the last bits find the same k nearest, in the same order."""
    X = np.asarray(X, dtype=np.float64).reshape(len(X), -1)
    Q = np.asarray(Q, dtype=np.float64).reshape(len(Q), -1)
    d2 = np.sort(((Q[:, None, :] - X[None, :, :]) ** 2).sum(axis=2), axis=1)[:, :min(k + 1, len(X))]
    gap = min_relative_gap(d2, axis=1)
    assert gap > rel, f"test data with near-tied neighbour distances (relative gap {gap:.3g} <= {rel:g})"
