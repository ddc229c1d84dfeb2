"""The inferred reading of a log no pattern set knows against a shipped set's reading of the same log.

    python benchmarks/bench_inferred.py [--size 1GiB] [--dir /tmp/logparse-bench] [--jobs N] [--repeat 3]

Writes (once; kept in --dir for the next run) two logs of the same content, step for step the same values and
the same lines between them (NCCL chatter, a Python warning, a checkpoint save every `--save-every` steps):

- ``known-<size>.log``: every step line in Megatron-LM's format (training.py's ``training_log``, as
  bench_speed.py writes it), read by the shipped megatron set;
- ``unknown-<size>.log``: every step line in a layout no shipped set reads, MMEngine's ``LogProcessor`` form
  behind a bracketed clock (``[2024-09-03 15:52:43] Iter(train) [ 1200/155000]  lr: 3.0000e-04  time: 6.8100
  tflops: 449.3  loss: 2.1234  ...``), read by the inferred reading (patterns/infer.py): its records learnt from
  the log's head and a sample of the file, then the whole file read through the set it makes, the fast lane
  included;

and times ``logparse parse FILE -o steps.parquet`` on each (a child process, its wall time, the median of
--repeat runs, the file in the page cache), alternating the two so that the machine's load weighs on both
alike. It prints each run and the ratio unknown / known of the medians; the target is at most 2x (the inferred
reading's fixed cost, learning the records, is part of the unknown log's time).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import subprocess
import sys
import time
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench_speed import NOISE, SIZES, fast_lane, leave_the_checkout  # noqa: E402
from tests import synth  # noqa: E402


def megatron_line(now: datetime, step: int, steps: int, values: dict[str, float]) -> str:
    """Megatron-LM's iteration line (megatron/training/training.py training_log), as bench_speed.py writes it."""
    return (
        f" [{now:%Y-%m-%d %H:%M:%S}] iteration {step:8d}/{steps:8d} | consumed samples: {step * 128:12d} |"
        f" elapsed time per iteration (ms): {values['sec'] * 1000:.1f} | throughput per GPU (TFLOP/s/GPU): "
        f"{values['tflops']:.1f} | learning rate: {values['lr']:.6E} | global batch size: {128:5d} |"
        f" lm loss: {values['loss']:.6E} | loss scale: 1.0 | grad norm: {values['grad']:.3f} |"
        f" number of skipped iterations: {0:3d} | number of nan iterations: {0:3d} |"
    )


def mmengine_line(now: datetime, step: int, steps: int, values: dict[str, float]) -> str:
    """The same values in MMEngine's IterBasedTrainLoop layout (mmengine/runner/log_processor.py LogProcessor:
    `Iter(train) [{cur_iter:>{width}}/{max_iters}]` then two-space separated `key: value` pairs), behind a
    bracketed clock: a layout no shipped set reads."""
    width = len(str(steps))
    return (
        f"[{now:%Y-%m-%d %H:%M:%S}] Iter(train) [{step:>{width}}/{steps}]  lr: {values['lr']:.4e}  "
        f"time: {values['sec']:.4f}  tflops: {values['tflops']:.1f}  loss: {values['loss']:.4f}  "
        f"grad_norm: {values['grad']:.4f}  consumed_samples: {step * 128}  loss_scale: 1.0  "
        f"global_batch_size: 128"
    )


# the unknown log's start-up lines: a config echoed as a dict (what a custom loop prints), no framework's banner
UNKNOWN_HEAD = (
    "config: {'model': 'llama2-7b', 'global_batch_size': 128, 'seq_len': 4096, 'num_layers': 32, 'hidden_size': 4096, "
    "'num_attention_heads': 32, 'vocab_size': 32000, 'max_steps': 155000, 'lr': 0.0003}\n"
)


def write_logs(known: Path, unknown: Path, target_bytes: float, save_every: int) -> None:
    """The two logs, side by side: the same values, noise and saves; the step lines in each layout (and each its
    own start-up lines)."""
    text, _ = synth.megatron_log(synth.Spec(steps=10, seed=1))
    head = text.split("\n")
    head = head[: next(i for i, line in enumerate(head) if " iteration " in line and "|" in line)]
    rng = random.Random(0)
    now = datetime(2024, 9, 3, 15, 52, 43)
    steps = int(target_bytes / 440)
    with open(known, "w") as fa, open(unknown, "w") as fb:
        fa.write("\n".join(head) + "\n")  # Megatron's argument dump: what makes the known log Megatron's
        fb.write(UNKNOWN_HEAD)
        out_a: list[str] = []
        out_b: list[str] = []
        for step in range(1, steps + 1):
            now += timedelta(seconds=6.8)
            sec = 6.8 * (1 + rng.gauss(0, 0.02))
            values = {
                "sec": sec,
                "tflops": 3060 / sec,
                "lr": 3e-4 * min(1, step / 100),
                "loss": 2 + 8 * math.exp(-step / 1e4),
                "grad": abs(rng.gauss(1.2, 0.2)),
            }
            noise = f"gpu-node-017:{12345 + step % 7}:12389 [{step % 8}] {NOISE[step % 3]}"
            out_a += [megatron_line(now, step, steps, values), noise]
            out_b += [mmengine_line(now, step, steps, values), noise]
            if step % save_every == 0:
                for out in (out_a, out_b):
                    out.append(
                        f"saving checkpoint at iteration {step:7d} to /checkpoints/llama2-7b in torch_dist format"
                    )
                    out.append(
                        f"  successfully saved checkpoint from iteration {step:7d} to /checkpoints/llama2-7b"
                    )
            if len(out_a) > 20_000:
                fa.write("\n".join(out_a) + "\n")
                fb.write("\n".join(out_b) + "\n")
                out_a, out_b = [], []
        fa.write("\n".join(out_a) + "\n")
        fb.write("\n".join(out_b) + "\n")


def wall(cmd: list[str]) -> float:
    os.sync()
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True)
    took = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{cmd} failed ({done.returncode}): {done.stderr.decode()[-500:]}")
    return took


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", default="1GiB", choices=list(SIZES))
    ap.add_argument("--dir", default="/tmp/logparse-bench")
    ap.add_argument("--jobs", type=int, default=None, help="logparse --jobs (default: every core)")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs of each log; the median is compared")
    ap.add_argument("--save-every", type=int, default=1000, help="steps between checkpoint saves")
    args = ap.parse_args()
    work = Path(args.dir).resolve()
    work.mkdir(parents=True, exist_ok=True)
    known, unknown = work / f"known-{args.size}.log", work / f"unknown-{args.size}.log"
    if not (known.exists() and unknown.exists()):
        write_logs(known, unknown, SIZES[args.size], args.save_every)
        os.sync()  # (the logs' writeback is not the commands' time)
    leave_the_checkout(work)
    logparse = [sys.executable, "-m", "logparse"]
    jobs = ["--jobs", str(args.jobs)] if args.jobs else []
    print(f"fast lane: {fast_lane()}", flush=True)
    for path in (known, unknown):  # the files in the page cache, and each format's read checked once
        subprocess.run(["cat", str(path)], stdout=subprocess.DEVNULL, check=True)
    times: dict[str, list[float]] = {"known": [], "unknown": []}
    for k in range(args.repeat):
        for label, path in (("known", known), ("unknown", unknown)):
            took = wall([*logparse, "parse", str(path), "-o", str(work / f"{label}.parquet"), *jobs])
            times[label].append(took)
            print(f"run {k + 1}: {label} ({path.stat().st_size / 2**20:.0f} MiB) {took:.2f} s", flush=True)
    rows = {}
    for label in times:
        import pandas as pd

        rows[label] = len(pd.read_parquet(work / f"{label}.parquet"))
    median = {label: sorted(t)[len(t) // 2] for label, t in times.items()}
    print(
        f"\n{datetime.now():%Y-%m-%d}, {os.cpu_count()} cores, logparse --jobs {args.jobs or 'default'}, "
        f"{args.repeat} runs each\n"
    )
    print("| log | rows | parse, median | runs |")
    print("|---|---:|---:|---|")
    for label, path in (("known", known), ("unknown", unknown)):
        runs = ", ".join(f"{t:.1f}" for t in times[label])
        print(f"| {path.name} | {rows[label]:,} | {median[label]:.1f} s | {runs} |")
    print(f"\nunknown / known: {median['unknown'] / median['known']:.2f}x (target: at most 2x)")


if __name__ == "__main__":
    main()
