"""``movielens_table3`` (004 Table 3): end to end on a synthetic ``ratings.dat``, the skip path, jobs-independence,
and the debiased validation score."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from simulations.experiments.learning import movielens
from simulations.experiments.base import ExperimentSkipped, RunContext
from simulations.experiments.learning.movielens_published import TABLE3
from simulations.mechanisms import RandomizedResponse


def _write_ratings(folder: Path, n_users=30, n_items=40, n=1500, seed=0) -> Path:
    """A planted rank-2 ratings file in MovieLens-1M's official format ``UserID::MovieID::Rating::Timestamp``."""
    rng = np.random.default_rng(seed)
    a, b = rng.normal(size=(n_users, 2)), rng.normal(size=(n_items, 2))
    u, i = rng.integers(0, n_users, n), rng.integers(0, n_items, n)
    r = np.clip(np.round(3 + 1.2 * (a[u] * b[i]).sum(axis=1)), 1, 5).astype(int)
    (folder / "ml-1m").mkdir(parents=True)
    (folder / "ml-1m" / "ratings.dat").write_text("".join(f"{x + 1}::{y + 1}::{z}::978300760\n" for x, y, z in zip(u, i, r)))
    return folder


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory):
    folder = _write_ratings(tmp_path_factory.mktemp("movielens"))
    res = movielens.compute(RunContext(profile="smoke", jobs=1, progress=False, data_dir=folder))
    return folder, res


def test_runs_end_to_end_on_a_synthetic_ratings_file(synthetic):
    folder, res = synthetic
    t = res.tables["rmse"]
    assert t["method"] == ["RR (LP-1ST)"] * 2 + ["LP-2ST"] * 2 + ["non-private"]
    assert all("ratings.dat from --data-dir (1500 ratings; not the official MovieLens-1M)" in d for d in t["data"])
    assert all(0.0 < v < 4.0 for v in t["mean_rmse"])
    # the published column is 004 Table 3, typed in (ε = 1, 8; non-private = LP-1ST at ε = ∞)
    assert t["published_rmse_ml1m"] == [1.122, 0.867, 1.034, 0.865, 0.868] == [
        TABLE3["LP-1ST"][1.0], TABLE3["LP-1ST"][8.0], TABLE3["LP-2ST"][1.0], TABLE3["LP-2ST"][8.0],
        TABLE3["LP-1ST"][math.inf]]
    hp = res.tables["hyperparameters"]  # chosen on validation: RR 1 stage, LP-2ST 2 stages, non-private 1, per trial
    assert len(hp["trial"]) == 2 * (2 * 1 + 2 * 2 + 1)
    assert set(hp["embedding_dim"]) == {8} and all(1 <= e <= 2 for e in hp["epochs"])
    assert res.claims == []  # the smoke profile states no claim


def test_trials_are_pure_functions_of_config_trial_and_seed(synthetic):
    """What makes the numbers the same whatever ``--jobs``: trial 1 computed alone equals trial 1 of the run
    (no state carried between trials; the engine's tests check that it assembles pure trials identically
    for any executor). A real two-worker run was checked once by hand (identical tables) but costs ~14 s of
    process start-up on 2 busy cores, over this file's budget."""
    folder, res = synthetic
    pt, _, _ = movielens._point(RunContext(profile="smoke", data_dir=folder))
    alone = movielens.movielens_trial(pt, 1, RunContext().seed)
    assert np.array_equal(alone["rmse"], res.data["rmse"][1])
    assert alone["rmse_nonprivate"] == res.data["rmse_nonprivate"][1]


def test_skips_cleanly_without_data(monkeypatch, tmp_path):
    monkeypatch.setattr(movielens, "DATASETS", tuple(d for d in movielens.DATASETS if d != "movielens100k"))
    with pytest.raises(ExperimentSkipped, match="recbole"):
        movielens.compute(RunContext(profile="smoke", progress=False, data_dir=tmp_path))


def test_smoke_profile_runs_or_skips_with_the_default_sources(smoke_run):
    run = smoke_run("movielens_table3")
    assert run.outcome.status in ("ok", "skipped"), run.log
    if run.outcome.status == "ok":  # no --data-dir: the ML-100K package copy, named as a stand-in
        assert "MovieLens-100K" in (run.folder / "rmse.csv").read_text()


@pytest.mark.parametrize("epsilon", [0.5, 1.0, 3.0])
def test_debiased_squared_error_is_unbiased_through_the_rr_channel(epsilon):
    """E[score(z) | y] = (r̂ - (y + 1))² for every y, with z drawn from RR's exact channel."""
    C = RandomizedResponse(num_classes=5, epsilon=epsilon).channel_matrix()
    for r_hat in (1.0, 2.7, 4.2):
        for y in range(5):
            mean = sum(C[y, z] * movielens.debiased_squared_error([r_hat], [z], epsilon) for z in range(5))
            assert mean == pytest.approx((r_hat - (y + 1)) ** 2, abs=1e-9)


def test_debiased_squared_error_matches_exact_arithmetic():
    # ε = ln 3, K = 5: p = 3/7, q = 1/7; r̂ = 3, z = 0: ℓ = (4, 1, 0, 1, 4), (4 - 10/7) / (2/7) = 9
    e = math.log(3.0)
    p, q = Fraction(3, 7), Fraction(1, 7)
    exact = (4 - q * 10) / (p - q)
    assert movielens.debiased_squared_error([3.0], [0], e) == pytest.approx(float(exact), abs=1e-12)
    with pytest.raises(ValueError, match="epsilon"):
        movielens.debiased_squared_error([3.0], [0], 0.0)
