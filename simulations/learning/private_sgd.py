"""Label-private SGD for convex Lipschitz losses: LP-RR-SGD and LP-Normal-SGD (004 Appendix F).

* :func:`debiased_gradient` -- 004 eq. (7): with ỹ = RR_ε(y) and E = e^ε,
  ``ĝ = (E + K - 1)/(E - 1) · (g(ỹ) - Σ_k g(k) / (E + K - 1))``, an unbiased estimate of g(y).
* :func:`debiased_loss` -- 004 eq. (17): for RRTop-k with candidate set Y_k and p = 1/(E + k - 1),
  ``ℓ̃(ỹ) = (ℓ(ỹ) - p Σ_{y'∈Y_k} ℓ(y')) / (1 - k p)``, unbiased for ℓ(y) when y ∈ Y_k (Lemma 18).
* :func:`lp_sgd_logistic` -- one pass of projected SGD for multiclass logistic regression
  ``ℓ(W, (x, y)) = -log softmax(W x)_y`` (W of shape (K, p), Frobenius ball of radius R, so
  D = 2R; ``||∇ℓ|| = ||softmax - e_y|| ||x|| <= √2 ||x||``, so L = √2 max ||x||):
  ``method="rr"`` is 004 Algorithm 5 (steps η_t = Dε / (6 K L √t), Theorem 9), ``"normal"`` is
  Algorithm 6 (Gaussian noise projected on L_t = span{∇ℓ(w, (x_t, k))}, steps
  η_t = D / √((L² + K σ²) t), Proposition 11) and ``"nonprivate"`` plain SGD (η_t = D / (L √t)).
  ``method="rr"`` with ``prior`` and ``k`` is the algorithm of 004 Corollary 10: RRTop-k labels, eq. (7)
  over each example's top-k set Y_k^x (``Σ_{k∈Y}(s - e_k) = |Y| s - 1_Y``) and Theorem 9's steps with k in
  place of K.

For the logistic loss ∇_W ℓ(W, (x, k)) = (s - e_k) xᵀ with s = softmax(W x), so L_t = {v xᵀ :
Σ_k v_k = 0} and the projection of a Gaussian matrix B ~ N(0, σ² I) onto L_t is C (B x̂) x̂ᵀ with
C = I - 11ᵀ/K and x̂ = x/||x||; since B x̂ ~ N(0, σ² I_K) the sampler draws g ~ N(0, σ² I_K) and
uses C g x̂ᵀ, the same law at O(K) instead of O(Kp) random numbers (:func:`gradient_span_projector`
is the generic projector the tests compare with).

The pass is a numba kernel (:func:`_sgd_kernel`); :func:`lp_sgd_logistic_reference` is the plain
numpy loop kept as its test oracle.

Gaussian noise scale of Algorithm 6: 004 leaves the constant C of σ = C L √(log 1/δ) / ε open; we use
the classical Gaussian mechanism on the label-dependent part, whose L2 sensitivity is
max ||∇ℓ(w, (x, y)) - ∇ℓ(w, (x, y'))|| = √2 ||x|| <= L: σ = L √(2 ln(1.25/δ)) / ε (ε < 1).

References: 004 Algorithm 5, eq. (7), Theorem 9; Algorithm 6, Proposition 11; eq. (17), Lemma 18; Corollary 10.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from limits.validation import check_choice, check_int, check_positive, check_real
from simulations.mechanisms import RandomizedResponse, RRTopK
from simulations.mechanisms.labels import check_labels, check_num_classes_epsilon, check_priors
from simulations.mechanisms.randomized_response import top_k_order
from simulations.seeding import check_generator

__all__ = ["debiased_gradient", "debiased_loss", "gaussian_sigma", "gradient_span_projector", "logistic_lipschitz",
           "lp_sgd_logistic", "lp_sgd_logistic_reference", "project_ball", "step_sizes"]


def debiased_gradient(grads, noisy_label: int, epsilon: float) -> np.ndarray:
    """004 eq. (7) from the K per-label gradients.

    Parameters
    ----------
    grads : array, shape (K, ...)
        ``grads[k] = ∇_w ℓ(w, (x, k))``.
    noisy_label : int in [0, K)
        ỹ, the output of K-ary randomized response.
    epsilon : float > 0

    Returns
    -------
    ĝ : array, shape grads.shape[1:]
        The unbiased gradient estimate :math:`\\frac{e^\\varepsilon - 1 + K}{e^\\varepsilon - 1}
        (g_{\\tilde y} - \\frac{1}{e^\\varepsilon - 1 + K} \\sum_k g_k)`.

    Raises
    ------
    ValueError
        If K < 2, ε <= 0 or ``noisy_label`` is not in [0, K).

    References
    ----------
    004 eq. (7), Algorithm 5.

    Examples
    --------
    K = 2, :math:`e^\\varepsilon = 3`: ĝ = 2 (g_ỹ − (g_0 + g_1)/4); with g_0 = 1, g_1 = 0 the two outputs
    give 1.5 (probability 3/4 when y = 0) and −0.5 (1/4), whose mean is g_0 = 1:

    >>> [round(float(debiased_gradient([[1.0], [0.0]], z, math.log(3))[0]), 12) for z in (0, 1)]
    [1.5, -0.5]
    """
    g = np.asarray(grads, dtype=float)
    K = g.shape[0]
    check_num_classes_epsilon(K, epsilon)
    z = check_int("noisy_label", noisy_label, low=0)
    if z >= K:
        raise ValueError(f"noisy_label must be < K={K}, got noisy_label={noisy_label}")
    em1 = math.expm1(epsilon)  # E - 1
    return (em1 + K) / em1 * (g[z] - g.sum(axis=0) / (em1 + K))


def debiased_loss(losses, noisy_label: int, epsilon: float, candidates=None) -> float:
    """004 eq. (17): ``(ℓ(ỹ) - p Σ_{y'∈Y_k} ℓ(y')) / (1 - k p)``, p = 1/(e^ε + k - 1).

    Parameters
    ----------
    losses : array_like of float, shape (K,)
        ``losses[k] = ℓ(t, (x, k))``.
    noisy_label : int
        ỹ, in ``candidates``.
    epsilon : float > 0
        ε of the randomized response.
    candidates : sequence of int, optional
        The label set Y_k of RRTop-k (default: all K labels, i.e. plain RR).

    Returns
    -------
    float
        The debiased loss, unbiased for ℓ(t, (x, y)) when y is in Y_k (004 Lemma 18).

    Raises
    ------
    ValueError
        If K < 2, ε <= 0, ``candidates`` are not distinct labels in [0, K), or ``noisy_label`` is not
        one of them.

    References
    ----------
    004 eq. (17), Lemma 18.

    Examples
    --------
    K = k = 2, :math:`e^\\varepsilon = 3`, p = 1/4: (ℓ(ỹ) − (ℓ_0 + ℓ_1)/4) / (1/2):

    >>> round(debiased_loss([1.0, 0.0], 0, math.log(3)), 12), round(debiased_loss([1.0, 0.0], 1, math.log(3)), 12)
    (1.5, -0.5)
    """
    l = np.asarray(losses, dtype=float)
    K = l.size
    check_num_classes_epsilon(K, epsilon)
    Y = np.arange(K) if candidates is None else np.asarray(candidates, dtype=np.int64)
    k = Y.size
    if k < 1 or np.unique(Y).size != k or Y.min() < 0 or Y.max() >= K:
        raise ValueError(f"candidates must be distinct labels in [0, {K}), got candidates={candidates!r}")
    if noisy_label not in set(Y.tolist()):
        raise ValueError(f"noisy_label must be in the candidate set {Y.tolist()}, got noisy_label={noisy_label}")
    p = 1.0 / (math.exp(epsilon) + k - 1)
    return float((l[noisy_label] - p * l[Y].sum()) / (1.0 - k * p))


def gradient_span_projector(grads) -> np.ndarray:
    """Orthogonal projector onto L = span{grads[k]} (each gradient flattened).

    The generic step (c)-(d) of 004 Algorithm 6 (QR with a rank cut at 1e-12 of the largest).

    Parameters
    ----------
    grads : array_like, shape (K, ...)
        The K per-label gradients.

    Returns
    -------
    ndarray of float, shape (P, P)
        P = ``grads[0].size``; symmetric and idempotent.

    References
    ----------
    004 Algorithm 6 steps (c)-(d).

    Examples
    --------
    >>> gradient_span_projector([[1.0, 0.0], [2.0, 0.0]]).round(12).tolist()
    [[1.0, 0.0], [0.0, 0.0]]
    """
    G = np.asarray(grads, dtype=float).reshape(len(grads), -1).T  # (P, K)
    q, r = np.linalg.qr(G)
    d = np.abs(np.diag(r))
    keep = d > 1e-12 * max(d.max(), 1e-300)
    Q = q[:, keep]
    return Q @ Q.T


def project_ball(W: np.ndarray, radius: float) -> np.ndarray:
    """Euclidean (Frobenius) projection onto the ball {||W|| <= radius}.

    Parameters
    ----------
    W : ndarray of float
        Any shape.
    radius : float > 0
        R.

    Returns
    -------
    ndarray of float, same shape as ``W``

    References
    ----------
    004 Algorithm 5 step 2(d) (projected SGD).

    Examples
    --------
    >>> project_ball(np.array([[3.0, 4.0]]), 1.0).tolist()
    [[0.6000000000000001, 0.8]]
    """
    nrm = float(np.linalg.norm(W))
    return W if nrm <= radius else W * (radius / nrm)


def logistic_lipschitz(max_norm: float) -> float:
    """Lipschitz constant ``L = √2 · max ||x||`` of the multiclass logistic loss (||softmax − e_y|| <= √2).

    Parameters
    ----------
    max_norm : float > 0
        The largest feature norm.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If ``max_norm`` <= 0.

    References
    ----------
    004 Theorem 9 (L in the step size and the bound).

    Examples
    --------
    >>> round(logistic_lipschitz(2.0), 4)  # 2√2
    2.8284
    """
    return math.sqrt(2.0) * check_positive("max_norm", max_norm)


def gaussian_sigma(L: float, epsilon: float, delta: float) -> float:
    """σ = L √(2 ln(1.25/δ)) / ε: the Gaussian mechanism for label-sensitivity L (see module notes).

    Parameters
    ----------
    L : float > 0
        Sensitivity of the gradient to one label.
    epsilon : float > 0
        ε.
    delta : float in (0, 1)
        δ.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If an argument is out of range.

    References
    ----------
    004 Algorithm 6, Proposition 11.

    Examples
    --------
    With δ = 1.25 e^{-2}, √(2 ln(1.25/δ)) = 2:

    >>> round(gaussian_sigma(1.0, 1.0, 1.25 * math.exp(-2)), 12)
    2.0
    """
    check_real("delta", delta, low=0.0, high=1.0, low_open=True, high_open=True)
    return check_positive("L", L) * math.sqrt(2.0 * math.log(1.25 / delta)) / check_positive("epsilon", epsilon)


def step_sizes(method: str, n: int, *, D: float, L: float, num_classes: int, epsilon: float | None = None,
               sigma: float | None = None) -> np.ndarray:
    """Step sizes η_1..η_n of each method (module docstring).

    Parameters
    ----------
    method : {"rr", "normal", "nonprivate"}
        The algorithm.
    n : int
        Number of steps.
    D : float > 0
        Diameter of the parameter space (2R).
    L : float > 0
        Lipschitz constant of the loss.
    num_classes : int >= 2
        K.
    epsilon : float or None, optional
        ε ("rr" only).
    sigma : float or None, optional
        Gaussian noise scale ("normal" only).

    Returns
    -------
    ndarray of float, shape (n,)
        ``D ε / (6 K L √t)`` (rr, 004 Theorem 9), ``D / (√(L² + K σ²) √t)`` (normal, Proposition 11),
        ``D / (L √t)`` (non-private).

    References
    ----------
    004 Theorem 9, Proposition 11.

    Examples
    --------
    >>> step_sizes("nonprivate", 4, D=2.0, L=1.0, num_classes=3).round(4).tolist()
    [2.0, 1.4142, 1.1547, 1.0]
    """
    t = np.sqrt(np.arange(1, n + 1, dtype=float))
    if method == "rr":
        return D * epsilon / (6.0 * num_classes * L * t)  # 004 Theorem 9
    if method == "normal":
        return D / (np.sqrt(L * L + num_classes * sigma * sigma) * t)  # 004 Proposition 11
    return D / (L * t)


@njit(cache=True)
def _sgd_kernel(X, labels, noise, eta, mode, E, radius, W0, cand):  # pragma: no cover - compiled
    # cand: (n, K) 0/1 mask of each example's candidate set Y_k (RRTop-k, 004 Corollary 10), or
    # shape (0, K) for all K labels (plain RR, Algorithm 5)
    n, p = X.shape
    K = W0.shape[0]
    W = W0.copy()
    s = np.empty(K)
    v = np.empty(K)
    full = cand.shape[0] == 0
    for t in range(n):
        x = X[t]
        m = -np.inf
        for k in range(K):
            acc = 0.0
            for j in range(p):
                acc += W[k, j] * x[j]
            s[k] = acc
            if acc > m:
                m = acc
        tot = 0.0
        for k in range(K):
            s[k] = math.exp(s[k] - m)
            tot += s[k]
        for k in range(K):
            s[k] /= tot
        z = labels[t]
        if mode == 1:  # 004 eq. (7) for the logistic loss: Σ_{k∈Y} (s - e_k) = |Y| s - 1_Y
            kk = float(K)
            if not full:
                kk = 0.0
                for k in range(K):
                    kk += cand[t, k]
            c = (E + kk - 1.0) / (E - 1.0)
            for k in range(K):
                ind = 1.0 if full else cand[t, k]
                v[k] = c * ((s[k] - (1.0 if k == z else 0.0)) - (kk * s[k] - ind) / (E + kk - 1.0))
        else:
            for k in range(K):
                v[k] = s[k] - (1.0 if k == z else 0.0)
            if mode == 2:  # C g / ||x||, g ~ N(0, σ² I_K) pre-drawn
                xn = 0.0
                for j in range(p):
                    xn += x[j] * x[j]
                xn = math.sqrt(xn)
                gm = 0.0
                for k in range(K):
                    gm += noise[t, k]
                gm /= K
                if xn > 0.0:
                    for k in range(K):
                        v[k] += (noise[t, k] - gm) / xn
        nrm = 0.0
        for k in range(K):
            for j in range(p):
                W[k, j] -= eta[t] * v[k] * x[j]
                nrm += W[k, j] * W[k, j]
        nrm = math.sqrt(nrm)
        if nrm > radius:
            scale = radius / nrm
            for k in range(K):
                for j in range(p):
                    W[k, j] *= scale
    return W


_MODES = {"nonprivate": 0, "rr": 1, "normal": 2}


def _prepare(X, y, num_classes, method, epsilon, delta, radius, rng, prior=None, k=None):
    check_choice("method", method, tuple(_MODES))
    if (prior is None) != (k is None) or (prior is not None and method != "rr"):
        raise ValueError(f"prior and k go together and only with method='rr', got method={method!r}, "
                         f"prior {'given' if prior is not None else 'None'}, k={k!r}")
    K = check_int("num_classes", num_classes, low=2)
    radius = check_positive("radius", radius)
    rng = check_generator(rng)
    X = np.ascontiguousarray(X, dtype=float)
    if X.ndim != 2 or X.shape[0] < 1:
        raise ValueError(f"X must have shape (n, p) with n >= 1, got shape {X.shape}")
    try:
        y = check_labels(y, K)
    except ValueError as exc:
        raise ValueError(f"y: {exc}") from None
    if y.size != X.shape[0]:
        raise ValueError(f"X and y must have the same number of rows, got {X.shape[0]} and {y.size}")
    n = y.size
    L = logistic_lipschitz(max(float(np.sqrt((X * X).sum(axis=1)).max()), 1e-300))
    D = 2.0 * radius
    noise = np.zeros((n, K))
    E = 1.0
    sigma = None
    labels = y
    cand = np.zeros((0, K))
    k_steps = K
    if method == "rr" and prior is not None:  # 004 Corollary 10: RRTop-k labels, candidate sets Y_k
        mech = RRTopK(num_classes=K, epsilon=check_positive("epsilon", epsilon), k=k)
        pri = check_priors(prior, K, n=n)
        order = top_k_order(np.broadcast_to(pri, (n, K)))[:, :mech.k]
        cand = np.zeros((n, K))
        np.put_along_axis(cand, order, 1.0, axis=1)
        labels = mech.sample(y, rng, pri)
        E, k_steps = math.exp(epsilon), mech.k
    elif method == "rr":
        check_positive("epsilon", epsilon)
        labels = RandomizedResponse(num_classes=K, epsilon=epsilon).sample(y, rng)  # step 2(b)
        E = math.exp(epsilon)
    elif method == "normal":
        sigma = gaussian_sigma(L, epsilon, delta)
        noise = rng.normal(0.0, sigma, size=(n, K))
    eta = step_sizes(method, n, D=D, L=L, num_classes=k_steps, epsilon=epsilon, sigma=sigma)
    return X, labels, noise, eta, _MODES[method], E, radius, np.zeros((K, X.shape[1])), cand


def lp_sgd_logistic(X, y, *, num_classes: int, method: str, radius: float, rng: np.random.Generator,
                    epsilon: float | None = None, delta: float | None = None, prior=None,
                    k: int | None = None) -> np.ndarray:
    """One pass of projected SGD for multiclass logistic regression; returns ŵ = w_{n+1}, shape (K, p).

    Parameters
    ----------
    X : array_like of float, shape (n, p)
        Features: the stream x_1..x_n, in order.
    y : array_like of int, shape (n,)
        True labels in [0, K).
    num_classes : int >= 2
        K.
    method : {"rr", "normal", "nonprivate"}
        "rr" (004 Algorithm 5), "normal" (Algorithm 6, needs ``delta``), "nonprivate".
    radius : float > 0
        R: the parameter space is the Frobenius ball of radius R (D = 2R), w_1 = 0.
    rng : numpy.random.Generator or int seed
        The PRIVACY stream (randomized response / Gaussian noise).
    epsilon : float > 0 or None, optional
        ε ("rr" and "normal").
    delta : float in (0, 1) or None, optional
        δ ("normal").
    prior : array_like of float, shape (K,) or (n, K), optional
        With ``k``, "rr" only: 004 Corollary 10's algorithm. Each label is privatized by RRTop-k on
        the top-k set :math:`Y_k^x` of its prior (a label outside goes uniformly to :math:`Y_k^x`, the
        map ξ of the proof), the gradient is eq. (7) over :math:`Y_k^x` (k in place of K) and the steps
        are Theorem 9's with k in place of K, ``η_t = Dε/(6kL√t)``.
    k : int in [1, K], optional
        Size of the candidate sets (with ``prior``).

    Returns
    -------
    ndarray of float, shape (K, p)
        ŵ = w_{n+1}, inside the ball of radius R.

    Raises
    ------
    ValueError
        If ``method`` is unknown, K < 2, R <= 0, the privacy parameters are missing or out of range,
        X / y / ``prior`` are malformed, or ``prior`` and ``k`` are not given together with "rr".

    References
    ----------
    004 Algorithms 5-6, Theorem 9, Proposition 11; Corollary 10 and its proof (``prior``, ``k``).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(50, 3))
    >>> W = lp_sgd_logistic(X, (X[:, 0] > 0).astype(int), num_classes=2, method="rr", radius=1.0, rng=rng,
    ...                     epsilon=1.0)
    >>> W.shape, bool(np.linalg.norm(W) <= 1.0 + 1e-12)
    ((2, 3), True)
    """
    return _sgd_kernel(*_prepare(X, y, num_classes, method, epsilon, delta, radius, rng, prior, k))


def lp_sgd_logistic_reference(X, y, *, num_classes: int, method: str, radius: float, rng: np.random.Generator,
                              epsilon: float | None = None, delta: float | None = None, prior=None,
                              k: int | None = None) -> np.ndarray:
    """The plain numpy loop of :func:`lp_sgd_logistic` (test oracle).

    Written with the generic :func:`debiased_gradient` and per-label gradients; same randomness, same
    result up to rounding.

    Parameters
    ----------
    X, y, num_classes, method, radius, rng, epsilon, delta, prior, k
        As in :func:`lp_sgd_logistic`.

    Returns
    -------
    ndarray of float, shape (K, p)
        ŵ = w_{n+1}.

    Raises
    ------
    ValueError
        As :func:`lp_sgd_logistic`.

    References
    ----------
    004 Algorithms 5-6, eq. (7).

    Examples
    --------
    >>> X = np.random.default_rng(0).normal(size=(30, 2))
    >>> y = (X[:, 0] > 0).astype(int)
    >>> a = lp_sgd_logistic(X, y, num_classes=2, method="rr", radius=1.0, rng=1, epsilon=1.0)
    >>> b = lp_sgd_logistic_reference(X, y, num_classes=2, method="rr", radius=1.0, rng=1, epsilon=1.0)
    >>> bool(np.allclose(a, b, rtol=0, atol=1e-10))
    True
    """
    X, labels, noise, eta, mode, E, radius, W, cand = _prepare(X, y, num_classes, method, epsilon, delta, radius, rng,
                                                               prior, k)
    K = W.shape[0]
    for t in range(X.shape[0]):
        x = X[t]
        u = W @ x
        s = np.exp(u - u.max())
        s /= s.sum()
        grads = np.stack([np.outer(s - np.eye(K)[k], x) for k in range(K)])  # ∇ℓ(W, (x, k))
        if mode == 1 and cand.shape[0]:  # eq. (7) over Y_k (004 Corollary 10)
            Y = np.flatnonzero(cand[t])
            g = debiased_gradient(grads[Y], int(np.searchsorted(Y, labels[t])), epsilon)
        elif mode == 1:
            g = debiased_gradient(grads, int(labels[t]), epsilon)
        else:
            g = grads[labels[t]]
            if mode == 2:
                xn = np.linalg.norm(x)
                if xn > 0:  # b_t = C g x̂ᵀ, the projection of N(0, σ² I) onto L_t in law
                    g = g + np.outer(noise[t] - noise[t].mean(), x / xn)
        W = project_ball(W - eta[t] * g, radius)
    return W
