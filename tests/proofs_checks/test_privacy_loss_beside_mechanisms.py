"""Each mechanism's own closed-form ``privacy_loss`` against an independent enumeration.

The closed forms live beside the mechanisms (``simulations.mechanisms``); the references here are
brute force: the largest log-ratio over every (y, y', output) of the exact channel, or over every
pair of neighbouring inputs enumerated by the verifiers of ``proofs_checks.mechanisms``.
"""

import numpy as np
import pytest

from proofs_checks.dp import max_privacy_loss
from proofs_checks.mechanisms.alibi import alibi_loss_brute_force
from proofs_checks.mechanisms.exponential import exponential_pairs
from proofs_checks.mechanisms.histograms import geometric_pairs, majority_distributions
from simulations.mechanisms import (ALIBI, ExponentialMechanism, GeometricHistogram, LaplaceLabels, NoisyBinMean,
                                    NoisyMajority, RandomizedResponse, RRTopK, RRWithPrior, VectorMechanism)

EPS = [1e-3, 0.3, 1.0, 4.0]
PRIOR = np.array([0.35, 0.25, 0.2, 0.15, 0.05])


def _rel(a, b):
    return abs(a - b) <= 1e-9 * max(1.0, abs(b))


@pytest.mark.parametrize("eps", EPS)
def test_label_randomizers_equal_their_channel_enumeration(eps):
    K = PRIOR.size
    cases = [(RandomizedResponse(K, eps).privacy_loss(), RandomizedResponse(K, eps).channel_matrix())]
    for k in range(1, K + 1):
        m = RRTopK(K, eps, k)
        cases.append((m.privacy_loss(PRIOR), m.channel_matrix(PRIOR)))
    m = RRWithPrior(K, eps)
    cases.append((m.privacy_loss(PRIOR), m.channel_matrix(PRIOR)))
    m = VectorMechanism(K, eps)
    cases.append((m.privacy_loss(), m.channel_matrix()))  # all 2^K outputs
    for closed, channel in cases:
        assert _rel(closed, max_privacy_loss(channel))


@pytest.mark.parametrize("eps", EPS)
def test_alibi_equals_the_pairwise_brute_force(eps):
    m = ALIBI(6, eps)
    assert _rel(m.privacy_loss(), alibi_loss_brute_force(m)[0])


@pytest.mark.parametrize("eps", EPS)
def test_laplace_supremum_is_approached_on_a_grid(eps):
    """sup_z ln f(z|T)/f(z|-T) is attained for z >= T: the mechanism's own density at z = T + 1."""
    m = LaplaceLabels(T=1.5, epsilon=eps)
    z = np.array([1.5 + 1.0])
    assert _rel(m.privacy_loss(), float(m.log_density(z, 1.5)[0] - m.log_density(z, -1.5)[0]))


def test_noisy_bin_mean_is_max_over_bins():
    m = NoisyBinMean(T=2.0, epsilon=0.7)
    np.testing.assert_allclose(m.bin_privacy_losses([1, 4, 9]), [0.7, 0.7, 0.7], rtol=1e-15)
    with pytest.raises(ValueError, match="counts must be >= 1"):
        m.bin_privacy_losses([0, 2])


@pytest.mark.parametrize("eps", EPS)
@pytest.mark.parametrize("n", [1, 2, 5])
def test_exponential_equals_enumeration(eps, n):
    m = ExponentialMechanism(3, eps)
    _, _, lp, lq = exponential_pairs(m, n)
    assert abs(m.privacy_loss(n) - float(np.max(np.abs(lp - lq)))) <= 1e-12 * max(1.0, float(np.max(np.abs(lp))))


@pytest.mark.parametrize("eps", EPS)
def test_noisy_majority_equals_enumeration(eps):
    m = NoisyMajority(eps)
    for sizes in [(1,), (1, 2), (2, 3)]:
        worst = max(float(np.max(np.abs(lp - lq))) for *_, lp, lq in majority_distributions(m, sizes))
        assert abs(m.privacy_loss(sizes) - worst) <= 1e-12 * max(1.0, worst)


@pytest.mark.parametrize("eps", EPS)
def test_geometric_equals_enumeration(eps):
    m = GeometricHistogram(eps)
    _, _, lp, lq = geometric_pairs(m, 3, 3)
    worst = float(np.max(np.abs(lp - lq)))
    assert abs(m.privacy_loss() - worst) <= 1e-12 * max(1.0, float(np.max(np.abs(lp[np.isfinite(lp)]))))
