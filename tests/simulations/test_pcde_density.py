"""PCDE (001 Algorithm 3) and the exact L1 distance; references: scipy adaptive quadrature (quad / dblquad),
a brute-force Python count of cubes, and Algorithm 1's definition."""

import numpy as np
import pytest
from scipy import integrate

from simulations.estimators.pcde import PCDE, occupied_cubes
from simulations.laws.densities import ProductDensity
from simulations.mechanisms import StabilityHistogram


@pytest.mark.parametrize("kind", ["normal", "cauchy"])
@pytest.mark.parametrize("d", [1, 2])
def test_l1_cubes_against_adaptive_quadrature(kind, d):
    law = ProductDensity(d, kind)
    lo = np.array([[-0.3] * d, [0.2] * d, [1.7] * d, [-2.0] * d, [3.0] * d])
    hi = lo + 0.45
    if d == 2:
        lo[0, 1], hi[0, 1] = -1.0, 0.3
    v = np.array([0.05, 0.1, 0.02, 0.3, 1e-4])  # crossing and non-crossing levels
    exact = law.l1_cubes(lo, hi, v)
    for j in range(len(v)):
        if d == 1:
            ref = integrate.quad(lambda x: abs(law.g(x) - v[j]), lo[j, 0], hi[j, 0], limit=200, epsabs=1e-13)[0]
        else:
            ref = integrate.dblquad(lambda y, x: abs(law.g(x) * law.g(y) - v[j]), lo[j, 0], hi[j, 0], lo[j, 1],
                                    hi[j, 1], epsabs=1e-12, epsrel=1e-12)[0]
        assert exact[j] == pytest.approx(ref, abs=1e-8)


def test_l1_distance_of_an_estimate_against_quadrature_1d():
    law = ProductDensity(1, "cauchy")
    X = law.sample(2000, np.random.default_rng(0))
    est = PCDE(epsilon=None, side=0.4).fit(X)
    lo, hi = est.cube_bounds()
    # brute force: ∫ |f − f̂| over the union of the cubes (quad per cube) + the mass outside them
    inside = sum(integrate.quad(lambda x: abs(law.g(x) - v), a, b, epsabs=1e-13)[0]
                 for a, b, v in zip(lo[:, 0], hi[:, 0], est.values_))
    outside = 1 - sum(integrate.quad(law.g, a, b, epsabs=1e-14)[0] for a, b in zip(lo[:, 0], hi[:, 0]))
    assert est.l1_distance(law) == pytest.approx(inside + outside, abs=1e-9)
    assert est.total_mass_ == pytest.approx(1.0)  # the non-private histogram integrates to 1


def test_occupied_cubes_against_python_count():
    rng = np.random.default_rng(3)
    X = rng.standard_cauchy((500, 2)) * 3
    cells, counts = occupied_cubes(X, 0.7)
    ref = {}
    for x in X:
        k = tuple(int(np.floor(c / 0.7)) for c in x)
        ref[k] = ref.get(k, 0) + 1
    assert {tuple(c): int(n) for c, n in zip(cells.tolist(), counts)} == ref
    assert (np.diff(cells[:, 0]) >= 0).all()


def test_release_rule_and_normalization():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((20000, 1))
    est = PCDE(epsilon=1.0, delta=1e-6, random_state=rng).fit(X)
    tau = StabilityHistogram(1.0, 1e-6).threshold
    assert np.all(est.values_ * est.n_ * est.side_ >= tau)  # released counts reach the threshold
    norm = PCDE(epsilon=1.0, delta=1e-6, normalize=True, random_state=np.random.default_rng(1)).fit(X)
    assert norm.total_mass_ == pytest.approx(1.0)
    q = est.density(np.array([[0.0], [100.0]]))
    assert q[1] == 0.0 and q[0] > 0


def test_bad_input():
    X = np.zeros((3, 1))
    with pytest.raises(ValueError, match="epsilon=0"):
        PCDE(epsilon=0.0, random_state=0).fit(X)
    with pytest.raises(ValueError, match="delta=1.0"):
        PCDE(delta=1.0, random_state=0).fit(X)
    with pytest.raises(ValueError, match="delta"):
        PCDE(delta=0.0, random_state=0).fit(X)
    with pytest.raises(ValueError, match="NaN"):
        PCDE(random_state=0).fit(np.array([[0.1], [np.nan]]))
    with pytest.raises(ValueError, match="n=0"):
        PCDE(random_state=0).fit(np.zeros((0, 2)))
    with pytest.raises(ValueError, match="d=3"):
        ProductDensity(3)


def test_renormalized_same_release_at_most_doubles_l1():
    # ‖f − f̂/m‖ <= ‖f − f̂‖ + |m − 1| <= 2‖f − f̂‖ (m = ∫ f̂, |m − 1| = |∫ (f̂ − f)|): Remark 4.1's footnote
    law = ProductDensity(2, "cauchy")
    rng = np.random.default_rng(4)
    est = PCDE(epsilon=1.0, delta=1e-6, random_state=rng).fit(law.sample(30000, rng))
    ren = est.renormalized()
    assert ren.total_mass_ == pytest.approx(1.0)
    assert np.array_equal(ren.cells_, est.cells_)
    assert ren.l1_distance(law) <= 2 * est.l1_distance(law) + 1e-12


def test_release_onset():
    from simulations.experiments.consistency.density_estimation import release_onset
    tau = 2 * np.log(2e6) + 1  # (2/ε) ln(2/δ) + 1 at ε = 1, δ = 1e-6
    assert release_onset(1.0, 1e-6, 0.25) == pytest.approx((tau / 0.25) ** 2)
