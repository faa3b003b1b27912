"""Experiments on the vector approximation of 000 (Section 5.1, Theorem 2).

:mod:`.approximation` reproduces 000 Figures 2-4 (RR, LP-2ST, ALIBI and the vector approximation vs K);
:mod:`.theorem2` checks 000 Theorem 2 (eq. (20)) and Appendix B.1 eq. (34); :mod:`.neural_network`
measures Appendix B.2's Δ(x) of a sigmoid/BCE network (torch); :mod:`.crossover` (beyond the papers) finds
from which K the symmetric and the asymmetric (002 Limitations) vector mechanisms beat RR. Importing this
package imports none of them.
"""
