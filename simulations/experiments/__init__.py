"""Experiments of the ``simulations`` layer; importing this package registers them.

The records (name, what each reproduces, report order) are listed in :mod:`.catalogue`, with
``compute`` / ``plot`` as ``"module:function"`` references imported on first use: importing this
package and listing :data:`REGISTRY` imports none of the topic modules (``paper_repro.py --list``
stays fast). A topic module ``<subject>/<topic>.py`` (sub-packages ``rates``, ``vector``, ``consistency``,
``learning``) only defines its functions; add its record to the catalogue.
"""

from .base import PROFILES, REGISTRY, Claim, Experiment, ExperimentResult, RunContext, register
from .catalogue import EXPERIMENTS as _EXPERIMENTS

for _experiment in _EXPERIMENTS:
    register(_experiment)
del _experiment

__all__ = ["PROFILES", "REGISTRY", "Claim", "Experiment", "ExperimentResult", "RunContext", "register"]
