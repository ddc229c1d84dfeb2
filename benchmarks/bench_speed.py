"""logparse against `grep -c` on large Megatron logs: parse and analyze, plain and gzip, one rank and eight.

    python benchmarks/bench_speed.py [--sizes 10MB 100MB 1GiB] [--dir /tmp/logparse-bench] [--jobs N] [--repeat 3]

For each size it writes (once; kept in --dir for the next run):

- ``mega-<size>.log``: a Megatron-LM console log in training.py's format (the argument dump of tests/synth,
  then `` [ts] iteration N/ T | consumed samples: ... |`` lines), every iteration line followed by one noise
  line (NCCL INFO chatter, a Python warning), a checkpoint save every 1000 iterations: half the lines
  noise, as a busy multi-node job's log is;
- ``mega-<size>.log.gz``: the same, gzip-compressed (level 6);
- ``ranks8-<size>.log``: the same size, every line printed by 8 ranks with torchrun's ``[defaultR]:`` prefix.

and times, in this process's children, on the same machine in the same run: ``grep -c iteration`` on each
file (``zcat | grep -c`` for gz), ``logparse parse FILE -o steps.parquet`` and ``logparse analyze FILE --hw
h100`` (report.png included). Peak memory is the largest sum of resident memory over the command's process tree
(its parallel readers included, each page shared by forked processes counted once: the sum of Pss), sampled
every 100 ms from /proc, in a second run of the command: reading a large process's smaps_rollup takes its
memory map's lock and milliseconds of a core (sampled every 20 ms, the sampler took a third of a core from the
command it measured; every 100 ms, it still slowed a 10 s analyze by about a second on 2 cores), so the wall
time is that of a run with no sampler. `analyze` writes into a folder emptied before each run (outside the
time): replacing the last run's 560 MB steps.csv makes the file system free it, a quarter of a second that is
not the analysis's. The table is printed as Markdown.
"""

from __future__ import annotations

import argparse
import gzip
import math
import os
import random
import shutil
import subprocess
import sys
import threading
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests import synth  # noqa: E402

SIZES = {"10MB": 10e6, "100MB": 100e6, "1GiB": float(1 << 30)}
NOISE = [
    "NCCL INFO Channel 00/0 : 3[3] -> 4[4] via P2P/IPC/read",
    "NCCL INFO comm 0x5581e0 rank 3 nranks 8 cudaDev 3 busId 53000 - Init COMPLETE",
    "/usr/lib/python3/dist-packages/torch/utils/checkpoint.py:31: UserWarning: None of the inputs have "
    "requires_grad=True. Gradients will be None",
]


def write_log(path: Path, target_bytes: float, ranks: int = 1, save_every: int = 1000) -> None:
    """A Megatron log of about `target_bytes`, half its lines noise, a checkpoint save every `save_every`
    iterations; every line printed by `ranks` ranks."""
    text, _ = synth.megatron_log(synth.Spec(steps=10, seed=1))
    head = text.split("\n")
    head = head[: next(i for i, line in enumerate(head) if " iteration " in line and "|" in line)]
    rng = random.Random(0)
    now = datetime(2024, 9, 3, 15, 52, 43)
    steps = int(target_bytes / (440 * ranks))
    prefixes = [f"[default{r}]:" for r in range(ranks)] if ranks > 1 else [""]
    with open(path, "w") as fh:
        fh.write("\n".join(p + h for h in head for p in prefixes) + "\n")
        out: list[str] = []
        for step in range(1, steps + 1):
            now += timedelta(seconds=6.8)
            sec = 6.8 * (1 + rng.gauss(0, 0.02))  # 45% MFU for Llama-2-7B, 128 x 4096 tokens, 8 H100
            line = (
                f" [{now:%Y-%m-%d %H:%M:%S}] iteration {step:8d}/{steps:8d} | consumed samples: {step * 128:12d} |"
                f" elapsed time per iteration (ms): {sec * 1000:.1f} | throughput per GPU (TFLOP/s/GPU): "
                f"{3060 / sec:.1f} | learning rate: {3e-4 * min(1, step / 100):.6E} | global batch size: {128:5d} |"
                f" lm loss: {2 + 8 * math.exp(-step / 1e4):.6E} | loss scale: 1.0 | grad norm: "
                f"{abs(rng.gauss(1.2, 0.2)):.3f} | number of skipped iterations: {0:3d} |"
                f" number of nan iterations: {0:3d} |"
            )
            noise = f"gpu-node-017:{12345 + step % 7}:12389 [{step % 8}] {NOISE[step % 3]}"
            for p in prefixes:
                out.append(p + line)
                out.append(p + noise)
            if step % save_every == 0:
                for p in prefixes:
                    out.append(
                        f"{p}saving checkpoint at iteration {step:7d} to /checkpoints/llama2-7b in torch_dist format"
                    )
                    out.append(
                        f"{p}  successfully saved checkpoint from iteration {step:7d} to /checkpoints/llama2-7b"
                    )
            if len(out) > 20_000:
                fh.write("\n".join(out) + "\n")
                out = []
        fh.write("\n".join(out) + "\n")


def _tree_pss(root: int) -> int:
    """Proportional resident bytes (Pss) of `root` and every process below it: pages shared by forked
    workers counted once in all, not once per process as RSS would."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                parents[int(entry)] = int(fh.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
    total, stack = 0, [root]
    while stack:
        pid = stack.pop()
        try:
            with open(f"/proc/{pid}/smaps_rollup") as fh:
                total += next(int(line.split()[1]) * 1024 for line in fh if line.startswith("Pss:"))
        except (OSError, StopIteration):
            pass
        stack.extend(child for child, parent in parents.items() if parent == pid)
    return total


REPEAT = 3  # timed runs of each command (--repeat): the median's, on a shared machine


def timed(
    cmd: list[str] | str, shell: bool = False, memory: bool = True, before: Any = None, repeat: int = 1
) -> tuple[float, float]:
    """(wall seconds, peak memory of the process tree in MiB) of one command: the median wall time of `repeat`
    runs without the memory sampler, the peak (with `memory`) of one more run with it. `before`: called before
    each run, outside the time, then the file system's pending writes are flushed (os.sync). Its output goes to
    a pipe, not /dev/null: GNU grep stops at the first match when it writes to /dev/null."""
    walls = sorted(_run(cmd, shell, False, before)[0] for _ in range(max(1, repeat)))
    return walls[len(walls) // 2], (_run(cmd, shell, True, before)[1] if memory else math.nan)


def _run(cmd: list[str] | str, shell: bool, memory: bool, before: Any) -> tuple[float, float]:
    if before is not None:
        before()
    os.sync()  # the last command's output written back to the disk here, not during this one
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, shell=shell, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    peak = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, _tree_pss(proc.pid))
            done.wait(0.1)

    sampler = threading.Thread(target=sample, daemon=True)
    if memory:
        sampler.start()
    out, err = proc.communicate()
    wall = time.perf_counter() - start
    done.set()
    if memory:
        sampler.join()
    if proc.returncode not in (0, 1) or (proc.returncode == 1 and not shell):
        raise SystemExit(f"{cmd} failed ({proc.returncode}): {err.decode()[-500:]}")
    return wall, peak / 2**20


def leave_the_checkout(work: Path) -> None:
    """Run the timed commands from `work` when logparse imports there: `python -m logparse` then takes the
    installed logparse (the wheel, with its compiled extension, after `pip install .`; the checkout with the
    extension built in place after `pip install -e .`), not the checkout's own tree, which a plain install leaves
    uncompiled. Where logparse is not installed, from here, the checkout."""
    found = subprocess.run([sys.executable, "-c", "import logparse"], cwd=work, capture_output=True)
    if found.returncode == 0:
        os.chdir(work)


def fast_lane() -> str:
    """Which fast lane the timed commands read with: the C extension (logparse/frame/_native.c, built by `pip
    install`), or the regexes alone where it was not built or the logparse these commands import (the checkout,
    from its root, after a `pip install .` without -e) has none."""
    code = "import logparse.frame.fastlane as f; print(f._native is not None, f.__file__)"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    return f"C extension ({out[1]})" if out[0] == "True" else f"regexes only, no C extension ({out[1]})"


SAMPLE = Path(__file__).resolve().parent.parent / "sample_logs" / "megatron_llama2-7b_8xh100.log"
SAMPLE_RUNS = 10  # warm runs of the sample, after the first: its median moves less on a shared machine


def startup(work: Path, logparse: list[str]) -> None:
    """The README's first command on its 565-line sample, SAMPLE_RUNS + 1 times (the first with an empty pattern-set
    cache and, where nothing wrote it yet, no bytecode: what a first run after installing costs), and
    `logparse --help`; wall times, the median of the warm runs printed."""
    env = dict(os.environ, LOGPARSE_CACHE_DIR=str(work / "set-cache"))
    # Python writes the modules' bytecode on the first run, as it does on any machine where nothing turned that
    # off (a sandbox's PYTHONDONTWRITEBYTECODE made every run of an editable install compile logparse's 21,000
    # lines again: 0.1-0.2 s of each); an installed copy has it from pip already
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    shutil.rmtree(work / "set-cache", ignore_errors=True)
    cmd = [
        *logparse,
        "analyze",
        str(SAMPLE),
        "--gpus",
        "8",
        "--hw",
        "h100",
        "--out",
        str(work / "sample-out"),
    ]
    walls = []
    for _ in range(SAMPLE_RUNS + 1):
        start = time.perf_counter()
        subprocess.run(cmd, env=env, check=True, capture_output=True)
        walls.append(time.perf_counter() - start)
    helps = []
    for _ in range(5):
        start = time.perf_counter()
        subprocess.run([*logparse, "--help"], env=env, check=True, capture_output=True)
        helps.append(time.perf_counter() - start)
    warm = sorted(walls[1:])
    print(
        f"sample analyze (565 lines): first run {walls[0]:.2f} s (empty set cache), then median "
        f"{warm[len(warm) // 2]:.2f} s (min {warm[0]:.2f}, max {warm[-1]:.2f}); logparse --help median "
        f"{sorted(helps)[2]:.2f} s",
        flush=True,
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", nargs="+", default=list(SIZES), choices=list(SIZES))
    ap.add_argument("--dir", default="/tmp/logparse-bench")
    ap.add_argument("--jobs", type=int, default=None, help="logparse --jobs (default: every core)")
    ap.add_argument("--no-analyze", action="store_true")
    ap.add_argument(
        "--repeat", type=int, default=REPEAT, help="timed runs of each command; the median is shown"
    )
    ap.add_argument(
        "--sample-only",
        action="store_true",
        help="time only the README's sample (analyze, SAMPLE_RUNS + 1 runs) and `logparse --help`",
    )
    ap.add_argument(
        "--save-every",
        type=int,
        default=1000,
        help="iterations between checkpoint saves in the written logs (the original benchmark log: 8); logs of another "
        "cadence are written under their own names",
    )
    args = ap.parse_args()
    work = Path(args.dir).resolve()
    work.mkdir(parents=True, exist_ok=True)
    leave_the_checkout(work)
    logparse = [sys.executable, "-m", "logparse"]
    jobs = ["--jobs", str(args.jobs)] if args.jobs else []
    lane = fast_lane()
    print(f"fast lane: {lane}", flush=True)
    startup(work, logparse)
    if args.sample_only:
        return
    rows = []
    tag = "" if args.save_every == 1000 else f"-save{args.save_every}"
    for size in args.sizes:
        plain, packed, ranks = (
            work / f"mega-{size}{tag}.log",
            work / f"mega-{size}{tag}.log.gz",
            work / f"ranks8-{size}{tag}.log",
        )
        if not plain.exists():
            write_log(plain, SIZES[size], save_every=args.save_every)
        if not packed.exists():
            with open(plain, "rb") as src, gzip.open(packed, "wb", compresslevel=6) as dst:
                shutil.copyfileobj(src, dst, 1 << 20)
        if not ranks.exists():
            write_log(ranks, SIZES[size], ranks=8, save_every=args.save_every)
        # the logs just written are on their way to the disk: the kernel's writeback of 2.7 GB took cores from the
        # first timed commands (2026-12-05, a fresh machine: 1 GiB analyze 11.5 s in the run that wrote the logs,
        # 9.5 s in the next), so it is waited for here, outside the times
        os.sync()
        for label, path in (("1 rank", plain), ("1 rank, gz", packed), ("8 ranks", ranks)):
            grep_cmd = (
                f"zcat {path} | grep -c iteration" if path.suffix == ".gz" else f"grep -c iteration {path}"
            )
            timed(
                f"cat {path} > /dev/null", shell=True, memory=False
            )  # the file in the page cache, for every tool
            grep_s, _ = timed(grep_cmd, shell=True, memory=False, repeat=args.repeat)
            out = work / "out"
            parse_s, parse_rss = timed(
                [*logparse, "parse", str(path), "-o", str(work / "steps.parquet"), *jobs], repeat=args.repeat
            )
            analyze_s = analyze_rss = math.nan
            if not args.no_analyze:
                analyze_s, analyze_rss = timed(
                    [*logparse, "analyze", str(path), "--hw", "h100", "--out", str(out), *jobs],
                    before=lambda out=out: shutil.rmtree(out, ignore_errors=True),
                    repeat=args.repeat,
                )
            row = {
                "log": f"{size}, {label}",
                "MB": path.stat().st_size / 1e6,
                "grep": grep_s,
                "parse": parse_s,
                "analyze": analyze_s,
                "parse_rss": parse_rss,
                "analyze_rss": analyze_rss,
            }
            rows.append(row)
            print(row, flush=True)
    plain_parse = {r["log"].split(",")[0]: r["parse"] for r in rows if r["log"].endswith("1 rank")}
    print(
        f"\n{datetime.now():%Y-%m-%d}, {os.cpu_count()} cores, logparse --jobs {args.jobs or 'default'}, "
        f"fast lane: {lane}\n"
    )
    print(
        "| log | MB on disk | grep -c | parse (x grep) | analyze (x grep) | gz / plain parse | peak memory parse / analyze |"
    )
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        size = r["log"].split(",")[0]
        gz = f"{r['parse'] / plain_parse[size]:.2f}x" if "gz" in r["log"] and size in plain_parse else ""
        print(
            f"| {r['log']} | {r['MB']:.0f} | {r['grep']:.2f} s | {r['parse']:.1f} s ({r['parse'] / r['grep']:.0f}x) | "
            f"{r['analyze']:.1f} s ({r['analyze'] / r['grep']:.0f}x) | {gz} | "
            f"{r['parse_rss']:.0f} / {r['analyze_rss']:.0f} MiB |"
        )
    by_log = {r["log"]: r for r in rows}
    for size in plain_parse:
        one, eight = by_log.get(f"{size}, 1 rank"), by_log.get(f"{size}, 8 ranks")
        if one and eight:
            per_byte = {k: (eight[k] / eight["MB"]) / (one[k] / one["MB"]) for k in ("parse", "analyze")}
            print(
                f"\n{size}, 8 ranks against 1 rank, seconds per byte: parse {per_byte['parse']:.2f}x, "
                f"analyze {per_byte['analyze']:.2f}x (below 1: faster per byte)"
            )


if __name__ == "__main__":
    main()
