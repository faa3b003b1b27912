"""000 Appendix B.2: the sigmoid/BCE network (:mod:`simulations.torch_path.mlp`) and ``vector_nn_approximation``.

Expected values: Bernoulli Kullback-Leibler divergences in closed form (000 eq. (38)-(42): the excess
conditional BCE of u over η̃), the kNN average with k = N (the column means of Z, the same at every x), and
η̃ = b + (a − b) η of 000 eq. (24) with a = e^{ε/2}/(1 + e^{ε/2}), b = 1/(1 + e^{ε/2}) written out here.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

pytest.importorskip("torch")

from simulations.engine import trial_streams  # noqa: E402
from simulations.experiments.vector.neural_network import NNPoint, bce_excess, nn_trial  # noqa: E402
from simulations.laws import CircleMixture  # noqa: E402
from simulations.mechanisms import VectorMechanism  # noqa: E402
from simulations.torch_path.mlp import MLPConfig, fit_sigmoid_mlp, sigmoid_outputs  # noqa: E402


def test_bce_excess_is_the_bernoulli_kl():
    p, q = 0.3, 0.6
    kl = p * math.log(p / q) + (1 - p) * math.log((1 - p) / (1 - q))  # 0.3 ln(1/2) + 0.7 ln(7/4) = −0.207944 + 0.391731
    got = bce_excess([[p, 0.5], [p, 0.5]], [[q, 0.5], [q, 0.5]])
    assert got == pytest.approx([kl, 0.0], abs=1e-15) and kl == pytest.approx(0.183787, abs=1e-6)


@pytest.mark.parametrize("p", [0.1, 0.38, 0.62])
def test_eta_tilde_minimizes_the_conditional_bce(p):
    # 000 eq. (42): E[l(u, Z)] = −p ln u − (1−p) ln(1−u) is minimized at u = p; the excess is KL(p || u) > 0
    u = np.linspace(0.01, 0.99, 99)
    risk = -p * np.log(u) - (1 - p) * np.log(1 - u)
    excess = bce_excess(np.full((99, 1), p), u[:, None])[0]
    assert u[np.argmin(risk)] == pytest.approx(p, abs=0.005)
    assert excess == pytest.approx(np.mean(risk - (-p * math.log(p) - (1 - p) * math.log(1 - p))), rel=1e-12)


def test_fit_is_seeded_and_picks_an_epoch_on_validation():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(300, 2))
    Z = (rng.random((300, 3)) < 0.3 + 0.4 * (X[:, :1] > 0)).astype(np.uint8)
    cfg = MLPConfig(hidden=8, max_epochs=4, batch_size=50)
    a, b = fit_sigmoid_mlp(X, Z, config=cfg, seed=7), fit_sigmoid_mlp(X, Z, config=cfg, seed=7)
    c = fit_sigmoid_mlp(X, Z, config=cfg, seed=8)
    assert np.array_equal(sigmoid_outputs(a, X), sigmoid_outputs(b, X))
    assert not np.array_equal(sigmoid_outputs(a, X), sigmoid_outputs(c, X))
    assert 1 <= a.best_epoch <= 4 and a.val_bce > 0


@pytest.mark.parametrize("bad", [np.full((10, 3), 2), np.zeros((10, 1)), np.zeros((9, 3))])
def test_fit_refuses_targets_that_are_not_bits(bad):
    with pytest.raises(ValueError, match="Z must be"):
        fit_sigmoid_mlp(np.zeros((10, 2)), bad, config=MLPConfig(max_epochs=1), seed=0)


def test_trial_delta_of_knn_with_k_equal_n():
    # k = N: g_j(x) = mean of Z_j over the whole sample at every x, so Δ(x) = max_j |Zbar_j − η̃_j(x)|
    cfg = NNPoint(num_classes=3, sigma=0.4, N=120, M=15, k=120, max_epochs=1, hidden=4, depth=1)
    data, privacy, evaluation = trial_streams(cfg, 0, 11)
    law = CircleMixture(3, 0.4)
    _, Y = law.sample(120, data)
    Z = VectorMechanism(3, 1.0).sample(Y, privacy)
    Xe, _ = law.sample(15, evaluation)
    e = math.exp(0.5)
    a, b = e / (1 + e), 1 / (1 + e)  # 000 eq. (12)-(13), ε/2 per bit
    eta_tilde = b + (a - b) * law.posterior(Xe)  # 000 eq. (24)
    expected = np.abs(Z.mean(axis=0) - eta_tilde).max(axis=1).mean()
    got = nn_trial(cfg, 0, 11)
    assert got["delta_knn"] == pytest.approx(expected, rel=1e-12)
    assert 0 < got["bce_nn"] and got["epoch"] == 1.0


def test_smoke_claims(smoke_run):
    rec = smoke_run("vector_nn_approximation").record
    kinds = [c["kind"] for c in rec["claims"]]
    assert kinds == ["paper"] * 3 + ["beyond"]  # smoke: K in (2, 5), N in (400, 800)
    growth = math.sqrt(math.log(2 * 5 / 0.05) / math.log(2 * 2 / 0.05))  # eq. (34)'s factor from K = 2 to 5
    assert [c["expected"] for c in rec["claims"]] == pytest.approx([1.0, growth, growth, 1.0], rel=1e-12)
