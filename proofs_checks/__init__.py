"""Everything that verifies: exact DP checks, the RRWithPrior LP, symbolic proof-step checks,
and the findings where the papers are wrong.

The exact checker of every mechanism is registered with :func:`check_label_dp` before its first
dispatch: each mechanism's closed-form ``privacy_loss`` lives beside it in :mod:`simulations.mechanisms`,
and its independent verifier in the file of the same name under :mod:`proofs_checks.mechanisms`,
which :func:`proofs_checks.dp.check_label_dp` imports on first use.

The public names below are imported on first access (PEP 562), so ``import proofs_checks`` (and
importing a light submodule such as :mod:`proofs_checks.experiments.catalogue`, which runs this file
first) costs nothing: ``paper_repro.py --list`` does not load sympy, scipy or cvxpy through here.
``from proofs_checks import check_label_dp`` and ``proofs_checks.findings`` work as before; a
submodule not named below (``proofs_checks.dp``, ``proofs_checks.mechanisms``, ...) is imported on
attribute access too.
"""

import importlib
import importlib.util
import sys
import types

import simulations  # noqa: F401  (its import checks that `limits` is the suite's, not PyPI's rate limiter)

__all__ = ["PLANTED_BUGS_CENTRAL", "AuditResult", "DPCheckResult", "ProofCheck", "all_checks", "audit_epsilon",
           "audit_label_randomizer", "check_channel", "check_label_dp", "findings", "is_tight", "max_privacy_loss",
           "privacy_loss_witness", "privacy_profile", "rrwithprior_lp", "rrwithprior_value", "run_check",
           "stability_profile", "UtilityGap", "audit_label_sampler", "utility_gap",
           "check_prior_channel", "max_event_privacy_loss"]

# public name -> the submodule that defines it
_SOURCE = {
    "AuditResult": "audit", "audit_epsilon": "audit", "audit_label_randomizer": "audit",
    "audit_label_sampler": "audit",
    "DPCheckResult": "dp", "check_channel": "dp", "check_label_dp": "dp", "check_prior_channel": "dp",
    "is_tight": "dp", "max_event_privacy_loss": "dp", "max_privacy_loss": "dp", "privacy_loss_witness": "dp",
    "findings": "findings",
    "PLANTED_BUGS_CENTRAL": "planted_bugs_central",
    "privacy_profile": "privacy_profile",
    "stability_profile": "stability",
    "ProofCheck": "proof_steps", "all_checks": "proof_steps", "run_check": "proof_steps",
    "UtilityGap": "rrwithprior_lp", "rrwithprior_lp": "rrwithprior_lp", "rrwithprior_value": "rrwithprior_lp",
    "utility_gap": "rrwithprior_lp",
}
assert set(_SOURCE) == set(__all__)


def _load(name: str):
    return getattr(importlib.import_module(f"{__name__}.{_SOURCE[name]}"), name)


def __getattr__(name: str):
    if name in _SOURCE:
        value = _load(name)
        globals()[name] = value  # later lookups skip this hook
        return value
    if name.isidentifier() and not name.startswith("__") and importlib.util.find_spec(f"{__name__}.{name}"):
        return importlib.import_module(f"{__name__}.{name}")  # a submodule (the import binds it here)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))


class _Package(types.ModuleType):
    """This package's module type: keeps ``findings``, ``privacy_profile`` and ``rrwithprior_lp`` the functions.

    Those three public functions share their name with the submodule that defines them. Importing
    such a submodule (``from proofs_checks.findings import ...``) makes the import system bind the
    *module* to that name on the package, which would shadow the function; a data descriptor on the
    module's type wins over that binding, so the name stays the function, as it was when this file
    imported everything eagerly.
    """


def _function_not_submodule(name: str) -> property:
    def get(module):
        value = module.__dict__.get(name)
        if value is None or isinstance(value, types.ModuleType):
            value = _load(name)
            module.__dict__[name] = value
        return value

    def set(module, value):
        if not isinstance(value, types.ModuleType):  # the import system binding the submodule: ignored
            module.__dict__[name] = value

    return property(get, set, doc=f"the function :func:`{__name__}.{_SOURCE[name]}.{name}` (imported on first use)")


for _name in ("findings", "privacy_profile", "rrwithprior_lp"):
    setattr(_Package, _name, _function_not_submodule(_name))
del _name
sys.modules[__name__].__class__ = _Package
