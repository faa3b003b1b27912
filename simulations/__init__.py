"""Everything random in labeldp-suite: data laws with exact η, label-DP mechanisms, estimators,
and the Monte Carlo engine (seeded streams, executors, resumable results).

Subpackages: ``mechanisms`` (privacy mechanisms with exact channels), ``estimators``,
``experiments`` (the figures of ``paper_repro.py``); modules ``seeding`` and ``plotting``.
"""
