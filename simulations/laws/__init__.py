"""Data-generating laws with exact η, Bayes risk and exact excess risk of partition predictors.

* :mod:`~simulations.laws.holder_tsybakov` — the lower-bound constructions of 003 (bumps on cubes
  of side h, eqs. (36), (121); the three-point heavy-tailed law, eqs. (156), (159));
* :mod:`~simulations.laws.benchmarks` — fixed laws with known (β, γ), bounded and heavy-tailed
  (asymmetric) noise;
* :mod:`~simulations.laws.circle` — K Gaussian classes on the unit circle (000 Section 5.1);
* :mod:`~simulations.laws.base` — uniform features, grid convention, the risk formulas.
* :mod:`~simulations.laws.top_k_miss` — a finite law whose top-k priors miss the label with a chosen
  probability (004 Corollary 10, Theorem 17).

Every law: ``sample(n, rng) -> (X (n, d), Y (n,))``, ``eta(X)``, ``bayes_risk()``,
``excess_risk_partition(values, bins)`` (exact) and ``excess_risk_points(values, X)``.
"""

from simulations.laws.base import ClassificationLaw, RegressionLaw, midpoint_grid
from simulations.laws.circle import CircleMixture
from simulations.laws.benchmarks import AdditiveRegression, BoundaryClassification, LomaxNoise, UniformNoise
from simulations.laws.holder_tsybakov import (
    BumpClassification,
    BumpField,
    BumpRegression,
    ThreePointRegression,
    three_point_T,
)

__all__ = [
    "AdditiveRegression",
    "BoundaryClassification",
    "BumpClassification",
    "BumpField",
    "BumpRegression",
    "CircleMixture",
    "ClassificationLaw",
    "LomaxNoise",
    "RegressionLaw",
    "ThreePointRegression",
    "UniformNoise",
    "midpoint_grid",
    "three_point_T",
]
