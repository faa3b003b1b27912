"""The experiments of the ``proofs_checks`` layer (they report checks), as data.

Like :mod:`simulations.experiments.catalogue`: ``compute`` / ``plot`` are ``"package.module:function"``
references imported on first use, so listing these records imports neither the topic modules nor
what they verify with (sympy, scipy, cvxpy, the mechanisms' checkers). ``proofs_checks/__init__.py``
is lazy for the same reason: importing this module runs it first.
``proofs_checks/experiments/__init__.py`` registers these records in the shared
:data:`simulations.experiments.REGISTRY`.
"""

from __future__ import annotations

from simulations.experiments.base import Experiment

__all__ = ["EXPERIMENTS"]


def _ref(module: str, function: str) -> str:
    return f"proofs_checks.experiments.{module}:{function}"


EXPERIMENTS: tuple[Experiment, ...] = (
    Experiment(
        name="dp_checks",
        reproduces="privacy claims of every mechanism: 004 eq. (1), Alg. 1, 2, 4; 000 eq. (12)-(13); "
                   "003 eq. (17), (23), (28), Thm 6, 10; 001 Alg. 1 (Thm 2.4), Alg. 2 (Thm 3.1)",
        compute=_ref("dp_checks", "compute"), plot=_ref("dp_checks", "plot"), order=20),
    Experiment(
        name="rrwithprior_lp",
        reproduces="004 Theorem 3 (optimality of RRWithPrior via LP1/LP2, Section 3.2) and Algorithm 2",
        compute=_ref("rrwithprior_lp", "_compute"), plot=_ref("rrwithprior_lp", "_plot"), order=60),
    Experiment(
        name="proof_checks",
        reproduces="symbolic and numeric checks of the proofs of 000/002 (eq. (24), (33), Theorem 1), 001 "
                   "Theorem 2.7, 003 (Theorems 1-12, Table 1, eq. (17), (46)-(47), (60)-(61), (67), (80)-(81), "
                   "(109), (113), Lemma 2) and 004 (Lemma 1, eq. (7), Lemma 18), with the list of findings",
        compute=_ref("proof_checks", "compute"), plot=_ref("proof_checks", "plot"), order=90),
    Experiment(
        name="third_party_audit",
        reproduces="004 Algorithm 2, Theorem 3 and Corollary 2 applied to a published RRWithPrior k* rule "
                   "(google-research label_dp, rr_with_prior)",
        compute=_ref("third_party_audit", "_compute"), plot=_ref("third_party_audit", "_plot"), order=65),
    Experiment(
        name="lp_mst_privacy",
        reproduces="004 Observation 4: LP-MST (Algorithm 3) is ε-label DP, by exact enumeration on tiny data sets; "
                   "planted leak caught",
        compute=_ref("lp_mst_privacy", "compute"), plot=_ref("lp_mst_privacy", "plot"), order=63),
    Experiment(
        name="full_dp_checks",
        reproduces="001 Theorems 2.4, 3.1, 4.2, A.12, A.14 under 001's full-DP relation (replace one record), "
                   "exact enumeration, compared with label-only neighbours",
        compute=_ref("full_dp_checks", "compute"), plot=_ref("full_dp_checks", "plot"), order=64),
)
