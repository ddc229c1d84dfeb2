"""Speed and memory of `logparse analyze` on a large generated log.

    python benchmarks/bench_parse.py [--steps 200000] [--all-ranks]

Writes a Megatron-format log (tests/synth) to a temporary folder, then analyzes it in a child
process and reports wall time, lines per second and the child's peak resident memory. The reader
streams, so memory should track the number of step rows, not the file size.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests import synth  # noqa: E402

CHILD = """
import json, resource, sys, time
import logparse
from logparse.report import write_outputs
t = time.perf_counter()
a = logparse.analyze(sys.argv[1], hw="h100")
t_analyze = time.perf_counter() - t
write_outputs(a, sys.argv[2])
t_total = time.perf_counter() - t
print(json.dumps({"analyze_s": t_analyze, "total_s": t_total, "lines": a.summary["lines"]["total"],
                  "steps": a.summary["steps"]["count"], "mfu": a.summary["stable"]["mfu_mean"],
                  "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=200_000)
    ap.add_argument("--all-ranks", action="store_true", help="every line printed by 8 ranks")
    ap.add_argument("--noise", type=int, default=0, help="unmatched lines inserted after each step line")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "big.log"
        t = time.perf_counter()
        text, truth = synth.megatron_log(
            synth.Spec(steps=args.steps, all_ranks=args.all_ranks, seed=1, save_interval=1000)
        )
        if args.noise:
            import random

            rng = random.Random(0)
            noisy = []
            for line in text.splitlines():
                noisy.append(line)
                noisy += [
                    f"[rank{rng.randint(0, 7)}]: WARNING some library says value {rng.random()} is deprecated"
                    for _ in range(args.noise)
                ]
            text = "\n".join(noisy) + "\n"
        log.write_text(text)
        del text
        size_mb = log.stat().st_size / 1e6
        print(f"generated {size_mb:.1f} MB in {time.perf_counter() - t:.1f} s")
        out = subprocess.run(
            [sys.executable, "-c", CHILD, str(log), str(Path(tmp) / "out")],
            capture_output=True,
            text=True,
            check=True,
        )
        r = json.loads(out.stdout.strip().splitlines()[-1])
        print(json.dumps(r, indent=2))
        print(
            f"{r['lines'] / r['analyze_s']:,.0f} lines/s, {size_mb / r['analyze_s']:.1f} MB/s; "
            f"peak RSS {r['peak_rss_mib']:.0f} MiB for a {size_mb:.0f} MB log; "
            f"stable MFU {r['mfu']:.4f} vs truth {truth['stable_mfu']}"
        )


if __name__ == "__main__":
    main()
