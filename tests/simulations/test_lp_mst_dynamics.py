"""``lp_mst_dynamics`` (004 Figures 3-5 on the digits): the learning curve ends at the models it claims to end
at, the 004 split of the curve, and the smoke run's tables."""

from __future__ import annotations

import csv

import numpy as np

from simulations.experiments.learning import lp_mst_dynamics as dyn


def test_curve_ends_at_the_final_models_and_split_is_004s():
    # 004 Appendix D: "Stage-1 of LP-2ST (using 65% training data)"
    assert dyn.CURVE_SPLIT == 0.65 and dyn.EPSILON == 2.0  # 004 Figures 3-5 are at ε = 2
    pt = dyn.DynamicsPoint(splits=(0.65,), temperatures=(1.0,), fractions=(0.65, 1.0))
    r = dyn.dynamics_trial(pt, 0, 3)
    final_lp, stage1, top2, k_mean, rr_full = r["fig3"]
    # the last curve points are LP-1ST on every label and LP-2ST's final model (same filter, same labels)
    assert r["curve_rr"][-1] == rr_full and r["curve_lp"][-1] == final_lp
    # at 65 % the LP-2ST curve is its stage-1 model on the stage-1 labels, which LP-1ST shares
    assert r["curve_lp"][0] == stage1 == r["curve_rr"][0]
    assert 1.0 <= k_mean <= 10.0 and 0.0 <= top2 <= 1.0 and r["grid_acc"].shape == (1, 1)


def test_smoke_outputs(smoke_run):
    run = smoke_run("lp_mst_dynamics")
    names = {p.name for p in run.folder.iterdir()}
    assert {"learning_curves.csv", "split_temperature.csv", "topk_vs_final.csv", "lp_mst_dynamics.png"} <= names
    with open(run.folder / "split_temperature.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 4 and all(0.0 <= float(r["mean_accuracy"]) <= 1.0 for r in rows)
    assert np.isfinite([float(r["mean_k_star"]) for r in rows]).all()


def _fig5_inputs(mid_gain_hi, trials=40, seed=0):
    """Three top-k̄ bins per trial ([0.8, 0.9), [0.9, 0.95), [0.95, 1)), two runs in each: the middle bin's final
    accuracy is 0.02 above the lowest and ``mid_gain_hi`` above the highest, plus a trial effect shared by all
    its runs (the reason the unit is the trial) and a small per-run noise."""
    rng = np.random.default_rng(seed)
    topk = np.tile([0.85, 0.86, 0.92, 0.93, 0.97, 0.98], (trials, 1)).reshape(trials, 3, 2)
    base = np.array([0.90, 0.90, 0.92, 0.92, 0.92 - mid_gain_hi, 0.92 - mid_gain_hi])
    acc = base + rng.normal(0, 0.05, (trials, 1)) + rng.normal(0, 0.001, (trials, 6))
    acc = acc.reshape(trials, 3, 2)
    _, groups = dyn._topk_table({"topk_accuracy": topk.ravel(), "final_accuracy": acc.ravel()}, dyn.TOPK_EDGES)
    return acc, topk, groups


def test_per_trial_bin_means_average_each_trials_runs_in_the_bin():
    acc = np.array([[[0.5, 0.7]], [[0.9, 0.1]]])  # 2 trials, 2 splits, 1 temperature
    topk = np.array([[[0.85, 0.86]], [[0.85, 0.97]]])
    edges = dyn.TOPK_EDGES
    low = dyn._per_trial_bin_means(acc, topk, edges, 3)  # bin [0.8, 0.9)
    assert low[0] == (0.5 + 0.7) / 2 and low[1] == 0.9
    high = dyn._per_trial_bin_means(acc, topk, edges, 5)  # bin [0.95, 1]: trial 0 has no run there
    assert np.isnan(high[0]) and high[1] == 0.1


def test_fig5_peak_is_decided_per_trial_against_the_margin():
    # a clear peak: 0.02 above both ends, far above MARGIN = 0.005 -> holds
    acc, topk, groups = _fig5_inputs(0.02)
    assert dyn._peak_claim(acc, topk, groups, dyn.TOPK_EDGES).holds is True
    # a plateau at the top: the middle bin equals the highest bin -> the peak is excluded (difference 0 < MARGIN)
    acc, topk, groups = _fig5_inputs(0.0)
    c = dyn._peak_claim(acc, topk, groups, dyn.TOPK_EDGES)
    assert c.holds is False and abs(c.measured) < 0.002
    # the unit is the trial: the trial effect (sd 0.05) shared by a trial's runs cancels in the paired differences
    assert "over 40 trials" in c.detail
