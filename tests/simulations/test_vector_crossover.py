"""Experiment vector_crossover (beyond the papers: from which K the symmetric vector mechanism of 000 eq.
(12)-(13) and the asymmetric one of 002's Limitations paragraph beat RR, 004 eq. (1))."""

import math

import numpy as np
import pytest

from simulations.engine import trial_streams
from simulations.experiments.vector import crossover as vc
from simulations.mechanisms import AsymmetricVectorMechanism, RandomizedResponse, VectorMechanism


def test_crossover_k_is_the_start_of_the_last_run_of_wins():
    grid = [2, 5, 10, 20, 50]
    assert vc.crossover_k(grid, ["excluded", "excluded", "holds", "holds", "holds"]) == 10
    assert vc.crossover_k(grid, ["holds", "excluded", "holds", "inconclusive", "holds"]) == 50
    assert vc.crossover_k(grid, ["holds"] * 5) == 2
    assert vc.crossover_k(grid, ["holds", "holds", "holds", "holds", "inconclusive"]) is None


@pytest.mark.parametrize("eps", [0.5, 1.0, 2.0, 4.0])
def test_noise_to_signal_closed_forms(eps):
    # written from the bit probabilities: Vector a = e^{ε/2}/(1 + e^{ε/2}), b = 1 - a;
    # asymmetric p = 1/2, q = 1/(e^ε + 1) (000 eq. (24) inverted: Var[(Z - b)/(a - b)] = b(1-b)/(a-b)^2)
    t = math.exp(eps / 2)
    q = 1 / (math.exp(eps) + 1)
    v = vc.noise_to_signal(eps)
    assert v["Vector off"] == pytest.approx(t / (t - 1) ** 2, rel=1e-12)
    assert v["Vector on"] == pytest.approx(t / (t - 1) ** 2, rel=1e-12)
    assert v[f"{vc.ASYMMETRIC} off"] == pytest.approx(4 * math.exp(eps) / math.expm1(eps) ** 2, rel=1e-12)
    assert v[f"{vc.ASYMMETRIC} on"] == pytest.approx(0.25 / (0.5 - q) ** 2, rel=1e-12)
    assert v["Vector off"] / v[f"{vc.ASYMMETRIC} off"] == pytest.approx(math.cosh(eps / 4) ** 2, rel=1e-12)
    assert v[f"{vc.ASYMMETRIC} on"] > v["Vector on"]  # the price on the label's bit
    # two-class boundary efficiency: (t-1)^2/(t^2+1) and (t^2-1)^2/(2(t^2+1)^2), ratio 2(e^ε+1)/(e^{ε/2}+1)^2 >= 1
    assert v["Vector boundary"] == pytest.approx((t - 1) ** 2 / (t * t + 1), rel=1e-12)
    assert v[f"{vc.ASYMMETRIC} boundary"] == pytest.approx((t * t - 1) ** 2 / (2 * (t * t + 1) ** 2), rel=1e-12)
    ratio = v["Vector boundary"] / v[f"{vc.ASYMMETRIC} boundary"]
    assert ratio == pytest.approx(2 * (math.exp(eps) + 1) / (t + 1) ** 2, rel=1e-12) and ratio > 1


def test_boundary_efficiency_by_enumeration():
    # one neighbour at a two-class boundary: label y or j w.p. 1/2 each; D = Z(y) - Z(j); efficiency = E[D | η]^2
    # per unit of η_y - η_j over Var D, enumerated over (label, Z(y), Z(j)) with the mechanisms' bit probabilities
    for eps in (0.5, 4.0):
        for name, mech in (("Vector", VectorMechanism(2, eps)), (vc.ASYMMETRIC, AsymmetricVectorMechanism(2, eps))):
            P = mech.channel_matrix()  # columns: (Z0, Z1) = (0,0), (1,0), (0,1), (1,1)
            d = np.array([0, 1, -1, 0])
            mean = {y: P[y] @ d for y in (0, 1)}
            m2 = 0.5 * (P[0] + P[1]) @ d ** 2
            var = m2 - (0.5 * (mean[0] + mean[1])) ** 2
            slope = (mean[0] - mean[1]) / 2  # d E[D] / d(η_y - η_j) at η_y = η_j = 1/2
            assert slope ** 2 / var == pytest.approx(vc.noise_to_signal(eps)[f"{name} boundary"], rel=1e-10)


def test_trial_draws_the_three_mechanisms_in_order_from_one_privacy_stream():
    # an independent re-run of the trial: brute-force neighbours, plain argmax votes, the mechanisms drawn in the
    # documented order (RR, Vector, asymmetric) from the privacy stream; accuracies = mean of η at the predictions
    from simulations.estimators.private_knn import brute_force_neighbours
    cfg = vc.CrossoverPoint(num_classes=4, epsilon=1.0, k=7, N=300, M=40)
    a = vc.crossover_trial(cfg, 2, 9)
    assert a == vc.crossover_trial(cfg, 2, 9) and list(a) == [f"acc_{m}" for m in vc.METHODS]
    data, privacy, evaluation = trial_streams(cfg, 2, 9)
    law = vc.CircleMixture(4, cfg.sigma)
    X, Y = law.sample(cfg.N, data)
    Xe, _ = law.sample(cfg.M, evaluation)
    jitter = evaluation.random((cfg.M, 4))
    idx = brute_force_neighbours(X, Xe, cfg.k)
    rr = RandomizedResponse(4, 1.0).sample(Y, privacy)
    scores = {"RR": np.stack([np.bincount(rr[i], minlength=4) for i in idx]),
              "Vector": VectorMechanism(4, 1.0).sample(Y, privacy).astype(np.int64)[idx].sum(axis=1),
              vc.ASYMMETRIC: AsymmetricVectorMechanism(4, 1.0).sample(Y, privacy).astype(np.int64)[idx].sum(axis=1)}
    eta = law.posterior(Xe)
    for m, sc in scores.items():
        pred = np.argmax(sc + 0.5 * jitter, axis=1)
        assert a[f"acc_{m}"] == pytest.approx(eta[np.arange(cfg.M), pred].mean(), rel=1e-12), m


@pytest.mark.parametrize("kw,match", [(dict(num_classes=1), "num_classes"), (dict(epsilon=0.0), "epsilon"),
                                      (dict(k=300), "k must be <= N=200"), (dict(M=0), "M")])
def test_point_guards(kw, match):
    base = dict(num_classes=4, epsilon=1.0, k=5, N=200, M=30)
    base.update(kw)
    with pytest.raises(ValueError, match=match):
        vc.CrossoverPoint(**base)


def test_claims_read_the_largest_K_by_the_one_rule():
    prof = vc.Profile(trials=30, N=100, M=10, K_grid=(2, 10), epsilons=(1.0,))
    s = {(1.0, 10, f"{vc.VECTORS[0]}-RR"): (0.05, 0.01, 0.09), (1.0, 2, f"{vc.VECTORS[0]}-RR"): (-0.01, -0.02, 0.0),
         (1.0, 10, f"{vc.VECTORS[1]}-RR"): (-0.03, -0.05, -0.01),
         (1.0, 10, f"{vc.ASYMMETRIC}-Vector"): (0.0, -0.01, 0.01),
         (1.0, "crossover", vc.VECTORS[0]): 10, (1.0, "crossover", vc.VECTORS[1]): None}
    claims = vc._claims(s, prof)
    assert [c.holds for c in claims] == [True, False, None]
    assert all(c.kind == "beyond" for c in claims)
    assert "crossover K* = 10" in claims[0].detail and "no crossover in grid" in claims[1].detail


def test_smoke_run(smoke_run):
    import csv
    run = smoke_run("vector_crossover")
    rec = run.record
    assert rec["claims"] and all(c["kind"] == "beyond" for c in rec["claims"])
    with open(run.folder / "crossover.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 2 * len(vc.PROFILES["smoke"].epsilons)
    with open(run.folder / "differences.csv", newline="") as fh:
        diffs = list(csv.DictReader(fh))
    assert all(float(d["ci_low"]) <= float(d["difference"]) <= float(d["ci_high"]) for d in diffs)
    assert (run.folder / "difference.png").exists()


@pytest.mark.parametrize("eps", [0.5, 1.0, 4.0, 8.0])
def test_symmetric_choice_maximizes_the_boundary_efficiency(eps):
    # Among independent-bit mechanisms with P(Z(y)=1|y) = p, P(Z(j)=1|y) = q and loss ln[p(1-q)/(q(1-p))] = eps,
    # the efficiency (p-q)^2/(p+q-2pq) is invariant under (p, q) -> (1-q, 1-p) (which keeps the loss); on a fine
    # grid of p its maximum sits at that map's fixed point p = 1 - q, i.e. 000's a = e^{eps/2}/(1+e^{eps/2}),
    # and the asymmetric mechanism's p = 1/2 is below it.
    p = np.linspace(0.0005, 0.9995, 199801)
    odds = p / (1 - p) * math.exp(-eps)
    q = odds / (1 + odds)
    eff = (p - q) ** 2 / (p + q - 2 * p * q)
    a = math.exp(eps / 2) / (1 + math.exp(eps / 2))
    assert p[np.argmax(eff)] == pytest.approx(a, abs=1e-5)
    assert eff.max() == pytest.approx(vc.noise_to_signal(eps)["Vector boundary"], rel=1e-9)
    assert np.interp(0.5, p, eff) == pytest.approx(vc.noise_to_signal(eps)[f"{vc.ASYMMETRIC} boundary"], rel=1e-6)
    flipped = ((1 - q) - (1 - p)) ** 2 / ((1 - q) + (1 - p) - 2 * (1 - q) * (1 - p))
    np.testing.assert_allclose(flipped, eff, rtol=1e-12)
