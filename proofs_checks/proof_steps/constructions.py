"""Identities of the lower-bound constructions of 003 (exact, sympy).

- (33)-(34): with eta = eta_2 - eta_1 and eta_1 + eta_2 = 1, eta_1 = (1 - eta)/2, eta_2 = (1 + eta)/2;
- (47): the bracket equals KL(Bern((1+eta)/2) || Bern((1-eta)/2)) = eta ln((1+eta)/(1-eta));
- (156)-(158): the three-point law has E|Y|^p = M_p and E[Y] = eta_v; its TV between eta_v and
  -eta_v is ``|eta_v|/T`` (used in (161)); with (159), T^(p-1) = M_p h^(-beta)/2, every probability is
  >= 0 when ``|eta_v| <= h^beta`` and T^p >= M_p.

References: 003 Appendix B eq. (33)-(34), (47); Appendix J eq. (156)-(161).
"""

from __future__ import annotations

import sympy as sp

from .base import ProofCheck, proof_check

__all__ = ["three_point_law"]

eta, Mp, T, hb, p = sp.symbols("eta M_p T h_beta p", positive=True)


def three_point_law(e):
    """The three-point label law of 003 eq. (156) for the heavy-tailed lower bounds.

    :math:`P(Y = T) = (M_p/T^p + e/T)/2`, :math:`P(Y = 0) = 1 - M_p/T^p`,
    :math:`P(Y = -T) = (M_p/T^p - e/T)/2`, with the module's positive symbols :math:`T, M_p, p`.

    Parameters
    ----------
    e : sympy expression
        The mean η (typically the symbol ``eta`` or ``-eta``).

    Returns
    -------
    dict
        ``{T: mass, 0: mass, -T: mass}`` (sympy expressions).

    References
    ----------
    003 eq. (156)-(161) (Appendix J/L lower-bound constructions).

    Examples
    --------
    The masses sum to 1 and the mean is η (003 eq. (158)):

    >>> import sympy as sp
    >>> law = three_point_law(eta)
    >>> sp.simplify(sum(law.values())), sp.simplify(sum(y * q for y, q in law.items()))
    (1, eta)
    """
    return {T: (Mp / T**p + e / T) / 2, sp.Integer(0): 1 - Mp / T**p, -T: (Mp / T**p - e / T) / 2}


@proof_check("003-eq156-construction")
def eq156(profile="smoke") -> ProofCheck:
    law, law_neg = three_point_law(eta), three_point_law(-eta)
    total = sp.simplify(sum(law.values()) - 1) == 0
    mean = sp.simplify(sum(y * q for y, q in law.items()) - eta) == 0  # (158)
    moment = sp.simplify(sum(sp.Abs(y) ** p * q for y, q in law.items() if y != 0) - Mp) == 0  # (157)
    tv = sp.simplify(sum(sp.Abs(law[y] - law_neg[y]) for y in law) / 2 - eta / T) == 0  # (161), second line
    # (159): T^(p-1) = M_p h^(-beta)/2 and |eta| <= h^beta give P(Y = -T) >= (M_p T^(-p) - h^beta/T)/2 = h^beta/(2T)
    low = ((Mp / T**p - hb / T) / 2) * T / hb  # P(Y = -T) at the worst eta, in units of h^beta/T
    low = sp.simplify(sp.expand(low).subs(Mp, 2 * hb * T ** (p - 1)))  # (159) solved for M_p
    nonneg = sp.simplify(low - sp.Rational(1, 2)) == 0
    # (34) and (47)
    e1, e2 = sp.symbols("eta_1 eta_2", positive=True)
    sol = sp.solve([sp.Eq(e2 - e1, eta), sp.Eq(e1 + e2, 1)], [e1, e2])
    eq34 = sp.simplify(sol[e1] - (1 - eta) / 2) == 0 and sp.simplify(sol[e2] - (1 + eta) / 2) == 0
    a, b = (1 + eta) / 2, (1 - eta) / 2
    kl = a * sp.log(a / b) + b * sp.log(b / a)
    eq47 = sp.simplify(sp.expand_log(kl - eta * sp.log((1 + eta) / (1 - eta)), force=True)) == 0
    parts = {"sum to 1": total, "(157) E|Y|^p = M_p": moment, "(158) E Y = eta": mean, "(161) TV = eta/T": tv,
             "(159) P(Y = -T) >= h^beta/(2T) >= 0": nonneg, "(34)": eq34, "(47) bracket = Bernoulli KL": eq47}
    return ProofCheck("003-eq156-construction", "003 eq. (34), (47), (156)-(161)",
                      "identities of the lower-bound constructions (two-point and three-point label laws)",
                      all(parts.values()), derived="; ".join(f"{k_}: {v}" for k_, v in parts.items()),
                      detail="exact sympy simplification; P(Y = 0) >= 0 additionally needs T^p >= M_p (small h)")
