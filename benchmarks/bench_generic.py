"""The generic reading's cost per line against a framework set's, on logs of the same line count.

    python benchmarks/bench_generic.py [--lines 8000] [--range-lines 60000] [--repeat 3]
                                       [--only one-pass|ranges]

Writes (into a temporary folder) one log per shape, each N step lines long, every line a real line
renumbered step by step:

- ``megatron``: Megatron-LM's iteration line (sample_logs/megatron_llama2-7b_8xh100.log, its 1st iteration),
  read by the megatron set (its fast lane included: that is what a user gets);
- ``generic-pipe``: ``step N/T | loss ... | 6.0 ms/step | 84,752 tok/s`` (tests/data/captures/custom/pipe.log);
- ``generic-logging``: Python logging's ``2026-12-01 19:46:46,692 - INFO - __main__ - global_step=N loss=... lr=...``
  (tests/data/captures/custom/logging.log), its timestamp the clock;
- ``generic-kv``: build-nanogpt's ``step N | loss ... | lr ... | norm ... | dt ...ms | tok/sec ...``
  (sample_logs/generic_pipe_cpu.log);

and times ``logparse.frame.assemble.parse_log`` on each (detection, matching, the frame; one process, in this process,
best of --repeat, CPU time) at N and 2N lines; the cost of a line is the difference over N (the fixed costs of
a run cancel out). It does so twice:

- ``one-pass``: N = --lines (8000: 2N Megatron lines are 7 MB, under chunks.PARALLEL_MIN_BYTES), the reading
  of a log under 8 MiB;
- ``ranges``: N = --range-lines (60000), read in 1 MiB ranges (chunks.MIN_CHUNK_BYTES; jobs=1, so the ranges
  are read in this process and their CPU time counted), the reading of a log over 8 MiB: Megatron's lines and
  the generic reading's key map lines through the fast lane (fastlane.py). N is past the 50,000 records the
  generic reading's detection scores (frame.DETECT_MORE), so that fixed cost cancels out too.

It prints microseconds per line and the ratio to Megatron's. The target is a ratio of at most 1.5.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from logparse.frame.assemble import parse_log  # noqa: E402
from logparse.frame.chunks import MIN_CHUNK_BYTES  # noqa: E402
from logparse.patterns.sets import load_sets  # noqa: E402


def first(path: Path, needle: str) -> str:
    return next(line for line in path.read_text().splitlines() if needle in line)


def renumbered(line: str, counter: str, n: int) -> str:
    """`line` with the number after `counter` set to n (and a following /total kept)."""
    return re.sub(rf"({re.escape(counter)}\s*)\d+", lambda m: f"{m.group(1)}{n}", line, count=1)


def write_logs(folder: Path, lines: int) -> dict[str, Path]:
    shapes = {
        "megatron": (first(ROOT / "sample_logs/megatron_llama2-7b_8xh100.log", " iteration "), "iteration"),
        "generic-pipe": (first(ROOT / "tests/data/captures/custom/pipe.log", "ms/step"), "step "),
        "generic-logging": (
            first(ROOT / "tests/data/captures/custom/logging.log", "global_step="),
            "global_step=",
        ),
        "generic-kv": (first(ROOT / "sample_logs/generic_pipe_cpu.log", "tok/sec"), "step "),
    }
    folder.mkdir(parents=True, exist_ok=True)
    paths = {}
    for name, (line, counter) in shapes.items():
        p = folder / f"{name}.log"
        with p.open("w") as fh:
            for i in range(1, lines + 1):
                fh.write(renumbered(line, counter, i) + "\n")
        paths[name] = p
    return paths


def best_time(path: Path, sets: dict, repeat: int, chunk_bytes: int | None) -> tuple[float, object]:
    best, parsed = float("inf"), None
    for _ in range(repeat):
        t0 = time.process_time()  # CPU time: the machine is shared
        parsed = parse_log(str(path), sets, jobs=1, chunk_bytes=chunk_bytes)
        best = min(best, time.process_time() - t0)
    return best, parsed


def measure(folder: Path, lines: int, sets: dict, repeat: int, chunk_bytes: int | None) -> dict[str, float]:
    """Microseconds per line of each log: the slope between a log of N lines and one of 2N (the fixed costs
    of a run, detection and the frame's setup, cancel out)."""
    per_line = {}
    small = write_logs(folder / "n", lines)
    large = write_logs(folder / "2n", 2 * lines)
    for name in small:
        best_time(small[name], sets, 1, chunk_bytes)  # warm up: the sets' caches
        t1, _ = best_time(small[name], sets, repeat, chunk_bytes)
        t2, parsed = best_time(large[name], sets, repeat, chunk_bytes)
        rows = int((parsed.rows["kind"] == "step").sum())
        assert rows == 2 * lines, (name, rows)
        per_line[name] = (t2 - t1) / lines * 1e6
        print(f"{name:16s} {parsed.format:10s} {t1:7.2f} s / {t2:7.2f} s  {per_line[name]:6.2f} us/line")
    return per_line


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lines", type=int, default=8000, help="N of the one-pass logs")
    ap.add_argument("--range-lines", type=int, default=60000, help="N of the logs read in ranges")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", choices=("one-pass", "ranges"))
    args = ap.parse_args()
    sets = load_sets()
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        if args.only != "ranges":
            print(f"one pass, N = {args.lines}", flush=True)
            results["one pass"] = measure(Path(tmp) / "one", args.lines, sets, args.repeat, None)
        if args.only != "one-pass":
            print(f"ranges of 1 MiB, N = {args.range_lines}", flush=True)
            folder = Path(tmp) / "ranges"
            results["ranges"] = measure(folder, args.range_lines, sets, args.repeat, MIN_CHUNK_BYTES)
    print("\n| log | reading | us/line | x megatron |\n|---|---|---:|---:|")
    for mode, per_line in results.items():
        base = per_line["megatron"]
        for name, us in per_line.items():
            print(f"| {name} | {mode} | {us:.2f} | {us / base:.2f} |")


if __name__ == "__main__":
    main()
