"""``simulations.plotting.save_figure``: PNG + PDF with one layout pass (issue 20)."""

import io

import matplotlib.pyplot as plt
import numpy as np
import pytest

from simulations.plotting import band, figure, save_figure


def _fig():
    fig, (ax,) = figure(title="a title")  # constrained layout, log axes, a legend: what the experiments draw
    x = np.logspace(1, 3, 3)
    band(ax, x, 1 / x, 0.5 / x, 2 / x, label="a curve")
    ax.set(xscale="log", yscale="log", xlabel="N", ylabel="excess risk")
    ax.legend()
    return fig


def test_png_is_byte_identical_to_plain_savefig_and_pdf_is_complete(tmp_path):
    plain = _fig()
    ref = io.BytesIO()
    plain.savefig(ref, format="png")
    plt.close(plain)
    fig = _fig()
    png, pdf = save_figure(fig, tmp_path / "f")
    plt.close(fig)
    assert (png.name, pdf.name) == ("f.png", "f.pdf")
    assert png.read_bytes() == ref.getvalue()  # the same layout and pixels as fig.savefig
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF") and data.endswith(b"%%EOF\n")
    again = _fig()
    save_figure(again, tmp_path / "g")
    plt.close(again)
    assert (tmp_path / "g.pdf").read_bytes() == data  # no creation date: same figure, same bytes


def test_formats_choose_the_files_and_bad_formats_are_refused(tmp_path):
    fig = _fig()
    (png,) = save_figure(fig, tmp_path / "only", ("png",))  # what the test suite's shared smoke runs write
    assert png.name == "only.png" and sorted(p.name for p in tmp_path.iterdir()) == ["only.png"]
    for bad in ((), ("png", "png"), ("svg",)):
        with pytest.raises(ValueError, match="formats"):
            save_figure(fig, tmp_path / "bad", bad)
    plt.close(fig)


def test_verdict_bars_refuses_a_holds_list_of_another_length():
    """A short ``holds`` would make matplotlib cycle the colours (a failing guarantee drawn green)."""
    from simulations.plotting import figure, verdict_bars

    fig, (ax,) = figure()
    try:
        with pytest.raises(ValueError, match=r"holds=1"):
            verdict_bars(ax, ["RR", "bug"], [1.0, 2.0], [True], xlabel="x")
    finally:
        plt.close(fig)


def test_each_file_costs_one_draw_and_no_layout_engine_is_left(tmp_path, monkeypatch):
    """issue 20: "none" leaves a PlaceHolderLayoutEngine, for which savefig drew every file twice (once
    without output, as for a live layout engine): a quarter of the figures' CPU seconds."""
    from matplotlib.figure import Figure

    draws = []
    plain_draw = Figure.draw
    monkeypatch.setattr(Figure, "draw", lambda self, renderer: draws.append(1) or plain_draw(self, renderer))
    fig = _fig()
    with plt.rc_context({"figure.autolayout": True}):  # a user's rc that would pick the tight engine
        save_figure(fig, tmp_path / "f")
    plt.close(fig)
    assert len(draws) == 2  # one per file: PNG, PDF (the constrained layout ran once, without a draw)
    assert fig.get_layout_engine() is None  # and the rc did not give it a tight one
