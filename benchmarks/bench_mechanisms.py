#!/usr/bin/env python
"""Label randomizers on N labels at once, against a plain reference of the same draw.

    python benchmarks/bench_mechanisms.py [--n 1000000] [--classes 100] [--repeats 3]

* K-bit vector mechanism (000 eq. (12)-(13)), N labels, K classes: ``VectorMechanism.sample``
  against the direct reference ``rng.random((N, K)) < P[labels]`` that materializes the (N, K)
  probability matrix by fancy indexing the (K, K) table of ``bit_probabilities()``.
  Target from the issue: N = 10^6, K = 100 in about a second on one core.
* K-ary randomized response (004 eq. (1)) and RRWithPrior with one shared prior (004 Algorithm 2),
  against ``rng.choice`` row by row on the exact channel (a per-label Python loop on 10^4 labels,
  scaled to N).

Median wall time of ``--repeats`` runs; the ratio is reference / fast from this one run. Nothing
asserts these numbers.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from simulations.mechanisms import RandomizedResponse, RRWithPrior, VectorMechanism


def _median_time(fn, repeats):
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return float(np.median(times))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=1_000_000)
    ap.add_argument("--classes", type=int, default=100)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args(argv)
    n, K = args.n, args.classes
    rng = np.random.default_rng(0)
    labels = rng.integers(0, K, n)

    vec = VectorMechanism(num_classes=K, epsilon=1.0)
    table = vec.bit_probabilities()  # P(bit j = 1 | y), (K, K)
    fast = _median_time(lambda: vec.sample(labels, rng), args.repeats)
    ref = _median_time(lambda: (rng.random((n, K)) < table[labels]).astype(np.uint8), args.repeats)
    print(f"vector mechanism  N={n:.0e} K={K}: sample {fast:.3f} s | reference {ref:.3f} s | ratio {ref / fast:.1f}x")

    prior = rng.dirichlet(np.ones(K))
    loop_n = 10_000
    for name, mech, kw, channel in (
        ("randomized response", RandomizedResponse(K, 1.0), {}, RandomizedResponse(K, 1.0).channel_matrix()),
        ("RRWithPrior (shared prior)", RRWithPrior(K, 1.0), {"prior": prior},
         RRWithPrior(K, 1.0).channel_matrix(prior)),
    ):
        fast = _median_time(lambda: mech.sample(labels, rng, **kw), args.repeats)
        small = labels[:loop_n]
        loop = _median_time(lambda: [rng.choice(K, p=channel[y]) for y in small], 1) * (n / loop_n)
        print(f"{name:27s} N={n:.0e} K={K}: sample {fast:.3f} s | per-label rng.choice loop "
              f"{loop:.1f} s (scaled from {loop_n}) | ratio {loop / fast:.0f}x")


if __name__ == "__main__":
    main()
