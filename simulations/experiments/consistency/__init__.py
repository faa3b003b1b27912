"""Experiments on private universally consistent learning and density estimation (001).

Experiments: :mod:`.bayes_consistency` (Theorems 1.5 / 3.2), :mod:`.thresholds_contrast` (Section 1),
:mod:`.density_estimation` (Theorems 1.7 / 4.3), :mod:`.metric_consistency` (Appendix A),
:mod:`.stability_accuracy` (Theorem 2.4), :mod:`.remark18` (Remark 1.8), :mod:`.delta_decay`
(Section 4, δ ≪ 1/n), :mod:`.semi_supervised` (Theorem 4.11). Importing this package imports none of them.
"""
