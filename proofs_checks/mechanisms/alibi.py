"""Verifier of ALIBI (Laplace noise on the one-hot label), registered with ``check_label_dp``.

The closed form :meth:`simulations.mechanisms.ALIBI.privacy_loss` (2 / scale, O(1)) is confirmed
by evaluating the mechanism's own density ratio at a witness point where the supremum is attained;
:func:`alibi_loss_brute_force` (max over all K(K-1) pairs) is the test oracle for small K.
Idealized real arithmetic.
"""

from __future__ import annotations

import itertools

import numpy as np

from proofs_checks.dp import DPCheckResult, register_checker, within
from simulations.mechanisms import ALIBI

__all__ = ["alibi_loss_brute_force"]


def alibi_loss_brute_force(mech: ALIBI) -> tuple[float, tuple[int, int]]:
    """Test oracle for :meth:`ALIBI.privacy_loss`: max over all K(K-1) ordered pairs of ||e_y - e_y'||_1 / scale
    (O(K^3) time, a K x K identity: small K only)."""
    K = mech.num_classes
    onehot = np.eye(K)
    sens, pair = max((float(np.abs(onehot[i] - onehot[j]).sum()), (i, j))
                     for i, j in itertools.permutations(range(K), 2))
    return sens / mech.scale, pair


@register_checker(ALIBI)
def _check_alibi(mech, epsilon, delta):
    """sup_o ln f(o|y)/f(o|y') = ||e_y - e_y'||_1 / scale = 2/scale (:meth:`ALIBI.privacy_loss`); soft
    labels are post-processing of o."""
    K = mech.num_classes
    loss, (y, y2) = mech.privacy_loss(), (0, 1)
    # The supremum is attained: evaluate the exact density ratio at a witness point (O(K)).
    o = np.zeros((1, K))
    o[0, y], o[0, y2] = 1.5, -0.5
    attained = float(mech.log_density(o, [y])[0] - mech.log_density(o, [y2])[0])
    holds = within(loss, epsilon)
    expl = (f"Laplace vector: L1 sensitivity of the one-hot label 2 / scale {mech.scale:.12g} = "
            f"loss {loss:.12g} {'<=' if holds else '>'} epsilon = {epsilon:g} (attained: ln f(o|{y})/f(o|{y2}) = "
            f"{attained:.12g} at o = 1.5 e_{y} - 0.5 e_{y2}); soft labels are post-processing")
    return DPCheckResult(holds=holds, epsilon=epsilon, delta=delta, epsilon_actual=loss, delta_actual=0.0,
                         method="exact supremum of the Laplace density ratio in closed form (idealized real arithmetic)",
                         witness={"y": y, "y_prime": y2, "attained": attained, "output_nonzero": {y: 1.5, y2: -0.5}},
                         explanation=expl)
