"""001 Theorem 4.11 on half-planes of R² (:mod:`simulations.estimators.halfplanes`, ``semi_supervised_halfplanes``).

Expected values: Cover's count of the dichotomies half-planes induce on n points in general position,
``2 Σ_{k<=2} C(n − 1, k) = n(n − 1) + 2``; a brute-force enumeration of labellings by a dense fan of
directions and all thresholds (independent of the pair construction); P(N(0, 1) > 0.25) = 0.40129 for the
target's positive mass on the atoms.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from simulations.estimators.halfplanes import halfplane_dichotomies, halfplane_predict
from simulations.experiments.consistency.semi_supervised_2d import (ATOMS, HalfplanePoint, halfplane_trial,
                                                                     target_labels)


@pytest.mark.parametrize("n", [2, 3, 5, 9, 17])
def test_dichotomy_count_is_covers(n):
    U = np.random.default_rng(n).normal(size=(n, 2))
    W, b = halfplane_dichotomies(U)
    labels = halfplane_predict(W, b, U)
    cover = 2 * sum(math.comb(n - 1, k) for k in range(3))
    assert len(W) == cover == n * (n - 1) + 2
    assert len({tuple(r) for r in labels}) == cover  # one representative per dichotomy


def test_dichotomies_match_a_brute_force_fan():
    # the labellings found equal those of a scan over 3600 directions and every threshold between consecutive
    # projections (a fan that fine separates every pair of dichotomies of 7 points in general position)
    U = np.random.default_rng(7).normal(size=(7, 2))
    found = {tuple(r) for r in halfplane_predict(*halfplane_dichotomies(U), U)}
    brute = set()
    for th in np.linspace(0, 2 * np.pi, 3600, endpoint=False):
        proj = np.sort(U @ np.array([np.cos(th), np.sin(th)]))
        for c in np.concatenate([[proj[0] - 1], (proj[1:] + proj[:-1]) / 2, [proj[-1] + 1]]):
            brute.add(tuple(U @ np.array([np.cos(th), np.sin(th)]) > c))
    assert found == brute


def test_rejects_bad_points():
    with pytest.raises(ValueError, match="U must be"):
        halfplane_dichotomies(np.zeros((3, 3)))
    with pytest.raises(ValueError, match="U must be"):
        halfplane_dichotomies([[0.0, np.nan], [1.0, 1.0]])


def test_trial_outputs_are_probabilities_and_errors():
    r = halfplane_trial(HalfplanePoint(60_000, (8, 64)), 0, 3)
    assert np.all((0 <= r["fail"]) & (r["fail"] <= 1)) and r["err"][1] >= r["best"] >= 0 and r["n_hyp"] > 100
    assert target_labels(ATOMS).mean() == pytest.approx(0.40129, abs=0.03)  # 2048 atoms of N(0, I₂)


def test_nothing_released_leaves_the_two_constants():
    # 500 unlabeled points over 2048 atoms: no cube reaches Algorithm 1's threshold ≈ 30, Û is empty and the
    # mechanism chooses between "all 0" (error p₁, the positive mass) and "all 1" (error 1 − p₁) with weights
    # exp(−ε q/2), q their mistakes on the labeled sample
    W, b = halfplane_dichotomies(np.zeros((0, 2)))
    assert halfplane_predict(W, b, [[0.0, 0.0]]).ravel().tolist() == [False, True]
    r = halfplane_trial(HalfplanePoint(500, (8,)), 0, 3)
    p1 = target_labels(ATOMS).mean()
    assert r["n_hyp"] == 2 and r["best"] == pytest.approx(min(p1, 1 - p1))
    assert min(p1, 1 - p1) <= r["err"][0] <= max(p1, 1 - p1)


def test_smoke_claims(smoke_run):
    rec = smoke_run("semi_supervised_halfplanes").record
    assert [c["kind"] for c in rec["claims"]] == ["paper", "paper"]
    assert rec["claims"][0]["expected"] == 0.1 and rec["claims"][1]["expected"] == -1.0
