"""Wall time and peak memory of `logparse batch` over a folder of generated runs.

    python benchmarks/bench_batch.py [--runs 200] [--steps 300] [--jobs 1 2] [--dask]

Writes `--runs` Megatron-format logs (tests/synth, a different seed and speed each) into run folders,
then runs the installed `logparse batch` command on them once per `--jobs` value (and with
`--executor dask` when asked), each in a child process with `--force`, and reports the wall time and the
peak resident memory of the command and the processes it started (RUSAGE_CHILDREN: the largest single
process, not their sum).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests import synth  # noqa: E402

CHILD = """
import resource, subprocess, sys, time, json
t = time.perf_counter()
proc = subprocess.run(sys.argv[1:], capture_output=True, text=True)
wall = time.perf_counter() - t
print(json.dumps({"wall_s": wall, "exit": proc.returncode,
                  "peak_rss_mib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
                  "stderr_tail": proc.stderr[-300:]}))
"""


def write_runs(root: Path, runs: int, steps: int) -> None:
    for i in range(runs):
        folder = root / f"run{i:03d}"
        folder.mkdir(parents=True)
        text, _truth = synth.megatron_log(synth.Spec(steps=steps, seed=i, save_interval=max(steps // 3, 1)))
        (folder / "train.log").write_text(text)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--jobs", type=int, nargs="+", default=[1, os.cpu_count() or 1])
    ap.add_argument("--dask", action="store_true", help="also run with --executor dask (a local cluster)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "runs"
        t = time.perf_counter()
        write_runs(root, args.runs, args.steps)
        size = sum(p.stat().st_size for p in root.rglob("*.log"))
        print(f"wrote {args.runs} runs ({size / 1e6:.1f} MB) in {time.perf_counter() - t:.1f} s")
        configs = [["--jobs", str(j)] for j in args.jobs]
        if args.dask:
            configs.append(["--executor", "dask"])
        for extra in configs:
            out = Path(tmp) / ("out_" + "_".join(extra).replace("-", ""))
            cmd = ["logparse", "batch", str(root), "--hw", "h100", "--out", str(out), "--force", *extra]
            res = json.loads(
                subprocess.run([sys.executable, "-c", CHILD, *cmd], capture_output=True, text=True).stdout
            )
            rate = args.runs / res["wall_s"]
            print(
                f"{' '.join(extra):>18}: {res['wall_s']:6.1f} s ({rate:.1f} runs/s), peak RSS "
                f"{res['peak_rss_mib']:.0f} MiB, exit {res['exit']}"
                + (f"  stderr: {res['stderr_tail']!r}" if res["exit"] else "")
            )


if __name__ == "__main__":
    main()
