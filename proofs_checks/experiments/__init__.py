"""Experiments of the ``proofs_checks`` layer (they report checks); importing registers them."""

from simulations.experiments import REGISTRY, register  # noqa: F401

# Topic modules (each registers its experiments on import).
from . import dp_checks  # noqa: F401,E402
from . import rrwithprior_lp  # noqa: F401,E402
from . import proof_checks  # noqa: F401,E402
from . import third_party_audit  # noqa: F401,E402
from . import lp_mst_privacy  # noqa: F401,E402
from . import full_dp_checks  # noqa: F401,E402
