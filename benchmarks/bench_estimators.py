#!/usr/bin/env python
"""One estimator trial, fast path against a plain reference implementation of the same trial.

    python benchmarks/bench_estimators.py [--repeats 3] [--skip-brute]

1. Histogram trial, N = 10^6, d = 2 (003 Theorem 2: vector mechanism + bin sums + argmax, and
   Theorem 8: bin mean + Laplace): sample the data, privatize, fit, exact excess risk. The fast path
   bins and aggregates with the fused numba kernels of ``simulations.kernels``; the reference does the
   same with ``np.ravel_multi_index`` + ``np.bincount`` (identical results, asserted).
2. kNN regression trial (003 Theorem 6), N = 10^5 training points, 10^4 evaluation points,
   k from ``limits.tuning``: the fast path is ``cKDTree`` + the numba neighbour mean; the reference is
   brute force (all distances in blocks, ``np.argpartition``) + numpy fancy-indexed mean (the
   neighbour sets agree, asserted).

Median wall time of ``--repeats`` runs each (after one warm-up that loads the numba cache), printed
with the ratio reference / fast. Numbers are from one run on whatever machine runs it; nothing asserts
them.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from simulations import kernels
from simulations.estimators import LaplaceBinMeanRegressor, VectorBinClassifier, make_estimator
from simulations.laws import AdditiveRegression, BoundaryClassification, UniformNoise
from simulations.mechanisms import LaplaceLabels, NoisyBinMean, VectorMechanism
from simulations.seeding import DATA, EVAL, PRIVACY, stream


def timed(fn, repeats):
    fn()  # warm-up (numba cache load, allocations)
    ts, out = [], None
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        ts.append(time.perf_counter() - t0)
    return float(np.median(ts)), out


# ------------------------------------------------------------------------------ histogram trials
def histogram_trials(repeats):
    """Per algorithm: data sampling and exact risk (shared by both paths) and the fit, fast vs reference."""
    N, d, eps = 10 ** 6, 2, 1.0
    cls_law = BoundaryClassification(d=d, kappa=1.0, num_classes=4, rho=0.2)
    reg_law = AdditiveRegression(d=d, beta=0.5, noise=UniformNoise(0.5))
    T = reg_law.sup_abs_eta() + 0.5
    h_cls = make_estimator("local_classification", N=N, epsilon=eps, beta=1.0, d=d, num_classes=4).h
    h_reg = make_estimator("central_regression", N=N, epsilon=eps, beta=0.5, d=d, T=T).h

    def fit_fast_cls(X, Y):
        est = VectorBinClassifier(num_classes=4, epsilon=eps, h=h_cls,
                                  random_state=stream(0, "bench", 0, PRIVACY)).fit(X, Y)
        return est.cell_values_

    def fit_ref_cls(X, Y):
        r = stream(0, "bench", 0, PRIVACY)
        Zb = VectorMechanism(num_classes=4, epsilon=eps).sample(Y, r)
        sums, _ = kernels.bin_row_sums_numpy(X, est_bins(h_cls), Zb)
        return np.argmax(sums + 0.5 * r.random(sums.shape), axis=1)

    def fit_fast_reg(X, Y):
        est = LaplaceBinMeanRegressor(h=h_reg, epsilon=eps, T=T, random_state=stream(0, "bench", 1, PRIVACY)).fit(X, Y)
        return est.cell_values_

    def fit_ref_reg(X, Y):
        sums, counts = kernels.bin_value_sums_numpy(X, est_bins(h_reg), Y)
        return NoisyBinMean(T=T, epsilon=eps).release(sums, counts, stream(0, "bench", 1, PRIVACY))

    rows = []
    for name, law, h, fast, ref in (("local classification (Thm 2), K=4", cls_law, h_cls, fit_fast_cls, fit_ref_cls),
                                    ("central regression (Thm 8)", reg_law, h_reg, fit_fast_reg, fit_ref_reg)):
        t_data, (X, Y) = timed(lambda: law.sample(N, stream(0, "bench", 2, DATA)), repeats)
        tf, vf = timed(lambda: fast(X, Y), repeats)
        tr, vr = timed(lambda: ref(X, Y), repeats)
        assert np.array_equal(vf, vr), "fast and reference fits disagree"
        t_risk, _ = timed(lambda: law.excess_risk_partition(vf, est_bins(h)), repeats)
        rows.append((f"histogram trial N=1e6 d=2, {name}", t_data + tf + t_risk, t_data + tr + t_risk))
        rows.append(("  of which fit (privatize + bin + aggregate + decide)", tf, tr))
        rows.append((f"  of which sampling the data / exact risk, {est_bins(h)}^2 cells", t_data + t_risk, None))
    # the aggregation step alone (binning + per-cell sums), where the two paths differ
    X = stream(0, "bench", 2, DATA).random((N, d))
    Y = stream(0, "bench", 2, EVAL).standard_normal(N)
    bins = est_bins(h_reg)
    tf, a = timed(lambda: kernels.bin_value_sums(X, bins, Y), repeats)
    tr, b = timed(lambda: kernels.bin_value_sums_numpy(X, bins, Y), repeats)
    assert all(np.array_equal(p, q) for p, q in zip(a, b))
    rows.append(("binning + bin sums alone, N=1e6 d=2: numba fused loop vs bincount", tf, tr))
    return rows


def est_bins(h):
    from simulations.estimators import bins_for_width
    return bins_for_width(h)


# ----------------------------------------------------------------------------------- kNN trial
def brute_knn_indices(X, Xq, k, block=250):
    out = np.empty((Xq.shape[0], k), dtype=np.int64)
    sq = (X ** 2).sum(axis=1)
    for s in range(0, Xq.shape[0], block):
        q = Xq[s:s + block]
        dist = sq[None, :] - 2.0 * q @ X.T + (q ** 2).sum(axis=1)[:, None]
        out[s:s + block] = np.argpartition(dist, k - 1, axis=1)[:, :k]
    return out


def knn_trial(repeats, skip_brute):
    N, M, d, eps = 10 ** 5, 10 ** 4, 2, 1.0
    law = AdditiveRegression(d=d, beta=1.0, noise=UniformNoise(0.5))
    T = law.sup_abs_eta() + 0.5
    k = make_estimator("local_regression", N=N, epsilon=eps, beta=1.0, d=d, T=T).k

    def data():
        X, Y = law.sample(N, stream(0, "knn", 0, DATA))
        Xq = stream(0, "knn", 0, EVAL).random((M, d))
        return X, Y, Xq

    def fast():
        X, Y, Xq = data()
        est = make_estimator("local_regression", N=N, epsilon=eps, beta=1.0, d=d, T=T)
        pred = est.set_params(random_state=stream(0, "knn", 0, PRIVACY)).fit(X, Y).predict(Xq)
        return law.excess_risk_points(pred, Xq), pred

    def ref():
        X, Y, Xq = data()
        Zl = LaplaceLabels(T=T, epsilon=eps).sample(Y, stream(0, "knn", 0, PRIVACY))
        pred = Zl[brute_knn_indices(X, Xq, k)].mean(axis=1)
        return law.excess_risk_points(pred, Xq), pred

    tf, (rf, pf) = timed(fast, repeats)
    rows = [(f"kNN trial N=1e5, M=1e4, k={k}, d=2 (Thm 6): cKDTree + numba", tf, None)]
    if not skip_brute:
        tr, (rr, pr) = timed(ref, 1)
        np.testing.assert_allclose(pf, pr, rtol=1e-10, atol=1e-12)  # same neighbour sets
        rows[0] = (rows[0][0] + " vs brute force + numpy", tf, tr)
    # the averaging step alone: numba kernel vs numpy fancy indexing, same neighbour matrix
    X, Y, Xq = data()
    idx = make_estimator("nonprivate_regression_knn", N=N, beta=1.0, d=d, k=k).fit(X, Y).neighbours(Xq)
    tf2, _ = timed(lambda: kernels.neighbour_mean(Y, idx), repeats)
    tr2, _ = timed(lambda: Y[idx].mean(axis=1), repeats)
    rows.append((f"  neighbour mean alone, M=1e4, k={k}: numba vs numpy fancy indexing", tf2, tr2))
    return rows


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--skip-brute", action="store_true", help="skip the brute-force kNN reference (slow)")
    args = p.parse_args(argv)
    rows = histogram_trials(args.repeats) + knn_trial(args.repeats, args.skip_brute)
    width = max(len(r[0]) for r in rows)
    print(f"{'trial'.ljust(width)}  {'fast [s]':>9}  {'reference [s]':>13}  {'speed-up':>8}")
    for name, tf, tr in rows:
        ratio = f"{tr / tf:8.1f}x" if tr is not None else "       -"
        ref = f"{tr:13.3f}" if tr is not None else " " * 13
        print(f"{name.ljust(width)}  {tf:9.3f}  {ref}  {ratio}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
