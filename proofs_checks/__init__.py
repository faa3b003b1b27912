"""Everything that verifies: exact DP checks, the RRWithPrior LP, symbolic proof-step checks,
and the findings where the papers are wrong.

Importing the package registers the exact checker of every mechanism with :func:`check_label_dp`:
each mechanism's closed-form ``privacy_loss`` lives beside it in :mod:`simulations.mechanisms`, and
its independent verifier in the file of the same name under :mod:`proofs_checks.mechanisms`.
"""

from . import mechanisms  # noqa: F401  (registers the exact checker of every mechanism)
from .audit import AuditResult, audit_epsilon, audit_label_randomizer, audit_label_sampler
from .dp import (DPCheckResult, check_channel, check_label_dp, check_prior_channel, is_tight, max_event_privacy_loss,
                 max_privacy_loss, privacy_loss_witness)
from .findings import findings
from .planted_bugs_central import PLANTED_BUGS_CENTRAL
from .privacy_profile import privacy_profile
from .stability import stability_profile
from .proof_steps import ProofCheck, all_checks, run_check
from .rrwithprior_lp import UtilityGap, rrwithprior_lp, rrwithprior_value, utility_gap

__all__ = ["PLANTED_BUGS_CENTRAL", "AuditResult", "DPCheckResult", "ProofCheck", "all_checks", "audit_epsilon",
           "audit_label_randomizer", "check_channel", "check_label_dp", "findings", "is_tight", "max_privacy_loss",
           "privacy_loss_witness", "privacy_profile", "rrwithprior_lp", "rrwithprior_value", "run_check",
           "stability_profile", "UtilityGap", "audit_label_sampler", "utility_gap",
           "check_prior_channel", "max_event_privacy_loss"]
