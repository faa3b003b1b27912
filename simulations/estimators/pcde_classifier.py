"""The UC learner on unbounded R^d of 001 Remark 1.8: a plug-in classifier on PCDE's joint density.

001 Remark 1.8 calls it "an immediate corollary of Theorem 1.7" and gives no algorithm; this is the
construction that the corollary implies. Read a labelled sample as a sample of the law of
``(X, Y)`` on ``R^d × {0, 1}``, whose density with respect to Lebesgue × counting measure is the
pair of sub-densities ``f_y(x) = P(Y = y) p(x | y)``. Estimate it with PCDE (001 Algorithm 3) on the
cells ``(cube k, label y)``: cubes of side ``r = n^{-1/(2d)}`` anchored at the origin, one stability
histogram (001 Algorithm 1) over the counts ``c_{k,y}``, ``f̂_y(x) = ĉ_{k(x),y} / (n r^d)``; predict

    h(x) = 1[ f̂_1(x) > f̂_0(x) ] = 1[ ĉ_{k(x),1} > ĉ_{k(x),0} ]   (ties, and cubes never released: 0),

the plug-in rule of ``η̂ = f̂_1 / (f̂_0 + f̂_1)`` (001 Definition 2.6). Consistency is the corollary's
one line: on ``{h ≠ h*}`` the signs of ``f̂_1 − f̂_0`` and ``f_1 − f_0`` disagree, so
``err(h) − L* = ∫ |f_1 − f_0| 1[h ≠ h*] <= Σ_y ∫ |f_y − f̂_y| = 2 TV(f, f̂)``, which goes to 0 by
Theorem 4.3 / 1.7.

Privacy. Full DP (001 Definition 1.1: replace one record ``(x, y)`` by ``(x', y')``) moves one unit
between two cells ``(k, y)`` and ``(k', y')`` of the joint domain ``Z^d × {0, 1}`` (or none), which is
exactly the neighbouring relation of Algorithm 1 on that domain: the released counts, hence the
classifier (post-processing), are (ε, δ)-DP by Theorem 2.4 -- one histogram, **no composition**
(running PCDE separately on the two label sub-samples draws the same noise cell by cell, and a
replacement that changes the label touches one cell of each, still "one unit moved": (ε, δ), not
(2ε, 2δ)). Label DP (replace one label) is a special case, so the learner is (ε, δ)-label DP too.
Compare PCL2b (001 Algorithm 5), whose two histograms both count a labelled-1 point: (2ε, 2δ).
``proofs_checks.remark18_check`` verifies the (ε, δ) curve exactly on tiny data.

References: 001 Theorem 1.7, Remark 1.8, Algorithm 1, Algorithm 3, Theorems 2.4, 2.7, 4.2, 4.3.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin

from limits.validation import check_positive, check_probability, check_real
from simulations.mechanisms import StabilityHistogram

from ._common import check_fitted
from ._sklearn import LabelDPEstimatorMixin
from .pcde import check_finite_points, occupied_cubes
from .pcl import check_binary_labels

__all__ = ["PCDEClassifier"]


def _merge_cells(cells_all: np.ndarray, counts_all: np.ndarray, cells_one: np.ndarray, counts_one: np.ndarray):
    """Per-cube label counts (L, 2) from the occupied cubes of all points and of the 1-labelled ones."""
    ones = np.zeros(cells_all.shape[0], np.int64)
    if cells_one.shape[0]:
        both = np.concatenate([cells_all, cells_one])
        _, inv = np.unique(both, axis=0, return_inverse=True)
        inv = inv.ravel()
        pos = np.full(inv.max() + 1, -1, np.int64)
        pos[inv[: cells_all.shape[0]]] = np.arange(cells_all.shape[0])
        ones[pos[inv[cells_all.shape[0]:]]] = counts_one
    return np.stack([counts_all - ones, ones], axis=1)


class PCDEClassifier(LabelDPEstimatorMixin, ClassifierMixin, BaseEstimator):
    """Plug-in classifier on PCDE's joint density of (X, Y) (001 Remark 1.8), (ε, δ)-DP on R^d.

    Parameters
    ----------
    epsilon : float > 0 or None
        Privacy parameter of the stability histogram; ``None`` gives the non-private rule (true
        counts: the majority vote on the cubes, ties to 0).
    delta : float in (0, 1)
        The δ of 001 Algorithm 1 (the learner is (ε, δ)-DP under full DP; Theorem 1.7 lets it decay
        with n, see :mod:`simulations.experiments.consistency.delta_decay`).
    side : float > 0 or None
        Cube side; None: ``n^{-1/(2d)}`` (001 Algorithm 3 line 2).
    random_state : None, int or numpy.random.Generator, default None
        Draws the Laplace noise at ``fit`` (nothing is drawn when ``epsilon`` is None): a Generator is
        drawn from as it is (the engine passes its per-trial stream), an int seeds a fresh one at each ``fit``.

    Attributes
    ----------
    side_, d_, n_ : float, int, int
    n_features_in_ : int
        d.
    classes_ : ndarray, [0, 1]
    cells_ : int64 (L, d)
        Integer coordinates ``k`` (cube ``Π_a [k_a r, (k_a + 1) r)``) of the cubes with at least one
        released count, in lexicographic order.
    c_hat_ : float (L, 2)
        Released counts ``ĉ_{k,0}``, ``ĉ_{k,1}`` of those cubes (0 where suppressed).
    counts_ : int64 (L, 2)
        Their true label counts (diagnostics only; not part of the private output).
    bits_ : int64 (L,)
        ``1[ĉ_{k,1} > ĉ_{k,0}]``: the classifier on those cubes (0 on every other cube).

    Raises
    ------
    ValueError
        From ``fit``: bad epsilon, delta or side, X not finite of shape (n, d), y not in {0, 1},
        n = 0, or an invalid ``random_state``.

    References
    ----------
    001 Remark 1.8, Theorem 1.7, Algorithm 1 (stability histogram), Algorithm 3 (PCDE),
    Definition 2.6 (plug-in rule), Theorems 2.4, 2.7, 4.3.

    Examples
    --------
    Three points in one cube of side 1, two labelled 1; the non-private rule predicts 1 there and 0
    in every other cube:

    >>> X = np.array([[0.2], [0.5], [0.7], [3.5]])
    >>> y = np.array([1, 1, 0, 0])
    >>> clf = PCDEClassifier(epsilon=None, side=1.0).fit(X, y)
    >>> clf.counts_.tolist(), clf.predict(np.array([[0.9], [3.1], [-7.0]])).tolist()
    ([[1, 2], [1, 0]], [1, 0, 0])
    >>> private = PCDEClassifier(epsilon=1.0, delta=1e-6, random_state=0).fit(X, y)
    >>> private.cells_.shape[0]   # counts of 1 or 2 never reach the threshold (2/ε)ln(2/δ)+1 ≈ 30
    0
    """

    _label_domain = "binary"

    def __init__(self, *, epsilon: float | None = 1.0, delta: float = 1e-6, side: float | None = None,
                 random_state=None):
        self.random_state = random_state
        self.epsilon = epsilon
        self.delta = delta
        self.side = side

    def mechanism(self) -> StabilityHistogram | None:
        """The stability histogram (001 Algorithm 1) at (epsilon, delta); None for the non-private rule.

        ``fit`` releases the joint cell counts through it, and the exact privacy checks
        (``proofs_checks.remark18_check``) read its noise scale and threshold from here.

        Returns
        -------
        StabilityHistogram or None

        Raises
        ------
        ValueError
            If ``epsilon`` <= 0 or ``delta`` is not in (0, 1).

        References
        ----------
        001 Algorithm 1.

        Examples
        --------
        >>> PCDEClassifier(epsilon=1.0, delta=1e-6).mechanism()
        StabilityHistogram(epsilon=1.0, delta=1e-06)
        """
        if self.epsilon is None:
            return None
        check_positive("epsilon", self.epsilon)
        if not 0 < check_probability("delta", self.delta):
            raise ValueError(f"delta must be in (0, 1), got delta={self.delta}")
        return StabilityHistogram(self.epsilon, self.delta)

    def cell_counts(self, X, y):
        """The data-dependent part: ``(side, cells (L, d), counts (L, 2))`` over the occupied cubes.

        ``counts[j, y]`` is the number of points of label ``y`` in cube ``cells[j]``; the joint cells
        ``(cube, label)`` are what the stability histogram releases (001 Algorithm 3 line 4 on
        ``R^d × {0, 1}``).

        Parameters
        ----------
        X : array_like, shape (n, d)
            Finite points, n >= 1.
        y : array_like, shape (n,)
            Labels in {0, 1}.

        Returns
        -------
        side : float
            ``side``, or ``n^{-1/(2d)}`` when it is None.
        cells : ndarray of int64, shape (L, d)
            Occupied cubes, lexicographic order.
        counts : ndarray of int64, shape (L, 2)
            Label-0 and label-1 counts per cube.

        Raises
        ------
        ValueError
            If ``X`` is not finite of shape (n, d), n = 0, ``y`` is not binary, or ``side`` <= 0.

        References
        ----------
        001 Algorithm 3 line 4, Remark 1.8.

        Examples
        --------
        >>> side, cells, counts = PCDEClassifier(side=1.0).cell_counts([[0.2], [0.5], [0.7], [3.5]], [1, 1, 0, 0])
        >>> cells.ravel().tolist(), counts.tolist()
        ([0, 3], [[1, 2], [1, 0]])
        """
        X = check_finite_points(X)
        n, d = X.shape
        if n < 1:
            raise ValueError(f"n must be >= 1 (the number of points), got n={n}")
        y = check_binary_labels(y, n)
        if self.side is None:
            side = float(n) ** (-1.0 / (2 * d))
        else:
            side = check_real("side", self.side, low=0.0, low_open=True)
        cells, total = occupied_cubes(X, side)
        ones = y == 1
        if ones.any():
            cells1, count1 = occupied_cubes(X[ones], side)
        else:
            cells1, count1 = np.empty((0, d), np.int64), np.empty(0, np.int64)
        return side, cells, _merge_cells(cells, total, cells1, count1)

    def fit(self, X, y) -> "PCDEClassifier":
        """Release the joint (cube, label) counts and set the plug-in rule ``1[ĉ_{k,1} > ĉ_{k,0}]``.

        Parameters
        ----------
        X : array_like, shape (n, d)
            Finite points of R^d, n >= 1.
        y : array_like, shape (n,)
            Labels in {0, 1}.

        Returns
        -------
        PCDEClassifier
            self, with ``side_``, ``d_``, ``n_``, ``cells_``, ``c_hat_``, ``counts_`` and ``bits_``.

        Raises
        ------
        ValueError
            As listed in the class docstring.

        References
        ----------
        001 Remark 1.8, Algorithm 3.

        Examples
        --------
        >>> X, y = np.array([[0.2], [0.5], [0.7], [3.5]]), np.array([1, 1, 0, 0])
        >>> clf = PCDEClassifier(epsilon=None, side=1.0).fit(X, y)
        >>> clf.bits_.tolist()
        [1, 0]
        """
        X, y = self._check_input(X, y)
        mech = self.mechanism()
        rng = self._random_generator()
        side, cells, counts = self.cell_counts(X, y)
        released = counts.astype(float) if mech is None else mech.release(counts, rng)
        keep = (released > 0).any(axis=1)
        self.side_, self.d_, self.n_ = side, cells.shape[1], int(np.shape(X)[0])
        self.n_features_in_, self.classes_ = self.d_, np.array([0, 1])
        self.cells_, self.c_hat_, self.counts_ = cells[keep], released[keep], counts[keep]
        self.bits_ = (self.c_hat_[:, 1] > self.c_hat_[:, 0]).astype(np.int64)
        return self

    def cube_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Corners of the listed cubes.

        Returns
        -------
        lo, hi : ndarray of float, shape (L, d)
            ``cells_ * side_`` and ``lo + side_``.

        Raises
        ------
        ValueError
            If the classifier is not fitted.

        Examples
        --------
        >>> X, y = np.array([[0.2], [0.5], [0.7], [3.5]]), np.array([1, 1, 0, 0])
        >>> clf = PCDEClassifier(epsilon=None, side=1.0).fit(X, y)
        >>> [a.ravel().tolist() for a in clf.cube_bounds()]
        [[0.0, 3.0], [1.0, 4.0]]
        """
        check_fitted(self, "cells_")
        lo = self.cells_ * self.side_
        return lo, lo + self.side_

    def _positions(self, X) -> np.ndarray:
        """Row of ``cells_`` holding each query point's cube, -1 when that cube is not listed; (q,)."""
        check_fitted(self, "cells_")
        X = check_finite_points(X)
        K = np.floor(X / self.side_).astype(np.int64)
        L = self.cells_.shape[0]
        if L == 0 or K.shape[0] == 0:
            return np.full(K.shape[0], -1, np.int64)
        _, inv = np.unique(np.concatenate([self.cells_, K]), axis=0, return_inverse=True)
        inv = inv.ravel()
        pos = np.full(inv.max() + 1, -1, np.int64)
        pos[inv[:L]] = np.arange(L)
        return pos[inv[L:]]

    def joint_density(self, X) -> np.ndarray:
        """The released joint densities ``(f̂_0(x), f̂_1(x)) = ĉ_{k(x), y} / (n r^d)`` at query points.

        Parameters
        ----------
        X : array_like, shape (q, d)
            Finite query points.

        Returns
        -------
        ndarray of float, shape (q, 2)
            0 on cubes that are not listed.

        Raises
        ------
        ValueError
            If the classifier is not fitted or ``X`` is not finite with d columns.

        References
        ----------
        001 Algorithm 3 line 6 (the density on ``R^d × {0, 1}``).

        Examples
        --------
        >>> X, y = np.array([[0.2], [0.5], [0.7], [3.5]]), np.array([1, 1, 0, 0])
        >>> clf = PCDEClassifier(epsilon=None, side=1.0).fit(X, y)
        >>> clf.joint_density([[0.9], [9.0]]).tolist()  # cube [0, 1): counts (1, 2) over n r^d = 4
        [[0.25, 0.5], [0.0, 0.0]]
        """
        self._check_predict_input(X)
        p = self._positions(X)
        out = np.zeros((p.size, 2))
        hit = p >= 0
        out[hit] = self.c_hat_[p[hit]] / (self.n_ * self.side_ ** self.d_)
        return out

    def predict(self, X) -> np.ndarray:
        """Labels of query points: ``1[f̂_1 > f̂_0]`` on their cube (0 on unlisted cubes).

        Parameters
        ----------
        X : array_like, shape (q, d)
            Finite query points.

        Returns
        -------
        ndarray of int64, shape (q,)
            Labels in {0, 1}.

        Raises
        ------
        ValueError
            If the classifier is not fitted or ``X`` is not finite with d columns.

        References
        ----------
        001 Definition 2.6 (the plug-in rule), Remark 1.8.

        Examples
        --------
        >>> X, y = np.array([[0.2], [0.5], [0.7], [3.5]]), np.array([1, 1, 0, 0])
        >>> clf = PCDEClassifier(epsilon=None, side=1.0).fit(X, y)
        >>> clf.predict([[0.9], [3.1], [-7.0]]).tolist()
        [1, 0, 0]
        """
        self._check_predict_input(X)
        p = self._positions(X)
        return np.where(p >= 0, self.bits_[np.maximum(p, 0)] if self.bits_.size else 0, 0).astype(np.int64)
