"""The one figure style of the suite: Agg backend, colour-blind-safe palette, labelled axes.

Experiments call :func:`figure` for a styled figure; log axes and confidence bands are helpers so
every rate plot looks the same.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")  # files only; no display on CI or clusters

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.layout_engine import PlaceHolderLayoutEngine  # noqa: E402
import numpy as np  # noqa: E402

__all__ = ["PALETTE", "MARKERS", "figure", "band", "color", "save_figure", "verdict_bars"]

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
    """The i-th colour of :data:`PALETTE`, cycling.

    Parameters
    ----------
    i : int
        Series index; any int (taken modulo ``len(PALETTE)``, so negative ones count from the end).

    Returns
    -------
    str
        A hex colour ``"#RRGGBB"``.

    References
    ----------
    docs/design.md, "Experiments and their outputs": one shared style with a colour-blind-safe palette
    (Okabe & Ito's eight colours).

    Examples
    --------
    >>> color(0), color(1), color(8) == color(0)
    ('#0072B2', '#D55E00', True)
    """
    return PALETTE[i % len(PALETTE)]


def figure(nrows: int = 1, ncols: int = 1, *, width: float = 4.2, height: float = 3.2, title: str | None = None):
    """A styled ``(fig, axes)``; ``axes`` is always a flat numpy array of Axes.

    The suite's rc settings (font sizes, grid, :data:`PALETTE` as colour cycle), the constrained
    layout engine, and a grid on every Axes.

    Parameters
    ----------
    nrows, ncols : int >= 1, default 1
        The grid of subplots.
    width, height : float > 0, default 4.2 and 3.2
        Size of one subplot in inches (the figure is ``width · ncols`` by ``height · nrows``).
    title : str or None, default None
        Figure title (``suptitle``); it should say what is shown.

    Returns
    -------
    fig : matplotlib.figure.Figure
    axes : ndarray of matplotlib.axes.Axes, shape (nrows * ncols,)
        Row by row.

    Raises
    ------
    ValueError
        From matplotlib if ``nrows`` or ``ncols`` is not a positive int or a size is negative.

    References
    ----------
    docs/design.md, "Experiments and their outputs": matplotlib with the Agg backend, one shared style,
    labelled axes, titles that say what is shown.

    Examples
    --------
    >>> fig, axes = figure(2, 3, title="excess risk against N")
    >>> axes.shape, [round(float(v), 1) for v in fig.get_size_inches()]
    ((6,), [12.6, 6.4])
    >>> plt.close(fig)
    """
    with plt.rc_context(_RC):
        fig, axes = plt.subplots(nrows, ncols, figsize=(width * ncols, height * nrows), squeeze=False)
    for ax in axes.flat:
        ax.grid(True, alpha=0.3, which="both")
    if title:
        fig.suptitle(title, fontsize=11)
    fig.set_layout_engine("constrained")
    return fig, axes.ravel()


def save_figure(fig, stem, formats=("png", "pdf")) -> list:
    """Write ``fig`` as ``<stem>.png`` and ``<stem>.pdf`` (no creation date: the same figure gives the
    same bytes), laying it out once.

    ``fig.savefig`` of a figure with a layout engine (``figure`` sets the constrained one) first draws
    the whole figure without output to run the layout, then draws it for real: two draws and a layout
    per file. Here the layout runs once, at the figure's dpi, before both files, and the engine is then
    removed (not set to ``"none"``: its placeholder engine still makes ``savefig`` draw twice), so each
    file costs one draw (issue 20: the same bytes as with the placeholder engine, 1.4x less CPU, on the
    smoke figures of 35 experiments). The PNG is byte-identical to a plain ``savefig``; the PDF is laid
    out with the PNG's (Agg) text metrics instead of its own, which moves elements by a fraction of a pixel.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure; it has no layout engine afterwards (the positions stay).
    stem : path-like
        Destination without suffix; its folder must exist.
    formats : sequence of {"png", "pdf"}, default ("png", "pdf")
        The files to write, in this order (non-empty, no repeats).

    Returns
    -------
    list of pathlib.Path
        The paths written, one per format.

    Raises
    ------
    ValueError
        If ``formats`` is empty, repeats a format or names one other than "png" and "pdf".

    References
    ----------
    docs/design.md, "Experiments and their outputs": per experiment, PNG (+PDF) figures generated
    by ``paper_repro.py`` only.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> fig, (ax,) = figure(title="t")
    >>> _ = ax.plot([1, 2], [3, 4])
    >>> [p.suffix for p in save_figure(fig, pathlib.Path(tempfile.mkdtemp()) / "f")]
    ['.png', '.pdf']
    >>> plt.close(fig)
    """
    from pathlib import Path

    formats = tuple(formats)
    if not formats or len(set(formats)) != len(formats) or not set(formats) <= {"png", "pdf"}:
        raise ValueError(f"formats must be a non-empty selection of 'png' and 'pdf' without repeats, got formats={formats!r}")
    stem = Path(stem)
    engine = fig.get_layout_engine()
    if engine is not None and not isinstance(engine, PlaceHolderLayoutEngine):
        engine.execute(fig)  # what savefig's first (output-less) draw would do, once for both files
    paths = [stem.with_name(f"{stem.name}.{fmt}") for fmt in formats]
    # No engine at all from here, not "none" (a PlaceHolderLayoutEngine): savefig draws a figure that has
    # one twice, once without output to run it. The rc values that would make "no engine" an engine (also
    # when savefig puts the figure's engine back) are switched off.
    with plt.rc_context({"figure.autolayout": False, "figure.constrained_layout.use": False}):
        fig.set_layout_engine(None)
        for path in paths:  # no creation date in the PDF: the same figure gives the same bytes
            fig.savefig(path, **({"metadata": {"CreationDate": None}} if path.suffix == ".pdf" else {}))
    return paths


def band(ax, x, mean, lo, hi, *, label=None, i=0, marker=True):
    """Plot a mean curve with a shaded confidence band (e.g. a 95% CI).

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Where to draw.
    x, mean, lo, hi : array_like, shape (k,)
        Abscissae, the curve and the band's lower and upper ends (e.g. ``ci_low``/``ci_high``
        of :func:`simulations.stats.summarize`).
    label : str or None, default None
        Legend label of the curve.
    i : int, default 0
        Series index: colour :func:`color` ``(i)`` and the i-th of :data:`MARKERS`.
    marker : bool, default True
        Mark the points of the curve.

    Raises
    ------
    ValueError
        From matplotlib if the arrays' lengths differ.

    References
    ----------
    docs/design.md, "Experiments and their outputs" (confidence bands, log scales for rates).

    Examples
    --------
    >>> fig, (ax,) = figure()
    >>> band(ax, [1, 2, 3], [1.0, 0.5, 0.25], [0.9, 0.4, 0.2], [1.1, 0.6, 0.3], label="risk")
    >>> len(ax.lines), len(ax.collections), ax.lines[0].get_label()
    (1, 1, 'risk')
    >>> plt.close(fig)
    """
    x = np.asarray(x)
    ax.plot(x, mean, color=color(i), marker=MARKERS[i % len(MARKERS)] if marker else None,
            ms=4, lw=1.4, label=label)
    ax.fill_between(x, lo, hi, color=color(i), alpha=0.2, lw=0)


def verdict_bars(ax, labels, values, holds, *, xlabel: str, fontsize: float = 7) -> None:
    """Horizontal bars of exact / stated privacy parameters, green where the guarantee holds, red where
    it does not, with the line at 1 (the stated value); first row on top.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Where to draw.
    labels : sequence of str, length k
        One label per bar (e.g. a mechanism and its parameters).
    values : sequence of float, length k
        Bar lengths, e.g. exact ε over stated ε (1 = the guarantee is tight).
    holds : sequence of bool, length k
        Whether each guarantee holds: colour :func:`color` ``(2)`` (green) if so, ``color(1)``
        (vermilion) if not.
    xlabel : str
        Label of the x axis.
    fontsize : float, default 7
        Size of the bar labels.

    Raises
    ------
    ValueError
        If ``labels``, ``values`` and ``holds`` differ in length (matplotlib would silently cycle
        the colours of a short ``holds``).

    References
    ----------
    docs/design.md, "Exactness and the privacy checks" (exact ε against the claimed ε, planted bugs).

    Examples
    --------
    >>> fig, (ax,) = figure()
    >>> verdict_bars(ax, ["RR", "planted bug"], [1.0, 2.0], [True, False], xlabel="exact ε / stated ε")
    >>> [t.get_text() for t in ax.get_yticklabels()], bool(ax.yaxis_inverted())
    (['RR', 'planted bug'], True)
    >>> plt.close(fig)
    """
    if not len(labels) == len(values) == len(holds):
        raise ValueError(f"labels, values and holds must have one entry per bar, got lengths "
                         f"labels={len(labels)}, values={len(values)}, holds={len(holds)}")
    ax.barh(range(len(values)), values, color=[color(2) if h else color(1) for h in holds])
    ax.axvline(1.0, color="k", lw=1, ls="--")
    ax.set_yticks(range(len(values)))
    ax.set_yticklabels(labels, fontsize=fontsize)
    ax.set_xlabel(xlabel)
    ax.invert_yaxis()
