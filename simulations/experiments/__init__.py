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
from . import rates_upper  # noqa: F401,E402
from . import vector_approx  # noqa: F401,E402
from . import vector_theorem2  # noqa: F401,E402
from . import bayes_consistency  # noqa: F401,E402
from . import thresholds_contrast  # noqa: F401,E402
from . import density_estimation  # noqa: F401,E402
from . import metric_consistency  # noqa: F401,E402
from . import lp_mst_digits  # noqa: F401,E402
from . import cluster_priors_digits  # noqa: F401,E402
from . import lp_rr_sgd  # noqa: F401,E402
from . import cnn_benchmarks  # noqa: F401,E402

__all__ = ["PROFILES", "REGISTRY", "Claim", "Experiment", "ExperimentResult", "RunContext", "register"]
