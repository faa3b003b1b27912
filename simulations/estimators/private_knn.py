"""kNN classification under local label DP: RR, LP-2ST, ALIBI and the vector approximation of 000.

The four methods of 000 Section 5.1 share one training set and, at the evaluation points, one
neighbour list per point (common random numbers). Privatization (:func:`privatize`) and prediction
(:func:`predict`) are separate so that a plain reference can be fed the same privatized labels:

* **RR** — K-ary randomized response (004 eq. (1)); kNN majority vote of the noisy labels.
* **LP-2ST** — 004 Algorithm 3 with T = 2 stages and kNN as the training algorithm A. The first
  ``round(split_fraction · N)`` points (a label-independent split: the sample is i.i.d.) get RR.
  The stage-1 model at a stage-2 point x is the label histogram q of the stage-1 noisy labels of its
  ``prior_k`` nearest stage-1 neighbours (the kNN's predicted class probabilities). Its prior has two
  recipes (``prior=``):

  - ``"model"`` (default, 004 Algorithm 3 step 3(b)i as written): q itself, "the probabilities
    predicted by" the stage-1 model, tempered as in 004 Appendix E, ``p ∝ exp(ln q / t) = q^{1/t}``;
  - ``"debiased"`` (a variant of the suite, not in 004): q debiased for RR's known channel,
    ``p̂ = max(q − b, 0)/(a − b)`` renormalized (a, b: RR's keep / other probabilities), then
    tempered the same way.

  Stage 2 applies RRWithPrior with that prior (004 Algorithm 2); the final model is the kNN vote over
  all N privatized labels (Algorithm 3 step 3(c): trained on S̃(1) ∪ S̃(2)). Stage-1 labels are the
  RR method's own noisy labels of those points (they are drawn by the same mechanism; sharing them is
  one more common random number).
* **ALIBI** — Laplace noise of scale 2/ε on the one-hot label, Bayesian soft labels under the
  uniform prior; kNN average of the soft labels; argmax.
* **Vector** — the K-bit vector mechanism (000 eq. (12)-(13)); ``g_j(x) = (1/k) ∑ Z_i(j)`` (eq. (29));
  the debiased ``(g_j − b)/(a − b)`` estimates η_j (eq. (24)); prediction ``argmax_j g_j`` (eq. (16)),
  the same class since the debiasing is increasing.
* **Vector (asymmetric)** (optional, ``asymmetric=True``; not a method of 000) — the asymmetric K-bit
  mechanism that 002's Limitations paragraph suggests (:class:`~simulations.mechanisms.AsymmetricVectorMechanism`:
  the label's bit 1 w.p. 1/2, the others w.p. 1/(e^ε + 1)); the same vote ``argmax_j g_j``, again the class
  of the debiased ``(g_j − q)/(p − q)``. Its bits are drawn last from the privacy stream, so the other
  methods' labels are the same with or without it.

Votes over integer counts break ties uniformly at random with a caller-supplied jitter
(:func:`simulations.kernels_knn.vote`); ALIBI's sums are continuous.

References: 000 Section 5.1, eq. (12)-(16), (24), (29); 004 eq. (1), Algorithms 2-3, Appendix E.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from limits.validation import check_choice, check_int, check_positive, check_real
from simulations.estimators.grid_knn import GridIndex
from simulations.kernels_knn import neighbour_label_counts, neighbour_row_sums, vote
from simulations.mechanisms import (ALIBI, AsymmetricVectorMechanism, RandomizedResponse, RRWithPrior, VectorMechanism,
                                   rr_probabilities)

__all__ = ["ASYMMETRIC", "LP2ST_DEBIASED", "alt_method_name", "LP2ST_PRIORS", "METHODS", "PrivateLabels", "lp2st_recipe", "check_lp2st_options", "lp2st_prior", "lp2st_prior_from_counts",
           "brute_force_neighbours", "lp2st_prior_reference", "predict", "predict_reference", "privatize", "stage1_size", "vector_estimates"]

METHODS = ("RR", "LP-2ST", "ALIBI", "Vector")
LP2ST_PRIORS = ("model", "debiased")  # the default (004 Algorithm 3 as written) first
LP2ST_DEBIASED = "LP-2ST (debiased prior)"  # method name of the variant when run beside the default
ASYMMETRIC = "Vector (asymmetric)"  # method name of the asymmetric vector mechanism (002 Limitations), when asked for


class PrivateLabels(NamedTuple):
    """Everything the four methods learn from: the privatized labels of the N training points.

    Parameters
    ----------
    rr : ndarray of int64, shape (N,)
        RR noisy labels (004 eq. (1)).
    lp2st : ndarray of int64, shape (N,)
        Stage-1 RR labels, then stage-2 RRWithPrior labels (the chosen prior).
    vector : ndarray of uint8, shape (N, K)
        Z of the vector mechanism (000 eqs. (12)-(13)).
    alibi : ndarray of float64, shape (N, K)
        ALIBI soft labels.
    lp2st_alt : ndarray of int64, shape (N,), or None
        LP-2ST with the other prior recipe, when asked for.
    alt_prior : str or None
        That recipe's name.
    asymmetric : ndarray of uint8, shape (N, K), or None
        Z of the asymmetric vector mechanism (002 Limitations), when asked for.

    References
    ----------
    000 Section 5.1; 004 eq. (1), Algorithms 2-3.

    Examples
    --------
    >>> labels = PrivateLabels(np.zeros(3, np.int64), np.zeros(3, np.int64), np.zeros((3, 2), np.uint8), np.zeros((3, 2)))
    >>> labels.lp2st_alt is None
    True
    """

    rr: np.ndarray  # int64 (N,): RR noisy labels
    lp2st: np.ndarray  # int64 (N,): stage-1 RR labels then stage-2 RRWithPrior labels (the chosen prior)
    vector: np.ndarray  # uint8 (N, K): Z of the vector mechanism
    alibi: np.ndarray  # float64 (N, K): ALIBI soft labels
    lp2st_alt: np.ndarray | None = None  # int64 (N,): LP-2ST with the other prior recipe, when asked for
    alt_prior: str | None = None  # that recipe's name
    asymmetric: np.ndarray | None = None  # uint8 (N, K): Z of the asymmetric vector mechanism, when asked for


def alt_method_name(prior: str) -> str:
    """Method name of LP-2ST run with recipe ``prior`` beside the default.

    Parameters
    ----------
    prior : {"model", "debiased"}

    Returns
    -------
    str
        ``"LP-2ST (<prior> prior)"``.

    Examples
    --------
    >>> alt_method_name("debiased")
    'LP-2ST (debiased prior)'
    """
    return f"LP-2ST ({check_choice('prior', prior, LP2ST_PRIORS)} prior)"


def lp2st_recipe(prior: str, *, split_fraction: float, prior_k: int, temperature: float) -> str:
    """One line naming an LP-2ST recipe, for claims, CSV rows and notes.

    Parameters
    ----------
    prior : {"model", "debiased"}
    split_fraction : float
        Fraction of the training points in stage 1.
    prior_k : int
        k of the stage-1 kNN model.
    temperature : float
        Temperature t of 004 Appendix E.

    Returns
    -------
    str

    Examples
    --------
    >>> lp2st_recipe("model", split_fraction=0.65, prior_k=200, temperature=0.5)
    'LP-2ST (004 Alg. 3 prior: stage-1 200-NN frequencies of the RR labels, tempered t=0.5; stage-1 split 0.65)'
    """
    check_choice("prior", prior, LP2ST_PRIORS)
    what = ("004 Alg. 3 prior: stage-1 {k}-NN frequencies of the RR labels" if prior == "model" else
            "debiased prior (suite variant): stage-1 {k}-NN frequencies of the RR labels debiased for RR, "
            "max(q - b, 0)/(a - b)")
    return f"LP-2ST ({what.format(k=prior_k)}, tempered t={temperature:g}; stage-1 split {split_fraction:g})"


def check_lp2st_options(N: int, k: int, split_fraction: float, prior_k: int) -> None:
    """Refuse bad options of the kNN experiment: ``1 <= k <= N``, split in (0, 1), ``1 <= prior_k <= n1``.

    Parameters
    ----------
    N : int >= 1
        Training points.
    k : int
        Neighbours of the final vote, 1 <= k <= N.
    split_fraction : float in (0, 1)
        Fraction of the points in LP-2ST's stage 1; both stages must be non-empty.
    prior_k : int
        Neighbours of the stage-1 model, 1 <= prior_k <= n1.

    Raises
    ------
    ValueError
        If an option is out of range (the message names it).

    References
    ----------
    004 Algorithm 3 (two stages), 000 Section 5.1 (k).

    Examples
    --------
    >>> check_lp2st_options(100, 10, 0.5, 50)
    >>> check_lp2st_options(100, 10, 0.5, 51)
    Traceback (most recent call last):
    ...
    ValueError: prior_k must be <= the 50 stage-1 points, got prior_k=51
    """
    N = check_int("N", N, low=1)
    k = check_int("k", k, low=1)
    if k > N:
        raise ValueError(f"k must be <= N={N}, got k={k}")
    check_real("split_fraction", split_fraction, low=0.0, high=1.0, low_open=True, high_open=True)
    n1 = stage1_size(N, split_fraction)
    prior_k = check_int("prior_k", prior_k, low=1)
    if not 1 <= n1 < N:
        raise ValueError(f"split_fraction={split_fraction} leaves an empty stage with N={N}")
    if prior_k > n1:
        raise ValueError(f"prior_k must be <= the {n1} stage-1 points, got prior_k={prior_k}")


def stage1_size(N: int, split_fraction: float) -> int:
    """Number of stage-1 points of LP-2ST, ``round(split_fraction · N)``.

    Parameters
    ----------
    N : int
        Training points.
    split_fraction : float
        Fraction in stage 1.

    Returns
    -------
    int

    References
    ----------
    004 Algorithm 3 (the split of the data into stages).

    Examples
    --------
    >>> stage1_size(1000, 0.65)
    650
    """
    return int(round(split_fraction * N))


def lp2st_prior_from_counts(counts, *, epsilon: float, temperature: float, prior: str = "model") -> np.ndarray:
    """Stage-2 priors from stage-1 neighbour label counts: (n2, K) -> (n2, K), rows summing to 1.

    ``q = counts / k``. ``prior="model"`` (004 Algorithm 3 step 3(b)i; Appendix E's temperature on
    the logits ``ln q``): ``p ∝ q^{1/t}``, zeros stay zero. ``prior="debiased"`` (suite variant):
    ``p̂ = max(q − b, 0) / (a − b)``, then ``p ∝ p̂^{1/t}`` (``∑_j (q_j − b)/(a − b) = 1``, so at
    least one entry is positive).

    Parameters
    ----------
    counts : array_like, shape (n2, K)
        Non-negative label counts among each point's stage-1 neighbours (each row sums to k > 0).
    epsilon : float > 0
        RR's ε (used by the debiased recipe only).
    temperature : float > 0
        t of 004 Appendix E (1: the frequencies as they are).
    prior : {"model", "debiased"}

    Returns
    -------
    ndarray, shape (n2, K)

    Raises
    ------
    ValueError
        If ``temperature <= 0`` or ``prior`` is not a recipe name.

    References
    ----------
    004 Algorithm 3 (step 3(b)i), Appendix E (temperature).

    Examples
    --------
    >>> lp2st_prior_from_counts([[6, 3, 1]], epsilon=1.0, temperature=1.0)
    array([[0.6, 0.3, 0.1]])
    """
    check_positive("temperature", temperature)
    check_choice("prior", prior, LP2ST_PRIORS)
    counts = np.asarray(counts, dtype=np.float64)
    K = counts.shape[1]
    p = counts / counts.sum(axis=1, keepdims=True)
    if prior == "debiased":
        keep, other = rr_probabilities(epsilon, K)
        p = np.maximum(p - float(other), 0.0) / float(keep - other)
    p = p / p.max(axis=1, keepdims=True)  # scale out before the power (no underflow of the top entry)
    if temperature != 1.0:
        p = p ** (1.0 / temperature)
    return p / p.sum(axis=1, keepdims=True)


def lp2st_prior(X1, z1, X2, *, num_classes: int, epsilon: float, prior_k: int, temperature: float,
                prior: str = "model") -> np.ndarray:
    """The stage-1 kNN model's prior at each stage-2 point.

    Parameters
    ----------
    X1 : ndarray of float, shape (n1, 2)
        Stage-1 points.
    z1 : ndarray of int64, shape (n1,)
        Their RR labels.
    X2 : ndarray of float, shape (n2, 2)
        Stage-2 points.
    num_classes : int >= 2
        K.
    epsilon : float > 0
        ε of the RR labels (for the "debiased" recipe).
    prior_k : int >= 1
        Neighbours of the stage-1 model.
    temperature : float > 0
        t of 004 Appendix E.
    prior : {"model", "debiased"}, default "model"
        The recipe (module docstring).

    Returns
    -------
    ndarray of float, shape (n2, K)
        Rows summing to 1.

    References
    ----------
    004 Algorithm 3 step 3(b)i, Appendix E.

    Examples
    --------
    >>> X1, z1 = np.array([[0.1, 0.1], [0.2, 0.1], [0.9, 0.9]]), np.array([0, 0, 1])
    >>> lp2st_prior(X1, z1, np.array([[0.15, 0.1]]), num_classes=2, epsilon=1.0, prior_k=2, temperature=1.0).tolist()
    [[1.0, 0.0]]
    """
    counts = _stage1_counts(X1, z1, X2, num_classes=num_classes, prior_k=prior_k)
    return lp2st_prior_from_counts(counts, epsilon=epsilon, temperature=temperature, prior=prior)


def _stage1_counts(X1, z1, X2, *, num_classes: int, prior_k: int) -> np.ndarray:
    _, idx = GridIndex(X1, prior_k).query(X2, prior_k, sort=False)  # counts: neighbour order is irrelevant
    return neighbour_label_counts(z1, idx, num_classes)


def privatize(X, Y, rng: np.random.Generator, *, num_classes: int, epsilon: float, split_fraction: float,
              prior_k: int, temperature: float, prior: str = "model", alt_prior: str | None = None,
              asymmetric: bool = False) -> PrivateLabels:
    """Privatize the N labels once per method, drawing from ``rng`` in the order RR, RRWithPrior,
    vector, ALIBI (the order fixes the stream; each method's labels have its mechanism's law).

    ``prior`` is LP-2ST's recipe (see the module docstring). ``alt_prior`` (optional, another recipe)
    also privatizes the stage-2 labels with that recipe's prior, drawn last so the four methods'
    labels are the same with or without it; stage 1 and the neighbour counts are shared. (A
    separate release: LP-2ST under either recipe is ε-label DP on its own.) ``asymmetric=True`` adds the
    asymmetric vector mechanism's bits, drawn after everything else (the same holds).

    Parameters
    ----------
    X : ndarray of float, shape (N, 2)
        Training points (stage 1 is the first ``stage1_size(N, split_fraction)``).
    Y : ndarray of int, shape (N,)
        True labels in [0, K).
    rng : numpy.random.Generator
        The PRIVACY stream.
    num_classes : int >= 2
        K.
    epsilon : float > 0
        ε of every method.
    split_fraction : float in (0, 1)
        LP-2ST's stage-1 fraction.
    prior_k : int >= 1
        Neighbours of the stage-1 model.
    temperature : float > 0
        Prior temperature.
    prior : {"model", "debiased"}, default "model"
        LP-2ST's recipe.
    alt_prior : {"model", "debiased"} or None, default None
        A second recipe to run beside it.
    asymmetric : bool, default False
        Also privatize with :class:`~simulations.mechanisms.AsymmetricVectorMechanism`.

    Returns
    -------
    PrivateLabels

    Raises
    ------
    ValueError
        If an option is out of range (:func:`check_lp2st_options`) or a recipe is unknown.

    References
    ----------
    000 Section 5.1; 004 eq. (1), Algorithms 2-3.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = rng.random((40, 2)); Y = (X[:, 0] > 0.5).astype(int)
    >>> labels = privatize(X, Y, rng, num_classes=2, epsilon=1.0, split_fraction=0.5, prior_k=5, temperature=1.0)
    >>> labels.rr.shape, labels.vector.shape, labels.alibi.shape
    ((40,), (40, 2), (40, 2))
    """
    N = len(Y)
    check_lp2st_options(N, 1, split_fraction, prior_k)
    check_choice("prior", prior, LP2ST_PRIORS)
    if alt_prior is not None:
        check_choice("alt_prior", alt_prior, LP2ST_PRIORS)
    n1 = stage1_size(N, split_fraction)
    rr = RandomizedResponse(num_classes, epsilon).sample(Y, rng)
    counts = _stage1_counts(X[:n1], rr[:n1], X[n1:], num_classes=num_classes, prior_k=prior_k)
    pri = lp2st_prior_from_counts(counts, epsilon=epsilon, temperature=temperature, prior=prior)
    rwp = RRWithPrior(num_classes, epsilon)
    lp = np.concatenate([rr[:n1], rwp.sample(Y[n1:], rng, prior=pri)])
    Z = VectorMechanism(num_classes, epsilon).sample(Y, rng)
    alibi = ALIBI(num_classes, epsilon)
    soft = alibi.soft_labels(alibi.sample(Y, rng))
    alt = None
    if alt_prior is not None:
        pri = lp2st_prior_from_counts(counts, epsilon=epsilon, temperature=temperature, prior=alt_prior)
        alt = np.concatenate([rr[:n1], rwp.sample(Y[n1:], rng, prior=pri)])
    asym = AsymmetricVectorMechanism(num_classes, epsilon).sample(Y, rng) if asymmetric else None
    return PrivateLabels(rr, lp, Z, soft, alt, alt_prior, asym)


def predict(idx, private: PrivateLabels, jitter, *, num_classes: int) -> dict[str, np.ndarray]:
    """Predictions of the four methods at M points from their neighbour lists ``idx`` (M, k).

    Parameters
    ----------
    idx : ndarray of int64, shape (M, k)
        Neighbour lists of the evaluation points.
    private : PrivateLabels
        The privatized training labels.
    jitter : ndarray of float, shape (M, K)
        Uniform on [0, 1): breaks ties of the integer votes (RR, LP-2ST, Vector).
    num_classes : int >= 2
        K.

    Returns
    -------
    dict of str to ndarray of int64, shape (M,)
        One entry per method of :data:`METHODS`, plus ``alt_method_name(private.alt_prior)`` (e.g.
        :data:`LP2ST_DEBIASED`) when ``private.lp2st_alt`` is set, and :data:`ASYMMETRIC` when
        ``private.asymmetric`` is set.

    References
    ----------
    000 Section 5.1, eq. (16) (arg-max of the vector sums).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = rng.random((40, 2)); Y = (X[:, 0] > 0.5).astype(int)
    >>> labels = privatize(X, Y, rng, num_classes=2, epsilon=1.0, split_fraction=0.5, prior_k=5, temperature=1.0)
    >>> idx = brute_force_neighbours(X, X[:3], 5)
    >>> out = predict(idx, labels, np.zeros((3, 2)), num_classes=2)
    >>> sorted(out), out["RR"].shape
    (['ALIBI', 'LP-2ST', 'RR', 'Vector'], (3,))
    """
    out = {
        "RR": vote(neighbour_label_counts(private.rr, idx, num_classes), jitter),
        "LP-2ST": vote(neighbour_label_counts(private.lp2st, idx, num_classes), jitter),
        "ALIBI": vote(neighbour_row_sums(private.alibi, idx)),
        "Vector": vote(neighbour_row_sums(private.vector, idx), jitter),
    }
    if private.lp2st_alt is not None:
        out[alt_method_name(private.alt_prior)] = vote(neighbour_label_counts(private.lp2st_alt, idx, num_classes), jitter)
    if private.asymmetric is not None:
        out[ASYMMETRIC] = vote(neighbour_row_sums(private.asymmetric, idx), jitter)
    return out



def vector_estimates(idx, Z, *, epsilon: float, asymmetric: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """``g_j(x)`` of 000 eq. (29) and its debiased form ``(g − b)/(a − b)`` (eq. (24)).

    Parameters
    ----------
    idx : ndarray of int64, shape (M, k)
        Neighbour lists.
    Z : ndarray of uint8, shape (N, K)
        Vector-mechanism bits of the training points.
    epsilon : float > 0
        ε of the mechanism (a, b are its keep / flip-on probabilities of a bit).
    asymmetric : bool, default False
        The bits are the asymmetric mechanism's (:class:`~simulations.mechanisms.AsymmetricVectorMechanism`,
        a = 1/2, b = 1/(e^ε + 1)) instead of 000's.

    Returns
    -------
    g : ndarray of float, shape (M, K)
        Mean neighbour bits.
    eta_hat : ndarray of float, shape (M, K)
        Debiased estimates of η_j.

    References
    ----------
    000 eqs. (24), (29).

    Examples
    --------
    With :math:`e^{\\varepsilon/2} = 3` a bit is kept with a = 3/4 and set by noise with b = 1/4, so
    g = (1/2, 0) debiases to ((1/2 − 1/4)/(1/2), (0 − 1/4)/(1/2)) = (1/2, −1/2):

    >>> g, eta = vector_estimates(np.array([[0, 1]]), np.array([[1, 0], [0, 0]], np.uint8), epsilon=2 * np.log(3))
    >>> g.tolist(), eta.round(12).tolist()
    ([[0.5, 0.0]], [[0.5, -0.5]])

    The asymmetric mechanism at ε = ln 3 (a = 1/2, b = 1/4) debiases the same g to (1, −1):

    >>> vector_estimates(np.array([[0, 1]]), np.array([[1, 0], [0, 0]], np.uint8), epsilon=np.log(3),
    ...                  asymmetric=True)[1].round(12).tolist()
    [[1.0, -1.0]]
    """
    K = Z.shape[1]
    mech = (AsymmetricVectorMechanism if asymmetric else VectorMechanism)(K, epsilon)
    g = neighbour_row_sums(Z, idx) / idx.shape[1]
    return g, mech.debias(g)


# ------------------------------------------------------------------ plain reference (test oracle)
def brute_force_neighbours(X, Xq, k: int) -> np.ndarray:
    """Indices of the k nearest rows of ``X`` for each row of ``Xq``, nearest first (test oracle).

    Parameters
    ----------
    X : array_like, shape (N, d)
        Training points.
    Xq : array_like, shape (M, d)
        Query points.
    k : int
        Neighbours, 1 <= k <= N.

    Returns
    -------
    ndarray of int64, shape (M, k)

    References
    ----------
    000 Section 5.1 (k-NN).

    Examples
    --------
    >>> brute_force_neighbours([[0.0], [1.0], [3.0]], [[0.9], [2.5]], 2).tolist()
    [[1, 0], [2, 1]]
    """
    X = np.asarray(X, dtype=float)
    out = np.empty((len(Xq), k), dtype=np.int64)
    for m, x in enumerate(np.asarray(Xq, dtype=float)):
        d2 = ((X - x) ** 2).sum(axis=1)
        part = np.argpartition(d2, k - 1)[:k]
        out[m] = part[np.argsort(d2[part], kind="stable")]
    return out


def predict_reference(X, Xq, private: PrivateLabels, jitter, *, num_classes: int, k: int,
                      neighbours=brute_force_neighbours) -> dict[str, np.ndarray]:
    """Plain numpy version of :func:`predict`: its own neighbour search, one loop per method and point.

    Used as the oracle of the fast path and as the benchmark's reference.

    Parameters
    ----------
    X : array_like, shape (N, d)
        Training points.
    Xq : array_like, shape (M, d)
        Evaluation points.
    private : PrivateLabels
        The privatized training labels.
    jitter : array_like of float, shape (M, K)
        Tie-breaking uniforms (as in :func:`predict`).
    num_classes : int >= 2
        K.
    k : int >= 1
        Neighbours.
    neighbours : callable, default :func:`brute_force_neighbours`
        ``neighbours(X, Xq, k) -> (M, k)`` (the benchmark passes scikit-learn's search).

    Returns
    -------
    dict of str to ndarray of int64, shape (M,)
        One entry per method of :data:`METHODS`, and :data:`ASYMMETRIC` when ``private.asymmetric`` is set.

    References
    ----------
    000 Section 5.1.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = rng.random((40, 2)); Y = (X[:, 0] > 0.5).astype(int)
    >>> labels = privatize(X, Y, rng, num_classes=2, epsilon=1.0, split_fraction=0.5, prior_k=5, temperature=1.0)
    >>> ref = predict_reference(X, X[:3], labels, np.zeros((3, 2)), num_classes=2, k=5)
    >>> fast = predict(brute_force_neighbours(X, X[:3], 5), labels, np.zeros((3, 2)), num_classes=2)
    >>> all(np.array_equal(ref[m], fast[m]) for m in METHODS)
    True
    """
    idx = neighbours(X, Xq, k)
    K = num_classes
    jitter = np.asarray(jitter, dtype=float)
    asym = private.asymmetric is not None
    out = {m: np.empty(len(Xq), dtype=np.int64) for m in METHODS + ((ASYMMETRIC,) if asym else ())}
    for m in range(len(Xq)):
        nb = idx[m]
        out["RR"][m] = np.argmax(np.bincount(private.rr[nb], minlength=K) + 0.5 * jitter[m])
        out["LP-2ST"][m] = np.argmax(np.bincount(private.lp2st[nb], minlength=K) + 0.5 * jitter[m])
        out["ALIBI"][m] = np.argmax(private.alibi[nb].sum(axis=0))
        out["Vector"][m] = np.argmax(private.vector[nb].sum(axis=0, dtype=np.int64) + 0.5 * jitter[m])
        if asym:
            out[ASYMMETRIC][m] = np.argmax(private.asymmetric[nb].sum(axis=0, dtype=np.int64) + 0.5 * jitter[m])
    return out


def lp2st_prior_reference(X1, z1, X2, *, num_classes: int, epsilon: float, prior_k: int, temperature: float,
                          prior: str = "model", neighbours=brute_force_neighbours) -> np.ndarray:
    """Plain version of :func:`lp2st_prior` (own neighbour search, one bincount per point; test oracle).

    Parameters
    ----------
    X1, z1, X2, num_classes, epsilon, prior_k, temperature, prior
        As in :func:`lp2st_prior`.
    neighbours : callable, default :func:`brute_force_neighbours`
        ``neighbours(X1, X2, prior_k) -> (n2, prior_k)``.

    Returns
    -------
    ndarray of float, shape (n2, K)

    References
    ----------
    004 Algorithm 3 step 3(b)i, Appendix E.

    Examples
    --------
    >>> X1, z1 = np.array([[0.1, 0.1], [0.2, 0.1], [0.9, 0.9]]), np.array([0, 0, 1])
    >>> lp2st_prior_reference(X1, z1, np.array([[0.8, 0.8]]), num_classes=2, epsilon=1.0, prior_k=2,
    ...                       temperature=1.0).tolist()
    [[0.5, 0.5]]
    """
    idx = neighbours(X1, X2, prior_k)
    counts = np.stack([np.bincount(z1[nb], minlength=num_classes) for nb in idx])
    return lp2st_prior_from_counts(counts, epsilon=epsilon, temperature=temperature, prior=prior)
