"""Privacy of the four methods of 000 Section 5.1 (RR, LP-2ST, ALIBI, vector approximation), each
through its exact channel in ``check_label_dp``; LP-2ST also as a whole: the joint law of all the
privatized labels of a small dataset, enumerated exactly, changing one label at a time."""

import itertools

import numpy as np
import pytest

from proofs_checks import check_label_dp, is_tight
from simulations.estimators import private_knn as pk
from simulations.laws import CircleMixture
from simulations.mechanisms import ALIBI, RandomizedResponse, RRWithPrior, VectorMechanism

EPS = [0.5, 1.0, 2.0]


@pytest.mark.parametrize("eps", EPS)
@pytest.mark.parametrize("K", [2, 10, 100])
def test_rr_vector_alibi_channels(K, eps):
    for mech in (RandomizedResponse(K, eps), VectorMechanism(K, eps), ALIBI(K, eps)):
        res = check_label_dp(mech, eps)
        assert res.holds and is_tight(res.epsilon_actual, eps), (type(mech).__name__, res.explanation)


@pytest.mark.parametrize("eps", [1.0, 2.0])
def test_lp2st_stage2_priors_from_a_trial(eps):
    """Stage 2 is RRWithPrior with the priors the experiment computes; they depend on the stage-1
    noisy labels and the features only (changing every stage-2 label leaves them unchanged)."""
    K, N, prior_k = 10, 600, 30
    law = CircleMixture(K, 0.1)
    X, Y = law.sample(N, np.random.default_rng(0))
    n1 = pk.stage1_size(N, 0.6)
    rr = RandomizedResponse(K, eps).sample(Y, np.random.default_rng(1))
    kw = dict(num_classes=K, epsilon=eps, prior_k=prior_k, temperature=0.5)
    priors = pk.lp2st_prior(X[:n1], rr[:n1], X[n1:], **kw)
    # the prior function never sees Y[n1:]: privatize with other stage-2 labels, same streams
    Y2 = Y.copy()
    Y2[n1:] = (Y[n1:] + 3) % K
    a = pk.privatize(X, Y, np.random.default_rng(1), split_fraction=0.6, **kw)
    b = pk.privatize(X, Y2, np.random.default_rng(1), split_fraction=0.6, **kw)
    np.testing.assert_array_equal(a.lp2st[:n1], b.lp2st[:n1])  # stage 1 unaffected
    np.testing.assert_array_equal(a.rr[:n1], rr[:n1])
    res = check_label_dp(RRWithPrior(K, eps), eps, priors=list(priors[:150]))
    assert res.holds, res.explanation


def _lp2st_joint(y, K, eps, temperature, leak=False):
    """P(z_1, z_2, z_3 | y) of LP-2ST on 3 points: point 1 in stage 1 (RR); points 2, 3 in stage 2 with
    prior_k = 1, so both priors come from z_1. ``leak``: a planted bug that mixes the true stage-2
    label into its prior."""
    rr = RandomizedResponse(K, eps).channel_matrix()
    rwp = RRWithPrior(K, eps)
    P = np.zeros((K,) * 3)
    for z1 in range(K):
        counts = np.zeros((1, K))
        counts[0, z1] = 1
        prior = pk.lp2st_prior_from_counts(counts, epsilon=eps, temperature=temperature)[0]
        rows = []
        for yi in (y[1], y[2]):
            p = prior
            if leak:
                p = 0.5 * prior + 0.5 * np.eye(K)[yi]
            rows.append(rwp.channel_matrix(p)[yi])
        P[z1] = rr[y[0], z1] * np.outer(rows[0], rows[1])
    return P.ravel()


@pytest.mark.parametrize("eps,temperature", [(1.0, 0.5), (2.0, 1.0), (0.5, 0.25)])
def test_lp2st_whole_mechanism_exact(eps, temperature):
    K = 3
    worst = 0.0
    for i in range(3):
        for others in itertools.product(range(K), repeat=2):
            rows = []
            for yi in range(K):
                y = list(others)
                y.insert(i, yi)
                rows.append(_lp2st_joint(y, K, eps, temperature))
            res = check_label_dp(np.array(rows), eps)
            assert res.holds, res.explanation
            worst = max(worst, res.epsilon_actual)
    assert is_tight(worst, eps)  # RR at stage 1 attains e^ε


def test_lp2st_planted_leak_is_caught():
    K, eps = 3, 1.0
    rows = [_lp2st_joint([0, yi, 0], K, eps, 0.5, leak=True) for yi in range(K)]
    res = check_label_dp(np.array(rows), eps)
    assert not res.holds and res.epsilon_actual > eps + 0.1
