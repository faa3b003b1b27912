"""Shared pieces of the mechanism verifiers: neighbouring count vectors, certification of a closed
form by an enumeration (:func:`certified_channel_check` for any finite channel), and the result record."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np

from limits.validation import check_int
from proofs_checks.channels import DPCheckResult, as_channel, log_privacy_loss_witness, within

__all__ = ["certified_channel_check", "certify", "compositions", "neighbour_moves", "result", "with_delta"]


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
    """A pure ε-DP verdict: ``holds`` when ``loss <= epsilon`` up to :data:`proofs_checks.dp.TOL`."""
    return DPCheckResult(holds=within(loss, epsilon), epsilon=epsilon, delta=0.0, epsilon_actual=float(loss),
                         delta_actual=0.0, method=method, witness=witness, explanation=explanation)


def certified_channel_check(channel, closed_form: float, epsilon: float, delta: float = 0.0, *,
                            what: str = "closed form") -> DPCheckResult:
    """Exact check of a finite channel: enumerate it and certify a closed-form loss written by the verifier.

    Every (y, y', z) of ``channel`` is enumerated in log space; the closed form is reported when the
    enumeration agrees with it within the enumeration's rounding (:func:`certify`), else the
    enumeration (the mechanism is reported as it behaves: a planted bug shows its real loss).

    Parameters
    ----------
    channel : array_like, shape (K, M)
        P[y, z] = P(output z | label y), rows summing to 1 (the mechanism's ``channel_matrix()``).
    closed_form : float
        The loss the verifier derives (never the mechanism's ``privacy_loss``).
    epsilon : float >= 0
    delta : float in [0, 1]
        Carried into the result (a pure ε-DP verdict answers every δ).
    what : str
        How the closed form reads, for the explanation.

    Returns
    -------
    DPCheckResult with the witness (y, y', output) of the enumeration.

    References
    ----------
    docs/design.md "Exactness and the privacy checks".

    Examples
    --------
    >>> res = certified_channel_check([[0.75, 0.25], [0.25, 0.75]], np.log(3), 1.2)
    >>> res.holds, round(res.epsilon_actual, 12) == round(float(np.log(3)), 12)
    (True, True)
    """
    P = as_channel(channel, name="mechanism's channel")
    with np.errstate(divide="ignore"):
        L = np.log(P)
    enum, w = log_privacy_loss_witness(L)
    loss, agree, tol = certify(enum, float(closed_form), L)
    holds = within(loss, epsilon)
    witness = {} if w is None else {"y": w[0], "y_prime": w[1], "output": w[2]}
    expl = (f"enumeration of the {P.shape[0]} x {P.shape[1]} channel: max ln P(z|y)/P(z|y') = {enum:.12g} "
            + (f"(= the {what} {float(closed_form):.12g} within rounding {tol:.2g})" if agree else
               f"(DIFFERS from the {what} {float(closed_form):.12g}: the channel is reported)")
            + f"; loss {loss:.12g} {'<=' if holds else '>'} epsilon = {epsilon:g}")
    return DPCheckResult(holds=holds, epsilon=epsilon, delta=delta, epsilon_actual=float(loss), delta_actual=0.0,
                         method="exact enumeration of the channel, certified by the verifier's closed form",
                         witness=witness, explanation=expl)
