"""Issue 13: check_label_dp on a user's own randomizer (array-like channel, prior -> channel, object with
channel_matrix(prior), black-box sampler), utility_gap, the published rr_with_prior k rule, and the
exact checks at extreme ε against mpmath."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import mpmath as mp
import numpy as np
import pytest

from proofs_checks import check_label_dp, max_privacy_loss, privacy_profile, utility_gap
from proofs_checks.audit import sample_size_for_power
from proofs_checks.experiments.third_party_audit import (PROFILES, PublishedRRWithPrior, published_always_top1,
                                                         published_k, published_loss_bound)
from simulations.mechanisms import (ALIBI, ExponentialMechanism, GeometricHistogram, LaplaceLabels, NoisyMajority,
                                    RandomizedResponse, RRTopK, RRWithPrior, VectorMechanism)


@pytest.fixture(autouse=True)
def _mp_60_digits():
    """The mpmath references below work at 60 digits. Set per test, not at import: mpmath's precision
    is process-global, and set at import (during collection) it held for every test of the process
    that did not set its own, so that precision depended on which files were collected
    (test_proof_steps.py::test_eq61_threshold_by_mpmath took 4-7 s at 60 digits, 0.3-0.7 s at 15)."""
    with mp.workdps(60):
        yield


EXTREME = [1e-8, 50.0, 60.0, 80.0, 300.0]


# ---------------------------------------------------------------- exact references in mpmath

def mp_max_log_ratio(P):
    best = mp.mpf(0)
    for z in range(len(P[0])):
        col = [row[z] for row in P]
        if max(col) > 0:
            best = max(best, mp.log(max(col) / min(col)) if min(col) > 0 else mp.inf)
    return best


def mp_rr_top_k(K, k, eps, top):
    E = mp.e ** mp.mpf(eps)
    keep, other = E / (E + k - 1), 1 / (E + k - 1)
    top = set(top)

    def entry(y, z):
        if z not in top:
            return mp.mpf(0)
        if y in top:
            return keep if z == y else other
        return mp.mpf(1) / k

    return [[entry(y, z) for z in range(K)] for y in range(K)]


def mp_vector_loss(eps):
    R = mp.e ** (mp.mpf(eps) / 2)
    a, b = R / (1 + R), 1 / (1 + R)  # 1 - a = b and 1 - b = a, written out (no cancellation)
    one_bit = max(mp.log(a / b), mp.log((1 / (1 + R)) / (R / (1 + R))))
    return 2 * one_bit  # bits y and y' (000 eq. (12)-(14)), derived per bit in 60 digits


def mp_vector_channel(K, eps):
    R = mp.e ** (mp.mpf(eps) / 2)
    a, b = R / (1 + R), 1 / (1 + R)  # P(Z(j)=1 | y) = a if j == y else b; P(Z(j)=0 | y) = b if j == y else a
    return [[mp.fprod((a if j == y else b) if (c >> j) & 1 else (b if j == y else a) for j in range(K))
             for c in range(2 ** K)] for y in range(K)]


def mp_exponential_loss(eps, n, K):
    s = mp.mpf(eps) / 2
    best = mp.mpf(0)
    for counts in itertools.product(range(n + 1), repeat=K):
        if sum(counts) != n:
            continue
        for a, b in itertools.permutations(range(K), 2):
            if counts[a] == 0:
                continue
            moved = list(counts)
            moved[a] -= 1
            moved[b] += 1
            za = mp.fsum(mp.e ** (s * c) for c in counts)
            zb = mp.fsum(mp.e ** (s * c) for c in moved)
            for j in range(K):
                best = max(best, abs(s * counts[j] - mp.log(za) - s * moved[j] + mp.log(zb)))
    return best


PRIOR5 = [0.3, 0.25, 0.2, 0.15, 0.1]


def cases(eps):
    yield "RR K=3", RandomizedResponse(3, eps), {}, mp_max_log_ratio(mp_rr_top_k(3, 3, eps, range(3)))
    yield "RR K=10", RandomizedResponse(10, eps), {}, mp_max_log_ratio(mp_rr_top_k(10, 10, eps, range(10)))
    yield "RRTopK k=3", RRTopK(5, eps, 3), {"prior": PRIOR5}, mp_max_log_ratio(mp_rr_top_k(5, 3, eps, [0, 1, 2]))
    yield "RRWithPrior uniform", RRWithPrior(5, eps), {"prior": [0.2] * 5}, \
        mp_max_log_ratio(mp_rr_top_k(5, 5, eps, range(5)))  # k* = 5 on the uniform prior
    yield "vector K=3", VectorMechanism(3, eps), {}, mp_max_log_ratio(mp_vector_channel(3, eps))
    yield "vector K=20", VectorMechanism(20, eps), {}, mp_vector_loss(eps)
    yield "ALIBI K=4", ALIBI(4, eps), {}, 2 / (mp.mpf(2) / mp.mpf(eps))  # L1 sensitivity 2 / scale 2/ε
    yield "Laplace labels", LaplaceLabels(1.0, eps), {}, 2 / (2 / mp.mpf(eps))  # label range 2T / scale 2T/ε
    yield "exponential n=3", ExponentialMechanism(3, eps), {"bin_size": 3}, mp_exponential_loss(eps, 3, 3)
    yield "geometric histogram", GeometricHistogram(eps), {"dataset_size": 2, "num_classes": 2}, mp.mpf(eps)
    yield "noisy majority", NoisyMajority(eps), {"sizes": (1, 2)}, mp.mpf(eps)  # a 2-point cube: exactly 1/b


@pytest.mark.parametrize("eps", EXTREME)
def test_exact_checks_at_extreme_epsilon(eps):
    # VectorMechanism reported 49.999996 at ε = 50, 60.001 at 60 and inf at 80 before.
    for name, mech, kw, expected in cases(eps):
        res = check_label_dp(mech, eps, **kw)
        assert res.epsilon_actual == pytest.approx(float(expected), rel=1e-9), (name, res.epsilon_actual, expected)
        if name != "exponential n=3":  # its worst case is below ε (003 eq. (17)), the others are tight
            assert res.holds, name


# ---------------------------------------------------------------- user-written randomizers


def test_channel_as_nested_list_or_tuple():
    P = [[0.75, 0.25], [0.25, 0.75]]  # loss ln 3
    for channel in (P, tuple(map(tuple, P)), np.array(P)):
        res = check_label_dp(channel, math.log(3))
        assert res.holds and res.epsilon_actual == pytest.approx(math.log(3), rel=1e-15)
        assert max_privacy_loss(channel) == pytest.approx(math.log(3), rel=1e-15)
    assert not check_label_dp(P, 1.0).holds


def prior_switching(prior):
    """A prior-dependent randomizer: RR at ε = 2 when the prior is nearly a point mass, else at ε = 1."""
    p = np.asarray(prior)
    return RandomizedResponse(p.size, 2.0 if p.max() > 0.9 else 1.0).channel_matrix()


def test_callable_prior_to_channel_worst_prior_reported():
    res = check_label_dp(prior_switching, 1.0, kind="prior_channel", num_classes=4)
    assert not res.holds and res.epsilon_actual == pytest.approx(2.0, rel=1e-12)
    assert max(res.witness["prior"]) > 0.9  # the drawn point masses found it
    assert "drawn priors" in res.explanation
    res = check_label_dp(prior_switching, 1.0, kind="prior_channel", priors=[[0.25] * 4, [0.4, 0.3, 0.2, 0.1]])
    assert res.holds and res.epsilon_actual == pytest.approx(1.0, rel=1e-12)


def test_object_with_channel_matrix_of_prior():
    class MyRRWithPrior:
        num_classes = 5

        def channel_matrix(self, prior):
            return RRWithPrior(5, 1.5).channel_matrix(prior)

    res = check_label_dp(MyRRWithPrior(), 1.5, kind="prior_channel")
    assert res.holds and res.epsilon_actual == pytest.approx(1.5, rel=1e-12)
    assert max_privacy_loss(MyRRWithPrior(), kind="prior_channel") == pytest.approx(1.5, rel=1e-12)
    prof = privacy_profile(MyRRWithPrior(), [0.0, 1.5])
    assert prof[1] == pytest.approx(0.0, abs=1e-15) and prof[0] > 0


def test_privacy_profile_of_a_channel_hand_derived():
    # rows (3/4, 1/4), (1/4, 3/4): δ(ε') = 3/4 - e^{ε'}/4 for ε' <= ln 3
    prof = privacy_profile([[0.75, 0.25], [0.25, 0.75]], [0.0, 0.5, math.log(3)])
    np.testing.assert_allclose(prof, [0.5, 0.75 - math.exp(0.5) / 4, 0.0], atol=1e-15)


def rr_sampler(eps, K=3):
    mech = RandomizedResponse(K, eps)
    return lambda labels, rng: mech.sample(labels, rng)


def test_black_box_sampler_is_audited_statistically():
    res = check_label_dp(rr_sampler(1.0), 1.0, kind="sampler", num_classes=3)
    assert not res.exact and res.holds and "not exact" in res.explanation and "statistical" in str(res)
    # a sampler at ε = 3 claimed ε = 1: flagged (lower confidence bound above 1, confidence 0.95)
    bad = check_label_dp(rr_sampler(3.0), 1.0, kind="sampler", num_classes=3)
    assert not bad.exact and not bad.holds and 1.0 < bad.epsilon_actual <= 3.0
    with pytest.raises(ValueError, match="no exact privacy loss"):
        max_privacy_loss(rr_sampler(1.0), kind="sampler", num_classes=3)


def test_sample_size_reaches_the_stated_power():
    # RR at ε' = 2 claimed ε = 1: with the computed n, >= 80% of audits flag it. 100 seeds:
    # P(Bin(100, 0.8) < 65) < 1e-4.
    K, alpha = 3, 0.05 / (2 * 3 * 3)
    n = sample_size_for_power(1.0, 2.0, K, alpha, 0.8)
    assert n < sample_size_for_power(1.0, 2.0, K, alpha, 0.95)
    flagged = sum(not check_label_dp(rr_sampler(2.0), 1.0, kind="sampler", num_classes=3, n=n, rng=s).holds for s in range(100))
    assert flagged >= 65


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize("bad, match", [
    ([[1.2, -0.2], [0.5, 0.5]], "non-negative"), ([[0.5, 0.5 + 1e-11], [0.5, 0.5]], "sum to 1"),
    ([[np.nan, 1.0], [0.5, 0.5]], "NaN"),
])
def test_bad_channels(bad, match):
    with pytest.raises(ValueError, match=f"channel.*{match}"):
        check_label_dp(bad, 1.0)


def test_bad_rows_and_callables_and_samplers():
    with pytest.raises(ValueError, match=r"channel must have one row per label \(3 rows\)"):
        check_label_dp([[0.5, 0.5], [0.5, 0.5]], 1.0, num_classes=3)
    with pytest.raises(ValueError, match=r"mechanism\(prior\) for prior #0 must have one row per label"):
        check_label_dp(lambda p: np.full((len(p) + 1, 2), 0.5), 1.0, kind="prior_channel", num_classes=3)
    with pytest.raises(ValueError, match=r"mechanism\(prior\).*2-D"):
        check_label_dp(lambda p: np.full(3, 1 / 3), 1.0, kind="prior_channel", num_classes=3)
    with pytest.raises(ValueError, match=r"sampler returned outputs outside the output space \[0, 3\)"):
        check_label_dp(lambda labels, rng: labels + 1, 1.0, kind="sampler", num_classes=3, n=50)
    with pytest.raises(ValueError, match=r"sampler must return one output per label"):
        check_label_dp(lambda labels, rng: labels[:-1], 1.0, kind="sampler", num_classes=3, n=50)
    with pytest.raises(ValueError, match="num_classes is needed"):
        check_label_dp(prior_switching, 1.0, kind="prior_channel")
    with pytest.raises(TypeError, match="prio"):
        check_label_dp(prior_switching, 1.0, kind="prior_channel", num_classes=3, prio=[1, 0, 0])


# ---------------------------------------------------------------- utility_gap


def test_utility_gap_hand_values():
    p = np.array([0.5, 0.3, 0.2])
    eps = math.log(3)  # e^ε = 3: w_1 = 1/2, w_2 = 3/4 * 0.8 = 0.6, w_3 = 3/5: optimum 0.6 (k* = 2)
    g = utility_gap(RRWithPrior(3, eps), p, eps)
    assert g.optimum == pytest.approx(0.6, rel=1e-14) and abs(g.gap) < 1e-14 and g.private and g.k_star == 2
    g = utility_gap(RandomizedResponse(3, eps), p, eps)  # RR keeps w.p. 3/5 whatever the prior
    assert g.accuracy == pytest.approx(0.6, rel=1e-14) and abs(g.gap) < 1e-14
    g = utility_gap(lambda q: RRTopK(3, eps, 1).channel_matrix(q), p, eps)  # always the top label: 1/2
    assert g.accuracy == pytest.approx(0.5, rel=1e-14) and g.gap == pytest.approx(0.1, rel=1e-12)
    g = utility_gap(np.eye(3), p, eps)  # not private: accuracy 1 beats the ε-DP optimum
    assert not g.private and g.gap == pytest.approx(-0.4, rel=1e-12)
    with pytest.raises(ValueError, match="must output labels"):
        utility_gap(np.full((3, 2), 0.5), p, eps)


# ---------------------------------------------------------------- the published k rule


def test_published_rule_hand_example():
    # K = 2, e^ε = 3, p = (0.7, 0.3): 004 scores 0.7 and 1/(1 + 1/3) = 0.75 (k* = 2); the published rule
    # scores 0.7 / (1 - 1/3) = 1.05 and 1 / (1 + 0) = 1 and picks 1: accuracy 0.7, a loss of 0.05.
    eps = math.log(3)
    assert published_k([0.7, 0.3], eps) == 1
    g = utility_gap(PublishedRRWithPrior(2, eps), [0.7, 0.3], eps)
    assert g.accuracy == pytest.approx(float(Fraction(7, 10)), rel=1e-14)
    assert g.gap == pytest.approx(float(Fraction(3, 4) - Fraction(7, 10)), rel=1e-12)
    assert g.relative_gap <= published_loss_bound(2, eps)
    assert published_k([0.6, 0.4], eps) == 2  # 0.9 < 1


def test_published_rule_is_dp_exactly():
    res = check_label_dp(PublishedRRWithPrior(10, 1.0), 1.0, kind="prior_channel", draws=3)
    assert res.holds and res.epsilon_actual == pytest.approx(1.0, rel=1e-12)


def test_third_party_audit_smoke(smoke_run):
    """Read from the test run's one smoke run (tests/conftest.py), at the default root seed as before
    (it called compute() itself; the K column of the utility table is now read back from utility.csv)."""
    import csv

    run = smoke_run("third_party_audit")
    claims = run.record["claims"]
    assert claims and all(c["holds"] for c in claims), [c for c in claims if not c["holds"]]
    with open(run.folder / "utility.csv", newline="") as fh:
        assert {int(r["K"]) for r in csv.DictReader(fh)} == set(PROFILES["smoke"].Ks)


def test_stability_histogram_refuses_what_it_cannot_certify():
    # ε = 1e-8: the threshold is ~2.4e9 counts; enumerating to it ran out of memory (77.8 GiB) before.
    from simulations.mechanisms import StabilityHistogram

    with pytest.raises(ValueError, match="too small to certify"):
        check_label_dp(StabilityHistogram(1e-8, 1e-5), 1e-8, 1e-5)


def test_published_rule_takes_top1_below_ln2_exactly():
    # The one-line proof of published_always_top1 in exact arithmetic: with t = e^-eps rational,
    # m (1 - t) <= 1 + (m - 2) t for every m >= 2 iff t >= 1/2.
    for t in (Fraction(1, 2), Fraction(51, 100), Fraction(9, 10)):
        assert all(m * (1 - t) <= 1 + (m - 2) * t for m in range(2, 200))
    t = Fraction(49, 100)
    assert all(m * (1 - t) > 1 + (m - 2) * t for m in range(2, 200))
    # and on priors, including the ones that make m = 2 best just above ln 2
    rng = np.random.default_rng(11)
    priors = [np.full(5, 0.2), np.r_[0.5, 0.5, 0, 0, 0], np.eye(5)[3]] + list(rng.dirichlet(np.ones(5), 200))
    for eps in (1e-3, 0.3, 0.69):
        assert published_always_top1(eps)
        assert all(published_k(p, eps) == 1 for p in priors)
    assert not published_always_top1(0.7)
    # uniform prior: m/(K(1 + (m-2)t)) increases in m when t < 1/2, so the rule takes m = K, not 1
    assert published_k(np.full(5, 0.2), 0.7) == 5
    with pytest.raises(ValueError, match="epsilon"):
        published_always_top1(0.0)


def test_third_party_audit_reports_per_alpha(smoke_run):
    import csv

    run = smoke_run("third_party_audit")
    with open(run.folder / "utility.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    cfg = PROFILES["smoke"]
    assert {(int(r["K"]), float(r["eps"]), float(r["alpha"])) for r in rows} == {
        (K, e, a) for K in cfg.Ks for e in cfg.epsilons for a in cfg.alphas}
    assert all(int(r["priors"]) == cfg.draws for r in rows)
    top1 = next(c for c in run.record["claims"] if "ln 2" in c["claim"])
    assert top1["holds"] and top1["measured"] == 1.0
