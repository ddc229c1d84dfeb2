"""Peak memory and time of `logparse parse` on a log holding one giant line.

    python benchmarks/bench_longline.py [--size 2GiB] [--dir DIR] [--only plain|gzip] [--limit-mb 300]

Writes to DIR (a temporary folder by default, removed after) a Megatron-LM log: the start of
sample_logs/megatron_llama2-7b_8xh100.log (the argument dump, iterations 1-3), one line of --size bytes with
no newline in it, then iterations 4-6; and the same gzip-compressed (level 1, streamed). Runs `logparse parse
FILE -o steps.csv` on each in a child process and reports its wall time and peak resident memory (ru_maxrss of
the child and its own children, the parallel readers included, each measured on its own), checks the six steps
were read, and fails when the peak is at or above --limit-mb.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from childpeak import measured, size_arg  # noqa: E402 - benchmarks/, beside this script

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "sample_logs" / "megatron_llama2-7b_8xh100.log"
BLOCK = 1 << 20


def write_log(path: Path, size: int, packed: bool) -> None:
    lines = SAMPLE.read_text().splitlines(keepends=True)
    head, tail = "".join(lines[:57]).encode(), "".join(lines[57:60]).encode()  # iterations 1-3 | 4-6
    block = (b"0123456789abcdef" * (BLOCK // 16))[:BLOCK]
    out = gzip.open(path, "wb", compresslevel=1) if packed else open(path, "wb")
    with out:
        out.write(head)
        left = size
        while left > 0:
            out.write(block[: min(left, BLOCK)])
            left -= BLOCK
        out.write(b"\n" + tail)


def run(path: Path, out: Path) -> dict:
    logparse = [sys.executable, "-m", "logparse", "parse", str(path), "-o", str(out)]
    result = measured(logparse)
    if result["rc"] != 0:
        raise SystemExit(f"logparse failed on {path}: {result['stderr']}")
    with open(out) as fh:
        result["steps"] = [int(float(r["step"])) for r in csv.DictReader(fh)]
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=size_arg, default=2 << 30, help="bytes of the giant line (default 2GiB)")
    ap.add_argument("--dir", type=Path, help="where to write the logs (default: a temporary folder, removed)")
    ap.add_argument("--only", choices=["plain", "gzip"])
    ap.add_argument("--limit-mb", type=float, default=300.0)
    args = ap.parse_args()
    folder = args.dir or Path(tempfile.mkdtemp(prefix="logparse-longline-"))
    folder.mkdir(parents=True, exist_ok=True)
    rows = []
    try:
        for kind in ("plain", "gzip"):
            if args.only and kind != args.only:
                continue
            path = folder / (f"longline-{args.size}.log" + (".gz" if kind == "gzip" else ""))
            t0 = time.perf_counter()
            if not path.exists():
                write_log(path, args.size, kind == "gzip")
            written = time.perf_counter() - t0
            result = run(path, folder / f"steps-{kind}.csv")
            result.update(kind=kind, file_mb=os.path.getsize(path) / 1e6, write_s=written)
            rows.append(result)
            print(
                f"{kind:5s} line {args.size / 2**30:.3f} GiB, file {result['file_mb']:.0f} MB: "
                f"parse {result['wall_s']:.1f} s, peak {result['peak_mb']:.0f} MB, steps {result['steps']}",
                flush=True,
            )
    finally:
        if args.dir is None:
            shutil.rmtree(folder, ignore_errors=True)
    bad = [r for r in rows if r["peak_mb"] >= args.limit_mb or r["steps"] != [1, 2, 3, 4, 5, 6]]
    if bad:
        raise SystemExit(f"FAIL: {', '.join(r['kind'] for r in bad)} (limit {args.limit_mb} MB, steps 1-6)")
    print(f"ok: every peak under {args.limit_mb:.0f} MB, steps 1-6 read")


if __name__ == "__main__":
    main()
