"""PCL: the private histogram classifier of 001 Algorithm 2 on ``[0, 1]^d`` (full DP), and its
non-private histogram rule.

Algorithm (001 Algorithm 2, Theorem 3.1): cubes of side ``r = n^{-1/(2d)}``; on cube ``C``

    h(x) = 1[ Σ_{x_i ∈ C(x)} (y_i − 1/2) + w_C > 0 ],   w_C ~ Lap(1/ε) independent per cube,

the form the proof of Theorem 3.1 uses (equal to ``Σ y_i + Lap(1/ε) > |C|/2``). Under full DP a
replaced point ``(x, y) -> (x', y')`` moves the votes of at most two cubes by 1/2 each (or one cube
by 1), so the vote vector has L1 sensitivity 1 and ``Lap(1/ε)`` gives ε-DP
(``proofs_checks.full_dp`` checks it exactly).

**Lazy noise.** Only occupied cubes are stored (sorted flat indices, counts, doubled votes
``V = Σ (2 y_i − 1)``). The noise of cube ``j`` is ``keyed_laplace(key, j)``, a function of a 64-bit
key drawn from ``rng`` at fit time and of ``j`` alone (:mod:`simulations.kernels_cells`): an empty
cube's noise is computed when the cube is first queried and is the same at every later query, and
the lazy learner (``lazy=True``) returns exactly the classifier of the eager one (``lazy=False``,
every cube's noise drawn at fit time). With the paper's ``r`` the grid has ``m^d <= (n^{1/(2d)}+1)^d``
cubes, i.e. O(√n) for every d, so laziness saves little on ``[0, 1]^d``; it is what makes a
user-chosen tiny ``side`` (``m^d`` up to 2^62) possible.

The exact law of the released classifier: independent bits with ``P(h_j = 1) = P(W > −V_j/2)``
(:meth:`PCL.probability_one`, Laplace tails), ``1/2`` on an empty cube.

References: 001 Algorithm 2, Theorems 3.1-3.2.
"""

from __future__ import annotations

import copy
import math

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin

from limits.validation import check_positive, check_real
from simulations.kernels_cells import cube_index_numpy, cube_votes, first_outside_unit_cube, keyed_laplace
from simulations.laws.consistency import cubes_per_axis
from simulations.mechanisms.laplace import laplace_logsf
from simulations.seeding import check_generator

from ._common import check_fitted
from ._sklearn import LabelDPEstimatorMixin

__all__ = ["PCL", "check_cube_points", "check_binary_labels", "pcl_side"]

DENSE_LIMIT = 1 << 26  # dense per-cube arrays during fit up to this many cubes, sort-based beyond


def pcl_side(n: int, d: int) -> float:
    """The cube side ``r = n^{-1/(2d)}`` of PCL (001 Algorithm 2, line 2).

    Parameters
    ----------
    n : int >= 1
        Sample size.
    d : int >= 1
        Dimension.

    Returns
    -------
    float
        ``n ** (-1 / (2 d))``, in (0, 1].

    Raises
    ------
    ValueError
        If ``n`` or ``d`` is not an integer >= 1.

    References
    ----------
    001 Algorithm 2 line 2, Theorem 3.2.

    Examples
    --------
    >>> pcl_side(10_000, 2)  # (10^4)^(-1/4)
    0.1
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"n must be an integer >= 1, got n={n!r}")
    if isinstance(d, bool) or not isinstance(d, (int, np.integer)) or d < 1:
        raise ValueError(f"d must be an integer >= 1, got d={d!r}")
    return float(n) ** (-1.0 / (2 * d))


def check_cube_points(X, name: str = "X", d: int | None = None) -> np.ndarray:
    """``X`` as a C-contiguous float64 array of shape (n, d) inside ``[0, 1]^d``.

    Parameters
    ----------
    X : array_like, shape (n, d)
        Points to check.
    name : str, default "X"
        The argument's name in error messages.
    d : int or None, default None
        Required number of columns (the fitted d), or any.

    Returns
    -------
    ndarray of float64, shape (n, d)

    Raises
    ------
    ValueError
        If ``X`` is not 2-D, has the wrong number of columns, holds NaN, or leaves ``[0, 1]^d``
        (the message names the first offending row).

    References
    ----------
    001 Algorithm 2 (the domain ``[0, 1]^d``).

    Examples
    --------
    >>> check_cube_points([[0.0, 1.0]]).shape
    (1, 2)
    >>> check_cube_points([[0.5, 1.5]])
    Traceback (most recent call last):
    ...
    ValueError: X must lie in the domain [0, 1]^d, got X[0]=[0.5, 1.5]
    """
    arr = np.asarray(X, dtype=float)
    if arr.ndim != 2 or arr.shape[1] < 1:
        raise ValueError(f"{name} must have shape (n, d) with d >= 1, got shape {arr.shape}")
    if d is not None and arr.shape[1] != d:
        raise ValueError(f"{name} must have {d} columns (the fitted d), got shape {arr.shape}")
    arr = np.ascontiguousarray(arr)
    if arr.size:
        first = first_outside_unit_cube(arr)
        if first >= 0 and np.isnan(arr).any():
            i = int(np.argwhere(np.isnan(arr))[0, 0])
            raise ValueError(f"{name} must not contain NaN, got {name}[{i}]={arr[i].tolist()}")
        if first >= 0:
            i = first // arr.shape[1]
            raise ValueError(f"{name} must lie in the domain [0, 1]^d, got {name}[{i}]={arr[i].tolist()}")
    return arr


def check_binary_labels(y, n: int) -> np.ndarray:
    """``y`` as an int64 array of shape (n,) with labels in {0, 1}.

    Parameters
    ----------
    y : array_like, shape (n,)
        Labels (integers, booleans, or floats equal to 0 or 1).
    n : int
        The required length (the number of points).

    Returns
    -------
    ndarray of int64, shape (n,)

    Raises
    ------
    ValueError
        If the shape is not (n,) or a label is not 0 or 1.

    References
    ----------
    001 Section 1 (binary classification, labels in {0, 1}).

    Examples
    --------
    >>> check_binary_labels([1.0, 0.0, True], 3).tolist()
    [1, 0, 1]
    """
    arr = np.asarray(y)
    if arr.shape != (n,):
        raise ValueError(f"y must have shape ({n},), got shape {arr.shape}")
    if arr.size:
        # integer labels: two reductions instead of two comparisons, an or and a reduction
        ok = (arr.min() >= 0 and arr.max() <= 1) if arr.dtype.kind in "biu" else np.all((arr == 0) | (arr == 1))
        if not ok:
            raise ValueError(f"y must hold labels in {{0, 1}}, got y={arr[:10]!r}...")
    return arr.astype(np.int64, copy=False)


class PCL(LabelDPEstimatorMixin, ClassifierMixin, BaseEstimator):
    """Private histogram classifier (001 Algorithm 2), ε-DP under full DP; ``epsilon=None``: the
    non-private histogram rule ``1[Σ (y_i − 1/2) > 0]`` (ties and empty cubes -> 0).

    Parameters
    ----------
    epsilon : float > 0 or None
    side : float in (0, 1] or None
        Cube side; None: ``n^{-1/(2d)}`` (001 Algorithm 2 line 2).
    lazy : bool
        Draw an empty cube's noise at its first query (True) or every cube's at fit time (False).
        Both give the same classifier (same keyed noise).
    random_state : None, int or numpy.random.Generator, default None
        Draws the 64-bit noise key at ``fit`` (nothing is drawn when ``epsilon`` is None): a Generator is
        drawn from as it is (the engine passes its per-trial stream), an int seeds a fresh one at each ``fit``.

    Attributes
    ----------
    side_, d_, n_, m_ : float, int, int, int
        Cube side, dimension, sample size, cubes per axis.
    n_features_in_ : int
        d.
    classes_ : ndarray, [0, 1]
    occupied_ : ndarray of int64, shape (L,)
        Sorted flat indices of the occupied cubes (C order).
    counts_, votes_ : ndarray of int64, shape (L,)
        ``N_j`` and ``V_j = Σ (2 y_i − 1)`` of those cubes.
    noise_key_ : int or None
        The 64-bit key of the per-cube noise stream.
    noise_ : ndarray of float64, shape (m^d,), or None
        Every cube's noise (eager mode only).

    References
    ----------
    001 Algorithm 2, Theorems 3.1-3.2.

    Examples
    --------
    Cube [0, 1/2) votes 2 to 1 for label 1 (V = 1), cube [1/2, 1] votes 0 to 1 (V = −1); the
    released bit of a cube is 1 with probability :math:`P(W > -V/2)`, :math:`W \\sim \\mathrm{Lap}(1)`:
    :math:`1 - e^{-1/2}/2 \\approx 0.6967` and :math:`e^{-1/2}/2 \\approx 0.3033`.

    >>> X, y = np.array([[0.1], [0.2], [0.3], [0.9]]), np.array([1, 1, 0, 0])
    >>> est = PCL(epsilon=1.0, side=0.5, random_state=np.random.default_rng(0)).fit(X, y)
    >>> est.votes_.tolist(), np.round(est.probability_one([0, 1]), 4).tolist()
    ([1, -1], [0.6967, 0.3033])
    """

    _unit_cube = True
    _label_domain = "binary"

    def __init__(self, *, epsilon: float | None = 1.0, side: float | None = None, lazy: bool = True,
                 random_state=None):
        self.epsilon = epsilon
        self.side = side
        self.lazy = lazy
        self.random_state = random_state

    # ------------------------------------------------------------------------------------ fit
    def fit(self, X, y) -> "PCL":
        """Count the votes of the occupied cubes and draw the noise key.

        Parameters
        ----------
        X : array_like, shape (n, d)
            Points in ``[0, 1]^d``, n >= 1.
        y : array_like, shape (n,)
            Labels in {0, 1}.

        Returns
        -------
        PCL
            self, with ``side_``, ``d_``, ``n_``, ``m_``, ``occupied_``, ``counts_``, ``votes_``,
            ``noise_key_`` and ``noise_``.

        Raises
        ------
        ValueError
            If ``epsilon`` or ``side`` is out of range, ``X`` leaves ``[0, 1]^d``, n = 0, ``y`` is not
            binary, the grid has more than 2^62 cubes, or ``random_state`` is invalid.

        References
        ----------
        001 Algorithm 2 lines 2-5.

        Examples
        --------
        >>> est = PCL(epsilon=None, side=0.5).fit([[0.1], [0.2], [0.9]], [1, 1, 0])
        >>> est.m_, est.occupied_.tolist(), est.counts_.tolist(), est.votes_.tolist()
        (2, [0, 1], [2, 1], [2, -1])
        """
        X, y = self._check_input(X, y)
        if self.epsilon is not None:
            check_positive("epsilon", self.epsilon)
        rng = self._random_generator()
        X = check_cube_points(X)
        n, d = X.shape
        if n < 1:
            raise ValueError(f"n must be >= 1 (the number of points), got n={n}")
        y = check_binary_labels(y, n)
        side = pcl_side(n, d) if self.side is None else check_real("side", self.side, low=0.0, high=1.0,
                                                                    low_open=True)
        m = cubes_per_axis(side)
        if d * math.log2(m) > 62:
            raise ValueError(f"side={side} gives m^d = {m}^{d} cubes, more than 2^62 flat indices")
        if m ** d <= DENSE_LIMIT:
            counts, votes = cube_votes(X, y, side, m)
            occ = np.flatnonzero(counts)
            counts, votes = counts[occ], votes[occ]
        else:  # sort-based: only occupied cubes ever exist
            idx = cube_index_numpy(X, side, m)
            occ, inv = np.unique(idx, return_inverse=True)
            counts = np.bincount(inv, minlength=occ.size).astype(np.int64)
            votes = np.rint(np.bincount(inv, weights=2 * y - 1, minlength=occ.size)).astype(np.int64)
        self.side_, self.d_, self.n_, self.m_ = side, d, n, m
        self.n_features_in_, self.classes_ = d, np.array([0, 1])
        self.occupied_, self.counts_, self.votes_ = occ.astype(np.int64), counts, votes
        self._draw_noise(rng)
        return self

    def _draw_noise(self, rng) -> None:
        """The release step of Algorithm 2: the per-cube Laplace(1/ε) noise key from ``rng`` (none if ε is None)."""
        if self.epsilon is None:
            self.noise_key_ = None
            self.noise_ = None
            return
        self.noise_key_ = int(check_generator(rng).integers(0, 2 ** 64, dtype=np.uint64))
        self.noise_ = None if self.lazy else keyed_laplace(self.noise_key_, np.arange(self.n_cubes_), 1 / self.epsilon)

    def released(self, epsilon, rng) -> "PCL":
        """A copy of this fitted rule released at ``epsilon``: the same cube votes, its own noise from ``rng``.

        Equal, attribute for attribute, to ``PCL(epsilon=epsilon, ..., random_state=rng).fit(X, y)`` on the data this
        rule was fitted on (the votes do not depend on ε), without counting the votes again.

        Parameters
        ----------
        epsilon : float > 0 or None
            The privacy parameter of the copy (None: non-private).
        rng : numpy.random.Generator
            Draws the copy's noise key (one 64-bit integer, as :meth:`fit` draws it).

        Returns
        -------
        PCL

        Raises
        ------
        ValueError
            If ``epsilon`` is not a positive number.

        References
        ----------
        001 Algorithm 2 (the noisy majority vote per cube).

        Examples
        --------
        >>> import numpy as np
        >>> X, y = np.array([[0.1], [0.2], [0.9]]), np.array([1, 1, 0])
        >>> base = PCL(epsilon=None, side=0.5).fit(X, y)
        >>> a = base.released(1.0, np.random.default_rng(0))
        >>> b = PCL(epsilon=1.0, side=0.5, random_state=np.random.default_rng(0)).fit(X, y)
        >>> a.noise_key_ == b.noise_key_, base.noise_key_ is None
        (True, True)
        """
        if epsilon is not None:
            check_positive("epsilon", epsilon)
        check_fitted(self, "d_")
        est = copy.copy(self)
        est.epsilon = epsilon
        est._draw_noise(rng)
        return est

    # ------------------------------------------------------------------------------- queries
    @property
    def n_cubes_(self) -> int:
        """Number of cubes of the grid, ``m^d`` (an int; the classifier is defined on all of them).

        Examples
        --------
        >>> PCL(epsilon=None, side=0.25).fit([[0.1, 0.1]], [1]).n_cubes_
        16
        """
        return self.m_ ** self.d_

    def cube_index(self, X) -> np.ndarray:
        """Flat index (C order) of the cube of each query point.

        Parameters
        ----------
        X : array_like, shape (q, d)
            Points in ``[0, 1]^d``.

        Returns
        -------
        ndarray of int64, shape (q,)

        Raises
        ------
        ValueError
            If the classifier is not fitted or ``X`` leaves ``[0, 1]^d`` or has the wrong d.

        Examples
        --------
        >>> PCL(epsilon=None, side=0.5).fit([[0.1, 0.1]], [1]).cube_index([[0.1, 0.9], [0.9, 0.1]]).tolist()
        [1, 2]
        """
        X = check_cube_points(X, d=self.d_)
        return cube_index_numpy(X, self.side_, self.m_)

    def votes_of(self, cubes) -> np.ndarray:
        """Doubled votes ``V_j = Σ (2 y_i − 1)`` of the given cubes (0 for empty cubes).

        Parameters
        ----------
        cubes : array_like of int
            Flat cube indices in ``[0, m^d)``, any shape.

        Returns
        -------
        ndarray of int64, same shape as ``cubes``

        Raises
        ------
        ValueError
            If the classifier is not fitted.

        References
        ----------
        001 Algorithm 2 line 4 (the vote, doubled to stay an integer).

        Examples
        --------
        >>> PCL(epsilon=None, side=0.5).fit([[0.1], [0.2], [0.3]], [1, 1, 0]).votes_of([0, 1]).tolist()
        [1, 0]
        """
        check_fitted(self, "d_")
        cubes = np.asarray(cubes, dtype=np.int64)
        pos = np.searchsorted(self.occupied_, cubes)
        pos = np.minimum(pos, max(self.occupied_.size - 1, 0))
        hit = self.occupied_.size > 0
        found = (self.occupied_[pos] == cubes) if hit else np.zeros(cubes.shape, bool)
        return np.where(found, self.votes_[pos] if hit else 0, 0)

    def noise_of(self, cubes) -> np.ndarray:
        """The Laplace(1/ε) noise ``w_j`` of the given cubes (keyed: identical in lazy and eager modes).

        Parameters
        ----------
        cubes : array_like of int
            Flat cube indices in ``[0, m^d)``, any shape.

        Returns
        -------
        ndarray of float, same shape as ``cubes``
            Zeros when ``epsilon`` is None.

        Raises
        ------
        ValueError
            If the classifier is not fitted.

        References
        ----------
        001 Algorithm 2 line 5.

        Examples
        --------
        >>> X, y = [[0.1], [0.9]], [1, 0]
        >>> lazy = PCL(epsilon=1.0, side=0.25, random_state=np.random.default_rng(3)).fit(X, y)
        >>> eager = PCL(epsilon=1.0, side=0.25, lazy=False, random_state=np.random.default_rng(3)).fit(X, y)
        >>> bool(np.array_equal(lazy.noise_of([0, 2]), eager.noise_of([0, 2])))
        True
        """
        check_fitted(self, "d_")
        cubes = np.asarray(cubes, dtype=np.int64)
        if self.epsilon is None:
            return np.zeros(cubes.shape)
        if self.noise_ is not None:
            return self.noise_[cubes]
        return keyed_laplace(self.noise_key_, cubes, 1 / self.epsilon).reshape(cubes.shape)

    def cube_bits(self, cubes) -> np.ndarray:
        """The classifier on the given cubes, ``1[V_j/2 + w_j > 0]``.

        Parameters
        ----------
        cubes : array_like of int
            Flat cube indices in ``[0, m^d)``, any shape.

        Returns
        -------
        ndarray of int64, same shape as ``cubes``
            Labels in {0, 1}.

        Raises
        ------
        ValueError
            If the classifier is not fitted.

        References
        ----------
        001 Algorithm 2 line 6.

        Examples
        --------
        >>> PCL(epsilon=None, side=0.5).fit([[0.1], [0.9]], [1, 0]).cube_bits([0, 1]).tolist()
        [1, 0]
        """
        v = self.votes_of(cubes)
        return (0.5 * v + self.noise_of(cubes) > 0).astype(np.int64)

    def all_bits(self) -> np.ndarray:
        """The classifier on every cube of the grid (C order).

        Returns
        -------
        ndarray of int64, shape (m^d,)
            Labels in {0, 1}.

        Raises
        ------
        ValueError
            If the classifier is not fitted.

        Examples
        --------
        >>> PCL(epsilon=None, side=0.25).fit([[0.1], [0.6]], [1, 1]).all_bits().tolist()
        [1, 0, 1, 0]
        """
        check_fitted(self, "d_")
        return self.cube_bits(np.arange(self.n_cubes_))

    def predict(self, X) -> np.ndarray:
        """Labels of query points: the bit of each point's cube.

        Parameters
        ----------
        X : array_like, shape (q, d)
            Points in ``[0, 1]^d``.

        Returns
        -------
        ndarray of int64, shape (q,)
            Labels in {0, 1}.

        Raises
        ------
        ValueError
            If the classifier is not fitted or ``X`` leaves ``[0, 1]^d`` or has the wrong d.

        Examples
        --------
        >>> PCL(epsilon=None, side=0.5).fit([[0.1], [0.9]], [1, 0]).predict([[0.3], [0.7]]).tolist()
        [1, 0]
        """
        self._check_predict_input(X)
        check_fitted(self, "d_")
        return self.cube_bits(self.cube_index(X))

    def probability_one(self, cubes) -> np.ndarray:
        """Exact ``P(h_j = 1) = P(W > −V_j/2)``, ``W ~ Lap(1/ε)``, over the noise given the data.

        Parameters
        ----------
        cubes : array_like of int
            Flat cube indices in ``[0, m^d)``, any shape.

        Returns
        -------
        ndarray of float, same shape as ``cubes``
            In [0, 1]: 1/2 on empty cubes; ``1[V_j > 0]`` when ``epsilon`` is None.

        Raises
        ------
        ValueError
            If the classifier is not fitted.

        References
        ----------
        001 Algorithm 2 line 6 and the proof of Theorem 3.1 (Laplace tails).

        Examples
        --------
        An empty cube is 1 with probability 1/2; a cube with V = 2 with :math:`1 - e^{-1}/2` at ε = 1:

        >>> est = PCL(epsilon=1.0, side=0.5, random_state=0).fit([[0.1], [0.2]], [1, 1])
        >>> np.round(est.probability_one([0, 1]), 4).tolist()
        [0.8161, 0.5]
        """
        check_fitted(self, "d_")
        v = self.votes_of(cubes).astype(float)
        if self.epsilon is None:
            return (v > 0).astype(float)
        return np.exp(laplace_logsf(-0.5 * v, 1 / self.epsilon))
