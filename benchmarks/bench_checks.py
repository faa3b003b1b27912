#!/usr/bin/env python
"""Wall time of the exact label-DP checks against K (issue 14: they must scale in K).

    python benchmarks/bench_checks.py [--max-k 100000] [--repeats 3]

For each mechanism and K: median wall seconds of ``check_label_dp(mechanism, epsilon)`` (RRTopK and
RRWithPrior on one Dirichlet(1) prior), and, where the former O(K^2)/O(K^3) code path is still
available as a test oracle (ALIBI's loop over all K(K-1) pairs, the generic factorization of the
vector mechanism from its K x K bit table), its time at the K it can reach and the ratio. Numbers
come from one run on whatever machine runs it; nothing here is asserted.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from proofs_checks import check_label_dp
from proofs_checks.mechanisms.alibi import alibi_loss_brute_force
from proofs_checks.mechanisms.vector import factorized_vector_loss
from simulations.mechanisms import ALIBI, RandomizedResponse, RRTopK, RRWithPrior, VectorMechanism

EPS = 1.0


def _median(fn, repeats):
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-k", type=int, default=100_000)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    ks = [k for k in (100, 1000, 10_000, 100_000) if k <= args.max_k]
    prior_rng = np.random.default_rng(0)
    print(f"{'mechanism':<20}{'K':>8}{'check (s)':>12}{'old path (s)':>14}{'old/new':>10}")
    for K in ks:
        prior = prior_rng.dirichlet(np.ones(K))
        cases = [("ALIBI", ALIBI(K, EPS), {}, (lambda m: alibi_loss_brute_force(m)) if K <= 1000 else None),
                 ("VectorMechanism", VectorMechanism(K, EPS), {},
                  (lambda m: factorized_vector_loss(m.bit_probabilities())) if K <= 1000 else None),
                 ("RandomizedResponse", RandomizedResponse(K, EPS), {}, None),
                 ("RRTopK(k=K//2)", RRTopK(K, EPS, max(2, K // 2)), {"prior": prior}, None),
                 ("RRWithPrior", RRWithPrior(K, EPS), {"prior": prior}, None)]
        for name, mech, kw, old in cases:
            new_t = _median(lambda: check_label_dp(mech, EPS, **kw), args.repeats)
            old_t = _median(lambda: old(mech), 1) if old is not None else None
            old_s = f"{old_t:14.4f}{old_t / new_t:10.1f}" if old_t is not None else f"{'-':>14}{'-':>10}"
            print(f"{name:<20}{K:>8}{new_t:12.5f}{old_s}", flush=True)


if __name__ == "__main__":
    main()
