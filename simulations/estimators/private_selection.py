"""Choosing the bin width (or neighbour count) from data under label DP: a privatized hold-out.

The sample is split into a training part and a hold-out part; candidates (one per bandwidth of a
fixed grid) are fitted on the training part and compared on the hold-out part. What the hold-out
may read depends on the privacy model.

Local label DP (003 Definition 3). Every label, training or hold-out, is privatized once by the
task's local mechanism; every later use is post-processing (003 Proposition 1), so the hold-out
costs no privacy. It does cost information: the hold-out sees only privatized labels, so its risk
is estimated without bias by inverting the mechanism's channel (the idea of 004 eq. (17) / Lemma 18):

* vector mechanism (003 eq. (11)): bit ``Z(c)`` is 1 w.p. ``a`` if ``y = c`` and ``b`` otherwise, so
  ``(Z(c) − b)/(a − b)`` is an unbiased estimate of ``1{y = c}`` and
  ``ℓ̃(c, Z) = 1 − (Z(c) − b)/(a − b)`` one of the 0-1 loss ``1{y ≠ c}``
  (:func:`debiased_zero_one_risk`);
* Laplace labels ``Z = Y + Lap(s)`` (003 Theorem 6): ``E[(p − Z)² | y] = (p − y)² + 2s²``, so
  ``(p − Z)² − 2s²`` is unbiased for the squared loss (:func:`debiased_squared_risk`).

Central label DP (003 Definition 2). The selection reads the raw hold-out labels, so it must be
private itself: the exponential mechanism over the ``m`` candidates with score the hold-out loss
``L_j`` (a sum over hold-out points), ``P(j) ∝ exp(−ε_select L_j / (2Δ))``, where ``Δ`` bounds the
change of any ``L_j`` when one hold-out label is replaced: 1 for the 0-1 loss, ``4T²`` for the squared
loss of predictions clipped to ``[−T, T]`` against labels in ``[−T, T]``
(:func:`clipped_squared_loss_sensitivity`). The training labels are read by the ``m`` candidate fits
(each a central mechanism of 003 Theorems 4 or 8): :class:`SelectionBudget` gives each ``ε_fit/m``, so
their release is ``ε_fit``-label DP by basic composition, and the whole procedure is
``(ε_fit + ε_select)``-label DP by basic composition. Since a label lies either in the training part
or in the hold-out part, parallel composition gives ``max(ε_fit, ε_select)``; the split is therefore
conservative by up to a factor 2 (kept, as the simple and evidently valid accounting).

References: 003 Definitions 2-3, Proposition 1, eqs. (11), (17), (23), Theorems 4, 6, 8; 004 eq. (17),
Lemma 18; the exponential mechanism (003 ref. [56]).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from limits.validation import check_int, check_positive, check_real
from simulations.mechanisms import AsymmetricVectorMechanism, LaplaceLabels, VectorMechanism
from simulations.seeding import check_generator

__all__ = ["ZERO_ONE_SENSITIVITY", "SelectionBudget", "clipped_squared_loss_sensitivity", "debiased_squared_risk",
           "debiased_zero_one_risk", "exponential_selection", "selection_log_probabilities"]

#: largest change of a sum of 0-1 losses over hold-out points when one hold-out label is replaced
ZERO_ONE_SENSITIVITY = 1.0


def clipped_squared_loss_sensitivity(T: float) -> float:
    """``Δ = 4T²``: the largest change of ``Σ_i (p_i − y_i)²`` when one label ``y_i ∈ [−T, T]`` is replaced.

    Predictions ``p_i ∈ [−T, T]`` (clipped) and labels in ``[−T, T]``.

    ``|(p − y)² − (p − y')²| = |y' − y| |2p − y − y'| <= 2T · 2T``, attained at ``p = y = T``, ``y' = −T``.

    Parameters
    ----------
    T : float > 0, bound of the labels and of the clipped predictions.

    Returns
    -------
    float.

    Raises
    ------
    ValueError
        If ``T`` is not a positive finite number.

    References
    ----------
    003 Assumption 2 (``|Y| < T``).

    Examples
    --------
    >>> clipped_squared_loss_sensitivity(1.0)
    4.0
    """
    T = check_positive("T", T)
    return 4.0 * T * T


def debiased_zero_one_risk(bit_sums, counts, predictions, mechanism: VectorMechanism) -> float:
    """Unbiased estimate of the 0-1 risk of a classifier from vector-mechanism labels.

    The hold-out points are grouped (one point per group, or all points of a grid cell, where the
    classifier is constant); with ``S_{gc}`` the sum over group g of the bits ``Z(c)`` and ``n_g`` its
    size, the estimate is the mean of ``ℓ̃(c_g, Z) = 1 − (Z(c_g) − b)/(a − b)``:
    ``1 − (Σ_g S_{g c_g} − b n)/((a − b) n)``, ``n = Σ_g n_g``. Its expectation over the mechanism is
    the 0-1 risk of the predictions on the hold-out labels, exactly.

    Parameters
    ----------
    bit_sums : int array (G, K), ``S_{gc}``.
    counts : int array (G,), ``n_g`` (at least one positive).
    predictions : int array (G,), the class predicted on group g, in ``0..K-1``.
    mechanism : VectorMechanism or AsymmetricVectorMechanism with ``num_classes = K`` ((a, b) its
        ``flip_probabilities()``: (1/2, 1/(e^ε + 1)) for the asymmetric one).

    Returns
    -------
    float (can be negative or above 1: an unbiased estimate, not a probability).

    Raises
    ------
    ValueError
        On shapes that do not match, negative counts, a bit sum above its group's size, a prediction
        outside ``0..K-1`` or an empty hold-out.

    References
    ----------
    003 eq. (11) (the channel inverted); 004 eq. (17) and Lemma 18 (the debiased loss).

    Examples
    --------
    >>> mech = VectorMechanism(num_classes=2, epsilon=2 * np.log(3.0))  # a = 3/4, b = 1/4
    >>> round(debiased_zero_one_risk([[3, 1]], [4], [0], mech), 12)  # E[S] = 4a - 0 when all labels are 0
    0.0
    """
    if not isinstance(mechanism, (VectorMechanism, AsymmetricVectorMechanism)):
        raise ValueError(f"mechanism must be a VectorMechanism or an AsymmetricVectorMechanism, got mechanism={mechanism!r}")
    S = np.asarray(bit_sums)
    n = np.asarray(counts)
    c = np.asarray(predictions)
    K = mechanism.num_classes
    if S.ndim != 2 or S.shape[1] != K or n.shape != (S.shape[0],) or c.shape != (S.shape[0],):
        raise ValueError(f"bit_sums must have shape (G, {K}) and counts, predictions shape (G,), got "
                         f"{S.shape}, {n.shape}, {c.shape}")
    for name, arr in (("bit_sums", S), ("counts", n), ("predictions", c)):
        if arr.size and (not np.issubdtype(arr.dtype, np.integer) or arr.min() < 0):
            raise ValueError(f"{name} must be non-negative integers, got {name}={arr!r}")
    if S.size and np.any(S > n[:, None]):
        raise ValueError("each bit sum must be at most its group's count")
    if c.size and c.max() >= K:
        raise ValueError(f"predictions must lie in 0..{K - 1}, got max {int(c.max())}")
    total = int(n.sum())
    if total <= 0:
        raise ValueError(f"counts must contain at least one hold-out point, got sum {total}")
    a, b = mechanism.flip_probabilities()
    hits = float(S[np.arange(S.shape[0]), c].sum())
    return 1.0 - (hits - b * total) / ((a - b) * total)


def debiased_squared_risk(predictions, privatized, mechanism: LaplaceLabels):
    """Unbiased estimate of the squared-loss risk from Laplace-privatized labels: ``mean (p − Z)² − 2s²``.

    With ``Z = Y + W``, ``W ~ Lap(s)`` independent of ``(X, Y)``, ``E[(p − Z)² | y] = (p − y)² + Var W``
    and ``Var W = 2s²``.

    Parameters
    ----------
    predictions : float array (n,) or (n, J), predictions at the hold-out points of one candidate or of J
        candidates (any fixed functions of the training part).
    privatized : float array (n,), the hold-out's privatized labels ``Z``.
    mechanism : LaplaceLabels (``scale`` = s = 2T/ε).

    Returns
    -------
    float, or float array (J,) for 2-D predictions.

    Raises
    ------
    ValueError
        On empty or mismatched inputs, non-finite values or a wrong mechanism type.

    References
    ----------
    003 Theorem 6 (``Z = Y + Lap(2T/ε)``), eq. (9).

    Examples
    --------
    >>> mech = LaplaceLabels(T=1.0, epsilon=2.0)  # s = 1, Var W = 2
    >>> debiased_squared_risk([0.0, 0.0], [1.0, -3.0], mech)  # (1 + 9)/2 - 2
    3.0
    """
    if not isinstance(mechanism, LaplaceLabels):
        raise ValueError(f"mechanism must be a LaplaceLabels, got mechanism={mechanism!r}")
    p = np.asarray(predictions, dtype=float)
    z = np.asarray(privatized, dtype=float)
    if z.ndim != 1 or z.size == 0 or p.ndim not in (1, 2) or p.shape[0] != z.size:
        raise ValueError(f"predictions (n,) or (n, J) and privatized (n,) expected with n >= 1, got "
                         f"{p.shape} and {z.shape}")
    if not (np.all(np.isfinite(p)) and np.all(np.isfinite(z))):
        raise ValueError("predictions and privatized must be finite")
    zz = z if p.ndim == 1 else z[:, None]
    out = np.mean((p - zz) ** 2, axis=0) - 2.0 * mechanism.scale ** 2
    return float(out) if p.ndim == 1 else out


def selection_log_probabilities(losses, *, epsilon: float, sensitivity: float) -> np.ndarray:
    """``ln P(select j)`` of the exponential mechanism ``P(j) ∝ exp(−ε L_j / (2Δ))`` (stable log-sum-exp).

    If replacing one hold-out label changes every ``L_j`` by at most ``Δ`` (in either direction,
    independently over j), each numerator changes by a factor in ``[e^{−ε/2}, e^{ε/2}]`` and so does
    the normalizer: the selection is ε-label DP with respect to the hold-out labels.

    Parameters
    ----------
    losses : float array (m,), hold-out losses (sums over hold-out points), finite.
    epsilon : float > 0.
    sensitivity : float > 0, ``Δ``.

    Returns
    -------
    float array (m,), log-probabilities (their exponentials sum to 1).

    Raises
    ------
    ValueError
        On an empty or non-finite ``losses`` or a non-positive ``epsilon`` / ``sensitivity``.

    References
    ----------
    003 eq. (17) (the same mechanism with utility ``n_{lj}``, Theorem 4); 003 ref. [56].

    Examples
    --------
    >>> lp = selection_log_probabilities([0.0, 2.0], epsilon=1.0, sensitivity=1.0)
    >>> float(np.round(np.exp(lp[1] - lp[0]), 12)) == round(float(np.exp(-1.0)), 12)
    True
    """
    L = np.asarray(losses, dtype=float)
    if L.ndim != 1 or L.size == 0 or not np.all(np.isfinite(L)):
        raise ValueError(f"losses must be a non-empty finite 1-D array, got losses={losses!r}")
    epsilon = check_positive("epsilon", epsilon)
    sensitivity = check_positive("sensitivity", sensitivity)
    s = -epsilon * L / (2.0 * sensitivity)
    s = s - s.max()
    return s - np.log(np.exp(s).sum())


def exponential_selection(losses, *, epsilon: float, sensitivity: float, rng: np.random.Generator) -> int:
    """Draw one index from :func:`selection_log_probabilities` (inversion of one uniform from ``rng``).

    Parameters
    ----------
    losses, epsilon, sensitivity : as :func:`selection_log_probabilities`.
    rng : numpy Generator (the PRIVACY stream).

    Returns
    -------
    int in ``0..m-1``.

    Raises
    ------
    ValueError
        As :func:`selection_log_probabilities`, or if ``rng`` is None.

    References
    ----------
    003 eq. (17); 003 ref. [56].

    Examples
    --------
    >>> exponential_selection([0.0, 1e6], epsilon=1.0, sensitivity=1.0, rng=np.random.default_rng(0))
    0
    """
    rng = check_generator(rng)
    p = np.exp(selection_log_probabilities(losses, epsilon=epsilon, sensitivity=sensitivity))
    cum = np.cumsum(p)
    return int(min(np.searchsorted(cum, rng.random() * cum[-1], side="right"), p.size - 1))


@dataclass(frozen=True, slots=True)
class SelectionBudget:
    """How a central label-DP budget ε is spent by hold-out selection over ``m`` candidates.

    ``ε_select = select_share · ε`` for the exponential-mechanism selection on the hold-out labels,
    ``ε_fit = ε − ε_select`` for the training labels, split equally over the ``m`` candidate fits
    (``ε_fit/m`` each). Basic composition: ``m · ε_fit/m + ε_select = ε``.

    Parameters
    ----------
    epsilon : float > 0
        The total budget ε.
    n_candidates : int >= 1
        ``m``.
    select_share : float in (0, 1), default 0.5
        The share of ε given to the selection.

    Notes
    -----
    Train and hold-out labels are disjoint, so by parallel composition the procedure is in fact
    ``max(ε_fit, ε_select)``-label DP (:attr:`parallel_epsilon`); the basic-composition split is the
    accounting used here, conservative by at most a factor 2.

    References
    ----------
    003 Definition 2 (neighbours differ in one label); basic composition of ε-DP mechanisms.

    Examples
    --------
    >>> b = SelectionBudget(epsilon=1.0, n_candidates=4)
    >>> b.epsilon_select, b.epsilon_fit, b.epsilon_per_candidate, b.basic_composition_epsilon
    (0.5, 0.5, 0.125, 1.0)
    """

    epsilon: float
    n_candidates: int
    select_share: float = 0.5

    def __post_init__(self):
        check_positive("epsilon", self.epsilon)
        check_int("n_candidates", self.n_candidates, low=1)
        check_real("select_share", self.select_share, low=0.0, high=1.0, low_open=True, high_open=True)

    @property
    def epsilon_select(self) -> float:
        """``ε_select = select_share · ε``, the budget of the selection on the hold-out labels.

        Examples
        --------
        >>> SelectionBudget(epsilon=2.0, n_candidates=3, select_share=0.25).epsilon_select
        0.5
        """
        return self.select_share * self.epsilon

    @property
    def epsilon_fit(self) -> float:
        """``ε_fit = ε − ε_select``, the budget of the training labels (all candidate fits together).

        Examples
        --------
        >>> SelectionBudget(epsilon=2.0, n_candidates=3, select_share=0.25).epsilon_fit
        1.5
        """
        return self.epsilon - self.epsilon_select

    @property
    def epsilon_per_candidate(self) -> float:
        """``ε_fit / m``, the budget of each candidate's fit.

        Examples
        --------
        >>> SelectionBudget(epsilon=2.0, n_candidates=3, select_share=0.25).epsilon_per_candidate
        0.5
        """
        return self.epsilon_fit / self.n_candidates

    @property
    def basic_composition_epsilon(self) -> float:
        """``m · ε_fit/m + ε_select`` (equals ε up to rounding).

        Examples
        --------
        >>> SelectionBudget(epsilon=2.0, n_candidates=3, select_share=0.25).basic_composition_epsilon
        2.0
        """
        return self.n_candidates * self.epsilon_per_candidate + self.epsilon_select

    @property
    def parallel_epsilon(self) -> float:
        """``max(m · ε_fit/m, ε_select)``: the guarantee given disjoint training and hold-out labels.

        Examples
        --------
        >>> SelectionBudget(epsilon=2.0, n_candidates=3, select_share=0.25).parallel_epsilon
        1.5
        """
        return max(self.n_candidates * self.epsilon_per_candidate, self.epsilon_select)
