#!/usr/bin/env python
"""One trial of 000 Figure 2 (all four methods), fast path vs a plain reference, its floor, and the
paper-scale Figure 2 time.

    python benchmarks/bench_vector.py [--repeats 5] [--K 100] [--M 1000] [--fig-trials 10] [--jobs 2]

1. **Fast trial**: :func:`simulations.experiments.vector.approximation.trial` at K = 100, σ = 0.05, ε = 1,
   k = 200, N = 10^4 and M evaluation points: one exact grid k-NN query (``GridIndex``) shared by the four methods, one for
   LP-2ST's stage-2 prior, the numba aggregation kernels of ``simulations.kernels_knn``.
2. **Floor**: what no implementation of this trial avoids, timed in the same run: drawing the data
   and evaluation points, building the two grid indexes, the two neighbour queries, and the
   randomization draws (RR, RRWithPrior given the priors, the vector mechanism, ALIBI's Laplace noise).
3. **Reference**: the same trial written plainly: scikit-learn ``NearestNeighbors`` (the search
   behind ``KNeighborsClassifier``, default ``algorithm="auto"``) for both searches, the LP-2ST prior and
   the four votes with one numpy loop per method over the points, no numba. Its predictions are
   asserted equal to the fast path's on the same privatized labels.
4. **Paper-scale Figure 2**: both panels, the K grid of the experiment, 1000 trials per point; the
   time is measured on ``--fig-trials`` trials per point run through ``run_trials`` with ``--jobs``
   workers, and extrapolated linearly to 1000 (stated as such in the output).

Median wall time of ``--repeats`` runs (after a warm-up). Numbers are from one run on whatever
machine runs it (on a shared machine they move with the load); nothing asserts them.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from sklearn.neighbors import NearestNeighbors

from simulations.engine import run_trials, trial_streams
from simulations.estimators import private_knn as pk
from simulations.estimators.grid_knn import GridIndex
from simulations.estimators.knn import build_tree
from simulations.experiments.vector import approximation as va
from simulations.laws import CircleMixture
from simulations.mechanisms import ALIBI, RandomizedResponse, RRWithPrior, VectorMechanism


def timed(fn, repeats):
    """(median wall seconds, median CPU seconds of this process, last output) after one warm-up.

    CPU time is the steadier number on a shared machine (every path here is single-threaded)."""
    fn()
    ts, cs, out = [], [], None
    for _ in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        out = fn()
        ts.append(time.perf_counter() - t0)
        cs.append(time.process_time() - c0)
    return float(np.median(ts)), float(np.median(cs)), out


def sklearn_neighbours(X, Xq, k):
    return NearestNeighbors(n_neighbors=k).fit(X).kneighbors(Xq, return_distance=False).astype(np.int64)


def floor(cfg, t=0, seed=1):
    """Draws + trees + queries of one trial (what every implementation must do)."""
    data, privacy, evaluation = trial_streams(cfg, t, seed)
    K = cfg.num_classes
    law = CircleMixture(K, cfg.sigma)
    X, Y = law.sample(cfg.N, data)
    Xe, _ = law.sample(cfg.M, evaluation)
    evaluation.random((cfg.M, K))
    GridIndex(X, cfg.k).query(Xe, cfg.k)
    n1 = pk.stage1_size(cfg.N, cfg.split_fraction)
    GridIndex(X[:n1], cfg.prior_k).query(X[n1:], cfg.prior_k, sort=False)
    rr = RandomizedResponse(K, cfg.epsilon).sample(Y, privacy)
    RRWithPrior(K, cfg.epsilon).sample(Y[n1:], privacy, prior=PRIOR)
    VectorMechanism(K, cfg.epsilon).sample(Y, privacy)
    ALIBI(K, cfg.epsilon).sample(Y, privacy)
    return rr


def reference_trial(cfg, t=0, seed=1):
    """The same trial with scikit-learn searches and per-method numpy loops; returns predictions."""
    data, privacy, evaluation = trial_streams(cfg, t, seed)
    K = cfg.num_classes
    law = CircleMixture(K, cfg.sigma)
    X, Y = law.sample(cfg.N, data)
    Xe, _ = law.sample(cfg.M, evaluation)
    jitter = evaluation.random((cfg.M, K))
    n1 = pk.stage1_size(cfg.N, cfg.split_fraction)
    rr = RandomizedResponse(K, cfg.epsilon).sample(Y, privacy)
    prior = pk.lp2st_prior_reference(X[:n1], rr[:n1], X[n1:], num_classes=K, epsilon=cfg.epsilon,
                                     prior_k=cfg.prior_k, temperature=cfg.temperature, neighbours=sklearn_neighbours)
    lp = np.concatenate([rr[:n1], RRWithPrior(K, cfg.epsilon).sample(Y[n1:], privacy, prior=prior)])
    Z = VectorMechanism(K, cfg.epsilon).sample(Y, privacy)
    a = ALIBI(K, cfg.epsilon)
    soft = a.soft_labels(a.sample(Y, privacy))
    private = pk.PrivateLabels(rr, lp, Z, soft)
    preds = pk.predict_reference(X, Xe, private, jitter, num_classes=K, k=cfg.k, neighbours=sklearn_neighbours)
    eta = law.posterior(Xe)
    return preds, {f"acc_{m}": float(eta[np.arange(cfg.M), preds[m]].mean()) for m in pk.METHODS}


PRIOR = None


def main():
    global PRIOR
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--K", type=int, default=100)
    ap.add_argument("--M", type=int, default=va.PROFILES["paper"].M)
    ap.add_argument("--fig-trials", type=int, default=10)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()

    cfg = va.VectorPoint(num_classes=args.K, sigma=0.05, epsilon=1.0, k=200, N=10_000, M=args.M, prior_k=200)
    _, X, _, _, _, _, private, _, fast_preds = va.trial_predictions(cfg, 0, 1)
    n1 = pk.stage1_size(cfg.N, cfg.split_fraction)
    PRIOR = pk.lp2st_prior(X[:n1], private.rr[:n1], X[n1:], num_classes=cfg.num_classes, epsilon=cfg.epsilon,
                           prior_k=cfg.prior_k, temperature=cfg.temperature)

    t_fast, c_fast, acc = timed(lambda: va.trial(cfg, 0, 1), args.repeats)
    t_floor, c_floor, _ = timed(lambda: floor(cfg), args.repeats)
    t_ref, c_ref, (ref_preds, ref_acc) = timed(lambda: reference_trial(cfg), max(1, args.repeats // 2))
    for m in pk.METHODS:
        assert np.array_equal(ref_preds[m], fast_preds[m]), m
    assert ref_acc == acc
    print(f"one trial, K={cfg.num_classes}, N={cfg.N}, M={cfg.M}, k={cfg.k} (all four methods; predictions of the "
          f"reference asserted equal):")
    print("                     wall (ms)   CPU (ms)")
    print(f"  fast trial        {t_fast * 1e3:9.1f} {c_fast * 1e3:10.1f}")
    print(f"  floor             {t_floor * 1e3:9.1f} {c_floor * 1e3:10.1f}   (draws, 2 indexes, 2 queries)  fast / floor = "
          f"{t_fast / t_floor:.2f}x wall, {c_fast / c_floor:.2f}x CPU")
    print(f"  reference         {t_ref * 1e3:9.1f} {c_ref * 1e3:10.1f}   (scikit-learn search, numpy loops)  "
          f"reference / fast = {t_ref / t_fast:.2f}x wall, {c_ref / c_fast:.2f}x CPU")
    queries = {}
    for name, fn in (("fast: grid, shared query", lambda: GridIndex(X, cfg.k).query(X[:cfg.M], cfg.k)),
                     ("fast: grid, LP-2ST prior query",
                      lambda: GridIndex(X[:n1], cfg.prior_k).query(X[n1:], cfg.prior_k, sort=False)),
                     ("cKDTree, shared query", lambda: build_tree(X).query(X[:cfg.M], k=cfg.k)),
                     ("cKDTree, LP-2ST prior query", lambda: build_tree(X[:n1]).query(X[n1:], k=cfg.prior_k)),
                     ("reference: scikit-learn, shared query", lambda: sklearn_neighbours(X, X[:cfg.M], cfg.k)),
                     ("reference: scikit-learn, LP-2ST query", lambda: sklearn_neighbours(X[:n1], X[n1:], cfg.prior_k))):
        queries[name] = timed(fn, args.repeats)[1]
        print(f"    {name:40s} {queries[name] * 1e3:8.1f} ms CPU")

    prof = va.PROFILES["paper"]
    pts = [p for _, p in va.points(prof, epsilon=1.0, k=200)]
    cpu = sum(timed(lambda p=p: va.trial(p, 0, 1), 2)[1] for p in pts)
    est_cpu = cpu * prof.n_trials / args.jobs
    print(f"paper-scale Figure 2 ({len(pts)} points x {prof.n_trials} trials, M={prof.M}): one trial of every point "
          f"costs {cpu:.2f} s CPU in all -> {est_cpu / 60:.1f} min on {args.jobs} idle cores (extrapolated from CPU time)")
    if args.fig_trials:
        t0 = time.perf_counter()
        run_trials(va.trial, pts, args.fig_trials, root_seed=99, jobs=args.jobs, progress=False)
        t_part = time.perf_counter() - t0
        est = t_part * prof.n_trials / args.fig_trials
        print(f"  measured: {args.fig_trials} trials per point with --jobs {args.jobs} took {t_part:.1f} s wall -> "
              f"extrapolated {est / 60:.1f} min at this machine's current load (includes worker start-up)")


if __name__ == "__main__":
    main()
