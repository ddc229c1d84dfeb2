"""Peak memory and time of `logparse analyze` on a Hugging Face output dir whose trainer_state.json is big.

    python benchmarks/bench_trainer_state.py [--size 300MB] [--under 60MB] [--dir DIR] [--limit-mb 300]

Writes to DIR (a temporary folder by default, removed after) trainer_state.json files as transformers'
TrainerState.save_to_json writes them (json.dumps(..., indent=2, sort_keys=True)), with a log_history of one entry
per logged step (epoch, grad_norm, learning_rate, loss, step: what Trainer logs at every logging step), grown to
the size asked; then runs `logparse analyze DIR` on three folders, each in a child process, and reports its wall
time and peak resident memory (ru_maxrss of the child and its own children):

- `big`: the --size file alone. Over read/runfolder.py's MAX_RECORD_BYTES it is not read: the run stops with one
  line saying so (nothing else in the folder to analyze), in the memory of a plain start-up.
- `big+console`: the --size file beside a console log (sample_logs/hf_trainer_ga4_cpu.log): the file is not
  read (a warning says so) and the console gives the steps.
- `under`: an --under file (under the limit), read whole: every logged step from it.

Fails when `big` or `big+console` peaks at or above --limit-mb. Before the limit, a 300 MB file took 1.9 GB and
24 s (a 1 GB one 5.9 GB).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

from childpeak import measured, size_arg  # noqa: E402 - benchmarks/, beside this script

ROOT = Path(__file__).resolve().parent.parent
CONSOLE = ROOT / "sample_logs" / "hf_trainer_ga4_cpu.log"


def write_state(path: Path, size: int) -> int:
    """A trainer_state.json of about `size` bytes, written as TrainerState.save_to_json writes it (the keys
    sorted, indent 2), streamed; returns the number of logged steps."""
    rng = random.Random(0)
    head = {
        "best_global_step": None, "best_metric": None, "best_model_checkpoint": None, "epoch": 3.0,
        "eval_steps": 500, "global_step": 0, "is_hyper_param_search": False, "is_local_process_zero": True,
        "is_world_process_zero": True,
    }  # fmt: skip
    n = written = 0
    with open(path, "w") as fh:
        fh.write("{\n" + "".join(f"  {json.dumps(k)}: {json.dumps(v)},\n" for k, v in head.items()))
        fh.write('  "log_history": [\n')
        while written < size:
            n += 1
            entry = {
                "epoch": n / 1000, "grad_norm": rng.random(), "learning_rate": 3e-4 * rng.random(),
                "loss": 2 + rng.random(), "step": n,
            }  # fmt: skip
            text = json.dumps(entry, indent=2, sort_keys=True).replace("\n", "\n    ")
            text = ("" if n == 1 else ",\n") + "    " + text
            fh.write(text)
            written += len(text)
        tail = {
            "logging_steps": 1, "max_steps": n, "num_input_tokens_seen": 0, "num_train_epochs": 3,
            "save_steps": 500, "total_flos": 1.0, "train_batch_size": 8, "trial_name": None, "trial_params": None,
        }  # fmt: skip
        fh.write(
            "\n  ],\n" + ",\n".join(f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in tail.items()) + "\n}\n"
        )
    return n


def analyze(folder: Path, out: Path) -> dict:
    cmd = [sys.executable, "-m", "logparse", "analyze", str(folder), "--out", str(out)]
    return measured(cmd)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--size", type=size_arg, default=300 * 10**6, help="bytes of the big file (default 300MB)"
    )
    ap.add_argument("--under", type=size_arg, default=60 * 10**6, help="bytes of the file under the limit")
    ap.add_argument(
        "--dir", type=Path, help="where to write the folders (default: a temporary folder, removed)"
    )
    ap.add_argument("--limit-mb", type=float, default=300.0)
    args = ap.parse_args()
    base = args.dir or Path(tempfile.mkdtemp(prefix="logparse-trainer-state-"))
    rows = {}
    try:
        big, both, under = base / "big", base / "big+console", base / "under"
        for d in (big, both, under):
            d.mkdir(parents=True, exist_ok=True)
        t0 = time.perf_counter()
        n_big = write_state(big / "trainer_state.json", args.size)
        shutil.copy(big / "trainer_state.json", both / "trainer_state.json")
        shutil.copy(CONSOLE, both / "train.log")
        n_under = write_state(under / "trainer_state.json", args.under)
        print(f"wrote the files in {time.perf_counter() - t0:.0f} s", flush=True)
        for d, n in ((big, n_big), (both, n_big), (under, n_under)):
            r = rows[d.name] = analyze(d, base / f"out-{d.name}")
            size = (d / "trainer_state.json").stat().st_size
            said = (r["stdout"].splitlines() or [""])[0] if r["rc"] == 0 else r["stderr"].strip()
            print(
                f"{d.name:12s} trainer_state.json {size / 1e6:.0f} MB ({n:,} logged steps): exit {r['rc']}, "
                f"{r['wall_s']:.1f} s, peak {r['peak_mb']:.0f} MB\n    {said}",
                flush=True,
            )
    finally:
        if args.dir is None:
            shutil.rmtree(base, ignore_errors=True)
    bad = [k for k in ("big", "big+console") if rows[k]["peak_mb"] >= args.limit_mb]
    if rows["big"]["rc"] != 1 or rows["big+console"]["rc"] != 0 or rows["under"]["rc"] != 0:
        bad.append("exit codes (big 1, big+console 0, under 0)")
    if bad:
        raise SystemExit(f"FAIL: {', '.join(bad)} (limit {args.limit_mb} MB)")
    print(f"ok: the big file's runs under {args.limit_mb:.0f} MB")


if __name__ == "__main__":
    main()
