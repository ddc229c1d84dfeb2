"""Peak memory and time of `logparse analyze` on a log whose lines end in a bare carriage return.

    python benchmarks/bench_bare_cr.py [--sizes 1MB 2MB 4MB] [--dir DIR] [--limit-mb 400]

Writes to DIR (a temporary folder by default, removed after) three forms of one Megatron-LM log of each size
(tests/synth, as many iterations as fill it): `lf`, its lines ending in newlines; `cr`, the same bytes with every
newline made a bare \\r (`tr '\\n' '\\r'`); and `bar`, a first line ending in a newline, then the `cr` text: a file
of newlines one of whose lines is \\r-redrawn records, as a progress bar redrawn for hours leaves it. Runs `logparse
analyze FILE --hw h100` on each in a child process and reports its wall time and peak resident memory (ru_maxrss
of the child and its own children, each measured on its own), checks that `cr` gives the steps `lf` gives, and
fails when a peak is at or above --limit-mb.
"""

from __future__ import annotations

import argparse
import csv
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from childpeak import measured, size_arg  # noqa: E402 - benchmarks/, beside this script

from tests import synth  # noqa: E402 - the checkout's generator of framework logs

LINE_BYTES = 356  # about one Megatron iteration line of tests/synth


def write_logs(folder: Path, size: int) -> dict[str, Path]:
    text, _ = synth.megatron_log(synth.Spec(steps=max(50, size // LINE_BYTES), seed=1))
    data = text.encode()
    paths = {kind: folder / f"megatron-{size}-{kind}.log" for kind in ("lf", "cr", "bar")}
    paths["lf"].write_bytes(data)
    paths["cr"].write_bytes(data.replace(b"\n", b"\r"))
    paths["bar"].write_bytes(b"training starts\n" + data.replace(b"\n", b"\r"))
    return paths


def run(path: Path, out: Path) -> dict:
    logparse = [
        sys.executable,
        "-m",
        "logparse",
        "analyze",
        str(path),
        "--hw",
        "h100",
        "--out",
        str(out),
        "-q",
    ]
    result = measured(logparse)
    if result["rc"] != 0:
        raise SystemExit(f"logparse failed on {path}: {result['stderr']}")
    with open(out / "steps.csv") as fh:
        result["steps"] = [int(float(r["step"])) for r in csv.DictReader(fh)]
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=size_arg, nargs="+", default=[10**6, 2 * 10**6, 4 * 10**6])
    ap.add_argument("--dir", type=Path, help="where to write the logs (default: a temporary folder, removed)")
    ap.add_argument("--limit-mb", type=float, default=400.0)
    args = ap.parse_args()
    folder = args.dir or Path(tempfile.mkdtemp(prefix="logparse-bare-cr-"))
    folder.mkdir(parents=True, exist_ok=True)
    bad = []
    print("| size | form | steps | analyze s | peak MB |\n|---|---|---|---|---|")
    try:
        for size in args.sizes:
            paths = write_logs(folder, size)
            got = {kind: run(path, folder / f"out-{size}-{kind}") for kind, path in paths.items()}
            for kind, result in got.items():
                print(
                    f"| {size / 1e6:g} MB | {kind} | {len(result['steps'])} | {result['wall_s']:.1f} | "
                    f"{result['peak_mb']:.0f} |",
                    flush=True,
                )
                if result["peak_mb"] >= args.limit_mb:
                    bad.append(f"{kind} at {size / 1e6:g} MB: {result['peak_mb']:.0f} MB")
            if got["cr"]["steps"] != got["lf"]["steps"]:
                bad.append(f"cr at {size / 1e6:g} MB: other steps than lf")
    finally:
        if args.dir is None:
            shutil.rmtree(folder, ignore_errors=True)
    if bad:
        raise SystemExit(f"FAIL: {'; '.join(bad)} (limit {args.limit_mb:.0f} MB)")
    print(f"ok: every peak under {args.limit_mb:.0f} MB; cr reads lf's steps")


if __name__ == "__main__":
    main()
