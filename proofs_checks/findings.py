"""Every discrepancy found in the papers, machine-readable: ``findings()``.

The union of two independent derivations: the findings of the proof-step checks
(:mod:`proofs_checks.proof_steps`, derived here with sympy from the proofs' own terms) and the
records of ``limits.DISCREPANCIES`` (derived inside ``limits``). A record found by both is listed
once, with both sources of evidence. Each finding is a dict with at least ``"source"``,
``"printed"``, ``"derived"`` and ``"evidence"``, plus ``"severity"`` (see
:data:`proofs_checks.proof_steps.base.SEVERITIES`), ``"topic"``, ``"check_id"`` and ``"origin"``
(``"proof_steps"``, ``"limits"`` or ``"both"``).

References: 003 Table 1, Theorems 7-12 and their proofs; 000 eq. (33); 004 eq. (7), (17).
"""

from __future__ import annotations

from .proof_steps import all_checks

__all__ = ["LIMITS_KEY_TO_CHECK", "findings"]

#: limits.DISCREPANCIES key -> the proof-step check that re-derives the same discrepancy
LIMITS_KEY_TO_CHECK = {
    "table1_central_regression_privacy_term": "003-table1-central-regressionbounded",
    "table1_local_full_classification": "003-table1-localfull-classification",
    "theorem10_k": "003-thm10-tuning-k",
    "theorem12_h": "003-thm12-tuning-h",
    "eq187_sign": "003-thm11-eq187",
    "section6_p2_remark": "003-p2-remark",
    "eq23_laplace_scale": "003-laplace-privacy",
}

_SEVERITY_OF_AFFECTS = {"rate": "rate", "tuning": "tuning", "mechanism": "privacy", "proof": "typo"}


def _limits_records() -> list[dict]:
    import limits

    return list(limits.discrepancies())


def findings(profile: str = "smoke") -> list[dict]:
    """All discrepancies, most severe first, as dicts (see the module docstring).

    ``profile`` sets the size of the numeric grids of the proof-step checks (``"smoke"`` suffices
    to establish every finding; larger profiles only search more instances).
    """
    from .proof_steps.base import SEVERITIES

    out, by_check = [], {}
    for check in all_checks(profile):
        for f in check.findings:
            rec = f.to_dict() | {"check_id": check.check_id, "origin": "proof_steps"}
            out.append(rec)
            by_check.setdefault(check.check_id, []).append(rec)
    for rec in _limits_records():
        twin = LIMITS_KEY_TO_CHECK.get(rec.get("key"))
        if twin in by_check:  # the same discrepancy, derived twice: keep one record, both evidences
            for mine in by_check[twin]:
                mine["origin"] = "both"
                mine["evidence"] += f"; independently recorded as limits.DISCREPANCIES[{rec['key']!r}]: {rec['evidence']}"
            continue
        affects = rec.get("affects") or ("proof",)
        out.append({"source": rec["source"], "printed": rec.get("printed_text", rec.get("printed", "")),
                    "derived": rec.get("derived_text", rec.get("derived", "")),
                    "evidence": f"limits.DISCREPANCIES[{rec.get('key')!r}]: {rec.get('evidence', '')}",
                    "severity": _SEVERITY_OF_AFFECTS.get(affects[0], "typo"), "topic": rec.get("key", ""),
                    "check_id": "", "origin": "limits"})
    out.sort(key=lambda r: SEVERITIES.index(r["severity"]) if r["severity"] in SEVERITIES else len(SEVERITIES))
    return out
