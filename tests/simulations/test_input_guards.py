"""Bad inputs to the small helpers (noise sizes, RR probabilities, top-k order, kernels, guards of the
constructions and the slope fit) raise a ValueError naming the argument."""

import numpy as np
import pytest

from simulations import laws, mechanisms
from simulations.seeding import check_generator


def test_check_generator_passes_generators_through():
    g = np.random.default_rng(0)
    assert check_generator(g) is g


@pytest.mark.parametrize("noise", [laws.UniformNoise(sigma=1.0), laws.LomaxNoise(shape=3.0)])
@pytest.mark.parametrize("n", [-1, 2.5, float("nan"), "3"])
def test_noise_sample_size_checked(noise, n):
    with pytest.raises(ValueError, match="n must be"):
        noise.sample(n, np.random.default_rng(0))


@pytest.mark.parametrize("kw, arg", [(dict(epsilon=float("nan"), k=3), "epsilon"), (dict(epsilon=float("inf"), k=3), "epsilon"),
                                     (dict(epsilon=-1.0, k=3), "epsilon"), (dict(epsilon=1.0, k=0), "k"),
                                     (dict(epsilon=1.0, k=2.5), "k"), (dict(epsilon=1.0, k=[1, float("nan")]), "k")])
def test_rr_probabilities_guards(kw, arg):
    with pytest.raises(ValueError, match=f"{arg} must"):
        mechanisms.rr_probabilities(**kw)


def test_rr_probabilities_value():
    # 004 eq. (1): keep = e^eps / (e^eps + K - 1), other = 1 / (e^eps + K - 1)
    keep, other = mechanisms.rr_probabilities(np.log(2.0), 3)
    assert keep == pytest.approx(2.0 / 4.0, rel=1e-15) and other == pytest.approx(1.0 / 4.0, rel=1e-15)


@pytest.mark.parametrize("prior", [[], [[[0.5, 0.5]]], [np.nan, 0.5]])
def test_top_k_order_guards(prior):
    with pytest.raises(ValueError, match="prior must"):
        mechanisms.top_k_order(prior)


@pytest.mark.parametrize("K", [0, -1, 2.0])
def test_output_bits_guard(K):
    with pytest.raises(ValueError, match="num_classes must"):
        mechanisms.output_bits(K)


def test_three_point_T_and_midpoint_grid_guards():
    with pytest.raises(ValueError, match="beta must"):
        laws.three_point_T(M_p=1.0, p=2.0, h=0.5, beta=float("inf"))
    with pytest.raises(ValueError, match="d must"):
        laws.midpoint_grid(3, 1.5)
    with pytest.raises(ValueError, match="d must"):
        laws.midpoint_grid(3, 0)


@pytest.mark.parametrize("cls, kw", [("KNNRegressor", dict(k=2)), ("LaplaceKNNRegressor", dict(k=2, epsilon=1.0, T=1.0))])
def test_knn_predict_before_fit_is_a_value_error(cls, kw):
    from simulations import estimators

    with pytest.raises(ValueError, match="not fitted"):
        getattr(estimators, cls)(**kw).predict(np.zeros((3, 2)))


@pytest.mark.parametrize("workers", [0, -2, 1.5, "x"])
def test_knn_workers_guard(workers):
    from simulations.estimators import KNNRegressor

    X = np.random.default_rng(0).random((5, 2))
    with pytest.raises(ValueError, match="workers must"):
        KNNRegressor(k=2, workers=workers).fit(X, np.zeros(5))


def test_histogram_exact_probabilities_reject_non_integers():
    gh = mechanisms.GeometricHistogram(epsilon=1.0)
    with pytest.raises(ValueError, match="noisy must hold integers"):
        gh.log_pmf(np.array([1.5]), np.array([1]))
    with pytest.raises(ValueError, match="histograms must hold integers"):
        gh.log_pmf(np.array([1]), np.array([np.nan]))
    sh = mechanisms.StabilityHistogram(epsilon=1.0, delta=0.1)
    with pytest.raises(ValueError, match="counts must"):
        sh.release_probability(np.array([-1, 2]))
    with pytest.raises(ValueError, match="counts must"):
        sh.release_probability(np.array([0.5]))


# numba does not bounds-check: the kernels must refuse inputs that would index outside their arrays
def _kernel_calls():
    from simulations import kernels

    X = np.array([[0.1, 0.9], [0.5, 0.5]])
    return {
        "negative X": lambda: kernels.bin_index(np.array([[-0.5, 0.2]]), 4),
        "NaN X": lambda: kernels.bin_value_sums(np.array([[np.nan, 0.2]]), 4, [1.0]),
        "label K": lambda: kernels.bin_label_counts(X, 4, [0, 3], 3),
        "label -1": lambda: kernels.bin_label_counts(X, 4, [0, -1], 3),
        "labels short": lambda: kernels.bin_label_counts(X, 4, [0], 3),
        "values short": lambda: kernels.bin_value_sums(X, 4, [1.0]),
        "Z short": lambda: kernels.bin_row_sums(X, 4, np.ones((1, 3), np.uint8)),
        "bins 0": lambda: kernels.bin_index(X, 0),
        "X 1-D": lambda: kernels.bin_index(np.array([0.1, 0.2]), 4),
        "idx out of range": lambda: kernels.neighbour_mean(np.ones(3), np.array([[0, 3]])),
        "idx negative": lambda: kernels.neighbour_mean(np.ones(3), np.array([[0, -1]])),
        "idx 1-D": lambda: kernels.neighbour_mean(np.ones(3), np.array([0, 1])),
    }


@pytest.mark.parametrize("case", sorted(_kernel_calls()))
def test_kernels_refuse_out_of_range_inputs(case):
    with pytest.raises(ValueError):
        _kernel_calls()[case]()


def test_kernels_edges_unchanged():
    from simulations import kernels

    # x = 1 and x = inf fall in the last cell, as in the numpy reference's min(floor(x bins), bins - 1)
    X = np.array([[1.0, 0.0], [0.999999, 0.25], [0.0, 1.0]])
    np.testing.assert_array_equal(kernels.bin_index(X, 4), kernels.bin_index_numpy(X, 4))
    np.testing.assert_array_equal(kernels.bin_index(X, 4), [12, 13, 3])
    assert kernels.bin_index(np.array([[np.inf, 0.0]]), 4)[0] == 12


def test_lower_bound_constructions_check_rng():
    with pytest.raises(ValueError, match="rng"):
        laws.BumpRegression.lower_bound(d=1, h=0.25, beta=1.0, rng=None)
    a = laws.BumpRegression.lower_bound(d=1, h=0.25, beta=1.0, rng=3)
    b = laws.BumpRegression.lower_bound(d=1, h=0.25, beta=1.0, rng=np.random.default_rng(3))
    np.testing.assert_array_equal(a.field.signs, b.field.signs)


def test_slope_bootstrap_refuses_an_unseeded_rng():
    from simulations.stats import fit_loglog_slope

    with pytest.raises(ValueError, match="rng"):
        fit_loglog_slope([100, 200, 400], [np.ones(3), np.ones(3) / 2, np.ones(3) / 4], rng=None, n_boot=10)


# ---------------------------------------------------------------- issue 19: one prior rule for every dtype

@pytest.mark.parametrize("prior", [np.array([True, False]), np.array(["0.5", "0.5"]), np.array([0.5 + 0j, 0.5]),
                                   np.array(["0.5", 0.5], dtype=object), np.array([0.5, None], dtype=object),
                                   [[0.5, 0.5], [1.0]]])
def test_check_priors_refuses_non_real_dtypes(prior):
    from simulations.mechanisms.labels import check_priors

    # booleans, strings and complex numbers were silently cast to float (complex: imaginary part dropped)
    with pytest.raises(ValueError, match="prior must"):
        check_priors(prior, 2)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.longdouble, np.int64, object])
def test_check_priors_accepts_every_real_dtype_as_float64(dtype):
    from fractions import Fraction

    from simulations.mechanisms.labels import check_priors, prior_sum_tolerance

    exact = [Fraction(1, 3), Fraction(2, 3), Fraction(0)] if dtype is not np.int64 else [0, 1, 0]
    prior = np.array(exact, dtype=object) if dtype is object else np.array([float(x) for x in exact]).astype(dtype)
    got = check_priors(prior, 3)
    assert got.dtype == np.float64 and abs(got.sum() - 1.0) <= prior_sum_tolerance(np.float64, 3)
    np.testing.assert_allclose(got, [float(x) for x in exact], rtol=float(np.finfo(np.float16).eps))
