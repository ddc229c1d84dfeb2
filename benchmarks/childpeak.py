"""What the memory benchmarks share: a size given with its unit, and one command's exit code, wall time and
peak RSS, measured in a fresh process of its own (RUSAGE_CHILDREN's peak is over every child a process has
waited for, so each measure needs a parent of its own).

    python benchmarks/childpeak.py CMD...   prints {"rc", "wall_s", "peak_mb", "stdout", "stderr"} as JSON
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time

UNITS = {"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "KB": 10**3, "MB": 10**6, "GB": 10**9}


def size_arg(text: str) -> int:
    """`2GiB`, `300MB`, `4000000` as bytes."""
    for unit, factor in UNITS.items():
        if text.endswith(unit):
            return int(float(text[: -len(unit)]) * factor)
    return int(text)


def measured(cmd: list[str]) -> dict:
    """`cmd`'s exit code, wall seconds, peak RSS in MB and the ends of its output, from a fresh parent."""
    got = subprocess.run([sys.executable, __file__, *cmd], capture_output=True, text=True, check=True)
    return json.loads(got.stdout)


def _measure(cmd: list[str]) -> None:
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # Linux: KiB
    out = {"rc": done.returncode, "wall_s": wall, "peak_mb": peak_kib * 1024 / 1e6}
    print(json.dumps({**out, "stdout": done.stdout[-3000:], "stderr": done.stderr[-2000:]}))


if __name__ == "__main__":
    _measure(sys.argv[1:])
