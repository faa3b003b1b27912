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
