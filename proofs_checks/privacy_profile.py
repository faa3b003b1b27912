"""Exact privacy profiles δ(ε') (hockey-stick divergences) of the suite's mechanisms.

For a mechanism M and neighbouring inputs D, D' (one label replaced)

    δ(ε') = max_{D ~ D'} ∫ max(0, P(z | D) - e^{ε'} P(z | D')) dz,

so M is (ε', δ(ε'))-DP and no smaller δ works at ε'. :func:`privacy_profile` dispatches on the
mechanism:

* :class:`~simulations.mechanisms.StabilityHistogram` (001 Algorithm 1): :mod:`proofs_checks.stability`.
* Laplace label noise (003 Theorem 6/10) and noisy bin means: closed form
  ``δ(ε') = max(0, 1 - e^{(ε'-ε_0)/2})`` for a Laplace mechanism whose pure loss is ε_0.
* Finite-output mechanisms (exponential mechanism, geometric histogram, noisy majority, every
  local randomizer with a channel): the maximum of Σ_z max(0, p - e^{ε'} q) over the neighbouring
  output distributions enumerated by :func:`output_distribution_pairs` / the channel rows.

Everything is in idealized real arithmetic (the Laplace sampler's floating-point artefacts are out
of scope, see ``simulations.mechanisms.laplace``).

References: 001 Algorithm 1 and Theorem 2.4; 003 Theorems 6, 8, 10, 12.
"""

from __future__ import annotations

import math

import numpy as np

from limits.validation import check_finite_array, check_real
from simulations.mechanisms import (ExponentialMechanism, GeometricHistogram, LaplaceLabels, NoisyBinMean,
                                    NoisyMajority, StabilityHistogram)
from simulations.mechanisms.labels import check_priors

from .catalogue import verifier_for
from .channels import as_channel, audit_priors, mechanism_kind, reject_unknown_keywords
from .mechanisms.exponential import exponential_pairs
from .mechanisms.histograms import geometric_pairs, majority_distributions
from .mechanisms.laplace import laplace_pure_loss
from .stability import stability_profile

__all__ = ["channel_profile", "hockey_stick", "laplace_profile", "output_distribution_pairs", "privacy_profile"]


def hockey_stick(p, q, epsilon_prime) -> np.ndarray:
    r"""Hockey-stick divergence :math:`\sum_z \max(0, p_z - e^{\varepsilon'} q_z)` of two finite distributions.

    Parameters
    ----------
    p, q : array_like, shape (n_outputs,)
        Non-negative masses of the two output distributions (same shape, finite).
    epsilon_prime : float or array_like of float, shape (m,)
        The ε' values (finite).

    Returns
    -------
    float or ndarray
        A float for scalar ``epsilon_prime``, else an ndarray of shape (m,).

    Raises
    ------
    ValueError
        If p and q differ in shape, are scalars or hold non-finite values, or ``epsilon_prime`` is
        not finite.

    References
    ----------
    001 Definition 1.1: (ε', δ)-DP holds iff this is <= δ for every pair of neighbours.

    Examples
    --------
    Randomized response's rows at :math:`e^\varepsilon = 3` (004 eq. (1)): TV 1/2 at ε' = 0,
    0.75 - 2 x 0.25 = 0.25 at ε' = ln 2, 0 at ε' = ln 3.

    >>> import math
    >>> hockey_stick([0.75, 0.25], [0.25, 0.75], math.log(2))
    0.25
    >>> hockey_stick([0.75, 0.25], [0.25, 0.75], [0.0, math.log(3)]).tolist()
    [0.5, 0.0]
    """
    p, q = np.asarray(p, dtype=float), np.asarray(q, dtype=float)
    if p.shape != q.shape or p.ndim == 0 or not (np.all(np.isfinite(p)) and np.all(np.isfinite(q))):
        raise ValueError(f"p and q must be finite arrays of one shape, got shapes {p.shape} and {q.shape}")
    check_finite_array("epsilon_prime", epsilon_prime)
    e = np.exp(np.asarray(epsilon_prime, dtype=float))[..., None]
    return np.maximum(0.0, p[None, ...] - e * q[None, ...]).sum(axis=-1) if np.ndim(epsilon_prime) else \
        float(np.maximum(0.0, p - math.exp(float(epsilon_prime)) * q).sum())


def laplace_profile(loss: float, epsilon_prime) -> np.ndarray:
    r"""Hockey-stick profile of a Laplace mechanism with pure loss ``loss`` = sensitivity / scale.

    For shifts of ±Δ and scale b the privacy-loss variable is :math:`(|Z-\Delta| - |Z|)/b`;
    integrating :math:`(f(z) - e^{\varepsilon'} f(z-\Delta))_+` in closed form gives
    :math:`1 - e^{(\varepsilon' - \Delta/b)/2}` for :math:`\varepsilon' \le \Delta/b`, else 0.
    Idealized real arithmetic.

    Parameters
    ----------
    loss : float >= 0
        :math:`\varepsilon_0 = \Delta / b`.
    epsilon_prime : float or array_like of float, shape (m,)
        The ε' values (finite).

    Returns
    -------
    ndarray, shape of ``epsilon_prime``
        δ(ε').

    Raises
    ------
    ValueError
        If ``loss`` < 0 or ``epsilon_prime`` is not finite.

    References
    ----------
    003 Theorems 6, 8, 10, 12 (Laplace mechanisms); 001 Definition 2.2.

    Examples
    --------
    At ε' = 0 the profile is the TV of two Laplace laws one :math:`\varepsilon_0` apart,
    :math:`1 - e^{-\varepsilon_0/2}`: 1/2 for :math:`\varepsilon_0 = 2\ln 2`.

    >>> import math
    >>> (laplace_profile(2 * math.log(2), [0.0, 2 * math.log(2)]) + 0.0).round(12).tolist()
    [0.5, 0.0]
    """
    loss = check_real("loss", loss, low=0.0)
    epsilon_prime = check_finite_array("epsilon_prime", epsilon_prime)
    return np.maximum(0.0, -np.expm1((epsilon_prime - loss) / 2.0))


def privacy_profile(mechanism, epsilons, **kwargs) -> np.ndarray:
    r"""Exact δ(ε') for each ε' in ``epsilons`` (the methods are listed in the module docstring).

    Parameters
    ----------
    mechanism : object
        A mechanism of :mod:`simulations.mechanisms` (stability histogram, Laplace, exponential,
        geometric histogram, noisy majority, local randomizers with a channel), or what
        :func:`proofs_checks.dp.check_label_dp` accepts exactly: an array-like channel, an object
        with ``channel_matrix()`` or ``channel_matrix(prior)``, a callable ``prior -> channel`` (max
        over ``prior=``/``priors=`` or drawn priors with ``num_classes=``).
    epsilons : float or array_like of float
        The ε' values, finite and >= 0.
    **kwargs
        Passed to the mechanism's method: ``dataset_size=``, ``max_count=`` for the stability
        histogram; ``counts=`` for the noisy bin mean; the enumeration sizes of
        :func:`output_distribution_pairs` (``bin_size=``, ``sizes=``, ``dataset_size=``,
        ``num_classes=``) for the discrete central mechanisms; ``prior=`` for channels that need one;
        ``kind=``, ``num_classes=``, ``prior=``, ``priors=``, ``rng=``, ``draws=`` for the generic
        forms.

    Returns
    -------
    ndarray, shape (m,)
        δ(ε') per ε' (a scalar ``epsilons`` gives shape (1,)).

    Raises
    ------
    ValueError
        A negative or non-finite ε', a black-box sampler (no exact profile), or a mechanism with no
        exact profile.
    TypeError
        An unknown keyword argument.

    References
    ----------
    001 Algorithm 1 and Theorem 2.4; 003 Theorems 6, 8, 10, 12; 004 eq. (1).

    Examples
    --------
    Laplace labels with T = 1, ε = 1 (003 Theorem 6): pure loss 1, so δ(0) = 1 - e^{-1/2};
    randomized response at :math:`e^\varepsilon = 3`: δ = 1/2, 1/4, 0 at ε' = 0, ln 2, ln 3.

    >>> import math
    >>> from simulations.mechanisms import LaplaceLabels, RandomizedResponse
    >>> abs(float(privacy_profile(LaplaceLabels(1.0, 1.0), 0.0)[0]) - (1 - math.exp(-0.5))) < 1e-12
    True
    >>> (privacy_profile(RandomizedResponse(2, math.log(3)), [0, math.log(2), math.log(3)]) + 0.0).round(12).tolist()
    [0.5, 0.25, 0.0]
    """
    epsilon_prime = np.atleast_1d(np.asarray(epsilons, dtype=float))
    if np.any(epsilon_prime < 0) or not np.all(np.isfinite(epsilon_prime)):
        raise ValueError(f"epsilons must be finite and >= 0, got epsilons={epsilons!r}")
    if not _is_suite_mechanism(mechanism):
        return _generic_profile(mechanism, epsilon_prime, kwargs)
    reject_unknown_keywords(kwargs, _profile_keywords(mechanism), f"the privacy profile of {type(mechanism).__name__}")
    if isinstance(mechanism, StabilityHistogram):
        return stability_profile(mechanism, epsilon_prime, **kwargs)
    pure = laplace_pure_loss(mechanism, **kwargs)
    if pure is not None:
        return laplace_profile(pure, epsilon_prime)
    best = np.zeros_like(epsilon_prime)
    for p, q in output_distribution_pairs(mechanism, **kwargs):
        best = np.maximum(best, hockey_stick(p, q, epsilon_prime))
    return best


def _is_suite_mechanism(mechanism) -> bool:
    return verifier_for(mechanism) is not None


def channel_profile(channel, epsilon_prime) -> np.ndarray:
    r"""δ(ε') of a channel: the max over ordered row pairs (y, y') of the hockey stick of its rows.

    :math:`\delta(\varepsilon') = \max_{y \ne y'} \sum_z \max(0, P[y, z] - e^{\varepsilon'} P[y', z])`.

    Parameters
    ----------
    channel : array_like, shape (K, M)
        A channel (rows are probability vectors, :func:`proofs_checks.dp.as_channel`).
    epsilon_prime : float or array_like of float, shape (m,)
        The ε' values.

    Returns
    -------
    ndarray, shape of ``epsilon_prime``
        δ(ε').

    Raises
    ------
    ValueError
        If ``channel`` is not a valid channel.

    References
    ----------
    003 Definition 3 (local label DP, neighbours = two labels); 004 eq. (1).

    Examples
    --------
    >>> import math
    >>> (channel_profile([[0.75, 0.25], [0.25, 0.75]], [0.0, math.log(2), math.log(3)]) + 0.0).round(12).tolist()
    [0.5, 0.25, 0.0]
    """
    P = as_channel(channel)
    best = np.zeros_like(np.asarray(epsilon_prime, dtype=float))
    for i in range(P.shape[0]):
        for j in range(P.shape[0]):
            if i != j:
                best = np.maximum(best, hockey_stick(P[i], P[j], epsilon_prime))
    return best


def _generic_profile(mechanism, epsilon_prime, kwargs) -> np.ndarray:
    """Profile of a channel array, an object with ``channel_matrix()`` / ``channel_matrix(prior)`` or a
    callable ``prior -> channel`` (max over the priors of :func:`proofs_checks.dp.check_prior_channel`)."""
    kind = mechanism_kind(mechanism, kwargs.pop("kind", None))
    if kind == "sampler":
        raise ValueError("mechanism is a black-box sampler: it has no exact privacy profile "
                         "(check_label_dp(sampler, epsilon, ...) runs the statistical audit)")
    if kind == "channel":
        reject_unknown_keywords(kwargs, ("num_classes",), "a channel")
        P = mechanism.channel_matrix() if hasattr(mechanism, "channel_matrix") else mechanism
        return channel_profile(as_channel(P, num_rows=kwargs.get("num_classes")), epsilon_prime)
    reject_unknown_keywords(kwargs, ("num_classes", "prior", "priors", "rng", "draws"), "a prior-dependent randomizer")
    fn = mechanism.channel_matrix if hasattr(mechanism, "channel_matrix") else mechanism
    K = kwargs.get("num_classes", getattr(mechanism, "num_classes", None))
    if kwargs.get("prior") is not None:
        plist = [kwargs["prior"]]
    elif kwargs.get("priors") is not None:
        plist = list(kwargs["priors"])
    else:
        if K is None:
            raise ValueError("num_classes is needed to draw priors (or pass prior= / priors=)")
        plist = audit_priors(K, kwargs.get("rng", 0), draws=kwargs.get("draws", 10))
    K = K if K is not None else np.shape(plist[0])[-1]
    best = np.zeros_like(epsilon_prime)
    for i, p in enumerate(plist):
        P = as_channel(fn(check_priors(p, K)), name=f"mechanism(prior) for prior #{i}", num_rows=K)
        best = np.maximum(best, channel_profile(P, epsilon_prime))
    return best


def _profile_keywords(mechanism) -> tuple[str, ...]:
    """The keyword arguments :func:`privacy_profile` accepts for this mechanism (others raise TypeError)."""
    table = [(StabilityHistogram, ("dataset_size", "max_count")), (LaplaceLabels, ()), (NoisyBinMean, ("counts",)),
             (ExponentialMechanism, ("bin_size",)), (GeometricHistogram, ("dataset_size", "num_classes")),
             (NoisyMajority, ("sizes",))]
    for cls, names in table:
        if isinstance(mechanism, cls):
            return names
    return ("prior",)


def output_distribution_pairs(mechanism, bin_size: int = 6, sizes=(1, 2, 3), dataset_size: int = 4,
                              num_classes: int = 3, prior=None, **_):
    """Yield (p, q): exact output distributions of every ordered pair of neighbouring inputs.

    Used by :func:`privacy_profile` for the finite-output mechanisms: the exponential mechanism over
    the count vectors of one bin, the geometric histogram over label histograms, the noisy majority
    over labellings of public cubes; local randomizers with a ``channel_matrix`` yield every ordered
    pair of its rows.

    Parameters
    ----------
    mechanism : object
        ExponentialMechanism, GeometricHistogram, NoisyMajority, or anything with ``channel_matrix``.
    bin_size : int, default 6
        Labels per bin (exponential mechanism).
    sizes : sequence of int, default (1, 2, 3)
        Public cube sizes (noisy majority).
    dataset_size : int, default 4
        Labels in the dataset (geometric histogram).
    num_classes : int, default 3
        Classes (geometric histogram).
    prior : array_like, shape (K,), optional
        Prior for ``channel_matrix(prior)``.
    **_
        Ignored (the other keywords of :func:`privacy_profile`).

    Yields
    ------
    tuple of ndarray (p, q)
        Two output distributions of the same length.

    Raises
    ------
    ValueError
        For a mechanism without an exact finite output law.

    References
    ----------
    003 eq. (17) (exponential mechanism), 004 Algorithm 4 (geometric histogram), 001 Algorithm 2
    (noisy majority), 004 eq. (1).

    Examples
    --------
    >>> import math
    >>> from simulations.mechanisms import RandomizedResponse
    >>> [(p.round(12).tolist(), q.round(12).tolist())
    ...  for p, q in output_distribution_pairs(RandomizedResponse(2, math.log(3)))]
    [([0.75, 0.25], [0.25, 0.75]), ([0.25, 0.75], [0.75, 0.25])]
    """
    if isinstance(mechanism, ExponentialMechanism):
        _, _, lp, lq = exponential_pairs(mechanism, bin_size)
        pairs = [(np.exp(lp), np.exp(lq))]
    elif isinstance(mechanism, GeometricHistogram):
        _, _, lp, lq = geometric_pairs(mechanism, dataset_size, num_classes)
        pairs = [(np.exp(lp), np.exp(lq))]
    elif isinstance(mechanism, NoisyMajority):
        pairs = ((np.exp(lp), np.exp(lq)) for _, _, lp, lq in majority_distributions(mechanism, sizes))
    elif hasattr(mechanism, "channel_matrix"):
        P = np.asarray(mechanism.channel_matrix() if prior is None else mechanism.channel_matrix(prior))
        idx = np.array([(i, j) for i in range(len(P)) for j in range(len(P)) if i != j])
        pairs = [(P[idx[:, 0]], P[idx[:, 1]])]
    else:
        raise ValueError(f"no exact privacy profile for mechanism {type(mechanism).__name__}")
    for p, q in pairs:
        p, q = np.atleast_2d(p), np.atleast_2d(q)
        for i in range(len(p)):
            yield p[i], q[i]
