"""``metric_space_consistency``'s trial: the per-trial cell assignment is computed once (issue 20).

The three learners of a trial fit on the same sample and predict on the same evaluation points;
``_AssignOnce`` answers their repeated ``space.assign`` calls from the first result. The oracle is
the same trial with the plain packing: every learner's excess error must be equal, not close.
"""

import numpy as np
import pytest

from simulations.experiments.consistency import metric_consistency as mc


@pytest.mark.parametrize("space", mc.SPACES)
def test_trial_with_shared_assignments_equals_the_plain_trial(space, monkeypatch):
    cfg = mc.MetricPoint(space=space, n=2000, n_eval=5000)
    shared = mc.metric_trial(cfg, 1, 7)
    monkeypatch.setattr(mc, "_AssignOnce", lambda packing: packing)
    assert mc.metric_trial(cfg, 1, 7) == shared


def test_assign_once_computes_each_array_once_and_returns_copies():
    calls = []

    class Packing:
        n_cells = 3

        def assign(self, X):
            calls.append(X)
            return np.asarray(X, dtype=np.int64) % 3

    space = mc._AssignOnce(Packing())
    X, T = np.arange(5), np.arange(7)
    first = space.assign(X)
    first[:] = -1  # a caller that writes into its result does not corrupt the next caller's
    np.testing.assert_array_equal(space.assign(X), np.arange(5) % 3)
    np.testing.assert_array_equal(space.assign(T), np.arange(7) % 3)
    space.assign(T)
    assert len(calls) == 2 and calls[0] is X and calls[1] is T
    assert space.n_cells == 3  # everything else is the packing's
