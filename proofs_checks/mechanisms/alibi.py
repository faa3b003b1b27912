"""Record and independent verifier of ALIBI (Laplace noise on the one-hot label).

The verifier never calls the mechanism's ``privacy_loss``. Its closed form, written here:
ln f(o|y)/f(o|y') = (||o - e_y'||_1 - ||o - e_y||_1) / b <= ||e_y - e_y'||_1 / b = 2 / b by the
triangle inequality per coordinate, with equality for o(y) >= 1, o(y') <= 0; b is the mechanism's
noise scale (its description). It is cross-checked against the mechanism's own density
(``log_density``) at a witness point where the supremum is attained (O(K), any K), and
:func:`alibi_loss_brute_force` (max over all K(K-1) pairs) is the oracle for small K. Soft labels are
post-processing of o. Idealized real arithmetic.

References: ALIBI (Malek Esmaeili et al. 2021), cited in 000 Section 2.
"""

from __future__ import annotations

import itertools

import numpy as np

from proofs_checks.catalogue import Example, MechanismRecord
from proofs_checks.channels import DPCheckResult, within
from simulations.mechanisms import ALIBI

__all__ = ["RECORDS", "alibi_loss_brute_force", "verify_alibi"]

K = 5  # classes of the headline example
# Relative agreement required between the closed form and the density ratio at the witness point
# (a difference of two sums of K absolute values, each rounded: K * 2^-52 relative at most).
_ATTAINED_RTOL = 1e-12


def alibi_loss_brute_force(mech: ALIBI) -> tuple[float, tuple[int, int]]:
    """Max over all K(K-1) ordered pairs of ||e_y - e_y'||_1 / scale (O(K^3) time: small K only).

    Parameters
    ----------
    mech : ALIBI

    Returns
    -------
    (loss, (y, y'))

    References
    ----------
    000 Section 2 (ALIBI's Laplace noise of scale 2/ε per coordinate).

    Examples
    --------
    >>> alibi_loss_brute_force(ALIBI(3, 1.0))[0]
    1.0
    """
    Kc = mech.num_classes
    onehot = np.eye(Kc)
    sens, pair = max((float(np.abs(onehot[i] - onehot[j]).sum()), (i, j))
                     for i, j in itertools.permutations(range(Kc), 2))
    return sens / mech.scale, pair


def verify_alibi(mech: ALIBI, epsilon, delta) -> DPCheckResult:
    """sup_o ln f(o|y)/f(o|y') = ||e_y - e_y'||_1 / scale = 2/scale, cross-checked at an attaining point.

    Parameters
    ----------
    mech : ALIBI
    epsilon : float >= 0
    delta : float

    Returns
    -------
    DPCheckResult (idealized real arithmetic).

    References
    ----------
    000 Section 2 (ALIBI).

    Examples
    --------
    >>> verify_alibi(ALIBI(4, 0.5), 0.5, 0.0).epsilon_actual
    0.5
    """
    Kc = mech.num_classes
    y, y2 = 0, 1
    loss = 2.0 / mech.scale  # ||e_0 - e_1||_1 = 2, the same for every pair
    o = np.zeros((1, Kc))
    o[0, y], o[0, y2] = 1.5, -0.5
    attained = float(mech.log_density(o, [y])[0] - mech.log_density(o, [y2])[0])
    agree = abs(attained - loss) <= _ATTAINED_RTOL * max(1.0, loss)
    if not agree:  # the mechanism's density is not the Laplace law of its scale: report what it does
        loss = max(loss, attained)
    holds = agree and within(loss, epsilon)
    expl = (f"Laplace vector: L1 sensitivity of the one-hot label 2 / scale {mech.scale:.12g} = "
            f"loss {loss:.12g} {'<=' if within(loss, epsilon) else '>'} epsilon = {epsilon:g} (attained: "
            f"ln f(o|{y})/f(o|{y2}) = {attained:.12g} at o = 1.5 e_{y} - 0.5 e_{y2}, "
            f"{'agrees' if agree else 'DISAGREES'}); soft labels are post-processing")
    return DPCheckResult(holds=holds, epsilon=epsilon, delta=delta, epsilon_actual=loss, delta_actual=0.0,
                         method="exact supremum of the Laplace density ratio in closed form (idealized real arithmetic)",
                         witness={"y": y, "y_prime": y2, "attained": attained, "output_nonzero": {y: 1.5, y2: -0.5}},
                         explanation=expl)


RECORDS = (
    MechanismRecord(
        ALIBI, "ALIBI", "000 (ALIBI)", verify_alibi,
        # 000 cites ALIBI as eps-DP; the sup of the density ratio is attained: loss = 2/(2/eps) = eps
        examples=(Example(f"K={K}", lambda e: ALIBI(K, e), loss=lambda e: e),
                  Example("K=2", lambda e: ALIBI(2, e), loss=lambda e: e)),
        paper_claim="at most", order=50),
)
