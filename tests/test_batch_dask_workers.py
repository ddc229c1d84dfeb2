"""A batch on a Dask cluster whose workers all go away: it stops with one line, the index written.

Dask keeps a task waiting for a worker forever (the scheduler's `no-workers-timeout` is off by default), so the
batch asks the scheduler how many workers it has while it waits. Here the cluster is one worker in this process;
the second run's task closes it, as a worker that dies or is taken back would."""

from __future__ import annotations

import threading
import time

import pandas as pd
import pytest

from logparse.batch import engine
from tests.conftest import run_apart


def test_a_cluster_that_loses_its_workers_ends_the_batch_with_the_index(tmp_path, monkeypatch):
    distributed = pytest.importorskip("distributed")
    runs, out = tmp_path / "runs", tmp_path / "out"
    runs.mkdir()
    for name, steps in (("a", 12), ("b", 13), ("c", 14)):
        (runs / f"{name}.log").write_text(
            "".join(f"step {s} loss {5 - 0.01 * s:.3f}\n" for s in range(1, steps + 1))
        )
    monkeypatch.setattr(engine, "NO_WORKERS_WAIT_S", 0.5, raising=False)
    analyze = engine.analyze_run

    def run(job):  # (the batch keeps one run in flight per worker thread: a's row is in before b starts)
        if job.name == "b":
            worker = distributed.get_worker()
            worker.loop.add_callback(worker.close)
            for _ in range(100):  # b's row never comes back: its worker is closing before it is done
                if worker.status.name.startswith("clos"):
                    break
                time.sleep(0.05)
        return analyze(job)

    monkeypatch.setattr(engine, "analyze_run", run)
    result = {}
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        argv = [
            "batch",
            str(runs),
            "--out",
            str(out),
            "--executor",
            "dask",
            "--scheduler",
            cluster.scheduler_address,
        ]
        # (apart, so that a batch that waits forever fails the test instead of hanging it)
        batch = threading.Thread(target=lambda: result.update(res=run_apart(argv)), daemon=True)
        batch.start()
        batch.join(timeout=60)
        assert not batch.is_alive(), "the batch still waits on a cluster without workers"
    res = result["res"]
    assert res.exit_code == 1
    (line,) = res.stderr.splitlines()
    assert line.startswith(
        f"error: the Dask cluster at {cluster.scheduler_address} has had no workers for 0.5 s"
    )
    assert "2 of 3 runs not analyzed" in line
    index = pd.read_csv(out / "index.csv").set_index("run")
    assert index.loc["a", "status"] == "ok" and index.loc["a", "steps"] == 12  # kept
    for name in ("b", "c"):
        assert index.loc[name, "status"] == "error"
        assert index.loc[name, "error"] == "not analyzed: the Dask cluster lost its workers"
    assert (out / "index.html").is_file() and (out / "a" / "summary.json").is_file()
