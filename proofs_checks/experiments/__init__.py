"""Experiments of the ``proofs_checks`` layer (they report checks); importing registers them.

The records are listed in :mod:`.catalogue` (``compute`` / ``plot`` imported on first use) and
registered here in the shared :data:`simulations.experiments.REGISTRY`, so after
``import proofs_checks.experiments`` that registry holds every experiment of both layers, still
without importing any topic module.
"""

from simulations.experiments import REGISTRY, register  # noqa: F401

from .catalogue import EXPERIMENTS as _EXPERIMENTS

for _experiment in _EXPERIMENTS:
    register(_experiment)
del _experiment
