"""Catalogue records and independent verifiers of every mechanism, one module per file of
:mod:`simulations.mechanisms`.

Each module defines ``RECORDS`` (:class:`proofs_checks.catalogue.MechanismRecord`: source, examples,
the exact loss claimed, the verifier, planted bugs) and the verifiers, which compute their number
from the channel (enumeration, exact arithmetic) or from a closed form written in the module, never
from the mechanism's ``privacy_loss``. :func:`proofs_checks.catalogue.records` collects every module
of this package, so a new mechanism needs its class and one module here.

Importing this package also fills the verifier table read by :mod:`proofs_checks.privacy_profile`.
"""

from proofs_checks.catalogue import records as _records

from ._common import certified_channel_check  # noqa: F401  (for new verifiers: enumerate + certify)
from proofs_checks.dp import _CHECKERS

for _record in _records():
    _CHECKERS[_record.mechanism] = _record.verifier
del _record
