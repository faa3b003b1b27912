"""Catalogue records and independent verifiers of every mechanism, one module per file of
:mod:`simulations.mechanisms`.

Each module defines ``RECORDS`` (:class:`proofs_checks.catalogue.MechanismRecord`: source, examples,
the exact loss claimed, the verifier, planted bugs) and the verifiers, which compute their number
from the channel (enumeration, exact arithmetic) or from a closed form written in the module, never
from the mechanism's ``privacy_loss``. :func:`proofs_checks.catalogue.records` collects every module
of this package, so a new mechanism needs its class and one module here. The verifiers build on
:mod:`proofs_checks.channels` only (never on the front door :mod:`proofs_checks.dp`, which imports them
through the catalogue); whoever needs a mechanism's verifier asks the catalogue
(:func:`proofs_checks.catalogue.verifier_for`).
"""

from ._common import certified_channel_check  # noqa: F401  (for new verifiers: enumerate + certify)
