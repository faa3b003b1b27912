"""Per-stage cost of LP-MST (004 Algorithm 3) and the vectorized prior step against a per-example loop.

Prints, for LP-3ST with the k-NN learner on the digits (precomputed neighbour order) and with
scikit-learn's logistic regression on a synthetic 10-class problem (n = 20 000, d = 20), the wall
time of each stage split into prior computation (one ``predict_proba`` call on the stage), label
privatization (one vectorized RRWithPrior call) and training; then the ratio of a per-example
loop (one ``predict_proba`` + one RRWithPrior call per example) to the vectorized stage step.
Ratios come from one run on this machine; nothing is asserted.

    python benchmarks/bench_lp_mst.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402

from simulations.experiments.learning.lp_mst_digits import digits_pool  # noqa: E402
from simulations.learning import LPMST, IndexedKNNClassifier  # noqa: E402


def report(name, est):
    print(f"\n{name}: n = {est.stages_.size}, stages of {np.bincount(est.stages_).tolist()} examples")
    print(f"{'stage':>5} {'priors (s)':>11} {'privatize (s)':>14} {'train (s)':>10} {'mean k*':>8} {'trained on':>10}")
    for t, (a, b, c) in enumerate(est.stage_seconds_):
        k = est.k_star_[est.stages_ == t].mean()
        print(f"{t + 1:>5} {a:11.4f} {b:14.4f} {c:10.4f} {k:8.2f} {est.n_trained_[t]:10d}")


def per_example_ratio(est, X, y, stage: int, rng, limit: int = 2000):
    """Time of the vectorized prior + privatization of one stage vs a loop over (at most ``limit``) examples."""
    idx = np.flatnonzero(est.stages_ == stage)[:limit]
    prev = est.models_[stage - 1]
    mech = est.mechanism
    t0 = time.perf_counter()
    priors = est.stage_priors(prev, X[idx])
    mech.sample(y[idx], rng, prior=priors)
    vec = time.perf_counter() - t0
    t0 = time.perf_counter()
    for i in idx:
        p = est.stage_priors(prev, X[i:i + 1])
        mech.sample(y[i:i + 1], rng, prior=p)
    loop = time.perf_counter() - t0
    return idx.size, vec, loop


def main():
    rng = np.random.default_rng(0)
    order, y_tr, y_te, n = digits_pool()
    knn = IndexedKNNClassifier(order=order, n_neighbors=20, num_classes=10)
    est = LPMST(learner=knn, num_classes=10, epsilon=1.0, num_stages=3, stage_fractions=(0.4, 0.3, 0.3),
                filter_labels=True, random_state=rng).fit(np.arange(n), y_tr)
    report("LP-3ST, k-NN (k = 20) on the digits, ε = 1", est)
    m, vec, loop = per_example_ratio(est, np.arange(n), y_tr, 1, rng)
    print(f"stage-2 priors + privatization for {m} examples: vectorized {vec * 1e3:.1f} ms, "
          f"per-example loop {loop * 1e3:.1f} ms, ratio {loop / vec:.0f}x")

    X = rng.normal(size=(20000, 20))
    W = rng.normal(size=(20, 10))
    y = np.argmax(X @ W + rng.gumbel(size=(20000, 10)), axis=1)
    est = LPMST(learner=LogisticRegression(max_iter=200), num_classes=10, epsilon=2.0, num_stages=3,
                stage_fractions=(0.4, 0.3, 0.3), random_state=rng).fit(X, y)
    report("LP-3ST, logistic regression, synthetic n = 20000, d = 20, K = 10, ε = 2", est)
    m, vec, loop = per_example_ratio(est, X, y, 1, rng)
    print(f"stage-2 priors + privatization for {m} examples: vectorized {vec * 1e3:.1f} ms, "
          f"per-example loop {loop * 1e3:.1f} ms, ratio {loop / vec:.0f}x")


if __name__ == "__main__":
    main()
