"""Experiments on the minimax rates of 003 (Table 1, Theorems 1-12), and the machinery they share.

Experiments (each named in :mod:`simulations.experiments.catalogue`): :mod:`.table` (Table 1 itself),
:mod:`.classification`, :mod:`.regression`, :mod:`.heavy_tailed` (the Table 1 rows), :mod:`.epsilon`
(the dependence on ε), :mod:`.upper` (upper bounds over laws), :mod:`.data_driven` (h chosen from data),
:mod:`.k_gamma` (K > 2 classes, γ ≠ 1).

Library modules, not experiments: :mod:`.machinery` (rate cases, trials, sizes and the shared
``compute_rate_study``; also used by :mod:`proofs_checks.experiments.lower_bounds`), :mod:`.fit`
(log-log fits and verdicts of one case), :mod:`.terms` (the rate's terms beside the fit),
:mod:`.k_gamma_analysis` (the analysis behind :mod:`.k_gamma`).

Importing this package imports none of them (``paper_repro.py --list`` stays cheap).
"""
