"""The one figure style of the suite: Agg backend, colour-blind-safe palette, labelled axes.

Experiments call :func:`figure` for a styled figure; log axes and confidence bands are helpers so
every rate plot looks the same.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")  # files only; no display on CI or clusters

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

__all__ = ["PALETTE", "MARKERS", "figure", "band", "color", "verdict_bars"]

# Okabe & Ito (2008) colour-blind-safe palette.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000")
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")

_RC = {
    "figure.dpi": 100,
    "savefig.dpi": 110,
    "font.size": 9,
    "axes.titlesize": 10,
    "axes.labelsize": 9,
    "legend.fontsize": 8,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.prop_cycle": matplotlib.cycler(color=PALETTE),
    "savefig.bbox": "tight",
}


def color(i: int) -> str:
    """The i-th colour of :data:`PALETTE`, cycling."""
    return PALETTE[i % len(PALETTE)]


def figure(nrows: int = 1, ncols: int = 1, *, width: float = 4.2, height: float = 3.2, title: str | None = None):
    """A styled ``(fig, axes)``; ``axes`` is always a flat numpy array of Axes."""
    with plt.rc_context(_RC):
        fig, axes = plt.subplots(nrows, ncols, figsize=(width * ncols, height * nrows), squeeze=False)
    for ax in axes.flat:
        ax.grid(True, alpha=0.3, which="both")
    if title:
        fig.suptitle(title, fontsize=11)
    fig.set_layout_engine("constrained")
    return fig, axes.ravel()


def band(ax, x, mean, lo, hi, *, label=None, i=0, marker=True):
    """Plot a mean curve with a shaded confidence band (e.g. a 95% CI)."""
    x = np.asarray(x)
    ax.plot(x, mean, color=color(i), marker=MARKERS[i % len(MARKERS)] if marker else None,
            ms=4, lw=1.4, label=label)
    ax.fill_between(x, lo, hi, color=color(i), alpha=0.2, lw=0)


def verdict_bars(ax, labels, values, holds, *, xlabel: str, fontsize: float = 7) -> None:
    """Horizontal bars of exact / stated privacy parameters, green where the guarantee holds, red where
    it does not, with the line at 1 (the stated value); first row on top."""
    ax.barh(range(len(values)), values, color=[color(2) if h else color(1) for h in holds])
    ax.axvline(1.0, color="k", lw=1, ls="--")
    ax.set_yticks(range(len(values)))
    ax.set_yticklabels(labels, fontsize=fontsize)
    ax.set_xlabel(xlabel)
    ax.invert_yaxis()
