"""``delta_decaying``: the release threshold of 001 Algorithm 1 at δ = n^-a, the predicted release onset,
and the experiment's smoke outputs.

Expected values: Algorithm 1 line 7 evaluated in 60-digit arithmetic (mpmath) from ln(2/δ) = ln 2 + a ln n;
the quartiles of the normal (scipy) and Cauchy (tan(π/4) = 1) laws; hand-made interpolation examples.
"""

import math

import mpmath
import numpy as np
import pytest
from scipy import stats

from simulations.estimators.pcl2 import PCL2b
from simulations.experiments.consistency.delta_decay import (EDGE, QUARTER, SCHEDULES, crossing, delta_at,
                                                             half_mass_density, predicted_onset, threshold_closed_form)
from simulations.mechanisms import StabilityHistogram
from simulations.metric_spaces import LatticePacking


def algorithm1_threshold(epsilon, n, a):
    """001 Algorithm 1 line 7, (2/ε) log(2/δ) + 1 with δ = n^-a, at 60 digits (independent of the code)."""
    with mpmath.workdps(60):
        return (2 / mpmath.mpf(epsilon)) * (mpmath.log(2) + mpmath.mpf(a) * mpmath.log(n)) + 1


@pytest.mark.parametrize("a", [1.5, 2.0])
@pytest.mark.parametrize("epsilon", [0.5, 1.0])
def test_threshold_equals_algorithm_1_at_every_n(a, epsilon):
    for n in (10, 316, 10 ** 4, 31623, 10 ** 6, 3 * 10 ** 7):
        ref = algorithm1_threshold(epsilon, n, a)
        code = StabilityHistogram(epsilon, float(n) ** -a).threshold
        assert abs(code - float(ref)) <= 8 * 2.0 ** -52 * float(ref)
        assert threshold_closed_form(n, a, epsilon) == pytest.approx(float(ref), rel=1e-15)
    # grows like (2a/ε) ln n: squaring n adds exactly (2a/ε) ln n
    with mpmath.workdps(60):
        step = algorithm1_threshold(epsilon, 10 ** 8, a) - algorithm1_threshold(epsilon, 10 ** 4, a)
        assert float(step) == pytest.approx(2 * a / epsilon * math.log(10 ** 4), rel=1e-14)


def test_fixed_delta_threshold_and_pcl2b_histograms():
    assert delta_at(10 ** 4, None) == 1e-6 and delta_at(10 ** 4, 1.5) == pytest.approx(1e-6, rel=1e-15)
    assert threshold_closed_form(123, None) == pytest.approx(2 * math.log(2e6) + 1, rel=1e-15)
    # PCL2b at (ε/2, δ/2) per histogram: the mechanism it builds has threshold (4/ε) ln(4/δ) + 1
    est = PCL2b(space=LatticePacking(1, 0.5), epsilon=0.5, delta=0.5e-6)
    est.set_params(random_state=0).fit(np.array([[0.0], [0.1]]), np.array([0, 1]))
    assert StabilityHistogram(est.epsilon, est.delta).threshold == pytest.approx(4 * math.log(4e6) + 1, rel=1e-15)
    assert [name for name, _ in SCHEDULES] == ["fixed", "a1.5", "a2", "edge", "quarter"]


def test_edge_schedule_inside_theorem_1_7_never_releases_a_cube():
    """δ = 2^(-√n/2) is ω(2^-√n), yet Algorithm 1's threshold (ε = 1) is 2 ln 2 + √n ln 2 + 1 > √n f for every
    n when f < ln 2: no cube of the standard normal (f <= 1/√(2π)) is expected to reach it."""
    for n in (10 ** 3, 10 ** 5, 3 * 10 ** 6):
        assert delta_at(n, EDGE) == pytest.approx(2.0 ** (-math.sqrt(n) / 2), rel=1e-15)
        with mpmath.workdps(60):
            ref = 2 * (mpmath.log(2) + mpmath.sqrt(n) / 2 * mpmath.log(2)) + 1
        assert StabilityHistogram(1.0, delta_at(n, EDGE)).threshold == pytest.approx(float(ref), rel=1e-13)
        assert threshold_closed_form(n, EDGE) == pytest.approx(float(ref), rel=1e-15)
        assert math.sqrt(n) / math.sqrt(2 * math.pi) < float(ref)
    assert predicted_onset("normal", EDGE) == math.inf and predicted_onset("cauchy", EDGE) == math.inf


def test_quarter_schedule_is_theorem_a13s_and_pcl2b_cells_outgrow_its_threshold():
    """δ = 2^(-n^(1/4)/2) is ω(2^-n^(1/4)) (001 Theorem A.13); PCL2b's two histograms (ε/2, δ/2) then have threshold
    4 (ln 4 + (n^(1/4)/2) ln 2) + 1, far below the n^(3/4) f points of a cell of side n^(-1/4) where f = φ(0)."""
    for n in (10 ** 4, 10 ** 6, 10 ** 8):
        assert delta_at(n, QUARTER) == pytest.approx(2.0 ** (-(n ** 0.25) / 2), rel=1e-14)
        with mpmath.workdps(60):
            ref = 4 * (mpmath.log(4) + mpmath.root(n, 4) / 2 * mpmath.log(2)) + 1
        assert threshold_closed_form(n, QUARTER, epsilon=0.5, delta_factor=0.5) == pytest.approx(float(ref), rel=1e-15)
        assert StabilityHistogram(0.5, delta_at(n, QUARTER) / 2).threshold == pytest.approx(float(ref), rel=1e-13)
        assert float(ref) < 0.1 * n ** 0.75 / math.sqrt(2 * math.pi)


def test_half_mass_density_and_predicted_onset():
    q = stats.norm.ppf(0.75)
    assert half_mass_density("normal") == pytest.approx(stats.norm.pdf(q), rel=1e-14)
    assert 2 * stats.norm.cdf(q) - 1 == pytest.approx(0.5)  # {g >= f_½} = [-q, q] has mass ½
    assert half_mass_density("cauchy") == pytest.approx(1 / (2 * math.pi), rel=1e-14)
    f = half_mass_density("normal")
    tau = 2 * math.log(2e6) + 1
    assert predicted_onset("normal", None) == pytest.approx((tau / f) ** 2, rel=1e-9)
    for a in (1.5, 2.0):  # the fixed point √n f_½ = (2/ε)(ln 2 + a ln n) + 1
        n = predicted_onset("cauchy", a)
        assert math.sqrt(n) * half_mass_density("cauchy") == pytest.approx(2 * (math.log(2) + a * math.log(n)) + 1,
                                                                           rel=1e-9)
    assert predicted_onset("normal", 2.0) > predicted_onset("normal", 1.5)


def test_crossing_interpolates_the_first_passage():
    x = np.array([2.0, 2.5, 3.0, 3.5])
    assert crossing(x, np.array([0.0, 0.2, 0.6, 0.4])) == pytest.approx(2.5 + 0.5 * 0.3 / 0.4)
    assert crossing(x, np.array([0.7, 0.8, 0.9, 1.0])) == 2.0
    assert math.isnan(crossing(x, np.array([0.0, 0.1, 0.2, 0.3])))


def test_smoke_claims_well_formed(smoke_run):
    run = smoke_run("delta_decaying")
    claims = run.record["claims"]
    assert len(claims) == 15 + 1 + 2  # consistency (3 targets × 5 schedules), threshold, onset (2 laws)
    for c in claims:
        assert c["verdict"] in ("holds", "fails", "inconclusive")
        assert c["holds"] is None if c["verdict"] == "inconclusive" else c["holds"] == (c["verdict"] == "holds")
    # PCL2b (last target): the edge δ = 2^(-√n/2) is footnote 3's range, outside Theorem A.13's (an erratum); the
    # quarter δ = 2^(-n^(1/4)/2) is Theorem A.13's own (paper)
    assert [c["kind"] for c in claims[10:15]] == ["paper", "paper", "paper", "erratum", "paper"]
    assert claims[13]["finding"] == "001 thmA13 delta range" and "Theorem A.13" in claims[14]["claim"]
    threshold = claims[15]
    assert "threshold" in threshold["claim"] and threshold["holds"] is True  # exact arithmetic: any seed
    assert threshold["measured"] <= 8 * 2.0 ** -52
    header = (run.folder / "decay_vs_n.csv").read_text().splitlines()[0]
    assert header == "target,n,schedule,delta,threshold,trials,mean,ci_low,ci_high,released_fraction"
    assert (run.folder / "decay_vs_n.png").exists()
