"""Estimators of 003 and the numba kernels.

* kernels equal their numpy references (parametrized over d, sizes, edge points): bit for bit where the
  result is exact whatever the order of the additions (cell indices, integer counts and sums, dyadic
  values), within the summation error bound for general float sums (tests/_ulp.py);
* each estimator equals an independent re-composition of its algorithm from the paper's equations
  (mechanism sample -> bin sums -> argmax / per-bin mechanism / neighbour average) at the same seed;
* deterministic accuracy bounds on noise-free data (Hölder bias bounds of 003 eqs. (63), (134), (148));
* privacy: the mechanism an estimator runs is the one of its theorem, with its ε, and passes the exact
  check of ``proofs_checks`` (tight where the mechanism is tight);
* invalid arguments.

Statistical checks use Z = 4.5 standard errors (two-sided 7e-6 per check) at fixed seeds.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import limits
from limits import tuning
from proofs_checks import check_label_dp
from simulations import kernels
from simulations.estimators import (
    ESTIMATORS,
    BinMajorityClassifier,
    BinMeanRegressor,
    ExponentialBinClassifier,
    KNNRegressor,
    LaplaceBinMeanRegressor,
    LaplaceKNNRegressor,
    VectorBinClassifier,
    argmax_random_ties,
    bins_for_width,
    make_estimator,
)
from simulations.estimators import partition as partition_module
from simulations.laws import AdditiveRegression, BoundaryClassification, UniformNoise
from simulations.mechanisms import (
    ClippedLaplaceLabels,
    ExponentialMechanism,
    LaplaceLabels,
    NoisyBinMean,
    VectorMechanism,
)
from tests._ulp import U, assert_within, gamma

Z = 4.5


def rng(seed):
    return np.random.default_rng(seed)


def _points(n, d, seed):
    X = rng(seed).random((n, d))
    if n >= 3:
        X[0] = 1.0  # the closed upper edge belongs to the last cell
        X[1] = 0.0
        X[2, 0] = 0.5
    return X


# ----------------------------------------------------------------------------------- kernels

@pytest.mark.parametrize("n", [0, 1, 1000])
@pytest.mark.parametrize("d,bins", [(1, 1), (1, 17), (2, 9), (3, 4)])
def test_kernels_equal_numpy_references(n, d, bins):
    X = _points(n, d, 1)
    labels = rng(2).integers(0, 4, n)
    Z_bits = (rng(3).random((n, 4)) < 0.3).astype(np.uint8)
    # dyadic values k/1024, |k| < 2^20: every partial sum of <= 1000 of them is a multiple of 2^-10 below
    # 2^20 in magnitude (< 2^30 units), so float64 adds them exactly in any order
    dyadic = rng(4).integers(-(2 ** 20) + 1, 2 ** 20, n) / 1024.0
    # exact: the cell index is floor(x · bins) in both (one correctly rounded product, then truncation), and
    # the counts and sums below are exact whatever the order of the additions -- on every CPU
    pairs = [
        (kernels.bin_index(X, bins), kernels.bin_index_numpy(X, bins)),
        (kernels.bin_label_counts(X, bins, labels, 4), kernels.bin_label_counts_numpy(X, bins, labels, 4)),
        (kernels.bin_row_sums(X, bins, Z_bits), kernels.bin_row_sums_numpy(X, bins, Z_bits)),
        (kernels.bin_value_sums(X, bins, dyadic), kernels.bin_value_sums_numpy(X, bins, dyadic)),
    ]
    for got, ref in pairs:
        got, ref = (got, ref) if isinstance(got, tuple) else ((got,), (ref,))
        for a, b in zip(got, ref):
            assert a.dtype == b.dtype and a.shape == b.shape
            assert np.array_equal(a, b)
    # general float values: the kernel adds in input order, the reference is numpy's bincount, whose order
    # is numpy's business. Any order of summing the n_l values of a cell errs by at most γ_{n_l} Σ|v| (Higham
    # eq. (4.4)), so the two sums differ by at most twice that (from ~1e-13 for the 60-point cells to ~1e-10
    # for the single 1000-point cell: far below the |v| ~ 1 that a value in the wrong cell would move a sum).
    values = rng(5).standard_normal(n)
    (sums, counts), (ref_sums, ref_counts) = kernels.bin_value_sums(X, bins, values), \
        kernels.bin_value_sums_numpy(X, bins, values)
    np.testing.assert_array_equal(counts, ref_counts)
    abs_sums = np.bincount(kernels.bin_index_numpy(X, bins), weights=np.abs(values), minlength=bins ** d)
    assert sums.dtype == np.float64
    assert_within(sums, ref_sums, 2 * gamma(counts) * abs_sums)
    # and each is the exactly rounded sum up to that bound (math.fsum: correctly rounded, independent)
    cells = kernels.bin_index_numpy(X, bins)
    exact = np.array([math.fsum(values[cells == c]) for c in range(bins ** d)])
    assert_within(sums, exact, gamma(counts) * abs_sums + U * np.abs(exact))


def test_bin_index_by_hand():
    X = np.array([[0.0, 0.0], [0.99, 0.0], [0.0, 0.34], [1.0, 1.0], [0.5, 0.5]])
    # 3 cells per axis, C order: index = 3 * b_0 + b_1
    np.testing.assert_array_equal(kernels.bin_index(X, 3), [0, 6, 1, 8, 4])


@pytest.mark.parametrize("M,k", [(1, 1), (50, 7), (300, 64)])
def test_neighbour_mean_equals_reference(M, k):
    values = rng(5).standard_normal(1000)
    idx = rng(6).integers(0, 1000, (M, k))
    got = kernels.neighbour_mean(values, idx)
    # exact: the reference spells out the kernel's order (rank 0, then 1, ...: elementwise `+=`, one correctly
    # rounded addition per element and rank, then one division by k), so both run the same IEEE operations
    assert np.array_equal(got, kernels.neighbour_mean_numpy(values, idx))
    # numpy's mean sums in its own (pairwise) order: each order errs by at most γ_{k-1} Σ|v| on the sum,
    # then the division by k rounds once (U relative): the two means differ by at most the sum of both
    ref = values[idx].mean(axis=1)
    bound = 2 * (gamma(k - 1) * np.abs(values[idx]).sum(axis=1) / k + U * np.abs(ref))
    assert_within(got, ref, bound)


# ---------------------------------------------------------------------------- tie breaking

def test_argmax_random_ties_keeps_strict_order_and_is_uniform_on_ties():
    r = rng(7)
    S = r.integers(0, 5, (2000, 6))
    strict = (np.sort(S, axis=1)[:, -1] > np.sort(S, axis=1)[:, -2])
    got = argmax_random_ties(S, r)
    np.testing.assert_array_equal(got[strict], np.argmax(S[strict], axis=1))
    assert np.all(S[np.arange(2000), got] == S.max(axis=1))
    n = 60_000
    tied = np.tile([3, 0, 3, 3], (n, 1))
    freq = np.bincount(argmax_random_ties(tied, r), minlength=4) / n
    assert freq[1] == 0
    assert np.all(np.abs(freq[[0, 2, 3]] - 1 / 3) <= Z * math.sqrt(2 / 9 / n))


# ---------------------------------------------------------- estimators = the papers' algorithm

def _class_data(n=3000, d=2, K=3, seed=8):
    law = BoundaryClassification(d=d, kappa=1.0, num_classes=K, rho=0.3)
    return law.sample(n, rng(seed))


def test_bins_for_width():
    assert [bins_for_width(h) for h in (1.0, 0.5, 0.3, 0.2, 1 / 3, 0.01)] == [1, 2, 4, 5, 3, 100]


def test_vector_bin_classifier_is_eq12_13():
    X, Y = _class_data()
    est = VectorBinClassifier(num_classes=3, epsilon=0.8, h=0.2, random_state=rng(9)).fit(X, Y)
    r = rng(9)
    Zb = VectorMechanism(num_classes=3, epsilon=0.8).sample(Y, r)  # 003 eq. (11)
    S = np.zeros((25, 3))
    for x, z in zip(X, Zb):  # eq. (12), point by point
        S[min(int(x[0] * 5), 4) * 5 + min(int(x[1] * 5), 4)] += z
    np.testing.assert_array_equal(est.cell_values_, argmax_random_ties(S, r))  # eq. (13)
    np.testing.assert_array_equal(est.counts_, np.bincount(kernels.bin_index_numpy(X, 5), minlength=25))
    np.testing.assert_array_equal(est.predict(X), est.cell_values_[kernels.bin_index_numpy(X, 5)])


def test_exponential_bin_classifier_is_eq17():
    X, Y = _class_data()
    est = ExponentialBinClassifier(num_classes=3, epsilon=0.5, h=0.25, random_state=rng(10)).fit(X, Y)
    counts = kernels.bin_label_counts_numpy(X, 4, Y, 3)
    np.testing.assert_array_equal(est.cell_values_, ExponentialMechanism(num_classes=3, epsilon=0.5).sample(counts, rng(10)))


def test_private_classifiers_reduce_to_majority_at_large_epsilon():
    X, Y = _class_data(n=4000)
    maj = BinMajorityClassifier(num_classes=3, h=0.25, random_state=rng(11)).fit(X, Y)
    counts = kernels.bin_label_counts_numpy(X, 4, Y, 3)
    top = np.sort(counts, axis=1)
    assert np.all(top[:, -1] > top[:, -2])  # no ties: the majority is unique in every cell
    np.testing.assert_array_equal(maj.cell_values_, np.argmax(counts, axis=1))
    for cls in (VectorBinClassifier, ExponentialBinClassifier):
        # ε = 200: flip probability 1/(1+e^100), exponential weights e^{-100} per count of difference
        est = cls(num_classes=3, epsilon=200.0, h=0.25, random_state=rng(12)).fit(X, Y)
        np.testing.assert_array_equal(est.cell_values_, maj.cell_values_)


def test_bin_mean_regressor_by_hand():
    X = np.array([[0.1], [0.2], [0.6], [0.95], [1.0]])
    Y = np.array([1.0, 3.0, -2.0, 4.0, 6.0])
    est = BinMeanRegressor(h=0.25).fit(X, Y)  # 4 cells: {0.1, 0.2}, {}, {0.6}, {0.95, 1.0}
    np.testing.assert_array_equal(est.cell_values_, [2.0, 0.0, -2.0, 5.0])  # empty cell -> 0 (003 eq. (23))
    np.testing.assert_array_equal(est.counts_, [2, 0, 1, 2])
    np.testing.assert_array_equal(est.predict(np.array([[0.3], [0.74]])), [0.0, -2.0])


@pytest.mark.parametrize("clip", [False, True])
def test_laplace_bin_mean_is_eq23_28(clip):
    r = rng(13)
    X = r.random((2000, 2))
    Y = r.uniform(-3, 3, 2000) if clip else r.uniform(-1, 1, 2000)
    est = LaplaceBinMeanRegressor(h=0.2, epsilon=0.7, T=1.0, clip=clip, random_state=rng(14)).fit(X, Y)
    mech = NoisyBinMean(T=1.0, epsilon=0.7, clip=clip)
    sums, counts = mech.bin_sums(Y, kernels.bin_index_numpy(X, 5), 25)
    np.testing.assert_allclose(est.cell_values_, mech.release(sums, counts, rng(14)), rtol=1e-13, atol=1e-15)
    big = LaplaceBinMeanRegressor(h=0.2, epsilon=1e9, T=1.0, clip=clip, random_state=rng(14)).fit(X, Y)
    plain = BinMeanRegressor(h=0.2).fit(X, np.clip(Y, -1, 1))
    np.testing.assert_allclose(big.cell_values_, plain.cell_values_, atol=1e-6)


def _brute_knn_mean(X, targets, Xq, k):
    dist = ((Xq[:, None, :] - X[None, :, :]) ** 2).sum(axis=2)
    idx = np.argsort(dist, axis=1, kind="stable")[:, :k]
    return targets[idx].mean(axis=1)


@pytest.mark.parametrize("clip,k", [(False, 1), (False, 15), (True, 40)])
def test_laplace_knn_is_eq20(clip, k):
    r = rng(15)
    X = r.random((800, 2))
    Y = r.standard_normal(800) * (3.0 if clip else 0.3)
    Y = Y if clip else np.clip(Y, -1, 1)
    Xq = r.random((200, 2))
    est = LaplaceKNNRegressor(k=k, epsilon=1.5, T=1.0, clip=clip, random_state=rng(16)).fit(X, Y)
    mech = (ClippedLaplaceLabels if clip else LaplaceLabels)(T=1.0, epsilon=1.5)
    Zl = mech.sample(Y, rng(16))
    np.testing.assert_array_equal(est.targets_, Zl)
    np.testing.assert_allclose(est.predict(Xq), _brute_knn_mean(X, Zl, Xq, k), rtol=1e-12, atol=1e-13)
    plain = KNNRegressor(k=k).fit(X, Y)
    np.testing.assert_allclose(plain.predict(Xq), _brute_knn_mean(X, Y, Xq, k), rtol=1e-12, atol=1e-13)


# ----------------------------------------------------- deterministic accuracy on noise-free data

def test_knn_bias_bound_eq134_noise_free():
    # labels = η(X) with η L-Lipschitz: |η̂(x) − η(x)| <= L · (distance to the k-th neighbour)
    r = rng(17)
    X = r.random((5000, 2))
    eta = lambda P: np.sin(3 * P[:, 0]) + 0.5 * P[:, 1]  # Lipschitz constant <= sqrt(9 + 0.25)
    est = KNNRegressor(k=20).fit(X, eta(X))
    Xq = r.random((500, 2))
    dist, _ = est.index_.query(Xq, k=20)
    assert np.all(np.abs(est.predict(Xq) - eta(Xq)) <= math.sqrt(9.25) * dist[:, -1] + 1e-12)


def test_histogram_bias_bound_eq148_noise_free():
    # every label in a cell is within L·diam^β of η(x) for x in the cell (003 eq. (148))
    law = AdditiveRegression(d=2, beta=0.5, profile="kink", amplitude=1.0, noise=UniformNoise(0.0))
    X, Y = law.sample(20_000, rng(18))
    est = BinMeanRegressor(h=0.1).fit(X, Y)
    Xq = rng(19).random((2000, 2))
    # per coordinate |t − θ|^β is 1-Hölder-β with constant 1; the cell side is 0.1
    assert np.all(np.abs(est.predict(Xq) - law.eta(Xq)) <= 2 * 0.1 ** 0.5 + 1e-12)


def test_histogram_classifier_converges_on_easy_law():
    # mean exact excess risk over 40 trials falls significantly from N = 200 to N = 20000
    law = BoundaryClassification(d=1, kappa=1.0)
    means, ses = [], []
    for n in (200, 20_000):
        risks = []
        for t in range(40):
            X, Y = law.sample(n, rng(1000 * t + n))
            est = make_estimator("nonprivate_classification", N=n, beta=1.0, d=1).set_params(random_state=rng(t)).fit(X, Y)
            risks.append(law.excess_risk_partition(est.cell_values_, est.bins_))
        means.append(np.mean(risks))
        ses.append(np.std(risks, ddof=1) / math.sqrt(len(risks)))
    assert means[0] - means[1] > Z * math.hypot(*ses)


# ------------------------------------------------------------------------------------ privacy

PRIVATE = [
    (lambda e: VectorBinClassifier(num_classes=3, epsilon=e, h=0.5), VectorMechanism, True),
    (lambda e: ExponentialBinClassifier(num_classes=3, epsilon=e, h=0.5), ExponentialMechanism, False),
    (lambda e: LaplaceKNNRegressor(k=5, epsilon=e, T=1.0), LaplaceLabels, True),
    (lambda e: LaplaceKNNRegressor(k=5, epsilon=e, T=1.0, clip=True), ClippedLaplaceLabels, True),
    (lambda e: LaplaceBinMeanRegressor(h=0.5, epsilon=e, T=1.0), NoisyBinMean, True),
    (lambda e: LaplaceBinMeanRegressor(h=0.5, epsilon=e, T=1.0, clip=True), NoisyBinMean, True),
]


@pytest.mark.parametrize("eps", [0.3, 1.0, 3.0])
@pytest.mark.parametrize("make,mech_cls,tight", PRIVATE)
def test_estimators_run_the_checked_mechanism(make, mech_cls, tight, eps):
    X, Y = _class_data(n=200, d=1)
    Yr = (Y - 1).astype(float)  # regression labels in [-1, 1]
    est = make(eps)
    est.set_params(random_state=rng(22)).fit(X, Y if "Classifier" in type(est).__name__ else Yr)
    assert type(est.mechanism_) is mech_cls and est.mechanism_.epsilon == eps
    assert check_label_dp(est.mechanism_, eps).holds
    if tight:  # the estimator does not spend less than its budget (would be a wrong ε, not a leak)
        assert not check_label_dp(est.mechanism_, 0.99 * eps).holds


def test_vector_classifier_calls_mechanism_once_on_raw_labels(monkeypatch):
    X, Y = _class_data(n=300)
    calls = []
    original = partition_module.VectorMechanism.sample

    def spy(self, labels, r):
        calls.append((self.num_classes, self.epsilon, np.array(labels)))
        return original(self, labels, r)

    monkeypatch.setattr(partition_module.VectorMechanism, "sample", spy)
    VectorBinClassifier(num_classes=3, epsilon=0.4, h=0.5, random_state=rng(23)).fit(X, Y)
    assert len(calls) == 1 and calls[0][:2] == (3, 0.4)
    np.testing.assert_array_equal(calls[0][2], Y)


# ------------------------------------------------------------------------------ make_estimator

def test_make_estimator_uses_003_tuning():
    N, eps, beta, d, K = 1e4, 0.5, 1.0, 1, 2
    est = make_estimator("local_classification", N=N, epsilon=eps, beta=beta, d=d, num_classes=K)
    # 003 eq. (84) with constants 1: h = (N (ε² ∧ 1) / ln K)^(−1/(2β+d))
    assert isinstance(est, VectorBinClassifier)
    assert est.h == pytest.approx((N * 0.25 / math.log(2)) ** (-1 / 3), rel=1e-12)
    est = make_estimator("local_regression", N=N, epsilon=eps, beta=beta, d=d, T=2.0)
    # 003 eq. (141): k = N^(2β/(d+2β)) (ε ∧ 1)^(−2d/(d+2β)), rounded
    assert est.k == round(N ** (2 / 3) * 0.5 ** (-2 / 3)) and est.T == 2.0
    est = make_estimator("central_regression_heavy_tailed", N=N, epsilon=eps, beta=beta, d=d, p=4.0)
    assert est.clip and est.h == tuning("central_regression_heavy_tailed", N=N, epsilon=eps, beta=beta, d=d, p=4.0)["h"]
    est = make_estimator("nonprivate_regression", N=N, beta=beta, d=d)
    assert est.h == pytest.approx(N ** (-1 / 3), rel=1e-12)  # h ~ N^(−1/(2β+d))
    est = make_estimator("central_classification", N=N, epsilon=eps, beta=beta, d=d, h=0.1, num_classes=5)
    assert est.h == 0.1 and est.num_classes == 5  # override


def test_make_estimator_invalid():
    with pytest.raises(ValueError, match="algorithm"):
        make_estimator("local_svm", N=100, beta=1, d=1, epsilon=1)
    with pytest.raises(ValueError, match=r"\bepsilon\b"):
        make_estimator("local_classification", N=100, beta=1, d=1)
    with pytest.raises(ValueError, match="does not take"):
        make_estimator("nonprivate_regression", N=100, beta=1, d=1, k=5)  # a k for a histogram
    with pytest.raises(ValueError, match="T"):
        make_estimator("central_regression", N=100, beta=1, d=1, epsilon=1)
    with pytest.raises(ValueError, match="does not take"):
        make_estimator("nonprivate_regression", N=100, beta=1, d=1, T=1.0)


@pytest.mark.parametrize("algorithm", sorted(limits.ALGORITHMS))
def test_every_algorithm_of_limits_has_its_estimator(algorithm):
    """make_estimator reads the record: kNN algorithms get k, histograms h; private ones get epsilon."""
    alg = limits.ALGORITHMS[algorithm]
    bounded = algorithm in ("local_regression", "central_regression")  # 003 Assumption 2: labels in [-T, T]
    est = make_estimator(algorithm, N=1e4, beta=1.0, d=2, epsilon=0.5, num_classes=3, p=3.0, T=1.0 if bounded else None)
    assert hasattr(est, "k" if alg.neighbourhood == "knn" else "h")
    assert (getattr(est, "epsilon", None) == 0.5) == alg.private
    assert (getattr(est, "num_classes", None) == 3) == (alg.task == "classification")


def test_estimator_table_covers_the_algorithm_table():
    assert set(ESTIMATORS) == set(limits.ALGORITHMS)


# ------------------------------------------------------------------------------ invalid input

def test_estimators_invalid_arguments():
    X, Y = _class_data(n=50, d=1)
    Yr = (Y - 1).astype(float)
    with pytest.raises(ValueError, match="h"):
        BinMajorityClassifier(num_classes=3, h=0.0, random_state=rng(0)).fit(X, Y)
    with pytest.raises(ValueError, match="h"):
        BinMeanRegressor(h=1.5).fit(X, Yr)
    with pytest.raises(ValueError, match="epsilon"):
        VectorBinClassifier(num_classes=3, epsilon=-1.0, h=0.5, random_state=rng(0)).fit(X, Y)
    with pytest.raises(ValueError, match="random_state"):
        ExponentialBinClassifier(num_classes=3, epsilon=1.0, h=0.5, random_state=-1).fit(X, Y)
    with pytest.raises(ValueError, match="labels"):
        BinMajorityClassifier(num_classes=2, h=0.5, random_state=rng(0)).fit(X, Y)  # label 2 out of range
    with pytest.raises(ValueError, match="X"):
        BinMeanRegressor(h=0.5).fit(X + 1.0, Yr)
    with pytest.raises(ValueError, match="not fitted"):
        BinMeanRegressor(h=0.5).predict(X)
    with pytest.raises(ValueError, match="X has 2 features, but BinMeanRegressor is expecting 1 features as input"):
        BinMeanRegressor(h=0.5).fit(X, Yr).predict(np.zeros((3, 2)))
    with pytest.raises(ValueError, match="k must be"):
        KNNRegressor(k=51).fit(X, Yr)
    with pytest.raises(ValueError, match="k"):
        KNNRegressor(k=0).fit(X, Yr)
    with pytest.raises(ValueError, match="T"):
        LaplaceKNNRegressor(k=3, epsilon=1.0, T=0.5, random_state=rng(0)).fit(X, Yr)  # |Y| = 1 > T without clipping
    with pytest.raises(ValueError, match="T"):
        LaplaceBinMeanRegressor(h=0.5, epsilon=1.0, T=0.5, random_state=rng(0)).fit(X, Yr)
    with pytest.raises(ValueError, match="clip"):
        LaplaceKNNRegressor(k=3, epsilon=1.0, T=1.0, clip="yes", random_state=rng(0)).fit(X, Yr)
    with pytest.raises(ValueError, match="y must be"):
        BinMeanRegressor(h=0.5).fit(X, Yr[:-1])


def test_clipping_level_follows_an_overridden_bin_width():
    # 003 Theorem 12 / eq. (194): T ~ (eps N h^d)^(1/p) for the h actually used (constants 1).
    N, eps, d, p, h = 10_000, 0.5, 2, 4.0, 0.25
    est = make_estimator("central_regression_heavy_tailed", N=N, beta=1.0, d=d, epsilon=eps, p=p, h=h)
    assert est.h == h
    assert est.T == pytest.approx((eps * N * h**d) ** (1 / p), rel=1e-12)
    # 003 Theorem 10 / eq. (181): T ~ (k eps^2)^(1/(2p)) for the k actually used.
    est = make_estimator("local_regression_heavy_tailed", N=N, beta=1.0, d=d, epsilon=eps, p=p, k=50)
    assert est.k == 50
    assert est.T == pytest.approx((50 * eps**2) ** (1 / (2 * p)), rel=1e-12)
