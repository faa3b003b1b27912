"""Unbiasedness of the debiased gradient (004 eq. (7)) and debiased loss (004 eq. (17)) (item 4).

Exact expectations over the randomized-response / RRTop-k output law with symbolic x = e^eps and
symbolic per-label gradients / losses (a gradient is checked coordinate-wise, so one symbol per
label suffices), for K = 2..5 / 2..4 (smoke) up to 2..9 / 2..8 (paper), every k = 1..K, plus the general-K form in which the other
labels enter only through their sum.

References: 004 Algorithm 5 (LP-RR-SGD), eq. (7), proof of Theorem 9; eq. (17), Lemmas 18-19.
"""

from __future__ import annotations

import sympy as sp

from .base import Finding, ProofCheck, grid_size, proof_check
from .rrtopk import rrtopk_channel, x

__all__ = ["debiased_gradient", "debiased_loss"]


def debiased_gradient(g_out, grads, num_classes):
    r"""The debiased gradient of 004 eq. (7): :math:`\frac{x+K-1}{x-1}(g - \frac{1}{x+K-1}\sum_k \nabla_k)`.

    Parameters
    ----------
    g_out : sympy expression
        The gradient at the output (noisy) label.
    grads : sequence of sympy expression
        The gradients at all K labels.
    num_classes : int
        K.

    Returns
    -------
    sympy expression
        The debiased gradient, with :math:`x = e^\varepsilon` symbolic.

    References
    ----------
    004 Algorithm 5, eq. (7).

    Examples
    --------
    Its expectation under randomized response (RRTop-K with k = K) is the true gradient:

    >>> import sympy as sp
    >>> from proofs_checks.proof_steps.rrtopk import rrtopk_channel
    >>> g = sp.symbols("g0:3")
    >>> P = rrtopk_channel(3, 3)
    >>> sp.cancel(sum(P[0, o] * debiased_gradient(g[o], g, 3) for o in range(3)) - g[0])
    0
    """
    return (x + num_classes - 1) / (x - 1) * (g_out - sum(grads) / (x + num_classes - 1))


def debiased_loss(l_out, losses_top_k, k):
    r"""The debiased loss of 004 eq. (17): :math:`(\ell - p\sum_{y' \in Y_k} \ell(y'))/(1 - kp)`, :math:`p = 1/(x+k-1)`.

    Parameters
    ----------
    l_out : sympy expression
        The loss at the output label.
    losses_top_k : sequence of sympy expression
        The losses at the k labels of :math:`Y_k`.
    k : int
        Size of :math:`Y_k`.

    Returns
    -------
    sympy expression
        The debiased loss, with :math:`x = e^\varepsilon` symbolic.

    References
    ----------
    004 eq. (17), Lemma 18.

    Examples
    --------
    Unbiased for a label in :math:`Y_k` under RRTop-k (Lemma 18), here K = 3, k = 2, y = 0:

    >>> import sympy as sp
    >>> from proofs_checks.proof_steps.rrtopk import rrtopk_channel
    >>> l = sp.symbols("l0:3")
    >>> P = rrtopk_channel(3, 2)
    >>> sp.cancel(sum(P[0, o] * debiased_loss(l[o], l[:2], 2) for o in range(2)) - l[0])
    0
    """
    pk = 1 / (x + k - 1)
    return (l_out - pk * sum(losses_top_k)) / (1 - k * pk)


@proof_check("004-eq7-unbiased")
def eq7_unbiased(profile="smoke") -> ProofCheck:
    """E over RR of the debiased gradient = the true gradient, every label y."""
    bias, kmax = [], grid_size(profile, 5, 7, 9)
    for K in range(2, kmax + 1):
        g = sp.symbols(f"g0:{K}")
        P = rrtopk_channel(K, K)  # RRTop-K with k = K is plain randomized response (Algorithm 5 (b))
        for y in range(K):
            e = sum(P[y, o] * debiased_gradient(g[o], g, K) for o in range(K))
            diff = sp.cancel(sp.together(e - g[y]))
            if diff != 0:
                bias.append((K, y, diff))
    Ks, gy, S = sp.symbols("K g_y S", positive=True)  # general K: S = sum of all K gradients
    e_general = (x * gy + (S - gy)) / (x + Ks - 1)
    general = sp.cancel((x + Ks - 1) / (x - 1) * (e_general - S / (x + Ks - 1)) - gy)
    ok = not bias and general == 0
    return ProofCheck("004-eq7-unbiased", "004 Algorithm 5, eq. (7)",
                      "E_{y~ ~ RR(y)}[g^] = grad l(w, (x, y))", ok,
                      derived=f"E[g^] - grad_y = 0 for K = 2..{kmax} and general K (residual {general})",
                      detail=f"exact rational-function identity in x = e^eps; biased cases: {bias}",
                      findings=tuple(Finding("004 eq. (7)", "E[g^] = grad", f"bias {dd} at K={K}, y={y}",
                                             "check 004-eq7-unbiased", severity="rate") for K, y, dd in bias))


@proof_check("004-lemma18-unbiased")
def lemma18_unbiased(profile="smoke") -> ProofCheck:
    """Lemma 18: for y in Y_k, E[l~(y~)] = l(y); outside Y_k the expectation is the mean of l over Y_k."""
    bias, outside_ok, kmax = [], True, grid_size(profile, 4, 6, 8)
    for K in range(2, kmax + 1):
        ls = sp.symbols(f"l0:{K}")
        for k in range(1, K + 1):
            P = rrtopk_channel(K, k)
            top = ls[:k]
            for y in range(K):
                e = sum(P[y, o] * debiased_loss(ls[o], top, k) for o in range(k))
                if y < k:
                    diff = sp.cancel(sp.together(e - ls[y]))
                    if diff != 0:
                        bias.append((K, k, y, diff))
                else:  # not claimed by Lemma 18; recorded: it is the Y_k average (used in Lemma 20)
                    outside_ok &= sp.cancel(sp.together(e - sum(top) / k)) == 0
    # Lemma 19: the sum of |coefficients| of l~ in the losses is at most (1 + k p)/(1 - k p)
    k_, p_ = sp.symbols("k p", positive=True)
    lip_in = (1 - p_ + (k_ - 1) * p_) / (1 - k_ * p_)  # y in Y_k
    lip_out = (1 + k_ * p_) / (1 - k_ * p_)  # y not in Y_k
    lemma19_ok = sp.cancel(lip_out - lip_in).equals(2 * p_ / (1 - k_ * p_))
    ok = not bias and outside_ok and bool(lemma19_ok)
    return ProofCheck("004-lemma18-unbiased", "004 eq. (17), Lemmas 18-19",
                      "E_{y~ ~ RRTop-k(y)}[l~(t, (x, y~))] = l(t, (x, y)) for y in Y_k", ok,
                      derived=f"residual 0 for K = 2..{kmax}, k = 1..K, y in Y_k; for y not in Y_k the expectation is "
                              "(1/k) sum_{Y_k} l (so Lemma 20's |.| <= 1 step needs l in [0, 1])",
                      detail=f"biased cases: {bias}; outside-Y_k identity holds: {outside_ok}; Lemma 19 constant "
                             f"(1 + k p)/(1 - k p) is the exact coefficient l1-norm for y outside Y_k: {bool(lemma19_ok)}",
                      findings=tuple(Finding("004 Lemma 18", "unbiased for y in Y_k", f"bias {dd} at K={K}, k={k}, y={y}",
                                             "check 004-lemma18-unbiased", severity="rate") for K, k, y, dd in bias))
