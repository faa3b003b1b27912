"""004 Table 3, typed in: test RMSE on MovieLens-1M of LP-1ST (RR), LP-2ST and a Gaussian-DP baseline.

These numbers are *published*, never measured here; the experiment ``movielens_table3`` puts them
beside its own measurements (on ML-1M from ``--data-dir``, or on ML-100K as a stand-in).

Reading notes: 004 Table 3 has columns ε = 1, 2, 3, 4, 8, ∞; the LP-1ST row holds six numbers, the
LP-2ST row five (its ∞ cell is empty: without privacy LP-2ST is LP-1ST), and the "Gaussian DP [15]"
row one number, 0.915, for "ε ≥ 10" (Bu et al.'s DP-SGD on all of the model, not label DP). 004
Section 5.1 / Appendix B: random 80/20 split, ratings as 5 categorical labels, the prediction is the
expected rating under the softmax probabilities.

References: 004 Table 3, Section 5.1, Appendix B.

Examples
--------
>>> TABLE3["LP-2ST"][1.0], TABLE3["LP-1ST"][INF]
(1.034, 0.868)
"""

from __future__ import annotations

__all__ = ["GAUSSIAN_DP", "INF", "TABLE3", "TABLE3_EPSILONS"]

INF = float("inf")
TABLE3_EPSILONS = (1.0, 2.0, 3.0, 4.0, 8.0)
TABLE3 = {
    "LP-1ST": dict(zip(TABLE3_EPSILONS + (INF,), (1.122, 0.981, 0.902, 0.877, 0.867, 0.868))),
    "LP-2ST": dict(zip(TABLE3_EPSILONS, (1.034, 0.928, 0.891, 0.874, 0.865))),
}
GAUSSIAN_DP = {"rmse": 0.915, "epsilon": "≥ 10", "source": "004 Table 3, 'Gaussian DP [15]' (Bu et al.)"}
