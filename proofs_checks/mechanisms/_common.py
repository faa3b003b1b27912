"""Shared pieces of the mechanism verifiers: neighbouring count vectors, certification of a closed
form by an enumeration, and the result record."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np

from limits.validation import check_int
from proofs_checks.dp import DPCheckResult, within

__all__ = ["certify", "compositions", "neighbour_moves", "result", "with_delta"]


def with_delta(res: DPCheckResult, delta: float) -> DPCheckResult:
    """A pure ε-DP verdict also answers the (ε, δ) question for every δ >= 0."""
    return dataclasses.replace(res, delta=delta)


def compositions(n: int, k: int) -> np.ndarray:
    """All vectors of k non-negative integers summing to n, shape (C(n+k-1, k-1), k)."""
    n, k = check_int("n", n, low=0), check_int("k", k, low=1)
    rows = [np.diff((-1,) + bars + (n + k - 1,)) - 1 for bars in itertools.combinations(range(n + k - 1), k - 1)]
    return np.array(rows, dtype=np.int64).reshape(-1, k)


def neighbour_moves(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(D, D') pairs: every row of ``counts`` and every move of one unit from class a to class b != a."""
    src, dst = [], []
    k = counts.shape[1]
    for a, b in itertools.permutations(range(k), 2):
        rows = counts[counts[:, a] >= 1]
        moved = rows.copy()
        moved[:, a] -= 1
        moved[:, b] += 1
        src.append(rows)
        dst.append(moved)
    return np.concatenate(src), np.concatenate(dst)


def certify(enumerated: float, closed: float, log_probs) -> tuple[float, bool, float]:
    """Report the closed form when the float enumeration agrees with it within the enumeration's own
    rounding (1e-12 of the largest |log-probability| involved, at least 1e-12), else the enumeration.

    The enumeration subtracts log-probabilities of size up to M, so its absolute error is ~M * 1e-16:
    at ε = 1e-8 that is a relative error ~1e-7 on the loss, while the closed forms (log1p/expm1) are
    exact to rounding at every ε; the enumeration then certifies that the closed form is the maximum.
    Returns (loss, agree, tolerance).
    """
    lp = np.asarray(log_probs, dtype=float)
    finite = lp[np.isfinite(lp)]
    tol = 1e-12 * max(1.0, float(np.max(np.abs(finite))) if finite.size else 1.0)
    agree = abs(enumerated - closed) <= tol
    return (float(closed) if agree else float(enumerated)), bool(agree), tol


def result(loss, epsilon, method, witness, explanation) -> DPCheckResult:
    return DPCheckResult(holds=within(loss, epsilon), epsilon=epsilon, delta=0.0, epsilon_actual=float(loss),
                         delta_actual=0.0, method=method, witness=witness, explanation=explanation)
