"""RRTop-k (004 Algorithm 1): exact privacy (Lemma 1) and the objective identity (item 2).

Symbolic in ``x = e^eps`` (x = 1 + s, s > 0). The channel: for y in Y_k output y w.p.
x/(x+k-1) and each other element of Y_k w.p. 1/(x+k-1); for y not in Y_k output a uniform
element of Y_k. Lemma 1: max ratio = e^eps (k >= 2; k = 1 is constant, ratio 1).

References: 004 Algorithm 1, Lemma 1 (proof in A.1), Section 3.1 identity, Algorithm 2.
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from proofs_checks.dp import max_privacy_loss
from simulations.mechanisms.randomized_response import RRTopK

from .base import ProofCheck, grid_size, nonnegative_for_positive, proof_check

__all__ = ["rrtopk_channel"]

x, s = sp.symbols("x s", positive=True)


def rrtopk_channel(num_classes: int, k: int):
    r"""Symbolic RRTop-k channel with :math:`Y_k = \{0, ..., k-1\}` and :math:`x = e^\varepsilon` (004 Algorithm 1).

    Parameters
    ----------
    num_classes : int >= 1
        K.
    k : int, 1 <= k <= K
        Size of :math:`Y_k`.

    Returns
    -------
    sympy.Matrix, shape (K, K)
        Rows = labels y, columns = outputs.

    References
    ----------
    004 Algorithm 1, Lemma 1.

    Examples
    --------
    >>> rrtopk_channel(3, 2).tolist()
    [[x/(x + 1), 1/(x + 1), 0], [1/(x + 1), x/(x + 1), 0], [1/2, 1/2, 0]]
    """
    rows = []
    for y in range(num_classes):
        if y < k:
            rows.append([x / (x + k - 1) if z == y else 1 / (x + k - 1) if z < k else 0 for z in range(num_classes)])
        else:
            rows.append([sp.Rational(1, k) if z < k else 0 for z in range(num_classes)])
    return sp.Matrix(rows)


@proof_check("004-lemma1-rrtopk-privacy")
def rrtopk_privacy(profile="smoke") -> ProofCheck:
    """004 Lemma 1: every ratio P(z|y)/P(z|y') <= e^eps, with equality attained when k >= 2."""
    ok, notes, kmax = True, [], grid_size(profile, 5, 6, 8)
    for K in range(2, kmax + 1):
        for k in range(1, K + 1):
            P = rrtopk_channel(K, k)
            ratios = {sp.cancel(P[y, z] / P[y2, z]) for z in range(k) for y in range(K) for y2 in range(K)}
            below = all(nonnegative_for_positive((x - r).subs(x, 1 + s), s) for r in ratios)
            attained = any(sp.cancel(r - x) == 0 for r in ratios)
            expected_attained = k >= 2
            ok &= below and attained == expected_attained
            if not below or attained != expected_attained:
                notes.append(f"K={K}, k={k}: below={below}, attained={attained}")
    # general k: the three column entries and their ratios
    kk = sp.Symbol("k", positive=True)
    top, other, outside = x / (x + kk - 1), 1 / (x + kk - 1), 1 / kk
    m = sp.Symbol("m", positive=True)  # k = 1 + m >= 2
    general = [sp.cancel(top / other), sp.cancel(top / outside), sp.cancel(outside / other)]
    general_ok = sp.cancel(general[0] - x) == 0 and all(
        nonnegative_for_positive((x - r).subs({kk: 1 + m}).subs(x, 1 + s), s) for r in general)
    ok &= general_ok
    # cross-check against the implementation's exact channel
    prior = np.array([0.4, 0.25, 0.2, 0.1, 0.05])
    impl = [abs(max_privacy_loss(RRTopK(num_classes=5, epsilon=e, k=k).channel_matrix(prior)) - (e if k > 1 else 0.0))
            <= 1e-9 * max(1, e) for k in range(1, 6) for e in (0.1, 1.0, 5.0)]
    notes.append(f"simulations RRTopK channel loss == eps (0 for k=1): {all(impl)}")
    ok &= all(impl)
    return ProofCheck("004-lemma1-rrtopk-privacy", "004 Lemma 1 (Appendix A.1), Algorithm 1",
                      "RRTop-k is eps-DP and tight: max ratio = e^eps for k >= 2 (1 for k = 1)", ok,
                      derived="column ratios: e^eps, k e^eps/(e^eps+k-1), (e^eps+k-1)/k, all <= e^eps",
                      detail=f"exact for K = 2..{kmax}, every k, and for general k = 1 + m; {'; '.join(notes)}")


@proof_check("004-rrtopk-objective")
def rrtopk_objective(profile="smoke") -> ProofCheck:
    """004 Section 3.1: P[RRTop-k(y) = y | y ~ p] = e^eps/(e^eps+k-1) * sum_{y in Y_k} p_y."""
    bad = []
    for K in range(2, 7):
        ps = sp.symbols(f"p0:{K}", positive=True)
        for k in range(1, K + 1):
            P = rrtopk_channel(K, k)
            obj = sum(ps[y] * P[y, y] for y in range(K))
            if sp.cancel(obj - x / (x + k - 1) * sum(ps[:k])) != 0:
                bad.append((K, k))
    return ProofCheck("004-rrtopk-objective", "004 Section 3.1, Algorithm 2 step 1(a)",
                      "P[RRTop-k(y) = y | y ~ p] = e^eps/(e^eps+k-1) sum_{y in Y_k} p_y", not bad,
                      derived="sum_y p_y P(y|y) = x/(x+k-1) sum_{y<k} p_y (labels outside Y_k are never kept)",
                      detail=f"exact for K = 2..6, k = 1..K; mismatches: {bad}")
