"""max_privacy_loss / check_channel / check_label_dp dispatch against hand-derived cases and an
exact (Fraction) triple loop."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from proofs_checks import DPCheckResult, check_channel, check_label_dp, is_tight, max_privacy_loss
from proofs_checks.dp import event_privacy_loss_witness, max_event_privacy_loss, privacy_loss_witness, within


@pytest.mark.parametrize("channel,expected", [
    ([[0.5, 0.5], [0.5, 0.5]], 0.0),  # identical rows
    ([[0.5, 0.5], [0.25, 0.75]], math.log(2)),  # column 0: 0.5/0.25; column 1: 0.75/0.5 = 1.5 < 2
    ([[0.5, 0.5, 0.0], [0.25, 0.75, 0.0]], math.log(2)),  # an all-zero column is 0/0: ignored
    ([[1.0, 0.0], [0.0, 1.0]], math.inf),  # 1/0
    ([[0.9, 0.1], [0.1, 0.9], [0.5, 0.5]], math.log(9)),
    ([[1.0]], 0.0),
])
def test_hand_derived(channel, expected):
    assert max_privacy_loss(channel) == pytest.approx(expected, rel=1e-15, abs=1e-15)


def test_log_space_survives_tiny_probabilities():
    # 1e-300 / 1e-310 = 1e10 (the ratio of the floats; 1e-310 is subnormal, exact to ~1e-5).
    P = [[1e-300, 1 - 1e-300], [1e-310, 1 - 1e-310]]
    assert max_privacy_loss(P) == pytest.approx(10 * math.log(10), rel=1e-5)


def test_witness_points_at_the_worst_triple():
    loss, (y, y2, z) = privacy_loss_witness([[0.2, 0.8], [0.6, 0.4], [0.5, 0.5]])
    assert loss == pytest.approx(math.log(3)) and (y, y2, z) == (1, 0, 0)
    assert event_privacy_loss_witness([[0.0, 0.0]]) == (0.0, None)


def test_event_subchannels_have_their_own_entry_point():
    # Sub-stochastic event matrices (rows sum to <= 1): P(E|y) = 0.3 vs 0.1, ratio 3.
    assert max_event_privacy_loss([[0.3], [0.1]]) == pytest.approx(math.log(3), rel=1e-15)
    with pytest.raises(ValueError, match="subchannel rows must sum to at most 1"):
        max_event_privacy_loss([[0.9, 0.3], [0.1, 0.1]])
    with pytest.raises(ValueError, match="channel rows must sum to 1"):  # not a channel: refused
        max_privacy_loss([[0.3], [0.1]])


def test_against_exact_triple_loop():
    rng = np.random.default_rng(0)
    for _ in range(30):
        num = rng.integers(0, 6, size=(int(rng.integers(1, 5)), int(rng.integers(1, 6))))
        num[:, 0] += 1  # no all-zero row: every row normalizes to a probability vector
        P = [[Fraction(int(v), int(row.sum())) for v in row] for row in num]
        ratios = [Fraction(P[y][z]) / P[y2][z] if P[y2][z] else (math.inf if P[y][z] else None)
                  for z in range(len(P[0])) for y in range(len(P)) for y2 in range(len(P))]
        ratios = [r for r in ratios if r is not None]
        expected = 0.0 if not ratios else (math.inf if math.inf in ratios else math.log(max(ratios)))
        assert max_privacy_loss(num / num.sum(axis=1, keepdims=True)) == pytest.approx(expected, rel=1e-14, abs=1e-15)


@pytest.mark.parametrize("bad", [[[-0.1, 1.1]], [[np.nan, 1.0]], [0.5, 0.5], np.zeros((0, 2)), [[np.inf, 0]]])
def test_invalid_channels(bad):
    with pytest.raises(ValueError, match="channel"):
        max_privacy_loss(bad)


def test_check_channel_verdicts():
    P = [[0.75, 0.25], [0.25, 0.75]]  # loss ln 3
    ok = check_channel(P, math.log(3))
    assert isinstance(ok, DPCheckResult) and ok.holds and is_tight(ok.epsilon_actual, math.log(3))
    assert ok.witness == {"y": 0, "y_prime": 1, "output": 0} and "<=" in ok.explanation
    bad = check_channel(P, 1.0)
    assert not bad.holds and ">" in bad.explanation and "VIOLATED" in str(bad)


def test_within_and_is_tight():
    assert within(1.0 + 1e-12, 1.0) and not within(1.0 + 1e-6, 1.0)
    assert is_tight(1.0 - 1e-12, 1.0) and not is_tight(0.999, 1.0)


def test_check_label_dp_dispatch():
    assert check_label_dp(np.array([[0.75, 0.25], [0.25, 0.75]]), 2.0).holds

    class Custom:
        def channel_matrix(self):
            return np.array([[0.9, 0.1], [0.1, 0.9]])

    res = check_label_dp(Custom(), 1.0, kind="channel")
    assert not res.holds and res.epsilon_actual == pytest.approx(math.log(9))
    with pytest.raises(ValueError, match="no exact privacy checker"):
        check_label_dp(object(), 1.0)
    with pytest.raises(ValueError, match="epsilon"):
        check_label_dp(Custom(), -1.0, kind="channel")
    with pytest.raises(ValueError, match="delta"):
        check_label_dp(Custom(), 1.0, delta=1.0, kind="channel")


@pytest.mark.parametrize("fn", [privacy_loss_witness, lambda c: check_channel(c, 1.0)])
@pytest.mark.parametrize("bad", [[[-0.1, 1.1]], [0.5, 0.5], np.zeros((0, 2))])
def test_invalid_channels_every_entry_point(fn, bad):
    with pytest.raises(ValueError, match="channel"):
        fn(bad)



@pytest.mark.parametrize("eps, match", [(-1.0, "epsilon must be >= 0"), (math.nan, "epsilon must be finite")])
def test_check_channel_invalid_epsilon(eps, match):
    with pytest.raises(ValueError, match=match):
        check_channel([[0.5, 0.5], [0.5, 0.5]], eps)
