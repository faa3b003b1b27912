"""A two-branch collaborative-filtering classifier of ratings (004 Appendix B, MovieLens).

004 trains "a two branch neural network from the neural collaborative filtering algorithm" (NCF,
He et al. 2017, the paper's reference [54]) on MovieLens-1M, treating the 5 ratings as categorical
labels, and predicts "the average rating according to the softmax probabilities" (004 Appendix B).
:class:`TwoBranchCF` is that model in numpy:

* branch 1 (generalized matrix factorization): user and movie embeddings ``P[u], Q[i]`` of size
  ``embedding_dim``, combined by the element-wise product ``P[u] * Q[i]``;
* branch 2 (multi-layer perceptron): separate embeddings ``U[u], V[i]`` of the same size,
  concatenated and passed through one ReLU layer of ``hidden`` units;
* the two branch outputs are concatenated and mapped by a linear layer to K logits; softmax.

Training minimizes the cross entropy of the (possibly privatized) rating classes plus the
ℓ2 penalty ``l2 / 2 · ||θ||²`` (004 Appendix B: coefficient 1e-4) by minibatch Adam with lazy
(row-sparse) updates of the embedding tables: a row's moments and its penalty are updated only in
the steps whose minibatch uses it.

Deviations from 004 Appendix B (which gives the optimizer family, batch size 128 and the ℓ2
coefficient, but no sizes): Adam with a constant learning rate instead of SGD with momentum and a
warm-up / piecewise-constant schedule; a default batch of 512 (throughput in numpy on a CPU); one
hidden layer and small embeddings (sizes not given in 004; NCF's defaults are 8-64); few epochs
(chosen on validation data by the experiment that uses the model).

References: 004 Section 5.1 (Table 3), Appendix B (MovieLens set-up, architecture, evaluation).
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from numba import njit
from threadpoolctl import threadpool_limits

from limits.validation import check_int, check_real
from simulations.estimators._common import check_fitted
from simulations.estimators._sklearn import LabelDPEstimatorMixin

__all__ = ["TwoBranchCF", "expected_rating", "rmse"]


def expected_rating(proba: np.ndarray, ratings=None) -> np.ndarray:
    """The mean of the rating under each row of class probabilities, (m, K) -> (m,).

    Parameters
    ----------
    proba : ndarray, shape (m, K)
        Rows of class probabilities (class k is the k-th rating).
    ratings : array_like, shape (K,), optional
        The rating of each class; default ``1, ..., K`` (MovieLens: class = rating - 1).

    Returns
    -------
    ndarray, shape (m,)
        ``sum_k proba[:, k] * ratings[k]``: 004 Appendix B's prediction ("the average rating
        according to the softmax probabilities").

    Raises
    ------
    ValueError
        If ``proba`` is not 2-D or ``ratings`` does not have K entries.

    References
    ----------
    004 Appendix B (evaluation on MovieLens).

    Examples
    --------
    >>> expected_rating(np.array([[0.0, 0.0, 0.5, 0.5, 0.0], [0.2, 0.2, 0.2, 0.2, 0.2]]))
    array([3.5, 3. ])
    """
    p = np.asarray(proba, dtype=float)
    if p.ndim != 2:
        raise ValueError(f"proba must have shape (m, K), got shape {p.shape}")
    r = np.arange(1, p.shape[1] + 1, dtype=float) if ratings is None else np.asarray(ratings, dtype=float)
    if r.shape != (p.shape[1],):
        raise ValueError(f"ratings must hold K={p.shape[1]} values, got ratings={ratings!r}")
    return p @ r


def rmse(prediction, target) -> float:
    """Root mean squared error ``sqrt(mean((prediction - target)²))`` of two (m,) arrays.

    Parameters
    ----------
    prediction, target : array_like, shape (m,), m >= 1

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If the shapes differ or are empty.

    References
    ----------
    004 Table 3 (test RMSE on MovieLens-1M).

    Examples
    --------
    >>> rmse([3.0, 4.0], [3.0, 2.0])
    1.4142135623730951
    """
    a, b = np.asarray(prediction, dtype=float), np.asarray(target, dtype=float)
    if a.shape != b.shape or a.ndim != 1 or a.size == 0:
        raise ValueError(f"prediction and target must be non-empty (m,) arrays of one shape, got {a.shape} and {b.shape}")
    return float(np.sqrt(np.mean((a - b) ** 2)))


@njit(cache=True)
def _sparse_adam_rows(table, m, v, ids, grad, l2, beta1, beta2, step, eps, slot, rows, buf):  # pragma: no cover (numba)
    """Lazy Adam on the rows of ``table`` a minibatch uses: per-example gradient rows ``grad[j]`` of
    row ``ids[j]`` are summed per row (in example order), the ℓ2 term ``l2 * table[r]`` added, and
    Adam's moments and the row updated; the other rows are untouched. ``slot`` (n_rows,) must be -1
    everywhere on entry and is left so; ``rows`` (B,) and ``buf`` (B, d) are scratch."""
    n = 0
    d = table.shape[1]
    for j in range(ids.shape[0]):
        r = ids[j]
        if slot[r] < 0:
            slot[r] = n
            rows[n] = r
            for c in range(d):
                buf[n, c] = 0.0
            n += 1
        k = slot[r]
        for c in range(d):
            buf[k, c] += grad[j, c]
    for k in range(n):
        r = rows[k]
        slot[r] = -1
        for c in range(d):
            g = buf[k, c] + l2 * table[r, c]
            m[r, c] = beta1 * m[r, c] + (1.0 - beta1) * g
            v[r, c] = beta2 * v[r, c] + (1.0 - beta2) * g * g
            table[r, c] -= step * m[r, c] / (np.sqrt(v[r, c]) + eps)


class _LazyAdam:
    """Adam (Kingma & Ba): dense for the layers, lazy (rows of the minibatch only) for the embeddings."""

    def __init__(self, params: dict, lr: float, beta1=0.9, beta2=0.999, eps=1e-8):
        self.lr, self.b1, self.b2, self.eps = lr, beta1, beta2, eps
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}
        self.slot = {k: np.full(v.shape[0], -1, dtype=np.int64) for k, v in params.items() if k in _EMBEDDINGS}
        self.t = 0

    def step(self, params: dict, grads: dict, sparse: dict, l2: float) -> None:
        """``grads``: dense gradients (penalty included); ``sparse``: embedding -> (ids, per-example grads)."""
        self.t += 1
        c1, c2 = 1.0 - self.b1 ** self.t, 1.0 - self.b2 ** self.t
        step = self.lr * np.sqrt(c2) / c1
        for k, g in grads.items():
            m, v = self.m[k], self.v[k]
            m *= self.b1
            m += (1 - self.b1) * g
            v *= self.b2
            v += (1 - self.b2) * g * g
            params[k] -= step * m / (np.sqrt(v) + self.eps)
        for k, (ids, g) in sparse.items():
            rows = np.empty(ids.size, dtype=np.int64)
            buf = np.empty((ids.size, g.shape[1]))
            _sparse_adam_rows(params[k], self.m[k], self.v[k], ids, np.ascontiguousarray(g), l2, self.b1, self.b2,
                              step, self.eps, self.slot[k], rows, buf)


_EMBEDDINGS = ("P", "Q", "U", "V")


class TwoBranchCF(LabelDPEstimatorMixin, ClassifierMixin, BaseEstimator):
    """Two-branch (GMF + MLP) neural collaborative filtering with a K-class softmax output.

    Parameters
    ----------
    num_users, num_items : int >= 1
        Sizes of the id spaces: user ids in ``[0, num_users)``, item (movie) ids in ``[0, num_items)``.
    num_classes : int >= 2, default 5
        K: the rating classes (MovieLens: rating - 1).
    embedding_dim : int >= 1, default 16
        Size of each of the four embedding tables' rows.
    hidden : int >= 1, default 32
        Units of the MLP branch's ReLU layer.
    epochs : int >= 1, default 8
    batch_size : int >= 1, default 512
    learning_rate : float > 0, default 3e-3
        Adam's step size.
    l2 : float >= 0, default 1e-4
        ℓ2 coefficient (004 Appendix B).
    random_state : int, numpy SeedSequence, Generator or None, default 0
        Drives the initialisation and the minibatch order (a stream of :mod:`simulations.seeding`);
        a Generator is used as it is (its state advances with each ``fit``).
    validation : (X_val, score) or None
        Early stopping: after each epoch ``score(proba)`` (lower is better) is computed from the
        class probabilities on ``X_val`` (an (m, 2) id array), and the parameters of the best epoch
        are kept (the first best on ties). ``score`` must see only data the caller may use (under
        label DP: privatized labels).

    Attributes
    ----------
    params_ : dict of ndarray
        ``P, Q, U, V`` (embedding tables), ``W1, b1`` (MLP layer), ``Wo, bo`` (output layer).
    loss_curve_ : list of float
        Mean training cross entropy of each epoch.
    validation_curve_ : list of float
        ``score`` after each epoch (empty without ``validation``).
    best_epoch_ : int
        Number of epochs of the parameters kept (``epochs`` without ``validation``).
    best_score_ : float
        ``score`` of the kept parameters (NaN without ``validation``).
    classes_ : ndarray, ``0..K-1``
    n_features_in_ : int, 2 (user id, item id)

    References
    ----------
    004 Appendix B (two-branch NCF model on MovieLens, ratings as categorical labels, batch size 128,
    ℓ2 1e-4); He et al., Neural Collaborative Filtering (004's reference [54]).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = np.column_stack([rng.integers(0, 20, 400), rng.integers(0, 30, 400)])
    >>> y = (X[:, 0] % 5 + X[:, 1] % 2) % 5
    >>> model = TwoBranchCF(num_users=20, num_items=30, epochs=3, random_state=1).fit(X, y)
    >>> model.predict_proba(X[:2]).shape, model.predict(X[:2]).dtype
    ((2, 5), dtype('int64'))
    """

    _index_features = True
    _label_domain = "classes"

    def __init__(self, *, num_users: int, num_items: int, num_classes: int = 5, embedding_dim: int = 16,
                 hidden: int = 32, epochs: int = 8, batch_size: int = 512, learning_rate: float = 3e-3,
                 l2: float = 1e-4, random_state=0, validation=None):
        self.num_users = num_users
        self.num_items = num_items
        self.num_classes = num_classes
        self.embedding_dim = embedding_dim
        self.hidden = hidden
        self.epochs = epochs
        self.batch_size = batch_size
        self.learning_rate = learning_rate
        self.l2 = l2
        self.random_state = random_state
        self.validation = validation

    # ------------------------------------------------------------------------------- checks
    def _validate(self):
        for name in ("num_users", "num_items", "embedding_dim", "hidden", "epochs", "batch_size"):
            check_int(name, getattr(self, name), low=1)
        check_int("num_classes", self.num_classes, low=2)
        check_real("learning_rate", self.learning_rate, low=0.0, low_open=True)
        check_real("l2", self.l2, low=0.0)
        if self.validation is not None:
            ok = isinstance(self.validation, tuple) and len(self.validation) == 2 and callable(self.validation[1])
            if not ok:
                raise ValueError(f"validation must be None or a pair (X_val, score) with a callable score, "
                                 f"got validation={self.validation!r}")
            self._check_X(self.validation[0])

    def _check_X(self, X) -> tuple[np.ndarray, np.ndarray]:
        X = np.asarray(X)
        if X.ndim != 2 or X.shape[1] != 2 or not np.issubdtype(X.dtype, np.integer):
            raise ValueError(f"X must be an (n, 2) integer array of (user id, item id), got shape {X.shape} "
                             f"and dtype {X.dtype}")
        u, i = X[:, 0].astype(np.int64), X[:, 1].astype(np.int64)
        if u.size and (u.min() < 0 or u.max() >= self.num_users):
            raise ValueError(f"user ids must lie in [0, num_users={self.num_users}), got range [{u.min()}, {u.max()}]")
        if i.size and (i.min() < 0 or i.max() >= self.num_items):
            raise ValueError(f"item ids must lie in [0, num_items={self.num_items}), got range [{i.min()}, {i.max()}]")
        return u, i

    # ------------------------------------------------------------------------------ network
    def _init(self, rng: np.random.Generator) -> dict:
        d, h, K = self.embedding_dim, self.hidden, self.num_classes
        emb = 0.1
        return {
            "P": rng.normal(0.0, emb, (self.num_users, d)), "Q": rng.normal(0.0, emb, (self.num_items, d)),
            "U": rng.normal(0.0, emb, (self.num_users, d)), "V": rng.normal(0.0, emb, (self.num_items, d)),
            "W1": rng.normal(0.0, np.sqrt(2.0 / (2 * d)), (2 * d, h)), "b1": np.zeros(h),
            "Wo": rng.normal(0.0, np.sqrt(1.0 / (d + h)), (d + h, K)), "bo": np.zeros(K),
        }

    @staticmethod
    def _forward(p: dict, u: np.ndarray, i: np.ndarray):
        pu, qi = p["P"][u], p["Q"][i]
        x = np.concatenate([p["U"][u], p["V"][i]], axis=1)
        a = x @ p["W1"] + p["b1"]
        f = np.concatenate([pu * qi, np.maximum(a, 0.0)], axis=1)
        logits = f @ p["Wo"] + p["bo"]
        logits -= logits.max(axis=1, keepdims=True)
        e = np.exp(logits)
        return e / e.sum(axis=1, keepdims=True), (pu, qi, x, a, f)

    def fit(self, X, y):
        """Train by minibatch Adam on the softmax cross entropy plus ℓ2.

        Parameters
        ----------
        X : array_like of int, shape (n, 2)
            (user id, item id) pairs, n >= 1.
        y : array_like of int, shape (n,)
            Rating classes in ``[0, K)`` (privatized labels under label DP).

        Returns
        -------
        TwoBranchCF
            self, with ``params_``, ``loss_curve_``, ``validation_curve_``, ``best_epoch_`` and
            ``best_score_``.

        Raises
        ------
        ValueError
            If a hyperparameter is out of range, X is not (n, 2) integer ids within the id spaces, or
            y is not n integers in ``[0, K)``.

        References
        ----------
        004 Appendix B (training of the MovieLens model).

        Examples
        --------
        >>> X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]])
        >>> model = TwoBranchCF(num_users=2, num_items=2, num_classes=3, epochs=2, random_state=0).fit(X, [0, 1, 2, 0])
        >>> len(model.loss_curve_), model.best_epoch_
        (2, 2)
        """
        X, y = self._check_input(X, y)
        self._validate()
        u, i = self._check_X(X)
        y = np.asarray(y)
        if y.shape != (u.size,) or not np.issubdtype(y.dtype, np.integer) or (y.size and (y.min() < 0 or y.max() >= self.num_classes)):
            raise ValueError(f"y must hold {u.size} integers in [0, {self.num_classes}), got shape {y.shape}")
        if u.size == 0:
            raise ValueError("X must hold at least one rating, got 0 rows")
        rng = self._random_generator()
        # one BLAS thread: the products are tiny, and threads only contend (17x slower on a busy 2-core box)
        with threadpool_limits(limits=1, user_api="blas"):
            self._train(u, i, y, rng)
        self.classes_, self.n_features_in_ = np.arange(self.num_classes), 2
        return self

    def _train(self, u, i, y, rng) -> None:
        p = self._init(rng)
        opt = _LazyAdam(p, self.learning_rate)
        d, K, lam = self.embedding_dim, self.num_classes, self.l2
        onehot = np.eye(K)
        losses, curve = [], []
        best = (np.inf, self.epochs, None)
        if self.validation is not None:
            uv, iv = self._check_X(self.validation[0])
        for epoch in range(self.epochs):
            order = rng.permutation(u.size)
            total = 0.0
            for start in range(0, u.size, self.batch_size):
                b = order[start:start + self.batch_size]
                ub, ib, yb = u[b], i[b], y[b]
                prob, (pu, qi, x, a, f) = self._forward(p, ub, ib)
                total += -np.log(np.maximum(prob[np.arange(b.size), yb], 1e-300)).sum()
                dlog = (prob - onehot[yb]) / b.size
                df = dlog @ p["Wo"].T
                dg, dr = df[:, :d], df[:, d:]
                da = dr * (a > 0)
                dx = da @ p["W1"].T
                grads = {"Wo": f.T @ dlog + lam * p["Wo"], "bo": dlog.sum(axis=0),
                         "W1": x.T @ da + lam * p["W1"], "b1": da.sum(axis=0)}
                sparse = {"P": (ub, dg * qi), "Q": (ib, dg * pu), "U": (ub, dx[:, :d]), "V": (ib, dx[:, d:])}
                opt.step(p, grads, sparse, lam)
            losses.append(total / u.size)
            if self.validation is not None:
                score = float(self.validation[1](self._forward(p, uv, iv)[0]))
                curve.append(score)
                if score < best[0]:
                    best = (score, epoch + 1, {k: v.copy() for k, v in p.items()})
        self.params_ = p if best[2] is None else best[2]
        self.loss_curve_ = losses
        self.validation_curve_ = curve
        self.best_epoch_ = best[1]
        self.best_score_ = best[0] if curve else float("nan")

    def predict_proba(self, X) -> np.ndarray:
        """Softmax class probabilities of (user, item) pairs, computed in chunks of 65536 rows.

        Parameters
        ----------
        X : array_like of int, shape (m, 2)
            (user id, item id) pairs.

        Returns
        -------
        ndarray of float, shape (m, K)
            Rows summing to 1.

        Raises
        ------
        ValueError
            If the model is not fitted or ``X`` is not (m, 2) integer ids within the id spaces.

        Examples
        --------
        >>> X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]])
        >>> model = TwoBranchCF(num_users=2, num_items=2, num_classes=3, epochs=2, random_state=0).fit(X, [0, 1, 2, 0])
        >>> p = model.predict_proba(X)
        >>> p.shape, bool(np.allclose(p.sum(axis=1), 1.0))
        ((4, 3), True)
        """
        self._check_predict_input(X)
        check_fitted(self, "params_")
        u, i = self._check_X(X)
        out = np.empty((u.size, self.num_classes))
        with threadpool_limits(limits=1, user_api="blas"):
            for s in range(0, u.size, 65536):
                out[s:s + 65536] = self._forward(self.params_, u[s:s + 65536], i[s:s + 65536])[0]
        return out

    def predict(self, X) -> np.ndarray:
        """Most probable rating class of (user, item) pairs.

        Parameters
        ----------
        X : array_like of int, shape (m, 2)
            (user id, item id) pairs.

        Returns
        -------
        ndarray of int64, shape (m,)

        Raises
        ------
        ValueError
            If the model is not fitted or ``X`` is not (m, 2) integer ids within the id spaces.

        Examples
        --------
        >>> X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]])
        >>> model = TwoBranchCF(num_users=2, num_items=2, num_classes=3, epochs=2, random_state=0).fit(X, [0, 1, 2, 0])
        >>> bool(np.array_equal(model.predict(X), model.predict_proba(X).argmax(axis=1)))
        True
        """
        self._check_predict_input(X)
        return np.argmax(self.predict_proba(X), axis=1).astype(np.int64)

    def predict_rating(self, X) -> np.ndarray:
        """004 Appendix B's prediction: the expected rating ``Σ_k p_k (k + 1)``.

        Parameters
        ----------
        X : array_like of int, shape (m, 2)
            (user id, item id) pairs.

        Returns
        -------
        ndarray of float, shape (m,)
            In [1, K].

        Raises
        ------
        ValueError
            If the model is not fitted or ``X`` is not (m, 2) integer ids within the id spaces.

        References
        ----------
        004 Appendix B (RMSE of the expected rating).

        Examples
        --------
        >>> X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]])
        >>> model = TwoBranchCF(num_users=2, num_items=2, num_classes=3, epochs=2, random_state=0).fit(X, [0, 1, 2, 0])
        >>> r = model.predict_rating(X)
        >>> bool(np.allclose(r, model.predict_proba(X) @ np.array([1.0, 2.0, 3.0])))
        True
        """
        return expected_rating(self.predict_proba(X))
