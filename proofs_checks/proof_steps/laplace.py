"""Laplace-noise mechanisms of 003: exact privacy loss = sensitivity / scale (item 2).

For Lap(b) noise the log density ratio at z for means mu, mu' is ``(|z - mu'| - |z - mu|)/b``, whose
sup over z is ``|mu - mu'|/b`` (triangle inequality, attained for z beyond both means). Replacing one
label moves: Y + W (Theorem 6) by 2T; clip(Y, T) + W (Theorem 10) by 2T; a bin mean of n_l labels
with ``|Y| < T`` (eq. (23), Theorem 8) by 2T/n_l; the clipped bin mean (eq. (28), Theorem 12) by 2T/n_l.

References: 003 Section 5.1 (Theorem 6), eq. (23) (Theorem 8), Section 6.1 (Theorem 10), eq. (28)
(Theorem 12); Assumption 2.
"""

from __future__ import annotations

import sympy as sp

from .base import Finding, ProofCheck, proof_check

__all__ = ["laplace_loss"]

z, mu, delta, b, T, n, eps = sp.symbols("z mu delta b T n_l epsilon", positive=True)


def laplace_loss(sensitivity, scale):
    r"""Exact pure loss :math:`\sup_z |\ln f(z - \mu) - \ln f(z - \mu - \Delta)|` of the Laplace law, derived piecewise.

    The log-ratio is piecewise linear in z, so its sup is at a breakpoint or at :math:`\pm\infty`;
    all candidates are evaluated with sympy.

    Parameters
    ----------
    sensitivity : sympy expression
        Δ > 0.
    scale : sympy expression
        The Laplace scale b > 0.

    Returns
    -------
    sympy expression
        The loss (Δ/b after simplification).

    References
    ----------
    003 Theorems 6, 8, 10, 12; eq. (23), (28).

    Examples
    --------
    003 Theorem 6, labels in [-T, T] with :math:`\mathrm{Lap}(2T/\varepsilon)`: loss ε; eq. (23) as
    printed, a bin mean of :math:`n_l` labels (sensitivity :math:`2T/n_l`) with
    :math:`\mathrm{Lap}(2/(n_l\varepsilon))`: loss Tε.

    >>> import sympy as sp
    >>> sp.simplify(laplace_loss(2*T, 2*T/eps)), sp.simplify(laplace_loss(2*T/n, 2/(n*eps)))
    (epsilon, T*epsilon)
    """
    lo, hi = mu, mu + sensitivity
    logratio = lambda zz: (sp.Abs(zz - hi) - sp.Abs(zz - lo)) / scale  # noqa: E731
    # piecewise-linear in z: the sup over each region is at a breakpoint or at +-infinity
    candidates = [logratio(lo), logratio(hi), sp.limit(logratio(z + hi), z, sp.oo), sp.limit(logratio(lo - z), z, sp.oo)]
    return sp.Max(*[sp.Abs(sp.simplify(c)) for c in candidates])


_MECHANISMS = (
    ("Theorem 6 (Section 5.1)", "Z = Y + W, W ~ Lap(2T/eps), |Y| < T", 2 * T, 2 * T / eps),
    ("Theorem 8, eq. (23)", "bin mean + W_l, W_l ~ Lap(2/(n_l eps)), |Y| < T", 2 * T / n, 2 / (n * eps)),
    ("Theorem 10 (Section 6.1)", "Z = clip(Y, T) + W, W ~ Lap(2T/eps)", 2 * T, 2 * T / eps),
    ("Theorem 12, eq. (28)", "clipped bin mean + W_l, W_l ~ Lap(2T/(n_l eps))", 2 * T / n, 2 * T / (n * eps)),
)


@proof_check("003-laplace-privacy")
def laplace_privacy(profile="smoke") -> ProofCheck:
    """Each Laplace mechanism of 003 has exact loss eps, except (23) whose loss is T eps."""
    results, findings = [], []
    for where, desc, sens, scale in _MECHANISMS:
        loss = sp.simplify(laplace_loss(sens, scale))
        ok = sp.simplify(loss - eps) == 0
        results.append(f"{where}: loss = {loss}")
        if not ok:
            findings.append(Finding(
                f"003 {where}", f"{desc} is eps-label DP",
                f"the bin mean has sensitivity {sens} under Assumption 2, so the loss is {loss}: eps-label DP only "
                f"when T <= 1; eps-label DP needs W_l ~ Lap(2T/(n_l eps)) as in (28) (the proof's (150), "
                f"Var <= 1/n_l, also takes T <= 1)",
                "check 003-laplace-privacy: sup_z of the Laplace log-density ratio = sensitivity/scale (sympy)",
                severity="privacy", topic="central regression bounded privacy"))
    return ProofCheck("003-laplace-privacy", "003 Theorems 6, 8, 10, 12 (eq. (23), (28))",
                      "each Laplace mechanism's exact privacy loss (sensitivity/scale) equals eps", not findings,
                      derived="; ".join(results), printed="eq. (23): W_l ~ Lap(2/(n_l eps))" if findings else "",
                      detail="sup over z of the piecewise-linear log-density ratio, evaluated at its breakpoints and "
                             "at +-infinity", findings=tuple(findings))


@proof_check("003-laplace-variance")
def laplace_variance(profile="smoke") -> ProofCheck:
    """Var[Lap(b)] = 2 b^2 (by integration), and the noise variances used in (131), (152), (176), (192)."""
    w = sp.Symbol("w", real=True)
    var = sp.simplify(2 * sp.integrate(w**2 * sp.exp(-w / b) / (2 * b), (w, 0, sp.oo)))
    Np = sp.Symbol("Np", positive=True)  # N p(B_l); the proofs use n_l >= N p(B_l)/2
    checks = {
        "(131) Var[W] = 8T^2/eps^2 for W ~ Lap(2T/eps)": var.subs(b, 2 * T / eps) - 8 * T**2 / eps**2,
        "(152) Var[W_l] = 8/((Np/2)^2 eps^2) at n_l = Np/2, W_l ~ Lap(2/(n_l eps))":
            var.subs(b, 2 / (n * eps)).subs(n, Np / 2) - 8 / ((Np / 2) ** 2 * eps**2),
        "(176) Var[W] = 8T^2/eps^2 (Theorem 10)": var.subs(b, 2 * T / eps) - 8 * T**2 / eps**2,
        "(192) Var[W_l] ∝ T^2/(N^2 h^2d eps^2): 32 T^2/(Np)^2/eps^2 at n_l = Np/2":
            var.subs(b, 2 * T / (n * eps)).subs(n, Np / 2) - 32 * T**2 / (Np**2 * eps**2),
    }
    res = {k_: sp.simplify(v) == 0 for k_, v in checks.items()}
    return ProofCheck("003-laplace-variance", "003 eq. (131), (152), (176), (192)",
                      "the Laplace noise variances in the proofs of Theorems 6, 8, 10, 12", var == 2 * b**2 and all(res.values()),
                      derived=f"Var[Lap(b)] = {var}; " + "; ".join(f"{k_}: {v}" for k_, v in res.items()),
                      detail="sympy integral of w^2 e^(-|w|/b)/(2b)")
