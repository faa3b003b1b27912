"""GridIndex (exact planar k-NN on a grid) against scipy's kd-tree and brute force.

Neighbour lists are compared exactly. Two implementations may round a squared distance differently in
the last bit (scipy's compiled loop may, for instance, be contracted to a fused multiply-add on CPUs
that have one), which can reorder two neighbours only if their distances are within a few ulp; the tests
assert that their data has no such near-ties (relative gaps > 1e-12, ~4500 ulp, among the k + 1 nearest).
GridIndex and the brute force of ``private_knn`` run the same correctly rounded operations, so they
agree exactly up to exact ties (probability 0 for continuous data).
"""

import numpy as np
import pytest
from scipy.spatial import cKDTree

from simulations.estimators.grid_knn import GridIndex
from simulations.estimators.private_knn import brute_force_neighbours
from simulations.laws import CircleMixture
from tests._ulp import assert_no_near_neighbour_ties as _assert_no_near_ties


@pytest.mark.parametrize("K,sigma,N,M,k", [(100, 0.05, 4000, 300, 200), (2, 1.0, 3000, 500, 200),
                                           (100, 0.02, 2000, 200, 100), (10, 0.05, 600, 400, 1),
                                           (3, 0.1, 50, 30, 50), (5, 0.3, 200, 100, 7)])
def test_same_neighbours_as_kdtree(K, sigma, N, M, k):
    rng = np.random.default_rng(K * 1000 + k)
    law = CircleMixture(K, sigma)
    X, _ = law.sample(N, rng)
    Q, _ = law.sample(M, rng)
    Q = np.vstack([Q, [[6.0, 6.0], [-4.0, 0.1], X[0]]])  # far outside the grid, and an indexed point
    _assert_no_near_ties(X, Q, k)
    d, i = GridIndex(X, k).query(Q, k)
    dk, ik = cKDTree(X).query(Q, k=k)
    np.testing.assert_array_equal(i, np.asarray(ik).reshape(len(Q), k))
    # distances: the difference, squares and sum round once each (relative error <= 4U on d², U = 2^-53), the
    # correctly rounded sqrt halves that and adds U: each side within 3U of the true distance, so they differ
    # by <= 6U ≈ 7e-16 relative; rtol 1e-14 leaves a factor 15. atol: the query X[0] at distance 0 in both.
    np.testing.assert_allclose(d, np.asarray(dk).reshape(len(Q), k), rtol=1e-14, atol=1e-15)
    _, iu = GridIndex(X, k).query(Q, k, sort=False)
    np.testing.assert_array_equal(np.sort(iu, axis=1), np.sort(i, axis=1))


def test_brute_force_and_k_equal_N():
    rng = np.random.default_rng(3)
    X = rng.uniform(-1, 1, size=(40, 2))
    Q = rng.normal(size=(15, 2))
    _assert_no_near_ties(X, Q, 40)  # exact ties would leave the order to each implementation's tie rule
    np.testing.assert_array_equal(GridIndex(X, 5).query(Q, 5)[1], brute_force_neighbours(X, Q, 5))
    np.testing.assert_array_equal(GridIndex(X, 40).query(Q, 40)[1], brute_force_neighbours(X, Q, 40))
    Xd = np.zeros((10, 2))  # all points equal: a degenerate grid still answers
    assert sorted(GridIndex(Xd, 3).query(np.ones((2, 2)), 10)[1][0]) == list(range(10))


def test_guards():
    X = np.zeros((5, 2))
    with pytest.raises(ValueError, match="k=6"):
        GridIndex(X, 2).query(np.zeros((1, 2)), 6)
    with pytest.raises(ValueError, match="k=0"):
        GridIndex(X, 0)
    with pytest.raises(ValueError, match="shape"):
        GridIndex(np.zeros((5, 3)), 2)
    with pytest.raises(ValueError, match="finite"):
        GridIndex(X, 2).query(np.array([[np.nan, 0.0]]), 1)


@pytest.mark.parametrize("N,M,k", [(3000, 400, 1), (5000, 300, 64), (20000, 200, 1300), (40, 30, 40)])
def test_knn_regressors_in_the_plane_average_the_tree_neighbours(N, M, k):
    """The estimators' plane path (grid, density cell, unsorted lists) against the kd-tree oracle: the same
    nearest-first lists from ``neighbours``, and ``predict`` within the float summation bound of the tree's
    nearest-first mean (the same k values added in another order: |difference| <= 2 (k−1) u max|Z|)."""
    from simulations import kernels
    from simulations.estimators import KNNRegressor, LaplaceKNNRegressor

    rng = np.random.default_rng(N + k)
    X, Y = rng.random((N, 2)), rng.uniform(-1, 1, N)
    Xq = np.vstack([rng.uniform(-0.1, 1.1, size=(M, 2)), X[:3]])  # outside the sample's box too, and indexed points
    _assert_no_near_ties(X, Xq, k)
    for est in (KNNRegressor(k=k), LaplaceKNNRegressor(k=k, epsilon=1.0, T=1.0),
                LaplaceKNNRegressor(k=k, epsilon=0.5, T=0.5, clip=True)):
        est.set_params(random_state=np.random.default_rng(7)).fit(X, Y)
        assert isinstance(est.index_, GridIndex)
        _, i_ref = cKDTree(X).query(Xq, k=k)
        i_ref = np.asarray(i_ref).reshape(len(Xq), k)
        np.testing.assert_array_equal(est.neighbours(Xq), i_ref)
        want = kernels.neighbour_mean_numpy(est.targets_, i_ref)
        bound = 2 * (k - 1) * 2.0 ** -53 * np.abs(est.targets_).max()
        assert np.all(np.abs(est.predict(Xq) - want) <= bound)
        if k == 1:  # one neighbour: no summation, the same float
            np.testing.assert_array_equal(est.predict(Xq), want)


def test_cell_side_does_not_change_the_answer():
    rng = np.random.default_rng(11)
    X, Q = rng.random((2000, 2)), rng.random((100, 2))
    _assert_no_near_ties(X, Q, 50)
    ref = GridIndex(X, 50).query(Q, 50)[1]
    for cell in (1e-4, 0.01, 0.3, 5.0):
        np.testing.assert_array_equal(GridIndex(X, 50, cell=cell).query(Q, 50)[1], ref)
    for bad in (0.0, -1.0, float("nan"), float("inf"), "0.1"):
        with pytest.raises(ValueError, match="cell"):
            GridIndex(X, 50, cell=bad)


def test_kth_smallest_is_the_order_statistic_of_np_partition():
    # the selection inside the query (Hoare's FIND) against numpy's partition: the same value whatever the
    # ties (many repeated values, all equal), sizes 1..n and every k, and the input left untouched
    from simulations.estimators.grid_knn import _kth_smallest

    rng = np.random.default_rng(11)
    arrays = [rng.random(257), rng.integers(0, 5, 300).astype(float), np.full(40, 2.5), np.array([3.0]),
              np.sort(rng.random(64)), np.sort(rng.random(64))[::-1].copy(), rng.integers(0, 2, 9).astype(float)]
    for a in arrays:
        for n in sorted({1, min(2, a.size), max(a.size // 2, 1), a.size}):
            before = a.copy()
            work = np.empty(a.size)
            got = [_kth_smallest(a, n, k, work) for k in range(1, n + 1)]
            assert got == [np.partition(a[:n], k - 1)[k - 1] for k in range(1, n + 1)]
            assert np.array_equal(a, before)
