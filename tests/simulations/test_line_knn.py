"""LineIndex: exact k-NN on the line, the same neighbour lists and order as scipy's kd-tree.

Neighbour lists of two implementations are compared exactly: LineIndex compares gaps |x − q|, the tree
squared distances, and a last-bit difference could reorder two neighbours only if their distances are
within a few ulp. The tests assert that their data has no such near-ties (squared distances > 1e-12 apart
relatively, ~4500 ulp, among the k + 1 nearest of every query), so the comparison does not depend on the CPU.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial import cKDTree

from simulations import kernels
from simulations.estimators import KNNRegressor, LaplaceKNNRegressor
from simulations.estimators.line_knn import LineIndex, stable_order
from tests._ulp import assert_no_near_neighbour_ties as _assert_no_near_ties


@pytest.mark.parametrize("n,m,k", [(1, 5, 1), (7, 20, 7), (200, 300, 1), (1000, 500, 37), (5000, 400, 4096)])
def test_same_neighbours_in_the_same_order_as_the_kd_tree(n, m, k):
    rng = np.random.default_rng(n + k)
    X = rng.random((n, 1))
    Q = rng.uniform(-0.2, 1.2, size=(m, 1))  # queries outside the sample's range too
    _assert_no_near_ties(X, Q, k)
    dist, idx = LineIndex(X).query(Q, k)
    d_ref, i_ref = cKDTree(X).query(Q, k=k)
    np.testing.assert_array_equal(idx, np.asarray(i_ref).reshape(m, k))
    # |x − q| (one rounding) vs the tree's sqrt((x − q)²): distances below 1.4, ulp 2.2e-16: atol ≈ 4.5 ulp
    np.testing.assert_allclose(dist, np.asarray(d_ref).reshape(m, k), rtol=0, atol=1e-15)
    assert np.all(np.diff(dist, axis=1) >= 0)  # nearest first


def test_brute_force_on_a_small_grid_of_queries():
    X = np.array([[0.9], [0.1], [0.45], [0.3], [0.7]])
    for q in np.linspace(-1, 2, 31):
        _, idx = LineIndex(X).query([[q]], 3)
        want = np.argsort(np.abs(X[:, 0] - q), kind="stable")[:3]
        assert set(idx[0]) == set(want)


def test_knn_regressors_on_the_line_predict_exactly_what_the_tree_gives():
    rng = np.random.default_rng(3)
    X, Y = rng.random((3000, 1)), rng.standard_normal(3000)
    Xq = rng.random((500, 1))
    # exact: the same neighbour lists in the same order (no near-ties, asserted) and the same numba sum
    # order (nearest first, then one division by k) in LineIndex's walk and in kernels.neighbour_mean
    _assert_no_near_ties(X, Xq, 300)
    for est in (KNNRegressor(k=300), LaplaceKNNRegressor(k=300, epsilon=1.0, T=2.0, clip=True)):
        est.set_params(random_state=np.random.default_rng(4)).fit(X, Y)
        assert isinstance(est.index_, LineIndex)
        _, i_ref = cKDTree(X).query(Xq, k=300)
        np.testing.assert_array_equal(est.predict(Xq), kernels.neighbour_mean(est.targets_, i_ref))


def test_bad_input():
    with pytest.raises(ValueError, match="X"):
        LineIndex(np.zeros((3, 2)))
    with pytest.raises(ValueError, match="X"):
        LineIndex([[np.nan]])
    idx = LineIndex([[0.0], [1.0]])
    with pytest.raises(ValueError, match="k"):
        idx.query([[0.5]], 3)
    with pytest.raises(ValueError, match="k"):
        idx.query([[0.5]], 0)
    with pytest.raises(ValueError, match="Q"):
        idx.query([[np.inf]], 1)


def test_neighbour_mean_without_lists_is_the_same_float_sum():
    rng = np.random.default_rng(5)
    X, V = rng.random((2000, 1)), rng.standard_normal(2000) * 1e3
    Q = rng.uniform(-0.1, 1.1, size=(300, 1))
    index = LineIndex(X)
    for k in (1, 17, 2000):
        _, idx = index.query(Q, k)
        np.testing.assert_array_equal(index.neighbour_mean(Q, k, V), kernels.neighbour_mean(V, idx))
    with pytest.raises(ValueError, match="values"):
        index.neighbour_mean(Q, 3, V[:-1])


@pytest.mark.parametrize("case", ["continuous", "ties", "signed zeros", "integers", "one", "sorted"])
def test_stable_order_is_the_stable_argsort(case):
    rng = np.random.default_rng(5)
    x = {"continuous": rng.random(5000), "ties": rng.integers(0, 50, 5000).astype(float) / 7,
         "signed zeros": rng.choice([-0.0, 0.0, 1.0, -1.0], 1000), "integers": rng.integers(0, 9, 300),
         "one": np.array([0.25]), "sorted": np.arange(100.0)}[case]
    order = stable_order(x)
    assert order.dtype == np.int64
    np.testing.assert_array_equal(order, np.argsort(x, kind="stable"))
