"""Work outside the trial engine spread over ``--jobs`` workers gives the same results as one process.

``simulations.executors.map_ordered`` runs the proof-step checks (``proof_checks``), the LP agreement
table (``rrwithprior_lp``) and the audit tables (``third_party_audit``) on the run's workers (issue 20:
these were the serial parts of the quick profile, one core busy and the other idle). Each comparison
below is against the serial computation in this process, on small grids.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from simulations.executors import map_ordered


def _slow_square(x, delay):
    import time

    time.sleep(delay)
    return x * x


def test_map_ordered_returns_results_in_task_order_whatever_the_finishing_order():
    # the first task sleeps longest, so on two workers it finishes last; the list is still in task order
    tasks = [(i, 0.3 if i == 0 else 0.0) for i in range(6)]
    assert map_ordered(_slow_square, tasks, jobs=2) == [0, 1, 4, 9, 16, 25]
    assert map_ordered(_slow_square, tasks, jobs=1) == [0, 1, 4, 9, 16, 25]
    assert map_ordered(_slow_square, [], jobs=2) == []


def _burn(n):
    return sum(i * i for i in range(n))


def test_map_ordered_counts_the_workers_cpu_seconds_only():
    # the provenance's CPU seconds add what workers report; tasks run here count in this process's own time
    from simulations.executors import worker_cpu_seconds

    before = worker_cpu_seconds()
    assert map_ordered(_burn, [(200_000,)] * 2, jobs=1) == [_burn(200_000)] * 2
    assert worker_cpu_seconds() == before
    assert map_ordered(_burn, [(200_000,)] * 2, jobs=2) == [_burn(200_000)] * 2
    assert worker_cpu_seconds() > before


def test_map_ordered_on_a_dask_cluster():
    pytest.importorskip("distributed")
    tasks = [(i, 0.05 if i == 0 else 0.0) for i in range(5)]
    assert map_ordered(_slow_square, tasks, jobs=2, scheduler="local") == [0, 1, 4, 9, 16]


def test_map_ordered_refuses_bad_jobs():
    with pytest.raises(ValueError, match="jobs must be an integer >= 1, got jobs=0"):
        map_ordered(_slow_square, [(1, 0.0)], jobs=0)


def test_proof_checks_on_workers_equal_the_serial_checks(monkeypatch):
    import proofs_checks.proof_steps as ps

    ids = ["004-alg1-tie-break", "003-eq17-privacy", "004-eq7-unbiased", "000-thm1-vector-privacy"]
    monkeypatch.setattr(ps, "CHECKS", {i: ps.CHECKS[i] for i in ids})  # the workers look the ids up themselves
    monkeypatch.setattr(ps, "_RESULTS", {})
    on_workers = ps.all_checks("smoke", jobs=2)
    assert [c.check_id for c in on_workers] == ids
    assert on_workers == [ps.CHECKS[i]("smoke") for i in ids]  # dataclass equality: every field


def test_rrwithprior_lp_agreement_table_does_not_depend_on_jobs():
    from proofs_checks.experiments.rrwithprior_lp import PROFILES, _agreement

    cfg = dataclasses.replace(PROFILES["smoke"], Ks=(2, 5, 12), epsilons=(0.5, 3.0), draws=1, naive_max_K=5)
    serial, parallel = _agreement(cfg, 7, jobs=1), _agreement(cfg, 7, jobs=2)
    assert list(parallel) == list(serial) and len(serial["K"]) == 5 * 3 * 2  # 5 prior kinds x 3 K x 2 ε
    np.testing.assert_equal(parallel, serial)  # NaN (no naive LP above naive_max_K) equal to NaN


def test_third_party_audit_tables_do_not_depend_on_jobs():
    from proofs_checks.experiments.third_party_audit import AuditConfig, _measure

    cfg = AuditConfig(Ks=(5, 10), epsilons=(0.5, 2.0), alphas=(0.1, 1.0), draws=8, dp_draws=2)
    (rows1, dp1), (rows2, dp2) = _measure(cfg, 3, jobs=1), _measure(cfg, 3, jobs=2)
    assert len(rows1["K"]) == 2 * 2 * 2 and dp1["K"] == [5, 5, 10, 10] and dp1["eps"] == [0.5, 2.0, 0.5, 2.0]
    np.testing.assert_equal(rows2, rows1)
    np.testing.assert_equal(dp2, dp1)
