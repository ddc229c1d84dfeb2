"""Time to render report.png of a long run (a synthetic Megatron-LM log of 30,000 iterations, a checkpoint
every 1000, one dip), the figure's own cost after the analysis.

    python benchmarks/bench_report.py [--steps 30000] [--repeat 3] [--limit-s 3]

Prints the analysis time once and each render's wall time; fails when the best render takes --limit-s or
more (the figure bins a long run into min-max envelopes, so it should not grow with the steps).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import logparse  # noqa: E402
from logparse.report import plots  # noqa: E402
from tests import synth  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=30_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--limit-s", type=float, default=3.0)
    args = ap.parse_args()
    spec = synth.Spec(
        steps=args.steps,
        save_interval=1000,
        warmup=200,
        seed=3,
        dips=[synth.Dip(int(args.steps * 0.68), 1, 0.3)],
    )
    text, _ = synth.megatron_log(spec)
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "train.log"
        log.write_text(text)
        start = time.perf_counter()
        a = logparse.analyze(log, gpus=8, hw="h100")
        print(f"analyze, {args.steps:,} iterations: {time.perf_counter() - start:.2f} s")
        times = []
        for i in range(args.repeat):
            start = time.perf_counter()
            plots.plot_report(a, Path(tmp) / f"report{i}.png")
            times.append(time.perf_counter() - start)
            print(f"render {i + 1}: {times[-1]:.2f} s")
    best = min(times)
    print(f"best render: {best:.2f} s (limit {args.limit_s:g} s)")
    return 0 if best < args.limit_s else 1


if __name__ == "__main__":
    sys.exit(main())
