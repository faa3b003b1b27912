"""Issue 19: the black-box sampler audit keeps its counts sparse (memory grows with what is drawn, not with
a K x K x M table) and refuses, before drawing anything, an audit larger than ``max_draws``.

The sparse computation is checked against the dense definition written out here: the maximum over
(y, y' != y, output c) of ln lower(count[y, c]) - ln upper(count[y', c]) with one-sided Clopper-Pearson
bounds at level (1 - confidence) / (2 K M), ties to the smallest (y, y', c).
"""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest
from scipy import stats

from proofs_checks import check_label_dp
from proofs_checks.audit import audit_label_sampler


def table_sampler(table):
    """A deterministic sampler: label y always yields the outputs ``table[y]`` (the rng is not used)."""
    def sample(labels, rng):
        return np.concatenate([table[y][: np.count_nonzero(labels == y)] for y in np.unique(labels)])

    return sample


def dense_reference(table, K, M, n, confidence=0.95):
    counts = np.array([np.bincount(table[y], minlength=M) for y in range(K)])
    alpha = (1 - confidence) / (2 * K * M)
    best = (-np.inf, None)
    for y in range(K):
        for y2 in range(K):
            if y == y2:
                continue
            for c in range(M):
                ka, kb = counts[y, c], counts[y2, c]
                lo = stats.beta.ppf(alpha, ka, n - ka + 1) if ka > 0 else 0.0
                hi = stats.beta.isf(alpha, kb + 1, n - kb) if kb < n else 1.0
                v = np.log(lo) - np.log(hi) if lo > 0 else -np.inf
                if v > best[0]:  # strict: the first (y, y', c) in lexicographic order keeps a tie
                    best = (v, (y, y2, c))
    return max(0.0, best[0]), best[1]


@pytest.mark.parametrize("seed", range(12))
def test_sparse_audit_equals_the_dense_definition(seed):
    rng = np.random.default_rng(seed)
    K, M, n = int(rng.integers(2, 6)), int(rng.integers(2, 7)), int(rng.integers(1, 60))
    if seed % 3 == 0:  # every label produces every output (full columns: the denominator is an observed count)
        table = [np.resize(np.arange(M), n) if n >= M else rng.integers(0, M, n) for _ in range(K)]
    elif seed % 3 == 1:  # ties everywhere
        table = [np.full(n, seed % M) for _ in range(K)]
    else:
        table = [rng.choice(M, size=n, p=rng.dirichlet(np.full(M, 0.3))) for _ in range(K)]
    table = [np.asarray(t, dtype=np.int64) for t in table]
    want, (y, y2, c) = dense_reference(table, K, M, n)
    res = audit_label_sampler(table_sampler(table), 1.0, num_classes=K, num_outputs=M, n=n)
    assert res.epsilon_actual == pytest.approx(want, rel=1e-12, abs=0.0)
    assert (res.witness["y"], res.witness["y_prime"], res.witness["output"]) == (y, y2, c)
    counts = [int(np.count_nonzero(table[y] == c)), int(np.count_nonzero(table[y2] == c))]
    assert list(res.witness["counts"]) == counts


def test_memory_follows_the_draws_not_k_cubed():
    # K = M = 600, n = 100: the dense (K, K, M) table of log-ratios took 1.7 GB (measured with tracemalloc);
    # the sparse counts hold at most K * n = 60000 triples
    K = 600

    def sampler(labels, rng):
        keep = rng.random(labels.size) < 0.5
        return np.where(keep, labels, rng.integers(0, K, labels.size))

    tracemalloc.start()
    try:
        res = audit_label_sampler(sampler, 1.0, num_classes=K, n=100, rng=0)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 50e6, f"peak {peak / 1e6:.0f} MB"
    assert res.witness["n"] == 100 and not res.exact


def test_too_many_draws_are_refused_before_sampling():
    calls = []

    def sampler(labels, rng):
        calls.append(labels.size)
        return labels

    with pytest.raises(ValueError, match=r"max_draws=1e\+08"):  # K n = 1e9 outputs
        audit_label_sampler(sampler, 1.0, num_classes=10**4, n=10**5)
    with pytest.raises(ValueError, match="max_draws"):  # the n for power, times K = 10^6 labels
        check_label_dp(sampler, 1.0, num_classes=10**6, kind="sampler")
    assert calls == []
    with pytest.raises(ValueError, match="max_draws=100"):
        audit_label_sampler(sampler, 1.0, num_classes=3, n=50, max_draws=100)
    assert calls == []
    assert audit_label_sampler(sampler, 1.0, num_classes=3, n=50, max_draws=150).epsilon_actual > 1.0
    assert calls == [50, 50, 50]
