"""Experiments that train learners on privatized labels: 004 (LP-MST, cluster priors, LP-RR-SGD,
MovieLens) and 000 Section 5.2 (CNN benchmarks).

Experiments: :mod:`.lp_mst_digits`, :mod:`.lp_mst_dynamics`, :mod:`.cluster_priors_digits`,
:mod:`.lp_rr_sgd`, :mod:`.cnn_benchmarks`, :mod:`.movielens`. Data, not experiments:
:mod:`.cnn_published` and :mod:`.movielens_published` (the papers' published tables the
measurements are set beside). Importing this package imports none of them.
"""
