"""Verifiers of the Laplace mechanisms (003 Theorems 6, 8, 10, 12), registered with ``check_label_dp``.

* :class:`LaplaceLabels`, :class:`ClippedLaplaceLabels` -- the closed-form supremum
  (:meth:`~simulations.mechanisms.LaplaceLabels.privacy_loss`, 2T/b) against a brute-force grid over
  (y, y', z) of the mechanism's own ``log_density`` (for the clipped mechanism the labels extend
  beyond ±T).
* :class:`NoisyBinMean` (003 eqs. (23), (28)) -- ``max_l (2T/n_l)/b_l`` over the public bin sizes given
  (:meth:`~simulations.mechanisms.NoisyBinMean.bin_privacy_losses`).

Idealized real arithmetic (the Laplace sampler's floating-point artefacts are out of scope).
"""

from __future__ import annotations

import numpy as np

from proofs_checks.dp import register_checker, within
from simulations.mechanisms import ClippedLaplaceLabels, LaplaceLabels, NoisyBinMean

from ._common import result

__all__ = ["laplace_pure_loss"]


def laplace_pure_loss(mechanism, counts=None, **_):
    """The exact pure loss of a Laplace mechanism (bin sizes 1..6 by default for noisy bin means), or
    None for other mechanisms."""
    if isinstance(mechanism, LaplaceLabels):
        return mechanism.privacy_loss()
    if isinstance(mechanism, NoisyBinMean):
        return mechanism.privacy_loss(_bin_sizes(counts))
    return None


def _bin_sizes(counts) -> np.ndarray:
    n = np.arange(1, 7) if counts is None else np.asarray(counts)
    return n[n > 0]


@register_checker(LaplaceLabels)
def _check_laplace_labels(mech: LaplaceLabels, epsilon, delta, grid: int = 41):
    lo, hi = mech.label_range
    sup = mech.privacy_loss()
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


@register_checker(NoisyBinMean)
def _check_noisy_bin_mean(mech: NoisyBinMean, epsilon, delta, counts=None):
    n = _bin_sizes(counts)
    per_bin = mech.bin_privacy_losses(n)
    i = int(np.argmax(per_bin))
    loss = float(per_bin[i])
    expl = (f"one label in [-T, T] moves a bin mean by at most 2T/n_l; sup ln density ratio = (2T/n_l)/b_l, "
            f"max over n_l in {list(map(int, n))} = {loss:.12g} at n_l = {int(n[i])} "
            f"({'<=' if within(loss, epsilon) else '>'} epsilon = {epsilon:g})")
    return result(loss, epsilon, "exact supremum of the Laplace density ratio per bin (idealized reals)",
                   {"bin_size": int(n[i]), "y": mech.T, "y_prime": -mech.T}, expl)
