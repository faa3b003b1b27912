"""Records and independent verifiers of the Laplace mechanisms (003 Theorems 6, 8, 10, 12), with their
planted bugs.

The verifiers never call the mechanisms' ``privacy_loss`` / ``bin_privacy_losses``; their closed
forms are written here, on the mechanisms' descriptions (label range, noise scale):

* :class:`~simulations.mechanisms.LaplaceLabels`, :class:`~simulations.mechanisms.ClippedLaplaceLabels`
  -- sup_z ln f(z-y)/f(z-y') = (max y - min y)/b over the label range (triangle inequality, attained
  for z beyond both labels), cross-checked by a brute-force grid over (y, y', z) of the mechanism's
  own ``log_density`` (for the clipped mechanism the labels extend beyond ±T);
* :class:`~simulations.mechanisms.NoisyBinMean` (003 eqs. (23), (28)) -- one label in [-T, T] moves
  its bin's mean by at most 2T/n_l and no other bin: ``max_l (2T/n_l)/b_l`` over the public bin sizes
  given, with b_l the mechanism's ``scale(n_l)``; cross-checked against the Laplace log-density of
  scale b_l at a point beyond both means.

Idealized real arithmetic (the Laplace sampler's floating-point artefacts are out of scope).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from proofs_checks.catalogue import Example, MechanismRecord, PlantedBug
from proofs_checks.channels import within
from simulations.mechanisms import ClippedLaplaceLabels, LaplaceLabels, NoisyBinMean

from ._common import result

__all__ = ["LaplaceHalfScale", "NoisyBinMeanEq23AsPrinted", "RECORDS", "laplace_pure_loss", "verify_laplace_labels",
           "verify_noisy_bin_mean"]


def _labels_loss(mech: LaplaceLabels) -> float:
    lo, hi = mech.label_range
    return (hi - lo) / mech.scale


def _bin_losses(mech: NoisyBinMean, n: np.ndarray) -> np.ndarray:
    return 2.0 * mech.T / n / mech.scale(n)  # sensitivity of a bin mean 2T/n_l over the scale b_l


def laplace_pure_loss(mechanism, counts=None, **_):
    """The exact pure loss of a Laplace mechanism, from the closed forms of this module, or None.

    Parameters
    ----------
    mechanism : object
        A :class:`~simulations.mechanisms.LaplaceLabels` (or clipped / buggy subclass) or
        :class:`~simulations.mechanisms.NoisyBinMean`; anything else gives None.
    counts : array_like of int, optional
        Public bin sizes of a :class:`NoisyBinMean` (default 1..6; the loss is the max over them).
    **_
        Ignored (the other keywords of :func:`proofs_checks.privacy_profile.privacy_profile`).

    Returns
    -------
    float or None
        Sensitivity / scale; None for mechanisms that are not Laplace mechanisms.

    References
    ----------
    003 Theorems 6, 10; eqs. (23), (28).

    Examples
    --------
    >>> laplace_pure_loss(LaplaceLabels(1.0, 0.5)), laplace_pure_loss(object()) is None
    (0.5, True)
    >>> laplace_pure_loss(NoisyBinMeanEq23AsPrinted(2.0, 1.0))   # T eps (003 eq. (23) as printed)
    2.0
    """
    if isinstance(mechanism, LaplaceLabels):
        return _labels_loss(mechanism)
    if isinstance(mechanism, NoisyBinMean):
        return float(np.max(_bin_losses(mechanism, _bin_sizes(counts))))
    return None


def _bin_sizes(counts) -> np.ndarray:
    n = np.arange(1, 7) if counts is None else np.asarray(counts)
    return n[n > 0]


def verify_laplace_labels(mech: LaplaceLabels, epsilon, delta, grid: int = 41):
    """Closed-form supremum (label range / scale) + brute-force grid of the mechanism's density.

    Parameters
    ----------
    mech : LaplaceLabels or ClippedLaplaceLabels
    epsilon : float >= 0
    delta : float
    grid : int, labels on the brute-force grid

    Returns
    -------
    DPCheckResult (idealized real arithmetic).

    References
    ----------
    003 Theorems 6, 10.

    Examples
    --------
    >>> verify_laplace_labels(LaplaceLabels(1.0, 0.5), 0.5, 0.0).epsilon_actual
    0.5
    """
    lo, hi = mech.label_range
    sup = _labels_loss(mech)
    span = 3 * mech.T if isinstance(mech, ClippedLaplaceLabels) else mech.T  # clipped: labels beyond ±T too
    ys = np.linspace(-span, span, grid)
    zs = np.linspace(-span - 5 * mech.scale, span + 5 * mech.scale, 4 * grid + 1)
    ld = mech.log_density(zs[None, :], ys[:, None])  # (labels, outputs), the mechanism's own density
    gaps = ld[:, None, :] - ld[None, :, :]
    grid_max = float(gaps.max())
    tol = 1e-12 * max(1.0, float(np.max(np.abs(ld))))  # the grid's own float rounding
    loss = sup if grid_max <= sup + tol else grid_max
    expl = (f"sup_z ln f(z-y)/f(z-y') = (max y - min y)/b = {hi - lo:g}/{mech.scale:g} = {sup:.12g} "
            f"({'<=' if within(loss, epsilon) else '>'} epsilon = {epsilon:g}); brute-force grid max {grid_max:.12g} "
            f"({'<= the supremum up to its rounding ' + format(tol, '.2g') if loss == sup else 'EXCEEDS the supremum'})")
    return result(loss, epsilon,
                   "exact supremum of the Laplace density ratio (idealized reals) + grid",
                   {"y": hi, "y_prime": lo, "output": f"z >= {hi:g}", "grid_max": grid_max}, expl)


def verify_noisy_bin_mean(mech: NoisyBinMean, epsilon, delta, counts=None):
    """max over the public bin sizes of (2T/n_l)/b_l, the Laplace density ratio checked at its attaining point.

    Parameters
    ----------
    mech : NoisyBinMean
    epsilon : float >= 0
    delta : float
    counts : array_like of int, public bin sizes (default 1..6)

    Returns
    -------
    DPCheckResult (idealized real arithmetic).

    References
    ----------
    003 eqs. (23), (28).

    Examples
    --------
    >>> verify_noisy_bin_mean(NoisyBinMean(2.0, 0.5), 0.5, 0.0, counts=(3, 7)).epsilon_actual
    0.5
    """
    n = _bin_sizes(counts)
    if np.any(n != np.round(n)):
        raise ValueError(f"counts must be integers, got counts={counts!r}")
    per_bin = _bin_losses(mech, n.astype(float))
    i = int(np.argmax(per_bin))
    loss = float(per_bin[i])
    b, shift = float(mech.scale(n[i:i + 1].astype(float))[0]), 2.0 * mech.T / float(n[i])
    z = shift + 1.0  # beyond both means (T/n and -T/n): the ratio attains shift/b
    attained = float((-abs(z - shift / 2) + abs(z + shift / 2)) / b)
    agree = abs(attained - loss) <= 1e-12 * max(1.0, loss)
    expl = (f"one label in [-T, T] moves a bin mean by at most 2T/n_l; sup ln density ratio = (2T/n_l)/b_l, "
            f"max over n_l in {list(map(int, n))} = {loss:.12g} at n_l = {int(n[i])} "
            f"({'<=' if within(loss, epsilon) else '>'} epsilon = {epsilon:g}); Laplace(b_l) log-density ratio at "
            f"z = {z:.6g}: {attained:.12g} ({'agrees' if agree else 'DISAGREES'})")
    return result(loss if agree else max(loss, attained), epsilon, "exact supremum of the Laplace density ratio per bin (idealized reals)",
                   {"bin_size": int(n[i]), "y": mech.T, "y_prime": -mech.T}, expl)


# ---------------------------------------------------------------- planted bugs


@dataclass(frozen=True, slots=True)
class LaplaceHalfScale(LaplaceLabels):
    r"""PLANTED BUG: :math:`Z = Y + \mathrm{Lap}(T/\varepsilon)` (sensitivity taken as T instead of 2T, 003 Theorem 6).

    The label range [-T, T] has diameter 2T: exact loss 2T/(T/ε) = 2ε. Overrides the public ``scale``.

    Parameters
    ----------
    T : float > 0
        Labels lie in [-T, T].
    epsilon : float > 0
        The claimed ε.

    Raises
    ------
    ValueError
        As :class:`~simulations.mechanisms.LaplaceLabels`.

    References
    ----------
    003 Theorem 6.

    Examples
    --------
    >>> from proofs_checks.dp import check_label_dp
    >>> LaplaceHalfScale(2.0, 1.0).scale, round(check_label_dp(LaplaceHalfScale(1.0, 0.5), 0.5).epsilon_actual, 12)
    (2.0, 1.0)
    """

    @property
    def scale(self) -> float:
        """Laplace scale T/ε (the bug; the correct scale is 2T/ε).

        Returns
        -------
        float
            T/ε.

        References
        ----------
        003 Theorem 6.

        Examples
        --------
        >>> LaplaceHalfScale(2.0, 1.0).scale
        2.0
        """
        return self.T / self.epsilon


@dataclass(frozen=True, slots=True)
class NoisyBinMeanEq23AsPrinted(NoisyBinMean):
    r"""003 eq. (23) as printed: :math:`W_l \sim \mathrm{Lap}(2/(n_l\varepsilon))` whatever T (correct only for T <= 1).

    A paper finding checked like a planted bug: for labels in [-T, T] a bin mean moves by
    :math:`2T/n_l`, so the exact loss is :math:`(2T/n_l)/(2/(n_l\varepsilon)) = T\varepsilon` (2ε at
    T = 2). Overrides the public ``scale``.

    Parameters
    ----------
    T : float > 0
        Labels lie in [-T, T].
    epsilon : float > 0
        The claimed ε.
    clip : bool, default False
        Clip labels to [-T, T] first (as :class:`~simulations.mechanisms.NoisyBinMean`).

    Raises
    ------
    ValueError
        As :class:`~simulations.mechanisms.NoisyBinMean`.

    References
    ----------
    003 eq. (23), Theorem 8; the correct scale is eq. (28)'s :math:`2T/(n_l\varepsilon)`.

    Examples
    --------
    >>> from proofs_checks.dp import check_label_dp
    >>> NoisyBinMeanEq23AsPrinted(2.0, 1.0).scale(np.array([4.0])).tolist()
    [0.5]
    >>> check_label_dp(NoisyBinMeanEq23AsPrinted(2.0, 1.0), 1.0).epsilon_actual
    2.0
    """

    def scale(self, counts) -> np.ndarray:
        r"""Laplace scale per bin as printed in 003 eq. (23), :math:`2/(n_l\varepsilon)`.

        Parameters
        ----------
        counts : array_like of int
            Bin sizes :math:`n_l`.

        Returns
        -------
        ndarray
            The scales, shape of ``counts`` (inf where :math:`n_l = 0`).

        References
        ----------
        003 eq. (23) (as printed) and eq. (28) (the correct 2T/(n_l ε)).

        Examples
        --------
        >>> NoisyBinMeanEq23AsPrinted(2.0, 1.0).scale(np.array([1.0, 4.0])).tolist()
        [2.0, 0.5]
        """
        n = np.asarray(counts, dtype=float)
        with np.errstate(divide="ignore"):
            return 2.0 / (n * self.epsilon)


RECORDS = (
    MechanismRecord(
        LaplaceLabels, "Laplace labels", "003 Thm 6", verify_laplace_labels,
        examples=(Example("T=1", lambda e: LaplaceLabels(1.0, e), loss=lambda e: e),
                  Example("T=3", lambda e: LaplaceLabels(3.0, e), loss=lambda e: e)),
        paper_claim="tight", order=60,
        planted_bugs=(PlantedBug("Laplace: Lap(T/eps)", lambda e: LaplaceHalfScale(1.0, e), loss=lambda e: 2 * e,
                                 order=50, derivation="label range 2T over scale T/eps: 2 eps"),)),
    MechanismRecord(
        ClippedLaplaceLabels, "clipping + Laplace", "003 Thm 10", verify_laplace_labels,
        examples=(Example("T=1", lambda e: ClippedLaplaceLabels(1.0, e), loss=lambda e: e),),
        paper_claim="tight", order=70),
    MechanismRecord(
        NoisyBinMean, "noisy bin mean", "003 eq. (23)/(28)", verify_noisy_bin_mean,
        examples=(Example("T=1, clipped, bins of 1..6", lambda e: NoisyBinMean(1.0, e, clip=True), loss=lambda e: e),
                  Example("T=2, bins of 3 and 7", lambda e: NoisyBinMean(2.0, e), loss=lambda e: e,
                          checker_kwargs={"counts": (3, 7)})),
        paper_claim="tight", order=80,
        planted_bugs=(PlantedBug("003 eq. (23) as printed, T=2", lambda e: NoisyBinMeanEq23AsPrinted(2.0, e),
                                 loss=lambda e: 2 * e, order=70,
                                 derivation="T eps at T = 2: NoisyBinMeanEq23AsPrinted's docstring"),)),
)
