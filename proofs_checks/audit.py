"""Black-box statistical audit: a one-sided lower confidence bound on ε from samples.

Draw n outputs of the mechanism on each of two neighbouring inputs a and b (labels y and y').
For every output event E, ε >= ln(P_a(E) / P_b(E)) (and the same with a and b swapped). With
Clopper-Pearson bounds, a lower bound on P_a(E) and an upper bound on P_b(E) give

    ε_lb = max over events and directions of ln(lower(P_a(E)) / upper(P_b(E))).

Confidence semantics: all the one-sided Clopper-Pearson bounds used (two per event and direction)
hold simultaneously with probability >= ``confidence`` (Bonferroni: each at level
(1 - confidence) / number of bounds). On that event every ratio bound is <= the true ratio <= e^ε,
so for an ε-DP mechanism P(ε_lb > ε) <= 1 - confidence whatever the events, n or the mechanism:
a reported violation (ε_lb > ε claimed) is wrong with probability at most 1 - confidence.
The events must be fixed before the samples are seen (choosing them from the same samples voids
the guarantee).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np
from scipy import stats

from limits._validation import check_int, check_probability, check_real
from simulations.seeding import check_generator

__all__ = ["AuditResult", "audit_epsilon", "audit_label_randomizer", "clopper_pearson_lower",
           "clopper_pearson_upper", "output_events"]


def _check_binomial(k, n, alpha) -> None:
    n = check_int("n", n, low=1)
    k = check_int("k", k, low=0)
    if k > n:
        raise ValueError(f"k must be <= n={n}, got k={k}")
    check_real("alpha", alpha, low=0.0, high=1.0, low_open=True, high_open=True)


def clopper_pearson_lower(k: int, n: int, alpha: float) -> float:
    """One-sided lower bound on p from k successes in n: P(p < bound) <= alpha."""
    _check_binomial(k, n, alpha)
    return 0.0 if k == 0 else float(stats.beta.ppf(alpha, k, n - k + 1))


def clopper_pearson_upper(k: int, n: int, alpha: float) -> float:
    """One-sided upper bound on p from k successes in n: P(p > bound) <= alpha."""
    _check_binomial(k, n, alpha)
    return 1.0 if k == n else float(stats.beta.isf(alpha, k + 1, n - k))


@dataclass(frozen=True, slots=True)
class AuditResult:
    """Outcome of :func:`audit_epsilon`.

    ``epsilon_lower`` is a lower confidence bound on the true privacy loss at level ``confidence``
    (0.0 when no event separates the inputs). ``event`` indexes the best event, ``direction`` is
    "a/b" or "b/a", ``counts`` the event counts (in a, in b) out of ``n`` each.
    """

    epsilon_lower: float
    confidence: float
    n: int
    event: int
    direction: str
    counts: tuple[int, int]
    explanation: str

    def violates(self, epsilon: float) -> bool:
        """True when the audit proves, at its confidence, that the mechanism is not ε-DP."""
        return self.epsilon_lower > epsilon


def audit_epsilon(sample_a: Callable, sample_b: Callable, events: Sequence[Callable], n: int,
                  rng: np.random.Generator, confidence: float = 0.95, both_directions: bool = True) -> AuditResult:
    """Lower confidence bound on ε from n samples on each of two neighbouring inputs.

    Parameters
    ----------
    sample_a, sample_b : callable ``(n, rng) -> outputs``
        Draw n outputs (first axis = samples) of the mechanism on the inputs a and b.
    events : sequence of callables ``outputs -> bool array of shape (n,)``
        Output events fixed in advance (e.g. :func:`output_events`).
    n : int >= 1
        Samples per input.
    rng : numpy Generator
    confidence : float in (0, 1)
        Simultaneous confidence of all bounds (see the module docstring).
    both_directions : bool
        Also bound ln(P_b(E)/P_a(E)) (doubles the number of bounds in the Bonferroni correction).

    Returns
    -------
    AuditResult
    """
    n = check_int("n", n, low=1)
    confidence = check_probability("confidence", confidence)
    if confidence <= 0:
        raise ValueError(f"confidence must be > 0, got confidence={confidence}")
    if len(events) == 0:
        raise ValueError("events must not be empty")
    rng = check_generator(rng)
    out_a, out_b = sample_a(n, rng), sample_b(n, rng)
    counts = [(int(np.count_nonzero(ev(out_a))), int(np.count_nonzero(ev(out_b)))) for ev in events]
    directions = ("a/b", "b/a") if both_directions else ("a/b",)
    alpha = (1.0 - confidence) / (2 * len(events) * len(directions))
    best = (0.0, 0, "a/b")
    for i, (ka, kb) in enumerate(counts):
        for d in directions:
            k_num, k_den = (ka, kb) if d == "a/b" else (kb, ka)
            lo, hi = clopper_pearson_lower(k_num, n, alpha), clopper_pearson_upper(k_den, n, alpha)
            lb = math.log(lo / hi) if lo > 0 else -math.inf
            if lb > best[0]:
                best = (lb, i, d)
    lb, i, d = best
    expl = (f"epsilon >= {lb:.6g} with confidence {confidence:g} (event #{i}, {d}: counts "
            f"{counts[i][0]}/{n} on a, {counts[i][1]}/{n} on b; Clopper-Pearson, Bonferroni over "
            f"{2 * len(events) * len(directions)} one-sided bounds)")
    return AuditResult(epsilon_lower=lb, confidence=confidence, n=n, event=i, direction=d,
                       counts=counts[i], explanation=expl)


def output_events(num_outputs: int) -> list[Callable]:
    """Singleton events {output == c} for c = 0 .. num_outputs - 1 (finite integer outputs)."""
    return [lambda z, c=c: np.asarray(z) == c for c in range(check_int("num_outputs", num_outputs, low=1))]


def audit_label_randomizer(mechanism, y: int, y_prime: int, events: Sequence[Callable], n: int,
                           rng: np.random.Generator, confidence: float = 0.95, **sample_kwargs) -> AuditResult:
    """:func:`audit_epsilon` for a local label randomizer on labels y and y' (``mechanism.sample``).

    ``sample_kwargs`` go to ``mechanism.sample`` (e.g. ``prior=`` for RRTopK / RRWithPrior).
    """
    if y == y_prime:  # label-DP neighbours differ in the label: the same label twice audits nothing
        raise ValueError(f"y and y_prime must differ, got y={y}, y_prime={y_prime}")
    def sampler(label):
        return lambda m, g: mechanism.sample(np.full(m, label, dtype=np.int64), g, **sample_kwargs)

    return audit_epsilon(sampler(y), sampler(y_prime), events, n, rng, confidence)
