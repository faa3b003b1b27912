"""The published CNN accuracies typed in from the papers (simulations.experiments.learning.cnn_published).

Expected values are read off the paper files (002 Table 1(b) and Table 2 with its footnote), not off
the module."""

from __future__ import annotations

import math

from simulations.experiments.learning.cnn_published import PUBLISHED, published_for


def _row(dataset, method, source_prefix):
    return next(r for r in PUBLISHED if r.dataset == dataset and r.method == method and r.source.startswith(source_prefix))


def test_fashion_mnist_has_002s_eps2_column():
    # 002 Table 1(b): eps 0.5 1.0 1.5 2.0 -- RR 84.7, LP-2ST 85.0, ALIBI 84.9, Ours 85.9 in the 2.0 column
    for method, value in (("RR", 84.7), ("LP-2ST", 85.0), ("ALIBI", 84.9), ("vector", 85.9)):
        assert _row("fashion_mnist", method, "000 / 002").accuracy[2.0] == value


def test_alibi_cifar10_entry_is_at_eps_2_1():
    # 002 Table 2 footnote: "Here eps = 2.1, slightly higher than 2. This result comes from [10], Table 1."
    alibi = _row("cifar10", "ALIBI", "000 Table 2")
    assert alibi.accuracy == {1.0: 71.0, 2.1: 84.2}
    assert "2.1" in alibi.source


def test_every_row_is_well_formed():
    for r in PUBLISHED:
        assert r.source[:3] in {"000", "004"}  # the figure marks the source by its first three characters
        assert r.accuracy and all(0 < v <= 100 and (e > 0 or math.isinf(e)) for e, v in r.accuracy.items())
    assert {r.dataset for r in published_for("fashion_mnist")} == {"fashion_mnist"}
