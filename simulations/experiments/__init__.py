"""Experiments of the ``simulations`` layer; importing this package registers them.

Each topic module calls :func:`register` at import time; add new modules to the import list below.
"""

from .base import PROFILES, REGISTRY, Claim, Experiment, ExperimentResult, RunContext, register

# Topic modules (each registers its experiments on import).
# from . import <topic>  # noqa: F401,E402
from . import rates_table  # noqa: F401,E402
from . import rates_classification  # noqa: F401,E402
from . import rates_regression  # noqa: F401,E402
from . import rates_heavy_tailed  # noqa: F401,E402
from . import rates_epsilon  # noqa: F401,E402

__all__ = ["PROFILES", "REGISTRY", "Claim", "Experiment", "ExperimentResult", "RunContext", "register"]
