"""Trial functions of bayes_consistency and thresholds_contrast (expected values derived in the comments)."""

import numpy as np
import pytest

from simulations.experiments.consistency.bayes_consistency import ConsistencyPoint, consistency_trial, make_law
from simulations.experiments.consistency.thresholds_contrast import ThresholdPoint, erm_threshold, threshold_trial


def test_consistency_trial_bounds_and_determinism():
    cfg = ConsistencyPoint("step", 2, 3000)
    a, b = consistency_trial(cfg, 0, 7), consistency_trial(cfg, 0, 7)
    assert a == b  # a pure function of (config, trial, seed)
    total = 0.7  # ∫ |2η − 1| for the step law (η ∈ {0.15, 0.85})
    for k, v in a.items():
        assert 0.0 <= v <= total + 1e-12, k
    assert a["excess_histogram"] == a["excess_avg_histogram"]  # no noise: the average is the value
    assert consistency_trial(cfg, 1, 7) != a


def test_make_law_rejects_unknown():
    with pytest.raises(ValueError, match="law='wavy'"):
        make_law("wavy", 1)


def test_threshold_trial_concentrated_member_has_excess_half():
    # w = 1e-6 << r = n^{-1/2} = 0.1: the support lies inside one cube (t = 0.5123 is 0.0123 from the edge 0.5),
    # half of the labels are 1, so any constant on that cube errs on half the mass: excess exactly 1/2
    out = threshold_trial(ThresholdPoint(0.5123, 1e-6, 100), 0, 3)
    # (abs 1e-9: the overlap lengths of a 1e-6 interval at 0.5 carry ~1e-17 absolute rounding)
    assert out["pcl_eps1"] == pytest.approx(0.5, abs=1e-9) and out["histogram"] == pytest.approx(0.5, abs=1e-9)
    assert out["erm"] < 0.1  # ERM: the gap between the classes holds ~1/(n+1) of the mass


def test_threshold_trial_wide_member_is_learned():
    # w = 0.2 >> r = 1e-2 (n = 1e4): only the cube holding t can err, mass <= r/(2w) = 0.025
    out = threshold_trial(ThresholdPoint(0.5, 0.2, 10_000), 0, 3)
    assert out["pcl_eps1"] <= 0.025 + 1e-12 and out["histogram"] <= 0.025 + 1e-12


def test_erm_threshold():
    x = np.array([0.1, 0.2, 0.6, 0.9])
    y = np.array([0, 0, 1, 1])
    assert erm_threshold(x, y, 0.0, 1.0) == pytest.approx(0.4)
    assert erm_threshold(x, np.zeros(4, int), 0.0, 1.0) == pytest.approx(0.95)


@pytest.mark.parametrize("law, d, n", [("smooth", 1, 500), ("step", 2, 3000), ("rough", 3, 2000)])
def test_fitted_rules_are_the_plain_fits(law, d, n):
    """issue 20: the votes are counted once for the three rules; each rule must be the classifier that
    ``PCL(epsilon=eps, random_state=privacy).fit(X, y)`` in the order of RULES gives (same attributes, same bits)."""
    from simulations.estimators.pcl import PCL
    from simulations.experiments.consistency.bayes_consistency import RULES, fitted_rules

    X, y = make_law(law, d).sample(n, np.random.default_rng(1))
    shared = fitted_rules(X, y, np.random.default_rng(2))
    rng = np.random.default_rng(2)
    plain = [(name, PCL(epsilon=eps, random_state=rng).fit(X, y)) for name, eps in RULES]
    assert [name for name, _ in shared] == [name for name, _ in plain]
    for (_, a), (_, b) in zip(shared, plain):
        va, vb = vars(a), vars(b)
        assert va.keys() == vb.keys()
        for key in va:
            if key == "random_state":  # the Generator objects differ; the key each one drew is noise_key_
                continue
            if isinstance(va[key], np.ndarray):
                np.testing.assert_array_equal(va[key], vb[key])
            else:
                assert va[key] == vb[key], key
        np.testing.assert_array_equal(a.all_bits(), b.all_bits())


def test_each_curve_bootstraps_from_its_own_stream(monkeypatch):
    """issue 21: every curve's slope bootstrap used rng=ctx.seed, one stream for all 27 curves. Each must
    draw from the EVAL stream keyed by its own (law, d, rule), so the keys are distinct and name the curve."""
    import simulations.experiments.consistency.bayes_consistency as bc
    from simulations.experiments import RunContext
    from simulations.seeding import EVAL, stable_key

    seen = []
    real_fit = bc.fit_loglog_slope

    def spy(N, values, *, rng, **kw):
        seen.append(rng.bit_generator.seed_seq)
        return real_fit(N, values, rng=rng, **kw)

    monkeypatch.setattr(bc, "fit_loglog_slope", spy)
    ctx = RunContext(profile="smoke", progress=False, seed=5)
    bc.compute(ctx)
    curves = [(law, d, rule) for law in bc.LAWS for d in (1, 2, 3) for rule, _ in bc.RULES]
    keys = [ss.spawn_key for ss in seen]
    assert len(seen) >= 20 and all(ss.entropy == 5 for ss in seen)
    assert len(set(keys)) == len(keys)  # no two curves share a stream
    expected = {(stable_key(bc.curve_key(*c)), 0, EVAL) for c in curves}
    assert set(keys) <= expected
    assert len({bc.curve_key(*c) for c in curves}) == 27
